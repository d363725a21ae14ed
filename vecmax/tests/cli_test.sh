# Tier 1 of vecmax (no GPU): every bad option and bad input file gives exit 2 and one line on
# stderr, before any CUDA call; --help; the sweep list. Sourced by common/run_tests.sh.
B=bin/vecmax
T=$CW_TEST_TMP

expect_output "--help lists every option" \
  "--n=N.*--threads=N.*--blocks=N.*--sp-blocks=N.*--data=.*--offset=N.*--cpu-repeat=N.*--repeat=N.*--warmup=N.*--seed=N.*--device=N.*--csv=.*--input=.*--output=.*--pinned.*--only=" \
  sh -c "$B --help | tr '\n' ' '"
expect_output "--help shows the positional form N THREADS BLOCKS" "\[N\] \[THREADS\] \[BLOCKS\]" $B --help

# Sizes
expect_usage_error "--n=0" "--n=0 is out of range" $B --n=0
expect_usage_error "--n negative" "--n=-5 is out of range" $B --n=-5
expect_usage_error "--n non-numeric" "--n expects an integer, got 'abc'" $B --n=abc
expect_usage_error "--n too large for CUB's int count" "--n=2\^31 is out of range" $B --n=2^31
expect_usage_error "--n without a value" "--n needs a value" $B --n
expect_usage_error "positional N = 0" "--n=0 is out of range" $B 0 256 4
expect_usage_error "positional extra argument" "unexpected argument '9'" $B 100 256 4 9
# Threads: a power of two in [1, 1024]
expect_usage_error "--threads not a power of two" "--threads=48 must be a power of two" $B --threads=48
expect_usage_error "positional threads not a power of two" "--threads=100 must be a power of two" $B 1000 100 4
expect_usage_error "--threads=0" "--threads=0 is out of range" $B --threads=0
expect_usage_error "--threads=2048 (beyond every device's block limit)" "--threads=2048 is out of range" $B --threads=2048
expect_usage_error "--threads non-numeric" "--threads expects an integer" $B --threads=1.5
# Blocks: [1, 2^31-1] (the grid limit of every device since sm_30)
expect_usage_error "--blocks=0" "--blocks=0 is out of range" $B --blocks=0
expect_usage_error "--blocks negative" "--blocks=-3 is out of range" $B --blocks=-3
expect_usage_error "--blocks beyond the device limit" "--blocks=2147483648 is out of range" $B --blocks=2147483648
expect_usage_error "--blocks non-numeric" "--blocks expects an integer" $B --blocks=many
expect_usage_error "--sp-blocks negative" "--sp-blocks=-1 is out of range" $B --sp-blocks=-1
# Other options
expect_usage_error "--repeat=0" "--repeat=0 is out of range" $B --repeat=0
expect_usage_error "--warmup negative" "--warmup=-1 is out of range" $B --warmup=-1
expect_usage_error "--cpu-repeat=0" "--cpu-repeat=0 is out of range" $B --cpu-repeat=0
expect_usage_error "--offset=4" "--offset=4 is out of range" $B --offset=4
expect_usage_error "--data unknown" "--data must be one of" $B --data=zeros
expect_usage_error "--only unknown version" "unknown version 'v2'" $B --only=report,v2
expect_usage_error "unknown option" "unknown option '--size'" $B --size=10
expect_usage_error "--pinned with a value" "--pinned takes no value" $B --pinned=1
expect_usage_error "--seed negative" "--seed=-1 is out of range" $B --seed=-1

expect_output "--print-csv-header prints the columns without a GPU" \
  "^assignment,version,kernel,device,.*,n,threads,blocks,.*kernel_ms,.*bandwidth_GBps,.*pct_of_copy_bw,baseline_ms,speedup_vs_baseline,.*result_ok$" \
  $B --print-csv-header

# Input files
printf '' >"$T/empty.bin"
printf '\x00\x00\x80\x3f\x00' >"$T/five_bytes.bin"
printf '\x00\x00\x80\x3f\x00\x00\x00\x40' >"$T/two_floats.bin"  # 1.0f, 2.0f
expect_usage_error "--input missing" "cannot open input file '$T/missing.bin'" $B --input="$T/missing.bin"
expect_usage_error "--input empty" "input file '$T/empty.bin' is empty" $B --input="$T/empty.bin"
expect_usage_error "--input not a whole number of floats" "has 5 bytes, not a whole number of 4-byte elements" \
  $B --input="$T/five_bytes.bin"
