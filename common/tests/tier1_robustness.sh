# Tier 1 (no GPU needed): the shared command-line and file contract, run against every
# program of the repository (README.md, "One command line" and "Data safety"): strict
# integers, one-line messages, --help=, --only items, FIFOs/directories/devices/proc files
# refused without blocking, nothing created on exit 2 or 3, --print-csv-header's core
# columns. Each case is bounded by a timeout: a hang fails it.
#
# Then the rest of the contract, the same way for every program (t_more_cli_cases): integers of
# any length, outputs that can never be written, pseudo-files, --csv and --output naming one
# file, a huge --csv, standard output that cannot be written; then what `make -n` and `make
# report` (without a GPU) may do. A program's tiny run is its Makefile's SMALL_ARGS
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
  # Standard output that cannot be written.
  t_stdout_error "$name --help > /dev/full: an error" "$prog" --help
  t_stdout_error "$name --print-csv-header > /dev/full: an error" "$prog" --print-csv-header
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
