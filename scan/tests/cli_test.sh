# Tier 1 of scan (no GPU): --help, --print-csv-header, and every bad option or bad input file
# gives exit 2 with one line on stderr, before any CUDA call; without a GPU, exit 3 with the
# runtime's message and no file written. Sourced by common/tests/run_tests.sh from scan/.
scan=bin/scan
tmp=$CW_TEST_TMP

expect_output "scan: --help lists every option" \
  "--n=N.*--sizes=.*--mode=inclusive\|exclusive\|both.*--data=.*--threads=N.*--per-thread=N.*--runs=N.*--lb-items=.*--la-kernel=auto\|ws\|lookback.*--l2=.*--repeat=N.*--warmup=N.*--seed=N.*--device=N.*--csv=.*--input=.*--output=.*--pinned.*--only=.*--print-csv-header.*--inject-fault" \
  sh -c "$scan --help | tr '\n' ' '"
expect_output "scan: shared defaults (--seed=1, --repeat=20, --warmup=3)" \
  "--repeat=N .*default: 20\).*--warmup=N .*default: 3\).*--seed=N .*default: 1\)" \
  sh -c "$scan --help | tr '\n' ' '"
expect_output "scan: --help lists the registry with each version's kind" \
  "cub .*\[library baseline\].*hs_inplace_racy .*\[demonstration, not validated\].*hs_buffered.*hs_multiblock_racy .*\[demonstration, not validated\].*map.*brent_kung.*lookback.*lookahead" \
  sh -c "$scan --help | tr '\n' ' '"

# --list-versions: one line per version; the demonstrations (the report's racy kernels) run
# only when named, everything else by default (what the README's top promises).
name="scan: --list-versions: demonstrations opt-in, the rest by default"
t_run $scan --list-versions
bad=$(awk '($2 == "demonstration") != ($4 == "opt-in") { print $1 }' "$T_OUT")
n_demo=$(awk '$2 == "demonstration"' "$T_OUT" | grep -c .)
if [ "$T_STATUS" -eq 0 ] && [ -z "$bad" ] && [ "$n_demo" -ge 3 ]; then t_pass "$name ($n_demo demonstrations)"
else t_fail "$name" "exit $T_STATUS, wrong: $bad, $n_demo demonstrations"; fi

# Every label of the registry (from --list-versions) is accepted by --only; the plan needs no GPU.
labels=$($scan --list-versions | awk '{ print $1 }')
n_labels=$(echo "$labels" | grep -c .)
if [ "$n_labels" -ge 7 ]; then t_pass "scan: --list-versions lists $n_labels versions"; else t_fail "scan: --list-versions lists the versions" "found: $labels"; fi
for v in $labels; do
  expect_output "scan: --only=$v is planned (--print-csv-header)" "^assignment,version," \
    $scan --only=$v --n=100 --mode=inclusive --print-csv-header
done

# --print-csv-header: the core columns first, then those the tables and figures read.
expect_output "scan: --print-csv-header starts with the core columns" \
  "^assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,n,threads,blocks,kernel_ms,kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,result_ok,mode," \
  $scan --print-csv-header
header=$($scan --print-csv-header)
missing=""
for col in mode data seed per_thread kernel_min_ms copy_bw_GBps model_bytes model_GBps cpu_ms speedup_vs_cpu \
           h2d_ms d2h_ms total_ms mismatches first_mismatch runs wrong_runs mse mse_max sse \
           k1_name k1_grid k1_block k1_regs k1_smem_bytes k1_blocks_per_sm k1_occupancy k1_waves k3_waves; do
  echo ",$header," | grep -q ",$col," || missing="$missing $col"
done
if [ -z "$missing" ]; then t_pass "scan: the header has every column tables.py and plots/ read"
else t_fail "scan: the header has every column tables.py and plots/ read" "missing:$missing"; fi
expect_usage_error "scan: --print-csv-header with a bad option" "--n=0 is out of range" $scan --print-csv-header --n=0
expect_usage_error "scan: --print-csv-header with a plan that cannot run" "hs_buffered cannot run n=1025" \
  $scan --print-csv-header --only=hs_buffered --n=1025
expect_output "scan: --threads=0 (automatic) is accepted" "^assignment," $scan --threads=0 --print-csv-header
expect_output "scan: --inject-fault is accepted" "^assignment," $scan --inject-fault --print-csv-header
expect_usage_error "scan: --corrupt is gone (--inject-fault)" "unknown option '--corrupt'" $scan --corrupt

