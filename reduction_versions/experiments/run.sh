#!/usr/bin/env bash
# The lab's runs of reduction_versions on the local GPU (`make -C reduction_versions/experiments
# results/GPU/FILE` runs them, after building what they need):
#   bash experiments/run.sh v8_grid GPU       writes experiments/results/GPU/v8_grid.csv
#   bash experiments/run.sh single_tile GPU   writes experiments/results/GPU/single_tile.csv
# (into $OUT instead when it is set). A file is written whole, only when every run succeeded.
#   v8_grid.csv      version 8 against CUB at fixed grids: eight sweeps, one process each, over
#                    2^14, 2^18, 2^20, ..., 2^28 ints (256 threads, 50 timed runs, the L2 flushed);
#                    sweeps 1 and 5 with --blocks = one wave of resident blocks, 2 and 6 four waves,
#                    3 and 7 eight, 4 and 8 sixteen (the program caps the grid at the blocks the
#                    work needs, ceil(n / 4T)). One wave: the grid of version 8's automatic policy at
#                    2^22 ints, where that policy is one wave. Columns: device, n, grid (version 8's),
#                    v8_ms, cub_ms, v8_over_cub (CUB's time / version 8's), v8_ok, repeat,
#                    copy_bw_GBps; the sweeps one after another.
#   single_tile.csv  experiments/single_tile.cu in three processes, a `process` column first.
set -euo pipefail
[ -n "${OUT:-}" ] && { mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd); }  # absolute before the cd below
usage="usage: run.sh v8_grid|single_tile GPU (writes experiments/results/GPU/), or OUT=DIR run.sh EXPERIMENT"
what=${1:?$usage}
cd "$(dirname "$0")/.."
out=${OUT:-experiments/results/${2:?$usage}}
case $what in
  v8_grid) program=bin/reduction_versions ;;
  single_tile) program=build/experiments/single_tile ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
[ -x "$program" ] || { echo "run.sh: $program is not built (make -C reduction_versions/experiments)" >&2; exit 2; }
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rv-lab.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

v8_grid() {
  "$program" --only=8 --n=2^22 --threads=256 --repeat=1 --warmup=0 --csv="$tmp/wave.csv" >"$tmp/wave.log"
  local wave
  wave=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["version"] == "8" { print $c["blocks"] }' "$tmp/wave.csv")
  [ -n "$wave" ] || { echo "run.sh: no grid of version 8 in $tmp/wave.csv" >&2; exit 1; }
  echo "run.sh: one wave of version 8 is $wave blocks"
  echo "device,n,grid,v8_ms,cub_ms,v8_over_cub,v8_ok,repeat,copy_bw_GBps" >"$tmp/v8_grid.csv"
  local s waves=(1 4 8 16)
  for s in 1 2 3 4 5 6 7 8; do
    "$program" --only=8,cub --sizes=2^14,2^18,2^20,2^22,2^24,2^26,2^28 --threads=256 \
      --blocks=$((waves[(s - 1) % 4] * wave)) --repeat=50 --warmup=5 --csv="$tmp/sweep$s.csv" >"$tmp/sweep$s.log"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      $c["version"] == "8" { printf "%s,%s,%s,%s,%s,%.4g,%s,%s,%s\n", $c["device"], $c["n"], $c["blocks"], $c["kernel_ms"],
        $c["baseline_ms"], $c["baseline_ms"] / $c["kernel_ms"], $c["result_ok"], $c["repeat"], $c["copy_bw_GBps"] }' \
      "$tmp/sweep$s.csv" >>"$tmp/v8_grid.csv"
    echo "run.sh: sweep $s of 8 done"
  done
}

single_tile() {
  local p
  for p in 1 2 3; do
    "$program" "$tmp/p$p.csv" >"$tmp/p$p.log"
    [ "$p" != 1 ] || echo "process,$(head -n 1 "$tmp/p1.csv")" >"$tmp/single_tile.csv"
    tail -n +2 "$tmp/p$p.csv" | sed "s/^/$p,/" >>"$tmp/single_tile.csv"
    echo "run.sh: process $p of 3 done"
  done
}

"$what"
mv -f "$tmp/$what.csv" "$out/$what.csv"
echo "run.sh: wrote $out/$what.csv"
