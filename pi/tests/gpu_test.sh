# Tier 2 of pi (GPU): every version at the awkward sizes, several launch configurations,
# the report's largest size once (with the accuracy targets), and compute-sanitizer.
# Sourced by common/tests/run_tests.sh from pi/; every case is skipped where there is no GPU.
P=bin/pi
Q="--repeat=2 --warmup=1 --cpu-repeat=1"
SIZES=1,63,64,65,1025,1000003
for t in 32 256 1024; do
  gpu_case "pi: GPU versions, float+double, niter=$SIZES, threads=$t" \
    $P --sizes=$SIZES --threads=$t --only=1,2,single,thrust --precision=both $Q
done
# Kernels 1 and 2: chunks that do not divide niter, a chunk larger than niter, one term per thread.
for c in 1 7 1000; do
  gpu_case "pi: kernels 1 and 2, chunk=$c, niter=$SIZES" \
    $P --sizes=$SIZES --chunk=$c --threads=64 --only=1,2 --precision=both $Q
done
# The single-launch version: one block (it is its own last block), a few blocks, and more
# blocks than tiles (threads with no tile, only remainder terms or nothing).
for b in 1 3 5000; do
  gpu_case "pi: single, blocks=$b, niter=$SIZES" \
    $P --sizes=$SIZES --blocks=$b --threads=128 --only=single --precision=both $Q
done
rm -f "$CW_TEST_TMP/cpu.csv"
gpu_case "pi: CPU versions and the report's formula, niter=1,63,65,1025" \
  $P --sizes=1,63,65,1025 --only=cpu,cpu_omp,cpu_report,2 --precision=both $Q --csv="$CW_TEST_TMP/cpu.csv"
if [ "$CW_GPU_OK" = 1 ]; then
  # CPU rows: threads and blocks do not apply (empty), cpu_threads says how many ran; one row
  # per planned run.
  planned=$(sed -n 's/^planned: \([0-9]*\) runs$/\1/p' "$T_OUT")
  verdict=$(python3 - "$CW_TEST_TMP/cpu.csv" "${planned:-0}" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [] if len(rows) == int(sys.argv[2]) else ["%d rows for %s planned runs" % (len(rows), sys.argv[2])]
for r in rows:
    cpu = r["version"].startswith("cpu")
    if cpu and (r["threads"] != "" or r["blocks"] != "" or r["cpu_threads"] == ""):
        bad.append("%s: threads=%r blocks=%r cpu_threads=%r" % (r["version"], r["threads"], r["blocks"], r["cpu_threads"]))
    if not cpu and (r["threads"] == "" or r["blocks"] == "" or r["cpu_threads"] != ""):
        bad.append("%s: threads=%r blocks=%r cpu_threads=%r" % (r["version"], r["threads"], r["blocks"], r["cpu_threads"]))
print("; ".join(bad) if bad else "ok")
PY
)
  if [ "$verdict" = ok ]; then t_pass "pi: CPU rows leave threads/blocks empty, one row per planned run"
  else t_fail "pi: CPU rows leave threads/blocks empty, one row per planned run" "$verdict"; fi
else
  t_skip "pi: CPU rows leave threads/blocks empty, one row per planned run" "$CW_GPU_REASON"
fi
gpu_case "pi: --pinned, --input of int64 sizes" \
  sh -c "python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack(\"<3q\", 1, 65, 100003))' >$CW_TEST_TMP/n.bin &&
         $P --input=$CW_TEST_TMP/n.bin --pinned --only=1,2,single,thrust $Q"

