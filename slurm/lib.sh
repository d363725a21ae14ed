# Helpers shared by the slurm/*.sbatch job scripts (sourced once the script has found the
# repository and made it the current directory).
#
# Environment a user may set (sbatch passes the submitting shell's environment to the job):
#   CUDA_MODULE       the module(s) loaded before building/running, a space-separated list
#                     loaded in order (default "cuda": the cluster's default CUDA module; e.g.
#                     CUDA_MODULE=cuda/12.2, or CUDA_MODULE="gcc/12 cuda/13.0" where the CUDA
#                     module needs another first); empty: load nothing.
#                     Skipped, with a log line, where `module` does not exist (a workstation).
#                     A module that cannot be loaded ends the job at once with exit 2 and one
#                     line (Lmod's own message, joined). The build needs CUDA 11.8 or newer
#                     (CUB ships with the toolkit from 11.0; CI builds with 11.8 as the oldest).
#   GNUPLOT_MODULE    the module(s) the plots job loads for gnuplot (and python3), the same way;
#                     default empty: none (gnuplot on PATH).
#   CW_MODULE_INIT    the modules init script(s) to source when the batch shell has no `module`
#                     function (default: $LMOD_PKG/init/bash, $MODULESHOME/init/bash, the
#                     system's /etc/profile.d/{lmod,modules}.sh, /usr/share/{lmod/lmod,modules}/init/bash);
#                     set and empty: none.
#   CW_SLURM_DRY_RUN  1: print every build and GPU command instead of running it (`dry run: ...`)
#                     and exit 0; for checking a submission without a GPU.
#   CW_GPU_CHECK      0: skip the checks for a usable GPU that run before any experiment
#                     (first an NVIDIA device file, before any module is loaded: a login node
#                     has none; then common/bin/devinfo --check, once built; without a GPU the
#                     job stops there with exit 3 and one line, nothing run or written).
#   CW_GPU_DEVICE_FILES  the device files of which one must exist on a GPU node (default
#                     /dev/nvidia[0-9]* /dev/dxg).
# Where a job's results go: each staged run (report-run, an assignment's profile) moves its
# CSVs into <assignment>/runs/<gpu>/ (the GPU its CSVs' `device` column names, as
# common/scripts/gpu_folder.sh slugs it), which `make plots` renders into
# runs/<gpu>/figures/ and runs/<gpu>/tables.md; the committed reference (results/,
# results/h200/) and the READMEs never change (only CW_REFERENCE=1 or CW_RESULTS_SUBDIR=TAG,
# a maintainer's, write there: common/scripts/staged_run.sh).
# shellcheck shell=bash

CUDA_MODULE=${CUDA_MODULE-cuda}
GNUPLOT_MODULE=${GNUPLOT_MODULE:-}
CW_SLURM_DRY_RUN=${CW_SLURM_DRY_RUN:-0}
CW_GPU_CHECK=${CW_GPU_CHECK:-1}
CW_REPO=$PWD
CW_LOG_DIR=$CW_REPO/slurm/logs

cw_log() { echo "[$(date '+%F %T')] $*"; }

