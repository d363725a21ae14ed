#!/usr/bin/env bash
# Runs pytest (Debian's python3-pytest) with the first python3 that has it: make test and make
# test-gpu call this, so that their last line is pytest's own summary. pytest-xdist is used
# where installed and CW_TEST_JOBS asks for it (CW_TEST_JOBS=auto: one worker per core).
set -u
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import pytest' 2>/dev/null; then
    jobs=()
    if [ -n "${CW_TEST_JOBS:-}" ] && "$py" -c 'import xdist' 2>/dev/null; then
      jobs=(-n "$CW_TEST_JOBS" --dist loadfile)
    fi
    PYTHONDONTWRITEBYTECODE=1 exec "$py" -m pytest "${jobs[@]}" "$@"
  fi
done
echo "pytest is not installed: apt-get install python3-pytest (the tests run with it)" >&2
exit 2
