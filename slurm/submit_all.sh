#!/usr/bin/env bash
# Submits every assignment's experiments to Slurm, each experiment once, and a last job that
# regenerates every figure and table from what succeeded. Each job writes its run's CSVs into
# <assignment>/runs/<gpu>/ (named by the GPU that ran it); `make plots` renders that run's
# figures and tables there (runs/<gpu>/figures/, runs/<gpu>/tables.md). The committed
# reference (results/, results/h200/) and the READMEs do not change.
#
#   slurm/submit_all.sh [--check] [--print] [--partition=NAME] [--sweep-array] [--profile]
#                       [--no-plots] [JOB...]
#
#   JOB            an assignment (the list: bash common/scripts/assignments.sh) or vecmax_sweep
#                  (default: every assignment)
#   --check        on the login node, submitting nothing: loads CUDA_MODULE, names
#                  nvcc, checks that the partition exists and has GPUs (sinfo), asks Slurm whether
#                  each job would be accepted (sbatch --test-only: account, QOS, partition, GPUs)
#                  and prints the sbatch lines it would submit; exit 0 when all is well, else 1
#   --print        print the sbatch commands, submit nothing (ids shown as <job>)
#   --partition    the GPU partition for every job (default: the scripts' `gpu`, the reports'
#                  partition, or $SBATCH_PARTITION when set)
#   --sweep-array  vecmax's 30-configuration sweep as a job array (one GPU job per configuration,
#                  as the report ran it) and a gather job, instead of inside the vecmax job
#                  (which is then submitted with VECMAX_SKIP_SWEEP=1)
#   --profile      also a profile job (slurm/profile.sbatch: every assignment's versions under
#                  Nsight Compute, <assignment>/runs/<gpu>/profile.csv)
#   --no-plots     no final plots job
#
# Site settings come from Slurm's own input variables, read by every sbatch: SBATCH_ACCOUNT,
# SBATCH_QOS, SBATCH_PARTITION, SBATCH_GRES (e.g. gpu:a100:1 instead of the scripts' gpu:1),
# SBATCH_CONSTRAINT (e.g. a100), SBATCH_TIMELIMIT; the CUDA module(s) from CUDA_MODULE
# (slurm/lib.sh). The GPU-less jobs (the sweep's gather, plots) are submitted without the GPU
# settings (SBATCH_GRES, SBATCH_CONSTRAINT, SBATCH_GPUS*, SBATCH_PARTITION): the gather goes to
# PLOTS_PARTITION when set, else to the GPU jobs' partition (it asks for no GPU).
#   PLOTS_PARTITION   a partition for the plots job (a CPU one): then the plots job runs once the
#                     others have ended, whether they succeeded or not (afterany), renders what
#                     is there and names each job that failed (it added nothing to runs/<gpu>/).
#                     Unset (default): no plots job; on the login node, `slurm/wait.sh` waits for
#                     this submission's jobs (slurm/logs/last-submission.txt) and names those that
#                     failed, then `make plots`.
#   GNUPLOT_MODULE    module(s) the plots job loads for gnuplot (slurm/lib.sh)
#   PI_CPUS_PER_TASK  cores for pi's job (its CPU references; default the script's 16)
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

print=0 plots=1 profile=0 check=0 sweep_array=0 jobs=()
for arg in "$@"; do
  case $arg in
    --print) print=1 ;;
    --check) check=1 print=1 ;;
    --sweep-array) sweep_array=1 ;;
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
  [ "$sweep_array" = 1 ] && is_assignment vecmax && jobs+=(vecmax_sweep)
elif [ "$sweep_array" = 1 ] && [[ " ${jobs[*]} " == *" vecmax "* ]] && [[ " ${jobs[*]} " != *" vecmax_sweep "* ]]; then
  jobs+=(vecmax_sweep)
fi
# The sweep runs once: in the array, or in the vecmax job, never both.
sweep_in_array=0
[[ " ${jobs[*]} " == *" vecmax_sweep "* ]] && sweep_in_array=1
for job in "${jobs[@]}"; do
  [ -f "slurm/$job.sbatch" ] || die "$job: no slurm/$job.sbatch (every assignment needs its job script)"
