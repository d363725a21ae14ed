#!/usr/bin/env bash
# Prints an -isystem flag that un-shadows a toolkit's headers, or nothing.
#   shadowed_cuda_headers.sh NVCC DIR
# Debian's CUDA (nvidia-cuda-toolkit) keeps its headers in /usr/include. Where another CUDA
# has put links to its own headers in /usr/local/include, which the host compiler searches
# first, the older toolkit compiles against the newer headers and fails (e.g. "macro
# __cudaLaunch requires 2 arguments"). Then DIR gets links to /usr/include's versions of the
# shadowed entries, and `-isystem DIR` puts them first (a system directory: -MMD leaves its
# headers out of the dependency files, which must name no path of a build tree that is moved or
# packed, as common/scripts/legacy_build.sh packs one)
set -u
nvcc=$1 dir=$2
root=$(cd "$(dirname "$(command -v "$nvcc")")/.." 2>/dev/null && pwd) || exit 0
[ -e "$root/include/cuda_runtime.h" ] && exit 0           # the toolkit has its own include dir
[ -e /usr/include/cuda_runtime.h ] && [ -e /usr/local/include/cuda_runtime.h ] || exit 0
[ "$(readlink -f /usr/include/cuda_runtime.h)" != "$(readlink -f /usr/local/include/cuda_runtime.h)" ] || exit 0
mkdir -p "$dir"
for entry in /usr/local/include/*; do
  name=$(basename "$entry")
  [ -e "/usr/include/$name" ] && ln -sfn "/usr/include/$name" "$dir/$name"
done
echo "-isystem $dir"