# What ran where: the first lines of every log.
# The node as Slurm knows it (SLURMD_NODENAME: the name squeue and scontrol show, which on a
# cluster may differ from the host name), and the host; every job of a submission may run
# on another node of the cluster, sharing only the file system.
cw_node() { echo "${SLURMD_NODENAME:-$(hostname -s 2>/dev/null || hostname)}"; }
cw_job_header() {
  local where
  where="on $(cw_node)"
  [ -n "${SLURMD_NODENAME:-}" ] && where="$where (host $(hostname))"
  if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    cw_log "job $SLURM_JOB_ID: array task $SLURM_ARRAY_TASK_ID of array job $SLURM_ARRAY_JOB_ID," \
      "name ${SLURM_JOB_NAME:-$(basename "$0")} $where${SLURM_JOB_PARTITION:+ partition $SLURM_JOB_PARTITION}"
  else
    cw_log "job ${SLURM_JOB_ID:-(no Slurm: plain bash)}" \
      "name ${SLURM_JOB_NAME:-$(basename "$0")} $where${SLURM_JOB_PARTITION:+ partition $SLURM_JOB_PARTITION}"
  fi
  cw_log "repository $CW_REPO; GPU indices given (CUDA_VISIBLE_DEVICES): ${CUDA_VISIBLE_DEVICES:-(not set: every GPU of the machine)}$(cw_dry && echo "; CW_SLURM_DRY_RUN=1: commands printed, not run")"
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
# program's status (make itself says 2 whatever the program said: "Error 3" means exit 3; with
# nested makes the first such line is the program's). Afterwards:
#   CW_INTERRUPTED  SIGINT/SIGTERM/SIGHUP when the job was signalled meanwhile (scancel, the
#                   time limit, Ctrl-C), else empty
#   CW_RUN_KEPT     the folder common/scripts/staged_run.sh kept a failed or interrupted run in
#   CW_RUN_DEST     the destination of the last staged run, as staged_run.sh names it, relative
#                   to the assignment's folder: runs/<gpu> (e.g. runs/nvidia-h100-80gb-hbm3) for
#                   a successful run; for a failed one the destination it left unchanged
#                   (literally "runs/<gpu>": the GPU is known only from a whole run's CSVs);
#                   results or results/TAG for a reference run (CW_REFERENCE, CW_RESULTS_SUBDIR)
#   CW_RUN_UPDATED  the files a successful staged run moved into CW_RUN_DEST (the last one's)
#   CW_RUNS_UPDATED every successful staged run, one "<run name>|<destination>|<files>" line each
#                   (make profile at the top stages one run per assignment, "<folder>-profile")
# A signal does not end the job script at once: make and staged_run.sh get it too (Slurm
# signals every process of the job), stop, and say where the run was kept; tee ignores it so
# that this reaches the log; then the caller reports it.
cw_make() {
  CW_INTERRUPTED="" CW_RUN_KEPT="" CW_RUN_DEST="" CW_RUN_UPDATED="" CW_RUNS_UPDATED=""
  if cw_dry; then cw_do make "$@"; return 0; fi
  local out status recipe
  out=$(mktemp)
  echo "+ make $*"
  trap 'CW_INTERRUPTED=SIGINT' INT
  trap 'CW_INTERRUPTED=SIGTERM' TERM
  trap 'CW_INTERRUPTED=SIGHUP' HUP
  make "$@" 2>&1 | (trap '' INT TERM HUP; exec tee "$out")
  status=${PIPESTATUS[0]}
  trap - INT TERM HUP
  if [ "$status" -ne 0 ]; then
    recipe=$(grep -Eo '\] Error [0-9]+$' "$out" | head -n 1 | grep -Eo '[0-9]+$')
    [ -n "$recipe" ] && status=$recipe
  fi
  # staged_run.sh's last words: "report-run NAME: DEST/ updated: a.csv b.csv", or
  # "report-run NAME: REASON: DEST/ unchanged; what this run produced is in FOLDER".
  CW_RUN_KEPT=$(sed -n 's/^report-run .*what this run produced is in \(.*\)$/\1/p' "$out" | tail -n 1)
  CW_RUNS_UPDATED=$(sed -n 's/^report-run \([^: ]*\): \([^ ]*\)\/ updated: *\(.*\)$/\1|\2|\3/p' "$out")
  CW_RUN_DEST=$(sed -n -e 's/^report-run [^: ]*: \([^ ]*\)\/ updated:.*$/\1/p' \
    -e 's/^report-run [^: ]*: [^:]*: \([^ ]*\)\/ unchanged; what this run produced is in .*$/\1/p' "$out" | tail -n 1)
  CW_RUN_UPDATED=$(tail -n 1 <<<"$CW_RUNS_UPDATED" | cut -d'|' -f3)
  rm -f "$out"
  return "$status"
}

# The CUDA module, where environment modules exist. A batch job's bash is neither a login nor
# an interactive shell: it reads no /etc/profile.d, so `module` is there only when the
# submitting shell exported it (Lmod's init does `export -f module`; sbatch passes the
# environment on). Otherwise the job sources the modules init itself, the first of:
#   $LMOD_PKG/init/bash, $MODULESHOME/init/bash   (the submitting shell had modules set up:
#                                                  its MODULEPATH came along with them)
#   /etc/profile.d/lmod.sh, /etc/profile.d/modules.sh  (the system's setup, with its MODULEPATH)
#   /usr/share/lmod/lmod/init/bash, /usr/share/modules/init/bash
# and names it in the log. CW_MODULE_INIT="FILE..." tries those instead (a cluster whose init
# lives elsewhere); CW_MODULE_INIT= (set, empty) sources none, as on a machine without modules.
# A module that cannot be loaded ends the job here, before any build or GPU probe. Lmod prints
# an error for an unknown module but may return 0: the module must also show as loaded afterwards.
cw_module_loaded() {
  local m=$1
  case ":${LOADEDMODULES:-}:" in *":$m:"*|*":$m/"*) return 0 ;; esac
  module is-loaded "$m" >/dev/null 2>&1
}
cw_module_inits() {
  if [ -n "${CW_MODULE_INIT+set}" ]; then printf '%s\n' $CW_MODULE_INIT; return; fi
  printf '%s\n' ${LMOD_PKG:+"$LMOD_PKG/init/bash"} ${MODULESHOME:+"$MODULESHOME/init/bash"} \
    /etc/profile.d/lmod.sh /etc/profile.d/modules.sh /usr/share/lmod/lmod/init/bash /usr/share/modules/init/bash
}
# What `module load` printed, as one line: blank lines dropped, blanks squeezed, at most 300
# characters (Lmod's error for an unknown module is a dozen lines).
cw_one_line() { grep -v '^[[:space:]]*$' | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//' | cut -c1-300; }
# cw_load_modules VAR WHAT: loads the modules listed in $VAR (space-separated), in order.
cw_load_modules() {
  local var=$1 what=$2 list m out status
  list=${!var}
  if [ -z "$list" ]; then cw_log "$var is empty: no module loaded"; return 0; fi
  if ! type module >/dev/null 2>&1; then
    local init
    while read -r init; do
      [ -r "$init" ] || continue
      # shellcheck disable=SC1090
      . "$init" >/dev/null 2>&1
      if type module >/dev/null 2>&1; then
        cw_log "no 'module' function in this batch shell: sourced $init"
        break
      fi
    done < <(cw_module_inits)
  fi
  if ! type module >/dev/null 2>&1; then
    cw_log "no 'module' command here: $var=$list not loaded"
    return 0
  fi
  for m in $list; do
    if cw_dry; then echo "dry run: module load $m"; continue; fi
    echo "+ module load $m"
    out=$(mktemp)
    status=0
    module load "$m" >"$out" 2>&1 || status=$?
    if [ "$status" -ne 0 ] || ! cw_module_loaded "$m"; then
      local said
      said=$(cw_one_line <"$out")
      rm -f "$out"
      cw_fail 2 "cannot load module '$m'$([ "$m" = "$list" ] || echo " (of $var='$list')") (module load exit $status, not loaded afterwards${said:+; it said: $said}): $what, or $var= to load none"
    fi
    # A module that loaded may still print something (a banner, a deprecation notice).
    [ -s "$out" ] && sed 's/^/  module: /' "$out"
    rm -f "$out"
  done
  cw_dry || cw_log "module$([ "$list" = "${list%% *}" ] || echo s) $list loaded (loaded modules: ${LOADEDMODULES:-?})"
}
# Where to look for a module: `module spider NAME` lists every module of the site, also those an
# Lmod hierarchy shows in `module avail` only once their compiler is loaded, and says what to
# load first.
cw_load_module() {
  cw_load_modules CUDA_MODULE "pick what 'module spider cuda' lists (CUDA_MODULE=cuda/12.2; where it says a compiler must be loaded first, list it before: CUDA_MODULE=\"gcc/12 cuda/12.2\")"
}
cw_load_gnuplot_module() {
  cw_load_modules GNUPLOT_MODULE "pick what 'module spider gnuplot' lists (GNUPLOT_MODULE=gnuplot; a list is loaded in order)"
}

# The nvcc the build uses (as common/arch.mk picks it: $CUDA_PATH/bin/nvcc, else nvcc on
# PATH, else /usr/local/cuda/bin/nvcc), named in the log before anything is built; none: exit 2.
cw_nvcc_path() {
  if [ -n "${CUDA_PATH:-}" ]; then echo "$CUDA_PATH/bin/nvcc"
  else command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc; fi
}
cw_require_nvcc() {
  local nvcc release
  nvcc=$(cw_nvcc_path)
  if [ ! -x "$nvcc" ]; then
    cw_dry && { echo "dry run: no nvcc ($nvcc); a real run stops here with exit 2"; return 0; }
    cw_fail 2 "no nvcc ($nvcc not found; CUDA_MODULE=${CUDA_MODULE:-(empty)}): load a CUDA module (CUDA_MODULE=cuda/12.2, see 'module spider cuda') or set CUDA_PATH"
  fi
  release=$("$nvcc" --version 2>/dev/null | grep -m 1 'release') || release="(nvcc --version printed no release line)"
  cw_log "nvcc: $nvcc: $release"
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

# cw_run_built FOLDER CMD...: runs FOLDER's program (CMD) under a shared lock on the folder's
# build lock: the sweep's tasks run side by side, possibly on several nodes of one shared
# checkout, and a task that must rebuild the program (its node has another GPU, so the default
# build adds another architecture) waits until no task is running it, and a run waits for a
# build to finish. Without flock (or in a dry run) CMD runs as cw_do runs it.
cw_run_built() {
  local folder=$1; shift
  if cw_dry || ! command -v flock >/dev/null 2>&1; then cw_do "$@"; return; fi
  echo "+ $*   (under a shared lock on slurm/logs/.build-$folder.lock)"
  flock -s "$CW_LOG_DIR/.build-$folder.lock" "$@"
}

# A GPU node, first of all (before a module is loaded or anything built): an NVIDIA device file
# (CW_GPU_DEVICE_FILES, default /dev/nvidia0 ... and WSL's /dev/dxg). None, as on a login node:
# one FAILED line, exit 3. CW_GPU_CHECK=0 skips it, as it skips cw_require_gpu.
cw_require_gpu_node() {
  if [ "$CW_GPU_CHECK" = 0 ] || cw_dry; then return 0; fi
  local f
  for f in ${CW_GPU_DEVICE_FILES:-/dev/nvidia[0-9]* /dev/dxg}; do [ -e "$f" ] && return 0; done
  cw_fail 3 "no GPU on $(cw_node): no NVIDIA device here (${CW_GPU_DEVICE_FILES:-/dev/nvidia0 ...}), as on a login node: submit the job (sbatch $0) or run it on a GPU machine; nothing was run or written"
}

# A usable GPU, or exit 3 with the CUDA runtime's reason (common/bin/devinfo --check's line, in
# the FAILED line) before anything is deleted or run.
cw_require_gpu() {
  if [ "$CW_GPU_CHECK" = 0 ] || cw_dry; then return 0; fi
  cw_build common bin/devinfo >/dev/null
  # Its device line (the GPU and the code its kernels run: the cluster phase checks it) goes to
  # the log when the check passes; when it fails, only its reason, inside the FAILED line.
  local status=0 said shown err
  err=$(mktemp) || cw_fail 2 "mktemp failed: no temporary file for devinfo's message"
  shown=$(common/bin/devinfo --check 2>"$err") || status=$?
  said=$(cw_one_line <"$err"); rm -f "$err"
  [ "$status" -ne 0 ] || { printf '%s\n' "$shown"; return 0; }
  cw_fail "$status" "no usable GPU on $(cw_node) (GPU indices given: CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-not set}): ${said:-common/bin/devinfo --check exited $status}; nothing was run or written"
}

# cw_unchanged FOLDER: what a failed or interrupted staged run of FOLDER left as it was, as
# staged_run.sh says it (CW_RUN_DEST): "FOLDER/runs/<gpu>/" (the GPU's folder, whichever: a
# failed run's GPU is not known, and no runs/ folder changed), or the reference folder a
# maintainer's run was for ("FOLDER/results/").
cw_unchanged() { echo "$1/${CW_RUN_DEST:-runs/<gpu>}/"; }

# cw_report FOLDER: the assignment's experiments (`make report-run`, staged by
# common/scripts/staged_run.sh): a whole, successful run's CSVs are moved into
# FOLDER/runs/<gpu>/ (the reference FOLDER/results/ is not touched); a failed or interrupted
# run changes nothing there and is kept, and named in the log, under FOLDER/build/runs/.
cw_signal_number() { case $1 in SIGHUP) echo 1 ;; SIGINT) echo 2 ;; *) echo 15 ;; esac; }
cw_report() {
  local folder=$1 status=0 kept
  cw_require_gpu_node
  cw_load_module
  cw_require_nvcc
  cw_require_gpu
  cw_build "$folder"
  cw_make -C "$folder" report-run || status=$?
  kept=${CW_RUN_KEPT:-"(not named above: see $CW_REPO/$folder/build/runs/)"}
  if [ -n "$CW_INTERRUPTED" ]; then
    cw_fail $((128 + $(cw_signal_number "$CW_INTERRUPTED"))) "$folder: interrupted by $CW_INTERRUPTED (scancel, the time limit or Ctrl-C): $(cw_unchanged "$folder") unchanged; this run's files are kept in $kept"
  fi
  [ "$status" -eq 0 ] || cw_fail "$status" "$folder: make -C $folder report-run failed: $(cw_unchanged "$folder") unchanged; this run's files are kept in $kept"
  if cw_dry; then cw_log "done (dry run: nothing written)"
  elif [ -z "$CW_RUN_DEST" ]; then cw_log "done: make -C $folder report-run succeeded, without naming the folder it updated (no 'report-run $folder: .../ updated:' line above)"
  else cw_log "done: $folder/$CW_RUN_DEST/ updated:${CW_RUN_UPDATED:+ $CW_RUN_UPDATED}"; fi
}

