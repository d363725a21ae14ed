# Tier 1 of vecmax (no GPU): its own options and input rules (the shared contract's cases are
# in common/tests/tier1_robustness.sh), each bad one exit 2 with one line on stderr before
# any CUDA call; the order of work without a GPU (exit 3 before any host buffer is filled,
# no file left); --help; the sweep list; tables.py. Sourced by common/tests/run_tests.sh.
B=bin/vecmax
T=$CW_TEST_TMP
# A machine without a usable GPU, on any machine: no device is visible (CUDA error 100), or
# the driver cannot run this runtime (35).
NO_GPU=(env CUDA_VISIBLE_DEVICES=-1)

expect_output "--help lists every option" \
  "--n=N.*--threads=N.*--blocks=N.*--sp-blocks=N.*--data=.*--offset=N.*--cpu-repeat=N.*--repeat=N.*--warmup=N.*--seed=N.*--device=N.*--csv=.*--input=.*--output=.*--pinned.*--only=.*--print-csv-header.*--inject-fault" \
  sh -c "$B --help | tr '\n' ' '"
expect_output "--help shows the positional form N THREADS BLOCKS" "\[N\] \[THREADS\] \[BLOCKS\]" $B --help
expect_output "--help lists the registry's versions" "Versions.*report .*single_pass .*cub .*library baseline" \
  sh -c "$B --help | tr '\n' ' '"
expect_output "--help says what 0 means for --threads and --blocks" "--threads=N .*0: automatic, 1024.*--blocks=N .*0: automatic, 128" \
  sh -c "$B --help | tr '\n' ' '"

# Sizes
expect_usage_error "--n=0" "--n=0 is out of range" $B --n=0
expect_usage_error "--n negative" "--n=-5 is out of range" $B --n=-5
expect_usage_error "--n non-numeric" "--n expects an integer.*got 'abc'" $B --n=abc
expect_usage_error "--n too large for CUB's int count" "--n=2\^31 is out of range" $B --n=2^31
expect_usage_error "--n without a value" "--n needs a value" $B --n
expect_usage_error "positional N = 0" "--n=0 is out of range" $B 0 256 4
expect_usage_error "positional extra argument" "unexpected argument '9'" $B 100 256 4 9
# Threads: 0 (automatic) or a power of two in [1, 1024]
expect_usage_error "--threads not a power of two" "--threads=48 must be a power of two" $B --threads=48
expect_usage_error "positional threads not a power of two" "--threads=100 must be a power of two" $B 1000 100 4
expect_usage_error "--threads negative" "--threads=-1 is out of range \[0, 1024\]" $B --threads=-1
expect_usage_error "--threads=2048 (beyond every device's block limit)" "--threads=2048 is out of range" $B --threads=2048
expect_usage_error "--threads non-numeric" "--threads expects an integer" $B --threads=1.5
# Blocks: 0 (automatic) or [1, 2^31-1] (the grid limit of every device since sm_30)
expect_usage_error "--blocks negative" "--blocks=-3 is out of range \[0, 2147483647\]" $B --blocks=-3
expect_usage_error "--blocks beyond the device limit" "--blocks=2147483648 is out of range" $B --blocks=2147483648
expect_usage_error "--blocks non-numeric" "--blocks expects an integer" $B --blocks=many
expect_usage_error "--sp-blocks negative" "--sp-blocks=-1 is out of range" $B --sp-blocks=-1
expect_output "--threads=0 --blocks=0 --sp-blocks=0 (automatic) are accepted" "^assignment," \
  $B --threads=0 --blocks=0 --sp-blocks=0 --print-csv-header
expect_output "positional 0 0 (automatic) is accepted" "^assignment," $B 1000 0 0 --print-csv-header
# Other options
expect_usage_error "--cpu-repeat=0" "--cpu-repeat=0 is out of range" $B --cpu-repeat=0
expect_usage_error "--offset=4" "--offset=4 is out of range" $B --offset=4
expect_usage_error "--data unknown" "--data must be one of" $B --data=zeros
expect_usage_error "--only unknown version" "unknown version 'v2'" $B --only=report,v2
expect_usage_error "--only names a version twice" "names version 'cub' twice" $B --only=cub,report,cub
expect_usage_error "--csv-header is gone (--print-csv-header)" "unknown option '--csv-header'" $B --csv-header
expect_usage_error "--pinned with a value" "--pinned takes no value" $B --pinned=1

# --print-csv-header: the core columns, then vecmax's; only the header on stdout, nothing on
# stderr (slurm/vecmax_gather.sbatch and the tests read it); every other option checked first.
t_run $B --print-csv-header
if [ "$T_STATUS" -eq 0 ] && [ "$(wc -l <"$T_OUT")" -eq 1 ] && [ ! -s "$T_ERR" ] &&
   grep -Eq "^assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,n,threads,blocks,kernel_ms,kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,result_ok,kernel,.*,kernel_ms_no_flush,copy_bw_GBps,input_ms,h2d_GBps,output_ms,total_gpu_ms,cpu_ms,gpu_gflops,cpu_gflops,speedup_gpu,rel_error,result,expected$" "$T_OUT"; then
  t_pass "--print-csv-header: the header alone on stdout, core columns first"
