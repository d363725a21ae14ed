# Tier 1 (no GPU needed): the shared command-line and file contract, run against every
# program of the repository (README.md, "One command line" and "Data safety"): strict
# integers, one-line messages, --help=, --only items, FIFOs/directories/devices/proc files
# refused without blocking, nothing created on exit 2 or 3, --print-csv-header's core
# columns. Each case is bounded by a timeout: a hang fails it.
for cw_a in $(bash "$CW_COMMON_DIR/scripts/assignments.sh"); do
  cw_prog=$CW_COMMON_DIR/../$cw_a/bin/$cw_a
  case $cw_a in
    pi) cw_small="--niter=1000" ;;
    colreduce) cw_small="--m=10 --n=3" ;;
    *) cw_small="--n=1000" ;;
  esac
  if [ ! -x "$cw_prog" ]; then
    t_skip "$cw_a: shared command-line contract" "$cw_a/bin/$cw_a is not built (make all first)"
    continue
  fi
  t_shared_cli_cases "$cw_prog" "$cw_small"
done
