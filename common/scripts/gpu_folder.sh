#!/usr/bin/env bash
# The folder of a user's run: runs/<gpu>, the GPU named by the first `device` cell of the CSVs
# given (or of FOLDER/*.csv), lower case, every run of other characters one '-':
#   gpu_folder.sh FOLDER|CSV...      ->  runs/nvidia-h100-80gb-hbm3
# (staged_run.sh moves a run there; slurm/vecmax_gather.sbatch writes the gathered sweep there).
set -u
gpu=
for f in "$@"; do
  [ -d "$f" ] && set -- "$f"/*.csv
done
for f in "$@"; do
  [ -f "$f" ] || continue
  gpu=$(awk -F, '/^#/ { next } !c { for (i = 1; i <= NF; i++) if ($i == "device") c = i; if (!c) exit; next }
                 $c != "" { print $c; exit }' "$f")
  [ -n "$gpu" ] && break
done
gpu=$(printf '%s' "$gpu" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9.' '-' | sed 's/--*/-/g; s/^-//; s/-$//')
echo "runs/${gpu:-unknown-gpu}"