else
  t_fail "--print-csv-header: the header alone on stdout, core columns first" "exit $T_STATUS: $(head -c 400 "$T_OUT")"
fi
expect_usage_error "--print-csv-header with a bad --threads" "--threads=48 must be a power of two" $B --print-csv-header --threads=48
expect_usage_error "--print-csv-header with a missing --input" "cannot open input file" $B --print-csv-header --input="$T/missing.bin"
expect_usage_error "--print-csv-header with --input and --n" "do not give --n with it" $B --print-csv-header --input=/dev/null --n=5

# Input files: the file gives N (no --n, no positional N, no --data with it); its size is
# checked from fstat before any byte is read.
printf '' >"$T/empty.bin"
printf '\x00\x00\x80\x3f\x00' >"$T/five_bytes.bin"
printf '\x00\x00\x80\x3f\x00\x00\x00\x40' >"$T/two_floats.bin"  # 1.0f, 2.0f
expect_usage_error "--input missing" "cannot open input file '$T/missing.bin'" $B --input="$T/missing.bin"
expect_usage_error "--input empty" "input file '$T/empty.bin' is empty" $B --input="$T/empty.bin"
expect_usage_error "--input not a whole number of floats" "has 5 bytes, not a whole number of 4-byte elements" \
  $B --input="$T/five_bytes.bin"
expect_usage_error "--input with --n (even the file's own size)" "option --input sets the size from the file; do not give --n" \
  $B --input="$T/two_floats.bin" --n=2
expect_usage_error "--input with a positional N" "do not give --n" $B --input="$T/two_floats.bin" 2 32 1
expect_usage_error "--input with --data" "--input and --data exclude each other" $B --input="$T/two_floats.bin" --data=negative
mkfifo "$T/fifo"
CW_CASE_TIMEOUT=10 expect_usage_error "a FIFO as --input: exit 2 at once" "is a FIFO" $B --input="$T/fifo"
# A 9 GiB (sparse) file holds more than 2^31-1 floats: refused from its size, in well under a second.
if truncate -s 9G "$T/huge.bin" 2>/dev/null; then
  CW_CASE_TIMEOUT=10 expect_usage_error "a 9 GiB --input is refused from its size, before reading" \
    "holds 2415919104 elements, more than 2147483647" $B --input="$T/huge.bin"
  rm -f "$T/huge.bin"
else
  t_skip "a 9 GiB --input is refused from its size, before reading" "cannot create a sparse file in $T"
fi

# Output files: nothing created on exit 2 or 3, an existing CSV unchanged on exit 3.
expect_usage_error "--output in a missing directory" "cannot write output file '$T/no/such/dir/max.bin'" \
  $B --n=10 --output="$T/no/such/dir/max.bin"
expect_usage_error "--csv in a missing directory" "cannot write CSV file" $B --n=10 --csv="$T/no/such/dir/x.csv"
echo "a,b,c" >"$T/other.csv"
expect_usage_error "--csv with different columns" "has different columns" $B --n=10 --csv="$T/other.csv"
expect_usage_error "--output with a bad option: exit 2" "must be a power of two" $B --n=10 --threads=3 --output="$T/new.bin" --csv="$T/new.csv"
if [ -e "$T/new.bin" ] || [ -e "$T/new.csv" ]; then t_fail "exit 2 leaves no --output or --csv file" "$(ls "$T")"
else t_pass "exit 2 leaves no --output or --csv file"; fi

# Without a GPU: exit 3 with one line in plain words, before any host buffer is allocated or
# filled (--n=2^31-1 would fill 8 GiB first), no new file, an existing CSV unchanged.
$B --print-csv-header >"$T/existing.csv"
echo "vecmax,report,1,0,earlier,run" >>"$T/existing.csv"
cp "$T/existing.csv" "$T/existing.copy"
CW_CASE_TIMEOUT=10 t_run "${NO_GPU[@]}" $B --n=2147483647 --csv="$T/existing.csv" --output="$T/max.bin"
if [ "$T_STATUS" -ne 3 ]; then
  t_fail "no GPU: --n=2^31-1 exits 3 at once" "exit $T_STATUS"; t_show_failure
elif [ "$(wc -l <"$T_ERR")" -ne 1 ] || ! grep -Eq "^vecmax: no usable CUDA GPU: .*\(CUDA error (35|100), " "$T_ERR"; then
  t_fail "no GPU: --n=2^31-1 exits 3 at once" "stderr: $(head -c 300 "$T_ERR")"
elif grep -q '^n=' "$T_OUT"; then
  t_fail "no GPU: --n=2^31-1 exits 3 at once" "the data was made before the device probe"
else
  t_pass "no GPU: --n=2^31-1 exits 3 at once, one line"
fi
if [ -e "$T/max.bin" ] || ! cmp -s "$T/existing.csv" "$T/existing.copy" || ls "$T" | grep -q '\.tmp\.'; then
  t_fail "no GPU: no --output file, the existing --csv unchanged" "$(ls "$T" | tr '\n' ' ')"
