# A throw-away Slurm cluster (slurmctld + slurmd + munged) under one temporary folder, for the
# tests: one node named after the host, or several nodes on this one machine (one slurmd per
# node, each with its own NodeName, port, spool folder and log: `slurmd -N cw-node1`). Needs root
# (slurmd must be root to launch jobs). Sourced (gpu_cluster.sh), it defines
#   cw_cluster_start DIR [NODES]
#                          writes DIR/etc/slurm.conf, gres.conf, a munge key, starts munged,
#                          slurmctld and NODES slurmd (default 1; NODES > 1: nodes cw-node1 ...
#                          cw-nodeN, each with the machine's CPUs and a gpu:1 of /dev/null, all
#                          in partition gpu), exports SLURM_CONF, waits until every node is idle.
#                          Returns 1 with CW_CLUSTER_ERROR set if anything fails.
#                          CW_CLUSTER_NODE_NAMES: the node names, space-separated.
#   cw_cluster_stop        stops the daemons by the PIDs it started (TERM, then KILL), and any
#                          job step daemon (slurmstepd) they left; safe to call twice.
#   cw_cluster_missing     prints why a cluster cannot be started here (nothing if it can).
# Run as a command (test_cluster.py): `bash cluster.sh DIR [NODES]` starts one and prints
# "ready NODE..." ("missing: WHY" and exit 2 where it cannot be started here, "error: WHY" and
# exit 1 where it did not start), keeps it up until its standard input ends (or SIGTERM), then
# stops it: "stopped PIDS", or "left PIDS" and exit 1.
# The daemons are looked for on PATH, then in ${CW_SLURM_SBIN:-/usr/sbin}.
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

