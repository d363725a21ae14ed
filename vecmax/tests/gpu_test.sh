# Tier 2 of vecmax (GPU): every version at the awkward sizes, several launch configurations
# (grids larger than n included), random and adversarial data, misaligned starts, NaN and
# -inf, files in and out, --inject-fault, and compute-sanitizer. Each run checks its versions
# exactly against the CPU maximum (Result = PASS|FAIL); the number of results expected is the
# program's own "planned: N runs" line. Without a GPU every case is skipped with the reason.
B=bin/vecmax
T=$CW_TEST_TMP
Q=(--repeat=1 --warmup=0 --cpu-repeat=1)

planned_runs() { sed -n 's/^planned: \([0-9]*\) runs$/\1/p' "$1" | head -n 1; }

# Awkward sizes x launch configurations x data. --offset=K puts the data K floats past a
# 16-byte boundary (the single-pass kernel's scalar head); n % 4 != 0 exercises its tail.
for n in 1 31 32 33 1023 1025 999983; do
  gpu_case "n=$n uniform; report 32x1" $B --n=$n --threads=32 --blocks=1 --data=uniform --seed=$n "${Q[@]}"
  gpu_case "n=$n negative; report 1024x128 and single_pass 300 blocks (grids > n)" \
    $B --n=$n --threads=1024 --blocks=128 --sp-blocks=300 --data=negative --seed=$n "${Q[@]}"
  gpu_case "n=$n spike_last offset=1; report 64x7" \
    $B --n=$n --threads=64 --blocks=7 --offset=1 --data=spike_last "${Q[@]}"
  gpu_case "n=$n spike_first offset=3; report 1x3, single_pass 2 blocks" \
    $B --n=$n --threads=1 --blocks=3 --sp-blocks=2 --offset=3 --data=spike_first "${Q[@]}"
  gpu_case "n=$n spike at a random place offset=2; report 256x1000" \
    $B --n=$n --threads=256 --blocks=1000 --offset=2 --data=spike --seed=$((n + 7)) "${Q[@]}"
done
# The report's size, default launch shapes, and a misaligned start with a 3-float tail.
gpu_case "n=40960000 uniform; automatic shapes (report 1024x128, single_pass occupancy grid)" $B --n=40960000 "${Q[@]}"
gpu_case "n=999983: --threads=0 --blocks=0 --sp-blocks=0 (automatic)" \
  $B --n=999983 --threads=0 --blocks=0 --sp-blocks=0 --data=spike_last --offset=1 "${Q[@]}"
gpu_case "n=40960000 spike_last offset=3; report 512x4000" \
  $B --n=40960000 --threads=512 --blocks=4000 --offset=3 --data=spike_last "${Q[@]}"
gpu_case "n=40960001 negative; report 32x4 (the report's slowest shape)" \
  $B 40960001 32 4 --data=negative "${Q[@]}"

# NaN policy (a NaN anywhere gives NaN, in every version) and an all -inf input (-inf, not
# CUB Max's -FLT_MAX).
gpu_case "NaN at a random place, n=1025" $B --n=1025 --threads=128 --blocks=3 --data=nan "${Q[@]}"
gpu_case "NaN at a random place, n=999983, single_pass 64 blocks" \
  $B --n=999983 --sp-blocks=64 --data=nan --seed=5 "${Q[@]}"
gpu_case "all -inf, n=33" $B --n=33 --threads=32 --blocks=2 --data=neg_inf "${Q[@]}"
gpu_case "pinned host memory, n=999983" $B --n=999983 --pinned --data=spike "${Q[@]}"
# single_pass keeps its result in one of two slots, alternating per launch: the result must
# be that of the last launch after an even and after an odd number of launches (a run
# launches each version warmup + 2 x repeat times before fetching: 2, 3, 8 and 9 here).
for launches in "--repeat=1 --warmup=0" "--repeat=1 --warmup=1" "--repeat=3 --warmup=2" "--repeat=3 --warmup=3"; do
  gpu_case "single_pass result slot after $launches" \
    $B --n=999983 --only=single_pass --data=spike --seed=9 $launches --cpu-repeat=1
