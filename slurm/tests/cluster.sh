# A throw-away single-node Slurm cluster (slurmctld + slurmd + munged) under one temporary
# folder, for the tests. Sourced; needs root (slurmd must be root to launch jobs).
#
#   cw_cluster_start DIR   writes DIR/etc/slurm.conf, gres.conf, a munge key, starts the three
#                          daemons, exports SLURM_CONF, waits until the node is idle.
#                          Returns 1 with CW_CLUSTER_ERROR set if anything fails.
#   cw_cluster_stop        stops the daemons by the PIDs it started (TERM, then KILL), and any
#                          job step daemon (slurmstepd) they left; safe to call twice.
#   cw_cluster_missing     prints why a cluster cannot be started here (nothing if it can).
# The daemons are looked for on PATH, then in ${CW_SLURM_SBIN:-/usr/sbin}.
#
# Every wait has a time limit, so a stuck daemon cannot hang the caller.
# shellcheck shell=bash disable=SC2034

CW_CLUSTER_PIDS=""
CW_CLUSTER_DIR=""

cw_cluster_missing() {
  local p
  for p in slurmctld slurmd munged sbatch scontrol squeue; do
    if ! command -v "$p" >/dev/null 2>&1 && [ ! -x "${CW_SLURM_SBIN:-/usr/sbin}/$p" ]; then
      echo "$p is not installed (apt-get install slurmctld slurmd slurm-client munge)"
      return
    fi
  done
  if [ "$(id -u)" != 0 ]; then echo "starting slurmd needs root"; return; fi
}

cw_sbin() { command -v "$1" 2>/dev/null || echo "${CW_SLURM_SBIN:-/usr/sbin}/$1"; }

# A free TCP port on localhost (two different ones for slurmctld and slurmd).
cw_free_port() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' && return
  fi
  local port  # no python3 (a bare GPU node): a random port no socket is bound to
  while :; do
    port=$((20000 + RANDOM % 30000))
    grep -qi ":$(printf %04X "$port") " /proc/net/tcp /proc/net/tcp6 2>/dev/null || { echo "$port"; return; }
  done
}

# cw_wait_for SECONDS CMD...: polls CMD every 0.2 s until it succeeds; 1 on timeout.
cw_wait_for() {
  local limit=$1 start=$SECONDS; shift
  until "$@" >/dev/null 2>&1; do
    [ $((SECONDS - start)) -ge "$limit" ] && return 1
    sleep 0.2
  done
}

cw_pid_alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