done
if [ "$check" = 1 ]; then
  exec 2>&1  # the sbatch lines below (written to stderr by submit) in order with the checks
  # shellcheck source=preflight.sh
  . "$repo/slurm/preflight.sh"
  cw_preflight "${jobs[@]}"
  preflight_status=$?
  if [ "$preflight_status" = 2 ]; then
    echo "check: Slurm cannot be reached (above): stopped; nothing was submitted"
    exit 1
  fi
  echo
  echo "The sbatch lines it would submit (nothing is submitted; ids shown as <job>):"
fi
if [ "$print" = 0 ] && ! command -v sbatch >/dev/null 2>&1; then
  die "sbatch not found: run this on the cluster's login node (or use --print; without Slurm run 'bash slurm/<job>.sbatch')"
fi

logs=$repo/slurm/logs
mkdir -p "$logs" || die "cannot create $logs"
# The plots job only where it has a partition of its own (else: the login node, after slurm/wait.sh).
[ -n "${PLOTS_PARTITION:-}" ] || plots=0
# sbatch for a job that needs no GPU: none of the GPU settings (env), its own partition.
cpu_env=(env -u SBATCH_GRES -u SBATCH_CONSTRAINT -u SBATCH_GPUS -u SBATCH_GPUS_PER_NODE -u SBATCH_GPUS_PER_TASK -u SBATCH_CPUS_PER_GPU -u SBATCH_MEM_PER_GPU)
cpu_part=()
[ -n "${PLOTS_PARTITION:-}" ] && cpu_env+=(-u SBATCH_PARTITION) cpu_part=(--partition="$PLOTS_PARTITION")

