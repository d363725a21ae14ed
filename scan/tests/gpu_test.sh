# Tier 2 of scan (GPU): every validated version at awkward sizes, inclusive and exclusive,
# several launch configurations, random data with negatives, wrap-around and extreme inputs,
# exact equality with the CPU (the expected counts come from the program's "planned: N runs");
# the report's n = 33 result; --input/--output; an injected fault must FAIL; compute-sanitizer memcheck, racecheck and
# synccheck on every version but the racy demonstrations; lookahead's two kernels (the
# warp-specialised one forced at awkward sizes, and each side of its policy's threshold, the
# CSV's k1_name saying which ran). Each case is skipped without a GPU. Sourced by common/tests/run_tests.sh from scan/.
scan=bin/scan
tmp=$CW_TEST_TMP
quick="--repeat=1 --warmup=0 --runs=1 --l2=keep"

# gpu_case (common/tests/testlib.sh) counts PASS + demonstration lines against the program's
# "planned: N runs", so that a version silently skipped is caught, not just one that fails.
# scan_output NAME PATTERN CMD...: on a GPU, exit 0 and stdout matches PATTERN.
scan_output() {
  local name=$1; shift
  cw_detect_gpu
  if [ "$CW_GPU_OK" != 1 ]; then t_skip "$name" "$CW_GPU_REASON"; return; fi
  expect_output "$name" "$@"
}

# Validated versions: cub, map, brent_kung, map_brent_kung, lookback, lookahead at every size; hs_buffered where n <= --threads.
awkward=1,2,31,32,33,1023,1024,1025,65537,999983
# The demonstrations are opt-in: named here from --list-versions (they are counted, never PASS).
all_versions=$($scan --list-versions | awk '{ print $1 }' | paste -sd, -)
gpu_case "awkward sizes, every version (demonstrations named), both scans" \
  $scan --sizes=$awkward --mode=both --only=$all_versions $quick
name="a plain run (no --only) runs no demonstration"
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  t_run $scan --n=5000 --mode=inclusive $quick
  if [ "$T_STATUS" -eq 0 ] && grep -q 'Result = PASS' "$T_OUT" && ! grep -q 'demonstration, not validated$' "$T_OUT"; then
    t_pass "$name"
  else t_fail "$name" "exit $T_STATUS or a demonstration line"; t_show_failure; fi
else t_skip "$name" "$CW_GPU_REASON"; fi
# The report's section 2 kernel as printed: thread 0's serial part is measured (serial_ms).
name="map_as_printed: a demonstration row with its serial part measured (serial_ms > 0)"
if [ "$CW_GPU_OK" = 1 ]; then
  t_run $scan --only=map_as_printed --sizes=1000,15000 --mode=inclusive --csv="$tmp/ap.csv" $quick
  bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["validated"] != "0" || !($c["serial_ms"] > 0) { print "row " NR ": validated=" $c["validated"] " serial_ms=" $c["serial_ms"] }
    END { if (NR != 3) print NR - 1 " rows" }' "$tmp/ap.csv" 2>&1)
  if [ "$T_STATUS" -eq 0 ] && [ -z "$bad" ]; then t_pass "$name"; else t_fail "$name" "exit $T_STATUS $bad"; t_show_failure; fi
else t_skip "$name" "$CW_GPU_REASON"; fi
gpu_case "the report's sizes (5, 50, 80 MB) and 2^28, both scans, once" \
  $scan --sizes=1250000,12500000,20000000,2^28 --mode=both --only=cub,map,brent_kung,map_brent_kung,lookback,lookahead $quick
gpu_case "--threads=32 --per-thread=2 (deep recursion)" \
  $scan --sizes=1,31,32,33,1025,65537 --threads=32 --per-thread=2 --mode=both $quick
gpu_case "--threads=128 --per-thread=3" \
  $scan --sizes=127,128,129,4097,999983 --threads=128 --per-thread=3 --mode=both $quick
gpu_case "--threads=256 --per-thread=16" \
  $scan --sizes=255,256,257,1048579 --threads=256 --per-thread=16 --mode=both $quick
