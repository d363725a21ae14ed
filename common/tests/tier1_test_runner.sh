# Tier 1 of common/ (sourced by run_tests.sh from common/): the test runner's own output.
#   - consecutive skipped cases with one reason print one line (the group's count, its first and
#     last case, the reason), the results file keeps every case, and the summary groups by reason;
#   - `make test-gpu` at the top without a usable GPU exits non-zero with one line saying that
#     nothing was tested and why (`make test` stays green: its GPU cases are skipped).
# shellcheck shell=bash

tr_dir=$CW_TEST_TMP/runner
rm -rf "$tr_dir"; mkdir -p "$tr_dir/tmp"
(
  export CW_SUITE=demo CW_TEST_RESULTS=$tr_dir/results.txt CW_TEST_TMP=$tr_dir/tmp
  : >"$CW_TEST_RESULTS"
  # shellcheck source=testlib.sh
  . "$CW_COMMON_DIR/tests/testlib.sh"
  t_pass "first"
  for n in 1 31 32 33; do t_skip "gpu case n=$n" "no usable CUDA device: a long reason"; done
  ( t_skip "gpu case in a subshell" "no usable CUDA device: a long reason" )
  t_skip "another" "gnuplot not installed"
  t_pass "last"
  t_skip "trailing" "no usable CUDA device: a long reason"
  t_summary "$CW_TEST_RESULTS"
) >"$tr_dir/console.txt" 2>&1
tr_want='PASS demo: first
SKIP demo: 5 cases (gpu case n=1 ... gpu case in a subshell) -- no usable CUDA device: a long reason
SKIP demo: another -- gnuplot not installed
PASS demo: last
SKIP demo: trailing -- no usable CUDA device: a long reason
skipped cases, by reason:
      1 gnuplot not installed
      6 no usable CUDA device: a long reason
2 passed, 0 failed, 7 skipped'
if [ "$(tr -s ' ' <"$tr_dir/console.txt")" = "$(tr -s ' ' <<<"$tr_want")" ] && [ "$(grep -c '^SKIP ' "$tr_dir/results.txt")" = 7 ]; then
  t_pass "test output: one line per group of skipped cases with one reason, every case in the results file, the summary by reason"
else
  t_fail "test output: one line per group of skipped cases with one reason, every case in the results file, the summary by reason" \
    "console: $(tr '\n' '|' <"$tr_dir/console.txt"); results: $(grep -c '^SKIP ' "$tr_dir/results.txt") SKIP lines"
fi

tr_case="make test-gpu without a usable GPU: exit non-zero, one line saying nothing was tested and why"
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then t_skip "$tr_case" "a GPU is present"
elif [ ! -x bin/devinfo ]; then t_skip "$tr_case" "common/bin/devinfo is not built"
else
  # (make all first finds everything built: make test built it)
  CW_CASE_TIMEOUT=600 t_run make --no-print-directory -s -C .. test-gpu
  # (make adds its own "make: *** [Makefile:N: test-gpu] Error 1" line: not counted)
  if [ "$T_STATUS" -ne 0 ] && [ "$(grep -vc '^make.*: \*\*\* ' "$T_ERR")" -eq 1 ] &&
     grep -q '^make test-gpu: nothing was tested: no usable CUDA GPU here (.*CUDA error [0-9]*' "$T_ERR" &&
     ! grep -q '^SKIP\|passed, ' "$T_OUT"; then
    t_pass "$tr_case"
  else t_fail "$tr_case" "exit $T_STATUS; stderr: $(head -c 300 "$T_ERR")"; t_show_failure; fi
fi

# devinfo --help closes with devinfo's own exit statuses, not the assignments' ("all versions passed").
if [ -x bin/devinfo ]; then
  t_run bin/devinfo --help
  if [ "$T_STATUS" -eq 0 ] && tail -n 2 "$T_OUT" | grep -q '^Exit status: 0 the device is usable' && ! grep -q 'versions passed' "$T_OUT"; then
    t_pass "devinfo --help ends with devinfo's own exit statuses"
  else t_fail "devinfo --help ends with devinfo's own exit statuses" "$(tail -n 2 "$T_OUT" | tr '\n' ' ')"; fi
else t_skip "devinfo --help ends with devinfo's own exit statuses" "common/bin/devinfo is not built"; fi
