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
iota = []
for l in rows(8388608, 256, V):  # the report's 1, 2, ..., n: its sum wraps to 2^22 modulo 2^32
    d = dict(zip(cols, l.split(",")))
    d.update(data="iota", seed="", cpu_sum=4194304, gpu_sum=4194304, kernel_ms=float(d["kernel_ms"]) * 1.02)
    iota.append(",".join(str(d[c]) for c in cols))
write("versions.csv", rows(8388608, 256, V) + iota)
with open(os.path.join(out, "latency.csv"), "w") as f:
    f.write("device,memory,footprint_bytes,stride_bytes,loads,cycles_per_load\n"
            "Synthetic GPU,shared,4096,4,1048576,30\nSynthetic GPU,L1,16384,128,1048576,38\n"
            "Synthetic GPU,L2,4194304,128,262144,270\nSynthetic GPU,DRAM,268435456,128,65536,820\n")
# Nsight Compute counters as common/py/ncu_tidy.py writes them; CUB with its two kernels.
metrics = {"gpu__time_duration.sum": "nsecond", "dram__throughput.avg.pct_of_peak_sustained_elapsed": "%",
           "dram__bytes_read.sum": "byte", "sm__warps_active.avg.pct_of_peak_sustained_active": "%",
           "sm__maximum_warps_per_active_cycle_pct": "%", "smsp__inst_executed.sum": "inst",
           "smsp__thread_inst_executed_per_inst_executed.ratio": "",
           "smsp__sass_branch_targets_threads_divergent.sum": "",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "",
           "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio": "", "launch__grid_size": "",
           "launch__block_size": "", "launch__registers_per_thread": "register/thread"}
prof = ["assignment,version,kernel,m,n,metric,unit,value,launches,device,ncu_version"]
for i, v in enumerate(V):
    kernels = ["k" + v] if v != "cub" else ['"cub::DeviceReduceKernel<P, unsigned int>"',
                                            '"cub::DeviceReduceSingleTileKernel<P, unsigned int>"']
    for j, k in enumerate(kernels):
        for m, unit in metrics.items():
            value = 1 if (j == 1 and m == "launch__grid_size") else (1000 * (9 - i) + 10 * j + 7)
            prof.append(f"reduction_versions,{v},{k},,8388608,{m},{unit},{value},1,Synthetic GPU,2025.3.0")
with open(os.path.join(out, "profile.csv"), "w") as f:
    f.write("\n".join(prof) + "\n")
write("size_sweep.csv", [l for e in range(10, 29) for l in rows(2 ** e, 256, V)])
write("threads.csv", [l for t in (64, 128, 256, 512, 1024) for l in rows(8388608, t, V[:-1])] + rows(8388608, 256, ["cub"]))
write("unfixed_v5.csv", [l for n in (1024, 8388608) for t in (64, 1024) for l in rows(n, t, ["5", "5-unfixed"])])
PY
  for fig in time_per_version:versions bandwidth_per_version:versions bandwidth_vs_size:size_sweep \
             profile_counters:profile; do
    name=${fig%%:*} csv=${fig##*:}
    figure_case "figure $name renders from a synthetic $csv.csv" "plots/$name.gp" "$T/$csv.csv" "$T/$name.png" "$T/$name.log"
  done
  python3 tables.py "$T" --out "$T/tables.md" >"$T/tables.log" 2>&1 &&
    grep -q '^| 8 | `k8` |' "$T/tables.md" && grep -q '| 4194304 | 4194304 |' "$T/tables.md" &&
    grep -q '| `cub::DeviceReduceKernel<P, unsigned int>` |' "$T/tables.md" &&
    grep -q '^| 4→5 |' "$T/tables.md" && grep -q '^| DRAM | 268,435,456 |' "$T/tables.md"
  t_verdict "tables.py writes every table of a run from synthetic CSVs (--out)" "$T/tables.log"
  # Without the newer CSVs (latency.csv, profile.csv, iota rows) the tables say what is missing.
  mkdir -p "$T/old"
  cp "$T/size_sweep.csv" "$T/threads.csv" "$T/unfixed_v5.csv" "$T/old/"
  grep -v ',iota,' "$T/versions.csv" >"$T/old/versions.csv"
  python3 tables.py "$T/old" --out "$T/old/tables.md" >"$T/old/tables.log" 2>&1 &&
    grep -A2 '^## profile$' "$T/old/tables.md" | grep -q '(no data' && grep -q '(no data: latency.csv' "$T/old/tables.md" &&
    grep -q '^| 8 | `k8` |' "$T/old/tables.md"
  t_verdict "tables.py without profile.csv, latency.csv and iota rows: the other tables, and no data for those" "$T/old/tables.log"
fi