expect_usage_error "scan: unknown option" "unknown option" $scan --bogus
expect_usage_error "scan: single-dash option" "unknown option" $scan -x
expect_usage_error "scan: --n=0" "--n=0 is out of range" $scan --n=0
expect_usage_error "scan: negative N" "out of range" $scan --n=-5
expect_usage_error "scan: non-numeric --n" "expects an integer" $scan --n=abc
expect_usage_error "scan: --n beyond 2^30" "out of range" $scan --n=2^31
expect_usage_error "scan: positional N out of range" "out of range" $scan 0
expect_usage_error "scan: two positional arguments" "unexpected argument" $scan 100 200
expect_usage_error "scan: --n without a value" "needs a value" $scan --n
expect_usage_error "scan: --n and --sizes" "options --sizes and --n exclude each other" $scan --n=5 --sizes=3
expect_usage_error "scan: empty --sizes range" "empty range" $scan --sizes=10..2
expect_usage_error "scan: bad --sizes item" "expects an integer" $scan --sizes=1,two
expect_usage_error "scan: empty --sizes item" "empty item" $scan --sizes=1,,2
expect_usage_error "scan: --sizes out of range" "out of range" $scan --sizes=1,2^31
expect_usage_error "scan: --threads not a power of two" "power of two" $scan --threads=100
expect_usage_error "scan: --threads above 1024" "out of range" $scan --threads=2048
expect_usage_error "scan: --threads below 32" "out of range" $scan --threads=16
expect_usage_error "scan: --per-thread=1 (totals would never shrink)" "out of range" $scan --per-thread=1
expect_usage_error "scan: --runs=0" "out of range" $scan --runs=0
expect_usage_error "scan: --repeat=0" "out of range" $scan --repeat=0
expect_usage_error "scan: --seed beyond 2^32-1" "--seed=2\^32 is out of range \[0, 4294967295\]" $scan --seed=2^32
expect_usage_error "scan: bad --mode" "must be one of" $scan --mode=both2
expect_usage_error "scan: bad --data" "must be one of" $scan --data=zeros
expect_usage_error "scan: bad --l2" "must be one of" $scan --l2=cold
expect_usage_error "scan: bad --lb-items" "must be one of" $scan --lb-items=8
expect_usage_error "scan: bad --la-kernel" "must be one of" $scan --la-kernel=cub
expect_usage_error "scan: unknown version in --only" "unknown version 'hs'" $scan --only=cub,hs
expect_usage_error "scan: version named twice in --only" "twice" $scan --only=cub,map,cub
expect_usage_error "scan: --pinned takes no value" "takes no value" $scan --pinned=1
expect_usage_error "scan: hs_buffered asked for beyond one block" "hs_buffered cannot run n=1025" \
  $scan --only=hs_buffered --n=1025
expect_usage_error "scan: hs_buffered beyond --threads" "hs_buffered cannot run n=33" \
  $scan --only=hs_buffered --threads=32 --n=33
expect_usage_error "scan: hs_inplace_racy beyond one block (none of --sizes)" "hs_inplace_racy cannot run n=1025" \
  $scan --only=hs_inplace_racy --sizes=1025..1030
expect_usage_error "scan: racy versions have no exclusive scan" "nothing to run" \
  $scan --only=hs_inplace_racy,hs_multiblock_racy --mode=exclusive --n=100
expect_usage_error "scan: --output with several sizes" "single size" \
  $scan --sizes=1,2 --mode=inclusive --output=$tmp/o.bin
expect_usage_error "scan: --output with racy versions only" "validated version" \
  $scan --n=10 --mode=inclusive --only=hs_multiblock_racy --output=$tmp/o.bin
expect_usage_error "scan: --output in a missing directory" "cannot write output file" \
  $scan --n=10 --mode=inclusive --output=$tmp/no/such/dir/o.bin
expect_usage_error "scan: --output is a directory" "output file '$tmp' is a directory" \
  $scan --n=10 --mode=inclusive --output=$tmp
expect_usage_error "scan: --csv in a missing directory" "cannot write CSV" $scan --n=10 --csv=$tmp/no/such/dir/r.csv
printf 'version,n\ncub,1\n' >"$tmp/scan-other.csv"
expect_usage_error "scan: --csv with other columns (before any GPU work)" "has different columns" \
  $scan --n=10 --csv="$tmp/scan-other.csv"

# Bad input files, and --input with an option that also gives the size.
expect_usage_error "scan: missing --input file" "cannot open input file" $scan --input=$tmp/none.bin
: >"$tmp/empty.bin"
expect_usage_error "scan: empty --input file" "is empty" $scan --input=$tmp/empty.bin
printf 'abcde' >"$tmp/odd.bin"
expect_usage_error "scan: --input not a whole number of int32" "not a whole number" $scan --input=$tmp/odd.bin
expect_usage_error "scan: --input is a directory" "input file .* is a directory" $scan --input=$tmp
printf '\001\000\000\000' >"$tmp/one.bin"
expect_usage_error "scan: --input with --n" "do not give --n" $scan --input=$tmp/one.bin --n=1
expect_usage_error "scan: --input with a positional N" "do not give --n" $scan --input=$tmp/one.bin 5
expect_usage_error "scan: --input with --sizes" "do not give --sizes" $scan --input=$tmp/one.bin --sizes=1,2
expect_usage_error "scan: --input with --data" "--input and --data exclude each other" \
  $scan --input=$tmp/one.bin --data=iota
