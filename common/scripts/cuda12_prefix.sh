#!/usr/bin/env bash
# A CUDA 12.x toolkit for building, from Debian trixie's non-free packages (issue #16):
#   bash common/scripts/cuda12_prefix.sh PREFIX        (CI: /opt/cw-cuda12)
# prints PREFIX/bin/nvcc on stdout when PREFIX holds a working CUDA 12 toolkit, making it first
# if needed; progress goes to stderr; on failure one line "cuda12_prefix: error: ..." and exit 1
# (exit 2: usage).
#
# Debian bookworm has no CUDA 12, and NVIDIA's nvidia-cuda-nvcc-cu12 wheels lack the nvcc driver,
# cicc, fatbinary and nvlink. Trixie's nvidia-cuda-toolkit (12.4) is NVIDIA's own binaries,
# which run on bookworm's glibc. Its packages are fetched with `apt-get download` through an apt
# configuration of their own (lists, cache, no status file: the system's apt state is not read
# or written, nothing is installed) and unpacked with dpkg-deb into PREFIX, laid out like
# NVIDIA's toolkit (bin/, nvvm/libdevice, include/, lib64/) with a bin/nvcc.profile relative to
# itself (Debian's points at /usr/lib/nvidia-cuda-toolkit and /usr/include):
#   nvidia-cuda-toolkit  nvcc, cicc, ptxas, fatbinary, nvlink, cudafe++, cuobjdump, libdevice
#   nvidia-cuda-dev      the headers, libcudart_static.a and libcudadevrt.a (nvcc links the
#                        runtime statically), the -l links and the libcuda stub; its other
#                        static libraries (most of its 2.5 GB) are left out
#   libcudart12          libcudart.so.12
#   libcublas12 libcublaslt12   cuBLAS 12 (for a program linked with -lcublas; LD_LIBRARY_PATH=PREFIX/lib64
#                        to run it, as with any toolkit outside the loader's path)
#   libcub-dev libthrust-dev libcu++-dev   CCCL 2.3 (CUB, Thrust, libcu++) for the baselines
# No compute-sanitizer, profilers or debugger: a toolkit to build with, not to run the GPU tier.
# The host compiler is g++ on PATH (bookworm's g++ 12; CUDA 12.4 takes up to 13).
# About 1.2 GB is downloaded (nvidia-cuda-dev is 0.9 GB of it); the .deb files are kept in
# CW_CUDA12_CACHE (default /var/cache/cw-cuda12) and not fetched again, and a PREFIX that is
# already complete (its cw-cuda12.stamp) is only checked, not made again.
# Environment: CW_CUDA12_CACHE, CW_CUDA12_MIRROR (default: the Debian archive of this machine's
# own apt configuration, common/scripts/debian_mirror.sh).
set -uo pipefail
me=cuda12_prefix
die() { echo "$me: error: $*" >&2; exit 1; }
say() { echo "$me: $*" >&2; }
[ $# -eq 1 ] && [ -n "$1" ] || { echo "usage: $me.sh PREFIX   (e.g. /opt/cw-cuda12)" >&2; exit 2; }
case $1 in /*) prefix=${1%/} ;; *) prefix=$PWD/${1%/} ;; esac
cache=${CW_CUDA12_CACHE:-/var/cache/cw-cuda12}
mirror=${CW_CUDA12_MIRROR:-$(bash "$(dirname "${BASH_SOURCE[0]}")/debian_mirror.sh")}
[ -n "$mirror" ] || die "no Debian archive found in this machine's apt configuration (set CW_CUDA12_MIRROR)"
suite=trixie
packages="nvidia-cuda-toolkit nvidia-cuda-dev libcudart12 libcublas12 libcublaslt12 libcub-dev libthrust-dev libcu++-dev"
stamp_name=cw-cuda12.stamp

for tool in apt-get dpkg-deb tar flock; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found (a Debian system with apt is needed)"
done

# smoke_test ROOT: ROOT's nvcc reports release 12.x and builds, for sm_52, a program that uses
# CUB, Thrust and cuBLAS; the binary holds sm_52 code, loads ROOT's libcublas.so.12 and runs
# (cublasGetProperty needs no GPU). Prints the release and versions, or (status 1) what failed.
smoke_test() {
  local root=$1 t rel out smoke_error=""
  rel=$(sed -n '/release [0-9]/{s/.*release \([0-9][0-9.]*\),.*/\1/p;q}' <<<"$("$root/bin/nvcc" --version 2>/dev/null)")
  case $rel in
    12.*) ;;
    "") echo "$root/bin/nvcc --version does not run or names no release: $("$root/bin/nvcc" --version 2>&1 | tail -n 1)"; return 1 ;;
    *) echo "$root/bin/nvcc is release $rel, not 12.x"; return 1 ;;
  esac
  t=$(mktemp -d "${TMPDIR:-/tmp}/cw-cuda12-smoke.XXXXXX")
  cat >"$t/smoke.cu" <<'CU'
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <cublas_v2.h>
#include <cstdio>
__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }
int main() {
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(MINOR_VERSION, &minor) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(PATCH_LEVEL, &patch) != CUBLAS_STATUS_SUCCESS) return 1;
  std::printf("CUB %d, Thrust %d, cuBLAS %d.%d.%d\n", CUB_VERSION, THRUST_VERSION, major, minor, patch);
  return 0;
}
CU
  if ! out=$(cd "$t" && "$root/bin/nvcc" -gencode arch=compute_52,code=sm_52 -Werror all-warnings \
                 -Xcompiler -Wall,-Wextra,-Werror -o smoke smoke.cu -lcublas 2>&1); then
    smoke_error="$root/bin/nvcc cannot build a CUB/Thrust/cuBLAS program: $(grep -m 1 -iE 'error|not found|unsupported' <<<"$out" || tail -n 1 <<<"$out")"
  # The listing is captured before grep reads it: `cuobjdump | grep -q` under pipefail fails
  # whenever grep stops at the first match before cuobjdump has written its last line (SIGPIPE, 141).
  elif ! grep -q '\.sm_52\.cubin' <<<"$("$root/bin/cuobjdump" -lelf "$t/smoke" 2>/dev/null)"; then
    smoke_error="$root/bin/cuobjdump finds no sm_52 code in the program nvcc built"
  elif ! out=$(LD_LIBRARY_PATH=$root/lib64 "$t/smoke" 2>&1); then
    smoke_error="the program nvcc built does not run with LD_LIBRARY_PATH=$root/lib64: $(tail -n 1 <<<"$out")"
  fi
  rm -rf "$t"
  [ -z "$smoke_error" ] || { echo "$smoke_error"; return 1; }
  echo "$rel ($out)"
}

mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || die "cannot write the download cache $cache (run as root, or set CW_CUDA12_CACHE)"
exec 9>"$cache/lock"
flock -w 3600 9 || die "another cuda12_prefix.sh has held $cache/lock for an hour"

if [ -f "$prefix/$stamp_name" ]; then
  if info=$(smoke_test "$prefix"); then
    say "$prefix is ready: CUDA $info"
    echo "$prefix/bin/nvcc"; exit 0
  fi
  say "$prefix is not usable ($info); making it again"
elif [ -e "$prefix" ] && [ -n "$(ls -A "$prefix" 2>/dev/null)" ]; then
  die "$prefix exists and was not made by this script (no $stamp_name); not replacing it"
fi

# The packages: from the cache, else through apt with trixie as its only source.
debs=$cache/debs
mkdir -p "$debs" "$cache/lists/partial" "$cache/apt-cache/archives/partial" "$cache/etc/sources.list.d" "$cache/etc/preferences.d"
cat >"$cache/etc/sources.list.d/trixie.sources" <<SRC
Types: deb
URIs: $mirror
Suites: $suite
Components: main contrib non-free
Architectures: amd64
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt_opts=(-o Dir::State::Lists="$cache/lists" -o Dir::State::status=/dev/null
          -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$cache/etc/sources.list.d"
          -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts="$cache/etc/preferences.d"
          -o Dir::Cache="$cache/apt-cache" -o APT::Architecture=amd64 -o APT::Architectures::=amd64
          -o APT::Sandbox::User=root -o Acquire::Retries=3)
have_all() { local p; for p in $packages; do ls "$debs/${p}"_*.deb >/dev/null 2>&1 || return 1; done; }
if have_all; then
  say "packages from the cache $debs (not downloaded again)"
