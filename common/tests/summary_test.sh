# Tier 1: the top README's results summary (results_summary.py) on made-up results.
sum_dir=$CW_TEST_TMP/summary
rm -rf "$sum_dir" && mkdir -p "$sum_dir/demo/results" "$sum_dir/nobw/results"
printf '# x\n<!-- BEGIN results-summary -->\n<!-- END results-summary -->\n' >"$sum_dir/README.md"
h=version,validated,is_baseline,n,kernel_ms,kernel_ms_scope,baseline_ms,speedup_vs_baseline,bandwidth_GBps,pct_of_copy_bw,result_ok
{ echo "$h"
  echo "lib,1,1,1000,1.0,kernels,1.0,1.0,800,40,1"
  echo "fast,1,0,1000,0.5,kernels,1.0,2.0,1600,80,1"
  echo "racy,0,0,1000,0.1,kernels,1.0,10,8000,400,1"
  echo "slow,1,0,1000,2.0,kernels,1.0,0.5,400,20,0"; } >"$sum_dir/demo/results/a.csv"
{ echo "$h"; echo "other,1,1,10,1.0,call: alloc+kernels,1.0,1.0,,,1"; echo "single,1,0,10,0.25,kernels,1.0,4.0,,,1"; } >"$sum_dir/nobw/results/b.csv"
t_run python3 py/results_summary.py "$sum_dir/README.md" "$sum_dir/demo" "$sum_dir/nobw"
demo_row=$(grep -F '[demo]' "$sum_dir/README.md" || true)
nobw_row=$(grep -F '[nobw]' "$sum_dir/README.md" || true)
if [ "$T_STATUS" -ne 0 ]; then
  t_fail "results summary: runs" "exit $T_STATUS"; t_show_failure
else
  # The racy row (validated = 0, right this time) is faster but never the best version,
  # and never a PASS or FAIL.
  case $demo_row in
    *"| fast |"*"| lib |"*"2.00×"*"1 of 3 rows FAIL (slow); 1 rows of demonstrations, not validated (racy)"*)
      t_pass "results summary: demonstrations counted apart, failures named" ;;
    *) t_fail "results summary: demonstrations counted apart, failures named" "row: $demo_row" ;;
  esac
  # A bandwidth of 0 (not applicable) is left empty, not printed as 0.0.
  case $nobw_row in
    *"| single |"*"| other (call: alloc+kernels) |"*"4.00× |  |  |"*) t_pass "results summary: baseline from is_baseline with its scope, no bandwidth shows empty" ;;
    *) t_fail "results summary: baseline from is_baseline with its scope, no bandwidth shows empty" "row: $nobw_row" ;;
  esac
fi

# A second GPU's results (results/h200/): one row per GPU in the main table, both GPUs in one
# row of the side-by-side table, and a size where the best version is behind its library listed.
mkdir -p "$sum_dir/demo/results/h200"
{ echo "$h,device"
  echo "lib,1,1,1000,1.0,kernels,1.0,1.0,800,40,1,NVIDIA H200"
  echo "fast,1,0,1000,0.8,kernels,1.0,1.25,1000,50,1,NVIDIA H200"
  echo "lib,1,1,10,0.004,kernels,0.004,1.0,1,1,1,NVIDIA H200"
  echo "fast,1,0,10,0.005,memset+kernels,0.004,0.8,1,1,1,NVIDIA H200"; } >"$sum_dir/demo/results/h200/a.csv"
t_run python3 py/results_summary.py "$sum_dir/README.md" "$sum_dir/demo" "$sum_dir/nobw"
if [ "$T_STATUS" -ne 0 ]; then
  t_fail "results summary: a second GPU's results" "exit $T_STATUS"; t_show_failure
else
  rows=$(grep -c -F '| [demo](' "$sum_dir/README.md")
  side=$(grep -F '| H200: best version, size | H200: speed-up |' "$sum_dir/README.md" || true)
  pair=$(grep -F '| [demo](' "$sum_dir/README.md" | grep -F '2.00×' | grep -F '1.25×' || true)
  late=$(grep -F -- '- demo `fast` on H200: 0.800× at n = 10 (5.0 µs against 4.0 µs; its time includes memset+kernels' "$sum_dir/README.md" || true)
  if [ "$rows" = 3 ] && [ -n "$side" ] && [ -n "$pair" ] && [ -n "$late" ]; then
    t_pass "results summary: a second GPU's results side by side, slower sizes listed"
  else
    t_fail "results summary: a second GPU's results side by side, slower sizes listed" "rows $rows; $(sed -n '/BEGIN/,/END/p' "$sum_dir/README.md")"
  fi
fi

# A results tree whose CSVs name another device (a student's run on an A100): the regenerated
# summary names that device and nowhere H100; make plots' line counts assignments and GPUs.
sum_repo=$CW_TEST_TMP/summary-relabelled
rm -rf "$sum_repo"; mkdir -p "$sum_repo"
sum_top=$(cd .. && pwd)
sum_assignments=$(cd .. && bash common/scripts/assignments.sh)
cp "$sum_top/README.md" "$sum_repo/"
for a in $sum_assignments; do
  mkdir -p "$sum_repo/$a"
  cp -r "$sum_top/$a/results" "$sum_repo/$a/" 2>/dev/null
  cp "$sum_top/$a/README.md" "$sum_repo/$a/" 2>/dev/null
  find "$sum_repo/$a/results" -maxdepth 1 -name '*.csv' -exec sed -i 's/NVIDIA H100 80GB HBM3/NVIDIA A100-SXM4-40GB/g' {} +
done
sum_case="results summary: CSVs relabelled as an A100 regenerate README.md without the word H100"
if ! grep -rqs 'H100' "$sum_repo"/*/results/*.csv 2>/dev/null && grep -q 'H100' "$sum_top/README.md"; then
  t_run python3 py/results_summary.py "$sum_repo/README.md" $(for a in $sum_assignments; do echo "$sum_repo/$a"; done)
  if [ "$T_STATUS" -ne 0 ]; then t_fail "$sum_case" "exit $T_STATUS"; t_show_failure
  elif grep -q 'H100' "$sum_repo/README.md"; then t_fail "$sum_case" "$(grep -n 'H100' "$sum_repo/README.md" | head -n 3 | cut -c1-160)"
  elif ! grep -q '| A100-SXM4-40GB: best version, size |' "$sum_repo/README.md" || ! grep -q 'NVIDIA A100-SXM4-40GB' "$sum_repo/README.md"; then
    t_fail "$sum_case" "the A100 is not named in the summary"
  else t_pass "$sum_case"; fi
  n_a=$(wc -w <<<"$sum_assignments")
  n_g=$(grep -c '(NVIDIA' <<<"$(tr ')' '\n' <"$T_OUT")")
  if grep -q "^results_summary: .*: $n_a of $n_a assignments with results, $n_g GPUs: results/ (NVIDIA A100-SXM4-40GB)" "$T_OUT" && [ "$n_g" -ge 1 ]; then
    t_pass "results summary: its line counts assignments ($n_a) and GPUs ($n_g), not rows"
  else t_fail "results summary: its line counts assignments and GPUs, not rows" "$(cat "$T_OUT")"; fi
else
  t_skip "$sum_case" "the committed CSVs name no H100 (nothing to relabel)"
fi
