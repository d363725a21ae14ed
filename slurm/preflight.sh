# The pre-flight check of `slurm/submit_all.sh --check`, on the login node: what a
# job would otherwise find out only after its wait in the queue. Sourced by submit_all.sh from
# the repository root; cw_preflight JOB... prints one line per check ("ok" or "FAIL" and what
# to do) and returns 0 when every check passed, 1 otherwise. Nothing is submitted: the jobs'
# requests are checked by `sbatch --test-only`, which asks the scheduler whether it would
# accept them (partition, account, QOS, GPUs, time limit) and when they could start; the
# partition's GPU types (Slurm's GRES types, else its nodes' features) against what the
# loaded nvcc builds (common/scripts/select_arch.sh --serves): a GPU that no build of this
# toolkit can run (a V100 under CUDA 13) is refused here, naming the CUDA that can.
# shellcheck shell=bash

# The compute capability (without its dot) of a GPU type as sites name it in GRES or node
# features (v100, a100_80g, nvidia_h100_80gb_hbm3, tesla_v100-sxm2-32gb, rtx_a6000 ...); ""
# for a name this table does not know. The first match wins: a100 before a10, l40 before l4.
cw_pf_gpu_cc() {
  local t
  t=$(tr 'A-Z' 'a-z' <<<"$1")
  case $t in
    *h100*|*h20*|*h800*) echo 90 ;;  # h20: H20, H200, GH200
    *b300*) echo 103 ;;  # B300, GB300
    *b200*|*b100*) echo 100 ;;
    *rtx_pro_6000*|*rtx_pro*|*5090*|*5080*|*5070*|*5060*) echo 120 ;;
    *l40*|*l4*|*6000_ada*|*ada*|*4090*|*4080*|*4070*|*4060*) echo 89 ;;
    *a100*|*a800*|*a30*) echo 80 ;;
    *a40*|*a10*|*a16*|*a2*|*a4500*|*a5000*|*a5500*|*a6000*|*3090*|*3080*|*3070*|*3060*) echo 86 ;;  # a40: A40, A4000
    *t4*|*2080*|*2070*|*2060*|*titan_rtx*|*titanrtx*|*quadro_rtx*|*rtx8000*|*rtx_8000*|*rtx6000*|*rtx_6000*|*rtx5000*|*rtx_5000*) echo 75 ;;
    *v100*|*titan_v*|*titanv*) echo 70 ;;
    *p100*) echo 60 ;;
    *p40*|*p4*|*p6000*|*1080*|*1070*|*1060*|*titan_xp*|*titanxp*) echo 61 ;;
    *m40*|*m60*|*980*|*970*|*titan_x*|*titanx*) echo 52 ;;  # m60: M60, M6000
    *k80*) echo 37 ;;
    *k40*|*k20*) echo 35 ;;
  esac
}

