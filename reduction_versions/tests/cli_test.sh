# Tier 1 of reduction_versions (no GPU): --help, and every bad option or bad input file gives
# exit 2 with one line on stderr, before any CUDA call (so these pass on a machine without a GPU).
P=bin/reduction_versions
T=$CW_TEST_TMP

expect_output "--help lists every option" \
  "--n=N.*--sizes=.*--threads=.*--blocks=N.*--data=.*--l2=.*--inject-fault.*--repeat=N.*--warmup=N.*--seed=N.*--device=N.*--csv=.*--input=.*--output=.*--pinned.*--only=" \
  sh -c "$P --help | tr '\n' ' '"
expect_output "--help names the versions" "1 2 3 4 5 6 7 8 cub.*5-unfixed" sh -c "$P --help | tr '\n' ' '"

expect_usage_error "unknown option" "unknown option '--bogus'" $P --bogus=1
expect_usage_error "single-dash option" "unknown option" $P -x
expect_usage_error "--n=0" "--n=0 is out of range" $P --n=0
expect_usage_error "--n not a number" "--n expects an integer" $P --n=abc
expect_usage_error "--n above 2^30" "out of range" $P --n=2^31
expect_usage_error "--n without a value" "--n needs a value" $P --n
expect_usage_error "positional N=0" "out of range" $P 0
expect_usage_error "two positional arguments" "unexpected argument '5'" $P 1000 5
expect_usage_error "--threads not a power of two" "not a power of two" $P --threads=100
expect_usage_error "--threads below 64" "out of range \[64, 1024\]" $P --threads=32
expect_usage_error "--threads above 1024" "out of range \[64, 1024\]" $P --threads=2048
expect_usage_error "--threads listed twice" "twice" $P --threads=64,64
expect_usage_error "--threads not a number" "expects an integer" $P --threads=many
expect_usage_error "--blocks negative" "--blocks=-1 is out of range" $P --blocks=-1
expect_usage_error "--repeat=0" "--repeat=0 is out of range" $P --repeat=0
expect_usage_error "--warmup negative" "--warmup=-1 is out of range" $P --warmup=-1
expect_usage_error "--seed not a number" "--seed expects an integer" $P --seed=x
expect_usage_error "--device negative" "--device=-1 is out of range" $P --device=-1
expect_usage_error "--data unknown" "--data must be one of" $P --data=zeros
expect_usage_error "--l2 unknown" "--l2 must be one of" $P --l2=sometimes
expect_usage_error "--only unknown version" "unknown version '9'" $P --only=1,9
expect_usage_error "--pinned with a value" "--pinned takes no value" $P --pinned=1
expect_usage_error "--sizes with a zero" "--sizes=0 is out of range" $P --sizes=1024,0
expect_usage_error "--sizes not a number" "--sizes expects an integer" $P --sizes=1024,big
expect_usage_error "--sizes and --n together" "exclude each other" $P --sizes=1024 --n=5
expect_usage_error "--sizes empty" "needs a value" $P --sizes=

expect_usage_error "--input missing file" "cannot open input file '$T/missing.bin'" $P --input=$T/missing.bin
: >"$T/empty.bin"
expect_usage_error "--input empty file" "input file '$T/empty.bin' is empty" $P --input=$T/empty.bin
printf 'abcde' >"$T/five.bin"
expect_usage_error "--input not whole int32s" "not a whole number of 4-byte elements" $P --input=$T/five.bin
printf 'abcdefgh' >"$T/two.bin"
expect_usage_error "--input with --n" "do not give --n or --sizes" $P --input=$T/two.bin --n=2
expect_usage_error "--input with --data" "exclude each other" $P --input=$T/two.bin --data=small
expect_usage_error "--input is a directory" "input file" $P --input=$T
expect_usage_error "--output with two sizes" "--output needs a single size" $P --sizes=10,20 --output=$T/o.bin
expect_usage_error "--output unwritable" "cannot open output file" $P --output=$T/no/such/dir/o.bin
expect_usage_error "--csv unwritable" "cannot write CSV file" $P --csv=$T/no/such/dir/r.csv
printf 'a,b,c\n1,2,3\n' >"$T/other.csv"
expect_usage_error "--csv with other columns" "has different columns" $P --csv=$T/other.csv

# Without a usable device the program must say so with the runtime's message and exit 3.
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  t_skip "without a usable device: exit 3" "a usable GPU is present"
else
  t_run $P --n=1000
  if [ "$T_STATUS" -eq 3 ] && grep -Eq '^CUDA error (100|35) \(cudaError' "$T_ERR" && ! grep -q 'Result = ' "$T_OUT"; then
    t_pass "without a usable device: exit 3 with the runtime's message"
  else
    t_fail "without a usable device: exit 3 with the runtime's message" "exit $T_STATUS: $(head -n 1 "$T_ERR")"
  fi
fi
