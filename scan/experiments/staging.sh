# The shared start of mid.sh, start.sh, small.sh and gap.sh (sourced, with the caller's "$@": the
# GPU's folder): $OUT made absolute, the working directory scan/, $out the output folder (made:
# experiments/results/GPU/, or $OUT when set), $tmp a scratch folder removed on exit
# (files are written whole or not at all: each goes to $tmp first), every program in $programs
# checked (one line and exit 2 when one is not built), with_process to assemble a CSV, and
# ws_shape to name the ws kernel's variants as the program's policy has them.
set -euo pipefail
script=$(basename "$0")
[ -n "${OUT:-}" ] && { mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd); }  # absolute before the cd below
cd "$(dirname "$0")/.."
[ -n "${OUT:-}${1:-}" ] || { echo "usage: $script GPU (writes experiments/results/GPU/), or OUT=DIR $script" >&2; exit 2; }
out=${OUT:-experiments/results/$1}
for b in $programs; do
  [ -x "$b" ] || { echo "$script: $b is not built (make experiments)" >&2; exit 2; }
done
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scan-${script%.sh}.XXXXXX")
# On a failure, the last lines of the newest program log (a WRONG line, an error) before it goes.
on_exit() {
  local rc=$? last
  if [ "$rc" != 0 ]; then
    last=$(ls -t "$tmp"/*.log 2>/dev/null | head -n 1)
    [ -z "$last" ] || { echo "$script: stopped (exit $rc); the last lines of ${last##*/}:" >&2; tail -n 5 "$last" >&2; }
  fi
  rm -rf "$tmp"
}
trap on_exit EXIT
# with_process NAME P1 FILE1 P2 FILE2 ...: $tmp/NAME, the first file's header with a `process`
# column in front, then every file's rows with its process number in front.
with_process() {
  local name=$1 first=1
  shift
  while [ $# -gt 0 ]; do
    [ $first = 0 ] || { echo "process,$(head -n 1 "$2")" >"$tmp/$name"; first=0; }
    tail -n +2 "$2" | sed "s/^/$1,/" >>"$tmp/$name"
    shift 2
  done
}
# ws_shape [SCHED]: scan_policy.h's LookaheadPolicy as experiments/ws_scan.cu names a shape
# (ws_lab::shape_name: _t<tile>_s<stages>_r<reduce warps>_w<scan warps>_st<store>_d<sched>
# _l<look-ahead warps>), so that "ws$(ws_shape)" is the variant the program's lookahead runs; SCHED
# in place of the policy's kSched (ws_scan.cu's variants with each CTA's first tiles fixed: 1).
# One line and exit 2 when the header or one of its constants is not found.
ws_shape() {
  [ -f scan_policy.h ] || { echo "$script: scan_policy.h not found in $PWD" >&2; exit 2; }
  awk -v script="$script" -v sched="${1:-}" '
    /^struct LookaheadPolicy/ { on = 1 } on && /^};/ { on = 0 }
    on && $1 == "static" && $2 == "constexpr" && $3 == "int" && $5 == "=" { v[$4] = $6 + 0 }
    END {
      n = split("kTile kStages kReduceWarps kScanWarps kStore kSched kLookaheadWarps", k, " ")
      for (i = 1; i <= n; i++)
        if (!(k[i] in v)) { printf "%s: no %s in scan_policy.h'"'"'s LookaheadPolicy\n", script, k[i] > "/dev/stderr"; exit 2 }
      printf "_t%d_s%d_r%d_w%d_st%d_d%d_l%d\n", v["kTile"], v["kStages"], v["kReduceWarps"], v["kScanWarps"],
        v["kStore"], sched == "" ? v["kSched"] : sched, v["kLookaheadWarps"]
    }' scan_policy.h
}
