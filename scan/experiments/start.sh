#!/usr/bin/env bash
# The start of a launch at mid sizes, the lab notes' "From 2^20 to 2^22" and "From 2^23 up" (H200),
# on the local GPU (`make -C scan/experiments results/GPU/lookback_window.csv` builds what it needs
# and runs it):
#   bash experiments/start.sh GPU    writes experiments/results/GPU/ (or $OUT/ when set):
#     lookback_window.csv     experiments/lookback_tuning.cu, three processes at 2^16 .. 2^22 of
#                             lookback's kernel with block ids (tid1), launched cooperatively
#                             (coop), with a look-back window of 32 x K predecessors (winKx32),
#                             and with drawn ids (tid0, tid0 lb1, tid0 win4x32); two processes at
#                             20,000,000 and 2^28 of the drawn-id kernels; a `process` column first
#     ws_first_fill.csv       experiments/ws_scan.cu, three processes at 2^20 .. 2^28 and 5-20 M:
#                             the chosen ws variant (every tile drawn, d0) and its tried variants,
#                             the fixed first tiles (d1) with and without a ramped first fill
#                             (_f2, _f3, _f4), the pipeline alone, CUB, lookback, the copy
#     ws_trace_first_fill.csv its --trace of d0, d1 and d1_f2 (one process, five launches each)
# The files are written whole or not at all (staging.sh: each goes to a temporary name first).
lt=build/experiments/lookback_tuning ws=build/experiments/ws_scan
programs="$lt $ws"
source "$(dirname "$0")/staging.sh"
shape=$(ws_shape)    # the program's (scan_policy.h)
fixed=$(ws_shape 1)  # the same with each CTA's first tiles fixed
small="minb6 tid1 sleep100 hint0 stash1,256x32 minb6 tid0 sleep100 hint0 stash1"
large="256x32 minb6 tid0 sleep100 hint0 stash1"
pairs=()
for p in 1 2 3; do
  for n in 65536 262144 1048576 2097152 4194304; do
    CW_TUNING_N=$n "$lt" "$tmp/lt-$p-$n.csv" "$small" >"$tmp/lt.log"; pairs+=("$p" "$tmp/lt-$p-$n.csv")
  done
done
for p in 1 2; do
  for n in 20000000 268435456; do
    CW_TUNING_N=$n "$lt" "$tmp/ltl-$p-$n.csv" "$large" >"$tmp/lt.log"; pairs+=("$p" "$tmp/ltl-$p-$n.csv")
  done
done
with_process lookback_window.csv "${pairs[@]}"
echo "start.sh: lookback_window.csv done"
sizes=2^20,2^21,2^22,5000000,7500000,2^23,10000000,12500000,15000000,2^24,20000000,2^25,2^26,2^27,2^28
pairs=()
for p in 1 2 3; do
  "$ws" --csv="$tmp/ws$p.csv" --sizes="$sizes" --check-sizes= --repeat=20 --warmup=3 \
    --only="ws$shape,ws$fixed,wscopy$shape" >"$tmp/ws.log"
  pairs+=("$p" "$tmp/ws$p.csv")
done
with_process ws_first_fill.csv "${pairs[@]}"
"$ws" --csv="$tmp/trws.csv" --trace="$tmp/trace.csv" --trace-only="ws$shape,ws$fixed" \
  --sizes=2^20,2^22,2^23,2^24,20000000,2^26,2^28 --repeat=1 --warmup=1 --only="ws$fixed" >"$tmp/trace.log"
mv "$tmp/trace.csv" "$tmp/ws_trace_first_fill.csv"
mv "$tmp/lookback_window.csv" "$tmp/ws_first_fill.csv" "$tmp/ws_trace_first_fill.csv" "$out/"
echo "start.sh: $out/lookback_window.csv, ws_first_fill.csv, ws_trace_first_fill.csv"
