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
t_run python3 results_summary.py "$sum_dir/README.md" "$sum_dir/demo" "$sum_dir/nobw"
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
