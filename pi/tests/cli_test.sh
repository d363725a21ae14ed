# Tier 1 of pi (no GPU): --help, every bad option and bad input file gives exit 2 with one
# line on stderr, before any CUDA call; --print-csv-header; valid command lines reach the
# device (exit 3 without one) and leave no file behind. Sourced by common/tests/run_tests.sh from pi/.
P=bin/pi
expect_output "pi: --help lists every option" \
  "--niter=N.*--sizes=.*--chunk=N.*--threads=N.*--blocks=N.*--precision=float\|double\|both.*--cpu-threads=N.*--cpu-repeat=N.*--repeat=N.*--warmup=N.*--device=N.*--csv=.*--input=.*--output=.*--pinned.*--only=.*--print-csv-header.*--inject-fault" \
  sh -c "$P --help | tr '\n' ' '"
expect_output "pi: --help lists every version of the registry" \
  "\* 1 .*\* 2 .*\* single .*\* thrust .*library baseline.*\* cpu .*\* cpu_omp .*   cpu_report " \
  sh -c "$P --help | tr '\n' ' '"
t_run $P --help
if grep -Eq -- '--(seed|data)=' "$T_OUT"; then
  t_fail "pi: --help has no --seed and no --data, and says why" "$(grep -E -- '--(seed|data)=' "$T_OUT" | head -n 1)"
elif ! grep -q 'no random data .*no seed option and no data option' "$T_OUT"; then
  t_fail "pi: --help has no --seed and no --data, and says why" "the help does not say so"
else
  t_pass "pi: --help has no --seed and no --data, and says why"
fi
expect_usage_error "pi: --seed is not an option of pi" "unknown option '--seed'" $P --seed=1
expect_usage_error "pi: unknown option" "unknown option '--bogus'" $P --bogus
expect_usage_error "pi: --niter=0" "--niter=0 is out of range" $P --niter=0
expect_usage_error "pi: negative --niter" "--niter=-5 is out of range" $P --niter=-5
expect_usage_error "pi: --niter not a number" "--niter expects an integer" $P --niter=abc
expect_usage_error "pi: --niter above 2^34" "--niter=2\^35 is out of range" $P --niter=2^35
expect_usage_error "pi: --niter without a value" "--niter needs a value" $P --niter
expect_usage_error "pi: --chunk=0" "--chunk=0 is out of range" $P --chunk=0
expect_usage_error "pi: --threads not a power of two" "--threads=48 must be 0 \(automatic\) or a power of two" $P --threads=48
expect_usage_error "pi: --threads below a warp" "--threads=16 must be 0 \(automatic\) or a power of two" $P --threads=16
expect_usage_error "pi: --threads above 1024" "--threads=2048 is out of range" $P --threads=2048
expect_usage_error "pi: --blocks negative" "--blocks=-1 is out of range" $P --blocks=-1
expect_usage_error "pi: --precision=half" "--precision must be one of float\|double\|both" $P --precision=half
expect_usage_error "pi: --cpu-threads negative" "--cpu-threads=-1 is out of range" $P --cpu-threads=-1
expect_usage_error "pi: --repeat=0" "--repeat=0 is out of range" $P --repeat=0
expect_usage_error "pi: --only with an unknown version" "unknown version 'kernel3'" $P --only=1,kernel3
expect_usage_error "pi: --only naming a version twice" "names version '2' twice" $P --only=2,1,2
expect_usage_error "pi: --only with an empty item" "--only='1,,2' has an empty item" $P --only=1,,2
expect_usage_error "pi: cpu_report in double runs nothing" "runs nothing \(cpu_report exists in float only\)" \
  $P --only=cpu_report --precision=double
