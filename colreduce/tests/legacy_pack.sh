#!/usr/bin/env bash
# colreduce's part of the legacy pack (common/scripts/legacy_build.sh runs it in colreduce/ of
# the built copy; LEGACY_LIB, LEGACY_TMP and LEGACY_INFO as that script says). The CUDA 11.8
# binary needs libcublas.so.11, too large to carry: a stand-in built from tests/cublas_stub.c
# goes into LEGACY_LIB, checked to export every cuBLAS symbol the binary needs (nm -D). The file
# tests/cublas_stand_in of the copy tells tests/test_gpu.py: its GPU cases leave out the versions
# that --list-versions tags needs_cublas, and one case checks that those stop cleanly (exit 3).
# The Makefile's VARY_ARGS (the shared --vary-input case) leaves them out too.
set -euo pipefail
: "${LEGACY_LIB:?}" "${LEGACY_TMP:?}" "${LEGACY_INFO:?}"
step() { printf '== %s (%s)\n' "$*" "$(date +%H:%M:%S)"; }

step "The stand-in libcublas.so.11 (colreduce/tests/cublas_stub.c)"
mkdir -p "$LEGACY_LIB" "$LEGACY_TMP"
printf 'libcublas.so.11 { global: *; };\n' >"$LEGACY_TMP/cublas.map"
gcc -O2 -Wall -Wextra -Werror -shared -fPIC -Wl,-soname,libcublas.so.11 -Wl,--version-script="$LEGACY_TMP/cublas.map" \
  -o "$LEGACY_LIB/libcublas.so.11" tests/cublas_stub.c
want=$(nm -D --undefined-only bin/colreduce | awk '{print $2}' | grep '^cublas' | sort -u)
have=$(nm -D --defined-only "$LEGACY_LIB/libcublas.so.11" | awk '{print $3}' | grep '^cublas' | sort -u)
missing=$(comm -23 <(sed 's/@.*//' <<<"$want" | sort -u) <(sed 's/@.*//' <<<"$have"))
[ -z "$missing" ] || { echo "FAIL: the stand-in lacks $missing"; exit 1; }
for s in $want; do   # a versioned reference (name@libcublas.so.11) needs the same version node
  case $s in *@*) grep -qx "${s%%@*}@@${s#*@}" <<<"$have" || { echo "FAIL: stand-in lacks $s"; exit 1; } ;; esac
done
grep -q "libcublas.so.11 => $LEGACY_LIB/" <<<"$(LD_LIBRARY_PATH=$LEGACY_LIB ldd bin/colreduce)" ||
  { echo "FAIL: colreduce does not load the stand-in"; exit 1; }
echo "ok: colreduce needs $(tr '\n' ' ' <<<"$want")- all exported by the stand-in"

step "colreduce's GPU tests without the versions that need cuBLAS"
list=$(bin/colreduce --list-versions)
needs=$(awk '$6 ~ /(^|,)needs_cublas(,|$)/ { print $1 }' <<<"$list" | paste -sd, -)
only=$(awk '$4 == "default" && $6 !~ /(^|,)needs_cublas(,|$)/ { print $1 }' <<<"$list" | paste -sd, -)
[ -n "$needs" ] && [ -n "$only" ] || { echo "FAIL: colreduce --list-versions lists no needs_cublas or no other version"; exit 1; }
grep -q '"cublas_stand_in"' tests/test_gpu.py || { echo "FAIL: tests/test_gpu.py does not read tests/cublas_stand_in"; exit 1; }
echo "tests/legacy_pack.sh: libcublas.so.11 is the stand-in (cublas_stub.c); $needs cannot run" >tests/cublas_stand_in
if python3 -c 'import pytest' 2>/dev/null; then   # no case named after such a version but the stand-in's
  ids=$(cd .. && PYTHONDONTWRITEBYTECODE=1 python3 -m pytest -q --collect-only colreduce/tests/test_gpu.py | grep '::' || true)
  bad=$(grep -E "[[-](${needs//,/|})[]-]" <<<"$ids" | grep -v '::test_needs_cublas_with_the_stand_in' || true)
  [ -n "$ids" ] && [ -z "$bad" ] || { echo "FAIL: packed GPU cases of $needs (or none collected):"; echo "$bad"; exit 1; }
  echo "ok: $(wc -l <<<"$ids") GPU cases collected; $needs only in the stand-in's case"
else echo "ok: tests/cublas_stand_in written (pytest not installed here: the collection is not checked)"; fi
sed -i "s/^VARY_ARGS := \(.*\)$/VARY_ARGS := \1 --only=$only/" Makefile
case $(make --no-print-directory -s print-VARY_ARGS) in
  *" --only=$only") echo "ok: VARY_ARGS is limited to $only" ;;
  *) echo "FAIL: VARY_ARGS of the packed Makefile is not limited to $only"; exit 1 ;;
esac
echo "colreduce: stand-in .legacy/lib/libcublas.so.11 from colreduce/tests/cublas_stub.c; versions run: $only" >>"$LEGACY_INFO"
