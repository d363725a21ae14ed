# Tier 1 of slurm/, after cli_test.sh (sourced by common/tests/run_tests.sh from slurm/): the
# sweep array of `slurm/submit_all.sh vecmax_sweep` on a two-node Slurm started on this one
# machine (two slurmd, `slurmd -N cw-node1` and `-N cw-node2`, each with its own port, spool
# folder and log, one GPU-less gpu:1 each: slurm/tests/cluster.sh), sharing the repository's
# file system as a cluster's nodes do. Checked: every array task COMPLETED 0:0, its log's first
# line names the task and the Slurm node it ran on (`array task N of array job J, ... on
# cw-nodeK`), the node Slurm itself gives for that task (scontrol's BatchHost), both nodes
# appearing; the gather, on whichever node, combines the parts the tasks of both nodes wrote,
# every configuration once, in the list's order, into the run folder of the GPU the parts name
# (vecmax/runs/fake-device/sweep.csv: the stand-in's device), not vecmax/results/. The program
# is the stand-in (tests/fake_vecmax.sh, a second's sleep per configuration so that both nodes
# take tasks).
# Needs what the single-node cases need (root, Debian's slurmctld slurmd slurm-client munge);
# without it the case is skipped with the reason. About 20 s.
# shellcheck shell=bash

tn_case="submit_all.sh vecmax_sweep on a two-node Slurm: every array task's log names its Slurm node, both nodes take tasks, the gather combines every part into vecmax/runs/<gpu>/sweep.csv"
tn_here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)   # slurm/
tn_repo=$(cd "$tn_here/.." && pwd)
# shellcheck source=cluster.sh
. "$tn_here/tests/cluster.sh"
tn_missing=$(cw_cluster_missing)
if [ -n "$tn_missing" ]; then
  t_skip "$tn_case" "$tn_missing"
