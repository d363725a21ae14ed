# Tier 1: the shared gpu_case (testlib.sh) on stand-in runs, with the GPU check answered yes:
# it passes only when PASS + demonstration lines equal the plans of every run of the case
# (a loop of three runs adds their plans), and fails a run that drops a version or prints no
# plan. Its verdicts go to a results file of their own, not to this suite's.
gc_dir=$CW_TEST_TMP/gpu_case
rm -rf "$gc_dir" && mkdir -p "$gc_dir"
(
  CW_TEST_RESULTS=$gc_dir/results CW_SUITE=stand-in CW_GPU_OK=1
  gpu_case "loop" sh -c 'for i in 1 2 3; do echo "planned: 2 runs"; echo "a: Result = PASS"; echo "b: Result = PASS"; done'
  gpu_case "demonstration" sh -c 'echo "planned: 2 runs"; echo "a: Result = PASS"; echo "p version=d: demonstration, not validated"'
  gpu_case "dropped" sh -c 'echo "planned: 2 runs"; echo "a: Result = PASS"'
  gpu_case "no plan" sh -c 'echo "a: Result = PASS"'
  gpu_case "demonstrations only" sh -c 'echo "planned: 1 runs"; echo "p version=d: demonstration, not validated"'
) >"$gc_dir/log" 2>&1
gc_got=$(sed -n 's/^\(PASS\|FAIL\) stand-in: \([a-z ]*\).*/\1 \2/p' "$gc_dir/results" | sed 's/ *$//' | paste -sd, -)
[ "$gc_got" = "PASS loop,PASS demonstration,FAIL dropped,FAIL no plan,FAIL demonstrations only" ]
t_verdict "gpu_case: passes when PASS + demonstrations = every run's plan, fails a dropped version or a missing plan ($gc_got)" "$gc_dir/log"
