#!/usr/bin/env bash
# Packs Debian's Slurm (22.05) and munge, as installed on THIS machine (apt-get install
# slurmctld slurmd slurm-client munge), into one folder that can be carried to a GPU machine
# with no Slurm and run there by slurm/tests/gpu_cluster.sh, without installing anything:
#
#   bash slurm/tests/pack_slurm.sh OUTDIR
#
# OUTDIR (created; must be empty or absent) receives
#   sbin/        slurmctld slurmd slurmstepd munged mungekey   (Debian's links dereferenced)
#   libexec/     sbatch scontrol squeue sinfo srun scancel munge unmunge (the real programs)
#   bin/         one small wrapper per libexec/ program: runs it through the dynamic loader
#                with --library-path, so that no LD_LIBRARY_PATH is set in its environment
#                (sbatch passes its environment on to the job: the pack's libraries must not
#                reach the jobs' compilers and programs)
#   lib/         every shared library the programs and plugins need, except glibc's own
#                (libc, libm, libdl, libpthread, librt, libresolv, ld-linux...: the target's)
#   lib/slurm-wlm/  the plugins of slurm-wlm-basic-plugins and libslurmfull.so (PluginDir)
#   MANIFEST.txt what was packed, from which packages, and the total size
# The optional plugin packages (hdf5, rrd, influxdb, elasticsearch, ipmi, jwt, rsmi, mysql)
# are left out: their libraries would take the pack far past 64 MiB and no test uses them.
# Exit status: 0 packed; 2 bad usage or something missing here.
set -u
die() { echo "pack_slurm.sh: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: pack_slurm.sh OUTDIR"
out=$1
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then die "$out exists and is not empty"; fi
command -v dpkg >/dev/null || die "dpkg not found: run this where Debian's slurm packages are installed"
for pkg in slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge libmunge2; do
  dpkg -s "$pkg" >/dev/null 2>&1 || die "package $pkg is not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
plugdir=/usr/lib/x86_64-linux-gnu/slurm-wlm
[ -f "$plugdir/libslurmfull.so" ] || die "$plugdir/libslurmfull.so not found"

daemons="slurmctld slurmd slurmstepd munged mungekey"
clients="sbatch scontrol squeue sinfo srun scancel munge unmunge"
where() {  # the installed program NAME (sbin or bin), dereferenced
  local p
  for p in /usr/sbin/$1 /usr/bin/$1 /sbin/$1 /bin/$1; do
    [ -e "$p" ] && { readlink -f "$p"; return 0; }
  done
  return 1
}

mkdir -p "$out"/{sbin,libexec,bin,lib/slurm-wlm} || die "cannot create $out"
out=$(cd "$out" && pwd)
for p in $daemons; do
  src=$(where "$p") || die "$p not found"
  cp -L "$src" "$out/sbin/$p" || die "cannot copy $src"
done
for p in $clients; do
  src=$(where "$p") || die "$p not found"
  cp -L "$src" "$out/libexec/$p" || die "cannot copy $src"
  cat >"$out/bin/$p" <<EOF
#!/bin/sh
# Written by slurm/tests/pack_slurm.sh: the packed $p with the pack's libraries, given to the
# dynamic loader (no LD_LIBRARY_PATH in the environment, which sbatch would pass to the jobs).
pack=\$(cd "\$(dirname "\$0")/.." && pwd)
exec /lib64/ld-linux-x86-64.so.2 --library-path "\$pack/lib:\$pack/lib/slurm-wlm" --argv0 $p "\$pack/libexec/$p" "\$@"
EOF
  chmod 755 "$out/bin/$p"
done
plugins=$(dpkg -L slurm-wlm-basic-plugins | grep "^$plugdir/[^/]*\.so$")
for f in $plugins; do cp -L "$f" "$out/lib/slurm-wlm/" || die "cannot copy $f"; done

# Libraries: everything ldd lists for the programs and plugins, except the plugin folder's own
# (libslurmfull.so) and glibc's (package libc6: they must be the target's, matching its ld.so).
is_glibc() {
  case $(basename "$1") in
    libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|libresolv.so.*|ld-linux*|libutil.so.*|libanl.so.*|libmvec.so.*|libnss_*|libBrokenLocale.so.*|libcrypt.so.1) return 0 ;;
  esac
  dpkg -S "$(readlink -f "$1")" 2>/dev/null | grep -q '^libc6[:,]' && return 0
  dpkg -S "$1" 2>/dev/null | grep -q '^libc6[:,]'
}
missing=""
libs=$(for f in "$out"/sbin/* "$out"/libexec/* "$out"/lib/slurm-wlm/*.so; do
  ldd "$f" 2>/dev/null | awk -v src="$f" '/not found/ { print "MISSING", $1 "(" src ")" } / => \// { print $1, $3 }'
done | sort -u)
packed_libs=""
while read -r name path; do
  [ -n "$name" ] || continue
  if [ "$name" = MISSING ]; then missing="$missing $path"; continue; fi
  case $path in "$plugdir"/*) continue ;; esac
  is_glibc "$path" && continue
  cp -L "$path" "$out/lib/$name" || die "cannot copy $path"
  packed_libs="$packed_libs $name"
done <<<"$libs"
[ -z "$missing" ] || die "libraries not found here:$missing"

size=$(du -sk "$out" | cut -f1)
{
  echo "# Debian's Slurm and munge, packed by slurm/tests/pack_slurm.sh on $(hostname) at $(date -u '+%F %T') UTC"
  echo "# for slurm/tests/gpu_cluster.sh PACKDIR on a machine without Slurm (x86_64, glibc >= the packing host's)"
  echo "host: $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-?}"), $(ldd --version | head -n 1)"
  echo "packages: $(dpkg-query -W -f '${Package}=${Version} ' slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge libmunge2)"
  echo "sbin: $daemons"
  echo "bin (wrappers of libexec/): $clients"
  echo "lib/slurm-wlm: $(echo "$plugins" | wc -l) plugins of slurm-wlm-basic-plugins + libslurmfull.so"
  echo "lib:$packed_libs"
  echo "size: $((size / 1024)) MiB ($size KiB)"
} >"$out/MANIFEST.txt"
[ "$size" -le $((64 * 1024)) ] || die "$out is $((size / 1024)) MiB, more than the 64 MiB that can be carried"
echo "packed into $out: $((size / 1024)) MiB ($size KiB); $(echo "$packed_libs" | wc -w) libraries; see $out/MANIFEST.txt"
