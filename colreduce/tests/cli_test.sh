# Tier 1 of colreduce (no GPU): --help, and every bad option or bad input gives exit 2 with
# one line on stderr, before any CUDA call (so these pass on a machine without a GPU).
cr=bin/colreduce
cr_tmp=$CW_TEST_TMP/colreduce
mkdir -p "$cr_tmp"

expect_output "--help lists the options and the positional form" \
  "--m=N.*--n=N.*--sizes.*--data=random\|report\|negative\|wide.*--threads.*--blocks.*--slow-repeat.*--print-csv-header.*--repeat.*--warmup.*--seed.*--device.*--csv.*--input.*--output.*--pinned.*--only.*M \(= --m\) N \(= --n\)" \
  sh -c "$cr --help | tr '\n' ' '"

# Sizes: M and N positional (run.slurm's form) and long.
expect_usage_error "M = 0" "--m=0 is out of range" $cr 0 8
expect_usage_error "negative M" "--m=-5 is out of range" $cr -5 8
expect_usage_error "N = 0" "--n=0 is out of range" $cr 160000 0
expect_usage_error "N above 1024" "--n=1025 is out of range" $cr 16 1025
expect_usage_error "--n=-1" "--n=-1 is out of range" $cr --n=-1
expect_usage_error "M beyond int" "--m=2147483648 is out of range" $cr 2147483648 8
expect_usage_error "non-numeric M" "--m expects an integer, got 'abc'" $cr abc 8
expect_usage_error "non-numeric N" "--n expects an integer, got '8x'" $cr 100 8x
expect_usage_error "fractional --m" "--m expects an integer" $cr --m=1.5
expect_usage_error "a third positional" "unexpected argument '3'" $cr 1 2 3
expect_usage_error "m*n*8 bytes beyond host memory" "cannot be allocated: .* MiB of host memory" $cr 2147483647 1024
expect_usage_error "--sizes with M N" "--sizes cannot be combined" $cr --sizes=10x3 10 3
expect_usage_error "--sizes item without x" "'100' is not of the form MxN" $cr --sizes=100
expect_usage_error "--sizes item without N" "'100x' is not of the form MxN" $cr --sizes=160000x8,100x
expect_usage_error "--sizes N = 0" "out of range" $cr --sizes=100x0
expect_usage_error "--sizes too large in total" "cannot be allocated" $cr --sizes=10x10,2147483647x1000
expect_usage_error "--sizes empty" "--sizes needs a list" $cr --sizes=,

# Other options.
expect_usage_error "unknown option" "unknown option '--bogus'" $cr --bogus=1
expect_usage_error "--only unknown version" "unknown version 'high3'" $cr --only=tall,high3
expect_usage_error "--data unknown kind" "--data must be one of random\|report\|negative\|wide" $cr --data=zeros
expect_usage_error "--repeat=0" "--repeat=0 is out of range" $cr --repeat=0
expect_usage_error "--warmup=-1" "--warmup=-1 is out of range" $cr --warmup=-1
expect_usage_error "--threads above 1024" "--threads=2048 is out of range" $cr --threads=2048
expect_usage_error "--blocks negative" "--blocks=-1 is out of range" $cr --blocks=-1
expect_usage_error "--slow-repeat non-numeric" "--slow-repeat expects an integer" $cr --slow-repeat=x
expect_usage_error "--seed negative" "--seed=-1 is out of range" $cr --seed=-1
expect_usage_error "--device negative" "--device=-1 is out of range" $cr --device=-1
expect_usage_error "--pinned with a value" "--pinned takes no value" $cr --pinned=1
expect_usage_error "--csv without value" "--csv needs a value" $cr --csv
expect_usage_error "--csv unwritable" "cannot write CSV file" $cr --csv=/nonexistent-dir/x.csv
printf 'a,b\n1,2\n' >"$cr_tmp/other.csv"
expect_usage_error "--csv with other columns" "has different columns" $cr --csv="$cr_tmp/other.csv"
expect_usage_error "--output unwritable" "cannot open output file" $cr --output=/nonexistent-dir/y.bin
expect_usage_error "--output with --sizes" "--output needs a single size" $cr --sizes=4x4,5x5 --output="$cr_tmp/o.bin"

# --input: m*n little-endian doubles.
python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<12d', *range(12)))" >"$cr_tmp/m12.bin"
expect_usage_error "--input missing" "cannot open input file" $cr 3 4 --input="$cr_tmp/none.bin"
expect_usage_error "--input of 12 doubles for 3 x 5" "holds 12 8-byte elements, expected 15" $cr 3 5 --input="$cr_tmp/m12.bin"
expect_usage_error "--input of 12 doubles for 2 x 5" "holds 12 8-byte elements, expected 10" $cr --m=2 --n=5 --input="$cr_tmp/m12.bin"
head -c 95 "$cr_tmp/m12.bin" >"$cr_tmp/m95.bin"
expect_usage_error "--input not whole doubles" "not a whole number of 8-byte elements" $cr 3 4 --input="$cr_tmp/m95.bin"
: >"$cr_tmp/empty.bin"
expect_usage_error "--input empty" "is empty" $cr 3 4 --input="$cr_tmp/empty.bin"
python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<4d', 1, 2, float('nan'), 4))" >"$cr_tmp/nan.bin"
expect_usage_error "--input with NaN" "not finite \(element 2\)" $cr 2 2 --input="$cr_tmp/nan.bin"
expect_usage_error "--input is a directory" "input file" $cr 3 4 --input="$cr_tmp"
expect_usage_error "--input with --sizes" "--input needs a single size" $cr --sizes=3x4,4x3 --input="$cr_tmp/m12.bin"

# Without a usable GPU, a valid run ends with exit 3 and the runtime's message (with one,
# this case is a GPU run and is left to tier 2).
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  t_skip "no device gives exit 3" "a GPU is present"
else
  expect_exit 3 "no device gives exit 3" $cr 3 3
fi

# The figures and tables from a synthetic CSV with the program's own header (the committed
# results/ CSV is rendered by the shared runner once it exists): every figure renders without
# a gnuplot warning, and tables.py fills every marker of a copy of the README.
$cr --print-csv-header | python3 tests/make_fake_csv.py "$cr_tmp/fake.csv"
for cr_fig in kernel_time gpu_total_split; do
  if ! command -v gnuplot >/dev/null; then t_skip "figure $cr_fig renders (synthetic CSV)" "gnuplot not installed"; continue; fi
  if gnuplot -c "plots/$cr_fig.gp" "$cr_tmp/fake.csv" "$cr_tmp/$cr_fig.png" >"$cr_tmp/gp.log" 2>&1 &&
     [ -s "$cr_tmp/$cr_fig.png" ] && ! grep -qiE 'warning|error' "$cr_tmp/gp.log"; then
    t_pass "figure $cr_fig renders (synthetic CSV)"
  else
    t_fail "figure $cr_fig renders (synthetic CSV)" "$(head -n 3 "$cr_tmp/gp.log" | tr '\n' ' ')"
  fi
done
cp README.md "$cr_tmp/README.md"
if python3 tables.py "$cr_tmp/fake.csv" "$cr_tmp/README.md" >"$cr_tmp/tables.log" 2>&1 &&
   ! grep -q 'no results yet' "$cr_tmp/README.md" &&
   [ "$(grep -c '^| 6,400,000 | 32 |' "$cr_tmp/README.md")" -eq 3 ]; then
  t_pass "tables.py fills every README table (synthetic CSV)"
else
  t_fail "tables.py fills every README table (synthetic CSV)" "$(head -n 3 "$cr_tmp/tables.log" | tr '\n' ' ')"
fi
