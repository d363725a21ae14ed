# Tier 1 (no GPU): the plot scripts and tables.py work on CSVs with the program's own header
# (bin/reduction_versions --print-csv-header). The rows are synthetic, made here in a temporary
# folder only; the committed results/ are rendered separately by the test runner.
P=bin/reduction_versions
T=$CW_TEST_TMP/synthetic
mkdir -p "$T"
if ! command -v python3 >/dev/null || ! command -v gnuplot >/dev/null; then
  t_skip "figures and tables from synthetic CSVs" "python3 or gnuplot not installed"
elif ! header=$($P --print-csv-header); then
  t_fail "--print-csv-header prints the header"
else
  t_pass "--print-csv-header prints the header without a GPU"
  HEADER=$header OUTDIR=$T python3 - <<'PY'
import os
cols = os.environ["HEADER"].split(",")
out = os.environ["OUTDIR"]
def rows(n, t, versions):
    lines = []
    for i, v in enumerate(versions):
        ms = 4 * n / ((300 + 300 * i) * 1e6) + 0.004
        d = {c: "0" for c in cols}
        d.update(assignment="reduction_versions", version=v, kernel="k" + v, device="Synthetic GPU",
                 compute_capability="9.0", driver="13.0", runtime="13.0", n=n, bytes=4 * n, data="full",
                 threads=t, blocks=100, launches=2, l2="flush", repeat=20, warmup=3, kernel_ms=ms,
                 bandwidth_GBps=4 * n / ms / 1e6, copy_bw_GBps=3000, pct_of_copy_bw=4 * n / ms / 3e7,
                 baseline_ms=0.01, speedup_vs_baseline=0.01 / ms, cpu_ms=n / 2.5e6,
                 cpu_bandwidth_GBps=10, checks=2, result_ok=1, validated=0 if v == "5-unfixed" else 1,
                 is_baseline=1 if v == "cub" else 0, kernel_ms_scope="kernels")
        if v == "cub":  # the library's own launch: no block size, no grid, no launch count
            d.update(threads="", blocks="", launches="", memsets="")
        lines.append(",".join(str(d[c]) for c in cols))
    return lines
V = "1 2 3 4 5 6 7 8 cub".split()
def write(name, lines):
    with open(os.path.join(out, name), "w") as f:
        f.write(",".join(cols) + "\n" + "\n".join(lines) + "\n")
write("versions.csv", rows(8388608, 256, V))
write("size_sweep.csv", [l for e in range(10, 29) for l in rows(2 ** e, 256, V)])
write("threads.csv", [l for t in (64, 128, 256, 512, 1024) for l in rows(8388608, t, V[:-1])] + rows(8388608, 256, ["cub"]))
write("unfixed_v5.csv", [l for n in (1024, 8388608) for t in (64, 1024) for l in rows(n, t, ["5", "5-unfixed"])])
PY
  for fig in time_per_version:versions bandwidth_per_version:versions bandwidth_vs_size:size_sweep; do
    name=${fig%%:*} csv=${fig##*:}
    if gnuplot -c "plots/$name.gp" "$T/$csv.csv" "$T/$name.png" >"$T/$name.log" 2>&1 && [ -s "$T/$name.png" ] &&
       ! grep -qiE 'warning|error' "$T/$name.log"; then
      t_pass "figure $name renders from a synthetic $csv.csv"
    else
      t_fail "figure $name renders from a synthetic $csv.csv" "$(head -n 3 "$T/$name.log" | tr '\n' ' ')"
    fi
  done
  cp README.md "$T/README.md"
  if python3 tables.py "$T" "$T/README.md" >"$T/tables.log" 2>&1 && ! grep -q 'no `results/' "$T/README.md" &&
     grep -q '| \*\*8\*\* |' "$T/README.md"; then
    t_pass "tables.py fills every README table from synthetic CSVs"
  else
    t_fail "tables.py fills every README table from synthetic CSVs" "$(head -n 3 "$T/tables.log" | tr '\n' ' ')"
  fi
fi
