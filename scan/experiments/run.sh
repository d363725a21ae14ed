#!/usr/bin/env bash
# Builds and runs the look-back tuning experiment on the local GPU (most of the time goes to
# compiling the variants). Output: results/lookback_tuning.csv, or in $OUT/
# when set; `run.sh h200` writes results/h200/lookback_tuning.csv (the same experiment on a
# second GPU, kept beside the first). CW_TUNING_FILTER=word,word runs only the variants whose
# names contain one of the words (a quick look; not for the committed CSV).
set -euo pipefail
[ -n "${OUT:-}" ] && { mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd); }  # absolute before the cd below
cd "$(dirname "$0")"
out=${OUT:-../results${1:+/$1}}
mkdir -p ../build "$out"
nvcc -O3 -std=c++17 -arch=native -I../../common -o ../build/lookback_tuning lookback_tuning.cu
../build/lookback_tuning "$out/lookback_tuning.csv" ${CW_TUNING_FILTER:+"$CW_TUNING_FILTER"}
