#!/usr/bin/env bash
# On the login node, after slurm/submit_all.sh: waits until every job of the submission has
# ended (none pending or running in squeue; array tasks included), printing a line whenever
# the count changes, then names each job that did not succeed (scontrol, else sacct) and says
# what to run next (`make plots`).
#
#   slurm/wait.sh [NAME:JOBID...]     default: the last submission (slurm/logs/last-submission.txt)
#
# Exit status: 0 every job succeeded; 1 one did not (it added nothing to runs/<gpu>/); 2 nothing
# to wait for, or Slurm cannot be reached. WAIT_POLL (seconds between looks, default 30).
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo" || exit 2
# shellcheck source=lib.sh
. slurm/lib.sh
jobs=("$@")
if [ ${#jobs[@]} -eq 0 ]; then
  [ -s slurm/logs/last-submission.txt ] || { echo "wait.sh: no job named and no slurm/logs/last-submission.txt (slurm/submit_all.sh writes it)" >&2; exit 2; }
  mapfile -t jobs <slurm/logs/last-submission.txt
fi
ids=$(for j in "${jobs[@]}"; do echo "${j#*:}"; done | paste -sd, -)
command -v squeue >/dev/null 2>&1 || { echo "wait.sh: squeue not found: run this on the cluster's login node" >&2; exit 2; }
poll=${WAIT_POLL:-30}
last=""
while :; do
  if ! out=$(timeout 30 squeue -h -j "$ids" -o '%T' 2>&1); then
    # squeue -j refuses ids it no longer knows once every job is gone from its list
    if grep -q 'Invalid job id' <<<"$out"; then out=""
    else echo "wait.sh: Slurm cannot be reached: $(tr -s ' \n' ' ' <<<"$out" | cut -c1-300)" >&2; exit 2; fi
  fi
  active=$(grep -cE 'PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUED|RESIZING' <<<"$out")
  [ "$active" -eq 0 ] && break
  now="$active job(s) still pending or running ($(sort <<<"$out" | uniq -c | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'))"
  [ "$now" != "$last" ] && cw_log "$now; next look in ${poll}s"
  last=$now
  sleep "$poll"
done
cw_log "every job has ended: ${jobs[*]}"
status=0
cw_report_jobs "${jobs[@]}" || status=1
cw_log "next: make plots (each run's figures and tables from its CSVs, in */runs/<gpu>/figures/ and */runs/<gpu>/tables.md; the reference and READMEs unchanged; needs gnuplot: see slurm/README.md, \"After the jobs: plots\")"
exit "$status"
