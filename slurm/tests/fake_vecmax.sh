#!/usr/bin/env bash
# Stands in for vecmax/bin/vecmax in the Slurm tests (no GPU needed): takes the options the
# sweep passes (--threads=T --blocks=B --csv=FILE ...), appends a header (new file) and one row.
# FAKE_VECMAX_FAIL="T B": that configuration fails as vecmax does without a GPU (exit 3).
threads="" blocks="" csv=""
for arg in "$@"; do
  case $arg in
    --threads=*) threads=${arg#*=} ;;
    --blocks=*) blocks=${arg#*=} ;;
    --csv=*) csv=${arg#*=} ;;
  esac
done
if [ -z "$threads" ] || [ -z "$blocks" ] || [ -z "$csv" ]; then
  echo "fake_vecmax: needs --threads, --blocks and --csv" >&2
  exit 2
fi
if [ "${FAKE_VECMAX_FAIL:-}" = "$threads $blocks" ]; then
  echo "fake_vecmax: no usable CUDA GPU: no CUDA-capable device is detected (CUDA error 100, cudaErrorNoDevice) at fake_vecmax.sh (fake failure for threads=$threads blocks=$blocks)" >&2
  exit 3
fi
# FAKE_VECMAX_SLEEP=S: takes S seconds, as a real run takes its time (the two-node test: both nodes get tasks).
[ -n "${FAKE_VECMAX_SLEEP:-}" ] && sleep "$FAKE_VECMAX_SLEEP"
[ -s "$csv" ] || echo "assignment,version,device,n,threads,blocks,kernel_ms,result_ok" >"$csv"
echo "vecmax,1,fake device,40960000,$threads,$blocks,1.5,1" >>"$csv"
echo "vecmax version=1 threads=$threads blocks=$blocks: Result = PASS"
