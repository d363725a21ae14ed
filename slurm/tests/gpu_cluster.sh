#!/usr/bin/env bash
# The GPU cluster as a repeatable test: on a GPU machine with no Slurm, as root,
# starts a single-node Slurm from Debian's packages carried as files (a folder made by
# slurm/tests/pack_slurm.sh), runs slurm/submit_all.sh on it, checks every job's final state
# and exit code from Slurm and the sweep's results from the CSV, and stops every daemon it
# started by its PID.
#
#   bash slurm/tests/gpu_cluster.sh PACKDIR
#
# What it does and checks (slurm/README.md, "Testing on a GPU node without Slurm", says more):
#   - munged, slurmctld and slurmd (-d PACKDIR/sbin/slurmstepd) from PACKDIR with the pack's
#     libraries on LD_LIBRARY_PATH, under a temporary folder (own munge key and socket, free ports,
#     PluginDir in PACKDIR, MinJobAge=86400: no accounting, finished jobs are read from scontrol;
#     gres.conf Name=gpu File=/dev/nvidiaK for every /dev/nvidiaK; with cgroup v2 a cgroup.conf
#     with IgnoreSystemd=yes, /sys/fs/cgroup/system.slice created when missing and removed again);
#     the client commands through PACKDIR/bin (no LD_LIBRARY_PATH reaches the jobs);
#   - a trivial job (GPU visible in it, scontrol works in it, no pack library path in its environment);
#   - CUDA_MODULE= slurm/submit_all.sh [--sweep-array] [--profile] in this checkout (the jobs write
#     their runs into */runs/<gpu>/, as on the cluster), then waits for every job; checks: every
#     job COMPLETED 0:0, array tasks too (plots FAILED 2:0 with "gnuplot is not installed" where
#     it is not), each assignment's log builds sm_NN (its arch: line) and names native code for
#     the GPU ("kernels: sm_NN code, native", NN its compute capability) and ends
#     "done: <a>/runs/<gpu>/ updated:", that folder holds CSVs of this run (profile.csv too when
#     profiled), vecmax/runs/<gpu>/sweep.csv was written by this run with one row per
#     configuration, every result_ok=1; no committed */results/ file changed; the node never
#     drained; every daemon stopped by its PID;
#   - a record (device, driver, times, every job's name/state/exit/run time, the checks) on
#     stdout and in $CW_CLUSTER_RECORD (default $OUT/cluster_record.txt when OUT is set), and
#     the daemons' logs next to it (<record>-logs/).
# Variables:
#   CW_CLUSTER_TIMEOUT  seconds for the whole script (default 540); the jobs get what is left
#                       after the start, less 45 s for the checks and the stop
#   CW_CLUSTER_PROFILE  1: submit the profile job too (--profile; needs ncu). Default 0: the
#                       jobs alone take most of one 600-s call (cluster_record.txt has the
#                       times), and `make profile` adds an ncu run per version and size
#   CW_CLUSTER_SWEEP_ARRAY  1: vecmax's sweep as the job array and its gather (--sweep-array)
#                       instead of inside the vecmax job
#   SMS_DEFAULT         passed on to the jobs' builds: SMS_DEFAULT=75 stands for a CUDA 12-style
#                       default list (supported by the toolkit, not the GPU's own) and shows that
#                       the default build still adds native code for the node's GPU
#   CW_CLUSTER_NO_GPU   1: a check of the pack and the daemons without a GPU (gres.conf File=/dev/null):
#                       the trivial job, then `CW_SLURM_DRY_RUN=1 submit_all.sh` in a copy of the
#                       checkout (every job COMPLETED 0:0, plots too; no CSV check)
#   CW_CLUSTER_RECORD   where to write the record
#   CW_CLUSTER_NODES    2: a two-node cluster on this one machine (two slurmd, `-N cw-node1` and
#                       `-N cw-node2`, each with its own port, spool folder and log; with two GPUs
#                       or more each node gets one of them, with one GPU both share it), and
#                       instead of the whole submission `submit_all.sh --no-plots vecmax_sweep`:
#                       the sweep's array and gather, run for real; checked: every task and the
#                       gather COMPLETED 0:0, each task's log names the Slurm node that ran it
#                       (`array task N of array job J, ... on cw-nodeK`, the node scontrol gives
#                       for it), both nodes took tasks, vecmax/runs/<gpu>/sweep.csv has every
#                       configuration, all result_ok=1. The record has one line per task:
#                       `array task N ... on <node>`.
# Exit status: 0 every check passed; 1 a check failed; 2 cannot run here (not root, no pack,
# no GPU, a daemon did not start).
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
t_start=$SECONDS
limit=${CW_CLUSTER_TIMEOUT:-540}
nogpu=${CW_CLUSTER_NO_GPU:-0}
want_profile=${CW_CLUSTER_PROFILE:-0}
record=${CW_CLUSTER_RECORD:-${OUT:+$OUT/cluster_record.txt}}
nnodes=${CW_CLUSTER_NODES:-1}
[[ "$nnodes" =~ ^[12]$ ]] || { echo "gpu_cluster.sh: CW_CLUSTER_NODES=$nnodes: 1 or 2" >&2; exit 2; }
start_date=$(date '+%F %T %Z')
start_epoch=$(date +%s)

