#!/usr/bin/env bash
# One version of one program under Nsight Compute, its counters appended to a tidy CSV:
#   ncu_profile.sh --check
#       exit 0 if ncu and a usable GPU are there; else one line and exit 2 (no ncu) or 3 (no GPU)
#   ncu_profile.sh OUT.csv ASSIGNMENT VERSION "M" N "METRICS" PROGRAM [ARGS...]
#       runs `ncu --clock-control none --csv --metrics METRICS PROGRAM ARGS` (clocks left as
#       they are) and appends the tidy rows (common/py/ncu_tidy.py) for VERSION at size (M, N)
#       to OUT.csv. METRICS is ncu's comma list (regex:... allowed). Options for ncu itself
#       (--kernel-name, --launch-count, --print-units ...) may stand before PROGRAM: every
#       argument after METRICS is passed to ncu as given. ncu's raw CSV and the
#       program's own output go to build/profile/ (CW_PROFILE_LOG_DIR), never to results/.
#       Kernels whose name matches CW_NCU_EXCLUDE (a regex; the L2 flush always) are left out
#       of the rows, for a library whose kernel names are not known in advance.
set -u
common=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)  # common/ (this script is in common/scripts/)
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || true)}

check() {
  if [ -z "$ncu" ] || [ ! -x "$ncu" ]; then
    echo "profile: Nsight Compute (ncu) not found: install it or put it on PATH (module load cuda), or set NCU=/path/to/ncu" >&2
    exit 2
  fi
  if [ ! -x "$common/bin/devinfo" ]; then
    echo "profile: common/bin/devinfo is not built (make -C common all)" >&2
    exit 2
  fi
  if ! "$common/bin/devinfo" --check >/dev/null 2>"${TMPDIR:-/tmp}/cw-devinfo.$$"; then
    echo "profile: $(head -n 1 "${TMPDIR:-/tmp}/cw-devinfo.$$")" >&2
    rm -f "${TMPDIR:-/tmp}/cw-devinfo.$$"
    exit 3
  fi
  rm -f "${TMPDIR:-/tmp}/cw-devinfo.$$"
}

if [ "${1:-}" = --check ]; then check; exit 0; fi
[ $# -ge 7 ] || { echo "usage: ncu_profile.sh OUT.csv ASSIGNMENT VERSION M N METRICS PROGRAM [ARGS...]" >&2; exit 2; }
out=$1 assignment=$2 version=$3 m=$4 n=$5 metrics=$6
shift 6
check
dir=${CW_PROFILE_LOG_DIR:-build/profile}
mkdir -p "$dir"
safe=$(printf '%s' "$assignment-$version-$n" | tr -c 'A-Za-z0-9._-' '_')  # a label such as 2:float
raw="$dir/ncu-$safe.csv"
log="$dir/ncu-$safe.log"
ncu_version=$("$ncu" --version | sed -n 's/.*Version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
"$ncu" --clock-control none --csv --log-file "$raw" --metrics "$metrics" "$@" >"$log" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
  echo "profile: $assignment version $version n=$n: ncu or the program exited $status (log: $log)" >&2
  tail -n 5 "$log" >&2
  exit "$status"
fi
python3 "$common/py/ncu_tidy.py" "$raw" "$out" --assignment "$assignment" --version "$version" --m "$m" --n "$n" \
  --device "$device" --ncu-version "$ncu_version" --exclude "l2_flush${CW_NCU_EXCLUDE:+|$CW_NCU_EXCLUDE}" || exit $?
