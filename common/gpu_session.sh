#!/usr/bin/env bash
# Everything a GPU machine is needed for, in one call (for a borrowed GPU node or a
# teaching assistant's check): build for the local GPU, run the GPU tier of the tests, run
# the experiments of the chosen assignments, and pack logs and results.
#   bash common/gpu_session.sh [PHASES] [FOLDERS]
#     PHASES   any of: tests report profile ncu-sample (default: "tests report")
#              tests: make test-gpu per folder; report: make report-run (staged) per folder;
#              profile: make profile per folder; ncu-sample: a small real ncu CSV for the
#              parser's unit test (common/tests/data/ncu_sample.csv)
#     FOLDERS  assignment folders (default: every one that exists)
# Output goes to $OUT (default build/gpu_session): summary.txt, logs.tgz, results.tgz.
set -u
cd "$(dirname "$0")/.."
phases=${1:-tests report}
folders=${2:-$(bash common/assignments.sh)}
OUT=${OUT:-$PWD/build/gpu_session}
logs=$OUT/logs
mkdir -p "$logs"
summary=$OUT/summary.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 ))s; }

nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
note "host: $(hostname), $(nproc) cores; nvcc: $(nvcc --version | tail -n 1)"
note "folders: $folders; phases: $phases"

if ! make -j"$(nproc)" -C common all >"$logs/build-common.log" 2>&1; then note "BUILD FAILED: common"; fi
for f in $folders; do
  if make -j"$(nproc)" -C "$f" all experiments >"$logs/build-$f.log" 2>&1; then
    note "build $f: ok ($(grep -m1 '^arch:' "$logs/build-$f.log"))"
  else
    note "BUILD FAILED: $f"; tail -n 20 "$logs/build-$f.log" | tee -a "$summary"
  fi
done
common/bin/devinfo 2>&1 | tee "$logs/devinfo.txt" | tee -a "$summary"

if [[ " $phases " == *" tests "* ]]; then
  results=$OUT/test-results.txt
  : >"$results"
  for f in common $folders; do
    s=$(date +%s)
    CW_TEST_RESULTS=$results timeout 600 make --no-print-directory -C "$f" test-gpu >"$logs/test-gpu-$f.log" 2>&1
    note "test-gpu $f: $(grep -c "^PASS $f:" "$results") passed, $(grep -c "^FAIL $f:" "$results") failed, $(grep -c "^SKIP $f:" "$results") skipped in $(( $(date +%s) - s ))s"
    grep "^FAIL $f:" "$results" | head -n 20 | tee -a "$summary"
  done
  CW_TEST_RESULTS=$results bash -c ". common/testlib.sh; t_summary $results" | tail -n 1 | tee -a "$summary"
fi

if [[ " $phases " == *" report "* ]]; then
  for f in $folders; do
    s=$(date +%s)
    if timeout 900 make --no-print-directory -C "$f" report-run >"$logs/report-$f.log" 2>&1; then
      note "report-run $f: ok in $(( $(date +%s) - s ))s"
    else
      note "REPORT FAILED: $f (exit $?) after $(( $(date +%s) - s ))s"; tail -n 15 "$logs/report-$f.log" | tee -a "$summary"
    fi
  done
fi

if [[ " $phases " == *" profile "* ]]; then
  for f in $folders; do
    s=$(date +%s)
    if timeout 600 make --no-print-directory -C "$f" profile >"$logs/profile-$f.log" 2>&1; then
      note "profile $f: ok in $(( $(date +%s) - s ))s"
    else
      note "PROFILE FAILED: $f after $(( $(date +%s) - s ))s"; tail -n 15 "$logs/profile-$f.log" | tee -a "$summary"
    fi
  done
fi

if [[ " $phases " == *" ncu-sample "* ]]; then
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  "$ncu" --clock-control none --csv --log-file "$OUT/ncu_sample.csv" \
    --metrics gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
    reduction_versions/bin/reduction_versions --only=1,2 --n=65536 --repeat=1 --warmup=0 >"$logs/ncu-sample.log" 2>&1
  note "ncu-sample: exit $?, $(wc -l <"$OUT/ncu_sample.csv" 2>/dev/null) lines"
fi

tar czf "$OUT/logs.tgz" -C "$OUT" logs
tar czf "$OUT/results.tgz" $(ls -d */results */build/runs 2>/dev/null) 2>/dev/null
note "done in $(elapsed)"
