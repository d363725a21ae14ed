#!/usr/bin/env bash
# GPU architecture selection (README.md, "Choosing GPU architectures"). Usage:
#   select_arch.sh NVCC "SMS" --flags     -> the -gencode flags
#   select_arch.sh NVCC "SMS" --message   -> one line saying what is built and why
# SMS is filtered against `NVCC --list-gpu-arch` (a toolkit without that option is taken to
# support what was asked). When nothing is left: the local GPU's compute capability (from
# nvidia-smi) if the toolkit supports it, else the toolkit's oldest architecture. PTX is
# always embedded for the highest architecture chosen.
set -u
nvcc=$1 sms=$2 mode=${3:---flags}

version=$("$nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\).*/\1/p' | head -n 1)
version=${version:-unknown}

# The oldest toolkit the repository builds with is the oldest CI builds with: CUDA 11.8
# (CUB ships with the toolkit only from CUDA 11.0; C++14 device code and CCCL need 11.x).
min_version=11.8
if [ "$version" != unknown ] &&
   [ "$(printf '%s\n%s\n' "$min_version" "$version" | sort -V | head -n 1)" != "$min_version" ]; then
  [ "$mode" = --message ] &&
    echo "error: nvcc $version ($nvcc) is older than CUDA $min_version, the oldest toolkit this repository builds with; load a newer one (module avail cuda; module load cuda/11.8 or later) or set CUDA_PATH"
  exit 1
fi
supported=$("$nvcc" --list-gpu-arch 2>/dev/null | sed -n 's/^compute_\([0-9][0-9]*\)[a-z]*$/\1/p' | sort -n -u)

chosen="" dropped="" reason=""
if [ -z "$supported" ]; then
  chosen=$sms
  reason="nvcc $version cannot list its architectures; building what SMS asks"
else
  for sm in $sms; do
    if printf '%s\n' "$supported" | grep -qx "$sm"; then chosen="$chosen $sm"; else dropped="$dropped $sm"; fi
  done
  chosen=$(echo $chosen) dropped=$(echo $dropped)
  if [ -z "$chosen" ]; then
    local_cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d '. \r')
    if [ -n "$local_cc" ] && printf '%s\n' "$supported" | grep -qx "$local_cc"; then
      chosen=$local_cc
      reason="SMS=$sms not supported by nvcc $version; local GPU"
    else
      chosen=$(printf '%s\n' "$supported" | head -n 1)
      reason="SMS=$sms not supported by nvcc $version; oldest supported"
    fi
  elif [ -n "$dropped" ]; then
    reason="SMS=$sms: sm_${dropped// / sm_} not supported by nvcc $version, skipped"
  else
    reason="SMS=$sms, nvcc $version"
  fi
fi

highest=$(printf '%s\n' $chosen | sort -n | tail -n 1)
case $mode in
  --flags)
    flags=""
    for sm in $chosen; do flags="$flags -gencode arch=compute_$sm,code=sm_$sm"; done
    echo "$flags -gencode arch=compute_$highest,code=compute_$highest"
    ;;
  --message)
    echo "arch: building sm_${chosen// / sm_} + compute_$highest PTX ($reason)"
    ;;
  *) echo "select_arch.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