else
  t_pass "no GPU: no --output file, the existing --csv unchanged"
fi
CW_CASE_TIMEOUT=10 expect_exit 3 "no GPU with a valid --input: exit 3" "${NO_GPU[@]}" $B --input="$T/two_floats.bin"

# The sweep list holds exactly the report's 30 configurations (test_params.py), once each.
report_list="32 4|64 4|128 4|256 4|512 4|1024 4|32 16|64 16|128 16|256 16|512 16|1024 16|32 32|64 32|128 32|256 32|512 32|1024 32|32 64|64 64|128 64|256 64|512 64|1024 64|32 128|64 128|128 128|256 128|512 128|1024 128"
ours=$(sed -e 's/#.*//' sweep_configs.txt | awk 'NF == 2 { print $1, $2 }' | paste -sd '|')
if [ "$ours" = "$report_list" ]; then t_pass "sweep_configs.txt holds the report's 30 configurations"
else t_fail "sweep_configs.txt holds the report's 30 configurations" "got: $ours"; fi
if grep -q '^# vecmax-args: .*--only=report' sweep_configs.txt; then t_pass "sweep_configs.txt names the per-line arguments"
else t_fail "sweep_configs.txt names the per-line arguments" "no '# vecmax-args:' line with --only=report"; fi

# tables.py writes every table of a run of the program's columns into a file of its own (a
# fake run in a scratch folder: the committed README, DETAILS and results are not touched).
mkdir -p "$T/tables/vecmax/results"
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
python3 tables.py "$T/tables/vecmax/results" --out "$T/tables/run.md" >"$T/tables.log" 2>&1 &&
  grep -q "^| 32 | 4 | " "$T/tables/run.md" && grep -q "^| 40,960,000 | pinned | cub |" "$T/tables/run.md" &&
  grep -q "^| 268,435,456 | single_pass | " "$T/tables/run.md" && grep -q "^| quantity | GTX 970 | fake |" "$T/tables/run.md"
t_verdict "tables.py RUN --out F: every table of a run with the program's columns" "$T/tables.log"

# With no results at all, every table of the run says it has no data, and nothing fails; with
# a profile.csv in ncu_tidy's layout the counters' table is filled (CUB: its two kernels), and
# plots/dram_sol.gp draws it (a made-up profile of the three versions at both sizes).
mkdir -p "$T/tables/empty" "$T/tables/prof"
python3 tables.py "$T/tables/empty" --out "$T/tables/empty.md" >"$T/tables.log" 2>&1 &&
  grep -q "(no data: sweep.csv" "$T/tables/empty.md" && grep -q "(no data: bench.csv" "$T/tables/empty.md"
t_verdict "tables.py without any results: no-data lines, no failure" "$T/tables.log"
python3 - "$T/tables/prof/profile.csv" <<'PY'
import csv, sys
w = csv.writer(open(sys.argv[1], "w"), lineterminator="\n")
w.writerow("assignment,version,kernel,m,n,metric,unit,value,launches,device,ncu_version".split(","))
kernels = {"report": ["vecmax_grid_stride_shared_tree"], "single_pass": ["vecmax_single_pass_vec4<1024, 4>"],
           "cub": ["cub::detail::reduce::DeviceReduceKernel<P>", "cub::detail::reduce::DeviceReduceSingleTileKernel<P>"]}
dram = {"report": 41.5, "single_pass": 93.25, "cub": 89.0}
for n in (40960000, 268435456):
    for v, ks in kernels.items():
        for i, k in enumerate(ks):
            for m, u, x in (("gpu__time_duration.sum", "nsecond", 3000 if i else n / 700.0),
                            ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", 0.5 if i else dram[v]),
                            ("dram__bytes_read.sum", "byte", 4096 if i else 4 * n), ("dram__bytes_write.sum", "byte", 512),
                            ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", 30),
                            ("sm__warps_active.avg.pct_of_peak_sustained_active", "%", 80),
                            ("launch__grid_size", "", 1 if i else 128 if v == "report" else 264),
                            ("launch__block_size", "", 1024), ("launch__registers_per_thread", "register/thread", 32),
                            ("launch__waves_per_multiprocessor", "", 1)):
                w.writerow(["vecmax", v, k, "", n, m, u, x, 1, "fake GPU", "2025.3"])
PY
python3 tables.py "$T/tables/prof" --out "$T/tables/prof.md" >"$T/tables.log" 2>&1 &&
  grep -q "^| 40,960,000 | single_pass | 1 | " "$T/tables/prof.md" && grep -q "^| 268,435,456 | cub | 2 | " "$T/tables/prof.md" &&
  grep -q "^| 40,960,000 | report | 1 | .* | 41.5 | 128 × 1024 |" "$T/tables/prof.md"
t_verdict "tables.py fills the counters' table from a profile.csv" "$T/tables.log"
figure_case "dram_sol.gp draws a profile.csv" plots/dram_sol.gp "$T/tables/prof/profile.csv" "$T/dram_sol.png" "$T/gp.log"
