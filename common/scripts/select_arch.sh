#!/usr/bin/env bash
# GPU architecture selection (common/README.md, "Choosing GPU architectures"). Usage:
#   select_arch.sh NVCC "SMS" --flags   [default]  -> the -gencode flags
#   select_arch.sh NVCC "SMS" --message [default]  -> one line saying what is built and why
#   select_arch.sh NVCC CC --serves                -> whether a build by NVCC runs on a GPU of
#                                                     compute capability CC (90 for 9.0): one line,
#                                                     exit 0 (native code, or PTX the driver
#                                                     compiles) or 1 (it cannot run there: the line
#                                                     names the CUDA that can); slurm/preflight.sh
# SMS is filtered against `NVCC --list-gpu-arch` (a toolkit without that option is taken to
# support what was asked). When nothing is left: the local GPU's compute capability (from
# nvidia-smi) if the toolkit supports it, else the toolkit's oldest architecture. PTX is
# always embedded for the highest architecture chosen.
# "default" (arch.mk passes it when nobody set SMS): the list is the repository's default, not
# the user's choice, so the architecture of every local GPU the toolkit supports is added to it.
# Why: a default SMS="35 52" built by CUDA 12 holds sm_52 code and compute_52 PTX only; on an
# A100 or H100 the driver would JIT-compile that PTX and the code paths for old GPUs would run.
# An SMS given on the command line or in the environment is built exactly as asked.
# Refused, in one "error:" line and exit 1 (arch.mk stops make with it before anything
# compiles: common/README.md, "Choosing GPU architectures"): an item of SMS (or SMS_DEFAULT)
# that is not a compute capability (abc, 10, 90a, *: the line names the value as given, quoted,
# and lists what the toolkit builds); and an SMS given explicitly of which the toolkit builds
# nothing (SMS=70 with CUDA 13: the line names the architecture, the toolkit's range and the
# CUDA version that builds it). The default list falls back instead, as said above: a default
# must build with every toolkit.
set -u
set -f  # SMS's items are words, never file names: SMS='*' is refused as '*'
nvcc=$1 sms=$2 mode=${3:---flags} origin=${4:-explicit}

version=$("$nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\).*/\1/p' | head -n 1)
version=${version:-unknown}

# The oldest toolkit the repository builds with is the oldest CI builds with: CUDA 11.8
# (CUB ships with the toolkit only from CUDA 11.0; C++14 device code and CCCL need 11.x).
min_version=11.8
if [ "$version" != unknown ] &&
   [ "$(printf '%s\n%s\n' "$min_version" "$version" | sort -V | head -n 1)" != "$min_version" ]; then
  [ "$mode" != --flags ] &&
    echo "error: nvcc $version ($nvcc) is older than CUDA $min_version, the oldest toolkit this repository builds with; load a newer one (module avail cuda; module load cuda/11.8 or later) or set CUDA_PATH"
  exit 1
fi
supported=$("$nvcc" --list-gpu-arch 2>/dev/null | sed -n 's/^compute_\([0-9][0-9]*\)[a-z]*$/\1/p' | sort -n -u)

# Every compute capability NVIDIA has shipped (without the dot), and the CUDA toolkits that
# build each: what an unsupported one is told to load.
builds_with() {
  case $1 in
    20|21) echo "CUDA 8 or older, which this repository cannot use (it needs CUDA $min_version or newer)" ;;
    30|32) echo "CUDA 10.2 or older, which this repository cannot use (it needs CUDA $min_version or newer)" ;;
    35|37) echo "CUDA 11.8 (the last toolkit that builds it)" ;;
    50|52|53|60|61|62|70|72) echo "CUDA 12 (or 11.8; CUDA 13 dropped it)" ;;
    75|80|86|87|89|90) echo "CUDA 11.8 or newer" ;;
    88|110) echo "CUDA 13 or newer" ;;
    100|120) echo "CUDA 12.8 or newer" ;;
    101) echo "CUDA 12.8 or 12.9 (CUDA 13 calls it sm_110)" ;;
    103|121) echo "CUDA 12.9 or newer" ;;
  esac
}
supported_words=$(echo $supported)
error() {  # one line, and the build stops (arch-info, and --flags prints nothing)
  [ "$mode" != --flags ] && echo "error: $*"
  exit 1
}
# sm_CC, and its compute capability with the dot (sm_70, compute capability 7.0).
named() { echo "sm_$1 (compute capability ${1%?}.${1#"${1%?}"})"; }

