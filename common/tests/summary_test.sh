# Tier 1: the top README's results tables (py/results_summary.py) on made-up results: the
# best version is the fastest validated one that passed at the largest size; demonstrations
# (validated = 0) are counted apart and never picked; failures are named; the baseline comes
# from is_baseline with its scope; a second reference set (results/TAG/) gets its own row and
# column named by its device; a version slower than its library at a size is listed.
sum_dir=$CW_TEST_TMP/summary
rm -rf "$sum_dir" && mkdir -p "$sum_dir/demo/results/h200" "$sum_dir/nobw/results"
printf '%s\n' "# x" "<!-- BEGIN results-summary -->" "<!-- END results-summary -->" "<!-- BEGIN side-by-side -->" \
  "<!-- END side-by-side -->" "<!-- BEGIN slower-than-library -->" "<!-- END slower-than-library -->" >"$sum_dir/README.md"
h=version,validated,is_baseline,device,n,kernel_ms,kernel_ms_scope,baseline_ms,speedup_vs_baseline,bandwidth_GBps,pct_of_copy_bw,result_ok
{ echo "$h"
  echo "lib,1,1,GPU A,1000,1.0,kernels,1.0,1.0,800,40,1"
  echo "fast,1,0,GPU A,1000,0.5,kernels,1.0,2.0,1600,80,1"
  echo "racy,0,0,GPU A,1000,0.1,kernels,1.0,10,8000,400,1"
  echo "slow,1,0,GPU A,1000,2.0,kernels,1.0,0.5,400,20,0"
  echo "fast,1,0,GPU A,10,0.02,kernels,0.01,0.5,1,1,1"; } >"$sum_dir/demo/results/a.csv"
{ echo "$h"; echo "fast,1,0,GPU B,1000,0.25,kernels,1.0,4.0,3200,90,1"; } >"$sum_dir/demo/results/h200/a.csv"
{ echo "$h"; echo "other,1,1,GPU A,10,1.0,call: alloc+kernels,1.0,1.0,,,1"; echo "single,1,0,GPU A,10,0.25,kernels,1.0,4.0,,,1"; } >"$sum_dir/nobw/results/b.csv"
t_run python3 py/results_summary.py --root "$sum_dir" demo nobw
grep -qF '| [demo](demo/README.md) | GPU A | fast | n = 1,000 | 0.5000 | lib | 1.0000 | 2.00 | 1600.0 | 80.0 | 3 of 4 PASS (FAIL: slow), 1 demonstration rows | demo/results |' "$sum_dir/README.md" &&
  grep -qF '| [demo](demo/README.md) | GPU B | fast |' "$sum_dir/README.md" &&
  grep -qF '| [nobw](nobw/README.md) | GPU A | single | n = 10 | 0.2500 | other (call: alloc+kernels) | 1.0000 | 4.00 | – | – |' "$sum_dir/README.md" &&
  grep -qF '| assignment | GPU A: best version, size: × library | GPU B: best version, size: × library |' "$sum_dir/README.md" &&
  grep -qF '| [demo](demo/README.md) | fast, n = 1,000: 2.00× | fast, n = 1,000: 4.00× |' "$sum_dir/README.md" &&
  grep -qF '| [demo](demo/README.md) | GPU A | fast | n = 10 | 20.00 | 10.00 | 0.500 |' "$sum_dir/README.md"
t_verdict "results summary: best version, demonstrations apart, failures named, GPUs side by side, slower sizes listed" "$T_OUT"
cp "$sum_dir/README.md" "$sum_dir/README.before"
t_run python3 py/results_summary.py --root "$sum_dir" demo nobw
cmp -s "$sum_dir/README.md" "$sum_dir/README.before" && [ ! -s "$T_OUT" ]
t_verdict "results summary: unchanged results leave the README untouched" "$T_OUT"
# The repository's own README is what the committed reference CSVs make (in a copy of the
# README and every assignment's results/: the repository's files are never written).
rm -rf "$sum_dir/top" && mkdir -p "$sum_dir/top"
cp ../README.md "$sum_dir/top/"
for sum_a in $(cd .. && bash common/scripts/assignments.sh); do
  mkdir -p "$sum_dir/top/$sum_a" && cp -r "../$sum_a/results" "$sum_dir/top/$sum_a/"
done
t_run python3 py/results_summary.py --root "$sum_dir/top" $(cd .. && bash common/scripts/assignments.sh)
[ "$T_STATUS" -eq 0 ] && cmp -s ../README.md "$sum_dir/top/README.md" && [ ! -s "$T_OUT" ]
t_verdict "results summary: README.md's results tables are what the committed CSVs make (run make summary)" "$T_ERR"