# map_brent_kung: chunk counts around one Brent-Kung block (--threads=32: 64 totals per block)
# and its recursion (3 elements per thread: 192 = 64 chunks, 193 = 65; 12288 = 64 blocks of
# totals, 12289 = 65; 786433: totals 262145 -> 4097 -> 65 -> 2), and long chunks.
gpu_case "map_brent_kung: --threads=32 --per-thread=3, one block of totals and its recursion" \
  $scan --only=map_brent_kung,cub --threads=32 --per-thread=3 --mode=both \
  --sizes=1,2,3,4,191,192,193,194,12287,12288,12289,12290,786433,999983 $quick
gpu_case "map_brent_kung: --per-thread=1024 (one chunk up to n = 1024)" \
  $scan --only=map_brent_kung,cub --per-thread=1024 --mode=both --sizes=1,1023,1024,1025,2049,1048583 $quick
gpu_case "map_brent_kung and map: --per-thread=2 at 20,000,000 (the per-thread sweep's smallest K)" \
  $scan --only=map_brent_kung,map,cub --per-thread=2 --mode=both --sizes=20000000 $quick
gpu_case "map_brent_kung and map: --per-thread=64 at 20,000,000 and 2^28 (the sweep's largest K)" \
  $scan --only=map_brent_kung,map,cub --per-thread=64 --mode=both --sizes=20000000,2^28 $quick
# lookback's two tiles, whichever this GPU would choose (--lb-items=auto): 8192 ints (32 per
# thread) and 4096 (16 per thread), at and around their boundaries and at large sizes.
for items in 32 16; do
  gpu_case "lookback --lb-items=$items: tile boundaries" \
    $scan --lb-items=$items --sizes=4095,4096,4097,8191,8192,8193,16385,262145,819217 --only=lookback,cub \
    --mode=both $quick
  gpu_case "lookback --lb-items=$items: 20,000,000 and 2^28" \
    $scan --lb-items=$items --sizes=20000000,2^28 --only=lookback,cub --mode=both $quick
done
# lookahead: the warp-specialised kernel forced (--la-kernel=ws) at sizes that are not multiples
# of its 4096-int tile (one element, one partial tile, fewer tiles than SMs, more), and each side
# of the policy's threshold (scan_policy::LookaheadPolicy::kMinN) by default; where the device
# cannot run it (no sm_90 code, too little shared memory), both run lookback's kernel.
gpu_case "lookahead --la-kernel=ws: sizes not multiples of its tile" \
  $scan --la-kernel=ws --sizes=1,2,31,4095,4096,4097,8191,8193,65537,999983,1048577,4000037 --only=lookahead,cub \
  --mode=both $quick
gpu_case "lookahead --la-kernel=ws: repeated launches (epochs, counter reset), warm-up and L2 flush" \
  $scan --la-kernel=ws --sizes=999983,16777219 --only=lookahead,cub --mode=both --repeat=5 --warmup=2 --l2=flush
gpu_case "lookahead --la-kernel=ws: full int32 range and extremes" \
  $scan --la-kernel=ws --sizes=1025,999983 --data=full --only=lookahead,cub --mode=both $quick