# Nsight Compute and a GPU, before anything is built or profiled: common/scripts/ncu_profile.sh --check
# (ncu: $NCU, else on PATH, else /usr/local/cuda/bin/ncu); missing: its one line, exit 2 (no
# ncu) or 3 (no usable GPU). CW_GPU_CHECK=0 skips it (make profile checks again anyway).
cw_require_profiler() {
  if cw_dry; then cw_do bash common/scripts/ncu_profile.sh --check; return 0; fi
  [ "$CW_GPU_CHECK" = 0 ] && return 0
  cw_build common bin/devinfo >/dev/null
  local status=0 err ncu
  err=$(mktemp)
  bash common/scripts/ncu_profile.sh --check 2>"$err" || status=$?
  if [ "$status" -ne 0 ]; then
    local why
    why=$(grep -v '^$' "$err" | head -n 1)
    rm -f "$err"
    cw_fail "$status" "${why:-common/scripts/ncu_profile.sh --check exited $status} (on $(hostname)): nothing was profiled or written"
  fi
  rm -f "$err"
  ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
  cw_log "ncu: $ncu: $("$ncu" --version 2>/dev/null | grep -m 1 -i 'version' || echo '(ncu --version printed no version line)')"
}

# cw_profile: `make profile` at the top: every assignment's versions under Nsight Compute, each
# assignment's run staged like report-run (its profile.csv goes into <folder>/runs/<gpu>/ only
# when that assignment's whole profile succeeded, beside the report-run's CSVs of that GPU; the
# reference results/profile.csv is not touched; a failed or interrupted one is kept, and named,
# under <folder>/build/runs/<folder>-profile-...). The first assignment that fails stops it.
# cw_profile_done: the assignments already updated, from CW_RUNS_UPDATED ("<folder>-profile|
# runs/<gpu>|profile.csv" lines: an assignment's NAME is its folder's name, common/assignment.mk),
# as "pi/runs/<gpu>/ updated: profile.csv; scan/runs/<gpu>/ updated: profile.csv".
cw_profile_done() {
  local name dest files out=""
  while IFS='|' read -r name dest files; do
    [ -n "$name" ] || continue
    out="${out:+$out; }${name%-profile}/$dest/ updated: $files"
  done <<<"$CW_RUNS_UPDATED"
  echo "$out"
}
cw_profile() {
  local status=0 folder done_part where
  cw_require_gpu_node
  cw_load_module
  cw_require_nvcc
  cw_require_profiler
  # Built first, one at a time under the same per-folder locks as the assignments' own jobs
  # (submit_all.sh --profile runs them side by side in this one checkout); make profile then
  # finds every program up to date.
  for folder in $(bash common/scripts/assignments.sh); do cw_build "$folder"; done
  cw_make --no-print-directory profile || status=$?
  done_part=$(cw_profile_done)
  done_part=${done_part:+ (already: $done_part)}
  if [ -n "$CW_RUN_KEPT" ]; then
    folder=${CW_RUN_KEPT#"$CW_REPO"/}; folder=${folder%%/*}
    where="$(cw_unchanged "$folder") unchanged$done_part; this run's files are kept in $CW_RUN_KEPT"
  else
    where="stopped before an assignment's profile run was staged (see above): no runs/<gpu>/ folder changed by it$done_part"
  fi
  if [ -n "$CW_INTERRUPTED" ]; then
    cw_fail $((128 + $(cw_signal_number "$CW_INTERRUPTED"))) "profile: interrupted by $CW_INTERRUPTED (scancel, the time limit or Ctrl-C): $where"
  fi
  [ "$status" -eq 0 ] || cw_fail "$status" "profile: make profile failed: $where"
  if cw_dry; then cw_log "done (dry run: nothing written)"
  else
    done_part=$(cw_profile_done)
    cw_log "done: ${done_part:-no profile run was staged, nothing updated}"
  fi
}

# cw_job_states ID: the job's states (an array: every task's), from scontrol, else sacct.
cw_job_states() {
  local s
  s=$(timeout 10 scontrol -o show job "$1" 2>/dev/null | sed -n 's/.*[[:space:]]JobState=\([^[:space:]]*\).*/\1/p')
  [ -n "$s" ] || s=$(timeout 10 sacct -n -X -P -j "$1" -o State 2>/dev/null | cut -d' ' -f1)
  sort -u <<<"$s" | paste -sd ' ' -
}
# cw_report_jobs NAME:ID...: a line for each job that did not succeed (it added nothing to its
# runs/<gpu>/: what is there is an earlier run's), then one line for all; returns 1 when any
# did not succeed.
# cw_job_dest NAME: where a job's CSVs go, for those lines.
cw_job_dest() {
  case $1 in
    profile) echo "*/runs/<gpu>/profile.csv" ;;
    vecmax_sweep|vecmax_gather) echo "vecmax/runs/<gpu>/sweep.csv" ;;
    *) echo "$1/runs/<gpu>/" ;;
  esac
}
cw_report_jobs() {
  local pair name id states missing=0
  for pair in "$@"; do
    name=${pair%%:*} id=${pair#*:}
    states=$(cw_job_states "$id")
    case " $states " in
      " COMPLETED ") ;;
      *) missing=$((missing + 1))
         cw_log "missing: $name (job $id: ${states:-state unknown}): nothing new from it in $(cw_job_dest "$name") (anything there, figures and tables too, is an earlier run's); see slurm/logs/$name-$id*.out" ;;
    esac
  done
  [ $# -gt 0 ] || return 0
  if [ "$missing" -eq 0 ]; then cw_log "every job it waited for succeeded ($#): the figures and tables of its runs/<gpu>/ folders are from this run"
  else cw_log "$missing of $# jobs did not succeed (above): resubmit each alone (slurm/submit_all.sh NAME), then make plots"; fi
  [ "$missing" -eq 0 ]
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
