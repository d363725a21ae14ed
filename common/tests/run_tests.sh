#!/usr/bin/env bash
# Runs one folder's tests: run_tests.sh SUITE "UNIT_TEST_BINARY"   (from the folder itself)
#   tier 1 (CW_TIERS has 1): GoogleTest unit tests (skipped where GoogleTest is not installed)
#                            and tests/cli_test.sh (options, bad input, exit statuses)
#   tier 2 (CW_TIERS has 2): tests/gpu_test.sh (every version at awkward sizes, sanitizers),
#                            each case skipped with the reason where there is no GPU
# Results are appended to $CW_TEST_RESULTS when the top-level Makefile sets it; run alone,
# the folder's own summary line closes the output.
set -u
CW_SUITE=$1 unit_bin=${2:-}
CW_COMMON_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)  # common/ (this script is in common/tests/)
CW_TIERS=${CW_TIERS:-1 2}
own_results=0
if [ -z "${CW_TEST_RESULTS:-}" ]; then
  CW_TEST_RESULTS=$(mktemp) own_results=1
fi
CW_TEST_TMP=$(mktemp -d)
export CW_SUITE CW_COMMON_DIR CW_TEST_RESULTS CW_TEST_TMP
trap 'rm -rf "$CW_TEST_TMP"' EXIT
# shellcheck source=testlib.sh
. "$CW_COMMON_DIR/tests/testlib.sh"

case " $CW_TIERS " in *" 1 "*)
  echo "== $CW_SUITE: tier 1 (no GPU needed)"
  if [ -n "$unit_bin" ] && [ -x "$unit_bin" ]; then
    run_gtest "$unit_bin"
  elif ls tests/*_test.cpp >/dev/null 2>&1; then
    t_skip "unit tests (GoogleTest)" "GoogleTest not installed (apt-get install libgtest-dev)"
  fi
  # Every figure renders from the committed results (gnuplot -c plots/F.gp results/X.csv out).
  while read -r fig input; do
    [ -n "$fig" ] || continue
    if ! command -v gnuplot >/dev/null; then t_skip "figure $fig renders" "gnuplot not installed"
    elif [ ! -f "$input" ]; then t_skip "figure $fig renders" "no committed $input yet"
    elif gnuplot -c "plots/$fig.gp" "$input" "$CW_TEST_TMP/$fig.png" >"$CW_TEST_TMP/gp.log" 2>&1 &&
         [ -s "$CW_TEST_TMP/$fig.png" ] && ! grep -qiE 'warning|error' "$CW_TEST_TMP/gp.log"; then
      t_pass "figure $fig renders from $input"
    else
      t_fail "figure $fig renders from $input" "$(head -n 3 "$CW_TEST_TMP/gp.log" | tr '\n' ' ')"
    fi
  done < <(make --no-print-directory -s print-figures 2>/dev/null)
  for script in tests/cli_test.sh tests/tier1_*.sh; do
    [ -f "$script" ] && . "./$script"
  done
  ;;
esac
t_skip_flush
case " $CW_TIERS " in *" 2 "*)
  echo "== $CW_SUITE: tier 2 (GPU)"
  cw_detect_gpu
  [ "$CW_GPU_OK" = 1 ] || echo "   no GPU: every GPU case is skipped ($CW_GPU_REASON)"
  [ -f tests/gpu_test.sh ] && . ./tests/gpu_test.sh
  vary_input_case
  ;;
esac
t_skip_flush

if [ "$own_results" = 1 ]; then
  t_summary "$CW_TEST_RESULTS"; status=$?
  rm -f "$CW_TEST_RESULTS"
  exit $status
fi
! grep -q "^FAIL $CW_SUITE:" "$CW_TEST_RESULTS"
