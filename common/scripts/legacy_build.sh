#!/usr/bin/env bash
# The legacy-architecture build, packed for a GPU machine (issue #16):
#   bash common/scripts/legacy_build.sh OUTDIR
# Copies the working tree (tracked and untracked, not ignored files) into a temporary folder,
# builds it there with Debian's CUDA 11.8 for SMS="35 52" (WERROR=1, the experiments too), so
# that this checkout's build/ and bin/ are not touched; checks that every binary holds sm_35
# and sm_52 code (cuobjdump -lelf) and compute_52 PTX (cuobjdump -lptx, what the driver
# JIT-compiles on a newer GPU); and writes into OUTDIR (replaced):
#   tree.tar.gz      the built copy (bin/ and build/ outputs with their times, the tests)
#                    plus .legacy/lib/libcublas.so.11, a stand-in (common/tests/cublas_stub.c)
#                    for colreduce, whose binary needs cuBLAS 11 (too large to carry);
#                    colreduce/tests/gpu_test.sh there leaves the cublas version out of every
#                    run and checks that it fails cleanly (the original is kept beside it)
#   MANIFEST.sha256  every binary and object of the tree (the phase checks them, before and after)
#   BUILD_INFO.txt   toolkit, host compiler, source commit, what each binary holds
# `bash common/scripts/gpu_session.sh legacy` runs the GPU tier from it (CW_LEGACY_PACK=OUTDIR).
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
  # The runtime is linked statically (nvcc's default); only cuBLAS may be a CUDA 11 library.
  for lib in $needed; do
    case $lib in
      libcublas.so.11) ;;
      libcuda*|libcublas*|libcurand*|libcufft*|libcusparse*|libnv*)
        echo "FAIL: $b needs $lib, which the pack does not carry"; exit 1 ;;
    esac
  done
done
echo "ok: $(wc -l <<<"$binaries") binaries hold sm_35 and sm_52 code and compute_52 PTX, nothing else; libcudart static"

step "The stand-in libcublas.so.11 (common/tests/cublas_stub.c)"
mkdir -p .legacy/lib
printf 'libcublas.so.11 { global: *; };\n' >"$tmp/cublas.map"
gcc -O2 -Wall -Wextra -Werror -shared -fPIC -Wl,-soname,libcublas.so.11 -Wl,--version-script="$tmp/cublas.map" \
  -o .legacy/lib/libcublas.so.11 common/tests/cublas_stub.c
want=$(nm -D --undefined-only colreduce/bin/colreduce | awk '{print $2}' | grep '^cublas' | sort -u)
have=$(nm -D --defined-only .legacy/lib/libcublas.so.11 | awk '{print $3}' | grep '^cublas' | sort -u)
missing=$(comm -23 <(sed 's/@.*//' <<<"$want" | sort -u) <(sed 's/@.*//' <<<"$have"))
[ -z "$missing" ] || { echo "FAIL: the stand-in lacks $missing"; exit 1; }
for s in $want; do   # a versioned reference (name@libcublas.so.11) needs the same version node
  case $s in *@*) grep -qx "${s%%@*}@@${s#*@}" <<<"$have" || { echo "FAIL: stand-in lacks $s"; exit 1; } ;; esac
done
grep -q "libcublas.so.11 => $tree/.legacy/lib/" <<<"$(LD_LIBRARY_PATH=$tree/.legacy/lib ldd colreduce/bin/colreduce)" ||
  { echo "FAIL: colreduce does not load the stand-in"; exit 1; }
echo "ok: colreduce needs $(tr '\n' ' ' <<<"$want")- all exported by the stand-in"

step "colreduce's GPU tier without the cublas version"
t=colreduce/tests/gpu_test.sh
cp "$t" colreduce/tests/gpu_test.orig.sh
only=$(colreduce/bin/colreduce --list-versions | awk '$4 == "default" && $3 != "baseline" { print $1 }' | paste -sd, -)
[ -n "$only" ] || { echo "FAIL: no versions from colreduce --help"; exit 1; }
{
  echo "# legacy pack: generated by common/scripts/legacy_build.sh from gpu_test.orig.sh. The stand-in"
  echo "# libcublas.so.11 has no cuBLAS: every run leaves the cublas version out (--only), and a"
  echo "# last case checks that cublas alone stops cleanly (exit 3, one cuBLAS error line)."
  echo "cr_legacy_only=--only=$only"
  sed -e '/--only=/ s/,cublas\b//g; /--only=/ s/\bcublas,//g' \
      -e '/--only=/! s/\$cr_fast\b/$cr_fast $cr_legacy_only/' \
      -e 's/"\(every version\|memcheck, every version\)/"\1 but cublas (stand-in cuBLAS)/' colreduce/tests/gpu_test.orig.sh
  cat <<'CASE'
if [ "$CW_GPU_OK" = 1 ]; then
  t_run $cr 1000 8 --only=cublas $cr_fast
  if [ "$T_STATUS" -eq 3 ] && [ "$(wc -l <"$T_ERR")" -eq 1 ] && grep -q 'cuBLAS error 1 (CUBLAS_STATUS_NOT_INITIALIZED (stand-in' "$T_ERR"; then
    t_pass "cublas with the stand-in libcublas.so.11: exit 3, one cuBLAS error line"
  else t_fail "cublas with the stand-in libcublas.so.11: exit 3, one cuBLAS error line" "exit $T_STATUS"; t_show_failure; fi
else
  t_skip "cublas with the stand-in libcublas.so.11: exit 3, one cuBLAS error line" "$CW_GPU_REASON"
fi
CASE
} >"$t"
# Every run of the program (continuation lines joined) names --only, and never cublas.
bad=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$t" | grep -E '\$cr ' | grep -v '^cr_legacy_only=' | grep -v 'only=cublas \$cr_fast$' |
      grep -Ev -- '--only=|\$cr_legacy_only' || true)
bad2=$(grep -E -- '--only=[^ "]*cublas' "$t" | grep -v 'only=cublas \$cr_fast$' || true)
[ -z "$bad$bad2" ] || { echo "FAIL: runs of colreduce that may include cublas:"; echo "$bad$bad2"; exit 1; }
echo "ok: every colreduce run in the packed gpu_test.sh is limited to $only"

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
  echo "stand-in: .legacy/lib/libcublas.so.11 from common/tests/cublas_stub.c; colreduce versions run: $only"
  cat "$info"
} >"$outdir/BUILD_INFO.txt"
# The whole built copy, but for the figures (not used by the GPU tier) and gnuplot outputs.
tar -C "$tree" --exclude='./*/figures' -czf "$outdir/tree.tar.gz" .
du -sh "$outdir"
echo "legacy pack ready: $outdir ($(du -sk "$outdir" | cut -f1) KiB); run: CW_LEGACY_PACK=$outdir bash common/scripts/gpu_session.sh legacy"