expect_usage_error "pi: --pinned takes no value" "--pinned takes no value" $P --pinned=1
expect_usage_error "pi: --sizes with a bad item" "--sizes expects an integer" $P --sizes=64,x,128
expect_usage_error "pi: --sizes with 0" "--sizes=0 is out of range" $P --sizes=64,0
expect_usage_error "pi: --sizes with an empty item" "--sizes='64,,128' has an empty item" $P --sizes=64,,128
expect_usage_error "pi: --sizes with an empty range" "empty range '9..3'" $P --sizes=9..3
expect_usage_error "pi: --niter and --sizes together" "options --sizes and --niter exclude each other" $P --niter=64 --sizes=64,128
expect_usage_error "pi: positional NITER and --sizes together" "options --sizes and --niter exclude each other" $P 64 --sizes=64,128
expect_usage_error "pi: the old --niters is gone" "unknown option '--niters'" $P --niters=64
expect_usage_error "pi: a third positional argument" "unexpected argument '7'" $P 1024 64 7
expect_usage_error "pi: positional NITER not a number" "--niter expects an integer" $P lots
expect_usage_error "pi: cpu_report with NITER above int" "cpu_report takes NITER <= 2147483647" $P --niter=2^31 --only=cpu_report
expect_usage_error "pi: --input missing" "cannot open input file '$CW_TEST_TMP/none.bin'" $P --input=$CW_TEST_TMP/none.bin
: >"$CW_TEST_TMP/empty.bin"
expect_usage_error "pi: --input empty" "input file '.*empty.bin' is empty" $P --input=$CW_TEST_TMP/empty.bin
printf '1234567' >"$CW_TEST_TMP/seven.bin"
expect_usage_error "pi: --input not whole int64s" "has 7 bytes, not a whole number of 8-byte" $P --input=$CW_TEST_TMP/seven.bin
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<3q", 64, 0, 128))' >"$CW_TEST_TMP/zero.bin"
expect_usage_error "pi: --input holding NITER 0" "holds NITER 0, outside" $P --input=$CW_TEST_TMP/zero.bin
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<2q", 64, 1 << 40))' >"$CW_TEST_TMP/big.bin"
expect_usage_error "pi: --input holding NITER 2^40" "holds NITER 1099511627776, outside" $P --input=$CW_TEST_TMP/big.bin
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<2q", 64, 65))' >"$CW_TEST_TMP/sizes.bin"
expect_usage_error "pi: --input with --niter" "do not give --niter with it" $P --input=$CW_TEST_TMP/sizes.bin --niter=64
expect_usage_error "pi: --input with positional NITER" "do not give --niter with it" $P 64 --input=$CW_TEST_TMP/sizes.bin
expect_usage_error "pi: --input with --sizes" "do not give --sizes with it" $P --input=$CW_TEST_TMP/sizes.bin --sizes=64
mkfifo "$CW_TEST_TMP/fifo"
expect_usage_error "pi: a FIFO as --input is refused at once" "is a FIFO" timeout 10 $P --input=$CW_TEST_TMP/fifo
expect_usage_error "pi: --csv unwritable" "cannot write CSV file '/nonexistent/x.csv'" $P --niter=64 --csv=/nonexistent/x.csv
echo "a,b" >"$CW_TEST_TMP/other.csv"
expect_usage_error "pi: --csv with other columns" "has different columns" $P --niter=64 --csv=$CW_TEST_TMP/other.csv
expect_usage_error "pi: --output unwritable" "cannot write output file '/nonexistent/x.bin'" $P --niter=64 --output=/nonexistent/x.bin
expect_usage_error "pi: --output a directory" "output file '$CW_TEST_TMP' is a directory" $P --niter=64 --output=$CW_TEST_TMP

# --print-csv-header: checks every other option first, needs no GPU, and prints the core
# columns, then precision and abs_error, then pi's own.
expect_usage_error "pi: --print-csv-header with a bad option" "--niter=0 is out of range" $P --print-csv-header --niter=0
expect_usage_error "pi: --print-csv-header with a bad --input" "is a FIFO" timeout 10 $P --print-csv-header --input=$CW_TEST_TMP/fifo
expect_output "pi: --print-csv-header prints the core columns, then precision and abs_error" \
  "^assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,n,threads,blocks,kernel_ms,kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,result_ok,precision,abs_error,.*,estimate,.*,tolerance,truncation_error$" \
  $P --print-csv-header
header=$($P --print-csv-header)
printf '%s\n' "$header" >"$CW_TEST_TMP/same.csv"
expect_output "pi: --print-csv-header's header is accepted by --csv" "^assignment," \
  $P --print-csv-header --csv="$CW_TEST_TMP/same.csv"

# Valid command lines get past the checks: with a GPU they pass (exit 0), without one they
# end with exit 3 and the plain-words message, never 2. niter = 65 with chunk = 64 is accepted
# (the last chunk is clamped: the kernels sum exactly 65 terms). No --csv/--output file is
# created, and an existing one is left unchanged, when the run stops with exit 2 or 3.
cw_detect_gpu
for args in "--niter=65 --chunk=64" "1000 7" "--sizes=1,63,1025 --precision=float --only=2,cpu" "--sizes=63..65 --threads=0 --blocks=0" \
            "--input=$CW_TEST_TMP/sizes.bin --only=single,cpu_report"; do
  t_run $P $args --repeat=1 --warmup=0 --cpu-repeat=1
  if [ "$CW_GPU_OK" = 1 ]; then
    if [ "$T_STATUS" -eq 0 ]; then t_pass "pi: '$args' accepted and passes"; else t_fail "pi: '$args' accepted and passes" "exit $T_STATUS"; fi
  elif [ "$T_STATUS" -eq 3 ] && grep -Eq '^pi: no usable CUDA GPU: .*\(CUDA error (100|35), ' "$T_ERR"; then
    t_pass "pi: '$args' accepted; without a usable device exit 3 with the runtime's message"
  else
    t_fail "pi: '$args' accepted; without a usable device exit 3" "exit $T_STATUS: $(head -n 1 "$T_ERR")"
  fi
