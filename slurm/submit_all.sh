#!/usr/bin/env bash
# Submits every assignment's experiments to Slurm, vecmax's sweep as a job array with its
# gather job, and a last job that regenerates every figure and table once they all succeeded.
#
#   slurm/submit_all.sh [--print] [--partition=NAME] [--profile] [--no-plots] [JOB...]
#
#   JOB          an assignment (the list: bash common/scripts/assignments.sh) or vecmax_sweep
#                (default: every assignment, and vecmax_sweep with vecmax)
#   --print      print the sbatch commands, submit nothing (ids shown as <job>)
#   --partition  the GPU partition for every job (default: the scripts' `gpu`, the reports'
#                partition, or $SBATCH_PARTITION when set)
#   --profile    also a profile job (slurm/profile.sbatch: every assignment's versions under
#                Nsight Compute, <assignment>/results/profile.csv); the plots job waits for it too
#   --no-plots   no final plots job
#
# Works from any directory: every job runs in the repository, logs go to slurm/logs/ (created
# here, since a missing --output folder makes Slurm fail the job with exit code 0:53 and no log).
# Environment such as CUDA_MODULE or CW_SLURM_DRY_RUN=1 is passed on to the jobs.
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
self=$repo/slurm/$(basename "${BASH_SOURCE[0]}")
cd "$repo" || exit 2
# The one list of assignments (folders whose Makefile includes common/assignment.mk).
read -r -a assignments <<<"$(bash common/scripts/assignments.sh)"
[ ${#assignments[@]} -gt 0 ] || { echo "submit_all.sh: common/scripts/assignments.sh lists no assignment in $repo" >&2; exit 2; }
is_assignment() { [[ " ${assignments[*]} " == *" $1 "* ]]; }

usage() { sed -n '2,/^[^#]/{/^#/p}' "$self" | sed 's/^# \{0,1\}//'; }
die() { echo "submit_all.sh: $*" >&2; exit 2; }

print=0 plots=1 profile=0 jobs=()
for arg in "$@"; do
  case $arg in
    --print) print=1 ;;
    --no-plots) plots=0 ;;
    --profile) profile=1 ;;
    --partition=?*) export SBATCH_PARTITION=${arg#--partition=} ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$arg' (see --help)" ;;
    *)
      if is_assignment "$arg" || { [ "$arg" = vecmax_sweep ] && is_assignment vecmax; }; then jobs+=("$arg")
      else die "unknown job '$arg' (one of: ${assignments[*]}$(is_assignment vecmax && echo ' vecmax_sweep'))"; fi ;;
  esac
done
if [ ${#jobs[@]} -eq 0 ]; then
  jobs=("${assignments[@]}")
  is_assignment vecmax && jobs+=(vecmax_sweep)
fi
for job in "${jobs[@]}"; do
  [ -f "slurm/$job.sbatch" ] || die "$job: no slurm/$job.sbatch (every assignment needs its job script)"
done
if [ "$print" = 0 ] && ! command -v sbatch >/dev/null 2>&1; then
  die "sbatch not found: run this on the cluster's login node (or use --print; without Slurm run 'bash slurm/<job>.sbatch')"
fi

logs=$repo/slurm/logs
mkdir -p "$logs" || die "cannot create $logs"

# submit NAME SBATCH_ARGS...: prints the job id (or <NAME> with --print) on stdout.
submit() {
  local name=$1 out; shift
  if [ "$print" = 1 ]; then
    echo "sbatch --parsable $*" >&2
    echo "<$name>"
    return
  fi
  out=$(sbatch --parsable "$@") || die "sbatch $* failed"
  echo "${out%%;*}"
}

ids=() table=()
note() { table+=("$(printf '%-20s %-12s %s' "$1" "$2" "$3")"); }
vecmax_id=""
for job in "${jobs[@]}"; do
  [ "$job" = vecmax_sweep ] && continue
  id=$(submit "$job" --output="$logs/%x-%j.out" "slurm/$job.sbatch") || exit 2
  ids+=("$id")
  [ "$job" = vecmax ] && vecmax_id=$id
  note "$job" "$id" "log slurm/logs/$job-$id.out -> $job/results/*.csv"
done

if [ "$profile" = 1 ]; then
  [ -f slurm/profile.sbatch ] || die "no slurm/profile.sbatch"
  id=$(submit profile --output="$logs/%x-%j.out" slurm/profile.sbatch) || exit 2
  ids+=("$id")
  note profile "$id" "log slurm/logs/profile-$id.out -> */results/profile.csv"
fi

if [[ " ${jobs[*]} " == *" vecmax_sweep "* ]]; then
  list=${VECMAX_SWEEP_CONFIGS:-vecmax/sweep_configs.txt}
  [ -r "$list" ] || die "$list not found: the sweep needs its configuration list"
  count=$(sed -e 's/#.*//' "$list" | awk 'NF' | wc -l)
  [ "$count" -gt 0 ] || die "$list lists no configuration"
  array=$(submit vecmax_sweep --array="0-$((count - 1))" --output="$logs/%x-%A_%a.out" \
    slurm/vecmax_sweep.sbatch) || exit 2
  note vecmax_sweep "$array" "$count tasks, logs slurm/logs/vecmax_sweep-${array}_<task>.out"
  # The gather runs only if every task succeeded; after the vecmax job too (its report-run
  # also writes sweep.csv), so that the array's combined CSV is the one that stays.
  dep=afterok:$array${vecmax_id:+,afterany:$vecmax_id}
  gather=$(submit vecmax_gather --dependency="$dep" --kill-on-invalid-dep=yes \
    --output="$logs/%x-%j.out" slurm/vecmax_gather.sbatch "$logs/vecmax_sweep-$array") || exit 2
  ids+=("$gather")
  note vecmax_gather "$gather" "after every task: vecmax/results/sweep.csv, log slurm/logs/vecmax_gather-$gather.out"
fi

if [ "$plots" = 1 ]; then
  dep=afterok$(printf ':%s' "${ids[@]}")
  plots_id=$(submit plots --dependency="$dep" --kill-on-invalid-dep=yes --output="$logs/%x-%j.out" \
    slurm/plots.sbatch) || exit 2
  note plots "$plots_id" "after all of them: figures, README tables, summary; log slurm/logs/plots-$plots_id.out"
fi

[ "$print" = 1 ] && echo "(--print: nothing submitted)"
printf '%-20s %-12s %s\n' job id "what / where"
printf '%s\n' "${table[@]}"
cat <<EOF
Watch: squeue -u \$USER   |   scontrol show job <id>   |   sacct -j <id> (where accounting is on)
       tail -f slurm/logs/<job>-<id>.out
A job that fails (exit 3: no usable GPU; 2: no CUDA module or nvcc) cancels the ones that
depend on it; results/ stays as it was (its log names the folder under <assignment>/build/runs/
where the failed run was kept). Fix, then rerun this script or 'make plots' once the CSVs are there.
EOF