else
  tn_t0=$SECONDS
  # A small copy of the repository: slurm/, common/scripts/, and vecmax as far as the sweep
  # needs it (its sweep list; a Makefile that common/scripts/assignments.sh counts).
  tn_r=$CW_TEST_TMP/two-node-repo
  rm -rf "$tn_r"; mkdir -p "$tn_r/common" "$tn_r/vecmax"
  cp -a "$tn_repo/slurm" "$tn_r/"
  cp -a "$tn_repo/common/scripts" "$tn_r/common/"
  find "$tn_r/slurm/logs" -mindepth 1 ! -name .gitignore -exec rm -rf {} + 2>/dev/null
  printf 'all:\n\t@:\nifeq (0,1)\ninclude ../common/assignment.mk\nendif\n' >"$tn_r/vecmax/Makefile"
  # Six configurations of the list (the report's 30 where vecmax/ is not there yet).
  if [ -f "$tn_repo/vecmax/sweep_configs.txt" ]; then sed -e 's/#.*//' "$tn_repo/vecmax/sweep_configs.txt" | awk 'NF' | head -n 6
  else printf '%s\n' "32 4" "64 4" "128 4" "256 4" "512 4" "1024 4"; fi >"$tn_r/vecmax/sweep_configs.txt"
  tn_n=$(wc -l <"$tn_r/vecmax/sweep_configs.txt")
  # The reference the gather must not touch, and where it must write.
  mkdir -p "$tn_r/vecmax/results"
  printf 'assignment,device\nvecmax,committed GPU\n' >"$tn_r/vecmax/results/sweep.csv"
  tn_csv=$tn_r/vecmax/runs/fake-device/sweep.csv
  tn_dir=$(mktemp -d /tmp/cwslurm2.XXXXXX)
  tn_prev_trap=$(trap -p EXIT)
  tn_prev_cmd=$(sed -n "s/^trap -- '\(.*\)' EXIT$/\1/p" <<<"$tn_prev_trap")
  trap 'cw_cluster_stop; rm -rf "$tn_dir"; '"$tn_prev_cmd" EXIT
  trap 'exit 130' INT TERM
  tn_bad=""
  if ! cw_cluster_start "$tn_dir" 2; then
    tn_bad="the two-node test cluster did not start: $CW_CLUSTER_ERROR"
  else
    # From another directory, as a user would; the jobs find the repository themselves.
    mkdir -p "$CW_TEST_TMP/two-node-elsewhere"
    t_run sh -c "cd '$CW_TEST_TMP/two-node-elsewhere' && VECMAX_BIN='$tn_here/tests/fake_vecmax.sh' FAKE_VECMAX_SLEEP=1 CW_GPU_CHECK=0 CUDA_MODULE= bash '$tn_r/slurm/submit_all.sh' --no-plots vecmax_sweep"
    tn_arr=$(awk '$1 == "vecmax_sweep" { print $2 }' "$T_OUT")
    tn_gather=$(awk '$1 == "vecmax_gather" { print $2 }' "$T_OUT")
    if [ "$T_STATUS" -ne 0 ] || ! [[ "$tn_arr" =~ ^[0-9]+$ && "$tn_gather" =~ ^[0-9]+$ ]]; then
      tn_bad="submit_all.sh exited $T_STATUS: $(head -n 3 "$T_ERR" "$T_OUT" | tr '\n' ' ')"
    else
      cw_wait_for 120 eval '[ -z "$(timeout 5 squeue -h -o %i 2>/dev/null)" ]' || tn_bad="jobs still active after 120 s: $(timeout 5 squeue -h -o '%i %T %r' | tr '\n' ';');"
      tn_logs=$tn_r/slurm/logs
      tn_nodes=""
      for ((tn_i = 0; tn_i < tn_n; tn_i++)); do
        tn_rec=$(timeout 10 scontrol -o show job "${tn_arr}_$tn_i" 2>/dev/null | head -n 1)
        tn_state=$(sed -n 's/.* JobState=\([^ ]*\).*/\1/p' <<<"$tn_rec") tn_exit=$(sed -n 's/.* ExitCode=\([^ ]*\).*/\1/p' <<<"$tn_rec")
        tn_host=$(sed -n 's/.* BatchHost=\([^ ]*\).*/\1/p' <<<"$tn_rec")
        tn_log=$tn_logs/vecmax_sweep-${tn_arr}_$tn_i.out
        tn_line=$(grep -m 1 "array task $tn_i of array job $tn_arr, " "$tn_log" 2>/dev/null)
        tn_node=$(sed -n 's/.*array task [0-9]* of array job [0-9]*, name [^ ]* on \([^ ]*\) (host .*/\1/p' <<<"$tn_line")
        echo "   task $tn_i: $tn_state $tn_exit, Slurm's node ${tn_host:-?}; log: ${tn_line#*] }"
        [ "$tn_state $tn_exit" = "COMPLETED 0:0" ] || tn_bad="$tn_bad task $tn_i: $tn_state $tn_exit;"
        if [ -z "$tn_node" ]; then tn_bad="$tn_bad task $tn_i: no 'array task $tn_i of array job $tn_arr, ... on <node>' line in its log;"
        elif [ "$tn_node" != "$tn_host" ]; then tn_bad="$tn_bad task $tn_i: its log says $tn_node, Slurm says $tn_host;"
        fi
        [[ " $tn_nodes " == *" $tn_node "* ]] || tn_nodes="$tn_nodes $tn_node"
      done
      for tn_node in $CW_CLUSTER_NODE_NAMES; do
        [[ " $tn_nodes " == *" $tn_node "* ]] || tn_bad="$tn_bad no task ran on $tn_node (nodes:$tn_nodes);"
      done
      tn_grec=$(timeout 10 scontrol -o show job "$tn_gather" 2>/dev/null | head -n 1)
      tn_got=$(tail -n +2 "$tn_csv" 2>/dev/null | cut -d, -f5,6)
      tn_want=$(tr ' ' , <"$tn_r/vecmax/sweep_configs.txt")
      if [[ "$tn_grec" != *" JobState=COMPLETED "* ]]; then tn_bad="$tn_bad gather $tn_gather: $(sed -n 's/.* JobState=\([^ ]*\).*/\1/p' <<<"$tn_grec");"
      elif [ "$tn_got" != "$tn_want" ] || [ "$(grep -c '^assignment,' "$tn_csv")" != 1 ]; then tn_bad="$tn_bad the combined CSV's configurations are not the list's: $(tr '\n' ' ' <<<"$tn_got");"
      elif ! grep -q "combined $tn_n rows from $tn_n tasks into vecmax/runs/fake-device/sweep.csv" "$tn_logs/vecmax_gather-$tn_gather.out"; then tn_bad="$tn_bad the gather's log does not say it combined $tn_n rows into vecmax/runs/fake-device/sweep.csv;"
      elif [ "$(cat "$tn_r/vecmax/results/sweep.csv")" != "$(printf 'assignment,device\nvecmax,committed GPU')" ]; then tn_bad="$tn_bad vecmax/results/sweep.csv changed;"
      else echo "   gather $tn_gather on $(sed -n 's/.* BatchHost=\([^ ]*\).*/\1/p' <<<"$tn_grec"): $(grep -o "combined $tn_n rows from $tn_n tasks" "$tn_logs/vecmax_gather-$tn_gather.out")"
      fi
      tn_state=$(cw_node_state)
      [ "$tn_state" = IDLE ] || tn_bad="$tn_bad a node is $tn_state afterwards;"
    fi
  fi
  cw_cluster_stop || tn_bad="$tn_bad daemons still running:$CW_CLUSTER_LEFT;"
  rm -rf "$tn_dir"
  if [ -n "$tn_prev_trap" ]; then eval "$tn_prev_trap"; else trap - EXIT; fi
  trap - INT TERM
  if [ -z "$tn_bad" ]; then t_pass "$tn_case ($tn_n tasks on$tn_nodes; $((SECONDS - tn_t0)) s)"
  else t_fail "$tn_case" "$(cut -c1-600 <<<"$tn_bad")"; fi
fi