lines=() fails=0 passes=0 status_override=""
rec() { lines+=("$*"); echo "$*"; }
pass() { passes=$((passes + 1)); rec "PASS $*"; }
fail() { fails=$((fails + 1)); rec "FAIL $*"; }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
left() { echo $((t_start + limit - SECONDS)); }
die2() { rec "CANNOT RUN: $*"; status_override=2; exit 2; }

pack=${1:-}
[ -n "$pack" ] || { echo "usage: gpu_cluster.sh PACKDIR (made by slurm/tests/pack_slurm.sh)" >&2; exit 2; }
[ -d "$pack" ] || { echo "gpu_cluster.sh: $pack: no such folder (make it with slurm/tests/pack_slurm.sh)" >&2; exit 2; }
pack=$(cd "$pack" && pwd -P)
for p in sbin/slurmctld sbin/slurmd sbin/slurmstepd sbin/munged bin/sbatch bin/scontrol bin/squeue bin/scancel lib/slurm-wlm/libslurmfull.so; do
  [ -e "$pack/$p" ] || { echo "gpu_cluster.sh: $pack/$p missing: not a pack from slurm/tests/pack_slurm.sh" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "gpu_cluster.sh: needs root (slurmd launches the jobs)" >&2; exit 2; }
# A copy that lost the execute bits (carried as plain files) gets them back.
for p in "$pack"/sbin/* "$pack"/libexec/* "$pack"/bin/*; do [ -x "$p" ] || chmod 755 "$p"; done
[ -x /lib64/ld-linux-x86-64.so.2 ] || { echo "gpu_cluster.sh: no /lib64/ld-linux-x86-64.so.2 (x86_64 glibc) for the pack's programs" >&2; exit 2; }

gpus=()
if [ "$nogpu" != 1 ]; then
  for d in /dev/nvidia[0-9]*; do [ -c "$d" ] && gpus+=("$d"); done
  [ ${#gpus[@]} -gt 0 ] || { echo "gpu_cluster.sh: no /dev/nvidia0 here (CW_CLUSTER_NO_GPU=1 checks the pack and the daemons without a GPU)" >&2; exit 2; }
  mapfile -t gpus < <(printf '%s\n' "${gpus[@]}" | sort -V)
fi

libpath=$pack/lib:$pack/lib/slurm-wlm
export PATH=$pack/bin:$PATH
dir=$(mktemp -d "${TMPDIR:-/tmp}/cw-gpu-cluster.XXXXXX") || exit 2
chmod 755 "$dir"
mkdir -p "$dir"/{etc,state,spool,log,run,munge,tmp}
chmod 700 "$dir/munge"
export SLURM_CONF=$dir/etc/slurm.conf
pids=() made_slice=""

# --- stop and clean up, on every exit path ------------------------------------------------
# cw_pid_alive, cw_wait_for, cw_free_port, cw_slurm_conf, cw_node_state: the tier-1 tests' cluster helpers.
# shellcheck source=cluster.sh
. "$(dirname "${BASH_SOURCE[0]}")/cluster.sh"
stepds() {  # job step daemons our slurmd started: the pack's own slurmstepd
  local p
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/exe" 2>/dev/null)" = "$pack/sbin/slurmstepd" ] && echo "${p#/proc/}"
  done
}
stop_all() {
  local pid all left=""
  [ ${#pids[@]} -gt 0 ] || return 0
  if cw_pid_alive "${pids[1]:-}"; then  # slurmctld: cancel whatever is left, give it KillWait to end
    timeout 10 scancel --partition=gpu >/dev/null 2>&1
    cw_wait_for 20 eval '[ -z "$(timeout 5 squeue -h -o %i 2>/dev/null)" ]'
  fi
  all="${pids[*]} $(stepds | tr '\n' ' ')"
  for pid in $all; do cw_pid_alive "$pid" && kill -TERM "$pid" 2>/dev/null; done
  for pid in $all; do cw_wait_for 10 eval "! kill -0 $pid" || kill -KILL "$pid" 2>/dev/null; done
  for pid in $all; do wait "$pid" 2>/dev/null; done
  sleep 0.5
  for pid in $all $(stepds); do cw_pid_alive "$pid" && left="$left $pid"; done
  if [ -z "$left" ]; then pass "every daemon stopped by its PID ($(echo $all | wc -w): munged slurmctld slurmd + step daemons)"
  else fail "daemons still running:$left"; fi
  pids=()
}
finish() {
  local rc=$?
  trap '' INT TERM HUP
  stop_all
  if [ -n "$made_slice" ]; then  # the cgroup folders slurmd made under the one we created
    find /sys/fs/cgroup/system.slice -depth -type d -exec rmdir {} \; 2>/dev/null
    [ -d /sys/fs/cgroup/system.slice ] && rec "note: /sys/fs/cgroup/system.slice (created here) could not be removed"
  fi
  rec "end: $(date '+%F %T %Z') ($((SECONDS - t_start)) s)"
  if [ -n "$status_override" ]; then rc=$status_override
  elif [ "$fails" -gt 0 ] || [ "$passes" -eq 0 ]; then rc=1
  else rc=0; fi
  rec "result: $passes passed, $fails failed; exit $rc"
  if [ -n "$record" ]; then
    mkdir -p "$(dirname "$record")" && printf '%s\n' "${lines[@]}" >"$record"
    rm -rf "${record%.txt}-logs" && mkdir -p "${record%.txt}-logs/jobs" &&
      cp "$dir"/log/* "$dir"/etc/*.conf "${record%.txt}-logs/" 2>/dev/null
    # this run's job logs (slurm/logs/ of the checkout it ran in)
    [ -n "${work:-}" ] && [ -f "$dir/start.stamp" ] &&
      find "$work/slurm/logs" -maxdepth 1 -name '*.out' -newer "$dir/start.stamp" -exec cp -t "${record%.txt}-logs/jobs/" {} + 2>/dev/null
    echo "record: $record (daemon logs and configuration in ${record%.txt}-logs/)"
  fi
  rm -rf "$dir"
  exit "$rc"
}
trap finish EXIT
trap 'rec "INTERRUPTED by SIGINT"; status_override=${status_override:-130}; exit 130' INT
trap 'rec "INTERRUPTED by SIGTERM or SIGHUP"; status_override=${status_override:-143}; exit 143' TERM HUP

rec "cluster: $([ "$nnodes" = 1 ] && echo single-node || echo "$nnodes-node (on one machine)") Slurm from $pack on $(hostname), start $start_date"
rec "pack: $(sed -n 's/^packages: //p' "$pack/MANIFEST.txt" 2>/dev/null | tr -s ' ' | cut -c1-200)"
if [ "$nogpu" = 1 ]; then
  rec "device: none (CW_CLUSTER_NO_GPU=1: gres.conf File=/dev/null, jobs as dry runs)"
else
  rec "device: $(nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>/dev/null | paste -sd ';' - || echo "nvidia-smi failed") (${#gpus[@]} device file(s): ${gpus[*]})"
fi
rec "host: $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-?}"), $(nproc) cores, $(ldd --version 2>/dev/null | head -n 1 | sed 's/.* //') glibc, cgroup $(stat -fc %T /sys/fs/cgroup 2>/dev/null)"

# --- configuration ------------------------------------------------------------------------
host=$(hostname -s 2>/dev/null || uname -n | cut -d. -f1)
ctld_port=$(cw_free_port) slurmd_port=$(cw_free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(cw_free_port); done
hw=$(LD_LIBRARY_PATH=$libpath timeout 20 "$pack/sbin/slurmd" -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* \(CPUs=.*\)$/\1/p' | sed 's/ *$//')
[ -n "$hw" ] || die2 "slurmd -C printed no node line: $(LD_LIBRARY_PATH=$libpath timeout 20 "$pack/sbin/slurmd" -C 2>&1 | head -n 3 | tr '\n' ' ')"
ngpu=${#gpus[@]}
[ "$nogpu" = 1 ] && ngpu=1
# Two nodes: cw-node1 and cw-node2, one GPU each (the first two, or the one GPU shared).
nodes="" node_names=$host
if [ "$nnodes" = 2 ]; then
  p1=$(cw_free_port); while [[ " $ctld_port $slurmd_port " == *" $p1 "* ]]; do p1=$(cw_free_port); done
  p2=$(cw_free_port); while [[ " $ctld_port $slurmd_port $p1 " == *" $p2 "* ]]; do p2=$(cw_free_port); done
  nodes="cw-node1:$p1 cw-node2:$p2" node_names="cw-node1 cw-node2" ngpu=1
fi
cgroup2=0
[ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ] && cgroup2=1
: >"$dir/etc/plugstack.conf"
{
  cw_slurm_conf cwgpu "$dir" "$host" "$ctld_port" "$slurmd_port" "$dir/munge/munge.socket" "$hw" "$ngpu" "$nodes"
  echo "PluginDir=$pack/lib/slurm-wlm"
  echo "PlugStackConfig=$dir/etc/plugstack.conf"
  # No accounting: finished jobs are read from scontrol, so they must stay (default 300 s).
  echo "MinJobAge=86400"
} >"$dir/etc/slurm.conf"
if [ "$nnodes" = 2 ]; then
  g1=${gpus[0]:-/dev/null} g2=${gpus[1]:-${gpus[0]:-/dev/null}}
  printf 'NodeName=cw-node1 Name=gpu File=%s\nNodeName=cw-node2 Name=gpu File=%s\n' "$g1" "$g2" >"$dir/etc/gres.conf"
elif [ "$nogpu" = 1 ]; then
  echo "Name=gpu File=/dev/null" >"$dir/etc/gres.conf"  # Slurm 22.05 drops a GPU with no device file
else
  for d in "${gpus[@]}"; do echo "Name=gpu File=$d"; done >"$dir/etc/gres.conf"
fi
if [ "$cgroup2" = 1 ]; then
  # slurmd loads the cgroup plugin whatever ProctrackType says; with cgroup v2 and no systemd
  # it must not ask systemd for its scope.
  printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n' >"$dir/etc/cgroup.conf"
fi

# --- daemons ------------------------------------------------------------------------------
LD_LIBRARY_PATH=$libpath timeout 20 "$pack/sbin/mungekey" --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 ||
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge/munge.key"
LD_LIBRARY_PATH=$libpath "$pack/sbin/munged" --foreground --force --socket="$dir/munge/munge.socket" \
  --key-file="$dir/munge/munge.key" --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
  --seed-file="$dir/munge/munged.seed" >"$dir/log/munged.out" 2>&1 &
pids+=($!)
cw_wait_for 10 eval "timeout 5 munge -n -S '$dir/munge/munge.socket' | timeout 5 unmunge -S '$dir/munge/munge.socket'" ||
  die2 "munged did not answer: $(tail -n 3 "$dir/log/munged.out" "$dir/log/munged.log" 2>/dev/null | tr '\n' ' ')"

LD_LIBRARY_PATH=$libpath "$pack/sbin/slurmctld" -D -i -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
pids+=($!)
cw_wait_for 30 timeout 5 scontrol ping ||
  die2 "slurmctld did not answer: $(tail -n 3 "$dir/log/slurmctld.log" "$dir/log/slurmctld.out" 2>/dev/null | tr '\n' ' ')"

if [ "$cgroup2" = 1 ] && [ ! -d /sys/fs/cgroup/system.slice ]; then
  mkdir /sys/fs/cgroup/system.slice && made_slice=1
fi
slurmd_pids=""
for node in $node_names; do
  LD_LIBRARY_PATH=$libpath "$pack/sbin/slurmd" -D -N "$node" -d "$pack/sbin/slurmstepd" -f "$SLURM_CONF" >"$dir/log/slurmd-$node.out" 2>&1 &
  pids+=($!) slurmd_pids="$slurmd_pids $!"
done
slurmds_alive() { local p; for p in $slurmd_pids; do kill -0 "$p" 2>/dev/null || return 1; done; }
cw_wait_for 40 eval '[ "$(cw_node_state)" = IDLE ] || ! slurmds_alive'
[ "$(cw_node_state)" = IDLE ] ||
  die2 "the node(s) did not become idle: $(timeout 5 scontrol show node 2>&1 | grep -E 'NodeName=|State=|Reason=' | tr -s ' \n' ' ') $(tail -q -n 3 "$dir"/log/slurmd*.log "$dir"/log/slurmd*.out 2>/dev/null | tr '\n' ' ')"
pass "daemons up in $((SECONDS - t_start)) s: munged ${pids[0]}, slurmctld ${pids[1]}, slurmd$slurmd_pids; node(s) $node_names IDLE with gpu:$ngpu each ($hw)$([ "$nnodes" = 2 ] && echo "; gres.conf: $(tr '\n' ';' <"$dir/etc/gres.conf")")"

# --- jobs: reading their final state ------------------------------------------------------
field() { sed -n "s/.*\(^\| \)$1=\([^ ]*\).*/\2/p" <<<"$2"; }
show_job() { timeout 10 scontrol -o show job "$1" 2>/dev/null; }
squeue_empty() { local q; q=$(timeout 10 squeue -h -o %i 2>/dev/null) && [ -z "$q" ]; }
# wait_jobs DEADLINE: until no job is pending or running; progress every 30 s; 1 on timeout
wait_jobs() {
  local deadline=$1 next=$((SECONDS + 30))
  while ! squeue_empty; do
    if [ "$SECONDS" -ge "$deadline" ]; then return 1; fi
    if [ "$SECONDS" -ge "$next" ]; then
      echo "  [$((SECONDS - t_start)) s] $(timeout 10 squeue -h -o '%T' 2>/dev/null | sort | uniq -c | tr -s ' \n' ' ')"
      next=$((SECONDS + 30))
    fi
    sleep 2
  done
}

