#!/usr/bin/env bash
# make test-gpu's first step, at the top and in every folder: a usable CUDA GPU here
# (common/bin/devinfo --check; devinfo built quietly first), or one line saying that nothing
# was tested, and exit 1, before anything else is built: nothing tested is not a pass.
#   gpu_or_stop.sh WHAT        (WHAT: the command the line names, "make test-gpu")
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
what=${1:-make test-gpu}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! make --no-print-directory -s -C "$here/common" bin/devinfo >"$log" 2>&1; then
  echo "$what: nothing was tested: common/bin/devinfo does not build ($(grep -m 1 -i 'error' "$log" || tail -n 1 "$log"))" >&2
  exit 1
fi
if ! "$here/common/bin/devinfo" --check >/dev/null 2>"$log"; then
  echo "$what: nothing was tested: no usable CUDA GPU here ($(grep -v '^$' "$log" | head -n 1)); make test runs the tests that need none" >&2
  exit 1
fi
