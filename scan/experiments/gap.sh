#!/usr/bin/env bash
# The program against the experiment at 2^23, 2^24 and 20,000,000 (the lab notes' "The program
# and the experiment"), three processes per setting, on the local GPU (`make -C scan/experiments
# results/GPU/program_settings.csv` builds what it needs and runs it):
#   bash experiments/gap.sh GPU    writes experiments/results/GPU/ (or $OUT/ when set):
#     program_settings.csv  the program (bin/scan --only=lookback,lookahead, inclusive) with its
#                           defaults and with one setting changed: --data=full, --data=iota,
#                           --warmup=200, --l2=keep; a `setting` and a `process` column first, then
#                           the columns that say what ran and what it took
#     ws_range.csv          experiments/ws_scan.cu, the chosen variant (its tried ramps and rounds,
#                           in ws_scan_mid.csv, left out) beside the copy, CUB and lookback, both
#                           scans, with the input in [-1000, 1000] (the program's) and in
#                           [-10^6, 10^6] (the experiment's default); a `range` and a `process`
#                           column first
# The files are written whole or not at all (staging.sh).
ws=build/experiments/ws_scan scan=bin/scan
programs="$ws $scan"
source "$(dirname "$0")/staging.sh"
chosen=ws$(ws_shape)  # the variant the program runs (scan_policy.h)
sizes=2^23,2^24,20000000
columns=version,n,mode,data,warmup,l2,repeat,kernel_ms,baseline_ms,copy_n_ms,k1_name,device
echo "setting,process,$columns" >"$tmp/program_settings.csv"
for setting in default:"" full:--data=full iota:--data=iota warmup200:--warmup=200 l2keep:--l2=keep; do
  name=${setting%%:*} option=${setting#*:}
  for p in 1 2 3; do
    "$scan" --only=lookback,lookahead --sizes="$sizes" --mode=inclusive ${option:+"$option"} \
      --csv="$tmp/scan.csv" >"$tmp/scan-$name-$p.log"
    awk -F, -v cols="$columns" -v lead="$name,$p" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(cols, want, ","); next }
      { line = lead; for (k = 1; k <= n; k++) line = line "," $c[want[k]]; print line }' "$tmp/scan.csv" >>"$tmp/program_settings.csv"
    rm -f "$tmp/scan.csv"
  done
  echo "gap.sh: setting $name done"
done
first=1
for range in 1000 1000000; do
  for p in 1 2 3; do
    "$ws" --csv="$tmp/ws.csv" --sizes="$sizes" --check-sizes= --repeat=20 --warmup=3 --only="$chosen" \
      --range="$range" >"$tmp/ws-$range-$p.log"
    [ $first = 0 ] || { echo "range,process,$(head -n 1 "$tmp/ws.csv")" >"$tmp/ws_range.csv"; first=0; }
    awk -F, -v lead="$range,$p" 'NR > 1 && $1 !~ /_(f|la)[0-9]+$/ { print lead "," $0 }' "$tmp/ws.csv" >>"$tmp/ws_range.csv"
  done
  echo "gap.sh: range $range done"
done
mv "$tmp/program_settings.csv" "$tmp/ws_range.csv" "$out/"
echo "gap.sh: $out/program_settings.csv, ws_range.csv"
