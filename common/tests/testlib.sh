# Test helpers for the shell tiers (sourced by run_tests.sh; tests/cli_test.sh and
# tests/gpu_test.sh of each assignment use them). Each case prints one line
#   PASS|FAIL|SKIP <suite>: <case> [-- detail]
# and appends it to $CW_TEST_RESULTS, which run_tests.sh and the top-level Makefile count.
# shellcheck shell=bash

CW_SUITE=${CW_SUITE:-tests}
: "${CW_TEST_RESULTS:?CW_TEST_RESULTS must name the results file}"
CW_TEST_TMP=${CW_TEST_TMP:-$(mktemp -d)}

t_record() {  # STATUS NAME [DETAIL]
  local line="$1 $CW_SUITE: $2"
  [ -n "${3:-}" ] && line="$line -- $3"
  echo "$line" >>"$CW_TEST_RESULTS"
  if [ "$1" = SKIP ]; then t_skip_group "$2" "${3:-}"; return; fi
  t_skip_flush
  echo "$line"
}
# On the console, consecutive skipped cases of a suite with one reason make one line (the GPU
# tier without a GPU: every case, one reason), printed when the group ends:
#   SKIP pi: 42 cases (pi at n=1 ... pi --inject-fault) -- no usable CUDA device: ...
# The results file keeps every case (t_summary counts them and groups them by reason). The
# group lives in a file, so that cases recorded in a subshell are not lost.
t_skip_group_file() { echo "$CW_TEST_TMP/.skip-group"; }
t_skip_group() {  # NAME REASON
  local f count=0 reason="" first="" last=""
  f=$(t_skip_group_file)
  if [ -s "$f" ]; then
    { read -r count; IFS= read -r reason; IFS= read -r first; IFS= read -r last; } <"$f"
    if [ "$reason" != "$2" ]; then t_skip_flush; count=0; fi
  fi
  [ "$count" -eq 0 ] && first=$1
  printf '%s\n%s\n%s\n%s\n' "$((count + 1))" "$2" "$first" "$1" >"$f"
}
t_skip_flush() {
  local f count reason first last
  f=$(t_skip_group_file)
  [ -s "$f" ] || return 0
  { read -r count; IFS= read -r reason; IFS= read -r first; IFS= read -r last; } <"$f"
  rm -f "$f"
  if [ "$count" -eq 1 ]; then echo "SKIP $CW_SUITE: $first${reason:+ -- $reason}"
  else
    [ ${#reason} -gt 160 ] && reason="${reason:0:157}..."
    echo "SKIP $CW_SUITE: $count cases ($first ... $last)${reason:+ -- $reason}"
  fi
}
t_pass() { t_record PASS "$1"; }
t_fail() { t_record FAIL "$1" "${2:-}"; }
t_skip() { t_record SKIP "$1" "$2"; }

# t_verdict NAME LOG: records the command just run (a check, or a && list of them): PASS if
# it succeeded, else FAIL with the last lines of LOG (the output of the script it checked).
#   python3 tables.py "$T" "$T/README.md" >"$T/tables.log" 2>&1 && grep -q '...' "$T/README.md"
#   t_verdict "tables.py fills every table" "$T/tables.log"
t_verdict() {
  local status=$?
  if [ "$status" -eq 0 ]; then t_pass "$1"; else t_fail "$1" "$(tail -n 3 "$2" | tr '\n' ' ')"; fi
}

# Runs a command, keeping its exit status in T_STATUS and its output in T_OUT / T_ERR
# (files). A command still running after CW_CASE_TIMEOUT seconds (default 300) is killed
# and counts as a hang (status 124).
t_run() {
  T_OUT=$CW_TEST_TMP/out T_ERR=$CW_TEST_TMP/err
  timeout "${CW_CASE_TIMEOUT:-300}" "$@" >"$T_OUT" 2>"$T_ERR"
  T_STATUS=$?
}

t_show_failure() {
  echo "    command exited $T_STATUS; last lines of its output:"
  tail -n 5 "$T_OUT" "$T_ERR" 2>/dev/null | sed 's/^/    | /'
}

# expect_exit CODE NAME CMD...: the command exits with CODE.
expect_exit() {
  local code=$1 name=$2; shift 2
  t_run "$@"
  if [ "$T_STATUS" -eq "$code" ]; then t_pass "$name"; else t_fail "$name" "exit $T_STATUS, expected $code"; t_show_failure; fi
}

# expect_usage_error NAME PATTERN CMD...: bad usage or input: exit 2, exactly one line on
# stderr that matches PATTERN (grep -E), and nothing on stdout that looks like a result.
expect_usage_error() {
  local name=$1 pattern=$2; shift 2
  t_run "$@"
  local lines
  lines=$(wc -l <"$T_ERR")
  if [ "$T_STATUS" -ne 2 ]; then
    t_fail "$name" "exit $T_STATUS, expected 2"; t_show_failure
  elif [ "$lines" -ne 1 ]; then
    t_fail "$name" "stderr has $lines lines, expected one"; t_show_failure
  elif ! grep -Eq -- "$pattern" "$T_ERR"; then
    t_fail "$name" "stderr '$(cat "$T_ERR")' does not match /$pattern/"
  elif grep -q 'Result = ' "$T_OUT"; then
    t_fail "$name" "a result was printed for bad input"
  else
    t_pass "$name"
  fi
}

# expect_output NAME PATTERN CMD...: exit 0 and stdout matches PATTERN.
expect_output() {
  local name=$1 pattern=$2; shift 2
  t_run "$@"
  if [ "$T_STATUS" -ne 0 ]; then t_fail "$name" "exit $T_STATUS"; t_show_failure
  elif ! grep -Eq -- "$pattern" "$T_OUT"; then t_fail "$name" "output does not match /$pattern/"; t_show_failure
  else t_pass "$name"; fi
}

# GPU availability, decided once per run by devinfo --check: CW_GPU_OK=1, or 0 with the reason.
cw_detect_gpu() {
  if [ -n "${CW_GPU_OK:-}" ]; then return; fi
  local devinfo=$CW_COMMON_DIR/bin/devinfo
  if [ ! -x "$devinfo" ]; then
    CW_GPU_OK=0 CW_GPU_REASON="common/bin/devinfo is not built"
  elif "$devinfo" --check >"$CW_TEST_TMP/devinfo.out" 2>"$CW_TEST_TMP/devinfo.err"; then
    CW_GPU_OK=1 CW_GPU_REASON=""
  else
    CW_GPU_OK=0
    CW_GPU_REASON="no usable CUDA device: $(head -n 1 "$CW_TEST_TMP/devinfo.err")"
  fi
  export CW_GPU_OK CW_GPU_REASON
}

# gpu_case NAME CMD...: a GPU run that must exit 0, print its "planned: N runs" line, and
# account for every planned run: as many "Result = PASS" lines plus labelled demonstration
# lines (": demonstration, not validated") as runs planned, at least one PASS, no FAIL. A
# version that silently drops out of a run is caught, not only one that fails. CMD may run
# the program several times (a loop over --blocks, say): the plans of all its runs add up.
# Skipped with the reason where there is no GPU.
gpu_case() {
  local name=$1; shift
  cw_detect_gpu
  if [ "$CW_GPU_OK" != 1 ]; then t_skip "$name" "$CW_GPU_REASON"; return; fi
  t_run "$@"
  local planned pass demo
  planned=$(sed -n 's/^planned: \([0-9]*\) runs$/\1/p' "$T_OUT" | awk '{ s += $1 } END { if (NR) print s }')
  pass=$(grep -c 'Result = PASS' "$T_OUT")
  demo=$(grep -c ': demonstration, not validated$' "$T_OUT")
  if [ "$T_STATUS" -ne 0 ]; then t_fail "$name" "exit $T_STATUS"; t_show_failure
  elif grep -q 'Result = FAIL' "$T_OUT"; then t_fail "$name" "a version failed"; t_show_failure
  elif [ -z "$planned" ]; then t_fail "$name" "no 'planned: N runs' line"; t_show_failure
  elif [ "$pass" -lt 1 ] || [ $((pass + demo)) -ne "$planned" ]; then
    t_fail "$name" "$pass PASS + $demo demonstration lines, $planned runs planned"; t_show_failure
  else t_pass "$name"; fi
}

# vary_input_case: every validated version of the program, each runner launched again on two
# more seeded inputs of its size (--vary-input=2) and checked each time, over the sizes of the
# assignment's VARY_ARGS (its Makefile: several sizes, largest first, none a multiple of a block
# or tile), so that state a version keeps between launches (descriptors, counters, a cached
# result) cannot carry one input's answer into the next; a program without VARY_ARGS has no
# input data to vary (it refuses --vary-input, tier 1).
vary_input_case() {
  local args
  args=$(make --no-print-directory -s print-VARY_ARGS 2>/dev/null)
  [ -n "$args" ] || return 0
  # shellcheck disable=SC2086
  gpu_case "every validated version, each runner on 3 inputs in a row (--vary-input=2, $args)" \
    "bin/$CW_SUITE" $args --vary-input=2 --repeat=2 --warmup=1
}

# gpu_expect_exit CODE NAME CMD...: a GPU run that must end with CODE (e.g. 2 for a size
# the device cannot take); skipped where there is no GPU.
gpu_expect_exit() {
  local code=$1 name=$2; shift 2
  cw_detect_gpu
  if [ "$CW_GPU_OK" != 1 ]; then t_skip "$name" "$CW_GPU_REASON"; return; fi
  expect_exit "$code" "$name" "$@"
}

# sanitize TOOL NAME CMD...: compute-sanitizer --tool TOOL finds nothing and the program
# passes; skipped where there is no GPU or no compute-sanitizer.
sanitize() {
  local tool=$1 name=$2; shift 2
  cw_detect_gpu
  if [ "$CW_GPU_OK" != 1 ]; then t_skip "$name" "$CW_GPU_REASON"; return; fi
  local cs
  cs=$(command -v compute-sanitizer || ls "${CUDA_PATH:-/usr/local/cuda}"/bin/compute-sanitizer 2>/dev/null)
  if [ -z "$cs" ]; then t_skip "$name" "compute-sanitizer not found"; return; fi
  t_run "$cs" --tool "$tool" --error-exitcode 99 "$@"
  if [ "$T_STATUS" -ne 0 ]; then t_fail "$name" "exit $T_STATUS under $tool"; t_show_failure
  elif ! grep -Eq 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards' "$T_OUT" ||
       grep -Eq 'ERROR SUMMARY: [1-9]|RACECHECK SUMMARY: [1-9]' "$T_OUT"; then t_fail "$name" "$tool reported errors"; t_show_failure
  else t_pass "$name"; fi
}

# gpu_fault_case NAME CSV OUTPUT CMD...: a run with --inject-fault whose CMD writes --csv=CSV
# and --output=OUTPUT must FAIL every planned run: exit 1, as many "Result = FAIL" lines as its
# "planned: N runs" line says, no "Result = PASS", and neither CSV nor OUTPUT left behind (both
# are removed first). Skipped where there is no GPU.
gpu_fault_case() {
  local name=$1 csv=$2 out=$3; shift 3
  cw_detect_gpu
  if [ "$CW_GPU_OK" != 1 ]; then t_skip "$name" "$CW_GPU_REASON"; return; fi
  rm -f "$csv" "$out"
  t_run "$@"
  local planned fails
  planned=$(sed -n 's/^planned: \([0-9]*\) runs$/\1/p' "$T_OUT" | head -n 1)
  fails=$(grep -c 'Result = FAIL' "$T_OUT")
  if [ "$T_STATUS" -eq 1 ] && [ -n "$planned" ] && [ "$fails" -eq "$planned" ] && ! grep -q 'Result = PASS' "$T_OUT" &&
     [ ! -e "$csv" ] && [ ! -e "$out" ]; then
    t_pass "$name"
  else
    t_fail "$name" "exit $T_STATUS, planned '$planned', $fails FAIL lines"; t_show_failure
  fi
}

# figure_case NAME SCRIPT CSV PNG LOG: `gnuplot -c SCRIPT CSV PNG` exits 0, PNG is not empty
# and gnuplot's output (kept in LOG) has no warning or error; skipped where gnuplot is not
# installed.
figure_case() {
  local name=$1 gp=$2 csv=$3 png=$4 log=$5
  if ! command -v gnuplot >/dev/null; then t_skip "$name" "gnuplot not installed"; return; fi
  if gnuplot -c "$gp" "$csv" "$png" >"$log" 2>&1 && [ -s "$png" ] && ! grep -qiE 'warning|error' "$log"; then
    t_pass "$name"
  else
    t_fail "$name" "$(head -n 3 "$log" | tr '\n' ' ')"
  fi
}

# ---- An assignment README as students read it (tier 1, run from the assignment folder) ----

# ---- Nsight Compute: make profile's path on small shapes (tier 2; run from an assignment) ----

# ncu_profile_case NAME DIR RUNS EXPECT...: common/scripts/ncu_profile.sh on a few small shapes, into
# a fresh DIR/profile.csv (ncu's logs in DIR/ncu, the scripts' output in DIR/ncu.out). RUNS is
# a function that calls ncu_profile_run once for each profiling run; NCU_METRICS holds the
# Makefile's PROFILE_METRICS meanwhile. Passes when every run exits 0 and the CSV meets every
# EXPECT (see ncu_profile_check); skipped with ncu_profile.sh --check's words where Nsight
# Compute or a GPU is missing.
ncu_profile_case() {
  local name=$1 dir=$2 runs=$3; shift 3
  local reason check NCU_DIR=$dir NCU_OK=1 NCU_METRICS
  if ! reason=$(bash ../common/scripts/ncu_profile.sh --check 2>&1); then t_skip "$name" "$reason"; return; fi
  rm -f "$dir/profile.csv"
  : >"$dir/ncu.out"
  NCU_METRICS=$(make --no-print-directory -s print-profile-metrics)
  "$runs"
  check=$(ncu_profile_check "$dir/profile.csv" "$NCU_METRICS" "$@")
  if [ "$NCU_OK" = 1 ] && [ "$check" = ok ]; then t_pass "$name"
  else t_fail "$name" "$check"; tail -n 5 "$dir/ncu.out"; fi
}

# ncu_profile_run ASSIGNMENT VERSION "M" N "METRICS" [NCU OPTIONS] PROGRAM [ARGS...]: inside
# ncu_profile_case's RUNS, one `ncu_profile.sh NCU_DIR/profile.csv ARGS...` (its arguments as
# that script takes them after OUT.csv); a run that fails makes the case fail.
ncu_profile_run() {
  CW_PROFILE_LOG_DIR=$NCU_DIR/ncu bash ../common/scripts/ncu_profile.sh "$NCU_DIR/profile.csv" "$@" >>"$NCU_DIR/ncu.out" 2>&1 || NCU_OK=0
}

# ncu_profile_check CSV METRICS EXPECT...: prints "ok" if the tidy CSV (common/py/ncu_tidy.py's
# rows) meets every EXPECT, else what is wrong. METRICS is the comma list asked for. EXPECT:
#   VERSION=KERNEL  the version has exactly one kernel, whose name contains KERNEL, with a
#                   row for every metric of METRICS and no other
#   VERSION@GRID    the version's (first) kernel ran a grid of GRID blocks (launch__grid_size)
#   VERSION~KERNEL  some kernel of the version has KERNEL in its name
ncu_profile_check() {
  python3 - "$@" <<'PY' 2>&1
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
want = set(sys.argv[2].split(","))
by = {}
for r in rows:
    by.setdefault(r["version"], {}).setdefault(r["kernel"], {})[r["metric"]] = float(r["value"])
problems = []
for spec in sys.argv[3:]:
    v, op, arg = re.match(r"([^=@~]+)([=@~])(.*)$", spec).groups()
    ks = by.get(v, {})
    if op == "=":
        if len(ks) != 1 or arg not in next(iter(ks)):
            problems.append(f"{v}: kernels {list(ks)}")
            continue
        got = set(next(iter(ks.values())))
        if got != want:
            problems.append(f"{v}: missing {sorted(want - got)}")
    elif op == "@":
        m = next(iter(ks.values()), {})
        if m and m.get("launch__grid_size") != float(arg):
            problems.append(f"{v}: grid {m.get('launch__grid_size')}, not {arg}")
    elif not any(arg in k for k in ks):
        problems.append(f"{v}: kernels {list(ks)}")
print("ok" if not problems else "; ".join(problems))
PY
}

# profile_experiments_case NAME SUB FIGURE VERDICT COMMITTED MAKEVAR=VALUE...:
# make profile's recipe at a small size: `make profile-experiments RESULTS_DIR=R MAKEVAR=VALUE...`
# into a fresh R (P=$CW_TEST_TMP/profile, R=P/SUB, or P where SUB is empty; ncu's logs in
# P/ncu) exits 0; `VERDICT R/profile.csv METRICS` (a function; METRICS from `make
# print-profile-metrics`) prints "ok"; where gnuplot is installed, plots/FIGURE.gp draws
# P/profile.csv with no warning or error; and `tables.py R --out P/tables.md` (with the committed
# results/COMMITTED, a glob, beside the new profile.csv, never the committed one) exits 0 and
# fills every table that reads profile.csv.
# Skipped with ncu_profile.sh --check's words where Nsight Compute or a GPU is missing.
profile_experiments_case() {
  local name=$1 sub=$2 fig=$3 verdict_fn=$4 committed=$5; shift 5
  if ! bash ../common/scripts/ncu_profile.sh --check 2>"$CW_TEST_TMP/ncu.check"; then
    t_skip "$name" "$(head -n 1 "$CW_TEST_TMP/ncu.check")"; return
  fi
  local prof=$CW_TEST_TMP/profile
  local res=$prof${sub:+/$sub} verdict f
  rm -rf "$prof"; mkdir -p "$res"
  t_run env CW_PROFILE_LOG_DIR="$prof/ncu" make --no-print-directory -s profile-experiments RESULTS_DIR="$res" "$@"
  if [ "$T_STATUS" -ne 0 ]; then
    t_fail "$name" "make profile-experiments exited $T_STATUS"; t_show_failure; return
  fi
  verdict=$("$verdict_fn" "$res/profile.csv" "$(make --no-print-directory -s print-profile-metrics)")
  [ -n "$sub" ] && cp "$res/profile.csv" "$prof/profile.csv" 2>/dev/null
  # shellcheck disable=SC2086
  for f in results/$committed; do [ "$(basename "$f")" = profile.csv ] || cp "$f" "$res/" 2>/dev/null; done
  if [ "$verdict" != ok ]; then
    t_fail "$name" "$verdict"
  elif command -v gnuplot >/dev/null && ! gnuplot -c "plots/$fig.gp" "$prof/profile.csv" "$prof/$fig.png" >"$prof/gp.log" 2>&1 ||
       grep -qiE 'warning|error' "$prof/gp.log"; then
    t_fail "$name" "$fig.gp: $(head -n 2 "$prof/gp.log" | tr '\n' ' ')"
  elif ! python3 tables.py "$res" --out "$prof/tables.md" >"$prof/tables.log" 2>&1 ||
       grep -q "^(no data: profile.csv" "$prof/tables.md"; then
    t_fail "$name" "tables.py failed or left a profile table without data: $(tail -n 1 "$prof/tables.log")"
  else
    t_pass "$name"
  fi
}

# run_gtest BINARY: one result line per GoogleTest case.
run_gtest() {
  local bin=$1
  "$bin" --gtest_color=no >"$CW_TEST_TMP/gtest.out" 2>&1
  local status=$?
  local ok failed skipped
  ok=$(grep -Ec '^\[       OK \] .* \([0-9]+ ms\)$' "$CW_TEST_TMP/gtest.out")
  failed=$(grep -Ec '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$CW_TEST_TMP/gtest.out")
  skipped=$(grep -Ec '^\[  SKIPPED \] .* \([0-9]+ ms\)$' "$CW_TEST_TMP/gtest.out")
  grep -E '^\[       OK \] .* \([0-9]+ ms\)$' "$CW_TEST_TMP/gtest.out" | sed -E 's/^\[       OK \] (.*) \([0-9]+ ms\)$/\1/' |
    while read -r c; do echo "PASS $CW_SUITE: $c" >>"$CW_TEST_RESULTS"; done
  grep -E '^\[  SKIPPED \] .* \([0-9]+ ms\)$' "$CW_TEST_TMP/gtest.out" | sed -E 's/^\[  SKIPPED \] (.*) \([0-9]+ ms\)$/\1/' |
    while read -r c; do echo "SKIP $CW_SUITE: $c -- skipped by the test" >>"$CW_TEST_RESULTS"; done
  if [ "$failed" -gt 0 ] || [ "$status" -ne 0 ]; then
    grep -E '^\[  FAILED  \] .* \([0-9]+ ms\)$' "$CW_TEST_TMP/gtest.out" | sed -E 's/^\[  FAILED  \] (.*) \([0-9]+ ms\)$/\1/' |
      while read -r c; do t_fail "$c"; done
    [ "$failed" -eq 0 ] && t_fail "$(basename "$bin")" "GoogleTest exited $status"
    grep -B 5 -E '^\[  FAILED  \]' "$CW_TEST_TMP/gtest.out" | head -n 40 | sed 's/^/    | /'
  fi
  echo "   GoogleTest ($bin): $ok ok, $failed failing, $skipped skipped"
}

# Prints the closing line for a results file: "N passed, N failed, N skipped"; returns 1 if
# anything failed.
t_summary() {
  local file=$1 p f s
  t_skip_flush
  p=$(grep -c '^PASS ' "$file")
  f=$(grep -c '^FAIL ' "$file")
  s=$(grep -c '^SKIP ' "$file")
  if [ "$s" -gt 0 ]; then
    echo "skipped cases, by reason:"
    grep '^SKIP ' "$file" | sed -n 's/.* -- //p' | sort | uniq -c | sed 's/^/  /'
  fi
  if [ "$f" -gt 0 ]; then
    echo "failed cases:"
    grep '^FAIL ' "$file" | sed 's/^/  /'
  fi
  echo "$p passed, $f failed, $s skipped"
  [ "$f" -eq 0 ]
}

# ---- The shared command-line contract, checked the same way against every program ----
# (common/tests/tier1_robustness.sh runs these for all five; README.md, "One command line".)

# expect_refusal NAME PATTERN CMD...: exit 2 within 10 s, exactly one line on stderr matching
# PATTERN, no result printed, and no file created or changed in $CW_ROBUST_DIR.
expect_refusal() {
  local name=$1 pattern=$2; shift 2
  local before after
  before=$(find "$CW_ROBUST_DIR" -mindepth 1 -printf '%p %s %T@\n' 2>/dev/null | sort | md5sum)
  CW_CASE_TIMEOUT=10 expect_usage_error "$name" "$pattern" "$@"
  [ "$T_STATUS" = 124 ] && echo "    (the command hung: killed after 10 s)"
  after=$(find "$CW_ROBUST_DIR" -mindepth 1 -printf '%p %s %T@\n' 2>/dev/null | sort | md5sum)
  if [ "$before" != "$after" ]; then
    t_fail "$name: no file created or changed" "$(ls "$CW_ROBUST_DIR" | tr '\n' ' ')"
  fi
}

# t_shared_cli_cases PROGRAM SMALL_ARGS: the contract's cases for one program. SMALL_ARGS is
# a tiny valid run (e.g. "--n=1000"), used where a case needs one.
t_shared_cli_cases() {
  local prog=$1 small=$2 name
  name=$(basename "$prog")
  CW_ROBUST_DIR=$CW_TEST_TMP/robust-$name
  rm -rf "$CW_ROBUST_DIR"; mkdir -p "$CW_ROBUST_DIR"
  local d=$CW_ROBUST_DIR help
  mkfifo "$d/fifo" "$d/fifo_csv" "$d/fifo_out"
  mkdir "$d/folder"
  printf 'a,b\n1,2\n' >"$d/other.csv"
  help=$("$prog" --help 2>&1)
  # Integers: strict, one out-of-range message whatever the spelling, one line.
  local v
  for v in ' 5' '5 ' '5x' '2^' '1.5' ''; do
    expect_refusal "$name --repeat='$v' refused" "option --repeat (expects an integer|needs a value)" "$prog" "--repeat=$v"
  done
  for v in '2^63' '1e19' '99999999999999999999' '0'; do
    expect_refusal "$name --repeat=$v out of range" "option --repeat=${v//^/\\^} is out of range \[1, 100000\]" "$prog" "--repeat=$v"
  done
  expect_refusal "$name newline in a value: one line" 'expects an integer.*5\\n6' "$prog" "--repeat=$(printf '5\n6')"
  expect_refusal "$name --help=1 refused" "option --help takes no value" "$prog" --help=1
  expect_refusal "$name unknown option" "unknown option '--bogus'" "$prog" --bogus
  expect_refusal "$name option given twice" "given twice" "$prog" --repeat=3 --repeat=4
  # --only: empty, duplicate and unknown items.
  expect_refusal "$name --only with an empty item" "option --only=.*has an empty item" "$prog" --only=,
  expect_refusal "$name --only unknown" "unknown version 'no_such'" "$prog" --only=no_such
  # Files: never block, say what a path is, create nothing.
  expect_refusal "$name FIFO as --input" "input file '.*fifo' is a FIFO" "$prog" --input="$d/fifo"
  expect_refusal "$name directory as --input" "is a directory" "$prog" --input="$d/folder"
  expect_refusal "$name /dev/zero as --input" "is a character device" "$prog" --input=/dev/zero
  expect_refusal "$name /proc file as --input" "is empty" "$prog" --input=/proc/self/status
  expect_refusal "$name missing --input" "cannot open input file" "$prog" --input="$d/missing.bin"
  expect_refusal "$name FIFO as --csv" "CSV file '.*fifo_csv' is a FIFO" "$prog" $small --csv="$d/fifo_csv"
  expect_refusal "$name FIFO as --output" "output file '.*fifo_out' is a FIFO" "$prog" $small --output="$d/fifo_out"
  expect_refusal "$name --output in a missing folder" "cannot write output file" "$prog" $small --output="$d/no/such/out.bin"
  expect_refusal "$name --csv with other columns" "has different columns" "$prog" $small --csv="$d/other.csv"
  # --vary-input: a testing aid on seeded data, never with --input or --output; a program
  # without input data to vary (no VARY_ARGS in its Makefile: pi) refuses it.
  if [ -n "$(make --no-print-directory -s -C "$(dirname "$prog")/.." print-VARY_ARGS 2>/dev/null)" ]; then
    expect_refusal "$name --vary-input with --input" "option --vary-input varies seeded data" "$prog" --vary-input=1 --input="$d/folder"
    expect_refusal "$name --vary-input with --output" "option --vary-input is a testing aid" "$prog" $small --vary-input=1 --output="$d/v.bin"
  else
    expect_refusal "$name --vary-input refused: no input data" "option --vary-input: $name has no input data to vary" "$prog" $small --vary-input=1
  fi
  # --print-csv-header: checks the other options first, then one header line with the core columns.
  expect_refusal "$name --print-csv-header checks the other options" "out of range" "$prog" --print-csv-header --repeat=0
  t_run "$prog" --print-csv-header
  if [ "$T_STATUS" -eq 0 ] && [ "$(wc -l <"$T_OUT")" -eq 1 ] &&
     grep -Eq '^assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,(n|m,n),threads,blocks,kernel_ms,kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,result_ok(,|$)' "$T_OUT"; then
    t_pass "$name --print-csv-header: one line, core columns first"
  else
    t_fail "$name --print-csv-header: one line, core columns first" "exit $T_STATUS: $(head -c 300 "$T_OUT")"
  fi
  # --help names every shared option and the versions.
  local opt missing=""
  for opt in --repeat --warmup --device --csv --input --output --pinned --only --print-csv-header --inject-fault; do
    grep -q -- "$opt" <<<"$help" || missing="$missing $opt"
  done
  if [ -z "$missing" ] && grep -q '^Versions' <<<"$help"; then t_pass "$name --help lists the shared options and versions"
  else t_fail "$name --help lists the shared options and versions" "missing:$missing"; fi
  if grep -q -- '--seed=' <<<"$help"; then
    expect_refusal "$name --seed above 2^32-1" "option --seed=4294967296 is out of range \[0, 4294967295\]" "$prog" --seed=4294967296
  fi
  if grep -q -- '--data=' <<<"$help"; then
    printf '0123456789abcdef' >"$d/sixteen.bin"
    expect_refusal "$name --input with --data" "exclude each other" "$prog" --input="$d/sixteen.bin" --data="$(sed -n 's/.*--data=\([a-z0-9_]*\).*/\1/p' <<<"$help" | head -n 1)"
    rm -f "$d/sixteen.bin"
  fi
  # Without a GPU: exit 3, one line starting with plain words, no new file, an existing file unchanged.
  cw_detect_gpu
  if [ "$CW_GPU_OK" = 1 ]; then
    t_skip "$name without a GPU: exit 3, one line, no file left" "a usable GPU is present"
  else
    printf 'keep me\n' >"$d/existing.bin"
    local sum_before
    sum_before=$(md5sum <"$d/existing.bin")
    CW_CASE_TIMEOUT=20 t_run "$prog" $small --csv="$d/new.csv" --output="$d/existing.bin"
    if [ "$T_STATUS" -ne 3 ]; then t_fail "$name without a GPU: exit 3, one line, no file left" "exit $T_STATUS"; t_show_failure
    elif [ "$(wc -l <"$T_ERR")" -ne 1 ] || ! grep -q "^$name: no usable CUDA GPU: .*CUDA error [0-9]" "$T_ERR"; then
      t_fail "$name without a GPU: exit 3, one line, no file left" "stderr: $(head -c 300 "$T_ERR")"
    elif [ -e "$d/new.csv" ] || [ "$(md5sum <"$d/existing.bin")" != "$sum_before" ] || ls "$d" | grep -q '\.tmp\.'; then
      t_fail "$name without a GPU: exit 3, one line, no file left" "files: $(ls "$d" | tr '\n' ' ')"
    else
      t_pass "$name without a GPU: exit 3, one line, no file left"
    fi
  fi
}
