#!/usr/bin/env bash
# The mid-size measurements of the lab's notes ("Where the switch lies"), three processes each, on
# the local GPU (`make -C scan/experiments results/GPU/ws_scan_mid.csv` builds what it needs and
# runs it):
#   bash experiments/mid.sh GPU    writes experiments/results/GPU/ (or $OUT/ when set):
#     ws_scan_mid.csv  experiments/ws_scan.cu at 2^20 .. 2^28 and 5-20 M: the copy of the same n
#                      ints, CUB, lookback, the chosen ws variant and its pipeline alone (wscopy),
#                      and the tried variants named after the chosen one (--only matches words
#                      within names: its _f2/_f4/_f6 ramps and _la2/_la4/_la8 rounds),
#                      both scans; a `process` column first
#     ws_trace.csv     the first process's --trace: per launch and CTA, where the time goes
#     la_switch.csv    the program: lookahead forced to each kernel (--la-kernel=ws, lookback)
#                      beside lookback, 5-20 M, both scans
# CW_MID_RANGE=K passes --range=K to ws_scan (its input in [-K, K]; the program's is [-1000, 1000]).
# The files are written whole or not at all (staging.sh: each goes to a temporary name first).
ws=build/experiments/ws_scan scan=bin/scan
programs="$ws $scan"
source "$(dirname "$0")/staging.sh"
shape=$(ws_shape)  # the program's (scan_policy.h)
chosen=ws$shape,wscopy$shape
mid_sizes=2^20,2^21,2^22,5000000,7500000,2^23,10000000,12500000,15000000,2^24,20000000,2^25,2^26,2^27,2^28
trace_sizes=2^20,2^22,2^23,2^24,20000000,2^26,2^28
switch_sizes=5000000,7500000,10000000,12500000,15000000,20000000
for p in 1 2 3; do
  "$ws" --csv="$tmp/ws$p.csv" --sizes="$mid_sizes" --check-sizes= --repeat=20 --warmup=3 --only="$chosen" \
    ${CW_MID_RANGE:+--range="$CW_MID_RANGE"} >"$tmp/ws$p.log"
  [ "$p" != 1 ] || "$ws" --csv="$tmp/tr-ws.csv" --trace="$tmp/tr1.csv" --sizes="$trace_sizes" --check-sizes= \
    --repeat=1 --warmup=1 --only=nothing-else ${CW_MID_RANGE:+--range="$CW_MID_RANGE"} >"$tmp/tr.log"
  for k in ws lookback; do
    "$scan" --only=lookahead,lookback --la-kernel=$k --sizes="$switch_sizes" --repeat=50 --warmup=5 \
      --csv="$tmp/la.csv" >"$tmp/la-$k-$p.log"
  done
  echo "mid.sh: process $p done"
done
with_process ws_scan_mid.csv 1 "$tmp/ws1.csv" 2 "$tmp/ws2.csv" 3 "$tmp/ws3.csv"
with_process ws_trace.csv 1 "$tmp/tr1.csv"
mv "$tmp/ws_scan_mid.csv" "$tmp/ws_trace.csv" "$out/"
mv "$tmp/la.csv" "$out/la_switch.csv"
echo "mid.sh: $out/ws_scan_mid.csv, ws_trace.csv, la_switch.csv"
