# Helpers shared by the slurm/*.sbatch job scripts (sourced once the script has found the
# repository and made it the current directory).
#
# Environment a user may set (sbatch passes the submitting shell's environment to the job):
#   CUDA_MODULE       module loaded before building/running (default cuda/9.0, the reports'
#                     `module add cuda/9.0`); empty: load nothing. Skipped where `module`
#                     does not exist (a workstation, the H100 machine).
#   CW_SLURM_DRY_RUN  1: print every build and GPU command instead of running it (`dry run: ...`)
#                     and exit 0; for checking a submission without a GPU.
#   CW_GPU_CHECK      0: skip the check for a usable GPU that runs before any experiment
#                     (common/bin/devinfo --check; without a GPU the job stops there with
#                     exit 3 and leaves results/ untouched).
# shellcheck shell=bash

CUDA_MODULE=${CUDA_MODULE-cuda/9.0}
CW_SLURM_DRY_RUN=${CW_SLURM_DRY_RUN:-0}
CW_GPU_CHECK=${CW_GPU_CHECK:-1}
CW_REPO=$PWD
CW_LOG_DIR=$CW_REPO/slurm/logs

cw_log() { echo "[$(date '+%F %T')] $*"; }

# What ran where: the first lines of every log.
cw_job_header() {
  cw_log "job ${SLURM_JOB_ID:-(no Slurm: plain bash)}${SLURM_ARRAY_TASK_ID:+ array task $SLURM_ARRAY_JOB_ID/$SLURM_ARRAY_TASK_ID}" \
    "name ${SLURM_JOB_NAME:-$(basename "$0")} on $(hostname)${SLURM_JOB_PARTITION:+ partition $SLURM_JOB_PARTITION}"
  cw_log "repository $CW_REPO; GPUs given: ${CUDA_VISIBLE_DEVICES:-(not set)}$(cw_dry && echo "; CW_SLURM_DRY_RUN=1: commands printed, not run")"
}

# Ends the job with STATUS and a one-line reason (the job shows FAILED in squeue/scontrol).
cw_fail() {
  local status=$1; shift
  cw_log "FAILED (exit $status): $*" >&2
  exit "$status"
}

cw_dry() { [ "$CW_SLURM_DRY_RUN" = 1 ]; }

# cw_do CMD...: prints and runs CMD (dry run: prints it only). Returns CMD's status.
cw_do() {
  if cw_dry; then echo "dry run: $*"; return 0; fi
  echo "+ $*"
  "$@"
}

# cw_make ARGS...: make through cw_do; when a recipe's program failed, returns that
# program's status (make itself says 2 whatever the program said: "Error 3" means exit 3).
cw_make() {
  if cw_dry; then cw_do make "$@"; return 0; fi
  local out status recipe
  out=$(mktemp)
  echo "+ make $*"
  make "$@" 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  if [ "$status" -ne 0 ]; then
    recipe=$(grep -Eo '\] Error [0-9]+$' "$out" | tail -n 1 | grep -Eo '[0-9]+$')
    [ -n "$recipe" ] && status=$recipe
  fi
  rm -f "$out"
  return "$status"
}

# The CUDA module, where environment modules exist (batch shells often lack the `module`
# function even when the cluster has it: source its init script first).
cw_load_module() {
  if [ -z "$CUDA_MODULE" ]; then cw_log "CUDA_MODULE is empty: no module loaded"; return 0; fi
  if ! type module >/dev/null 2>&1; then
    local init
    for init in /etc/profile.d/modules.sh /etc/profile.d/lmod.sh /usr/share/lmod/lmod/init/bash \
                /usr/share/modules/init/bash; do
      # shellcheck disable=SC1090
      [ -r "$init" ] && . "$init" >/dev/null 2>&1 && break
    done
  fi
  if ! type module >/dev/null 2>&1; then
    cw_log "no 'module' command here: CUDA_MODULE=$CUDA_MODULE skipped, using $(command -v nvcc || echo 'nvcc from CUDA_PATH')"
    return 0
  fi
  if cw_dry; then echo "dry run: module add $CUDA_MODULE"; return 0; fi
  echo "+ module add $CUDA_MODULE"
  module add "$CUDA_MODULE" || cw_log "warning: 'module add $CUDA_MODULE' failed; set CUDA_MODULE to one 'module avail cuda' lists"
}

# cw_build FOLDER [TARGET]: make FOLDER's program or TARGET (a no-op when up to date). Jobs
# that may run at once (the sweep's array tasks) build one at a time, under a lock per folder.
cw_build() {
  local folder=$1; shift
  [ -f "$folder/Makefile" ] || cw_fail 2 "$folder/Makefile not found in $CW_REPO"
  if cw_dry; then cw_do make -C "$folder" "$@"; return 0; fi
  mkdir -p "$CW_LOG_DIR"
  if command -v flock >/dev/null 2>&1; then
    echo "+ flock $CW_LOG_DIR/.build-$folder.lock make -C $folder $*"
    flock "$CW_LOG_DIR/.build-$folder.lock" make -C "$folder" "$@" || cw_fail $? "building $folder $* failed"
  else
    echo "+ make -C $folder $*"
    make -C "$folder" "$@" || cw_fail $? "building $folder $* failed"
  fi
}

# A usable GPU, or exit 3 with the CUDA runtime's reason before anything is deleted or run.
cw_require_gpu() {
  if [ "$CW_GPU_CHECK" = 0 ] || cw_dry; then return 0; fi
  cw_build common bin/devinfo >/dev/null
  local status=0
  common/bin/devinfo --check || status=$?
  [ "$status" -eq 0 ] || cw_fail "$status" "no usable GPU on $(hostname) (CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-not set}): nothing was run, results/ left as it was"
}

# cw_report FOLDER: the assignment's experiments (`make report-run`), writing FOLDER/results/.
cw_report() {
  local folder=$1 status=0
  cw_load_module
  cw_require_gpu
  cw_build "$folder"
  mkdir -p "$folder/results"
  cw_make -C "$folder" report-run || status=$?
  [ "$status" -eq 0 ] || cw_fail "$status" "$folder: make report-run failed"
  cw_log "done: $folder/results/ written$(cw_dry && echo ' (dry run: nothing written)')"
}

# The sweep's configurations, one "threads blocks" pair per line, from the one list in the
# repository (vecmax/sweep_configs.txt; `#` comments and blank lines ignored).
cw_sweep_list() { echo "${VECMAX_SWEEP_CONFIGS:-vecmax/sweep_configs.txt}"; }
cw_sweep_configs() {
  local list
  list=$(cw_sweep_list)
  [ -r "$list" ] || cw_fail 2 "$list: the sweep's configuration list is missing"
  sed -e 's/#.*//' "$list" | awk 'NF { if (NF != 2 || $1 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/) { print "bad line: " $0 > "/dev/stderr"; exit 1 } print $1, $2 }'
}
# The options every sweep run takes, from the list's "# vecmax-args: ..." line (the same ones
# vecmax's own report-run uses), then VECMAX_SWEEP_ARGS.
cw_sweep_args() { echo "$(sed -n 's/^# *vecmax-args: *//p' "$(cw_sweep_list)" | head -n 1) ${VECMAX_SWEEP_ARGS:-}"; }
