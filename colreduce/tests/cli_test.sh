# Tier 1 of colreduce (no GPU): --help, and every bad option or bad input gives exit 2 with
# one line on stderr, before any CUDA call (so these pass on a machine without a GPU). The
# contract's generic cases (integers, FIFOs, --only items, exit 3 leaves no file) are run for
# every program by common/tests/tier1_robustness.sh; here are colreduce's own.
cr=bin/colreduce
cr_tmp=$CW_TEST_TMP/colreduce
mkdir -p "$cr_tmp"
# A 12-element input (3 x 4 or 4 x 3 or ...), little-endian doubles.
python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<12d', *range(12)))" >"$cr_tmp/m12.bin"

expect_output "--help lists the options and the positional form" \
  "--m=N.*--n=N.*--sizes.*--data=random\|report\|negative\|wide.*--threads.*--blocks.*--slow-repeat.*--repeat.*--warmup.*--seed.*--device.*--csv.*--input.*--output.*--pinned.*--only.*--print-csv-header.*--inject-fault.*M \(= --m\) N \(= --n\)" \
  sh -c "$cr --help | tr '\n' ' '"
# The version list of --help is the registry: every label, the slow ones and the baseline marked.
expect_output "--help lists every version of the registry" \
  "\* original .*slow.*\* high1 .*slow.*\* high2 .*slow.*\* high2_const .*slow.*\* block_per_column .*\* tall .*\* tall_det .*\* cublas .*\[library baseline\] +block_per_column_over_limit .*\[demonstration, not validated\]" \
  sh -c "$cr --help | tr '\n' ' '"
expect_output "--help documents the shared defaults (repeat 20, warmup 3, seed 1) and automatic 0" \
  "--threads=N .*0 = automatic.*1024.*--blocks=N .*0 = automatic.*--repeat=N .*default: 20.*--warmup=N .*default: 3.*--seed=N .*default: 1\)" \
  sh -c "$cr --help | tr '\n' ' '"

# Sizes: M and N positional (run.slurm's form) and long.
expect_usage_error "M = 0" "--m=0 is out of range" $cr 0 8
expect_usage_error "negative M" "--m=-5 is out of range" $cr -5 8
expect_usage_error "N = 0" "--n=0 is out of range" $cr 160000 0
expect_usage_error "N above 1024" "--n=1025 is out of range" $cr 16 1025
expect_usage_error "--n=-1" "--n=-1 is out of range" $cr --n=-1
expect_usage_error "M beyond int" "--m=2147483648 is out of range" $cr 2147483648 8
expect_usage_error "M = 2^31 (power form)" "--m=2\^31 is out of range" $cr 2^31 8
expect_usage_error "non-numeric M" "--m expects an integer .*got 'abc'" $cr abc 8
expect_usage_error "non-numeric N" "--n expects an integer .*got '8x'" $cr 100 8x
expect_usage_error "fractional --m" "--m expects an integer" $cr --m=1.5
expect_usage_error "a third positional" "unexpected argument '3'" $cr 1 2 3
expect_usage_error "m*n*8 bytes beyond host memory (before any CUDA call)" \
  "m=2147483647 n=1024 needs [0-9]+ MiB of host memory" $cr 2147483647 1024
expect_usage_error "--sizes with M N" "options --sizes and --m exclude each other" $cr --sizes=10x3 10 3
expect_usage_error "--sizes item without x" "'100' is not of the form MxN" $cr --sizes=100
expect_usage_error "--sizes item without N" "'100x' is not of the form MxN" $cr --sizes=160000x8,100x
expect_usage_error "--sizes N = 0" "out of range \[1, 1024\]" $cr --sizes=100x0
expect_usage_error "--sizes M in 2^k beyond int" "out of range \[1, 2147483647\]" $cr --sizes=2^31x8
expect_usage_error "--sizes too large in total" "m=2147483647 n=1000 needs [0-9]+ MiB of host memory" $cr --sizes=10x10,2147483647x1000
expect_usage_error "--sizes empty item" "--sizes=',' has an empty item" $cr --sizes=,
expect_usage_error "--sizes trailing comma" "has an empty item" $cr --sizes=10x8,
expect_usage_error "--sizes duplicate comma" "has an empty item" $cr --sizes=10x8,,5x5

# Other options.
expect_usage_error "--data unknown kind" "--data must be one of random\|report\|negative\|wide" $cr --data=zeros
expect_usage_error "--threads above 1024" "--threads=2048 is out of range" $cr --threads=2048
expect_usage_error "--blocks negative" "--blocks=-1 is out of range" $cr --blocks=-1
expect_usage_error "--slow-repeat non-numeric" "--slow-repeat expects an integer" $cr --slow-repeat=x
expect_usage_error "--seed negative" "--seed=-1 is out of range" $cr --seed=-1
expect_usage_error "--only names a version twice" "names version 'tall' twice" $cr --only=tall,cublas,tall
expect_usage_error "--only with an unknown label" "unknown version 'high3' \(known: original,high1,high2,high2_const,block_per_column,tall,tall_det,cublas,block_per_column_over_limit\)" $cr --only=tall,high3
expect_usage_error "--csv unwritable" "cannot write CSV file" $cr --csv=/nonexistent-dir/x.csv
printf 'a,b\n1,2\n' >"$cr_tmp/other.csv"
expect_usage_error "--csv with other columns" "has different columns" $cr --csv="$cr_tmp/other.csv"
expect_usage_error "--output unwritable" "cannot write output file" $cr --output=/nonexistent-dir/y.bin
expect_usage_error "--output with --sizes" "--output needs a single size" $cr --sizes=4x4,5x5 --output="$cr_tmp/o.bin"
expect_usage_error "--print-csv-header with a bad option" "--threads=4096 is out of range" $cr --print-csv-header --threads=4096
expect_usage_error "--print-csv-header with a bad --sizes" "not of the form MxN" $cr --print-csv-header --sizes=12
expect_usage_error "--print-csv-header with a short --input" "not a whole number of rows of n=5 columns" \
  $cr --print-csv-header --input="$cr_tmp/m12.bin" --n=5