else
  [ -r /usr/share/keyrings/debian-archive-keyring.gpg ] || die "no /usr/share/keyrings/debian-archive-keyring.gpg (apt-get install debian-archive-keyring)"
  say "apt-get update: Debian $suite (main contrib non-free) from $mirror, into $cache/lists"
  out=$(apt-get "${apt_opts[@]}" update 2>&1) || die "apt-get update of Debian $suite from $mirror failed: $(grep -m 1 -E '^(E|W):' <<<"$out")"
  # An unreachable mirror is only a warning to apt-get update (exit 0).
  grep -Eq '^(E:|W: Failed to fetch|W: Some index files failed)' <<<"$out" &&
    die "apt-get update of Debian $suite from $mirror failed: $(grep -Em 1 '^(E:|W: Failed to fetch|W: Some index files failed)' <<<"$out")"
  for p in $packages; do
    v=$(apt-cache "${apt_opts[@]}" policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
    [ -n "$v" ] && [ "$v" != "(none)" ] || die "Debian $suite has no package $p (from $mirror)"
    # Keep one version per package: drop ones the archive no longer has.
    for f in "$debs/${p}"_*.deb; do
      [ -e "$f" ] && [ "$(dpkg-deb -f "$f" Version 2>/dev/null)" != "$v" ] && rm -f "$f"
    done
  done
  say "apt-get download: $packages"
  dl_start=$SECONDS
  out=$(cd "$debs" && apt-get "${apt_opts[@]}" download $packages 2>&1) ||
    die "apt-get download from Debian $suite failed: $(grep -m 1 -E '^(E|W):' <<<"$out")"
  have_all || die "apt-get download left packages missing in $debs: $(for p in $packages; do ls "$debs/${p}"_*.deb >/dev/null 2>&1 || printf '%s ' "$p"; done)"
  say "downloaded in $((SECONDS - dl_start)) s: $(du -sh "$debs" | cut -f1) in $debs"
fi
deb() { ls "$debs/${1}"_*.deb | sort -V | tail -n 1; }

# Unpack into a temporary folder beside PREFIX, then move it into place.
say "unpacking into $prefix"
unpack_start=$SECONDS
parent=$(dirname "$prefix")
mkdir -p "$parent" 2>/dev/null && [ -w "$parent" ] || die "cannot write $parent (for $prefix)"
work=$(mktemp -d "$parent/.cw-cuda12.XXXXXX") || die "cannot make a folder in $parent"
trap 'rm -rf "$work"' EXIT
stage=$work/stage new=$work/prefix
mkdir -p "$stage" "$new/bin" "$new/nvvm"
for p in nvidia-cuda-toolkit libcudart12 libcublas12 libcublaslt12 libcub-dev libthrust-dev libcu++-dev; do
  dpkg-deb -x "$(deb "$p")" "$stage" || die "dpkg-deb -x $(deb "$p") failed"
done
lib=./usr/lib/x86_64-linux-gnu
dpkg-deb --fsys-tarfile "$(deb nvidia-cuda-dev)" |
  tar -x -C "$stage" ./usr/include $lib/libcudart.so $lib/libcublas.so $lib/libcublasLt.so \
      $lib/libcudart_static.a $lib/libcudadevrt.a $lib/libculibos.a $lib/stubs/libcuda.so ||
  die "unpacking $(deb nvidia-cuda-dev) failed"
tk=$stage/usr/lib/nvidia-cuda-toolkit
for f in "$tk/bin/nvcc" "$tk/bin/cicc" "$tk/bin/crt" "$tk/libdevice" "$stage/usr/include/cuda_runtime.h" \
         "$stage/usr/include/cub/cub.cuh" "$stage/usr/include/thrust/version.h" "$stage/usr/include/cuda/std/version"; do
  [ -e "$f" ] || die "the packages lack ${f#"$stage"} (did Debian $suite change nvidia-cuda-toolkit's layout?)"
done
mv "$tk/bin/nvcc" "$tk/bin/cicc" "$tk/bin/crt" "$new/bin/"
for b in ptxas fatbinary nvlink cudafe++ bin2c cuobjdump nvdisasm nvprune cu++filt; do
  [ -e "$stage/usr/bin/$b" ] || die "nvidia-cuda-toolkit lacks /usr/bin/$b"
  mv "$stage/usr/bin/$b" "$new/bin/"
done
mv "$tk/libdevice" "$new/nvvm/libdevice"
mv "$stage/usr/include" "$new/include"
mv "$stage/usr/lib/x86_64-linux-gnu" "$new/lib64"
# NVIDIA's own nvcc.profile, as in a toolkit installed from its runfile: every path from the
# folder nvcc is in (_HERE_), so that the prefix can be moved.
cat >"$new/bin/nvcc.profile" <<'PROFILE'
# written by common/scripts/cuda12_prefix.sh (paths relative to this folder)
TOP              = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
LD_LIBRARY_PATH += $(TOP)/lib64:
PATH            += $(_HERE_):
INCLUDES        +=  "-I$(TOP)/include" $(_SPACE_)
LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/lib64/stubs" "-L$(TOP)/lib64"
CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
PROFILE
info=$(smoke_test "$new") || die "the unpacked toolkit does not work: $info"
{
  echo "CUDA $info, from Debian $suite ($mirror) by common/scripts/cuda12_prefix.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  for p in $packages; do dpkg-deb -f "$(deb "$p")" Package Version | paste -sd' '; done
} >"$new/$stamp_name"
rm -rf "$prefix" && mv "$new" "$prefix" || die "cannot move the toolkit into $prefix"
say "unpacked in $((SECONDS - unpack_start)) s: CUDA $info; $(du -sh "$prefix" | cut -f1) in $prefix"
echo "$prefix/bin/nvcc"
