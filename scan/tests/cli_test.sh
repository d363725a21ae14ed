# Tier 1 of scan (no GPU): --help, and every bad option or bad input file gives exit 2 with
# one line on stderr, before any CUDA call. Sourced by common/run_tests.sh from scan/.
scan=bin/scan
tmp=$CW_TEST_TMP

expect_output "scan: --help lists every option" \
  "--n=N.*--sizes=.*--mode=inclusive\|exclusive\|both.*--data=.*--threads=N.*--per-thread=N.*--runs=N.*--lb-items=.*--l2=.*--corrupt.*--repeat=N.*--warmup=N.*--seed=N.*--device=N.*--csv=.*--input=.*--output=.*--pinned.*--only=" \
  sh -c "$scan --help | tr '\n' ' '"
expect_output "scan: --help names every version" \
  "cub.*hs_inplace_racy.*hs_buffered.*hs_multiblock_racy.*map.*brent_kung.*lookback" \
  sh -c "$scan --help | tr '\n' ' '"

expect_usage_error "scan: unknown option" "unknown option" $scan --bogus
expect_usage_error "scan: single-dash option" "unknown option" $scan -x
expect_usage_error "scan: --n=0" "--n=0 is out of range" $scan --n=0
expect_usage_error "scan: negative N" "out of range" $scan --n=-5
expect_usage_error "scan: non-numeric --n" "expects an integer" $scan --n=abc
expect_usage_error "scan: --n beyond 2^30" "out of range" $scan --n=2^31
expect_usage_error "scan: positional N out of range" "out of range" $scan 0
expect_usage_error "scan: two positional arguments" "unexpected argument" $scan 100 200
expect_usage_error "scan: --n without a value" "needs a value" $scan --n
expect_usage_error "scan: --n and --sizes" "either --n" $scan --n=5 --sizes=3
expect_usage_error "scan: empty --sizes range" "empty range" $scan --sizes=10..2
expect_usage_error "scan: bad --sizes item" "expects an integer" $scan --sizes=1,two
expect_usage_error "scan: --sizes out of range" "out of range" $scan --sizes=1,2^31
expect_usage_error "scan: --threads not a power of two" "power of two" $scan --threads=100
expect_usage_error "scan: --threads above 1024" "out of range" $scan --threads=2048
expect_usage_error "scan: --threads below 32" "out of range" $scan --threads=16
expect_usage_error "scan: --per-thread=1 (totals would never shrink)" "out of range" $scan --per-thread=1
expect_usage_error "scan: --runs=0" "out of range" $scan --runs=0
expect_usage_error "scan: --repeat=0" "out of range" $scan --repeat=0
expect_usage_error "scan: bad --mode" "must be one of" $scan --mode=both2
expect_usage_error "scan: bad --data" "must be one of" $scan --data=zeros
expect_usage_error "scan: bad --l2" "must be one of" $scan --l2=cold
expect_usage_error "scan: unknown version in --only" "unknown version 'hs'" $scan --only=cub,hs
expect_usage_error "scan: --pinned takes no value" "takes no value" $scan --pinned=1
expect_usage_error "scan: hs_buffered asked for beyond one block" "hs_buffered cannot run n=1025" \
  $scan --only=hs_buffered --n=1025
expect_usage_error "scan: hs_buffered beyond --threads" "hs_buffered cannot run n=33" \
  $scan --only=hs_buffered --threads=32 --n=33
expect_usage_error "scan: hs_inplace_racy beyond one block (none of --sizes)" "hs_inplace_racy cannot run n=1025" \
  $scan --only=hs_inplace_racy --sizes=1025..1030
expect_usage_error "scan: racy versions have no exclusive scan" "nothing to run" \
  $scan --only=hs_inplace_racy,hs_multiblock_racy --mode=exclusive --n=100
expect_usage_error "scan: --output with both modes" "--output needs --mode" $scan --n=10 --output=$tmp/o.bin
expect_usage_error "scan: --output with several sizes" "single size" \
  $scan --sizes=1,2 --mode=inclusive --output=$tmp/o.bin
expect_usage_error "scan: --output with racy versions only" "validated version" \
  $scan --n=10 --mode=inclusive --only=hs_multiblock_racy --output=$tmp/o.bin
expect_usage_error "scan: --output in a missing directory" "cannot open output file" \
  $scan --n=10 --mode=inclusive --output=$tmp/no/such/dir/o.bin
expect_usage_error "scan: --csv in a missing directory" "cannot write CSV" $scan --n=10 --csv=$tmp/no/such/dir/r.csv
printf 'version,n\ncub,1\n' >"$tmp/scan-other.csv"
expect_usage_error "scan: --csv with other columns (before any GPU work)" "has different columns" \
  $scan --n=10 --csv="$tmp/scan-other.csv"

# Bad input files.
expect_usage_error "scan: missing --input file" "cannot open input file" $scan --input=$tmp/none.bin
: >"$tmp/empty.bin"
expect_usage_error "scan: empty --input file" "is empty" $scan --input=$tmp/empty.bin
printf 'abcde' >"$tmp/odd.bin"
expect_usage_error "scan: --input not a whole number of int32" "not a whole number" $scan --input=$tmp/odd.bin
expect_usage_error "scan: --input is a directory" "input file" $scan --input=$tmp
printf '\001\000\000\000' >"$tmp/one.bin"
expect_usage_error "scan: --input with --n" "do not give --n" $scan --input=$tmp/one.bin --n=1