# --input: the file gives the element count; N from --n, m = count / N.
expect_usage_error "--input missing" "cannot open input file" $cr --n=4 --input="$cr_tmp/none.bin"
expect_usage_error "--input without --n" "--input needs --n" $cr --input="$cr_tmp/m12.bin"
expect_usage_error "--input of 12 doubles, n = 5" "holds 12 elements, not a whole number of rows of n=5 columns" $cr --n=5 --input="$cr_tmp/m12.bin"
expect_usage_error "--input with --m" "do not give --m with it" $cr --m=3 --n=4 --input="$cr_tmp/m12.bin"
expect_usage_error "--input with positional M N" "do not give --m with it" $cr 3 4 --input="$cr_tmp/m12.bin"
expect_usage_error "--input with --sizes" "do not give --sizes with it" $cr --sizes=3x4 --input="$cr_tmp/m12.bin"
expect_usage_error "--input with --data" "--input and --data exclude each other" $cr --n=4 --data=report --input="$cr_tmp/m12.bin"
head -c 95 "$cr_tmp/m12.bin" >"$cr_tmp/m95.bin"
expect_usage_error "--input not whole doubles" "not a whole number of 8-byte elements" $cr --n=4 --input="$cr_tmp/m95.bin"
: >"$cr_tmp/empty.bin"
expect_usage_error "--input empty" "is empty" $cr --n=4 --input="$cr_tmp/empty.bin"
expect_usage_error "--input is a directory" "is a directory" $cr --n=4 --input="$cr_tmp"
mkfifo "$cr_tmp/fifo.bin"
CW_CASE_TIMEOUT=10 expect_usage_error "--input is a FIFO: refused at once" "is a FIFO" $cr --n=4 --input="$cr_tmp/fifo.bin"
expect_output "--print-csv-header with a valid --input (12 doubles, n = 4)" "^assignment,version," \
  $cr --print-csv-header --input="$cr_tmp/m12.bin" --n=4

# Without a usable GPU, a valid run ends with exit 3 and the plain-words message; no --output
# or --csv file is created, an existing --csv is unchanged (with one, these are GPU runs and
# are left to tier 2).
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  t_skip "no device: exit 3, no file written" "a GPU is present"
else
  $cr --print-csv-header >"$cr_tmp/kept.csv"
  cr_sum=$(md5sum <"$cr_tmp/kept.csv")
  t_run $cr --n=4 --input="$cr_tmp/m12.bin" --output="$cr_tmp/new-out.bin" --csv="$cr_tmp/kept.csv"
  if [ "$T_STATUS" -eq 3 ] && [ "$(wc -l <"$T_ERR")" -eq 1 ] &&
     grep -Eq '^colreduce: no usable CUDA GPU: .*\(CUDA error (100|35), ' "$T_ERR" &&
     [ ! -e "$cr_tmp/new-out.bin" ] && [ "$(md5sum <"$cr_tmp/kept.csv")" = "$cr_sum" ] &&
     ! ls "$cr_tmp" | grep -q '\.tmp\.'; then
    t_pass "no device: exit 3, no file written"
  else
    t_fail "no device: exit 3, no file written" "exit $T_STATUS: $(head -n 1 "$T_ERR")"
  fi
fi
expect_usage_error "--output not created on exit 2" "--n=1025 is out of range" $cr 4 1025 --output="$cr_tmp/never.bin"
if [ -e "$cr_tmp/never.bin" ]; then t_fail "--output not created on exit 2" "file exists"; else t_pass "--output not created on exit 2 (file absent)"; fi

# The report-experiments recipe refuses to append to an existing results CSV (make report-run
# stages it in a fresh folder).
mkdir -p "$cr_tmp/results"
: >"$cr_tmp/results/colreduce.csv"
t_run make --no-print-directory -s report-experiments RESULTS_DIR="$cr_tmp/results"
if [ "$T_STATUS" -ne 0 ] && grep -q "colreduce.csv exists" "$T_ERR" && [ ! -s "$cr_tmp/results/colreduce.csv" ]; then
  t_pass "report-experiments refuses an existing CSV"
else
  t_fail "report-experiments refuses an existing CSV" "exit $T_STATUS"; t_show_failure
fi

# The documents (tables reproduced from the committed CSVs, a relabelled run's own tables, numbers
# in prose backed) are tested for every assignment in common/tests/tier1_reference.sh and
# tier1_readme_check.sh.
