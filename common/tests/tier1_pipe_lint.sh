# Tier 1: no shell script of the repository that sets pipefail ends a pipeline in an
# early-exit reader (`| grep -q`, `| grep -m`, `| head`): the producer's SIGPIPE would make
# the check pass or fail by chance (common/py/pipe_lint.py says why). First the checker on a
# fixture with known findings, so that a checker that finds nothing cannot pass the second case.
pl_fix=$CW_TEST_TMP/pipe_fixture.sh
# (The pipefail line is printed, not written out: this file is itself one of the scripts the
# second case checks, and must not turn pipefail on for its fixture's lines.)
printf '%s\n' "set -euo pipefail" >"$pl_fix"
cat >>"$pl_fix" <<'SH'
cuobjdump -lelf x | grep -q sm_52          # 1: flagged
v=$(nvcc --version | head -n 1)            # 2: flagged
grep -q sm_52 <<<"$(cuobjdump -lelf x)"    # fine: captured first
a || b | tail -n 1                         # fine: tail reads everything
n=$(ls | grep -m 1 x)                      # 3: flagged
ls | grep -c x                             # fine: -c reads everything
ldd y | grep -q z  # pipe-ok: the fixture's own exception
SH
printf 'set -u\nls | grep -q x\n' >"$CW_TEST_TMP/no_pipefail.sh"
t_run python3 py/pipe_lint.py "$pl_fix" "$CW_TEST_TMP/no_pipefail.sh"
pl_lines=$(sed -n 's/^[^:]*pipe_fixture\.sh:\([0-9]*\):.*/\1/p' "$T_OUT" | tr '\n' ' ')
[ "$T_STATUS" -eq 1 ] && [ "$pl_lines" = "2 3 6 " ] && [ "$(wc -l <"$T_OUT")" -eq 3 ]
t_verdict "pipe_lint: finds the early-exit readers of a pipefail script, not the captured or excused ones" "$T_OUT"

# The repository's own scripts (tracked files; every *.sh, *.sbatch and .ci/run).
pl_root=$(cd .. && pwd)
if pl_files=$(git -C "$pl_root" ls-files '*.sh' '*.sbatch' .ci/run 2>/dev/null) && [ -n "$pl_files" ]; then
  t_run bash -c 'cd "$1" && shift && python3 "$0" "$@"' "$PWD/py/pipe_lint.py" "$pl_root" $pl_files
  [ "$T_STATUS" -eq 0 ]
  t_verdict "pipe_lint: no pipefail script of the repository ends a pipeline in grep -q, grep -m or head" "$T_OUT"
else
  t_skip "pipe_lint: the repository's scripts" "not a git checkout (git ls-files lists nothing)"
fi