# A trivial job first: it runs, sees its GPU, can call scontrol, and gets no pack library path.
trivial_out=$dir/log/trivial.out
tid=$(timeout 20 sbatch --parsable -J trivial -p gpu --gres=gpu:1 -t 2 -o "$trivial_out" --wrap \
  'echo "trivial job $SLURM_JOB_ID ran on $(hostname)"; echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset}"
   echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"; scontrol show job "$SLURM_JOB_ID" | head -n 1
   if command -v nvidia-smi >/dev/null; then nvidia-smi -L; fi' 2>"$dir/log/sbatch-trivial.err")
if [ -z "$tid" ]; then fail "sbatch of a trivial job: $(head -n 2 "$dir/log/sbatch-trivial.err" | tr '\n' ' ')"; exit 1; fi
cw_wait_for 60 eval "show_job $tid | grep -Eq 'JobState=(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE)'"
j=$(show_job "$tid")
check "trivial job $tid: $(field JobState "$j") $(field ExitCode "$j") (expected COMPLETED 0:0)" \
  test "$(field JobState "$j") $(field ExitCode "$j")" = "COMPLETED 0:0"
check "trivial job ran its script and scontrol in the job answered" \
  eval "grep -q '^trivial job $tid ran' '$trivial_out' && grep -q '^JobId=$tid ' '$trivial_out'"
check "no pack library path in the job's environment (LD_LIBRARY_PATH=$(sed -n 's/^LD_LIBRARY_PATH=//p' "$trivial_out"))" \
  eval "! grep -q '^LD_LIBRARY_PATH=.*$pack' '$trivial_out'"
if [ "$nogpu" != 1 ]; then
  check "the job was given a GPU ($(grep -m1 '^CUDA_VISIBLE_DEVICES=' "$trivial_out")) and sees it ($(grep -m1 '^GPU 0' "$trivial_out" | cut -c1-60))" \
    eval "grep -q '^CUDA_VISIBLE_DEVICES=[0-9]' '$trivial_out' && grep -q '^GPU 0' '$trivial_out'"
fi

# --- submit_all.sh ------------------------------------------------------------------------
if [ "$nogpu" = 1 ]; then
  # Dry runs, in a copy of the checkout (no job touches this checkout's results/ or logs).
  work=$dir/repo
  mkdir -p "$work"
  if git -C "$repo" rev-parse >/dev/null 2>&1; then
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work" 2>/dev/null)
  else
    tar -C "$repo" --exclude=./build --exclude='./*/build' --exclude='./*/bin' --exclude=./.git -cf - . | tar -C "$work" -xf -
  fi
  mkdir -p "$work/slurm/logs"
  export CW_SLURM_DRY_RUN=1
else
  work=$repo
fi
read -r -a assignments <<<"$(cd "$work" && bash common/scripts/assignments.sh)"
nconfigs=$(sed -e 's/#.*//' "$work/vecmax/sweep_configs.txt" 2>/dev/null | awk 'NF' | wc -l)
args=()
[ "${CW_CLUSTER_SWEEP_ARRAY:-0}" = 1 ] && args+=(--sweep-array)
# Two nodes: the sweep's array and its gather alone, which is what spreads over nodes.
[ "$nnodes" = 2 ] && args=(--no-plots vecmax_sweep) want_profile=0 assignments=()
sweep_array=0
[ "${CW_CLUSTER_SWEEP_ARRAY:-0}" = 1 ] || [ "$nnodes" = 2 ] && sweep_array=1
profile_note="not submitted (CW_CLUSTER_PROFILE=1 submits it)"
if [ "$want_profile" = 1 ]; then
  if [ "$nogpu" = 1 ] || command -v ncu >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/ncu ]; then
    args+=(--profile); profile_note="submitted"
  else
    profile_note="not submitted: no ncu here"
  fi