expect_usage_error "--input is a directory" "input file|not a regular file" $B --input="$T"
expect_usage_error "--input with a different --n" "holds 2 4-byte elements, expected 3" $B --input="$T/two_floats.bin" --n=3
expect_usage_error "--input with --data" "--input and --data exclude each other" $B --input="$T/two_floats.bin" --data=negative
# Output files
expect_usage_error "--csv in a missing directory" "cannot write CSV file" $B --n=10 --csv="$T/no/such/dir/x.csv"
echo "a,b,c" >"$T/other.csv"
expect_usage_error "--csv with different columns" "has different columns" $B --n=10 --csv="$T/other.csv"
expect_usage_error "--output in a missing directory" "cannot open output file" $B --n=10 --output="$T/no/such/dir/max.bin"

# The sweep list holds exactly the report's 30 configurations (test_params.py), once each.
report_list="32 4|64 4|128 4|256 4|512 4|1024 4|32 16|64 16|128 16|256 16|512 16|1024 16|32 32|64 32|128 32|256 32|512 32|1024 32|32 64|64 64|128 64|256 64|512 64|1024 64|32 128|64 128|128 128|256 128|512 128|1024 128"
ours=$(sed -e 's/#.*//' sweep_configs.txt | awk 'NF == 2 { print $1, $2 }' | paste -sd '|')
if [ "$ours" = "$report_list" ]; then t_pass "sweep_configs.txt holds the report's 30 configurations"
else t_fail "sweep_configs.txt holds the report's 30 configurations" "got: $ours"; fi
if grep -q '^# vecmax-args: .*--only=report' sweep_configs.txt; then t_pass "sweep_configs.txt names the per-line arguments"
else t_fail "sweep_configs.txt names the per-line arguments" "no '# vecmax-args:' line with --only=report"; fi

# tables.py regenerates the README tables from CSVs with the program's columns (a fake run
# in a scratch copy: the committed README and results are not touched).
mkdir -p "$T/tables/vecmax/results" "$T/tables/common"
cp README.md tables.py sweep_configs.txt "$T/tables/vecmax/" && cp -r original "$T/tables/vecmax/"
cp ../common/readme_tables.py "$T/tables/common/"
$B --print-csv-header >"$T/header.txt"
python3 - "$T/tables/vecmax/results" "$T/header.txt" <<'PY'
import sys, os
out = sys.argv[1]
hdr = open(sys.argv[2]).read().strip()
cols = hdr.split(",")
def row(**kv):
    base = {c: "0" for c in cols}
    base.update({"assignment": "vecmax", "device": "fake", "host_memory": "pageable", "data": "uniform", "result_ok": "1"})
    base.update({k: str(v) for k, v in kv.items()})
    return ",".join(base[c] for c in cols)
with open(os.path.join(out, "sweep.csv"), "w") as f:
    f.write(hdr + "\n")
    for i, (t, b) in enumerate([(t, b) for b in (4, 16, 32, 64, 128) for t in (32, 64, 128, 256, 512, 1024)]):
        f.write(row(version="report", threads=t, blocks=b, kernel_ms=100.0 / (t * b), input_ms=10, output_ms=0.1,
                    total_gpu_ms=10.1 + 100.0 / (t * b), cpu_ms=30, speedup_gpu=30 / (10.1 + 100.0 / (t * b)),
                    n=40960000) + "\n")
with open(os.path.join(out, "copies.csv"), "w") as f:
    f.write(hdr + "\n")
    for mem in ("pageable", "pinned"):
        for v in ("report", "single_pass", "cub"):
            f.write(row(version=v, host_memory=mem, input_ms=12, h2d_GBps=13.6, kernel_ms=0.1, output_ms=0.02,
                        total_gpu_ms=12.2, cpu_ms=30, speedup_gpu=2.4, n=40960000) + "\n")
with open(os.path.join(out, "bench.csv"), "w") as f:
    f.write(hdr + "\n")
    for n in (40960000, 268435456):
        for v, ms in (("single_pass", 0.058), ("cub", 0.064)):
            f.write(row(version=v, n=n, kernel_ms=ms, kernel_ms_no_flush=ms, baseline_ms=0.064,
                        speedup_vs_baseline=0.064 / ms, bandwidth_GBps=2800, pct_of_copy_bw=93) + "\n")
PY
if (cd "$T/tables/vecmax" && python3 tables.py >"$T/tables.log" 2>&1) &&
   grep -q "^| 32 | 4 | " "$T/tables/vecmax/README.md" && grep -q "^| \*\*1024\*\* | \*\*128\*\* |" "$T/tables/vecmax/README.md" &&
   grep -q "^| pinned | cub |" "$T/tables/vecmax/README.md" &&
   grep -q "single_pass kernel <= cub / 1.05: met" "$T/tables/vecmax/README.md"; then
  t_pass "tables.py fills every README table from CSVs with the program's columns"
else
  t_fail "tables.py fills every README table from CSVs with the program's columns" "$(tail -n 3 "$T/tables.log")"
fi
