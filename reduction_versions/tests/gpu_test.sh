# Tier 2 of reduction_versions (GPU): every version (1..8 and cub) at the awkward sizes with
# every block size it supports (64..1024), seeded random signed data, exact equality with the
# CPU sum (the program checks two runs of each version and exits 1 on any mismatch); other
# data and grids; a fault that must be caught; compute-sanitizer memcheck, racecheck and
# synccheck at small sizes. The unfixed version 5 is not among the default versions, so it is
# excluded from all of these; it has its own case that checks it is never counted. Expected
# counts come from the program's own "planned: N runs" line.
P=bin/reduction_versions
T=$CW_TEST_TMP
FAST="--repeat=1 --warmup=0 --l2=keep"

SEED=${CW_SEED:-$RANDOM}  # a new data set each run; the case names say which (CW_SEED=S repeats one)
gpu_case "every version, threads 64..1024, n=1,31,32,33,255,256,257,1023,1025, random signed data (seed $SEED)" \
  $P --sizes=1,31,32,33,255,256,257,1023,1025 --threads=all $FAST --seed=$SEED
for n in 999983 8388608 2^28; do
  gpu_case "every version, threads 64..1024, n=$n, random signed data (seed $SEED)" $P --n=$n --threads=all $FAST --seed=$SEED
done
for data in negative extreme small iota; do
  gpu_case "every version, threads 64..1024, n=1025 and 999983, --data=$data" \
    $P --sizes=1025,999983 --threads=all --data=$data $FAST
done
gpu_case "versions 7 and 8 with --blocks=1,3,1000 grids (n=257, 999983)" \
  sh -c "for b in 1 3 1000; do $P --only=7,8 --sizes=257,999983 --threads=all --blocks=\$b $FAST || exit 1; done"
gpu_case "pinned host buffer, n=1000001" $P --n=1000001 --pinned $FAST
gpu_case "automatic block size and grid (--threads=0 --blocks=0), n=1, 65536, 999983" \
  $P --sizes=1,65536,999983 --threads=0 --blocks=0 $FAST
gpu_expect_exit 1 "a wrong GPU sum is caught (--inject-fault): exit 1" $P --n=4097 --inject-fault $FAST
if [ "$CW_GPU_OK" = 1 ]; then
  planned=$(sed -n 's/^planned: \([0-9]*\) runs$/\1/p' "$T_OUT")
  fails=$(grep -c 'Result = FAIL' "$T_OUT")
  if [ -n "$planned" ] && [ "$fails" -eq "$planned" ] && ! grep -q 'Result = PASS' "$T_OUT"; then
    t_pass "--inject-fault: every one of the $planned planned runs reports FAIL"
  else t_fail "--inject-fault: every planned run reports FAIL" "planned '$planned', $fails FAIL lines"; fi
else
  t_skip "--inject-fault: every planned run reports FAIL" "$CW_GPU_REASON"
fi

if [ "$CW_GPU_OK" = 1 ]; then
  rm -f "$T/f.csv" "$T/f.bin"
  t_run $P --n=4097 --inject-fault --csv=$T/f.csv --output=$T/f.bin $FAST
  if [ "$T_STATUS" -eq 1 ] && [ ! -e "$T/f.csv" ] && [ ! -e "$T/f.bin" ]; then
    t_pass "--inject-fault (exit 1): no CSV and no output file written"
  else t_fail "--inject-fault (exit 1): no CSV and no output file written" "exit $T_STATUS"; fi
else
  t_skip "--inject-fault (exit 1): no CSV and no output file written" "$CW_GPU_REASON"
fi

# --input / --output: the GPU sum of a file equals the wrap-around sum computed by Python.
if [ "$CW_GPU_OK" = 1 ] && command -v python3 >/dev/null; then
  python3 -c "import os; open('$T/in.bin','wb').write(os.urandom(4*100003))"
  want=$(python3 -c "import struct; d=open('$T/in.bin','rb').read(); s=sum(struct.unpack('<%di'%(len(d)//4), d)) & 0xffffffff; print(s-(1<<32) if s>=1<<31 else s)")
  t_run $P --input=$T/in.bin --output=$T/out.bin $FAST
  got=$(python3 -c "import struct; print(struct.unpack('<i', open('$T/out.bin','rb').read())[0])" 2>/dev/null)
  if [ "$T_STATUS" -eq 0 ] && [ "$got" = "$want" ]; then t_pass "--input file summed, --output holds the sum ($want)"
  else t_fail "--input file summed, --output holds the sum" "exit $T_STATUS, got '$got', expected '$want'"; t_show_failure; fi
else
  t_skip "--input file summed, --output holds the sum" "${CW_GPU_REASON:-python3 not found}"
fi

# CSV: one row per planned run (size, threads, version; CUB once per size), the core columns.
if [ "$CW_GPU_OK" = 1 ]; then
  rm -f "$T/r.csv"
  t_run $P --sizes=100,5000 --threads=64,512 --csv=$T/r.csv $FAST
  planned=$(sed -n 's/^planned: \([0-9]*\) runs$/\1/p' "$T_OUT")
  rows=$(($(wc -l <"$T/r.csv") - 1))
  head=$(head -n 1 "$T/r.csv")
  missing=""
  for col in assignment version validated is_baseline device compute_capability driver runtime n threads blocks \
             kernel_ms kernel_ms_scope bandwidth_GBps pct_of_copy_bw baseline_ms speedup_vs_baseline result_ok \
             kernel cpu_ms gpu_sum cpu_sum; do
    case ",$head," in *",$col,"*) ;; *) missing="$missing $col" ;; esac
  done
  if [ "$T_STATUS" -eq 0 ] && [ -n "$planned" ] && [ "$rows" -eq "$planned" ] && [ -z "$missing" ] &&
     [ "$head" = "$($P --print-csv-header)" ] &&
     ! cut -d, -f1 "$T/r.csv" | tail -n +2 | grep -vqx reduction_versions; then
    t_pass "--csv writes one row per planned run ($planned) with the core columns first"
  else
    t_fail "--csv writes one row per planned run with the core columns" "exit $T_STATUS, $rows rows, planned '$planned', missing:$missing"
  fi
