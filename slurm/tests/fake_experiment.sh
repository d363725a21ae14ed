#!/usr/bin/env bash
# The experiments of slurm/tests/fake_assignment.sh's stand-in (fake_experiment.sh NAME [CSV]):
# writes a partial CSV (CSV: default table.csv; the profile's is profile.csv) into
# $RESULTS_DIR (the staging folder), then, by FAKE_EXPERIMENT:
#   ok     completes the CSV, exit 0
#   fail   exits 3 with the message a program prints without a usable GPU
#   sleep  (default) touches $FAKE_EXPERIMENT_STARTED and sleeps 300 s: to be interrupted
name=${1:-fake} csv=${2:-table.csv}
: "${RESULTS_DIR:?RESULTS_DIR must name the staging folder}"
printf 'assignment,n,ms\n%s,1,0.125\n' "$name" >"$RESULTS_DIR/$csv"
case ${FAKE_EXPERIMENT:-sleep} in
  ok)
    printf '%s,2,0.25\n' "$name" >>"$RESULTS_DIR/$csv"
    echo "fake experiment: Result = PASS" ;;
  fail)
    echo "$name: no usable CUDA GPU: fake (CUDA error 35, cudaErrorInsufficientDriver) at fake_experiment.sh" >&2
    exit 3 ;;
  *)
    echo "fake experiment: partial CSV written, sleeping"
    [ -z "${FAKE_EXPERIMENT_STARTED:-}" ] || : >"$FAKE_EXPERIMENT_STARTED"
    sleep 300 ;;
esac
