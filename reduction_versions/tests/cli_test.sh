# Tier 1 of reduction_versions (no GPU): --help, and every bad option or bad input file gives
# exit 2 with one line on stderr, before any CUDA call (so these pass on a machine without a
# GPU); without a usable device, exit 3 and no file left behind.
P=bin/reduction_versions
T=$CW_TEST_TMP

expect_output "--help lists every option" \
  "--n=N.*--sizes=.*--threads=.*--blocks=N.*--data=.*iota.*--l2=.*--repeat=N.*--warmup=N.*--seed=N.*--device=N.*--csv=.*--input=.*--output=.*--pinned.*--only=.*--print-csv-header.*--inject-fault" \
  sh -c "$P --help | tr '\n' ' '"
# The version list of --help comes from the registry: every label, the baseline and the
# demonstration marked as such, 5-unfixed not run by default.
expect_output "--help lists the registry's versions" \
  "\* 1 .*\* 8 .*\* cub .*library baseline.* 5-unfixed .*demonstration, not validated" sh -c "$P --help | tr '\n' ' '"
expect_output "--help states the seed default 1 and iota's wrap-around" "wraps modulo 2\^32.*seed=N +seed of the random data \(default: 1\)" \
  sh -c "$P --help | tr '\n' ' '"

expect_usage_error "unknown option" "unknown option '--bogus'" $P --bogus=1
expect_usage_error "single-dash option" "unknown option" $P -x
expect_usage_error "old --csv-header is gone" "unknown option '--csv-header'" $P --csv-header
expect_usage_error "--n=0" "--n=0 is out of range" $P --n=0
expect_usage_error "--n not a number" "--n expects an integer" $P --n=abc
expect_usage_error "--n above 2^30" "out of range" $P --n=2^31
expect_usage_error "--n without a value" "--n needs a value" $P --n
expect_usage_error "positional N=0" "out of range" $P 0
expect_usage_error "two positional arguments" "unexpected argument '5'" $P 1000 5
expect_usage_error "--threads not a power of two" "--threads=100 is not 0 \(automatic\) or a power of two" $P --threads=100
expect_usage_error "--threads below 64" "--threads=32 is not 0 \(automatic\) or a power of two in \[64, 1024\]" $P --threads=32
expect_usage_error "--threads above 1024" "--threads=2048 is out of range" $P --threads=2048
expect_usage_error "--threads listed twice" "twice" $P --threads=64,64
expect_usage_error "--threads with an empty item" "has an empty item" $P --threads=256,
expect_usage_error "--threads 0 (automatic) in a list" "0 \(automatic\) cannot be listed" $P --threads=0,256
expect_usage_error "--threads not a number" "expects an integer" $P --threads=many
expect_usage_error "--blocks negative" "--blocks=-1 is out of range" $P --blocks=-1
expect_usage_error "--blocks without a grid-stride version" "--blocks sets the grid of the grid-stride versions" \
  $P --blocks=8 --only=1,cub
expect_usage_error "--repeat=0" "--repeat=0 is out of range" $P --repeat=0
expect_usage_error "--warmup negative" "--warmup=-1 is out of range" $P --warmup=-1
expect_usage_error "--seed not a number" "--seed expects an integer" $P --seed=x
expect_usage_error "--device negative" "--device=-1 is out of range" $P --device=-1
expect_usage_error "--data unknown" "--data must be one of" $P --data=zeros
expect_usage_error "--l2 unknown" "--l2 must be one of" $P --l2=sometimes
expect_usage_error "--only unknown version" "unknown version 'no_such_version'" $P --only=1,no_such_version
expect_usage_error "--only names a version twice" "names version '5' twice" $P --only=5,5
expect_usage_error "--only with an empty item" "has an empty item" $P --only=1,,2
expect_usage_error "--pinned with a value" "--pinned takes no value" $P --pinned=1
expect_usage_error "--sizes with a zero" "--sizes=0 is out of range" $P --sizes=1024,0
expect_usage_error "--sizes not a number" "--sizes expects an integer" $P --sizes=1024,big
expect_usage_error "--sizes empty range" "empty range '9..3'" $P --sizes=9..3
expect_usage_error "--sizes with an empty item" "has an empty item" $P --sizes=1024,,2048
expect_usage_error "--sizes and --n together" "exclude each other" $P --sizes=1024 --n=5
expect_usage_error "--sizes empty" "needs a value" $P --sizes=
expect_usage_error "--print-csv-header checks the other options first" "--threads=7 is not" \
  $P --print-csv-header --threads=7