done
if [ "$CW_GPU_OK" != 1 ]; then
  out=$CW_TEST_TMP/never.bin csv=$CW_TEST_TMP/never.csv
  rm -f "$out" "$csv"
  t_run $P --niter=64 --output="$out" --csv="$csv"
  if [ "$T_STATUS" -eq 3 ] && [ ! -e "$out" ] && [ ! -e "$csv" ] && [ -z "$(ls "$CW_TEST_TMP" | grep '\.tmp\.')" ]; then
    t_pass "pi: exit 3 creates neither --output nor --csv"
  else
    t_fail "pi: exit 3 creates neither --output nor --csv" "exit $T_STATUS; $(ls "$CW_TEST_TMP" | tr '\n' ' ')"
  fi
  cp "$CW_TEST_TMP/same.csv" "$CW_TEST_TMP/kept.csv"
  echo "pi,1,1,0,dev,9.0,13.0,13.0,64,256,1,0.01,kernels,,,,,1,float,1e-05" >>"$CW_TEST_TMP/kept.csv"
  sum_before=$(cksum <"$CW_TEST_TMP/kept.csv")
  t_run $P --niter=64 --csv="$CW_TEST_TMP/kept.csv"
  if [ "$T_STATUS" -eq 3 ] && [ "$(cksum <"$CW_TEST_TMP/kept.csv")" = "$sum_before" ]; then
    t_pass "pi: a pre-existing --csv file is unchanged after exit 3"
  else
    t_fail "pi: a pre-existing --csv file is unchanged after exit 3" "exit $T_STATUS"
  fi
else
  t_skip "pi: exit 3 creates neither --output nor --csv" "a GPU is present (exit 3 cannot be provoked)"
  t_skip "pi: a pre-existing --csv file is unchanged after exit 3" "a GPU is present (exit 3 cannot be provoked)"
fi
out=$CW_TEST_TMP/bad.bin
rm -f "$out"
t_run $P --niter=0 --output="$out"
if [ "$T_STATUS" -eq 2 ] && [ ! -e "$out" ]; then t_pass "pi: exit 2 does not create --output"
else t_fail "pi: exit 2 does not create --output" "exit $T_STATUS"; fi

# The CPU versions need no GPU: a run that selects only them makes no CUDA call, so it runs
# and validates them on a machine without a usable GPU (a login node): exit 0, every run
# PASS, no CUDA error, the CSV rows and the --output estimates written, the CSV's device
# column empty. CUDA_VISIBLE_DEVICES= hides every GPU, so that these cases run (and mean the
# same) on a GPU machine too. The CPU labels are those --help lists (checked above).
cpu_labels=cpu,cpu_omp,cpu_report
out=$CW_TEST_TMP/cpu.bin csv=$CW_TEST_TMP/cpu.csv
rm -f "$out" "$csv"
t_run env CUDA_VISIBLE_DEVICES= $P --only=$cpu_labels --sizes=1,63,1025 --cpu-repeat=1 --csv="$csv" --output="$out"
cpu_runs=$(grep -c 'Result = PASS' "$T_OUT")
if [ "$T_STATUS" -ne 0 ] || [ "$cpu_runs" -ne 15 ] || grep -q 'Result = FAIL' "$T_OUT"; then
  t_fail "pi: the CPU versions run and validate without a GPU" "exit $T_STATUS, $cpu_runs of 15 runs PASS"; t_show_failure
elif grep -qi 'cuda' "$T_OUT" "$T_ERR"; then
  t_fail "pi: the CPU versions run and validate without a GPU" "CUDA named: $(grep -hi cuda "$T_OUT" "$T_ERR" | head -n 1)"
elif [ -n "$(tail -n +2 "$csv" | cut -d, -f5 | sort -u)" ] || [ "$(tail -n +2 "$csv" | wc -l)" -ne 15 ] ||
     [ "$(wc -c <"$out")" -ne $((15 * 8)) ]; then
  t_fail "pi: the CPU versions run and validate without a GPU" "CSV rows, device column or --output wrong"
else
  t_pass "pi: the CPU versions run and validate without a GPU (exit 0, no CUDA error, CSV and --output written)"
fi
expect_exit 1 "pi: the CPU versions alone are validated without a GPU (--inject-fault: exit 1)" \
  env CUDA_VISIBLE_DEVICES= $P --only=$cpu_labels --niter=1025 --cpu-repeat=1 --inject-fault
# A GPU version beside them still needs the GPU: without one, exit 3 before any run.
t_run env CUDA_VISIBLE_DEVICES= $P --only=1,$cpu_labels --niter=1025 --cpu-repeat=1
if [ "$T_STATUS" -eq 3 ] && grep -q '^pi: no usable CUDA GPU' "$T_ERR" && ! grep -q 'Result = ' "$T_OUT"; then
  t_pass "pi: a GPU version beside the CPU versions still ends with exit 3 without a usable GPU"
else
  t_fail "pi: a GPU version beside the CPU versions still ends with exit 3 without a usable GPU" "exit $T_STATUS"
  t_show_failure
fi
