#!/usr/bin/env bash
# The experiments of slurm/tests/fake_assignment.sh's stand-in (fake_experiment.sh NAME [CSV]):
# writes a partial CSV (CSV: default table.csv; the profile's is profile.csv) into
# $RESULTS_DIR (the staging folder), its `device` column naming the GPU as the assignments'
# CSVs do (FAKE_DEVICE, default "Fake GPU 80GB": staged_run.sh then moves a whole run into
# runs/fake-gpu-80gb/), then, by FAKE_EXPERIMENT:
#   ok     completes the CSV, exit 0
#   fail   exits 3 with the message a program prints without a usable GPU
#   sleep  (default) touches $FAKE_EXPERIMENT_STARTED and sleeps 300 s: to be interrupted
# FAKE_SIZES="MxN,MxN,...": the CSV has m and n columns instead, one row per size (colreduce's
# run.slurm check).
name=${1:-fake} csv=${2:-table.csv} device=${FAKE_DEVICE:-Fake GPU 80GB}
: "${RESULTS_DIR:?RESULTS_DIR must name the staging folder}"
if [ -n "${FAKE_SIZES:-}" ]; then
  { echo "assignment,m,n,ms,device"
    for size in ${FAKE_SIZES//,/ }; do echo "$name,${size%x*},${size#*x},0.5,$device"; done; } >"$RESULTS_DIR/$csv"
else
  printf 'assignment,n,ms,device\n%s,1,0.125,%s\n' "$name" "$device" >"$RESULTS_DIR/$csv"
fi
case ${FAKE_EXPERIMENT:-sleep} in
  ok)
    [ -n "${FAKE_SIZES:-}" ] || printf '%s,2,0.25,%s\n' "$name" "$device" >>"$RESULTS_DIR/$csv"
    echo "fake experiment: Result = PASS" ;;
  fail)
    echo "$name: no usable CUDA GPU: fake (CUDA error 35, cudaErrorInsufficientDriver) at fake_experiment.sh" >&2
    exit 3 ;;
  *)
    echo "fake experiment: partial CSV written, sleeping"
    [ -z "${FAKE_EXPERIMENT_STARTED:-}" ] || : >"$FAKE_EXPERIMENT_STARTED"
    sleep 300 ;;
esac
