#!/usr/bin/env bash
# Builds and runs the look-back tuning experiment on the local GPU (most of the time goes to
# compiling the variants; `make -C scan/experiments results/GPU/lookback_tuning.csv` runs it):
#   bash experiments/run.sh GPU    writes experiments/results/GPU/lookback_tuning.csv (or
#                                  $OUT/lookback_tuning.csv when OUT is set)
# The CSV is replaced only when the whole experiment succeeded. CW_TUNING_FILTER=word,word runs
# only the variants whose names contain one of the words (a quick look; not for the committed CSV).
set -euo pipefail
[ -n "${OUT:-}" ] && { mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd); }  # absolute before the cd below
cd "$(dirname "$0")"
out=${OUT:-results/${1:?usage: run.sh GPU (writes experiments/results/GPU/), or OUT=DIR run.sh}}
mkdir -p ../build "$out"
nvcc -O3 -std=c++17 -arch=native -I../../common -I.. -o ../build/lookback_tuning lookback_tuning.cu
rm -f "$out/lookback_tuning.csv.partial"
../build/lookback_tuning "$out/lookback_tuning.csv.partial" ${CW_TUNING_FILTER:+"$CW_TUNING_FILTER"} ||
  { rm -f "$out/lookback_tuning.csv.partial"; exit 1; }
mv -f "$out/lookback_tuning.csv.partial" "$out/lookback_tuning.csv"
echo "experiments/run.sh: wrote $out/lookback_tuning.csv"
