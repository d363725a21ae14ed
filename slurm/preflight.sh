# The pre-flight check of `slurm/submit_all.sh --check`, on the login node: what a
# job would otherwise find out only after its wait in the queue. Sourced by submit_all.sh from
# the repository root; cw_preflight JOB... prints one line per check ("ok" or "FAIL" and what
# to do) and returns 0 when every check passed, 1 otherwise. Nothing is submitted: the jobs'
# requests are checked by `sbatch --test-only`, which asks the scheduler whether it would
# accept them (partition, account, QOS, GPUs, time limit) and when they could start.
# shellcheck shell=bash

cw_preflight() {
  local status=0 out rc part job script gres c
  cw_pf_ok() { echo "ok    $*"; }
  cw_pf_bad() { echo "FAIL  $*"; status=1; }

  echo "Pre-flight check on $(hostname), repository $PWD"
  for c in sbatch sinfo; do
    command -v "$c" >/dev/null 2>&1 || cw_pf_bad "$c not found: run this on the cluster's login node"
  done

  # The CUDA module and nvcc, as a job loads them (slurm/lib.sh), in a subshell: this shell's
  # PATH stays as it was. The architectures a build here would choose: the job builds on the
  # GPU node, where the default build adds that GPU's own architecture (common/arch.mk).
  out=$( (
    set +u  # as in a job: the modules init scripts read unset variables
    # shellcheck disable=SC2034  # read by lib.sh: a real check, whatever the caller set
    CW_SLURM_DRY_RUN=0
    # shellcheck source=lib.sh
    . slurm/lib.sh
    cw_load_module && cw_require_nvcc && make --no-print-directory -s -C common arch-info
  ) 2>&1 ); rc=$?
  sed 's/^/      /' <<<"$out"
  if [ "$rc" -eq 0 ]; then cw_pf_ok "CUDA_MODULE=${CUDA_MODULE-cuda} and nvcc (above); on the GPU node the build adds that GPU's architecture"
  else cw_pf_bad "CUDA_MODULE / nvcc (above): set CUDA_MODULE to a module 'module avail cuda' lists"; fi

  # The partition: --partition / SBATCH_PARTITION, else the job scripts' own.
  part=${SBATCH_PARTITION:-$(sed -n 's/^#SBATCH --partition=\([^ ]*\).*/\1/p' slurm/pi.sbatch | head -n 1)}
  # Slurm itself first: without a controller every other answer would be empty.
  if command -v sinfo >/dev/null 2>&1; then
    local said
    if ! said=$(timeout 20 sinfo -h -o '%P' 2>&1 >/dev/null) || [ -n "$(grep -i 'error' <<<"$said")" ]; then
      said=$(grep -v '^[[:space:]]*$' <<<"$said" | tr -s ' \t\n' ' ' | cut -c1-300)
      cw_pf_bad "Slurm cannot be reached from $(hostname): sinfo says: ${said:-(nothing; it timed out or failed)}; nothing else checked (run this on the login node, or see SLURM_CONF)"
      return 2
    fi
  fi
  if command -v sinfo >/dev/null 2>&1; then
    gres=$(timeout 20 sinfo -h -p "$part" -o '%G' 2>/dev/null | sort -u | paste -sd ' ' -)
    if [ -z "$(timeout 20 sinfo -h -p "$part" -o '%P' 2>/dev/null)" ]; then
      cw_pf_bad "partition '$part' not found; partitions here: $(timeout 20 sinfo -h -o '%P' 2>/dev/null | paste -sd ' ' -) (export SBATCH_PARTITION=name)"
    elif [[ "$gres" != *gpu* ]]; then
      cw_pf_bad "partition '$part' lists no GPUs (GRES: ${gres:-none}): pick the GPU partition (export SBATCH_PARTITION=name)"
    else
      cw_pf_ok "partition '$part' exists, GRES: $gres"
    fi
  fi
  echo "      account: ${SBATCH_ACCOUNT:-(SBATCH_ACCOUNT not set: your default account)}; QOS: ${SBATCH_QOS:-(SBATCH_QOS not set: the default)}"

  # The plots: a job on PLOTS_PARTITION, or make plots on this login node after slurm/wait.sh.
  local plots_job=""
  if [ -n "${PLOTS_PARTITION:-}" ]; then
    plots_job=plots
    echo "      plots: a job on partition '$PLOTS_PARTITION' after the others${GNUPLOT_MODULE:+, loading GNUPLOT_MODULE=$GNUPLOT_MODULE}"
  elif command -v gnuplot >/dev/null 2>&1; then
    cw_pf_ok "plots: on this login node after the jobs (slurm/wait.sh, then make plots): $(gnuplot --version 2>/dev/null)"
  else
    echo "      plots: no gnuplot on this login node: after the jobs, module load gnuplot (your site's name), or PLOTS_PARTITION=<a CPU partition> for a plots job, or copy */runs/<gpu>/ to a machine with gnuplot (slurm/README.md)"
  fi

  # Would the scheduler accept each job as submit_all.sh submits it?
  if command -v sbatch >/dev/null 2>&1; then
    for job in "$@" $plots_job; do
      script=slurm/$job.sbatch
      [ -f "$script" ] || continue
      if [ "$job" = plots ]; then
        out=$(timeout 30 env -u SBATCH_GRES -u SBATCH_CONSTRAINT -u SBATCH_PARTITION sbatch --test-only --partition="$PLOTS_PARTITION" --output=/dev/null "$script" 2>&1); rc=$?
      else
        out=$(timeout 30 sbatch --test-only --output=/dev/null ${PI_CPUS_PER_TASK:+$([ "$job" = pi ] && echo "--cpus-per-task=$PI_CPUS_PER_TASK")} "$script" 2>&1); rc=$?
      fi
      out=$(grep -v '^$' <<<"$out" | tail -n 1)
      if [ "$rc" -eq 0 ]; then cw_pf_ok "$job: Slurm would accept it (${out#sbatch: })"
      else cw_pf_bad "$job: Slurm would refuse it: ${out#sbatch: }"; fi
    done
  fi
  return "$status"
}