# cw_slurm_conf NAME DIR HOST CTLD_PORT SLURMD_PORT MUNGE_SOCKET "HW" GPUS ["NODE:PORT ..."]: the
# slurm.conf of a test cluster whose files all live under DIR (HW: `slurmd -C`'s CPUs=...
# fields; a caller adds its own lines after it): one node named HOST on SLURMD_PORT, or with
# the last argument one node per NODE:PORT, all on this machine (NodeHostname=HOST, each
# slurmd started with -N NODE; spool folder, PID file and log per node: %n). Used here and by
# slurm/tests/gpu_cluster.sh.
# slurm/pi.sbatch asks for the cores its CPU references use (--cpus-per-task=16, as many as the
# machine of the committed results had): a node with fewer is declared with that many
# (SlurmdParameters=config_overrides: slurmd then takes the configuration as it is, instead of
# draining a node that has less), so that every job script of the repository can be submitted
# as it stands; the jobs' threads then share the cores there are.
CW_CLUSTER_MIN_CPUS=16
cw_hw_cpus() { sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$1"; }
cw_slurm_conf() {
  local name=$1 dir=$2 host=$3 ctld_port=$4 slurmd_port=$5 sock=$6 hw=$7 gpus=$8 nodes=${9:-}
  local per_node="" node_list=$host np overrides=""
  if [ "$(cw_hw_cpus "$hw")" -lt "$CW_CLUSTER_MIN_CPUS" ] 2>/dev/null; then
    hw="CPUs=$CW_CLUSTER_MIN_CPUS Boards=1 SocketsPerBoard=1 CoresPerSocket=$CW_CLUSTER_MIN_CPUS ThreadsPerCore=1 $(grep -o 'RealMemory=[0-9]*' <<<"$hw")"
    overrides="SlurmdParameters=config_overrides"
  fi
  if [ -n "$nodes" ]; then
    per_node=-%n node_list=""
    for np in $nodes; do node_list="$node_list,${np%%:*}"; done
    node_list=${node_list#,}
  fi
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
SlurmdSpoolDir=$dir/spool$per_node
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd$per_node.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd$per_node.log
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
$overrides
EOF
  if [ -z "$nodes" ]; then
    echo "NodeName=$host NodeAddr=127.0.0.1 $hw Gres=gpu:$gpus State=UNKNOWN"
  else
    for np in $nodes; do
      echo "NodeName=${np%%:*} NodeHostname=$host NodeAddr=127.0.0.1 Port=${np##*:} $hw Gres=gpu:$gpus State=UNKNOWN"
    done
  fi
  echo "PartitionName=gpu Nodes=$node_list Default=YES MaxTime=INFINITE State=UP"
}

cw_cluster_start() {
  local dir=$1 nnodes=${2:-1}
  CW_CLUSTER_DIR=$dir CW_CLUSTER_ERROR=""
  mkdir -p "$dir"/{etc,state,spool,log,run,munge,tmp}
  chmod 700 "$dir/munge"
  local host ctld_port slurmd_port hw nodes="" used i port
  host=$(hostname -s)
  ctld_port=$(cw_free_port) slurmd_port=$(cw_free_port)
  while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(cw_free_port); done
  CW_CLUSTER_NODE_NAMES=$host
  if [ "$nnodes" -gt 1 ]; then
    used=" $ctld_port $slurmd_port " CW_CLUSTER_NODE_NAMES=""
    for ((i = 1; i <= nnodes; i++)); do
      port=$(cw_free_port)
      while [[ "$used" == *" $port "* ]]; do port=$(cw_free_port); done
      used="$used$port " nodes="$nodes cw-node$i:$port"
      CW_CLUSTER_NODE_NAMES="$CW_CLUSTER_NODE_NAMES cw-node$i"
    done
    CW_CLUSTER_NODE_NAMES=${CW_CLUSTER_NODE_NAMES# }
  fi
  # The node's real hardware, as slurmd sees it (a node configured with more CPUs or
  # memory than it has is drained at registration).
  hw=$("$(cw_sbin slurmd)" -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* \(CPUs=.*\)$/\1/p' | sed 's/ *$//')
  if [ -z "$hw" ]; then CW_CLUSTER_ERROR="slurmd -C printed no node line"; return 1; fi

  # munge: a fresh key and a private socket, so that nothing of the system's munge is used.
  "$(cw_sbin mungekey)" --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
  chmod 400 "$dir/munge/munge.key"
  local sock=$dir/munge/munge.socket
  cw_slurm_conf cwtest "$dir" "$host" "$ctld_port" "$slurmd_port" "$sock" "$hw" 1 "${nodes# }" >"$dir/etc/slurm.conf"
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
  local slurmd_pids="" node pid
  if [ -z "$nodes" ]; then
    "$(cw_sbin slurmd)" -D -f "$SLURM_CONF" >"$dir/log/slurmd.out" 2>&1 &
    CW_CLUSTER_PIDS="$CW_CLUSTER_PIDS $!" slurmd_pids=$!
  else
    for node in $CW_CLUSTER_NODE_NAMES; do
      "$(cw_sbin slurmd)" -D -N "$node" -f "$SLURM_CONF" >"$dir/log/slurmd-$node.out" 2>&1 &
      CW_CLUSTER_PIDS="$CW_CLUSTER_PIDS $!" slurmd_pids="$slurmd_pids $!"
    done
  fi
  cw_slurmds_alive() { for pid in $slurmd_pids; do kill -0 "$pid" 2>/dev/null || return 1; done; }
  if ! cw_wait_for 30 eval 'cw_node_idle || ! cw_slurmds_alive' || ! cw_node_idle; then
    CW_CLUSTER_ERROR="the node(s) did not become idle: $(timeout 5 scontrol show node 2>&1 | grep -E 'NodeName=|State=|Reason=' | tr -s ' \n' ' ') $(tail -q -n 3 "$dir"/log/slurmd*.log 2>/dev/null | tr '\n' ' ')"
    return 1
  fi
}

# The node's state (one node); with several, IDLE when every node is idle, else the first
# state that is not.
cw_node_state() {
  timeout 5 scontrol show node 2>/dev/null | sed -n 's/^ *State=\([^ ]*\).*/\1/p' |
    awk '{ s[NR] = $1 } END { for (i = 1; i <= NR; i++) if (s[i] != "IDLE") { print s[i]; exit } if (NR) print "IDLE" }'
}
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

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  why=$(cw_cluster_missing)
  [ -z "$why" ] || { echo "missing: $why"; exit 2; }
  trap 'cw_cluster_stop >/dev/null' EXIT
  trap 'exit 143' TERM INT HUP
  cw_cluster_start "$1" "${2:-1}" || { echo "error: $CW_CLUSTER_ERROR"; exit 1; }
  echo "ready $CW_CLUSTER_NODE_NAMES"
  read -r _
  if cw_cluster_stop; then echo "stopped $CW_CLUSTER_STOPPED"; else echo "left$CW_CLUSTER_LEFT"; exit 1; fi
fi