expect_usage_error "--input missing file" "cannot open input file '$T/missing.bin'" $P --input=$T/missing.bin
: >"$T/empty.bin"
expect_usage_error "--input empty file" "input file '$T/empty.bin' is empty" $P --input=$T/empty.bin
printf 'abcde' >"$T/five.bin"
expect_usage_error "--input not whole int32s" "not a whole number of 4-byte elements" $P --input=$T/five.bin
printf 'abcdefgh' >"$T/two.bin"
expect_usage_error "--input with --n" "do not give --n with it" $P --input=$T/two.bin --n=2
expect_usage_error "--input with --sizes" "do not give --sizes with it" $P --input=$T/two.bin --sizes=2
expect_usage_error "--input with a positional N" "do not give --n with it" $P --input=$T/two.bin 2
expect_usage_error "--input with --data" "--input and --data exclude each other" $P --input=$T/two.bin --data=iota
expect_usage_error "--input is a directory" "input file '$T' is a directory" $P --input=$T
if mkfifo "$T/fifo" 2>/dev/null; then
  CW_CASE_TIMEOUT=10 expect_usage_error "--input is a FIFO: refused at once, no hang" "is a FIFO" $P --input=$T/fifo
else
  t_skip "--input is a FIFO: refused at once, no hang" "mkfifo failed"
fi
expect_usage_error "--output with two sizes" "--output needs a single size" $P --sizes=10,20 --output=$T/o.bin
expect_usage_error "--output with only a demonstration" "--output needs a validated version" \
  $P --only=5-unfixed --output=$T/o.bin
expect_usage_error "--output unwritable" "cannot write output file" $P --output=$T/no/such/dir/o.bin
expect_usage_error "--csv unwritable" "cannot write CSV file" $P --csv=$T/no/such/dir/r.csv
printf 'a,b,c\n1,2,3\n' >"$T/other.csv"
expect_usage_error "--csv with other columns" "has different columns" $P --csv=$T/other.csv
rm -f "$T/o.bin"
t_run $P --sizes=10,20 --output=$T/o.bin
if [ "$T_STATUS" -eq 2 ] && [ ! -e "$T/o.bin" ]; then t_pass "--output not created on exit 2"
else t_fail "--output not created on exit 2" "exit $T_STATUS, file $(ls "$T/o.bin" 2>&1)"; fi

# --print-csv-header: the core columns first, then this program's own, without a GPU.
t_run $P --print-csv-header
core="assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,n,threads,blocks,kernel_ms,kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,result_ok,"
if [ "$T_STATUS" -eq 0 ] && [ "$(wc -l <"$T_OUT")" -eq 1 ] && case "$(cat "$T_OUT")" in "$core"*kernel*data*seed*launches*checks*wrong_checks*gpu_sum*cpu_sum) true ;; *) false ;; esac; then
  t_pass "--print-csv-header: the core columns, then kernel ... cpu_sum"
else
  t_fail "--print-csv-header: the core columns, then kernel ... cpu_sum" "exit $T_STATUS: $(head -c 200 "$T_OUT")"
fi

# Without a usable device the program must say so with the runtime's message and exit 3,
# leaving no new file and an existing CSV unchanged.
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  t_skip "without a usable device: exit 3" "a usable GPU is present"
  t_skip "without a usable device: no --output created, an existing --csv unchanged" "a usable GPU is present"
else
  t_run $P --n=1000
  if [ "$T_STATUS" -eq 3 ] && [ "$(wc -l <"$T_ERR")" -eq 1 ] &&
     grep -Eq '^reduction_versions: no usable CUDA GPU: .*\(CUDA error (100|35), cudaError' "$T_ERR" &&
     ! grep -q 'Result = ' "$T_OUT"; then
    t_pass "without a usable device: exit 3 with the runtime's message"
  else
    t_fail "without a usable device: exit 3 with the runtime's message" "exit $T_STATUS: $(head -n 1 "$T_ERR")"
  fi
  $P --print-csv-header >"$T/keep.csv"
  echo "reduction_versions,8,1,0,X,9.0,13.0,13.0,1000" >>"$T/keep.csv"
  cp "$T/keep.csv" "$T/keep.orig"
  rm -f "$T/o3.bin"
  t_run $P --n=1000 --csv=$T/keep.csv --output=$T/o3.bin
  if [ "$T_STATUS" -eq 3 ] && [ ! -e "$T/o3.bin" ] && cmp -s "$T/keep.csv" "$T/keep.orig" &&
     [ -z "$(find "$T" -name '*.tmp.*')" ]; then
    t_pass "without a usable device: no --output created, an existing --csv unchanged"
  else
    t_fail "without a usable device: no --output created, an existing --csv unchanged" "exit $T_STATUS"
  fi
  # The whole size check comes after the device probe (exit 3), before any host buffer: a
  # size of 2^30 ints must not fill 4 GiB first.
  t_run timeout 10 $P --n=2^30
  if [ "$T_STATUS" -eq 3 ]; then t_pass "--n=2^30 without a device: exit 3 at once (no host buffer filled first)"
  else t_fail "--n=2^30 without a device: exit 3 at once (no host buffer filled first)" "exit $T_STATUS"; fi
fi
