#!/usr/bin/env bash
# GPU architecture selection (common/README.md, "Choosing GPU architectures"). Usage:
#   select_arch.sh NVCC "SMS" --flags   [default]  -> the -gencode flags
#   select_arch.sh NVCC "SMS" --message [default]  -> one line saying what is built and why
# SMS is filtered against `NVCC --list-gpu-arch` (a toolkit without that option is taken to
# support what was asked). When nothing is left: the local GPU's compute capability (from
# nvidia-smi) if the toolkit supports it, else the toolkit's oldest architecture. PTX is
# always embedded for the highest architecture chosen.
# "default" (arch.mk passes it when nobody set SMS): the list is the repository's default, not
# the user's choice, so the architecture of every local GPU the toolkit supports is added to it.
# Why: a default SMS="35 52" built by CUDA 12 holds sm_52 code and compute_52 PTX only; on an
# A100 or H100 the driver would JIT-compile that PTX and the code paths for old GPUs would run.
# An SMS given on the command line or in the environment is built exactly as asked.
set -u
nvcc=$1 sms=$2 mode=${3:---flags} origin=${4:-explicit}

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
  # The default list: add each local GPU's own architecture (native code, no JIT) where the
  # toolkit supports it; one it does not support runs the highest PTX, JIT-compiled: said so.
  if [ "$origin" = default ]; then
    local_ccs=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d '. \r' | grep -x '[0-9][0-9]*' | sort -n -u)
    for cc in $local_ccs; do
      if printf '%s\n' $chosen | grep -qx "$cc"; then continue; fi
      if printf '%s\n' "$supported" | grep -qx "$cc"; then
        chosen="$chosen $cc"
        reason="$reason; sm_$cc added for the local GPU"
      else
        reason="$reason; the local GPU's sm_$cc is not supported by nvcc $version: it will JIT-compile the PTX"
      fi
    done
    reason="default $reason"
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