# cw_slurm_conf NAME DIR HOST CTLD_PORT SLURMD_PORT MUNGE_SOCKET "HW" GPUS: the slurm.conf of a
# one-node test cluster whose files all live under DIR (HW: `slurmd -C`'s CPUs=... fields; a
# caller adds its own lines after it). Used here and by slurm/tests/gpu_cluster.sh.
cw_slurm_conf() {
  local name=$1 dir=$2 host=$3 ctld_port=$4 slurmd_port=$5 sock=$6 hw=$7 gpus=$8
  cat <<EOF
# Generated for slurm/tests: a one-node test cluster, nothing outside $dir.
ClusterName=$name
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
TmpFS=$dir/tmp
# No systemd/cgroup here: with the default cgroup tracking the node drains and jobs are
# reported COMPLETED although their script never ran.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
# Slurm 22.05 reads kill_invalid_depend here (SchedulerParameters=kill_invalid_depend is ignored).
DependencyParameters=kill_invalid_depend
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 $hw Gres=gpu:$gpus State=UNKNOWN
PartitionName=gpu Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

cw_cluster_start() {
  local dir=$1
  CW_CLUSTER_DIR=$dir CW_CLUSTER_ERROR=""
  mkdir -p "$dir"/{etc,state,spool,log,run,munge,tmp}
  chmod 700 "$dir/munge"
  local host ctld_port slurmd_port hw
  host=$(hostname -s)
  ctld_port=$(cw_free_port) slurmd_port=$(cw_free_port)
  while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(cw_free_port); done
  # The node's real hardware, as slurmd sees it (a node configured with more CPUs or
  # memory than it has is drained at registration).
  hw=$("$(cw_sbin slurmd)" -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* \(CPUs=.*\)$/\1/p' | sed 's/ *$//')
  if [ -z "$hw" ]; then CW_CLUSTER_ERROR="slurmd -C printed no node line"; return 1; fi

  # munge: a fresh key and a private socket, so that nothing of the system's munge is used.
  "$(cw_sbin mungekey)" --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
  chmod 400 "$dir/munge/munge.key"
  local sock=$dir/munge/munge.socket
  cw_slurm_conf cwtest "$dir" "$host" "$ctld_port" "$slurmd_port" "$sock" "$hw" 1 >"$dir/etc/slurm.conf"
  # Slurm 22.05 drops a GPU with no device file: /dev/null stands in for one.
  echo "Name=gpu File=/dev/null" >"$dir/etc/gres.conf"
  export SLURM_CONF=$dir/etc/slurm.conf

  "$(cw_sbin munged)" --force --socket="$sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed" >"$dir/log/munged.out" 2>&1
  if ! cw_wait_for 10 test -s "$dir/run/munged.pid"; then
    CW_CLUSTER_ERROR="munged did not start: $(tail -n 2 "$dir/log/munged.out" "$dir/log/munged.log" 2>/dev/null | tr '\n' ' ')"
    return 1
  fi
  CW_CLUSTER_PIDS="$(cat "$dir/run/munged.pid")"

  # Foreground daemons in the background: their PIDs are known at once.
  "$(cw_sbin slurmctld)" -D -i -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
  CW_CLUSTER_PIDS="$CW_CLUSTER_PIDS $!"
  if ! cw_wait_for 20 timeout 5 scontrol ping; then
    CW_CLUSTER_ERROR="slurmctld did not answer: $(tail -n 3 "$dir/log/slurmctld.log" "$dir/log/slurmctld.out" 2>/dev/null | tr '\n' ' ')"
    return 1
  fi
  "$(cw_sbin slurmd)" -D -f "$SLURM_CONF" >"$dir/log/slurmd.out" 2>&1 &
  CW_CLUSTER_PIDS="$CW_CLUSTER_PIDS $!"
  local slurmd_pid=$!
  if ! cw_wait_for 30 eval 'cw_node_idle || ! kill -0 '"$slurmd_pid" || ! cw_node_idle; then
    CW_CLUSTER_ERROR="the node did not become idle: $(timeout 5 scontrol show node 2>&1 | grep -E 'State=|Reason=' | tr -s ' \n' ' ') $(tail -n 3 "$dir/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
    return 1
  fi
}

cw_node_state() { timeout 5 scontrol show node 2>/dev/null | sed -n 's/^ *State=\([^ ]*\).*/\1/p' | head -n 1; }
cw_node_idle() { [ "$(cw_node_state)" = IDLE ]; }

cw_cluster_stop() {
  local pid stepd
  [ -z "$CW_CLUSTER_PIDS" ] && return 0
  # Job step daemons started by our slurmd (its children): stopped with it.
  for pid in $CW_CLUSTER_PIDS; do
    for stepd in $(pgrep -P "$pid" 2>/dev/null); do CW_CLUSTER_PIDS="$CW_CLUSTER_PIDS $stepd"; done
  done
  for pid in $CW_CLUSTER_PIDS; do cw_pid_alive "$pid" && kill -TERM "$pid" 2>/dev/null; done
  for pid in $CW_CLUSTER_PIDS; do
    cw_wait_for 10 eval "! kill -0 $pid" || kill -KILL "$pid" 2>/dev/null
  done
  for pid in $CW_CLUSTER_PIDS; do wait "$pid" 2>/dev/null; done
  CW_CLUSTER_LEFT=""
  for pid in $CW_CLUSTER_PIDS; do cw_pid_alive "$pid" && CW_CLUSTER_LEFT="$CW_CLUSTER_LEFT $pid"; done
  CW_CLUSTER_STOPPED=$CW_CLUSTER_PIDS
  CW_CLUSTER_PIDS=""
  [ -z "$CW_CLUSTER_LEFT" ]
}