else
  t_skip "--csv writes one row per planned run with the core columns" "$CW_GPU_REASON"
fi

# The report's version 5 as printed: only when named, never counted as PASS/FAIL, its CSV
# rows marked validated = 0.
if [ "$CW_GPU_OK" = 1 ]; then
  rm -f "$T/u.csv"
  t_run $P --only=5-unfixed --n=8192 --threads=256 --csv=$T/u.csv $FAST
  validated=$(python3 -c "import csv,sys; print(' '.join(sorted({r['validated'] for r in csv.DictReader(open(sys.argv[1]))})))" "$T/u.csv" 2>/dev/null)
  if [ "$T_STATUS" -eq 0 ] && grep -q 'version=5-unfixed .*demonstration, not validated' "$T_OUT" &&
     ! grep -q 'Result = ' "$T_OUT" && [ "$validated" = "0" ]; then
    t_pass "5-unfixed runs as a labelled demonstration, never counted, CSV validated=0 ($(grep -o '[0-9]* of [0-9]* checked runs gave a wrong sum' "$T_OUT"))"
  else
    t_fail "5-unfixed runs as a labelled demonstration, never counted, CSV validated=0" "exit $T_STATUS, validated '$validated'"; t_show_failure
  fi
  t_run $P --n=1024 $FAST
  if grep -q '5-unfixed' "$T_OUT"; then t_fail "5-unfixed is not among the default versions"; else t_pass "5-unfixed is not among the default versions"; fi
else
  t_skip "5-unfixed runs as a labelled demonstration, never counted, CSV validated=0" "$CW_GPU_REASON"
  t_skip "5-unfixed is not among the default versions" "$CW_GPU_REASON"
fi

gpu_expect_exit 2 "--device beyond the devices present: exit 2" $P --device=1000 --n=10

# compute-sanitizer at small sizes: every default version (1..8, cub), every block size.
sanitize memcheck "memcheck: every version, threads 64..1024, n=33 and 1025" $P --sizes=33,1025 --threads=all $FAST
sanitize memcheck "memcheck: versions 7 and 8, --blocks=3, n=4099" $P --only=7,8 --n=4099 --threads=all --blocks=3 $FAST
sanitize racecheck "racecheck: every version, threads 64,256,1024, n=1025" $P --n=1025 --threads=64,256,1024 $FAST
sanitize synccheck "synccheck: every version, threads 64,256,1024, n=1025" $P --n=1025 --threads=64,256,1024 $FAST

# The latency experiment (report-experiments step 6): four rows, shared memory the fastest and
# DRAM the slowest (an ordering any GPU must show; the factors are what the README reports).
LAT=build/experiments/memory_latency
if [ "$CW_GPU_OK" != 1 ]; then
  t_skip "memory_latency: shared < L2 < DRAM cycles per dependent load" "$CW_GPU_REASON"
elif [ ! -x "$LAT" ]; then
  t_skip "memory_latency: shared < L2 < DRAM cycles per dependent load" "$LAT not built (make experiments)"
else
  rm -f "$T/lat.csv"
  t_run $LAT "$T/lat.csv"
  order=$(python3 -c "import csv,sys; c={r['memory']: float(r['cycles_per_load']) for r in csv.DictReader(open(sys.argv[1]))}; print('ok' if len(c) == 4 and 0 < c['shared'] < c['L2'] < c['DRAM'] and c['L1'] < c['L2'] else c)" "$T/lat.csv" 2>&1)
  if [ "$T_STATUS" -eq 0 ] && [ "$order" = ok ]; then
    t_pass "memory_latency: shared < L2 < DRAM cycles per dependent load ($(tr '\n' ' ' <"$T/lat.csv" | cut -c1-160))"
  else
    t_fail "memory_latency: shared < L2 < DRAM cycles per dependent load" "exit $T_STATUS, $order"; t_show_failure
  fi
fi

# `make profile` on one small size: versions 1 and 8 and CUB as profile-experiments calls them
# (ncu options before the program); the tidy rows name each version's first-pass kernel,
# whose grid is the first launch's (65,536 ints / 256 threads = 256 blocks for version 1).
rv_profile_runs() {
  local v
  for v in 1 8; do
    ncu_profile_run reduction_versions $v "" 65536 "$NCU_METRICS" \
      --print-units base --kernel-name regex:reduce_ --launch-count 1 $P --only=$v --n=65536 --threads=256 --repeat=1 --warmup=0 --l2=keep
  done
  ncu_profile_run reduction_versions cub "" 65536 "$NCU_METRICS" \
    --print-units base --launch-count 2 $P --only=cub --n=65536 --repeat=1 --warmup=0 --l2=keep
}
ncu_profile_case "ncu profile: first-pass kernel of versions 1, 8 and cub at n=65536, every metric of PROFILE_METRICS" \
  "$T" rv_profile_runs 1=reduce_interleaved_divergent 8=reduce_vectorized_shuffle_atomic 1@256 cub~Reduce
