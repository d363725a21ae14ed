#!/usr/bin/env bash
# Runs pytest (Debian's python3-pytest, or any python3 with pytest) with the first python3 that
# has it: make test and make test-gpu call this, so that their last line is pytest's own summary.
# The tests run on every core (pytest-xdist's -n auto, a module's tests in one worker: --dist
# loadfile) where pytest-xdist is installed (python3-pytest-xdist) and no GPU is usable here
# (common/bin/devinfo --check): GPU cases time the GPU and run one at a time. CW_TEST_JOBS=N
# sets the number of workers (auto: one per core; 1: none, one test at a time).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
jobs_wanted() {
  if [ -n "${CW_TEST_JOBS:-}" ]; then echo "$CW_TEST_JOBS"; return; fi
  if [ -x "$here/common/bin/devinfo" ] && "$here/common/bin/devinfo" --check >/dev/null 2>&1; then echo 1; return; fi
  echo auto
}
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import pytest' 2>/dev/null; then
    jobs=() n=$(jobs_wanted)
    if [ "$n" != 1 ] && [ "$n" != 0 ] && "$py" -c 'import xdist' 2>/dev/null; then
      jobs=(-n "$n" --dist loadfile)
    fi
    PYTHONDONTWRITEBYTECODE=1 exec "$py" -m pytest "${jobs[@]}" "$@"
  fi
done
echo "pytest is not installed: apt-get install python3-pytest python3-pytest-xdist (the tests run with it)" >&2
exit 2
