#!/usr/bin/env bash
# Runs an assignment's experiments without risking its committed results:
#   staged_run.sh NAME COMMAND [ARGS...]
# COMMAND runs with RESULTS_DIR set to a fresh staging folder (build/runs/<run>.incomplete)
# and writes its CSVs there. Only when it exits 0 are the staged files moved into their
# destination, runs/<gpu>/ (below; one rename per file; files there that the run did not
# produce stay). Otherwise the destination is left byte-for-byte as it was and the staging
# folder is renamed for the run and the reason, which this script prints:
#   build/runs/<run>-failed-exit<N>       COMMAND exited N (1 a wrong result, 2 bad input, 3 no GPU, ...)
#   build/runs/<run>-interrupted-SIG<S>   SIGINT, SIGTERM (Slurm's time limit, scancel) or SIGHUP
#   build/runs/<run>.incomplete           the run was killed with SIGKILL (nothing could rename it)
# COMMAND's output is also kept in build/runs/<run>.log. When COMMAND is make, the status of
# the recipe's program (make's "Error N") names the failure, not make's own 2.
# The destination's MANIFEST.tsv gets a row per CSV moved there (common/py/provenance.py record:
# commit, fingerprint of the code that decides it, this command line, GPU, driver, date).
# Exit status: COMMAND's (the recipe's), or 128 + the signal's number.
#
#   staged_run.sh --require-gpu WHAT
# The one test of "is there a GPU to run experiments on?" (`make report` asks it before it
# builds or stages anything): nvidia-smi lists a GPU. Without one it prints one line, what
# WHAT cannot do and what still works (`make plots`), and exits 1.
set -u
if [ "${1:-}" = --require-gpu ]; then
  gpus=$(nvidia-smi -L 2>/dev/null) || gpus=
  case $gpus in
    GPU*) exit 0 ;;
  esac
  echo "${2:-make report}: no usable CUDA GPU here (nvidia-smi lists none), so nothing was built or run; \`make plots\` renders the figures and tables from the committed results" >&2
  exit 1
fi
name=$1
shift
runs_dir=${CW_RUNS_DIR:-build/runs}
run_id="$name-$(date +%Y%m%d-%H%M%S)-$$"
stage="$runs_dir/$run_id.incomplete"
log="$runs_dir/$run_id.log"
# Where a successful run goes: a user's run never replaces the committed reference. By default
# runs/<gpu>/ (the GPU named by the `device` column of the CSVs it wrote: runs/nvidia-h100-80gb-hbm3/),
# which `make plots` renders into runs/<gpu>/figures/ and runs/<gpu>/tables.md. A maintainer
# re-making the reference sets CW_REFERENCE=1 (results/) or CW_RESULTS_SUBDIR=TAG (results/TAG/,
# a second GPU's reference: results/h200/; letters, digits, '.', '_', '-').
dest=
if [ -n "${CW_RESULTS_SUBDIR:-}" ]; then
  case $CW_RESULTS_SUBDIR in
    *[!A-Za-z0-9._-]* | . | ..) echo "report-run $name: CW_RESULTS_SUBDIR='$CW_RESULTS_SUBDIR' is not a plain folder name" >&2; exit 2 ;;
  esac
  dest=results/$CW_RESULTS_SUBDIR
elif [ "${CW_REFERENCE:-0}" = 1 ]; then
  dest=results
fi
mkdir -p "$stage" ${dest:+"$dest"} || { echo "report-run $name: cannot create $stage${dest:+ or $dest}" >&2; exit 2; }
stage_abs=$(cd "$stage" && pwd)
echo "report-run $name: staging in $stage_abs; ${dest:-runs/<gpu>}/ changes only if the whole run succeeds (log: $log)"

child=
finish_failed() {  # reason status
  local kept="$runs_dir/$run_id-$1"
  mv "$stage" "$kept" 2>/dev/null || kept=$stage
  echo "report-run $name: $1: ${dest:-runs/<gpu>}/ unchanged; what this run produced is in $(cd "$kept" && pwd)" >&2
  exit "$2"
}
on_signal() {  # SIGNAME NUMBER
  trap '' INT TERM HUP
  if [ -n "$child" ]; then
    kill -TERM -- "-$child" 2>/dev/null || kill -TERM "$child" 2>/dev/null
    wait "$child" 2>/dev/null
  fi
  exec 3>&-
  finish_failed "interrupted-$1" $((128 + $2))
}
trap 'on_signal SIGINT 2' INT
trap 'on_signal SIGTERM 15' TERM
trap 'on_signal SIGHUP 1' HUP

# COMMAND's output goes through a tee that this script owns (opened here, not in COMMAND:
# a tee inside COMMAND's process group would wait for COMMAND's output to close while an
# interrupted make waits for it). COMMAND runs in its own process group, so that a signal
# to this script reaches all of it.
exec 3> >(tee -a "$log")
tee_pid=$!
if command -v setsid >/dev/null; then
  RESULTS_DIR="$stage_abs" setsid "$@" >&3 2>&1 &
else
  RESULTS_DIR="$stage_abs" "$@" >&3 2>&1 &
fi
child=$!
wait "$child"
status=$?
child=
exec 3>&-
wait "$tee_pid" 2>/dev/null
if [ "$status" -ne 0 ]; then
  recipe=$(grep -Eo '\] Error [0-9]+$' "$log" 2>/dev/null | tail -n 1 | grep -Eo '[0-9]+$')
  [ -n "$recipe" ] && status=$recipe
  finish_failed "failed-exit$status" "$status"
fi
if [ -z "$(ls -A "$stage")" ]; then
  finish_failed "failed-no-results" 1
fi
[ -n "$dest" ] || dest=$(bash "$(dirname "${BASH_SOURCE[0]}")/gpu_folder.sh" "$stage")
mkdir -p "$dest" || finish_failed "failed-moving-results" 1
moved=''; csvs=()
for f in "$stage"/*; do
  mv -f "$f" "$dest/$(basename "$f")" || finish_failed "failed-moving-results" 1
  moved="$moved $(basename "$f")"
  case $f in *.csv) csvs+=("$(basename "$f")") ;; esac
done
rmdir "$stage" 2>/dev/null
echo "report-run $name: $dest/ updated:$moved"
# The provenance of what was moved: the command as one could type it again, in this folder.
env_words=
[ -z "${CW_REFERENCE:-}" ] || env_words="CW_REFERENCE=$CW_REFERENCE "
[ -z "${CW_RESULTS_SUBDIR:-}" ] || env_words="${env_words}CW_RESULTS_SUBDIR=$CW_RESULTS_SUBDIR "
cmdline="cd $(basename "$PWD") && ${env_words}bash ../common/scripts/staged_run.sh $name$(printf ' %q' "$@")"
if [ "${#csvs[@]}" -gt 0 ] &&
   ! python3 "$(dirname "${BASH_SOURCE[0]}")/../py/provenance.py" record "$dest" "${csvs[@]}" --command "$cmdline"; then
  echo "report-run $name: $dest/MANIFEST.tsv not updated (python3 common/py/provenance.py record $dest ${csvs[*]})" >&2
fi