rm -f "$tmp/scan.fifo"
if mkfifo "$tmp/scan.fifo" 2>/dev/null; then
  expect_usage_error "scan: a FIFO as --input is refused at once (no hang)" "is a FIFO" \
    timeout 10 $scan --input=$tmp/scan.fifo
else
  t_skip "scan: a FIFO as --input is refused at once (no hang)" "mkfifo failed"
fi

# No file is left behind by a run that stops with exit 2 or 3.
rm -f "$tmp/scan-out2.bin" "$tmp/scan-new2.csv"
t_run $scan --n=10 --mode=inclusive --runs=0 --output="$tmp/scan-out2.bin" --csv="$tmp/scan-new2.csv"
if [ "$T_STATUS" -eq 2 ] && [ ! -e "$tmp/scan-out2.bin" ] && [ ! -e "$tmp/scan-new2.csv" ]; then
  t_pass "scan: exit 2 creates neither --output nor --csv"
else
  t_fail "scan: exit 2 creates neither --output nor --csv" "exit $T_STATUS; $(ls "$tmp" | grep scan- | tr '\n' ' ')"
fi
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  for c in "exits 3 with the runtime's message" "exit 3 leaves no --output and an existing --csv unchanged" \
           "--n=2^30 without a GPU exits 3 before filling 4 GiB"; do
    t_skip "scan: no GPU: $c" "a usable GPU is present"
  done
else
  t_run $scan --n=100
  if [ "$T_STATUS" -eq 3 ] && [ "$(wc -l <"$T_ERR")" -eq 1 ] &&
     grep -Eq '^scan: no usable CUDA GPU: .*\(CUDA error (100|35), ' "$T_ERR"; then
    t_pass "scan: no GPU: exits 3 with the runtime's message"
  else
    t_fail "scan: no GPU: exits 3 with the runtime's message" "exit $T_STATUS: $(head -n 2 "$T_ERR" | tr '\n' ' ')"
  fi
  rm -f "$tmp/scan-out3.bin"
  $scan --print-csv-header >"$tmp/scan-old.csv"
  echo "scan,cub,1,1,old row" >>"$tmp/scan-old.csv"
  cp "$tmp/scan-old.csv" "$tmp/scan-old.copy"
  t_run $scan --n=10 --mode=inclusive --output="$tmp/scan-out3.bin" --csv="$tmp/scan-old.csv"
  if [ "$T_STATUS" -eq 3 ] && [ ! -e "$tmp/scan-out3.bin" ] && cmp -s "$tmp/scan-old.csv" "$tmp/scan-old.copy" &&
     [ -z "$(ls "$tmp" | grep -E '\.tmp\.')" ]; then
    t_pass "scan: no GPU: exit 3 leaves no --output and an existing --csv unchanged"
  else
    t_fail "scan: no GPU: exit 3 leaves no --output and an existing --csv unchanged" "exit $T_STATUS; $(ls "$tmp" | tr '\n' ' ')"
  fi
  t_run timeout 20 $scan --n=2^30 --only=cub --mode=inclusive
  if [ "$T_STATUS" -eq 3 ]; then t_pass "scan: no GPU: --n=2^30 without a GPU exits 3 before filling 4 GiB"
  else t_fail "scan: no GPU: --n=2^30 without a GPU exits 3 before filling 4 GiB" "exit $T_STATUS"; fi
fi

# A run's tables (tables.py DIR --out FILE) name its GPU on at least three lines. What every
# assignment's documents must be (tables reproduced from the committed CSVs, a relabelled run's
# own tables naming its GPU, numbers in prose backed) is tested once for all in
# common/tests/tier1_reference.sh and tier1_readme_check.sh.
name="scan: tables.py DIR --out FILE names the run's GPU on at least 3 lines"
if [ -f results/table1_1.csv ]; then
  gpu=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "device") c = i; next } { print $c; exit }' results/table1_1.csv)
  if python3 tables.py results --out "$tmp/run.md" >"$tmp/run.log" 2>&1 &&
     [ "$(grep -c "$gpu" "$tmp/run.md")" -ge 3 ]; then t_pass "$name"
  else t_fail "$name" "$(grep -c "$gpu" "$tmp/run.md" 2>/dev/null) lines name $gpu; $(tail -n 1 "$tmp/run.log")"; fi
else
  t_skip "$name" "no committed results/table1_1.csv"
fi
