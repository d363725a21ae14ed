#!/usr/bin/env bash
# The report's experiments on the local GPU (make report-experiments, which `make report-run`
# runs in a staging folder). Every CSV goes into $RESULTS_DIR,
# which must not hold them yet (this script appends rows and deletes nothing):
#   sweep.csv   the 30 configurations of sweep_configs.txt, version=report rows, one run per
#               line with the arguments of its "vecmax-args" line (the Slurm job array runs
#               exactly the same command per line)
#   copies.csv  every version at the report's best configuration (1024 x 128), once with
#               pageable and once with pinned (--pinned) host memory
#   bench.csv   single_pass vs cub at N = 40,960,000 and N = 2^28, L2 flushed before every
#               timed run (kernel_ms) and not (kernel_ms_no_flush)
# VECMAX_SKIP_SWEEP=1 leaves the sweep out (slurm/submit_all.sh --sweep-array runs it as a job
# array whose gather job writes sweep.csv), so that no configuration runs twice.
# One progress line per step; a step with a wrong result is reported and the run goes on
# (the script exits 1 at the end); no usable device or a CUDA error (exit 3) stops it.
set -u
: "${RESULTS_DIR:?RESULTS_DIR must name the folder for the CSVs (make report-run sets it to a staging folder)}"
mkdir -p "$RESULTS_DIR" || exit 2
out=$(cd "$RESULTS_DIR" && pwd)
cd "$(dirname "$0")"
BIN=bin/vecmax
CONFIGS=sweep_configs.txt
[ -x "$BIN" ] || { echo "run_report.sh: $BIN is not built (make)" >&2; exit 2; }
for f in sweep.csv copies.csv bench.csv; do
  if [ -e "$out/$f" ]; then
    echo "run_report.sh: $out/$f exists; rows would be appended to it: use an empty folder (make report-run)" >&2
    exit 2
  fi
done
read -r -a sweep_args <<<"$(sed -n 's/^# vecmax-args: *//p' "$CONFIGS")"
mapfile -t configs < <(sed -e 's/#.*//' "$CONFIGS" | awk 'NF == 2 { print $1, $2 }')
[ "${#configs[@]}" -gt 0 ] || { echo "run_report.sh: no configurations in $CONFIGS" >&2; exit 2; }
written="sweep.csv copies.csv bench.csv"
if [ "${VECMAX_SKIP_SWEEP:-0}" = 1 ]; then
  echo "run_report.sh: VECMAX_SKIP_SWEEP=1: the ${#configs[@]} sweep configurations run as the job array, not here"
  configs=() written="copies.csv bench.csv"
fi

total=$(( ${#configs[@]} + 4 ))
step=0 failures=0 start=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_step() {  # LABEL ARGS...: one run of the program, one progress line
  local label=$1; shift
  step=$((step + 1))
  local t0 status summary
  t0=$(date +%s%N)
  "$BIN" "$@" >"$log" 2>&1
  status=$?
  summary=$(grep 'Result = ' "$log" | sed -e 's/^vecmax version=//' -e 's/ vs cub [0-9.]* ms//' \
              -e 's/, cpu=[^,]*, /, /' | tr '\n' ';' | sed 's/;$//; s/;/; /g')
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  printf '[%d/%d] %s: %s (%d.%d s)\n' "$step" "$total" "$label" "${summary:-no result}" $((ms / 1000)) $((ms % 1000 / 100))
  if [ "$status" -ne 0 ]; then
    failures=$((failures + 1))
    echo "  FAILED (exit $status): $BIN $*"
    tail -n 5 "$log" | sed 's/^/  | /'
    if [ "$status" -eq 3 ]; then  # no usable device or a CUDA error: nothing after it can work
      echo "run_report.sh: stopped at step $step (CUDA error or no usable device)" >&2
      exit 3
    fi
  fi
}

for cfg in "${configs[@]}"; do
  read -r t b <<<"$cfg"
  run_step "sweep threads=$t blocks=$b" --threads="$t" --blocks="$b" --csv="$out/sweep.csv" "${sweep_args[@]}"
done
copy_args=(--threads=1024 --blocks=128 --repeat=10 --warmup=2 --cpu-repeat=3 --csv="$out/copies.csv")
run_step "copies pageable" "${copy_args[@]}"
run_step "copies pinned" "${copy_args[@]}" --pinned
# bench.csv (the README's single-pass against CUB table): the two versions it compares.
bench_args=(--only=@bench --repeat=20 --warmup=3 --cpu-repeat=3 --csv="$out/bench.csv")
run_step "bench n=40960000" --n=40960000 "${bench_args[@]}"
run_step "bench n=2^28" --n=2^28 "${bench_args[@]}"

echo "run_report.sh: $step steps in $(( $(date +%s) - start )) s, $failures failed; wrote $written in $out"
[ "$failures" -eq 0 ]
