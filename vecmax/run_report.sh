#!/usr/bin/env bash
# make report-run: the report's experiments on the local GPU (about a minute on an H100).
#   results/sweep.csv   the 30 configurations of sweep_configs.txt, version=report rows, one
#                       run per line with the arguments of its "vecmax-args" line (the Slurm
#                       job array runs exactly the same command per line)
#   results/copies.csv  every version at the report's best configuration (1024 x 128), once
#                       with pageable and once with pinned (--pinned) host memory
#   results/bench.csv   single_pass vs cub at N = 40,960,000 and N = 2^28, L2 flushed before
#                       every timed run (kernel_ms) and not (kernel_ms_no_flush)
# One progress line per step; a step with a wrong result is reported and the run goes on
# (the script exits 1 at the end); a CUDA error or no usable device (exit 3) stops it.
set -u
cd "$(dirname "$0")"
BIN=bin/vecmax
CONFIGS=sweep_configs.txt
[ -x "$BIN" ] || { echo "run_report.sh: $BIN is not built (make)" >&2; exit 2; }
read -r -a sweep_args <<<"$(sed -n 's/^# vecmax-args: *//p' "$CONFIGS")"
mapfile -t configs < <(sed -e 's/#.*//' "$CONFIGS" | awk 'NF == 2 { print $1, $2 }')
[ "${#configs[@]}" -gt 0 ] || { echo "run_report.sh: no configurations in $CONFIGS" >&2; exit 2; }

mkdir -p results
rm -f results/sweep.csv results/copies.csv results/bench.csv
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
      echo "report-run: stopped at step $step (CUDA error or no usable device)" >&2
      exit 3
    fi
  fi
}

for cfg in "${configs[@]}"; do
  read -r t b <<<"$cfg"
  run_step "sweep threads=$t blocks=$b" --threads="$t" --blocks="$b" --csv=results/sweep.csv "${sweep_args[@]}"
done
copy_args=(--threads=1024 --blocks=128 --repeat=10 --warmup=2 --cpu-repeat=3 --csv=results/copies.csv)
run_step "copies pageable" "${copy_args[@]}"
run_step "copies pinned" "${copy_args[@]}" --pinned
bench_args=(--only=single_pass,cub --repeat=20 --warmup=3 --cpu-repeat=3 --csv=results/bench.csv)
run_step "bench n=40960000" --n=40960000 "${bench_args[@]}"
run_step "bench n=2^28" --n=2^28 "${bench_args[@]}"

echo "report-run: $step steps in $(( $(date +%s) - start )) s, $failures failed;" \
     "wrote results/sweep.csv results/copies.csv results/bench.csv"
[ "$failures" -eq 0 ]
