#!/usr/bin/env bash
# Builds and runs the single-pass tuning experiment on the local GPU (a few minutes on an
# H100, about half of it compiling). Output: results/single_pass_tuning.csv, or $OUT/ when set.
set -euo pipefail
[ -n "${OUT:-}" ] && OUT=$(cd "$OUT" && pwd)  # absolute before the cd below
cd "$(dirname "$0")/.."
out=${OUT:-results}
mkdir -p build
nvcc -O3 -std=c++17 -arch=native -I../common -I. -o build/single_pass_tuning \
  experiments/single_pass_tuning.cu vecmax_cpu.cpp vecmax_cub.cu
build/single_pass_tuning "$out/single_pass_tuning.csv"