# The GPU types jobs of partition $1 may get: one word per type, from the GRES of its nodes
# ("gpu:v100:4(S:0-1)", several comma-separated), only the type SBATCH_GRES asks for when it
# names one (gpu:a100:1); a node whose GRES has no type ("gpu:4") gives its features that name
# a GPU (cw_pf_gpu_cc), else "?" (not known: not checked).
cw_pf_gpu_types() {
  local line gres feats g typed f want=""
  [[ ${SBATCH_GRES:-} =~ ^gpu:([^:,]+):[0-9]+$ ]] && want=${BASH_REMATCH[1]}
  while IFS='|' read -r gres feats; do
    typed=0
    for g in ${gres//,/ }; do
      g=${g%%(*}
      [[ $g =~ ^gpu:([^:]+):[0-9]+$ ]] || continue
      typed=1
      [ -z "$want" ] || [ "${BASH_REMATCH[1]}" = "$want" ] && echo "${BASH_REMATCH[1]}"
    done
    [ "$typed" = 1 ] || [[ ",$gres," != *,gpu:* ]] && continue
    line=""
    for f in ${feats//,/ }; do [ -n "$(cw_pf_gpu_cc "$f")" ] && line=$f; done
    echo "${line:-?}"
  done < <(timeout 20 sinfo -h -p "$1" -o '%G|%f' 2>/dev/null) | sort -u
}

# Each GPU type of the partition against the nvcc the jobs load ($1, with the module's PATH
# $2): ok where a build runs there (native code, or PTX the driver compiles), FAIL where none
# can (the line names the toolkit that can), a note where the type is not known.
cw_pf_gpu_arch() {
  local nvcc=$1 mpath=$2 part=$3 t cc said untyped=""
  for t in $(cw_pf_gpu_types "$part"); do
    if [ "$t" = "?" ]; then untyped=1; continue; fi
    cc=$(cw_pf_gpu_cc "$t")
    if [ -z "$cc" ]; then
      echo "      partition '$part': GPU type '$t' is not in this check's table: make sure '$nvcc --list-gpu-arch' lists its compute capability"
      continue
    fi
    if said=$(PATH=$mpath bash common/scripts/select_arch.sh "$nvcc" "$cc" --serves 2>&1); then
      cw_pf_ok "partition '$part': its $t GPUs, $said"
    else
      cw_pf_bad "partition '$part': its $t GPUs cannot run what this toolkit builds: ${said#error: }; load that CUDA before you submit (CUDA_MODULE=cuda/<version>: 'module spider cuda' lists them), or ask for other GPUs (SBATCH_GRES=gpu:<type>:1)"
    fi
  done
  [ -z "$untyped" ] || echo "      partition '$part': GPUs without a type in Slurm's GRES and no GPU named in the nodes' features: their architecture is not checked here"
}

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
  # GPU node, where the default build adds that GPU's own architecture (common/arch.mk). Each
  # step says it passed ("cw-step: ..." lines, not shown), so that a failure names its step.
  local module="CUDA_MODULE=${CUDA_MODULE-cuda}" nvcc="" mpath="" steps
  [ -n "${CUDA_MODULE-cuda}" ] || module="CUDA_MODULE empty (no module)"
  out=$( (
    set +u  # as in a job: the modules init scripts read unset variables
    # shellcheck disable=SC2034  # read by lib.sh: a real check, whatever the caller set
    CW_SLURM_DRY_RUN=0
    # shellcheck source=lib.sh
    . slurm/lib.sh
    cw_load_module && echo "cw-step: module" &&
      cw_require_nvcc && echo "cw-step: nvcc $(cw_nvcc_path)" && echo "cw-step: path $PATH" &&
      make --no-print-directory -s -C common arch-info
  ) 2>&1 ); rc=$?
  steps=$(grep '^cw-step: ' <<<"$out")
  grep -v '^cw-step: ' <<<"$out" | sed 's/^/      /'
  nvcc=$(sed -n 's/^cw-step: nvcc //p' <<<"$steps") mpath=$(sed -n 's/^cw-step: path //p' <<<"$steps")
  if [ "$rc" -eq 0 ]; then cw_pf_ok "$module and nvcc (above); on the GPU node the build adds that GPU's architecture"
  elif ! grep -q '^cw-step: module' <<<"$steps"; then
    cw_pf_bad "$module cannot be loaded (above): set CUDA_MODULE to a module 'module spider cuda' lists (in an Lmod hierarchy cuda shows in 'module avail' only once its compiler is loaded: then CUDA_MODULE=\"<compiler> cuda/<version>\")"
  elif [ -z "$nvcc" ]; then
    cw_pf_bad "no nvcc with $module (above): load a CUDA module ('module spider cuda' lists them) or set CUDA_PATH"
  else
    cw_pf_bad "$module and nvcc ($nvcc) are fine, but the build refuses what it was given (above): change what that line names (SMS, or the toolkit, as it says)"
  fi

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
      [ -n "$nvcc" ] && cw_pf_gpu_arch "$nvcc" "$mpath" "$part"
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
