# Tier 1 (no GPU needed): the shared command-line and file contract, run against every
# program of the repository (README.md, "One command line" and "Data safety"): strict
# integers, one-line messages, --help=, --only items, FIFOs/directories/devices/proc files
# refused without blocking, nothing created on exit 2 or 3, --print-csv-header's core
# columns. Each case is bounded by a timeout: a hang fails it.
#
# Then the rest of the contract, the same way for every program (t_more_cli_cases): integers of
# any length, outputs that can never be written, pseudo-files, --csv and --output naming one
# file, a huge --csv and a huge --input, standard output that cannot be written or is a closed
# pipe, --list-versions checking the other options; then (t_commit_cases, with a program's host
# versions: no GPU needed) what a run that fails late commits: nothing; then what `make -n`
# and `make report` (without a GPU) may do. A program's tiny run is its Makefile's SMALL_ARGS
# (common/assignment.mk); what is one program's own is in its tests/.

# t_stdout_error NAME CMD...: standard output is /dev/full: a non-zero exit and one line on
# stderr saying so (GNU tools' rule), within 10 s.
t_stdout_error() {
  local name=$1; shift
  timeout 10 "$@" >/dev/full 2>"$CW_TEST_TMP/full.err"
  local status=$?
  if [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ "$(wc -l <"$CW_TEST_TMP/full.err")" -eq 1 ] &&
     grep -q 'cannot write standard output' "$CW_TEST_TMP/full.err"; then
    t_pass "$name"
  else
    t_fail "$name" "exit $status, stderr: $(head -c 200 "$CW_TEST_TMP/full.err" | tr '\n' ' ')"
  fi
}

