#!/usr/bin/env bash
# Builds and runs the single-pass tuning experiment on the local GPU (much of the time goes to
# compiling). Built here for the local GPU alone (-arch=native), so
# that the sm_80+ load variant is the real one; `make experiments` only checks that it builds.
#   bash experiments/run.sh GPU     writes experiments/results/GPU/single_pass_tuning.csv
#                                   (or $OUT/single_pass_tuning.csv when OUT is set)
# (`make -C vecmax/experiments results/GPU/single_pass_tuning.csv` runs it.) The CSV is replaced
# only when the whole experiment succeeded; a failed run leaves it as it was.
set -euo pipefail
[ -n "${OUT:-}" ] && { mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd); }  # absolute before the cd below
cd "$(dirname "$0")/.."
out=${OUT:-experiments/results/${1:?usage: run.sh GPU (writes experiments/results/GPU/), or OUT=DIR run.sh}}
mkdir -p build/experiments "$out"
nvcc -O3 -std=c++17 -arch=native -I../common -I. -o build/experiments/single_pass_tuning_native \
  experiments/single_pass_tuning.cu vecmax_cpu.cpp vecmax_cub.cu
tmp=build/experiments/single_pass_tuning.csv.partial
rm -f "$tmp"
build/experiments/single_pass_tuning_native "$tmp"
mv -f "$tmp" "$out/single_pass_tuning.csv"
echo "experiments/run.sh: wrote $out/single_pass_tuning.csv"