done

# --input/--output, checked against a maximum computed here (not by the program's own CPU
# reference): all negative with the maximum last (n = 1001: a 1-float tail), and a NaN.
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  python3 - "$T" <<'PY'
import struct, sys, math
t = sys.argv[1]
vals = [-1.5 - (i % 97) * 0.25 for i in range(1001)]
vals[500] = float("-inf")
vals[1000] = -1.25
open(t + "/neg.bin", "wb").write(struct.pack("<1001f", *vals))
open(t + "/neg.expected", "wb").write(struct.pack("<f", max(vals)))
vals[17] = float("nan")
open(t + "/nan.bin", "wb").write(struct.pack("<1001f", *vals))
PY
fi
file_case() {  # NAME INPUT CHECK-EXPRESSION (python, on the float read back as v)
  local name=$1 input=$2 check=$3
  cw_detect_gpu
  if [ "$CW_GPU_OK" != 1 ]; then t_skip "$name" "$CW_GPU_REASON"; return; fi
  rm -f "$T/out.bin"
  t_run $B --input="$input" --output="$T/out.bin" --threads=16 --blocks=5 "${Q[@]}"
  if [ "$T_STATUS" -ne 0 ] || ! grep -q 'Result = PASS' "$T_OUT" || grep -q 'Result = FAIL' "$T_OUT"; then
    t_fail "$name" "exit $T_STATUS"; t_show_failure
  elif python3 -c "import struct,math,sys; v=struct.unpack('<f', open(sys.argv[1],'rb').read())[0]; sys.exit(0 if ($check) else 1)" "$T/out.bin"; then
    t_pass "$name"
  else
    t_fail "$name" "--output holds $(od -An -tf4 "$T/out.bin" 2>/dev/null)"
  fi
}
file_case "--input all negative, maximum last -> --output" "$T/neg.bin" \
  "open('$T/neg.expected','rb').read() == struct.pack('<f', v)"
file_case "--input with a NaN -> --output NaN" "$T/nan.bin" "math.isnan(v)"

# CSV: rows are appended at the end of each successful run, the header once (what the Slurm
# gather relies on); the number of rows is what the runs planned.
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  rm -f "$T/sweep.csv"
  ok=1 expected=0
  for args in "--threads=32 --blocks=4 --only=report" "--threads=1024 --blocks=128 --only=report" ""; do
    # shellcheck disable=SC2086
    $B --n=4099 $args --csv="$T/sweep.csv" "${Q[@]}" >"$T/csv.out" 2>&1 || ok=0
    expected=$((expected + $(planned_runs "$T/csv.out")))
  done
  lines=$(wc -l <"$T/sweep.csv" 2>/dev/null || echo 0)
  headers=$(grep -c '^assignment,' "$T/sweep.csv" 2>/dev/null || echo 0)
  bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "result_ok") c = i; if ($i == "version") v = i; if ($i == "threads") t = i }; next }
                 $c != 1 || ($v == "cub" && $t != "") || ($v != "cub" && $t == "")' "$T/sweep.csv" | wc -l)
  if [ "$ok" = 1 ] && [ "$lines" -eq $((expected + 1)) ] && [ "$headers" -eq 1 ] && [ "$bad" -eq 0 ]; then
    t_pass "--csv: one row per planned run, one header, result_ok=1, cub's threads/blocks empty"
  else
    t_fail "--csv: one row per planned run, one header, result_ok=1, cub's threads/blocks empty" \
      "ok=$ok lines=$lines (planned $expected + header) headers=$headers bad=$bad"
  fi
else
  t_skip "--csv: one row per planned run, one header, result_ok=1, cub's threads/blocks empty" "$CW_GPU_REASON"
fi