# --serves CC: a build by this nvcc on a GPU of compute capability CC (slurm/preflight.sh asks it
# for each GPU type of a partition). Native where nvcc builds CC; else the PTX of an older
# architecture, compiled by the driver, where nvcc builds one at or below CC (a default build
# embeds the oldest it builds); a GPU older than everything nvcc builds cannot run it at all.
if [ "$mode" = --serves ]; then
  [[ $sms =~ ^[1-9][0-9]*$ ]] || error "--serves takes a compute capability without its dot (70 for 7.0), not '$(printf '%s' "$sms" | tr '[:cntrl:]' '?')'"
  cc=$sms lowest=$(printf '%s\n' "$supported" | head -n 1) highest=$(printf '%s\n' "$supported" | tail -n 1)
  if [ -z "$supported" ]; then echo "$(named "$cc"): nvcc $version cannot list its architectures: not checked"
  elif printf '%s\n' "$supported" | grep -qx "$cc"; then echo "$(named "$cc"): native code (nvcc $version builds it)"
  elif [ "$cc" -gt "$lowest" ]; then echo "$(named "$cc"): not built by nvcc $version (sm_$lowest to sm_$highest): runs its PTX, compiled by the driver when a program starts"
  else
    echo "error: $(named "$cc") is older than what nvcc $version builds (sm_$lowest to sm_$highest): no build of it runs there; it is built by $(builds_with "$cc" | grep . || echo "an older CUDA")"
    exit 1
  fi
  exit 0
fi

# An item that is not a compute capability: a typo, whatever SMS's origin. The value is shown as
# given, in quotes, but for control characters, shown as '?'.
what="SMS"; [ "$origin" = default ] && what="SMS_DEFAULT"
shown() { printf '%s' "$1" | tr '[:cntrl:]' '?'; }
for sm in $sms; do
  if ! [[ $sm =~ ^[1-9][0-9]*$ ]] ||
     { [ -z "$(builds_with "$sm")" ] && ! printf '%s\n' "$supported" | grep -qx "$sm"; }; then
    error "$what='$(shown "$sms")': '$(shown "$sm")' is not a GPU architecture (a compute capability without its dot: 90 for 9.0, 86 for 8.6);" \
      "nvcc $version builds ${supported_words:-what it is asked (it cannot list its architectures)}"
  fi
done
if [ -z "$(echo $sms)" ]; then
  error "$what is empty: give compute capabilities (SMS=90, SMS='80 90') or leave SMS unset for the default;" \
    "nvcc $version builds ${supported_words:-what it is asked}"
fi

chosen="" dropped="" reason=""
if [ -z "$supported" ]; then
  chosen=$sms
  reason="nvcc $version cannot list its architectures; building what SMS asks"
else
  for sm in $sms; do
    if printf '%s\n' "$supported" | grep -qx "$sm"; then chosen="$chosen $sm"; else dropped="$dropped $sm"; fi
  done
  chosen=$(echo $chosen) dropped=$(echo $dropped)
  # An SMS the user gave, of which nothing can be built: said, not replaced by another architecture.
  if [ -z "$chosen" ] && [ "$origin" != default ]; then
    lowest=$(printf '%s\n' "$supported" | head -n 1) highest=$(printf '%s\n' "$supported" | tail -n 1)
    why=""
    for sm in $dropped; do
      why="$why${why:+; }$(named "$sm") is built by $(builds_with "$sm")"
    done
    error "SMS='$sms': nvcc $version ($nvcc) builds sm_$lowest to sm_$highest ($supported_words), not what SMS asks: $why;" \
      "load that toolkit (module load cuda/...) or set CUDA_PATH, or choose an architecture nvcc $version builds"
  fi
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
  # toolkit supports it. One it does not support runs the highest PTX, compiled by the driver,
  # if the GPU is at least that architecture; an older one cannot run this build: said so.
  if [ "$origin" = default ]; then
    local_ccs=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d '. \r' | grep -x '[0-9][0-9]*' | sort -n -u)
    unbuilt=""
    for cc in $local_ccs; do
      if printf '%s\n' $chosen | grep -qx "$cc"; then continue; fi
      if printf '%s\n' "$supported" | grep -qx "$cc"; then
        chosen="$chosen $cc"
        reason="$reason; sm_$cc added for the local GPU"
      else
        unbuilt="$unbuilt $cc"
      fi
    done
    ptx=$(printf '%s\n' $chosen | sort -n | tail -n 1)
    for cc in $unbuilt; do
      if [ "$cc" -ge "$ptx" ]; then
        reason="$reason; the local GPU's sm_$cc is not supported by nvcc $version: it runs the compute_$ptx PTX, compiled by the driver"
      else
        reason="$reason; the local GPU's sm_$cc cannot run this build (compute_$ptx PTX runs on sm_$ptx and newer): $(named "$cc") is built by $(builds_with "$cc")"
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
