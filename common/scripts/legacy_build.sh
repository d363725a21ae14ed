#!/usr/bin/env bash
# The legacy-architecture build, packed for a GPU machine (issue #16):
#   bash common/scripts/legacy_build.sh OUTDIR
# Copies the working tree (tracked and untracked, not ignored files) into a temporary folder,
# builds it there with Debian's CUDA 11.8 for SMS="35 52" (WERROR=1, the experiments too), so
# that this checkout's build/ and bin/ are not touched; checks that every binary holds sm_35
# and sm_52 code (cuobjdump -lelf) and compute_52 PTX (cuobjdump -lptx, what the driver
# JIT-compiles on a newer GPU); and writes into OUTDIR (replaced):
#   tree.tar.gz      the built copy (bin/ and build/ outputs with their times, the tests),
#                    plus .legacy/lib/: stand-ins for the CUDA libraries a binary needs (too
#                    large to carry), which the assignments' pack steps build (below)
#   MANIFEST.sha256  every binary and object of the tree (the phase checks them, before and after)
#   BUILD_INFO.txt   toolkit, host compiler, source commit, what each binary holds
# `bash common/scripts/gpu_session.sh legacy` runs the GPU tier from it (CW_LEGACY_PACK=OUTDIR).
# An assignment's pack step: <assignment>/tests/legacy_pack.sh, where it exists, run with bash in
# that assignment's folder of the built copy (its bin/ built for SMS="35 52"), with
#   LEGACY_LIB   the folder for stand-in shared libraries (.legacy/lib of the copy; the legacy
#                phase puts it on LD_LIBRARY_PATH)
#   LEGACY_TMP   a scratch folder of its own (removed afterwards)
#   LEGACY_INFO  a file to append lines to, copied into BUILD_INFO.txt
# It may rewrite the copy's own tests (e.g. to leave out a version whose library is a stand-in),
# prints "ok: ..." lines and exits non-zero ("FAIL: ...") when the pack must not be made.
# Needs Debian's nvidia-cuda-toolkit (11.8) and g++-11 (what .ci/run installs), gcc.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
[ $# -eq 1 ] || { echo "usage: legacy_build.sh OUTDIR" >&2; exit 2; }
outdir=$1
legacy_bin=/usr/lib/nvidia-cuda-toolkit/bin
export PATH=$legacy_bin:/usr/bin:$PATH
[ -x "$legacy_bin/nvcc" ] || { echo "legacy_build: no CUDA 11.8 at $legacy_bin (apt-get install nvidia-cuda-toolkit)" >&2; exit 2; }
if [ -e "$outdir" ] && [ -n "$(ls -A "$outdir")" ] && [ ! -f "$outdir/BUILD_INFO.txt" ]; then
  echo "legacy_build: $outdir exists and is not a legacy pack; not replacing it" >&2; exit 2
fi
mkdir -p "$outdir"; outdir=$(cd "$outdir" && pwd)
step() { printf '== %s (%s)\n' "$*" "$(date +%H:%M:%S)"; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cw-legacy-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tree
mkdir -p "$tree"

step "Copying the working tree of $here"
git -C "$here" ls-files -z -c -o --exclude-standard --deduplicate |
  (cd "$here" && while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done) |
  tar -C "$here" --null -T - -cf - | tar -C "$tree" -xf -
commit=$(git -C "$here" rev-parse HEAD)
dirty=$(git -C "$here" status --porcelain --untracked-files=normal | wc -l)

step "Building with $(nvcc --version | tail -n 1), SMS=\"35 52\", WERROR=1"
cd "$tree"
make -j"$(nproc)" all SMS="35 52" WERROR=1 >"$tmp/build.log" 2>&1 || { tail -n 40 "$tmp/build.log"; exit 1; }
make -j"$(nproc)" experiments SMS="35 52" WERROR=1 >>"$tmp/build.log" 2>&1 || { tail -n 40 "$tmp/build.log"; exit 1; }
grep '^arch:' "$tmp/build.log" | sort -u
# The pack is unpacked elsewhere: a dependency file naming a path of this temporary tree names a
# file that will not exist there, which make takes for a changed header (-MP's empty rule) and
# rebuilds everything that includes it.
moved=$(find . -name '*.d' -exec grep -l -F "$tree/" {} + 2>/dev/null || true)
[ -z "$moved" ] || { echo "FAIL: dependency files name paths of the build tree $tree/ (rebuilt wherever the pack is unpacked): $(xargs <<<"$moved")"; exit 1; }
echo "ok: no dependency file names a path of the build tree"

step "Checking sm_35, sm_52 code (cuobjdump -lelf) and compute_52 PTX (cuobjdump -lptx)"
binaries=$(ls common/bin/* */bin/* */build/experiments/* 2>/dev/null | sort -u)
info=$tmp/binaries.txt
: >"$info"
for b in $binaries; do
  elfs=$(cuobjdump -lelf "$b") ptx=$(cuobjdump -lptx "$b")
  for sm in sm_35 sm_52; do
    grep -q "\.$sm\.cubin" <<<"$elfs" || { echo "FAIL: $b has no $sm code"; echo "$elfs"; exit 1; }
  done
  grep -q '\.sm_52\.ptx' <<<"$ptx" || { echo "FAIL: $b has no compute_52 PTX"; echo "$ptx"; exit 1; }
  others=$(grep -Ev '\.sm_(35|52)\.' <<<"$elfs$ptx" || true)   # captured: no `| grep -q` under pipefail
  [ -z "$others" ] || { echo "FAIL: $b holds code for other architectures"; echo "$others"; exit 1; }
  needed=$(objdump -p "$b" | awk '$1 == "NEEDED" { printf "%s ", $2 }')
  printf '%s: %s cubins (sm_35, sm_52), %s PTX (compute_52); needs %s\n' "$b" "$(wc -l <<<"$elfs")" \
    "$(wc -l <<<"$ptx")" "$needed" >>"$info"
  # The runtime is linked statically (nvcc's default); another CUDA library needs a stand-in
  # in the pack (checked after the pack steps below).
  cuda_libs=$(tr ' ' '\n' <<<"$needed" | grep -E '^(libcuda|libcublas|libcurand|libcufft|libcusparse|libnv)' | xargs || true)
  [ -z "$cuda_libs" ] || echo "$b $cuda_libs" >>"$tmp/cuda-libs.txt"
done
touch "$tmp/cuda-libs.txt"
echo "ok: $(wc -l <<<"$binaries") binaries hold sm_35 and sm_52 code and compute_52 PTX, nothing else; libcudart static"
mkdir -p .legacy/lib
: >"$tmp/pack-info.txt"

step "The assignments' own pack steps (<assignment>/tests/legacy_pack.sh)"
for a in $(bash common/scripts/assignments.sh); do
  [ -f "$a/tests/legacy_pack.sh" ] || continue
  (cd "$a" && LEGACY_LIB=$tree/.legacy/lib LEGACY_TMP=$tmp/pack-$a LEGACY_INFO=$tmp/pack-info.txt \
     bash tests/legacy_pack.sh) || { echo "FAIL: $a/tests/legacy_pack.sh"; exit 1; }
done
# A CUDA library a binary needs must be in the pack: a stand-in that a pack step built.
for lib in $(cut -d' ' -f2- "$tmp/cuda-libs.txt" | tr ' ' '\n' | sort -u); do
  [ -f ".legacy/lib/$lib" ] || { echo "FAIL: $(grep " $lib" "$tmp/cuda-libs.txt" | cut -d' ' -f1 | xargs) need(s) $lib, which the pack does not carry"; exit 1; }
done
echo "ok: every CUDA library a binary needs is in the pack ($(ls .legacy/lib 2>/dev/null | xargs))"

step "Packing into $outdir"
rm -rf "${outdir:?}"/*; mkdir -p "$outdir"
find . -type f \( -path '*/bin/*' -o -path '*/build/*' -o -path './.legacy/*' \) ! -name '*.log' -print0 | sort -z |
  xargs -0 sha256sum >"$outdir/MANIFEST.sha256"
{
  echo "legacy pack (common/scripts/legacy_build.sh), made $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  echo "toolkit: $(nvcc --version | tail -n 1) ($legacy_bin/nvcc); host compiler: $(head -n 1 <<<"$(g++ --version)")"
  echo "source: commit $commit, $dirty uncommitted change(s) in the working tree"
  echo "build: make all experiments SMS=\"35 52\" WERROR=1"
  grep '^arch:' "$tmp/build.log" | sort -u
  cat "$tmp/pack-info.txt"
  cat "$info"
} >"$outdir/BUILD_INFO.txt"
# The whole built copy, but for the figures (not used by the GPU tier) and gnuplot outputs.
tar -C "$tree" --exclude='./*/figures' -czf "$outdir/tree.tar.gz" .
du -sh "$outdir"
echo "legacy pack ready: $outdir ($(du -sk "$outdir" | cut -f1) KiB); run: CW_LEGACY_PACK=$outdir bash common/scripts/gpu_session.sh legacy"