# submit NAME SBATCH_ARGS...: prints the job id (or <NAME> with --print) on stdout.
# CW_SUBMIT_ENV (an array): a command prefix for sbatch (env -u ... for the GPU-less jobs).
submit() {
  local name=$1 out; shift
  if [ "$print" = 1 ]; then
    [ ${#CW_SUBMIT_ENV[@]} -gt 0 ] && echo "# (no GPU: the next one without the GPU settings: ${CW_SUBMIT_ENV[*]})" >&2
    echo "sbatch --parsable $*" >&2
    echo "<$name>"
    return
  fi
  out=$("${CW_SUBMIT_ENV[@]}" sbatch --parsable "$@") || die "sbatch $* failed (slurm/submit_all.sh --check says why a job would be refused)"
  echo "${out%%;*}"
}
CW_SUBMIT_ENV=()
submit_cpu() { local CW_SUBMIT_ENV=("${cpu_env[@]}"); submit "$@"; }

ids=() table=()
note() { table+=("$(printf '%-20s %-12s %s' "$1" "$2" "$3")"); }
vecmax_id=""
waited=()  # "name:id" of every job the plots job waits for
for job in "${jobs[@]}"; do
  [ "$job" = vecmax_sweep ] && continue
  if [ "$job" = vecmax ] && [ "$sweep_in_array" = 1 ]; then
    # The array runs the sweep: the vecmax job runs the rest of vecmax's experiments.
    id=$(submit "$job" --export=ALL,VECMAX_SKIP_SWEEP=1 --output="$logs/%x-%j.out" "slurm/$job.sbatch") || exit 2
    note "$job" "$id" "log slurm/logs/$job-$id.out -> $job/runs/<gpu>/*.csv (the sweep: the array below)"
  elif [ "$job" = pi ] && [ -n "${PI_CPUS_PER_TASK:-}" ]; then
    id=$(submit "$job" --cpus-per-task="$PI_CPUS_PER_TASK" --output="$logs/%x-%j.out" "slurm/$job.sbatch") || exit 2
    note "$job" "$id" "log slurm/logs/$job-$id.out -> $job/runs/<gpu>/*.csv ($PI_CPUS_PER_TASK cores for its CPU versions)"
  else
    id=$(submit "$job" --output="$logs/%x-%j.out" "slurm/$job.sbatch") || exit 2
    note "$job" "$id" "log slurm/logs/$job-$id.out -> $job/runs/<gpu>/*.csv"
  fi
  ids+=("$id") waited+=("$job:$id")
  [ "$job" = vecmax ] && vecmax_id=$id
done

if [ "$profile" = 1 ]; then
  [ -f slurm/profile.sbatch ] || die "no slurm/profile.sbatch"
  id=$(submit profile --output="$logs/%x-%j.out" slurm/profile.sbatch) || exit 2
  ids+=("$id") waited+=("profile:$id")
  note profile "$id" "log slurm/logs/profile-$id.out -> */runs/<gpu>/profile.csv"
fi

if [[ " ${jobs[*]} " == *" vecmax_sweep "* ]]; then
  list=${VECMAX_SWEEP_CONFIGS:-vecmax/sweep_configs.txt}
  [ -r "$list" ] || die "$list not found: the sweep needs its configuration list"
  count=$(sed -e 's/#.*//' "$list" | awk 'NF' | wc -l)
  [ "$count" -gt 0 ] || die "$list lists no configuration"
  array=$(submit vecmax_sweep --array="0-$((count - 1))" --output="$logs/%x-%A_%a.out" \
    slurm/vecmax_sweep.sbatch) || exit 2
  note vecmax_sweep "$array" "$count tasks, logs slurm/logs/vecmax_sweep-${array}_<task>.out"
  # The gather runs only if every task succeeded; after the vecmax job too (both write into
  # vecmax/runs/<gpu>/, and a report-run without VECMAX_SKIP_SWEEP=1 also writes sweep.csv),
  # so that the array's combined CSV is the one that stays.
  dep=afterok:$array${vecmax_id:+,afterany:$vecmax_id}
  gather=$(submit_cpu vecmax_gather "${cpu_part[@]}" --dependency="$dep" --kill-on-invalid-dep=yes \
    --output="$logs/%x-%j.out" slurm/vecmax_gather.sbatch "$logs/vecmax_sweep-$array") || exit 2
  ids+=("$gather") waited+=("vecmax_sweep:$array" "vecmax_gather:$gather")
  note vecmax_gather "$gather" "after every task: vecmax/runs/<gpu>/sweep.csv, log slurm/logs/vecmax_gather-$gather.out"
fi

if [ "$plots" = 1 ]; then
  # afterany: once every job has ended, whatever its outcome; the plots job is told which jobs
  # it waited for, and names those that did not succeed.
  dep=afterany$(printf ':%s' "${ids[@]}")
  plots_id=$(submit_cpu plots "${cpu_part[@]}" --dependency="$dep" --output="$logs/%x-%j.out" \
    slurm/plots.sbatch "${waited[@]}") || exit 2
  note plots "$plots_id" "after all of them end, on partition $PLOTS_PARTITION: */runs/<gpu>/figures/ and tables.md; log slurm/logs/plots-$plots_id.out"
fi
# What slurm/wait.sh waits for by default.
if [ "$print" = 0 ]; then
  printf '%s\n' "${waited[@]}" >"$logs/last-submission.txt" || die "cannot write $logs/last-submission.txt"
fi

if [ "$check" = 1 ]; then
  echo
  if [ "$preflight_status" = 0 ]; then echo "check: all well; submit with: slurm/submit_all.sh ${*/--check/}"
  else echo "check: see the FAIL lines above; nothing was submitted"; fi
  exit "$preflight_status"
fi
[ "$print" = 1 ] && echo "(--print: nothing submitted)"
printf '%-20s %-12s %s\n' job id "what / where"
printf '%s\n' "${table[@]}"
cat <<EOF
Watch: squeue -u \$USER   |   scontrol show job <id>   |   sacct -j <id> (where accounting is on)
       tail -f slurm/logs/<job>-<id>.out
Each job's CSVs go into <assignment>/runs/<gpu>/ (the GPU that ran it); the committed results/
and the READMEs do not change. A job that fails (exit 3: no usable GPU; 2: no CUDA module or nvcc)
leaves runs/<gpu>/ as it was (its log names the folder under <assignment>/build/runs/ where the
failed run was kept).
Resubmit it alone: slurm/submit_all.sh NAME.
EOF
if [ "$plots" = 1 ]; then
  echo "The plots job runs once the others have ended (on $PLOTS_PARTITION) and names any that failed."
else
  echo "Then, on this login node: slurm/wait.sh (waits until these jobs have ended, names any that failed), then make plots"
  echo "(gnuplot not here? GNUPLOT_MODULE=... or PLOTS_PARTITION=... next time; or copy */runs/<gpu>/ to a machine that has it: slurm/README.md)."
fi
