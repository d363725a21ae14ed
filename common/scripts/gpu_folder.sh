#!/usr/bin/env bash
# The folder of a user's run: runs/<gpu>, the GPU named by the first `device` cell of the CSVs
# given (or of FOLDER/*.csv), lower case, every run of other characters one '-':
#   gpu_folder.sh FOLDER|CSV...             ->  runs/nvidia-h100-80gb-hbm3
#   gpu_folder.sh --devices FOLDER|CSV...   ->  every device the CSVs name, one per line, once each
# (staged_run.sh moves a run there; slurm/vecmax_gather.sbatch writes the gathered sweep there
# and says so when its parts name more than one GPU).
set -u
all=0
if [ "${1:-}" = --devices ]; then all=1; shift; fi
for f in "$@"; do
  [ -d "$f" ] && set -- "$f"/*.csv
done
# The device cells of the CSVs, in order ('#' lines are comments; a CSV without the column
# gives none).
devices() {
  local f
  for f in "$@"; do
    [ -f "$f" ] || continue
    awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) if ($i == "device") c = i; if (!c) exit; next }
             $c != "" { print $c }' "$f"
  done
}
if [ "$all" = 1 ]; then
  devices "$@" | awk '!seen[$0]++'
  exit 0
fi
gpu=$(devices "$@" | head -n 1)
gpu=$(printf '%s' "$gpu" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9.' '-' | sed 's/--*/-/g; s/^-//; s/-$//')
echo "runs/${gpu:-unknown-gpu}"