fi
if [ "$nogpu" = 1 ]; then gnuplot_here=dry
elif command -v gnuplot >/dev/null 2>&1; then gnuplot_here=yes
else gnuplot_here=no; fi
rec "submit: CUDA_MODULE= slurm/submit_all.sh ${args[*]} in $work (profile job: $profile_note; gnuplot: $gnuplot_here)"
touch -d "@$((start_epoch - 1))" "$dir/start.stamp"
# The jobs' runs go into <assignment>/runs/<gpu>/, named by the GPU their CSVs name: expected here
# from nvidia-smi's name, slugged as the jobs' staging does (common/scripts/gpu_folder.sh). The
# committed reference, */results/, must not change.
gpu_dir=runs/none
if [ "$nogpu" != 1 ]; then
  printf 'device\n%s\n' "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)" >"$dir/gpu-name.csv"
  gpu_dir=$(bash "$work/common/scripts/gpu_folder.sh" "$dir/gpu-name.csv")
  rec "the runs' folder for this GPU: <assignment>/$gpu_dir/"
fi
ref_sums() { (cd "$work" && find ./*/results -type f -exec md5sum {} + 2>/dev/null | sort); }
ref_before=$(ref_sums)
# OUT (the GPU session's output folder) stays out of the jobs' environment.
(cd "$work" && env -u OUT CUDA_MODULE= PLOTS_PARTITION=gpu timeout 60 bash slurm/submit_all.sh "${args[@]}") >"$dir/log/submit_all.out" 2>&1
submit_status=$?
if [ "$submit_status" -ne 0 ]; then
  fail "submit_all.sh exited $submit_status: $(tail -n 3 "$dir/log/submit_all.out" | tr '\n' ' ')"
  exit 1
fi
declare -A id_of=()
while read -r name id _; do
  [[ "$id" =~ ^[0-9]+$ ]] && id_of[$name]=$id
done <"$dir/log/submit_all.out"
pass "submit_all.sh submitted ${#id_of[@]} jobs: $(for n in "${!id_of[@]}"; do echo "$n=${id_of[$n]}"; done | sort -t= -k2n | tr '\n' ' ')"

# --- wait ---------------------------------------------------------------------------------
t_submit=$SECONDS
if wait_jobs $((t_start + limit - 45)); then
  pass "every job finished, $((SECONDS - t_submit)) s after submission"
else
  fail "jobs still pending or running after $((SECONDS - t_submit)) s (CW_CLUSTER_TIMEOUT=$limit): $(timeout 10 squeue -h -o '%i %j %T' 2>/dev/null | tr '\n' ';')"
  rec "the remaining jobs are cancelled; their runs are kept under <assignment>/build/runs/"
fi

# --- the jobs' final states ---------------------------------------------------------------
mapfile -t records < <(timeout 20 scontrol -o show job 2>/dev/null | grep '^JobId=')
rec "jobs, by start time (id name state exit start end run time):"
while IFS= read -r line; do rec "$line"; done < <(
  for j in "${records[@]}"; do
    id=$(field ArrayJobId "$j")
    if [ -n "$id" ]; then id=${id}_$(field ArrayTaskId "$j"); else id=$(field JobId "$j"); fi
    printf '  %-8s %-20s %-10s %-5s %s %s %s\n' "$id" "$(field JobName "$j")" \
      "$(field JobState "$j")" "$(field ExitCode "$j")" "$(field StartTime "$j")" "$(field EndTime "$j")" "$(field RunTime "$j")"
  done | sort -k5,5 -k1,1V)
state_of() {  # ID: "STATE EXIT" of a job that is not an array
  local j; j=$(printf '%s\n' "${records[@]}" | grep -E "^JobId=$1 " | head -n 1)
  echo "$(field JobState "$j") $(field ExitCode "$j")"
}
expect() {  # NAME "STATE EXIT"
  local id=${id_of[$1]:-} got
  if [ -z "$id" ]; then fail "$1: not submitted"; return; fi
  got=$(state_of "$id")
  check "$1 ($id): $got (expected $2)" test "$got" = "$2"
}
for a in "${assignments[@]}"; do expect "$a" "COMPLETED 0:0"; done
# Each assignment's run in its runs/<gpu>/ folder: the log's last line names it, CSVs of this run there.
if [ "$nogpu" = 0 ]; then
  for a in "${assignments[@]}"; do
    log=$work/slurm/logs/$a-${id_of[$a]:-none}.out
    new=$(find "$work/$a/$gpu_dir" -maxdepth 1 -name '*.csv' -newer "$dir/start.stamp" 2>/dev/null | wc -l)
    check "$a: $a/$gpu_dir/ has $new CSVs of this run, and the log says '$(grep -m1 -o "done: $a/runs/[^ ]*/ updated:" "$log" 2>/dev/null)' (expected done: $a/$gpu_dir/ updated:)" \
      eval "[ '$new' -gt 0 ] && grep -q 'done: $a/$gpu_dir/ updated: ' '$log'"
  done
  if [[ " ${args[*]} " == *" --profile "* ]]; then
    for a in "${assignments[@]}"; do
      check "$a/$gpu_dir/profile.csv written by this run's profile job" test "$work/$a/$gpu_dir/profile.csv" -nt "$dir/start.stamp"
    done
  fi
fi
# Native code for the node's GPU in every assignment job (the default build adds it).
if [ "$nogpu" = 0 ]; then
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. \r')
  for a in "${assignments[@]}"; do
    log=$work/slurm/logs/$a-${id_of[$a]:-none}.out
    arch=$(grep -m1 '^arch: ' "$log" 2>/dev/null)
    code=$(grep -m1 -o 'kernels: [^;]*$' "$log" 2>/dev/null)
    check "$a log: '$arch'; '$code' (expected sm_$cc built, native)" \
      bash -c '[[ "$1" == *" sm_$3 "* || "$1" == *" sm_$3 +"* ]] && [ "$2" = "kernels: sm_$3 code, native" ]' _ "$arch" "$code" "$cc"
  done
fi
if [ "$sweep_array" != 1 ]; then
  rec "vecmax's sweep ran inside the vecmax job (CW_CLUSTER_SWEEP_ARRAY=1: as the job array)"
elif [ -n "${id_of[vecmax_sweep]:-}" ]; then
  arr=${id_of[vecmax_sweep]}
  tasks=$(printf '%s\n' "${records[@]}" | grep -E "(^| )ArrayJobId=$arr( |$)")
  ntasks=$(grep -cE ' ArrayTaskId=[0-9]+( |$)' <<<"$tasks")
  nok=$(grep -E ' ArrayTaskId=[0-9]+( |$)' <<<"$tasks" | grep ' JobState=COMPLETED ' | grep -c ' ExitCode=0:0 ')
  check "vecmax_sweep ($arr): $nok of $ntasks tasks COMPLETED 0:0 (expected $nconfigs of $nconfigs)" \
    test "$ntasks $nok" = "$nconfigs $nconfigs"
else
  fail "vecmax_sweep: not submitted"
fi
[ "$sweep_array" = 1 ] && expect vecmax_gather "COMPLETED 0:0"
[[ " ${args[*]} " == *" --profile "* ]] && expect profile "COMPLETED 0:0"
if [ "$nnodes" = 2 ]; then
  rec "(two nodes: no plots job; --no-plots vecmax_sweep)"
elif [ "$gnuplot_here" = no ]; then
  expect plots "FAILED 2:0"
  plots_log=$work/slurm/logs/plots-${id_of[plots]:-none}.out
  check "plots log says why: $(grep -m1 -o 'gnuplot is not installed[^:]*' "$plots_log" 2>/dev/null)" \
    grep -q 'gnuplot is not installed' "$plots_log"
else
  expect plots "COMPLETED 0:0"
fi

# --- two nodes: where each array task ran --------------------------------------------------
if [ "$nnodes" = 2 ] && [ -n "${id_of[vecmax_sweep]:-}" ]; then
  arr=${id_of[vecmax_sweep]} seen="" bad=""
  rec "array tasks, each with the node its log names and the node Slurm gives (BatchHost):"
  for ((i = 0; i < nconfigs; i++)); do
    j=$(printf '%s\n' "${records[@]}" | grep -E "(^| )ArrayJobId=$arr( |$)" | grep -E " ArrayTaskId=$i( |$)" | head -n 1)
    batch=$(field BatchHost "$j")
    line=$(grep -m 1 "array task $i of array job $arr, " "$work/slurm/logs/vecmax_sweep-${arr}_$i.out" 2>/dev/null)
    node=$(sed -n 's/.*array task [0-9]* of array job [0-9]*, name [^ ]* on \([^ ]*\) (host .*/\1/p' <<<"$line")
    rec "  array task $i of array job $arr: $(field JobState "$j") $(field ExitCode "$j") on ${node:-?} (Slurm: ${batch:-?}; $(grep -m 1 -o 'threads=[0-9]* blocks=[0-9]*' "$work/slurm/logs/vecmax_sweep-${arr}_$i.out" 2>/dev/null))"
    [ -n "$node" ] && [ "$node" = "$batch" ] || bad="$bad task $i: log '${node:-none}', Slurm '$batch';"
    [[ " $seen " == *" $node "* ]] || seen="$seen $node"
  done
  check "every task's log names the Slurm node that ran it${bad:+:$bad}" test -z "$bad"
  check "both nodes took tasks (nodes:$seen)" eval '[[ " $seen " == *" cw-node1 "* && " $seen " == *" cw-node2 "* ]]'
  gj=$(printf '%s\n' "${records[@]}" | grep -E "^JobId=${id_of[vecmax_gather]:-none} " | head -n 1)
  rec "gather ${id_of[vecmax_gather]:-?} on $(field BatchHost "$gj"): $(grep -m1 -o 'combined [0-9]* rows from [0-9]* tasks' "$work/slurm/logs/vecmax_gather-${id_of[vecmax_gather]:-none}.out" 2>/dev/null)"
fi

# --- the sweep's combined CSV, and the reference -------------------------------------------
if [ "$nogpu" != 1 ]; then
  csv=$work/vecmax/$gpu_dir/sweep.csv
  if [ ! -f "$csv" ]; then fail "$csv missing"
  else
    summary=$(awk -F, 'NR == 1 { for (c = 1; c <= NF; c++) { if ($c == "result_ok") ok = c; if ($c == "device") dev = c }; next }
      { rows++; if (ok && $ok == 1) good++; if (dev) d = $dev }
      END { printf "%d %d %s", rows, good, (ok ? d : "NO-result_ok-COLUMN") }' "$csv")
    read -r rows good device <<<"$summary"
    check "vecmax/$gpu_dir/sweep.csv (the gather's or the vecmax job's): $rows rows, $good with result_ok=1 (expected $nconfigs, all), device $device" \
      test "$rows $good" = "$nconfigs $nconfigs"
    check "vecmax/$gpu_dir/sweep.csv was written by this run" test "$csv" -nt "$dir/start.stamp"
    gl=$work/slurm/logs/vecmax_gather-${id_of[vecmax_gather]:-none}.out
    [ "$sweep_array" = 1 ] && check "gather log: $(grep -m1 -o 'combined [0-9]* rows from [0-9]* tasks' "$gl" 2>/dev/null)" \
      grep -q "combined $nconfigs rows from $nconfigs tasks into vecmax/$gpu_dir/sweep.csv" "$gl"
  fi
fi
check "no committed */results/ file changed ($(grep -c . <<<"$ref_before") files)" test "$(ref_sums)" = "$ref_before"
ns=$(cw_node_state)
check "the node never drained (state now $ns)" eval "[[ '$ns' != *DRAIN* && '$ns' != DOWN* ]] && ! grep -qiE 'state to DRAIN|set to DRAIN' '$dir/log/slurmctld.log'"
exit 0
