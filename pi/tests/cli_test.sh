# Tier 1 of pi (no GPU): --help, every bad option and bad input file gives exit 2 with one
# line on stderr, before any CUDA call. Sourced by common/run_tests.sh from pi/.
P=bin/pi
expect_output "pi: --help lists every option" \
  "--niter=N.*--niters=.*--chunk=N.*--threads=N.*--blocks=N.*--precision=float\|double\|both.*--cpu-threads=N.*--cpu-repeat=N.*--repeat=N.*--warmup=N.*--seed=N.*--device=N.*--csv=.*--input=.*--output=.*--pinned.*--only=" \
  sh -c "$P --help | tr '\n' ' '"
expect_usage_error "pi: unknown option" "unknown option '--bogus'" $P --bogus
expect_usage_error "pi: --niter=0" "--niter=0 is out of range" $P --niter=0
expect_usage_error "pi: negative --niter" "--niter=-5 is out of range" $P --niter=-5
expect_usage_error "pi: --niter not a number" "--niter expects an integer" $P --niter=abc
expect_usage_error "pi: --niter above 2^34" "--niter=2\^35 is out of range" $P --niter=2^35
expect_usage_error "pi: --niter without a value" "--niter needs a value" $P --niter
expect_usage_error "pi: --chunk=0" "--chunk=0 is out of range" $P --chunk=0
expect_usage_error "pi: --threads not a power of two" "--threads=48 must be a power of two" $P --threads=48
expect_usage_error "pi: --threads below a warp" "--threads=16 is out of range" $P --threads=16
expect_usage_error "pi: --threads above 1024" "--threads=2048 is out of range" $P --threads=2048
expect_usage_error "pi: --blocks negative" "--blocks=-1 is out of range" $P --blocks=-1
expect_usage_error "pi: --precision=half" "--precision must be one of float\|double\|both" $P --precision=half
expect_usage_error "pi: --cpu-threads negative" "--cpu-threads=-1 is out of range" $P --cpu-threads=-1
expect_usage_error "pi: --repeat=0" "--repeat=0 is out of range" $P --repeat=0
expect_usage_error "pi: --only with an unknown version" "unknown version 'kernel3'" $P --only=1,kernel3
expect_usage_error "pi: --pinned takes no value" "--pinned takes no value" $P --pinned=1
expect_usage_error "pi: --niters with a bad item" "--niters expects an integer" $P --niters=64,x,128
expect_usage_error "pi: --niters with 0" "--niters=0 is out of range" $P --niters=64,0
expect_usage_error "pi: --niter and --niters together" "only one of --niter, --niters and --input" $P --niter=64 --niters=64,128
expect_usage_error "pi: a third positional argument" "unexpected argument '7'" $P 1024 64 7
expect_usage_error "pi: positional NITER not a number" "--niter expects an integer" $P lots
expect_usage_error "pi: cpu_report with NITER above int" "cpu_report takes an int NITER" $P --niter=2^31 --only=cpu_report
expect_usage_error "pi: --input missing" "cannot open input file '$CW_TEST_TMP/none.bin'" $P --input=$CW_TEST_TMP/none.bin
: >"$CW_TEST_TMP/empty.bin"
expect_usage_error "pi: --input empty" "input file '.*empty.bin' is empty" $P --input=$CW_TEST_TMP/empty.bin
printf '1234567' >"$CW_TEST_TMP/seven.bin"
expect_usage_error "pi: --input not whole int64s" "has 7 bytes, not a whole number of 8-byte" $P --input=$CW_TEST_TMP/seven.bin
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<3q", 64, 0, 128))' >"$CW_TEST_TMP/zero.bin"
expect_usage_error "pi: --input holding NITER 0" "holds NITER 0, outside" $P --input=$CW_TEST_TMP/zero.bin
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<2q", 64, 1 << 40))' >"$CW_TEST_TMP/big.bin"
expect_usage_error "pi: --input holding NITER 2^40" "holds NITER 1099511627776, outside" $P --input=$CW_TEST_TMP/big.bin
expect_usage_error "pi: --csv unwritable" "cannot write CSV file '/nonexistent/x.csv'" $P --niter=64 --csv=/nonexistent/x.csv
echo "a,b" >"$CW_TEST_TMP/other.csv"
expect_usage_error "pi: --csv with other columns" "has different columns" $P --niter=64 --csv=$CW_TEST_TMP/other.csv
expect_usage_error "pi: --output unwritable" "cannot open output file '/nonexistent/x.bin'" $P --niter=64 --output=/nonexistent/x.bin

# Valid command lines get past the checks: with a GPU they pass (exit 0), without one they
# end with exit 3 and the runtime's message, never 2. niter = 65 with chunk = 64 is accepted
# (the last chunk is clamped: the kernels sum exactly 65 terms).
cw_detect_gpu
for args in "--niter=65 --chunk=64" "1000 7" "--niters=1,63,1025 --precision=float --only=2,cpu"; do
  t_run $P $args --repeat=1 --warmup=0 --cpu-repeat=1
  if [ "$CW_GPU_OK" = 1 ]; then
    if [ "$T_STATUS" -eq 0 ]; then t_pass "pi: '$args' accepted and passes"; else t_fail "pi: '$args' accepted and passes" "exit $T_STATUS"; fi
  elif [ "$T_STATUS" -eq 3 ] && grep -Eq '^CUDA error (100|35) \(cudaError' "$T_ERR"; then
    t_pass "pi: '$args' accepted; without a usable device exit 3 with the runtime's message"
  else
    t_fail "pi: '$args' accepted; without a usable device exit 3" "exit $T_STATUS: $(head -n 1 "$T_ERR")"
  fi
done