la_threshold=$(sed -n 's/.*kMinN = \([0-9]*\);.*/\1/p' scan_policy.h)
la_sizes=$((la_threshold - 1)),$la_threshold,$((la_threshold + 1)),$((la_threshold + 4097)),268435461
name="lookahead: each side of its threshold ($la_threshold), both scans, k1_name says which kernel ran"
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ] && [ -n "$la_threshold" ]; then
  rm -f "$tmp/la.csv"
  t_run $scan --sizes=$la_sizes --only=lookahead,lookback,cub --mode=both --csv="$tmp/la.csv" $quick
  # Above the threshold the ws kernel, where the policy line says the device runs it.
  ws_here=0; grep -q '^lookahead tuning policy: warp-specialised kernel' "$T_OUT" && ws_here=1
  bad=$(awk -F, -v t="$la_threshold" -v ws="$ws_here" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["version"] == "lookahead" {
      want = (ws && $c["n"] + 0 >= t) ? "ws_scan_kernel" : "scan_decoupled_lookback"; rows++
      if ($c["k1_name"] != want || $c["result_ok"] != "1") print "n=" $c["n"] " " $c["mode"] ": k1_name=" $c["k1_name"] ", want " want }
    END { if (rows != 10) print rows + 0 " lookahead rows, want 10" }' "$tmp/la.csv" 2>&1 | head -n 3)
  pass=$(grep -c 'Result = PASS' "$T_OUT")
  if [ "$T_STATUS" -eq 0 ] && [ -z "$bad" ] && [ "$pass" -eq 30 ] && ! grep -q 'Result = FAIL' "$T_OUT"; then
    t_pass "$name"
  else t_fail "$name" "exit $T_STATUS, $pass PASS of 30, $bad"; t_show_failure; fi
elif [ "$CW_GPU_OK" = 1 ]; then t_fail "$name" "no kMinN in scan_policy.h"
else t_skip "$name" "$CW_GPU_REASON"; fi
scan_output "lookahead --la-kernel=lookback runs lookback's kernel at 2^28" \
  "version=lookahead n=268435456 mode=inclusive .*kernel=scan_decoupled_lookback \((--la-kernel=lookback|the ws kernel cannot run here)" \
  $scan --la-kernel=lookback --n=2^28 --mode=inclusive --only=lookahead $quick
gpu_case "full int32 range: sums wrap around" $scan --sizes=1025,999983 --data=full --mode=both $quick
gpu_case "all-negative input" $scan --sizes=1024,999983 --data=negative --mode=both $quick
gpu_case "single extremes (INT32_MAX, INT32_MIN)" $scan --sizes=1,2,1000,999983 --data=extreme --mode=both $quick
gpu_case "iota input 1, 2, 3, ... at 2^20 + 1" $scan --n=1048577 --data=iota --mode=both $quick
gpu_case "--pinned host buffers" $scan --n=999983 --pinned --mode=both --only=cub,map,brent_kung,lookback,lookahead $quick
gpu_case "timed runs with warm-up and L2 flush" $scan --n=999983 --mode=both --only=cub,map,brent_kung,lookback,lookahead \
  --repeat=3 --warmup=1 --l2=flush

# The report's Figure 1.3: <<<1, 32>>> on 1..33 leaves element 33 unscanned: 528^2 = 278784.
scan_output "report's n=33 result reproduced (sse 278784 on every run)" \
  "version=hs_inplace_racy .*sse\(run 1\)=278784, 3 of 3 runs wrong, first wrong element 32" \
  $scan --only=hs_inplace_racy --threads=32 --n=33 --data=iota --mode=inclusive --runs=3 --repeat=1 --warmup=0
# One warp in lock-step: exact up to 32 elements.
scan_output "in-place kernel exact for n <= 32 (one warp)" \
  "version=hs_inplace_racy .*sse\(run 1\)=0, 0 of 3 runs wrong" \
  $scan --only=hs_inplace_racy --threads=32 --n=32 --data=iota --mode=inclusive --runs=3 --repeat=1 --warmup=0
# The racy demonstrations never count: exit 0, no Result line, even where they are wrong.
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  t_run $scan --only=hs_multiblock_racy --n=2^20 --mode=inclusive $quick
  if [ "$T_STATUS" -eq 0 ] && grep -q 'version=hs_multiblock_racy .*: demonstration, not validated$' "$T_OUT" &&
     ! grep -q 'Result = ' "$T_OUT"; then
    t_pass "racy demonstration is not validated and does not set the exit status"
  else
    t_fail "racy demonstration is not validated and does not set the exit status" "exit $T_STATUS"; t_show_failure
  fi
else
  t_skip "racy demonstration is not validated and does not set the exit status" "$CW_GPU_REASON"
fi

# A wrong result must be caught: --inject-fault alters one element of every validated
# result; every planned run must FAIL, exit 1, and neither --csv nor --output be written.
gpu_fault_case "--inject-fault: lookahead's ws kernel FAILs too" "$tmp/fault2.csv" "$tmp/fault2.bin" \
  $scan --n=100003 --mode=both --only=lookahead --la-kernel=ws --inject-fault --csv="$tmp/fault2.csv" \
  --output="$tmp/fault2.bin" $quick
gpu_fault_case "--inject-fault: every validated version FAILs, exit 1, no CSV and no output written" \
  "$tmp/fault.csv" "$tmp/fault.bin" \
  $scan --n=1000 --mode=inclusive --only=cub,hs_buffered,map,brent_kung,map_brent_kung,lookback,lookahead --inject-fault \
  --csv="$tmp/fault.csv" --output="$tmp/fault.bin" $quick

# --input / --output: 1, -1, INT32_MAX, 1 -> inclusive 1, 0, INT32_MAX, INT32_MIN (wraps);
# exclusive 0, 1, 0, INT32_MAX. Raw little-endian int32.
printf '\001\000\000\000\377\377\377\377\377\377\377\177\001\000\000\000' >"$tmp/in.bin"
printf '\001\000\000\000\000\000\000\000\377\377\377\177\000\000\000\200' >"$tmp/incl.bin"
printf '\000\000\000\000\001\000\000\000\000\000\000\000\377\377\377\177' >"$tmp/excl.bin"
# lookahead+ws: lookahead with its warp-specialised kernel forced (a partial tile of 4 elements).
for v in lookahead+ws lookahead lookback brent_kung map_brent_kung map hs_buffered cub; do
  for m in inclusive exclusive; do
    name="--input/--output round trip, $v $m (wrap-around)"
    cw_detect_gpu
    if [ "$CW_GPU_OK" != 1 ]; then t_skip "$name" "$CW_GPU_REASON"; continue; fi
    rm -f "$tmp/out.bin"
    want=$tmp/incl.bin; [ $m = exclusive ] && want=$tmp/excl.bin
    force=""; [ $v = lookahead+ws ] && force=--la-kernel=ws
    t_run $scan --input="$tmp/in.bin" --output="$tmp/out.bin" --mode=$m --only=${v%+ws} $force $quick
    if [ "$T_STATUS" -eq 0 ] && cmp -s "$tmp/out.bin" "$want"; then t_pass "$name"
    else t_fail "$name" "exit $T_STATUS, output $(od -An -tx1 "$tmp/out.bin" 2>/dev/null | tr -s ' ')"; t_show_failure; fi
  done
done

# CSV: one row per planned run, the core columns first, the baseline on every row; the
# racy demonstration's row says validated=0 and whether this run happened to be right.
cw_detect_gpu
name="CSV: a row per planned run, core columns, baseline on every row, validated=0 for the demonstration"
if [ "$CW_GPU_OK" = 1 ]; then
  rm -f "$tmp/r.csv"
  t_run $scan --sizes=1000,5000 --mode=both --only=cub,brent_kung,lookback,lookahead,hs_multiblock_racy --csv="$tmp/r.csv" $quick
  planned=$(sed -n 's/^planned: \([0-9]*\) runs$/\1/p' "$T_OUT")
  header=$(head -n 1 "$tmp/r.csv" 2>/dev/null)
  rows=$(($(wc -l <"$tmp/r.csv" 2>/dev/null || echo 0) - 1))
  expected_header=$($scan --print-csv-header)
  bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["baseline_ms"] == "" { print "no baseline in row " NR }
    $c["version"] == "hs_multiblock_racy" && $c["validated"] != "0" { print "racy row validated" }
    $c["version"] != "hs_multiblock_racy" && ($c["validated"] != "1" || $c["result_ok"] != "1") { print "row " NR " not validated/ok" }
    $c["version"] == "cub" && $c["is_baseline"] != "1" { print "cub not the baseline" }' "$tmp/r.csv" | head -n 3)
  if [ "$T_STATUS" -eq 0 ] && [ -n "$planned" ] && [ "$rows" -eq "$planned" ] && [ "$header" = "$expected_header" ] &&
     [ -z "$bad" ]; then
    t_pass "$name"
  else
    t_fail "$name" "exit $T_STATUS, $rows rows of $planned planned, header $([ "$header" = "$expected_header" ] && echo ok || echo differs), $bad"
  fi
else
  t_skip "$name" "$CW_GPU_REASON"
fi

# --threads=0 is the documented automatic choice (1024, the report's BLOCK_SIZE).
scan_output "--threads=0 runs the report's versions with 1024 threads" \
  "version=brent_kung n=5000 mode=inclusive threads=1024 " \
  $scan --threads=0 --n=5000 --mode=inclusive --only=brent_kung $quick
# The look-back tuning policy is chosen from the device and said in one line.
scan_output "lookback's tuning policy is reported" "^lookback tuning policy: 256 threads x (16|32) ints per tile" \
  $scan --n=5000 --mode=inclusive --only=lookback $quick
scan_output "lookahead's tuning policy is reported" "^lookahead tuning policy: (warp-specialised kernel|lookback's kernel at every n)" \
  $scan --n=5000 --mode=inclusive --only=lookahead $quick

# compute-sanitizer on every validated version (small sizes; the racy kernels are excluded).
checked="--only=cub,hs_buffered,map,brent_kung,map_brent_kung,lookback,lookahead --mode=both $quick"
sanitize memcheck "memcheck: every validated version, --threads=128" \
  $scan --sizes=1,33,1025,70001 --threads=128 --per-thread=4 $checked
sanitize racecheck "racecheck: every validated version, --threads=128" \
  $scan --sizes=33,1025,70001 --threads=128 --per-thread=4 $checked
sanitize racecheck "racecheck: hs_buffered and brent_kung, --threads=1024" \
  $scan --sizes=1000,5000 --threads=1024 --only=hs_buffered,brent_kung --mode=both $quick
sanitize synccheck "synccheck: every validated version, --threads=128" \
  $scan --sizes=33,1025,70001 --threads=128 --per-thread=4 $checked
sanitize racecheck "racecheck: lookback with 16 ints per thread" \
  $scan --lb-items=16 --sizes=33,4097,70001 --only=lookback --mode=both $quick
sanitize memcheck "memcheck: lookback with 16 ints per thread" \
  $scan --lb-items=16 --sizes=1,4097,70001 --only=lookback --mode=both $quick
sanitize initcheck "initcheck: hs_buffered, map, brent_kung, map_brent_kung, lookback" \
  $scan --sizes=33,5000 --threads=256 --only=hs_buffered,map,brent_kung,map_brent_kung,lookback --mode=both $quick
sanitize racecheck "racecheck: map_brent_kung, --threads=32 (recursive scan of the totals)" \
  $scan --sizes=193,12289 --threads=32 --per-thread=3 --only=map_brent_kung --mode=both $quick
# lookahead's warp-specialised kernel (mbarriers, bulk copies, named barrier): forced at small
# sizes (a partial tile alone, full tiles and a partial one, more tiles than stages), and by the
# policy just above its threshold (where the device runs it; lookback's kernel elsewhere).
la_small="--la-kernel=ws --sizes=1,4097,70001 --only=lookahead --mode=both $quick"
sanitize memcheck "memcheck: lookahead, ws kernel forced" $scan $la_small
sanitize racecheck "racecheck: lookahead, ws kernel forced" $scan $la_small
sanitize synccheck "synccheck: lookahead, ws kernel forced" $scan $la_small
sanitize initcheck "initcheck: lookahead, ws kernel forced" $scan $la_small
sanitize memcheck "memcheck: lookahead just above its threshold (the policy's ws path)" \
  $scan --n=$((la_threshold + 4097)) --only=lookahead --mode=both $quick

# `make profile` on the shapes it uses: the report's map kernel (map_scan_chunks, kernel 1 of
# map_brent_kung) at n = 15000 (8 per thread, 1024 threads: a grid of 2 blocks) and the
# look-back at 5000, with the Makefile's metric list and options; every metric must come back.
scan_profile_runs() {
  local A
  A=$(make --no-print-directory -s -f Makefile -f - print-profile-args <<<'print-profile-args: ; @echo $(PROFILE_ARGS)')
  ncu_profile_run scan map_brent_kung "" 15000 "$NCU_METRICS" \
    --print-units base --kernel-name regex:map_scan_chunks --launch-count 1 $scan --only=map_brent_kung --n=15000 $A
  ncu_profile_run scan lookback "" 5000 "$NCU_METRICS" \
    --print-units base --kernel-name regex:scan_decoupled_lookback --launch-count 1 $scan --only=lookback --n=5000 $A
}
ncu_profile_case "ncu profile: map_scan_chunks at n=15000 (grid 2) and lookback at n=5000, every metric of PROFILE_METRICS" \
  "$tmp" scan_profile_runs map_brent_kung=map_scan_chunks lookback=scan_decoupled_lookback map_brent_kung@2

# Figure 3.4 SM by SM: experiments/sm_activity.cu traces every block of the map kernel and
# checks the kernel's output against the CPU (sizes not multiples of the block or the chunk).
if [ -x build/experiments/sm_activity ]; then
  gpu_case "sm_activity: every block traced, map kernel output exact (n = 1, 1025, 15000, 1250003)" \
    build/experiments/sm_activity "$tmp/sm_activity.csv" 1 1025 15000 1250003
else
  t_skip "sm_activity: every block traced, map kernel output exact (n = 1, 1025, 15000, 1250003)" \
    "build/experiments/sm_activity not built (make experiments)"
fi
