#!/usr/bin/env bash
# lookback's kernel taken apart at 2^20 .. 2^22 (the lab notes' "From 2^20 to 2^22", H200), on the
# local GPU (`make -C scan/experiments results/GPU/lookback_small.csv` builds what it needs and
# runs it):
#   bash experiments/small.sh GPU    writes experiments/results/GPU/lookback_small.csv (or $OUT/):
#     experiments/lookback_tuning.cu, three processes of two rounds at 2^20, 2^21 and 2^22: the
#     committed tile's data path alone (tile_copy_smem 256x32), the same tiles through registers
#     (tile_copy), the kernel without its look-back (local), the whole kernel (256x32 minb6 tid0 ...,
#     its lb1 look-back, and the 16-int tile); a `process` column first. The variant filter (words
#     within names) also takes the window variant of the whole kernel (win4x32, in
#     lookback_window.csv), whose rows are left out.
# The file is written whole or not at all (staging.sh).
lt=build/experiments/lookback_tuning
programs="$lt"
source "$(dirname "$0")/staging.sh"
words="tile_copy,local,256x16 minb8 tid0 sleep100 hint0 stash1,256x32 minb6 tid0 sleep100 hint0 stash1"
pairs=()
for p in 1 2 3; do
  for n in 1048576 2097152 4194304; do
    CW_TUNING_N=$n "$lt" "$tmp/lt-$p-$n.csv" "$words" >"$tmp/lt.log"
    awk -F, 'NR == 1 || $2 !~ / win[0-9]+x32$/' "$tmp/lt-$p-$n.csv" >"$tmp/small-$p-$n.csv"
    pairs+=("$p" "$tmp/small-$p-$n.csv")
  done
  echo "small.sh: process $p done"
done
with_process lookback_small.csv "${pairs[@]}"
mv "$tmp/lookback_small.csv" "$out/"
echo "small.sh: $out/lookback_small.csv"