# The helpers of the cases below: cw_probe (a Python script, common to them) runs a command
#   cw_probe closed-pipe CMD...        with standard output a pipe whose reader is gone
#   cw_probe pause-remove DIR CMD...   with standard output a small pipe, full but for a few
#                                      bytes: once the command's first flush lands (every check
#                                      passed, the run begun) DIR is removed, then the pipe drained
#   cw_probe run CMD...                as it is
# each with SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE and SIGXFSZ at their defaults (a test run
# in the background inherits SIGINT and SIGQUIT ignored), core dumps off, its standard error in
# $CW_TEST_TMP/probe.err, and exits with the command's status (128+N when killed by signal N).
cw_probe() {
  local py=$CW_TEST_TMP/probe.py
  [ -f "$py" ] || cat >"$py" <<'PY'
import fcntl, os, resource, shutil, signal, subprocess, sys, termios, time
def defaults():
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(s, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
mode, args = sys.argv[1], sys.argv[2:]
err = open(os.environ["CW_PROBE_ERR"], "w")
if mode == "run":
    status = subprocess.call(args, stderr=err, preexec_fn=defaults)
elif mode == "closed-pipe":
    r, w = os.pipe()
    os.close(r)
    p = subprocess.Popen(args, stdout=w, stderr=err, preexec_fn=defaults)
    os.close(w)
    status = p.wait()
elif mode == "pause-remove":
    folder, args = args[0], args[1:]
    r, w = os.pipe()
    fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ: one page
    left = 160  # room for the first flush ("CPU versions only", "planned: N runs"), not for what follows
    os.write(w, b"#" * (fcntl.fcntl(w, 1032) - left))  # F_GETPIPE_SZ
    p = subprocess.Popen(args, stdout=w, stderr=err, preexec_fn=defaults)
    os.close(w)
    def queued():
        import array
        n = array.array("i", [0])
        fcntl.ioctl(r, termios.FIONREAD, n)
        return n[0]
    full = queued()
    deadline = time.time() + 60
    while queued() == full and p.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    if p.poll() is not None or queued() == full:
        sys.stderr.write("probe: the command did not pause in its run (exit %s)\n" % p.poll())
        p.kill()
        sys.exit(125)
    shutil.rmtree(folder)
    while os.read(r, 65536):
        pass
    status = p.wait()
sys.exit(128 - status if status < 0 else status)
PY
  CW_PROBE_ERR=$CW_TEST_TMP/probe.err timeout "${CW_CASE_TIMEOUT:-120}" python3 "$py" "$@"
}
cw_probe_lines() { wc -l <"$CW_TEST_TMP/probe.err"; }

# t_closed_pipe NAME CMD...: standard output a closed pipe: exit 2 and one line saying so
# (README.md, "Exit status"), not a silent death by SIGPIPE.
t_closed_pipe() {
  local name=$1 status; shift
  cw_probe closed-pipe "$@"; status=$?
  if [ "$status" -eq 2 ] && [ "$(cw_probe_lines)" -eq 1 ] &&
     grep -q 'error: cannot write standard output: Broken pipe' "$CW_TEST_TMP/probe.err"; then
    t_pass "$name"
  else
    t_fail "$name" "exit $status, stderr: $(head -c 200 "$CW_TEST_TMP/probe.err" | tr '\n' ' ')"
  fi
}

# t_more_cli_cases PROGRAM SMALL_ARGS: the cases below for one program (SMALL_ARGS: a tiny run,
# several options, split into words on purpose).
# shellcheck disable=SC2086
t_more_cli_cases() {
  local prog=$1 small=$2 name
  name=$(basename "$prog")
  CW_ROBUST_DIR=$CW_TEST_TMP/robust2-$name
  rm -rf "$CW_ROBUST_DIR"; mkdir -p "$CW_ROBUST_DIR"
  local d=$CW_ROBUST_DIR digits41 long
  digits41=$(printf '9%.0s' $(seq 41))
  # Integers of any length: past 40 characters still the one out-of-range message, and
  # leading zeros are only zeros (--print-csv-header: accepted means exit 0, no GPU needed).
  expect_refusal "$name 45 digits: out of range" "option --repeat=9{45} is out of range \[1, 100000\]" "$prog" "--repeat=9999${digits41}"
  expect_refusal "$name 2^ and 41 digits: out of range" "option --repeat=2\^9{41} is out of range" "$prog" "--repeat=2^${digits41}"
  expect_refusal "$name 1e and 41 digits: out of range" "option --repeat=1e9{41} is out of range" "$prog" "--repeat=1e${digits41}"
  expect_exit 0 "$name leading zeros: --repeat=0...03 (46 characters) is 3" "$prog" --print-csv-header "--repeat=$(printf '0%.0s' $(seq 45))3"
  # Outputs that can never be written: exit 2 naming the path, before the device probe (exit 3).
  expect_refusal "$name --output in /proc refused" "output file '/proc/x'" "$prog" $small --output=/proc/x
  expect_refusal "$name --csv in /sys refused" "CSV file '/sys/kernel/x'" "$prog" $small --csv=/sys/kernel/x
  long=$(printf 'a%.0s' $(seq 300))
  expect_refusal "$name --output with a 300-byte name refused" "output file '.*$long'.*300 bytes" "$prog" $small --output="$d/$long"
  # Pseudo-files: sysfs reports 4096 bytes whatever a file holds; refused at once, like /proc.
  local sysfile=/sys/kernel/mm/transparent_hugepage/enabled
  if [ -f "$sysfile" ]; then
    expect_refusal "$name sysfs file as --input refused" "input file '$sysfile' is a pseudo-file of sysfs" "$prog" --input="$sysfile"
  else
    t_skip "$name sysfs file as --input refused" "$sysfile does not exist here"
  fi
  # --csv and --output naming one file, however it is spelled.
  "$prog" --print-csv-header >"$d/rows.csv"
  ln -s rows.csv "$d/link.csv"
  expect_refusal "$name --csv and --output: one new file" "same file" "$prog" $small --csv="$d/new.x" --output="$d/new.x"
  expect_refusal "$name --csv and --output: ./x and x" "same file" "$prog" $small --csv="$d/new.x" --output="$d/./new.x"
  expect_refusal "$name --csv and --output: a symlink and its file" "same file" "$prog" $small --csv="$d/rows.csv" --output="$d/link.csv"
  # A huge --csv (6 GiB, sparse, no newline): the header check reads what it needs, not the
  # file. The program runs under a 1 GiB address-space limit (a whole read cannot take the
  # machine's memory), and its peak resident memory may exceed that of the same command with a
  # small --csv (the libraries' pages) by 64 MB at most.
  truncate -s 6G "$d/huge.csv"
  printf 'x\n' >"$d/small.csv"
  local peak=$CW_TEST_TMP/peak.py
  cat >"$peak" <<'PY'
import resource, subprocess, sys
limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
status = subprocess.call(sys.argv[2:], preexec_fn=limit)
open(sys.argv[1], "w").write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(status)
PY
  python3 "$peak" "$CW_TEST_TMP/small.rss" "$prog" $small --csv="$d/small.csv" 2>/dev/null
  expect_refusal "$name 6 GiB --csv refused" "CSV file '.*huge.csv' has different columns" \
    python3 "$peak" "$CW_TEST_TMP/huge.rss" "$prog" $small --csv="$d/huge.csv"
  rm -f "$d/huge.csv" "$d/small.csv"
  local rss_small rss_huge
  rss_small=$(cat "$CW_TEST_TMP/small.rss" 2>/dev/null) rss_huge=$(cat "$CW_TEST_TMP/huge.rss" 2>/dev/null)
  if [ -n "$rss_small" ] && [ -n "$rss_huge" ] && [ "$rss_huge" -lt $((rss_small + 65536)) ]; then
    t_pass "$name 6 GiB --csv: a bounded header read (peak ${rss_huge} KB, ${rss_small} KB with a small file)"
  else
    t_fail "$name 6 GiB --csv: a bounded header read" "peak resident memory '$rss_huge' KB, '$rss_small' KB with a small file"
  fi
  # A huge --input (1 TiB, sparse): its size against the limits and the host memory, before a
  # byte is read (colreduce's limit in rows lets 1 TiB through: host memory refuses it).
  local help size_args=""
  help=$("$prog" --help 2>&1)
  grep -q -- '--input=.*give --n' <<<"$help" && size_args=--n=1024
  truncate -s 1T "$d/huge.bin"
  expect_refusal "$name 1 TiB --input refused at once" \
    "input file '.*huge.bin' (holds [0-9]+ elements, more than|needs [0-9]+ MiB of host memory)" \
    "$prog" $size_args --input="$d/huge.bin"
  rm -f "$d/huge.bin"
  # Standard output that cannot be written.
  t_stdout_error "$name --help > /dev/full: an error" "$prog" --help
  t_stdout_error "$name --print-csv-header > /dev/full: an error" "$prog" --print-csv-header
  t_closed_pipe "$name --help | (closed): one line, exit 2" "$prog" --help
  t_closed_pipe "$name --print-csv-header | (closed): one line, exit 2" "$prog" --print-csv-header
  t_closed_pipe "$name --list-versions | (closed): one line, exit 2" "$prog" --list-versions
  # --list-versions checks the other options as --print-csv-header does.
  expect_refusal "$name --list-versions checks --only" "unknown version 'bogus'" "$prog" --list-versions --only=bogus
  expect_refusal "$name --list-versions checks the outputs" "output file '/proc/x'" "$prog" --list-versions --output=/proc/x
  expect_refusal "$name --list-versions with --print-csv-header" "exclude each other" "$prog" --list-versions --print-csv-header
}

# t_commit_cases PROGRAM SMALL_ARGS: a run that fails late writes nothing (README.md, "Data
# safety"): a run of the program's host versions (no GPU needed; skipped for a program without
# one) with --csv (an existing file, which must stay as it was) and --output (a new file, which
# must not appear), no temporary left beside either, when standard output is /dev/full or a
# closed pipe, the output's folder is removed mid-run, the commit meets a file-size limit, or a
# signal arrives while the files are written or renamed.
# shellcheck disable=SC2086,SC2206
t_commit_cases() {
  local prog=$1 small=$2 name host
  name=$(basename "$prog")
  host=$("$prog" --list-versions | awk '$5 == "host" { print $1 }' | paste -sd, -)
  if [ -z "$host" ]; then
    t_skip "$name: what a run that fails late commits" "no host version (every run needs a GPU)"
    return
  fi
  local d=$CW_TEST_TMP/commit-$name
  rm -rf "$d"; mkdir -p "$d"
  local run=("$prog" $small --only="$host" --repeat=1 --warmup=0)
  # A good run first: it writes both (and the CSV every later case must leave alone).
  if ! "${run[@]}" --csv="$d/rows.csv" --output="$d/first.bin" >/dev/null 2>"$d/err" || [ ! -s "$d/first.bin" ]; then
    t_fail "$name: a run of its host versions writes --csv and --output" "$(head -c 200 "$d/err")"
    return
  fi
  local sum
  sum=$(md5sum <"$d/rows.csv")
  # NAME STATUS PATTERN [--committed]: the last command's status and its one-line message;
  # then nothing committed (or, with --committed, both written), and no temporary left.
  commit_verdict() {
    local case_name="$name: $1" want=$2 pattern=$3 committed=${4:-}
    local got=$T_STATUS left
    left=$(find "$d" -mindepth 1 -name '*.tmp.*' -o -mindepth 1 -name '*.old.*' -o -mindepth 1 -name 'core*' | head -n 3 | tr '\n' ' ')
    if [ "$got" -ne "$want" ]; then t_fail "$case_name" "exit $got, expected $want: $(head -c 200 "$CW_TEST_TMP/probe.err" | tr '\n' ' ')"
    elif [ -n "$pattern" ] && { [ "$(cw_probe_lines)" -ne 1 ] || ! grep -Eq -- "$pattern" "$CW_TEST_TMP/probe.err"; }; then
      t_fail "$case_name" "stderr is not one line matching /$pattern/: $(head -c 300 "$CW_TEST_TMP/probe.err" | tr '\n' ' ')"
    elif [ -n "$left" ]; then t_fail "$case_name" "left behind: $left"
    elif [ -z "$committed" ] && { [ -e "$d/new.bin" ] || [ "$(md5sum <"$d/rows.csv")" != "$sum" ]; }; then
      t_fail "$case_name" "written: $(ls "$d" | tr '\n' ' '), rows.csv $(wc -l <"$d/rows.csv") lines"
    elif [ -n "$committed" ] && { [ ! -s "$d/new.bin" ] || [ "$(md5sum <"$d/rows.csv")" = "$sum" ]; }; then
      t_fail "$case_name" "not committed: $(ls "$d" | tr '\n' ' ')"
    else
      t_pass "$case_name"
    fi
    rm -f "$d/new.bin"
    find "$d" -mindepth 1 \( -name '*.tmp.*' -o -name '*.old.*' -o -name 'core*' \) -delete  # each case on its own
    cp "$d/rows.keep" "$d/rows.csv"
  }
  cp "$d/rows.csv" "$d/rows.keep"
  # Standard output that fails: /dev/full (found at the first flush), a closed pipe.
  cw_probe run "${run[@]}" --csv="$d/rows.csv" --output="$d/new.bin" >/dev/full; T_STATUS=$?
  commit_verdict "standard output /dev/full: exit 2, nothing written" 2 'cannot write standard output'
  cw_probe closed-pipe "${run[@]}" --csv="$d/rows.csv" --output="$d/new.bin"; T_STATUS=$?
  commit_verdict "standard output a closed pipe: exit 2, nothing written" 2 'cannot write standard output: Broken pipe'
  # The output's folder removed once the run has begun: the CSV is not appended either.
  mkdir -p "$d/gone"
  cw_probe pause-remove "$d/gone" "${run[@]}" --csv="$d/rows.csv" --output="$d/gone/new.bin"; T_STATUS=$?
  commit_verdict "--output's folder removed mid-run: exit 2, the CSV not appended" 2 "cannot write output file '.*gone/new.bin'"
  # A file-size limit (ulimit -f) that the CSV's commit passes: exit 2 (EFBIG, not SIGXFSZ).
  local limit_kib=64
  { cat "$d/rows.keep"; for _ in $(seq 1000); do tail -n +2 "$d/rows.keep"; done; } 2>/dev/null |
    head -c $((limit_kib * 1024 - 64)) >"$d/rows.csv"
  printf '\n' >>"$d/rows.csv"
  cp "$d/rows.csv" "$d/rows.big"
  sum=$(md5sum <"$d/rows.csv")
  cp "$d/rows.big" "$d/rows.keep"
  cw_probe run bash -c 'ulimit -f "$0"; exec "$@"' "$limit_kib" "${run[@]}" --csv="$d/rows.csv" --output="$d/new.bin" >/dev/null; T_STATUS=$?
  commit_verdict "a file-size limit (ulimit -f) during the commit: exit 2, nothing written" 2 "cannot write CSV file '.*rows.csv': File too large"
  head -n 2 "$d/rows.big" >"$d/rows.keep"
  cp "$d/rows.keep" "$d/rows.csv"
  sum=$(md5sum <"$d/rows.csv")
  # Signals while the temporaries exist (raised by a preloaded fchmod, called on each complete
  # temporary) and during the renames (raised by rename: held until the commit is undone).
  local shim=$CW_TEST_TMP/raise_shim.so
  if [ ! -f "$shim" ]; then
    cat >"$CW_TEST_TMP/raise_shim.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
/* CW_RAISE=N CW_RAISE_AT=fchmod|rename CW_RAISE_CALL=K: raise signal N in the K-th call. */
static void maybe_raise(const char* where) {
    static int calls = 0;
    const char* at = getenv("CW_RAISE_AT");
    const char* sig = getenv("CW_RAISE");
    const char* k = getenv("CW_RAISE_CALL");
    if (at != NULL && sig != NULL && strcmp(at, where) == 0 && ++calls == (k != NULL ? atoi(k) : 1)) raise(atoi(sig));
}
int fchmod(int fd, mode_t mode) {
    int (*real)(int, mode_t) = (int (*)(int, mode_t))dlsym(RTLD_NEXT, "fchmod");
    maybe_raise("fchmod");
    return real(fd, mode);
}
int rename(const char* from, const char* to) {
    int (*real)(const char*, const char*) = (int (*)(const char*, const char*))dlsym(RTLD_NEXT, "rename");
    maybe_raise("rename");
    return real(from, to);
}
C
    cc -shared -fPIC -o "$shim" "$CW_TEST_TMP/raise_shim.c" -ldl 2>"$CW_TEST_TMP/shim.log"
  fi
  if [ ! -f "$shim" ]; then
    t_skip "$name: signals during the commit" "cannot build a preload shim: $(head -n 1 "$CW_TEST_TMP/shim.log")"
    return
  fi
  local sig n
  for sig in INT TERM HUP QUIT; do
    n=$(kill -l "$sig")
    cw_probe run env LD_PRELOAD="$shim" CW_RAISE="$n" CW_RAISE_AT=fchmod CW_RAISE_CALL=2 \
      "${run[@]}" --csv="$d/rows.csv" --output="$d/new.bin" >/dev/null; T_STATUS=$?
    commit_verdict "SIG$sig while the files are written: killed by it, no temporary left" $((128 + n)) ""
  done
  for sig in PIPE XFSZ; do
    n=$(kill -l "$sig")
    cw_probe run env LD_PRELOAD="$shim" CW_RAISE="$n" CW_RAISE_AT=fchmod CW_RAISE_CALL=2 \
      "${run[@]}" --csv="$d/rows.csv" --output="$d/new.bin" >/dev/null; T_STATUS=$?
    commit_verdict "SIG$sig while the files are written: ignored, both committed, no temporary left" 0 "" --committed
  done
  n=$(kill -l TERM)
  cw_probe run env LD_PRELOAD="$shim" CW_RAISE="$n" CW_RAISE_AT=rename CW_RAISE_CALL=1 \
    "${run[@]}" --csv="$d/rows.csv" --output="$d/new.bin" >/dev/null; T_STATUS=$?
  commit_verdict "SIGTERM between the renames: killed by it, the commit undone" $((128 + n)) ""
}

for cw_a in $(bash "$CW_COMMON_DIR/scripts/assignments.sh"); do
  cw_prog=$CW_COMMON_DIR/../$cw_a/bin/$cw_a
  if [ ! -x "$cw_prog" ]; then
    t_skip "$cw_a: shared command-line contract" "$cw_a/bin/$cw_a is not built (make all first)"
    continue
  fi
  cw_small=$(make --no-print-directory -s -C "$CW_COMMON_DIR/../$cw_a" print-SMALL_ARGS)
  t_shared_cli_cases "$cw_prog" "$cw_small"
  t_more_cli_cases "$cw_prog" "$cw_small"
  t_commit_cases "$cw_prog" "$cw_small"
done

# make -n prints and runs nothing; make report without a GPU says so first and stops. In a
# copy of the top-level Makefile, common/ and the first assignment without build outputs (a
# clean clone).
cw_root=$(cd "$CW_COMMON_DIR/.." && pwd)
cw_one=$(bash "$CW_COMMON_DIR/scripts/assignments.sh" | awk '{ print $1 }')
cw_clone=$CW_TEST_TMP/clean-clone
rm -rf "$cw_clone"; mkdir -p "$cw_clone"
tar -C "$cw_root" --exclude=./common/build --exclude=./common/bin --exclude="./$cw_one/build" --exclude="./$cw_one/bin" \
  -cf - ./Makefile ./common "./$cw_one" | tar -C "$cw_clone" -xf -
CW_CASE_TIMEOUT=120 t_run make -C "$cw_clone/$cw_one" -n profile
if [ "$T_STATUS" -eq 0 ] && [ ! -e "$cw_clone/$cw_one/build/runs" ] && ! grep -q 'staging in' "$T_OUT" "$T_ERR"; then
  t_pass "make -n profile on a clean clone runs nothing (no staged run)"
else
  t_fail "make -n profile on a clean clone runs nothing (no staged run)" "exit $T_STATUS; $(ls "$cw_clone/$cw_one/build/runs" 2>/dev/null | head -n 1)"
fi
# In a built tree make -n lists only what would run: common's devinfo, just brought up to date.
make -C "$CW_COMMON_DIR" --no-print-directory bin/devinfo >"$CW_TEST_TMP/make.log" 2>&1
CW_CASE_TIMEOUT=60 t_run make -C "$CW_COMMON_DIR" --no-print-directory -n bin/devinfo
if [ "$T_STATUS" -eq 0 ] && ! grep -Eq -- '/nvcc |-c -o ' "$T_OUT"; then
  t_pass "make -n in a built tree lists no compile"
else
  t_fail "make -n in a built tree lists no compile" "exit $T_STATUS: $(grep -Ec -- '/nvcc |-c -o ' "$T_OUT") compile lines"
fi
if cw_gpus=$(nvidia-smi -L 2>/dev/null) && [ "${cw_gpus#GPU}" != "$cw_gpus" ]; then
  t_skip "make report without a GPU: one line first, nothing built or staged" "a GPU is present (nvidia-smi -L)"
else
  CW_CASE_TIMEOUT=120 t_run make -C "$cw_clone" --no-print-directory report
  if [ "$T_STATUS" -ne 0 ] && head -n 1 "$T_ERR" | grep -q 'no usable CUDA GPU.*make plots' &&
     ! grep -q . "$T_OUT" && [ ! -e "$cw_clone/$cw_one/bin" ] && [ ! -e "$cw_clone/$cw_one/build/runs" ]; then
    t_pass "make report without a GPU: one line first, nothing built or staged"
  else
    t_fail "make report without a GPU: one line first, nothing built or staged" "exit $T_STATUS: $(head -n 1 "$T_OUT" "$T_ERR" | tr '\n' ' ')"
  fi
fi
rm -rf "$cw_clone"
