# Tier 1: run_report.sh's step list without a GPU (a stand-in program that passes every run):
# by default the sweep's configurations and the four fixed steps; with VECMAX_SKIP_SWEEP=1
# (slurm/submit_all.sh --sweep-array, whose job array runs the sweep) the four steps alone, and
# no sweep.csv among what it says it wrote.
rr=$CW_TEST_TMP/run_report
rm -rf "$rr" && mkdir -p "$rr/v/bin"
cp run_report.sh sweep_configs.txt "$rr/v/"
printf '#!/bin/sh\necho "vecmax version=stand-in: Result = PASS"\n' >"$rr/v/bin/vecmax"
chmod +x "$rr/v/bin/vecmax"
rr_n=$(sed -e 's/#.*//' sweep_configs.txt | awk 'NF == 2' | grep -c .)
t_run env RESULTS_DIR="$rr/all" bash "$rr/v/run_report.sh"
[ "$T_STATUS" -eq 0 ] && grep -q "^\[$((rr_n + 4))/$((rr_n + 4))\] bench" "$T_OUT" && grep -q "wrote sweep.csv copies.csv bench.csv" "$T_OUT"
t_verdict "run_report.sh: the $rr_n sweep configurations and the four fixed steps" "$T_OUT"
t_run env RESULTS_DIR="$rr/skip" VECMAX_SKIP_SWEEP=1 bash "$rr/v/run_report.sh"
[ "$T_STATUS" -eq 0 ] && grep -q '^\[4/4\] bench' "$T_OUT" && ! grep -q 'sweep threads=' "$T_OUT" &&
  grep -q "wrote copies.csv bench.csv in" "$T_OUT"
t_verdict "run_report.sh with VECMAX_SKIP_SWEEP=1: the four fixed steps, no sweep" "$T_OUT"