# --inject-fault: every validated version FAILs (exit 1), and neither the CSV nor the output
# file is written.
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  rm -f "$T/fault.csv" "$T/fault.bin"
  for only in "" "--only=single_pass"; do
    # shellcheck disable=SC2086
    t_run $B --n=1025 --inject-fault $only --csv="$T/fault.csv" --output="$T/fault.bin" "${Q[@]}"
    planned=$(planned_runs "$T_OUT")
    failed=$(grep -c 'Result = FAIL' "$T_OUT")
    # A baseline left out by --only runs for its time alone: no fault is planted in it.
    if [ "$T_STATUS" -eq 1 ] && [ "$failed" -eq "$planned" ] && ! grep -q 'Result = PASS' "$T_OUT" &&
       [ ! -e "$T/fault.csv" ] && [ ! -e "$T/fault.bin" ]; then
      t_pass "--inject-fault ${only:-(all versions)}: every version FAILs, exit 1, no file written"
    else
      t_fail "--inject-fault ${only:-(all versions)}: every version FAILs, exit 1, no file written" \
        "exit $T_STATUS, $failed FAIL for $planned; files: $(ls "$T" | grep fault | tr '\n' ' ')"
    fi
  done
else
  t_skip "--inject-fault: every version FAILs, exit 1, no file written" "$CW_GPU_REASON"
fi
gpu_expect_exit 2 "--device beyond the devices present" $B --n=10 --device=1000 "${Q[@]}"

# compute-sanitizer at small sizes: all three versions in each run.
sanitize memcheck "memcheck: n=1025 offset=1, report 64x3, single_pass 8 blocks" \
  $B --n=1025 --offset=1 --threads=64 --blocks=3 --sp-blocks=8 --data=spike_last "${Q[@]}"
sanitize memcheck "memcheck: n=33 offset=3, grids > n (report 1024x40, single_pass 20)" \
  $B --n=33 --offset=3 --threads=1024 --blocks=40 --sp-blocks=20 --data=negative "${Q[@]}"
sanitize racecheck "racecheck: n=5003, report 128x4, single_pass 4 blocks" \
  $B --n=5003 --threads=128 --blocks=4 --sp-blocks=4 "${Q[@]}"
sanitize synccheck "synccheck: n=5003, report 256x2, single_pass 3 blocks" \
  $B --n=5003 --threads=256 --blocks=2 --sp-blocks=3 "${Q[@]}"

# make profile's recipe at one small size (n = 2^20, the three versions): ncu accepts every
# metric of PROFILE_METRICS, each version has a row of each metric for its own kernel(s)
# (report: one, single_pass: one, cub: its two), the figure renders from the file and
# tables.py fills the README from it without failing. Skipped without a GPU or without Nsight
# Compute (ncu_profile.sh --check says which).
# The profile's rows: each version has its own kernel(s), each with a row of every metric, at n = 2^20.
vm_profile_verdict() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
metrics = sys.argv[2].strip().split(",")
bad = []
for v, kernels, pattern in (("report", 1, "vecmax_grid_stride_shared_tree"), ("single_pass", 1, "vecmax_single_pass"),
                            ("cub", 2, "DeviceReduce")):
    sel = [r for r in rows if r["version"] == v]
    names = sorted({r["kernel"] for r in sel})
    if len(names) != kernels or any(pattern not in k for k in names):
        bad.append("%s: kernels %s" % (v, names))
    for k in names:
        missing = [m for m in metrics if m not in {r["metric"] for r in sel if r["kernel"] == k}]
        if missing: bad.append("%s %s lacks %s" % (v, k, ",".join(missing)))
    if any(r["n"] != "1048576" for r in sel): bad.append("%s: n" % v)
print("; ".join(bad) if bad else "ok")
PY
}
# tables.py on the committed results plus this profile (never the committed profile.csv).
profile_experiments_case "profile: make profile-experiments at n=2^20: every metric of every version, figure and tables" \
  results dram_sol vm_profile_verdict "*.csv" PROFILE_SIZES=1048576