# The report's largest size, every GPU version, float and double, once: all pass, and the
# single-launch version meets the accuracy targets (|err| <= 1e-6 float, 1e-12 double).
if [ "$CW_GPU_OK" = 1 ]; then
  csv=$CW_TEST_TMP/big.csv out=$CW_TEST_TMP/big.bin
  rm -f "$csv"
  gpu_case "pi: every GPU version at niter=2^24*64" \
    $P --niter=2^30 --only=1,2,single,thrust --precision=both --repeat=2 --warmup=1 --csv=$csv --output=$out
  planned=$(sed -n 's/^planned: \([0-9]*\) runs$/\1/p' "$T_OUT")
  if [ -f "$csv" ]; then
    verdict=$(python3 - "$csv" "$out" "${planned:-0}" <<'PY'
import csv, struct, sys
rows = list(csv.DictReader(open(sys.argv[1])))
est = struct.unpack("<%dd" % (len(open(sys.argv[2], "rb").read()) // 8), open(sys.argv[2], "rb").read())
planned = int(sys.argv[3])
bad = []
if planned == 0 or len(rows) != planned: bad.append("%d rows, the program planned %d runs" % (len(rows), planned))
for r in rows:
    if r["bandwidth_GBps"] != "" or r["pct_of_copy_bw"] != "": bad.append("%s: bandwidth not empty" % r["version"])
    if (r["version"] == "thrust") != (r["is_baseline"] == "1"): bad.append("%s: is_baseline %s" % (r["version"], r["is_baseline"]))
    if r["version"] == "thrust" and r["kernel_ms_scope"] != "call: alloc+kernels+copy+free": bad.append("thrust scope %r" % r["kernel_ms_scope"])
    if r["version"] != "thrust" and r["kernel_ms_scope"] != "kernels": bad.append("%s scope %r" % (r["version"], r["kernel_ms_scope"]))
if len(est) != len(rows): bad.append("--output has %d values for %d rows" % (len(est), len(rows)))
for r, e in zip(rows, est):
    if abs(float(r["estimate"]) - e) > 1e-15 * abs(e): bad.append("output value %r != CSV %s" % (e, r["estimate"]))
    if r["result_ok"] != "1": bad.append("%s %s failed" % (r["version"], r["precision"]))
for r in rows:
    if r["version"] == "single":
        limit = 1e-6 if r["precision"] == "float" else 1e-12
        if not float(r["abs_error"]) <= limit:
            bad.append("single %s |err| = %s > %g" % (r["precision"], r["abs_error"], limit))
print("; ".join(bad) if bad else "ok")
PY
)
    if [ "$verdict" = ok ]; then t_pass "pi: niter=2^30 CSV and --output agree, single meets the accuracy targets"
    else t_fail "pi: niter=2^30 CSV and --output agree, single meets the accuracy targets" "$verdict"; fi
  else
    t_fail "pi: niter=2^30 CSV and --output agree, single meets the accuracy targets" "no CSV written"
  fi
else
  t_skip "pi: niter=2^30 CSV and --output agree, single meets the accuracy targets" "$CW_GPU_REASON"
fi

# --inject-fault: every estimate is replaced by NaN, so every planned run must FAIL (exit 1),
# and neither the CSV nor the --output file may be written.
gpu_fault_case "pi: --inject-fault makes every planned run FAIL, exit 1, no CSV, no output" \
  "$CW_TEST_TMP/fault.csv" "$CW_TEST_TMP/fault.bin" \
  $P --sizes=65,1025 --only=1,2,single,thrust,cpu,cpu_omp,cpu_report --precision=both $Q --inject-fault \
  --csv="$CW_TEST_TMP/fault.csv" --output="$CW_TEST_TMP/fault.bin"

# compute-sanitizer on small sizes (one run of each version, float and double).
S="--sizes=65,1025 --threads=64 --precision=both --repeat=1 --warmup=0 --cpu-repeat=1"
sanitize memcheck "pi: memcheck, every GPU version" $P $S --only=1,2,single,thrust
sanitize racecheck "pi: racecheck, kernels 1, 2 and single" $P $S --only=1,2,single
sanitize racecheck "pi: racecheck, single with 1 block" $P $S --only=single --blocks=1
sanitize synccheck "pi: synccheck, kernels 1, 2 and single" $P $S --only=1,2,single
sanitize initcheck "pi: initcheck, kernels 1, 2 and single" $P $S --only=1,2,single

# make profile's recipe at a small size (niter 2^20, every profiled version and precision):
# ncu accepts every metric of PROFILE_METRICS, each of the 8 version labels has a row for each of
# them, and the figure and the README's counter table are made from the file. Skipped without
# a GPU or without Nsight Compute (ncu_profile.sh --check says which).
# The profile's rows: each of the 8 version labels has a row of every metric, all at n = 2^20.
pi_profile_verdict() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
metrics = sys.argv[2].strip().split(",")
bad = []
for v in ("1", "2", "single", "thrust"):
    for p in ("float", "double"):
        got = {r["metric"] for r in rows if r["version"] == v + ":" + p}
        missing = [m for m in metrics if m not in got]
        if missing: bad.append("%s:%s lacks %s" % (v, p, ",".join(missing)))
        if any(r["n"] != "1048576" for r in rows if r["version"] == v + ":" + p): bad.append("%s:%s: n" % (v, p))
print("; ".join(bad) if bad else "ok")
PY
}
profile_experiments_case "pi: make profile-experiments at niter=2^20: every metric of every version, figure and tables" \
  "" pipe_utilisation pi_profile_verdict bench.csv PI_PROFILE_NITER=1048576
