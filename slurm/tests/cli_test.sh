# Tier 1 of slurm/ (sourced by common/tests/run_tests.sh from slurm/): the batch scripts without
# Slurm (syntax, #SBATCH lines, plain-bash runs, the gather's checks, submit_all --print),
# then on a real single-node Slurm started here (slurm/tests/cluster.sh), which needs root
# and Debian's slurmctld, slurmd, slurm-client and munge: without them every Slurm case is
# skipped with the reason.
#
# Everything runs in a copy of the repository under $CW_TEST_TMP (the jobs write their runs into
# <assignment>/runs/<gpu>/: never in the real checkout; the copy's results/, the reference,
# must stay byte for byte). Assignments that are not there yet
# are stood in for by a placeholder Makefile; the real ones are built first and copied.
# shellcheck shell=bash

# The jobs below run as on a machine without environment modules, whether or not this one has
# them (CW_MODULE_INIT= : lib.sh sources no modules init; no inherited `module` function or
# Lmod state). Real Lmod is tested on its own, with its own MODULEPATH (sl_lmod_* below).
unset -f module ml 2>/dev/null
unset BASH_ENV LMOD_PKG MODULESHOME MODULEPATH LOADEDMODULES _LMFILES_ 2>/dev/null
export CW_MODULE_INIT=
# The plots job is submitted only with a partition of its own (else the login node plots after
# slurm/wait.sh): the test cluster's one partition. Unset again where a case is about the default.
export PLOTS_PARTITION=gpu
unset SBATCH_GRES SBATCH_CONSTRAINT PI_CPUS_PER_TASK GNUPLOT_MODULE

sl_here=$PWD                      # slurm/
sl_repo=$(cd .. && pwd)
sl_assignments=$(bash "$sl_repo/common/scripts/assignments.sh")   # the one list
sl_stub=$sl_here/tests/fake_vecmax.sh
# shellcheck source=cluster.sh
. "$sl_here/tests/cluster.sh"

# ---------------------------------------------------------------- a copy of the repository
# The report's 30 configurations (test_params.py), for a checkout where vecmax/ is not there yet.
sl_report_configs() {
  local b t
  for b in 4 16 32 64 128; do for t in 32 64 128 256 512 1024; do echo "$t $b"; done; done
}

# sl_make_repo DIR: slurm/, common/ and every assignment (real and built where it builds,
# otherwise a placeholder Makefile), plus the sweep's list.
sl_make_repo() {
  local dir=$1 a
  mkdir -p "$dir"
  cp -a "$sl_repo/slurm" "$sl_repo/common" "$dir/"
  cp "$sl_repo/Makefile" "$dir/" 2>/dev/null
  find "$dir/slurm/logs" -mindepth 1 ! -name .gitignore -exec rm -rf {} + 2>/dev/null
  for a in $sl_assignments; do
    if [ -x "$sl_repo/$a/bin/$a" ]; then
      cp -a "$sl_repo/$a" "$dir/"
    else
      mkdir -p "$dir/$a/results"
      # (the include line, never read by make, keeps it in common/scripts/assignments.sh's list)
      printf 'all:\n\t@echo placeholder for %s\nreport-run:\n\t@echo placeholder report-run; exit 3\nplots:\n\t@:\nifeq (0,1)\ninclude ../common/assignment.mk\nendif\n' "$a" >"$dir/$a/Makefile"
      cp "$sl_repo/$a/README.md" "$dir/$a/" 2>/dev/null
      [ -f "$sl_repo/$a/sweep_configs.txt" ] && cp "$sl_repo/$a/sweep_configs.txt" "$dir/$a/"
      echo "placeholder,1" >"$dir/$a/results/placeholder.csv"
    fi
  done
  [ -f "$dir/vecmax/sweep_configs.txt" ] || sl_report_configs >"$dir/vecmax/sweep_configs.txt"
}

sl_count_configs() { sed -e 's/#.*//' "$1" | awk 'NF' | wc -l; }

# ---------------------------------------------------------------- without Slurm
echo "-- slurm/: scripts without Slurm"
sl_bad=""
for f in *.sbatch submit_all.sh lib.sh tests/*.sh; do bash -n "$f" 2>/dev/null || sl_bad="$sl_bad $f"; done
if [ -z "$sl_bad" ]; then t_pass "every script parses (bash -n)"; else t_fail "every script parses (bash -n)" "syntax errors in$sl_bad"; fi
if command -v shellcheck >/dev/null 2>&1; then
  t_run shellcheck -x -S warning -s bash ./*.sbatch submit_all.sh lib.sh tests/*.sh
  if [ "$T_STATUS" -eq 0 ]; then t_pass "shellcheck finds nothing"; else t_fail "shellcheck finds nothing" "$(grep -c '^In ' "$T_OUT") findings"; t_show_failure; fi
else
  t_skip "shellcheck finds nothing" "shellcheck not installed (apt-get install shellcheck)"
fi

if [ -n "$sl_assignments" ]; then t_pass "common/scripts/assignments.sh lists the assignments ($sl_assignments)"
else t_fail "common/scripts/assignments.sh lists the assignments" "it printed nothing"; fi

# The repository finder: one file (find_repo.sh); every job script starts with the same few
# lines that look for it and source it (no copy of the finder, nothing to keep in sync).
sl_bad="" sl_first=""
for f in ./*.sbatch; do
  [ "$(grep -c '^# >>> find the repository' "$f")" = 1 ] && [ "$(grep -c '^# <<< find the repository' "$f")" = 1 ] ||
    { sl_bad="$sl_bad $f: not exactly one block;"; continue; }
  sl_block=$(sed -n '/^# >>> find the repository/,/^# <<< find the repository/p' "$f")
  [ -n "$sl_first" ] || sl_first=$sl_block
  [ "$sl_block" = "$sl_first" ] || sl_bad="$sl_bad $f: its lines differ from the others';"
  grep -q '\. "$cw_d/slurm/find_repo.sh"' <<<"$sl_block" || sl_bad="$sl_bad $f: does not source slurm/find_repo.sh;"
  [ "$(wc -l <<<"$sl_block")" -le 5 ] || sl_bad="$sl_bad $f: more than three lines between the markers (a copy of the finder?);"
done
grep -q '^[^#]*\. slurm/lib.sh' find_repo.sh || sl_bad="$sl_bad find_repo.sh does not source lib.sh;"
if [ -z "$sl_bad" ]; then t_pass "every job script finds the repository through find_repo.sh, with the same three lines ($(ls ./*.sbatch | wc -l) scripts)"
else t_fail "every job script finds the repository through find_repo.sh, with the same three lines" "$sl_bad"; fi

sl_bad=$(grep -H '^#SBATCH' ./*.sbatch | grep -v '#SBATCH [^ ]* *# ')
if [ -z "$sl_bad" ]; then t_pass "every #SBATCH line has a comment"; else t_fail "every #SBATCH line has a comment" "$(echo "$sl_bad" | head -n 1)"; fi

sl_bad=""
for f in $(for a in $sl_assignments; do echo "$a.sbatch"; done) vecmax_sweep.sbatch; do
  [ -f "$f" ] || { sl_bad="$sl_bad $f missing;"; continue; }
  grep -q '^#SBATCH --gres=gpu:1 ' "$f" || sl_bad="$sl_bad $f lacks --gres=gpu:1;"
  grep -q '^#SBATCH --partition=gpu ' "$f" || sl_bad="$sl_bad $f lacks --partition=gpu;"
  grep -q '^#SBATCH --time=' "$f" || sl_bad="$sl_bad $f lacks --time;"
  grep -q '^#SBATCH --output=slurm/logs/' "$f" || sl_bad="$sl_bad $f does not log to slurm/logs/;"
done
if [ -z "$sl_bad" ]; then t_pass "each GPU job script asks for one GPU on partition gpu, a time limit, a log in slurm/logs/"
else t_fail "each GPU job script asks for one GPU on partition gpu, a time limit, a log in slurm/logs/" "$sl_bad"; fi

if [ -f "$sl_repo/vecmax/sweep_configs.txt" ]; then
  sl_n=$(sl_count_configs "$sl_repo/vecmax/sweep_configs.txt")
  sl_array=$(sed -n 's/^#SBATCH --array=\([^ ]*\).*/\1/p' vecmax_sweep.sbatch)
  if [ "$sl_array" = "0-$((sl_n - 1))" ]; then t_pass "vecmax_sweep's --array=$sl_array matches the $sl_n lines of vecmax/sweep_configs.txt"
  else t_fail "vecmax_sweep's --array matches vecmax/sweep_configs.txt" "--array=$sl_array but the list has $sl_n configurations"; fi
else
  t_skip "vecmax_sweep's --array matches vecmax/sweep_configs.txt" "vecmax/sweep_configs.txt is not there yet"
fi

# The copy everything below runs in; devinfo (the GPU check) and the assignments built first.
timeout 900 make --no-print-directory -s -C "$sl_repo/common" bin/devinfo >/dev/null 2>&1
sl_built=""
for a in $sl_assignments; do
  [ -f "$sl_repo/$a/Makefile" ] || continue
  if timeout 900 make --no-print-directory -s -C "$sl_repo/$a" >"$CW_TEST_TMP/build-$a.log" 2>&1 && [ -x "$sl_repo/$a/bin/$a" ]; then
    sl_built="$sl_built $a"
  fi
done
sl_t=$CW_TEST_TMP/repo
sl_make_repo "$sl_t"
sl_list=$sl_t/vecmax/sweep_configs.txt
sl_n=$(sl_count_configs "$sl_list")
mapfile -t sl_configs < <(sed -e 's/#.*//' "$sl_list" | awk 'NF { print $1, $2 }')

expect_output "plain bash dry run prints colreduce's commands" \
  "dry run: make -C colreduce report-run" env CW_SLURM_DRY_RUN=1 bash "$sl_t/slurm/colreduce.sbatch"
expect_output "plain bash dry run of the sweep prints one vecmax command per configuration" \
  "dry run: vecmax/bin/vecmax --threads=${sl_configs[$((sl_n - 1))]% *} --blocks=${sl_configs[$((sl_n - 1))]#* } --csv=" \
  env CW_SLURM_DRY_RUN=1 bash "$sl_t/slurm/vecmax_sweep.sbatch"
if [ "$(grep -c '^dry run: vecmax/bin/vecmax --threads=' "$T_OUT")" -ne "$sl_n" ]; then
  t_fail "the dry-run sweep has $sl_n commands" "$(grep -c '^dry run: vecmax/bin/vecmax' "$T_OUT") printed"
fi
if ! grep -q "^dry run: combine $sl_n parts .* into vecmax/runs/<gpu>/sweep.csv\$" "$T_OUT"; then
  t_fail "the dry-run sweep's gather names vecmax/runs/<gpu>/sweep.csv" "$(grep '^dry run: combine' "$T_OUT")"
fi

# Plain bash, no GPU here: the GPU check stops the job with exit 3 and touches no result.
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  t_skip "plain bash without a GPU: exit 3, CUDA message, results/ and runs/ untouched" "a GPU is present"
elif [ ! -x "$sl_t/common/bin/devinfo" ]; then
  t_skip "plain bash without a GPU: exit 3, CUDA message, results/ and runs/ untouched" "common/bin/devinfo does not build here"
else
  sl_before=$(cd "$sl_t/pi" && find results runs -type f -exec md5sum {} + 2>/dev/null | sort)
  t_run bash "$sl_t/slurm/pi.sbatch"
  sl_after=$(cd "$sl_t/pi" && find results runs -type f -exec md5sum {} + 2>/dev/null | sort)
  if [ "$T_STATUS" -ne 3 ]; then t_fail "plain bash without a GPU: exit 3, CUDA message, results/ and runs/ untouched" "exit $T_STATUS"; t_show_failure
  elif ! grep -Eq 'CUDA error [0-9]+' "$T_OUT" "$T_ERR"; then t_fail "plain bash without a GPU: exit 3, CUDA message, results/ and runs/ untouched" "no CUDA error message"; t_show_failure
  elif [ "$sl_before" != "$sl_after" ] || [ -e "$sl_t/pi/runs" ]; then t_fail "plain bash without a GPU: exit 3, CUDA message, results/ and runs/ untouched" "pi/results/ or pi/runs/ changed"
  else t_pass "plain bash without a GPU: exit 3, CUDA message, results/ and runs/ untouched"; fi
fi

# The sweep in plain bash with the stub program: every configuration, then the gather, into the
# run folder of the GPU the parts name (the stub's "fake device": vecmax/runs/fake-device/).
sl_vsum() { (cd "$sl_t/vecmax" && find results -type f -exec md5sum {} + | sort); }
sl_vcommitted=$(sl_vsum)
sl_run_csv=$sl_t/vecmax/runs/fake-device/sweep.csv
rm -rf "$sl_t/vecmax/runs"
t_run env VECMAX_BIN="$sl_stub" CW_GPU_CHECK=0 bash "$sl_t/slurm/vecmax_sweep.sbatch"
sl_expect=$(printf '%s\n' "${sl_configs[@]}" | tr ' ' ,)
sl_got=$(tail -n +2 "$sl_run_csv" 2>/dev/null | cut -d, -f5,6)
sl_case="plain bash sweep (stub program) gathers every configuration in order into vecmax/runs/<gpu>/sweep.csv, results/ byte for byte"
if [ "$T_STATUS" -ne 0 ]; then t_fail "$sl_case" "exit $T_STATUS"; t_show_failure
elif [ "$(grep -c '^assignment,' "$sl_run_csv" 2>/dev/null)" != 1 ] || [ "$sl_got" != "$sl_expect" ]; then
  t_fail "$sl_case" "$sl_run_csv: missing, header not once or rows not the list's configurations ($(ls "$sl_t/vecmax/runs" 2>&1 | tr '\n' ' '))"
elif [ "$(ls "$sl_t/vecmax/runs")" != fake-device ] || [ "$(sl_vsum)" != "$sl_vcommitted" ]; then t_fail "$sl_case" "another folder in vecmax/runs/, or vecmax/results/ changed"
elif ! grep -q "combined $sl_n rows from $sl_n tasks into vecmax/runs/fake-device/sweep.csv" "$T_OUT"; then t_fail "$sl_case" "the log does not name vecmax/runs/fake-device/sweep.csv"; t_show_failure
else t_pass "$sl_case"; fi

sl_sum=$(md5sum <"$sl_run_csv")
t_run env VECMAX_BIN="$sl_stub" FAKE_VECMAX_FAIL="${sl_configs[2]}" CW_GPU_CHECK=0 bash "$sl_t/slurm/vecmax_sweep.sbatch"
if [ "$T_STATUS" -eq 3 ] && [ "$(md5sum <"$sl_run_csv")" = "$sl_sum" ] && [ "$(sl_vsum)" = "$sl_vcommitted" ] &&
   grep -q "task 2 (threads=${sl_configs[2]% *} blocks=${sl_configs[2]#* })" "$T_ERR"; then
  t_pass "plain bash sweep stops at a failing configuration (exit 3), nothing gathered (runs/<gpu>/sweep.csv byte for byte)"
else t_fail "plain bash sweep stops at a failing configuration (exit 3), nothing gathered (runs/<gpu>/sweep.csv byte for byte)" "exit $T_STATUS"; t_show_failure; fi
sl_csv=$CW_TEST_TMP/sweep.csv

# The gather's own checks, on hand-made parts.
sl_parts=$CW_TEST_TMP/parts
mkdir -p "$sl_parts"
for ((sl_i = 0; sl_i < sl_n; sl_i++)); do
  env FAKE_VECMAX_FAIL= "$sl_stub" --threads="${sl_configs[$sl_i]% *}" --blocks="${sl_configs[$sl_i]#* }" \
    --csv="$sl_parts/task-$(printf %03d "$sl_i").csv" >/dev/null
done
mv "$sl_parts/task-001.csv" "$CW_TEST_TMP/task-001.csv"
# A "committed" sweep.csv that a failed gather must leave byte for byte.
printf 'assignment,committed\nvecmax,1\n' >"$sl_csv"
sl_sum=$(md5sum <"$sl_csv")
t_run env VECMAX_SWEEP_CSV="$sl_csv" bash "$sl_t/slurm/vecmax_gather.sbatch" "$sl_parts"
sl_kept=$(sed -n 's/.*the [0-9]* valid parts, combined, and the problems are in \(.*\)$/\1/p' "$T_ERR")
if [ "$T_STATUS" -eq 1 ] && [ "$(md5sum <"$sl_csv")" = "$sl_sum" ] && grep -q 'no CSV from task(s) 1;' "$T_ERR" &&
   [ "$(wc -l <"$T_ERR")" -eq 1 ] && [ -d "$sl_kept" ] && [ "$(tail -n +2 "$sl_kept/sweep.csv" | wc -l)" -eq $((sl_n - 1)) ] &&
   grep -q 'no CSV from task(s) 1' "$sl_kept/problems.txt"; then
  t_pass "gather refuses a missing task's part: sweep.csv unchanged, the $((sl_n - 1)) valid parts kept in a named folder"
else t_fail "gather refuses a missing task's part: sweep.csv unchanged, the valid parts kept in a named folder" "exit $T_STATUS, kept '$sl_kept'"; t_show_failure; fi
"$sl_stub" --threads=999 --blocks=7 --csv="$sl_parts/task-001.csv" >/dev/null
t_run env VECMAX_SWEEP_CSV="$sl_csv" bash "$sl_t/slurm/vecmax_gather.sbatch" "$sl_parts"
if [ "$T_STATUS" -eq 1 ] && [ "$(md5sum <"$sl_csv")" = "$sl_sum" ] && grep -q 'task 1 (threads=[0-9]* blocks=[0-9]*): no row has threads=' "$T_ERR"; then t_pass "gather refuses a part whose rows are another configuration's, sweep.csv unchanged"
else t_fail "gather refuses a part whose rows are another configuration's, sweep.csv unchanged" "exit $T_STATUS"; t_show_failure; fi
mv "$CW_TEST_TMP/task-001.csv" "$sl_parts/task-001.csv"
t_run env VECMAX_SWEEP_CSV="$sl_csv" bash "$sl_t/slurm/vecmax_gather.sbatch" "$sl_parts"
if [ "$T_STATUS" -eq 0 ] && [ "$(tail -n +2 "$sl_csv" | wc -l)" -eq "$sl_n" ] && [ -z "$(find "$sl_parts" -name 'gather-*.incomplete')" ] &&
   [ -z "$(find "$(dirname "$sl_csv")" -maxdepth 1 -name '.sweep.csv.tmp.*')" ]; then t_pass "gather with every part replaces sweep.csv, leaves no temporary file"
else t_fail "gather with every part replaces sweep.csv, leaves no temporary file" "exit $T_STATUS"; t_show_failure; fi
# Without VECMAX_SWEEP_CSV: the run folder of the parts' GPU (another one's here: "Other GPU
# 40GB"), created, beside the other GPU's folder, which stays as it was.
sl_case="gather without VECMAX_SWEEP_CSV: vecmax/runs/<the parts' GPU>/sweep.csv, no other folder or results/ file changed"
mkdir -p "$CW_TEST_TMP/parts2"
for sl_p in "$sl_parts"/task-*.csv; do sed 's/,fake device,/,Other GPU 40GB,/' "$sl_p" >"$CW_TEST_TMP/parts2/${sl_p##*/}"; done
sl_sum=$(md5sum <"$sl_run_csv")
t_run bash "$sl_t/slurm/vecmax_gather.sbatch" "$CW_TEST_TMP/parts2"
sl_o=$sl_t/vecmax/runs/other-gpu-40gb/sweep.csv
if [ "$T_STATUS" -eq 0 ] && [ "$(tail -n +2 "$sl_o" 2>/dev/null | cut -d, -f3 | sort -u)" = "Other GPU 40GB" ] && [ "$(tail -n +2 "$sl_o" | wc -l)" -eq "$sl_n" ] &&
   [ "$(md5sum <"$sl_run_csv")" = "$sl_sum" ] && [ "$(sl_vsum)" = "$sl_vcommitted" ] && [ "$(find "$sl_t/vecmax/runs" -type f | wc -l)" -eq 2 ]; then t_pass "$sl_case"
else t_fail "$sl_case" "exit $T_STATUS; vecmax/runs/: $(cd "$sl_t/vecmax" && find runs -type f | tr '\n' ' ')"; t_show_failure; fi
rm -rf "$sl_t/vecmax/runs/other-gpu-40gb"
expect_exit 2 "gather without its parts folder argument: exit 2" bash "$sl_t/slurm/vecmax_gather.sbatch"

# ---------------------------------------------------------------- staged runs, module, nvcc
# A second copy whose pi/ is a stand-in (tests/fake_assignment.sh): the assignments' own staged
# report-run, with an experiment that writes a partial CSV (device "Fake GPU 80GB") and then
# succeeds, fails or sleeps; a whole run goes into pi/runs/fake-gpu-80gb/, never into results/;
# a stub nvcc (release 12.2) so that nothing depends on this machine's toolkit.
sl_f=$CW_TEST_TMP/fakerepo
mkdir -p "$sl_f"
cp -a "$sl_repo/slurm" "$sl_repo/common" "$sl_f/"
cp "$sl_repo/Makefile" "$sl_f/"   # the top-level `make profile`
find "$sl_f/slurm/logs" -mindepth 1 ! -name .gitignore -exec rm -rf {} + 2>/dev/null
bash "$sl_here/tests/fake_assignment.sh" "$sl_f" pi
sl_fakecuda=$CW_TEST_TMP/fakecuda
mkdir -p "$sl_fakecuda/bin"
printf '#!/bin/sh\ncase "$1" in --list-gpu-arch) printf "compute_52\\ncompute_90\\n" ;; *) echo "nvcc: NVIDIA (R) Cuda compiler driver"; echo "Cuda compilation tools, release 12.2, V12.2.140" ;; esac\n' >"$sl_fakecuda/bin/nvcc"
chmod +x "$sl_fakecuda/bin/nvcc"
sl_fpath=$sl_fakecuda/bin:$PATH
# The stand-in's reference (results/) and run folders (runs/), as checksums; its run folder.
sl_fsum() { (cd "$sl_f/pi" && find results runs -type f -exec md5sum {} + 2>/dev/null | sort); }
sl_rref() { (cd "$sl_f/pi" && find results -type f -exec md5sum {} + | sort); }
sl_fref=$(sl_rref)
sl_gpu_dir=$sl_f/pi/runs/fake-gpu-80gb
# An earlier run's file in the run folder, which a run that does not make it must leave there.
mkdir -p "$sl_gpu_dir"
printf 'assignment,device\npi,Fake GPU 80GB\n' >"$sl_gpu_dir/earlier.csv"
sl_fcommitted=$(sl_fsum)
sl_runs=$sl_f/pi/build/runs
# sl_kept_of FILE: the folder a failed/interrupted job's last line names.
sl_kept_of() { sed -n 's/.*this run.s files are kept in \(.*\)$/\1/p' "$1" | tail -n 1; }
# A bash -c prelude defining an exported Lmod-like `module`: `load cuda` works (LOADEDMODULES,
# the stub nvcc on PATH), and so does `load gcc/12`; with FAKE_CUDA_NEEDS=gcc/12, `load cuda`
# fails unless gcc/12 is loaded first (a site whose CUDA module needs its compiler module);
# any other module is unknown: Lmod's dozen lines of error and status $FAKE_MODULE_RC (Lmod's
# 0 by default).
sl_module_fn='module() { case "$1 ${2:-}" in
  "load gcc/12") export LOADEDMODULES=${LOADEDMODULES:+$LOADEDMODULES:}gcc/12 ;;
  "load cuda") if [ -n "${FAKE_CUDA_NEEDS:-}" ] && [[ ":${LOADEDMODULES:-}:" != *":$FAKE_CUDA_NEEDS:"* ]]; then
      printf "Lmod has detected the following error:  These module(s) or extension(s) exist but cannot be\nloaded as requested: \"cuda\"\n   Try: \"module spider cuda\" to see how to load the module(s).\n\n\n\n" >&2; return 1; fi
    export LOADEDMODULES=${LOADEDMODULES:+$LOADEDMODULES:}cuda/12.2 PATH='"$sl_fakecuda"'/bin:$PATH ;;
  "is-loaded "*) case ":${LOADEDMODULES:-}:" in *":$2"[:/]*) return 0 ;; esac; return 1 ;;
  "load "*) printf "\nLmod has detected the following error:  The following module(s) are unknown:\n\"%s\"\n\nPlease check the spelling or version number. Also try \"module spider ...\"\nIt is also possible your cache file is out-of-date; it may help to try:\n  \$ module --ignore_cache load \"%s\"\n\nAlso make sure that all modulefiles written for TCL start with the string\n#%%Module\n\n\n\n" "$2" "$2" >&2; return "${FAKE_MODULE_RC:-0}" ;;
  esac; }; export -f module; '

sl_case="a failing report run (exit 3): results/ and runs/ unchanged, the log names the kept run"
t_run env PATH="$sl_fpath" CW_GPU_CHECK=0 FAKE_EXPERIMENT=fail bash "$sl_f/slurm/pi.sbatch"
sl_kept=$(sl_kept_of "$T_ERR")
if [ "$T_STATUS" -ne 3 ]; then t_fail "$sl_case" "exit $T_STATUS"; t_show_failure
elif [ "$(sl_fsum)" != "$sl_fcommitted" ]; then t_fail "$sl_case" "pi/results/ or pi/runs/ changed"
elif [[ "$sl_kept" != "$sl_runs"/pi-*-failed-exit* ]] || [ ! -s "$sl_kept/table.csv" ]; then t_fail "$sl_case" "kept '$sl_kept'"; t_show_failure
elif ! tail -n 1 "$T_ERR" | grep -q "FAILED (exit 3): pi: make -C pi report-run failed: pi/runs/<gpu>/ unchanged; this run's files are kept in "; then t_fail "$sl_case" "the last line does not say pi/runs/<gpu>/ unchanged"; t_show_failure
elif ! grep -q "report-run pi: staging in $sl_runs/pi-" "$T_OUT"; then t_fail "$sl_case" "the log does not name the staging folder"
else t_pass "$sl_case (${sl_kept##*/})"; fi

# SIGTERM to make -C pi report-run alone, mid-run (the partial CSV written, the experiment asleep).
sl_started=$CW_TEST_TMP/started
sl_interrupt() {  # GROUP(0|1) CMD...: starts CMD, waits for the experiment, sends SIGTERM (to its process group: 1)
  local group=$1 pid i; shift
  rm -f "$sl_started"
  if [ "$group" = 1 ]; then setsid "$@" >"$CW_TEST_TMP/out" 2>"$CW_TEST_TMP/err" & else "$@" >"$CW_TEST_TMP/out" 2>"$CW_TEST_TMP/err" & fi
  pid=$!
  for ((i = 0; i < 300; i++)); do [ -e "$sl_started" ] && break; sleep 0.1; done
  if [ ! -e "$sl_started" ]; then kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; T_STATUS=-1; return; fi
  if [ "$group" = 1 ]; then kill -TERM -- "-$pid"; else kill -TERM "$pid"; fi
  for ((i = 0; i < 300; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && { kill -KILL -- "-$pid" "$pid" 2>/dev/null; T_STATUS=-2; wait "$pid" 2>/dev/null; return; }
  wait "$pid"; T_STATUS=$?
  T_OUT=$CW_TEST_TMP/out T_ERR=$CW_TEST_TMP/err
}
sl_case="SIGTERM to make -C pi report-run mid-run: results/ and runs/ unchanged, the run kept as ...-interrupted-SIGTERM"
sl_interrupt 0 env PATH="$sl_fpath" FAKE_EXPERIMENT_STARTED="$sl_started" make --no-print-directory -C "$sl_f/pi" report-run
sl_kept=$(sed -n 's/.*what this run produced is in \(.*\)$/\1/p' "$T_ERR" | tail -n 1)
if [ "$T_STATUS" -lt 0 ]; then t_fail "$sl_case" "the experiment never started ($T_STATUS)"
elif [ "$T_STATUS" -eq 0 ]; then t_fail "$sl_case" "make exited 0"
elif [ "$(sl_fsum)" != "$sl_fcommitted" ]; then t_fail "$sl_case" "pi/results/ or pi/runs/ changed"
elif [[ "$sl_kept" != "$sl_runs"/pi-*-interrupted-SIGTERM ]] || [ ! -s "$sl_kept/table.csv" ]; then t_fail "$sl_case" "kept '$sl_kept'"; t_show_failure
else t_pass "$sl_case (make exit $T_STATUS)"; fi

# SIGTERM to every process of the job, as scancel and the time limit do.
sl_case="SIGTERM to the whole job mid-run (as scancel): exit 143, results/ and runs/ unchanged, the last line names the kept run"
sl_interrupt 1 env PATH="$sl_fpath" CW_GPU_CHECK=0 FAKE_EXPERIMENT_STARTED="$sl_started" bash "$sl_f/slurm/pi.sbatch"
sl_kept=$(sl_kept_of "$T_ERR")
if [ "$T_STATUS" -lt 0 ]; then t_fail "$sl_case" "the experiment never started, or the job did not stop ($T_STATUS)"
elif [ "$T_STATUS" -ne 143 ]; then t_fail "$sl_case" "exit $T_STATUS"; t_show_failure
elif [ "$(sl_fsum)" != "$sl_fcommitted" ]; then t_fail "$sl_case" "pi/results/ or pi/runs/ changed"
elif ! tail -n 1 "$T_ERR" | grep -q 'FAILED (exit 143): pi: interrupted by SIGTERM (scancel, the time limit or Ctrl-C): pi/runs/<gpu>/ unchanged' || [[ "$sl_kept" != "$sl_runs"/pi-*-interrupted-SIGTERM ]] ||
     [ ! -s "$sl_kept/table.csv" ]; then t_fail "$sl_case" "kept '$sl_kept'"; t_show_failure
else t_pass "$sl_case"; fi
[ -z "$(find "$sl_runs" -maxdepth 1 -name '*.incomplete')" ] && t_pass "no staging folder is left .incomplete after those runs" ||
  t_fail "no staging folder is left .incomplete after those runs" "$(ls "$sl_runs")"

# CUDA_MODULE: the default `cuda` loads (Lmod-like stub), the log names nvcc before the build.
t_run env PATH="$PATH" CW_GPU_CHECK=0 FAKE_EXPERIMENT=ok bash -c "$sl_module_fn"'exec bash "$0"' "$sl_f/slurm/pi.sbatch"
sl_nvcc_line=$(grep -n "nvcc: $sl_fakecuda/bin/nvcc: Cuda compilation tools, release 12.2" "$T_OUT" | cut -d: -f1 | head -n 1)
sl_build_line=$(grep -n '^+ .*make -C pi' "$T_OUT" | cut -d: -f1 | head -n 1)
sl_case="module load cuda (default), nvcc named before the build, a whole run writes runs/<gpu>/table.csv, results/ byte for byte"
if [ "$T_STATUS" -ne 0 ]; then t_fail "$sl_case" "exit $T_STATUS"; t_show_failure
elif ! grep -qx '+ module load cuda' "$T_OUT" || [ -z "$sl_nvcc_line" ] || [ -z "$sl_build_line" ] || [ "$sl_nvcc_line" -ge "$sl_build_line" ]; then
  t_fail "$sl_case" "module/nvcc lines missing or after the build"; t_show_failure
elif ! grep -q 'report-run pi: runs/fake-gpu-80gb/ updated: table.csv$' "$T_OUT" || ! tail -n 1 "$T_OUT" | grep -q 'done: pi/runs/fake-gpu-80gb/ updated: table.csv$'; then
  t_fail "$sl_case" "the log does not end with 'done: pi/runs/fake-gpu-80gb/ updated: table.csv'"; t_show_failure
elif [ "$(cat "$sl_gpu_dir/table.csv" 2>/dev/null)" != "$(printf 'assignment,n,ms,device\npi,1,0.125,Fake GPU 80GB\npi,2,0.25,Fake GPU 80GB')" ]; then
  t_fail "$sl_case" "pi/runs/fake-gpu-80gb/table.csv is not the run's: $(head -c 200 "$sl_gpu_dir/table.csv" 2>&1 | tr '\n' '|')"
elif [ "$(sl_rref)" != "$sl_fref" ] || [ "$(ls "$sl_f/pi/runs")" != fake-gpu-80gb ] || [ "$(ls "$sl_gpu_dir" | tr '\n' ' ')" != "earlier.csv table.csv " ] ||
     ! grep -q 'Fake GPU 80GB' "$sl_gpu_dir/earlier.csv"; then
  t_fail "$sl_case" "pi/results/ changed, or pi/runs/ holds other than fake-gpu-80gb/{earlier,table}.csv: $(cd "$sl_f/pi" && find runs -type f | tr '\n' ' ')"
else t_pass "$sl_case, keeps the folder's other files"; fi
sl_fcommitted=$(sl_fsum)

for sl_rc in 0 1; do
  sl_case="an unknown CUDA_MODULE (module load says so, exit $sl_rc): exit 2 at once, one line naming it, nothing built"
  t_run env CUDA_MODULE=cuda/nosuch FAKE_MODULE_RC=$sl_rc CW_GPU_CHECK=1 bash -c "$sl_module_fn"'exec bash "$0"' "$sl_f/slurm/pi.sbatch"
  if [ "$T_STATUS" -ne 2 ]; then t_fail "$sl_case" "exit $T_STATUS"; t_show_failure
  elif [ "$(wc -l <"$T_ERR")" -ne 1 ] || ! grep -q "FAILED (exit 2): cannot load module 'cuda/nosuch' (module load exit $sl_rc, not loaded afterwards; it said: Lmod has detected the following error: The following module(s) are unknown: \"cuda/nosuch\".*'module avail cuda'" "$T_ERR"; then t_fail "$sl_case" "not one line on stderr with Lmod's reason and the hint"; t_show_failure
  elif grep -q 'Lmod' "$T_OUT"; then t_fail "$sl_case" "Lmod's lines reached the log"; t_show_failure
  elif grep -Eq '^\+ (flock|make)|devinfo|nvcc:' "$T_OUT"; then t_fail "$sl_case" "something was built or probed after the failed module load"; t_show_failure
  elif [ "$(sl_fsum)" != "$sl_fcommitted" ]; then t_fail "$sl_case" "pi/results/ changed"
  else t_pass "$sl_case"; fi
done

# CUDA_MODULE as a list, loaded in order: a site whose CUDA module needs its compiler module first.
sl_case="CUDA_MODULE=\"gcc/12 cuda\" loads both, in order, where cuda needs gcc/12 first; CUDA_MODULE=cuda alone there: exit 2, one line"
t_run env CUDA_MODULE="gcc/12 cuda" FAKE_CUDA_NEEDS=gcc/12 CW_GPU_CHECK=0 FAKE_EXPERIMENT=fail bash -c "$sl_module_fn"'exec bash "$0"' "$sl_f/slurm/pi.sbatch"
sl_bad=""
grep -q '^+ module load gcc/12$' "$T_OUT" && grep -A1 '^+ module load gcc/12$' "$T_OUT" | grep -q '^+ module load cuda$' || sl_bad="$sl_bad not loaded in order;"
grep -q "modules gcc/12 cuda loaded (loaded modules: gcc/12:cuda/12.2)" "$T_OUT" || sl_bad="$sl_bad no 'modules ... loaded' line;"
grep -q "nvcc: $sl_fakecuda/bin/nvcc" "$T_OUT" || sl_bad="$sl_bad nvcc not named;"
t_run env CUDA_MODULE=cuda FAKE_CUDA_NEEDS=gcc/12 CW_GPU_CHECK=1 bash -c "$sl_module_fn"'exec bash "$0"' "$sl_f/slurm/pi.sbatch"
[ "$T_STATUS" -eq 2 ] && [ "$(wc -l <"$T_ERR")" -eq 1 ] && grep -q "FAILED (exit 2): cannot load module 'cuda' (module load exit 1, not loaded afterwards; it said: Lmod has detected the following error: These module(s) or extension(s) exist but cannot be loaded as requested: \"cuda\" Try: \"module spider cuda\" .*a list is loaded in order" "$T_ERR" ||
  sl_bad="$sl_bad CUDA_MODULE=cuda alone: exit $T_STATUS, stderr: $(head -c 300 "$T_ERR");"
if [ -z "$sl_bad" ]; then t_pass "$sl_case"; else t_fail "$sl_case" "$sl_bad"; t_show_failure; fi

sl_case="no nvcc (CUDA_MODULE= and CUDA_PATH without one): exit 2, one line, nothing built"
t_run env CUDA_MODULE= CUDA_PATH="$CW_TEST_TMP/nocuda" bash "$sl_f/slurm/pi.sbatch"
if [ "$T_STATUS" -eq 2 ] && [ "$(wc -l <"$T_ERR")" -eq 1 ] && grep -q "FAILED (exit 2): no nvcc ($CW_TEST_TMP/nocuda/bin/nvcc not found" "$T_ERR" &&
   grep -q 'CUDA_MODULE is empty: no module loaded' "$T_OUT" && ! grep -Eq '^\+ (flock|make)' "$T_OUT"; then t_pass "$sl_case"
else t_fail "$sl_case" "exit $T_STATUS"; t_show_failure; fi

sl_case="where 'module' does not exist, CUDA_MODULE is skipped with a log line"
if bash -c 'type module' >/dev/null 2>&1; then
  t_skip "$sl_case" "this environment exports a 'module' function"
else
  t_run env PATH="$sl_fpath" CW_SLURM_DRY_RUN=1 bash "$sl_f/slurm/pi.sbatch"
  if [ "$T_STATUS" -eq 0 ] && grep -q "no 'module' command here: CUDA_MODULE=cuda not loaded" "$T_OUT"; then t_pass "$sl_case"
  else t_fail "$sl_case" "exit $T_STATUS"; t_show_failure; fi
fi

# The real pi (where it is built and there is no GPU): CW_GPU_CHECK=0, so its own program fails.
sl_case="the real pi job without a GPU (CW_GPU_CHECK=0): exit 3, CUDA message, results/ byte for byte, no runs/, the kept run named"
if [ "$CW_GPU_OK" = 1 ]; then t_skip "$sl_case" "a GPU is present"
elif [[ " $sl_built " != *" pi "* ]]; then t_skip "$sl_case" "pi does not build here (see $CW_TEST_TMP/build-pi.log)"
else
  sl_before=$(cd "$sl_t/pi" && find results -type f -exec md5sum {} + | sort)
  t_run env CW_GPU_CHECK=0 bash "$sl_t/slurm/pi.sbatch"
  sl_kept=$(sl_kept_of "$T_ERR")
  if [ "$T_STATUS" -eq 3 ] && grep -Eq 'CUDA error [0-9]+' "$T_OUT" "$T_ERR" && [ "$(cd "$sl_t/pi" && find results -type f -exec md5sum {} + | sort)" = "$sl_before" ] &&
     [ ! -e "$sl_t/pi/runs" ] &&
     [[ "$sl_kept" == "$sl_t/pi/build/runs/pi-"*-failed-exit* ]] && [ -d "$sl_kept" ]; then t_pass "$sl_case"
  else t_fail "$sl_case" "exit $T_STATUS, kept '$sl_kept'"; t_show_failure; fi
fi

# ---------------------------------------------------------------- profile.sbatch (make profile)
# Every assignment's results/ and runs/ files of a copy, as checksums (profile.csv among them).
sl_rsum() { (cd "$1" && find ./*/results ./*/runs -type f -exec md5sum {} + 2>/dev/null | sort); }
# A stand-in ncu (its --version only: the check needs it to exist, the stand-in's profile never calls it).
sl_fakencu=$CW_TEST_TMP/fakencu/ncu
mkdir -p "${sl_fakencu%/*}"
printf '#!/bin/sh
case "$1" in --version) echo "NVIDIA (R) Nsight Compute Command Line Profiler"; echo "Version 2025.3.0.0 (build 0) (public-release)" ;; *) echo "stand-in ncu" >&2; exit 1 ;; esac
' >"$sl_fakencu"
chmod +x "$sl_fakencu"
sl_nonc=$CW_TEST_TMP/no-ncu/ncu

sl_case="profile.sbatch without ncu: exit 2, one line, nothing built or profiled, every results/ and runs/ byte for byte"
sl_before=$(sl_rsum "$sl_t")
t_run env NCU="$sl_nonc" bash "$sl_t/slurm/profile.sbatch"
if [ "$T_STATUS" -ne 2 ]; then t_fail "$sl_case" "exit $T_STATUS"; t_show_failure
elif [ "$(wc -l <"$T_ERR")" -ne 1 ] || ! grep -q "FAILED (exit 2): profile: Nsight Compute (ncu) not found.*nothing was profiled or written\$" "$T_ERR"; then t_fail "$sl_case" "not one FAILED line naming ncu"; t_show_failure
elif ! grep -q '^\[.*\] nvcc: ' "$T_OUT" || grep -Eq '^\+ (flock|make)' "$T_OUT"; then t_fail "$sl_case" "nvcc not named, or something built or run after the check"; t_show_failure
elif [ "$(sl_rsum "$sl_t")" != "$sl_before" ]; then t_fail "$sl_case" "a results/ or runs/ file changed"
else t_pass "$sl_case"; fi

sl_case="profile.sbatch with ncu but no GPU: exit 3, one line with the CUDA message, every results/ and runs/ byte for byte"
if [ "$CW_GPU_OK" = 1 ]; then t_skip "$sl_case" "a GPU is present"
elif [ ! -x "$sl_t/common/bin/devinfo" ]; then t_skip "$sl_case" "common/bin/devinfo does not build here"
else
  t_run env NCU="$sl_fakencu" bash "$sl_t/slurm/profile.sbatch"
  if [ "$T_STATUS" -eq 3 ] && [ "$(wc -l <"$T_ERR")" -eq 1 ] && grep -Eq 'FAILED \(exit 3\): profile: .*CUDA error [0-9]+.*nothing was profiled' "$T_ERR" &&
     ! grep -Eq '^\+ (flock|make)' "$T_OUT" && [ "$(sl_rsum "$sl_t")" = "$sl_before" ]; then t_pass "$sl_case"
  else t_fail "$sl_case" "exit $T_STATUS"; t_show_failure; fi
fi

# The stand-in pi's make profile (staged), with a stand-in ncu and a devinfo that reports a GPU.
sl_dev=$sl_f/common/bin/devinfo
mv "$sl_dev" "$sl_dev.real" 2>/dev/null
printf '#!/bin/sh
exit 0
' >"$sl_dev"; chmod +x "$sl_dev"
sl_case="a failing profile (exit 3): results/ and runs/ byte for byte, the last line names the kept pi-profile run"
sl_before=$(sl_fsum)
t_run env PATH="$sl_fpath" NCU="$sl_fakencu" FAKE_EXPERIMENT=fail bash "$sl_f/slurm/profile.sbatch"
sl_kept=$(sl_kept_of "$T_ERR")
if [ "$T_STATUS" -ne 3 ]; then t_fail "$sl_case" "exit $T_STATUS"; t_show_failure
elif [ "$(sl_fsum)" != "$sl_before" ]; then t_fail "$sl_case" "pi/results/ or pi/runs/ changed"
elif ! tail -n 1 "$T_ERR" | grep -q "FAILED (exit 3): profile: make profile failed: pi/runs/<gpu>/ unchanged; this run's files are kept in " ||
     [[ "$sl_kept" != "$sl_runs"/pi-profile-*-failed-exit* ]] || [ ! -s "$sl_kept/profile.csv" ]; then t_fail "$sl_case" "kept '$sl_kept'"; t_show_failure
elif ! grep -q "ncu: $sl_fakencu: Version 2025.3.0.0" "$T_OUT"; then t_fail "$sl_case" "the log does not name ncu"; t_show_failure
else t_pass "$sl_case (${sl_kept##*/})"; fi
sl_case="a whole profile writes runs/<gpu>/profile.csv only (beside the report run's), results/ byte for byte, and the log says so"
t_run env PATH="$sl_fpath" NCU="$sl_fakencu" FAKE_EXPERIMENT=ok bash "$sl_f/slurm/profile.sbatch"
if [ "$T_STATUS" -ne 0 ]; then t_fail "$sl_case" "exit $T_STATUS"; t_show_failure
elif [ "$(cat "$sl_gpu_dir/profile.csv" 2>/dev/null)" != "$(printf 'assignment,n,ms,device\npi,1,0.125,Fake GPU 80GB\npi,2,0.25,Fake GPU 80GB')" ]; then
  t_fail "$sl_case" "pi/runs/fake-gpu-80gb/profile.csv is not the profile's: $(head -c 200 "$sl_gpu_dir/profile.csv" 2>&1 | tr '\n' '|')"
elif [ "$(sl_fsum | grep -v '  runs/fake-gpu-80gb/profile.csv$')" != "$sl_before" ] || [ "$(sl_rref)" != "$sl_fref" ]; then
  t_fail "$sl_case" "another file of pi/results/ or pi/runs/ changed: $(diff <(sl_fsum) - <<<"$sl_before" | tr '\n' ' ')"
elif ! grep -q 'report-run pi-profile: runs/fake-gpu-80gb/ updated: profile.csv$' "$T_OUT" || ! tail -n 1 "$T_OUT" | grep -q 'done: pi/runs/fake-gpu-80gb/ updated: profile.csv$'; then
  t_fail "$sl_case" "the log does not end with 'done: pi/runs/fake-gpu-80gb/ updated: profile.csv'"; t_show_failure
else t_pass "$sl_case"; fi
rm -f "$sl_dev"; mv "$sl_dev.real" "$sl_dev" 2>/dev/null
sl_fcommitted=$(sl_fsum)

# colreduce.sbatch's run.slurm check reads the CSVs this run wrote into its runs/<gpu>/ folder: a
# stand-in colreduce whose committed results/ and an earlier run's file in runs/fake-gpu-80gb/
# have all eight sizes, and a run that lacks one, must fail; a run with all eight passes.
sl_case="colreduce.sbatch checks run.slurm's eight sizes in this run's CSVs in runs/<gpu>/ (not results/, not older files there)"
bash "$sl_here/tests/fake_assignment.sh" "$sl_f" colreduce
sl_sizes=$(sed -n 's/^RUN_SLURM_SIZES=(\(.*\)/\1/p; s/^ *\("[0-9].*\))$/\1/p' "$sl_f/slurm/colreduce.sbatch" | grep -o '"[0-9]* [0-9]*"' | tr -d '"' | tr ' ' x | paste -sd, -)
sl_all_rows=$(for s in ${sl_sizes//,/ }; do echo "colreduce,${s%x*},${s#*x},1,committed GPU"; done)
printf 'assignment,m,n,ms,device\n%s\n' "$sl_all_rows" >"$sl_f/colreduce/results/table.csv"
mkdir -p "$sl_f/colreduce/runs/fake-gpu-80gb"
printf 'assignment,m,n,ms,device\n%s\n' "${sl_all_rows//committed GPU/Fake GPU 80GB}" >"$sl_f/colreduce/runs/fake-gpu-80gb/earlier.csv"
sl_last=${sl_sizes##*,} sl_last=${sl_last/x/ } sl_bad=""
[ "$(tr ',' '\n' <<<"$sl_sizes" | wc -l)" -eq 8 ] || sl_bad="$sl_bad colreduce.sbatch's sizes not found ($sl_sizes);"
t_run env PATH="$sl_fpath" CW_GPU_CHECK=0 FAKE_EXPERIMENT=ok FAKE_SIZES="${sl_sizes%,*}" bash "$sl_f/slurm/colreduce.sbatch"
[ "$T_STATUS" -eq 1 ] && tail -n 1 "$T_ERR" | grep -q "FAILED (exit 1): colreduce/runs/fake-gpu-80gb/ (this run's table.csv) lacks run.slurm sizes (m n): \[$sl_last\]\$" ||
  sl_bad="$sl_bad a run without $sl_last: exit $T_STATUS, $(tail -n 1 "$T_ERR");"
t_run env PATH="$sl_fpath" CW_GPU_CHECK=0 FAKE_EXPERIMENT=ok FAKE_SIZES="$sl_sizes" bash "$sl_f/slurm/colreduce.sbatch"
[ "$T_STATUS" -eq 0 ] && tail -n 1 "$T_OUT" | grep -q "all eight run.slurm sizes are in this run's CSVs in colreduce/runs/fake-gpu-80gb/\$" ||
  sl_bad="$sl_bad a run with all eight: exit $T_STATUS, $(tail -n 1 "$T_OUT") $(tail -n 1 "$T_ERR");"
if [ -z "$sl_bad" ]; then t_pass "$sl_case"; else t_fail "$sl_case" "$sl_bad"; t_show_failure; fi

# submit_all.sh --print: the whole dependency graph, nothing submitted. By default each
# experiment runs once: the five assignment jobs (vecmax's sweep inside the vecmax job) and the
# plots job after all of them, whatever their outcome (afterany), told which jobs it waited for.
t_run bash "$sl_t/slurm/submit_all.sh" --print
sl_cmds=$(cat "$T_ERR")
sl_bad=""
for a in $sl_assignments; do grep -q "sbatch --parsable --output=.*/slurm/logs/%x-%j.out slurm/$a.sbatch" <<<"$sl_cmds" || sl_bad="$sl_bad $a;"; done
grep -q 'vecmax_sweep\|vecmax_gather' <<<"$sl_cmds" && sl_bad="$sl_bad the sweep array is submitted by default (the vecmax job runs the sweep already);"
grep -q -- "--dependency=afterany:<vecmax>:<pi>:<scan>:<colreduce>:<reduction_versions> --output=.*slurm/plots.sbatch vecmax:<vecmax> pi:<pi> scan:<scan> colreduce:<colreduce> reduction_versions:<reduction_versions>\$" <<<"$sl_cmds" || sl_bad="$sl_bad plots;"
[ "$(grep -c '^sbatch ' <<<"$sl_cmds")" -eq $(($(wc -w <<<"$sl_assignments") + 1)) ] || sl_bad="$sl_bad not one job per assignment plus plots;"
if [ "$T_STATUS" -eq 0 ] && [ -z "$sl_bad" ]; then t_pass "submit_all.sh --print: one job per assignment (the sweep inside vecmax's), plots after all of them end (afterany)"
else t_fail "submit_all.sh --print: one job per assignment (the sweep inside vecmax's), plots after all of them end (afterany)" "exit $T_STATUS; wrong:$sl_bad"; t_show_failure; fi
t_run bash "$sl_t/slurm/submit_all.sh" --print --sweep-array
sl_cmds=$(cat "$T_ERR")
sl_bad=""
grep -q -- "--export=ALL,VECMAX_SKIP_SWEEP=1 --output=.*slurm/vecmax.sbatch" <<<"$sl_cmds" || sl_bad="$sl_bad vecmax job not told to skip its sweep;"
grep -q -- "--array=0-$((sl_n - 1)) .*slurm/vecmax_sweep.sbatch" <<<"$sl_cmds" || sl_bad="$sl_bad array;"
grep -q -- "--dependency=afterok:<vecmax_sweep>,afterany:<vecmax> --kill-on-invalid-dep=yes .*slurm/vecmax_gather.sbatch .*/slurm/logs/vecmax_sweep-<vecmax_sweep>" <<<"$sl_cmds" || sl_bad="$sl_bad gather;"
grep -q -- "--dependency=afterany:<vecmax>:<pi>:<scan>:<colreduce>:<reduction_versions>:<vecmax_gather> .*slurm/plots.sbatch .*vecmax_sweep:<vecmax_sweep> vecmax_gather:<vecmax_gather>" <<<"$sl_cmds" || sl_bad="$sl_bad plots;"
if [ "$T_STATUS" -eq 0 ] && [ -z "$sl_bad" ]; then t_pass "submit_all.sh --print --sweep-array: the sweep as the array and its gather instead of inside the vecmax job"
else t_fail "submit_all.sh --print --sweep-array: the sweep as the array and its gather instead of inside the vecmax job" "exit $T_STATUS; wrong:$sl_bad"; t_show_failure; fi
t_run bash "$sl_t/slurm/submit_all.sh" --print --profile pi
sl_cmds=$(cat "$T_ERR")
if [ "$T_STATUS" -eq 0 ] && grep -q "sbatch --parsable --output=.*/slurm/logs/%x-%j.out slurm/profile.sbatch" <<<"$sl_cmds" &&
   grep -q -- "--dependency=afterany:<pi>:<profile> .*slurm/plots.sbatch pi:<pi> profile:<profile>" <<<"$sl_cmds" &&
   ! grep -q 'profile.sbatch' < <(bash "$sl_t/slurm/submit_all.sh" --print pi 2>&1); then
  t_pass "submit_all.sh --profile adds the profile job (only on request), the plots job waits for it"
else t_fail "submit_all.sh --profile adds the profile job (only on request), the plots job waits for it" "exit $T_STATUS"; t_show_failure; fi
# Without PLOTS_PARTITION: no plots job (the login node plots, after slurm/wait.sh), and the
# GPU-less jobs are submitted without the GPU settings; PI_CPUS_PER_TASK reaches pi's line.
t_run env -u PLOTS_PARTITION SBATCH_GRES=gpu:a100:1 PI_CPUS_PER_TASK=8 bash "$sl_t/slurm/submit_all.sh" --print --sweep-array
sl_cmds=$(cat "$T_ERR") sl_bad=""
grep -q 'plots.sbatch' <<<"$sl_cmds" && sl_bad="$sl_bad a plots job was submitted;"
grep -q 'slurm/wait.sh' "$T_OUT" || sl_bad="$sl_bad the output does not say to run slurm/wait.sh then make plots;"
grep -B1 'slurm/vecmax_gather.sbatch' <<<"$sl_cmds" | head -n 1 | grep -q '^# (no GPU: the next one without the GPU settings: env -u SBATCH_GRES -u SBATCH_CONSTRAINT' || sl_bad="$sl_bad the gather keeps the GPU settings;"
grep -q -- '^sbatch --parsable --cpus-per-task=8 .*slurm/pi.sbatch' <<<"$sl_cmds" || sl_bad="$sl_bad pi's line lacks --cpus-per-task=8;"
if [ "$T_STATUS" -eq 0 ] && [ -z "$sl_bad" ]; then t_pass "submit_all.sh without PLOTS_PARTITION: no plots job, says slurm/wait.sh then make plots; the gather without SBATCH_GRES; PI_CPUS_PER_TASK"
else t_fail "submit_all.sh without PLOTS_PARTITION: no plots job, says slurm/wait.sh then make plots; the gather without SBATCH_GRES; PI_CPUS_PER_TASK" "exit $T_STATUS;$sl_bad"; t_show_failure; fi
grep -q '^#SBATCH --cpus-per-task=16 ' "$sl_t/slurm/pi.sbatch" && t_pass "pi.sbatch asks for the 16 cores of its CPU references" ||
  t_fail "pi.sbatch asks for the 16 cores of its CPU references" "$(grep -- '--cpus-per-task' "$sl_t/slurm/pi.sbatch")"

# make clean removes the jobs' build locks from slurm/logs/, and keeps the logs.
touch "$sl_t/slurm/logs/.build-common.lock" "$sl_t/slurm/logs/.build-vecmax.lock" "$sl_t/slurm/logs/kept-1.out"
t_run make --no-print-directory -C "$sl_t/slurm" clean
if [ "$T_STATUS" -eq 0 ] && [ -z "$(find "$sl_t/slurm/logs" -name '.build-*.lock')" ] && [ -f "$sl_t/slurm/logs/kept-1.out" ]; then
  t_pass "make clean removes slurm/logs/.build-*.lock, keeps the logs"
else t_fail "make clean removes slurm/logs/.build-*.lock, keeps the logs" "exit $T_STATUS: $(ls -a "$sl_t/slurm/logs" | tr '\n' ' ')"; fi
rm -f "$sl_t/slurm/logs/kept-1.out"

# --check where Slurm cannot be reached (a stand-in sinfo that fails as Slurm's does without a
# controller): says so with sinfo's own message, checks nothing else, exit 1, no sbatch line.
mkdir -p "$CW_TEST_TMP/nosinfo"
printf '#!/bin/sh\necho "slurm_load_partitions: Unable to contact slurm controller (connect failure)" >&2\nexit 1\n' >"$CW_TEST_TMP/nosinfo/sinfo"
printf '#!/bin/sh\necho "sbatch: error: unreachable" >&2\nexit 1\n' >"$CW_TEST_TMP/nosinfo/sbatch"
chmod +x "$CW_TEST_TMP/nosinfo/sinfo" "$CW_TEST_TMP/nosinfo/sbatch"
t_run env PATH="$CW_TEST_TMP/nosinfo:$sl_fpath" CUDA_MODULE= bash "$sl_t/slurm/submit_all.sh" --check
if [ "$T_STATUS" -eq 1 ] && grep -q "^FAIL  Slurm cannot be reached from .*: sinfo says: slurm_load_partitions: Unable to contact slurm controller (connect failure)" "$T_OUT" &&
   [ "$(grep -c '^FAIL' "$T_OUT")" -eq 1 ] && tail -n 1 "$T_OUT" | grep -q 'check: Slurm cannot be reached (above): stopped; nothing was submitted' &&
   ! grep -q "partition '\|sbatch --parsable" "$T_OUT"; then
  t_pass "submit_all.sh --check where Slurm cannot be reached: sinfo's message, one FAIL line, stops (exit 1)"
else t_fail "submit_all.sh --check where Slurm cannot be reached: sinfo's message, one FAIL line, stops (exit 1)" "exit $T_STATUS"; t_show_failure; fi

# The plots job names the jobs that did not succeed (here: ids no Slurm knows), and still renders.
t_run env CW_SLURM_DRY_RUN=1 bash "$sl_t/slurm/plots.sbatch" pi:999999991 scan:999999992
if [ "$T_STATUS" -eq 0 ] && grep -q 'missing: pi (job 999999991: ' "$T_OUT" && grep -q 'missing: scan (job 999999992: ' "$T_OUT" &&
   grep -q '2 of 2 jobs did not succeed' "$T_OUT" && grep -q '^dry run: make --no-print-directory plots' "$T_OUT"; then
  t_pass "plots job: renders, then names each job it waited for that did not succeed"
else t_fail "plots job: renders, then names each job it waited for that did not succeed" "exit $T_STATUS"; t_show_failure; fi
expect_usage_error "submit_all.sh rejects an unknown job" "unknown job 'nosuch'" bash "$sl_t/slurm/submit_all.sh" --print nosuch
expect_usage_error "submit_all.sh rejects an unknown option" "unknown option '--bogus'" bash "$sl_t/slurm/submit_all.sh" --bogus

# ---------------------------------------------------------------- on a real Slurm
echo "-- slurm/: on a real single-node Slurm"

# Real environment modules (Lmod), as a cluster's batch job gets them: modulefiles for every CUDA
# toolkit this machine has (Debian's nvidia-cuda-toolkit, /usr/local/cuda, the CUDA 12 prefix
# common/scripts/cuda12_prefix.sh makes in /opt/cw-cuda12, and the roots named in CW_EXTRA_CUDA_ROOTS,
# space-separated, which CI sets), named after the release their nvcc reports, in a MODULEPATH
# of the test's own; the oldest marked default (.version), so that a `module load cuda` that
# ignored the mark would get the newest instead. A CUDA major release (11, 12, 13) with no
# toolkit here is a skipped case naming where it was looked for; a root named in
# CW_EXTRA_CUDA_ROOTS without a working nvcc is a failed one.
# The jobs get no `module` function and no Lmod setup from this shell: lib.sh finds the init.
sl_lmod_dir=$CW_TEST_TMP/modulefiles
sl_lmod_pkg=/usr/share/lmod/lmod
sl_lmod_roots="/usr/lib/nvidia-cuda-toolkit /usr/local/cuda /opt/cw-cuda12"
sl_lmod_setup_cases() {
  local root rel major m explicit
  sl_lmod_mods=() sl_lmod_cases=() sl_lmod_why="" sl_lmod_default="" sl_lmod_other=() sl_lmod_other_cases=()
  [ -r "$sl_lmod_pkg/init/bash" ] || sl_lmod_why="Lmod is not installed (apt-get install lmod)"
  for root in $sl_lmod_roots ${CW_EXTRA_CUDA_ROOTS:-}; do
    [ "$root" = / ] || root=${root%/}
    explicit=0; [[ " ${CW_EXTRA_CUDA_ROOTS:-} " == *" $root "* || " ${CW_EXTRA_CUDA_ROOTS:-} " == *" $root/ "* ]] && explicit=1
    rel=""
    [ -x "$root/bin/nvcc" ] && rel=$("$root/bin/nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p' | head -n 1)
    if [ -z "$rel" ]; then
      if [ "$explicit" = 1 ] && [[ " ${sl_lmod_other_cases[*]} " != *"($root)"* ]]; then
        sl_lmod_other+=("fail|$root/bin/nvcc $([ -x "$root/bin/nvcc" ] && echo 'reports no release' || echo 'is not there')")
        sl_lmod_other_cases+=("Lmod: the toolkit CW_EXTRA_CUDA_ROOTS names ($root) gets a module")
      fi
      continue
    fi
    [[ " ${sl_lmod_mods[*]} " != *" cuda/$rel:"* ]] || continue
    sl_lmod_mods+=("cuda/$rel:$root")
  done
  for major in 11 12 13; do
    [[ " ${sl_lmod_mods[*]} " == *" cuda/$major."* ]] && continue
    m="no CUDA $major.x toolkit here (looked in $sl_lmod_roots and CW_EXTRA_CUDA_ROOTS=${CW_EXTRA_CUDA_ROOTS:-})"
    case $major in
      11) m="$m; Debian bookworm's is apt-get install nvidia-cuda-toolkit" ;;
      12) m="$m; bash common/scripts/cuda12_prefix.sh /opt/cw-cuda12 makes one from Debian trixie's packages" ;;
      13) m="$m; NVIDIA's CUDA 13 installs in /usr/local/cuda" ;;
    esac
    sl_lmod_other+=("skip|$m")
    sl_lmod_other_cases+=("Lmod: CUDA_MODULE=cuda/$major.x loads in the batch shell, the job names its nvcc and builds with it")
  done
  if [ ${#sl_lmod_mods[@]} -gt 0 ]; then
    mapfile -t sl_lmod_mods < <(printf '%s\n' "${sl_lmod_mods[@]}" | sort -V)
    for m in "${sl_lmod_mods[@]}"; do
      sl_lmod_cases+=("Lmod: CUDA_MODULE=${m%%:*} (${m#*:}) loads in the batch shell, the job names its nvcc and builds with it")
    done
    sl_lmod_default=${sl_lmod_mods[0]%%:*}
  else
    sl_lmod_why=${sl_lmod_why:-"no CUDA toolkit here ($sl_lmod_roots${CW_EXTRA_CUDA_ROOTS:+ $CW_EXTRA_CUDA_ROOTS}) to write a module for"}
  fi
  # Cases in the order they run: one per module (oldest first), the default, a missing module,
  # then the releases with no toolkit here and the CW_EXTRA_CUDA_ROOTS roots without nvcc.
  sl_lmod_cases+=("Lmod: no CUDA_MODULE loads the module marked default (.version: ${sl_lmod_default:-none})"
                  "Lmod: a module that does not exist (CUDA_MODULE=cuda/0.0): FAILED 2:0 at once, one line, nothing built"
                  "${sl_lmod_other_cases[@]}")
}
# One Lua modulefile per toolkit; Debian's nvcc needs /usr/bin (ptxas, fatbinary, nvlink) before
# any other toolkit's bin/ on PATH. A toolkit with lib64/ (cuBLAS for colreduce) puts it on
# LD_LIBRARY_PATH, as a cluster's CUDA module does.
sl_lmod_write() {
  local m name root
  mkdir -p "$sl_lmod_dir/cuda"
  for m in "${sl_lmod_mods[@]}"; do
    name=${m%%:*} root=${m#*:}
    {
      echo "-- written by slurm/tests/cli_test.sh"
      echo "whatis(\"CUDA ${name#cuda/} ($root)\")"
      echo 'family("cuda")'
      [ "$root" = /usr/lib/nvidia-cuda-toolkit ] && echo 'prepend_path("PATH", "/usr/bin")'
      echo "prepend_path(\"PATH\", \"$root/bin\")"
      [ -d "$root/lib64" ] && echo "prepend_path(\"LD_LIBRARY_PATH\", \"$root/lib64\")"
      echo "setenv(\"CUDA_HOME\", \"$root\")"
    } >"$sl_lmod_dir/$name.lua"
  done
  printf '#%%Module\nset ModulesVersion "%s"\n' "${sl_lmod_default#cuda/}" >"$sl_lmod_dir/cuda/.version"
}
# sl_lmod_submit VAR=VALUE...: profile.sbatch (the module, nvcc, the GPU probe's build, then the ncu
# check, which fails: no ncu; the same with or without a GPU) with the test's MODULEPATH.
sl_lmod_submit() {
  (
    unset CW_MODULE_INIT CUDA_MODULE LMOD_PKG
    export MODULEPATH=$sl_lmod_dir NCU=$sl_nonc
    local kv
    for kv in "$@"; do export "${kv?}"; done
    sl_submit slurm/profile.sbatch
  )
}
sl_stamp=common/build/build-config.stamp
sl_cases=(
  "the test cluster starts and its node is idle"
  "a job's script really runs (not reported COMPLETED without running)"
  "the GPU check fails the job without a GPU: FAILED, exit 3, CUDA message"
  "each built assignment's job on the GPU-less node: FAILED, exit 3, CUDA message"
  "the sweep array runs one task per configuration with its parameters"
  "the gather runs after every task succeeded and writes the combined CSV into vecmax/runs/<gpu>/"
  "a failed task keeps the gather from running (CANCELLED, not left pending)"
  "a missing --output folder is caught as a failure (0:53), not success"
  "submit_all.sh from another directory: every job, the array, gather and plots job complete"
  "scancel of a running report job: CANCELLED, results/ and runs/ byte for byte, the log names the kept run"
  "profile.sbatch on the GPU-less node: FAILED 2:0 without ncu, 3:0 with one but no GPU, one line each, results/ and runs/ byte for byte"
  "submit_all.sh --check: nvcc, the partition's GPUs, every job accepted by sbatch --test-only, the sbatch lines; a wrong partition fails; nothing submitted"
)
# Real Lmod (sl_lmod_* below): one case per toolkit this machine has, then the default and a missing module.
sl_lmod_setup_cases
sl_cases+=(
  "${sl_lmod_cases[@]}"
  "the node is still up (not drained) after every job"
  "the daemons are stopped by their PIDs, none left"
)
sl_skip_all() { local c; for c in "${sl_cases[@]}"; do t_skip "$c" "$1"; done; }

# Job states from scontrol (no accounting needed; jobs stay listed for MinJobAge, 300 s).
sl_lines() { timeout 10 scontrol -o show job "$1" 2>/dev/null; }
sl_field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p"; }
sl_state() { sl_lines "$1" | head -n 1 | sl_field JobState; }
sl_exit() { sl_lines "$1" | head -n 1 | sl_field ExitCode; }
sl_reason() { sl_lines "$1" | head -n 1 | sl_field Reason; }
# True while any of the jobs (array tasks included) is not finished.
sl_active() {
  local id
  for id in "$@"; do
    sl_lines "$id" | sl_field JobState | grep -Eq '^(PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUED|RESIZING|SIGNALING|STAGE_OUT)$' && return 0
  done
  return 1
}
# sl_wait LIMIT ID...: until every job finished; 1 on timeout, or at once when the node is
# drained or down (nothing would run any more).
sl_wait() {
  local limit=$1 start=$SECONDS; shift
  while sl_active "$@"; do
    [ $((SECONDS - start)) -ge "$limit" ] && return 1
    case $(cw_node_state) in *DRAIN*|*DOWN*|*FAIL*|*NOT_RESPONDING*) return 1 ;; esac
    sleep 0.5
  done
}
sl_ids_of() { local p; for p in "$@"; do echo "${p##*:}"; done; }
sl_submit() { local out; out=$(timeout 30 sbatch --parsable "$@" 2>"$CW_TEST_TMP/sbatch.err") || { cat "$CW_TEST_TMP/sbatch.err" >&2; return 1; }; echo "${out%%;*}"; }
# The array's tasks as "task state exitcode" lines.
sl_tasks() { sl_lines "$1" | awk '{ t = s = e = ""; for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "ArrayTaskId") t = kv[2]; if (kv[1] == "JobState") s = kv[2]; if (kv[1] == "ExitCode") e = kv[2] } print t, s, e }' | sort -n; }

sl_missing=$(cw_cluster_missing)
if [ -n "$sl_missing" ]; then
  sl_skip_all "$sl_missing"
else
  sl_cluster=$(mktemp -d /tmp/cwslurm.XXXXXX)
  # Stop the daemons whatever happens, then run the runner's own EXIT trap (removes CW_TEST_TMP).
  sl_prev_trap=$(trap -p EXIT)
  sl_prev_cmd=$(sed -n "s/^trap -- '\(.*\)' EXIT$/\1/p" <<<"$sl_prev_trap")
  trap 'cw_cluster_stop; rm -rf "$sl_cluster"; '"$sl_prev_cmd" EXIT
  trap 'exit 130' INT TERM
  sl_start=$SECONDS
  if ! cw_cluster_start "$sl_cluster"; then
    t_fail "${sl_cases[0]}" "$CW_CLUSTER_ERROR"
    for c in "${sl_cases[@]:1:${#sl_cases[@]}-2}"; do t_skip "$c" "the test cluster did not start"; done
  else
    t_pass "${sl_cases[0]}"
    sl_logs=$sl_t/slurm/logs
    cd "$sl_t" || exit 1

    # A probe: COMPLETED is believed only together with what its script wrote.
    sl_broken=""
    printf '#!/bin/bash\necho "probe ran as job $SLURM_JOB_ID" >%s/probe.marker\n' "$CW_TEST_TMP" >"$CW_TEST_TMP/probe.sh"
    sl_id=$(sl_submit --output="$CW_TEST_TMP/probe-%j.out" "$CW_TEST_TMP/probe.sh")
    sl_wait 30 "$sl_id"
    if [ "$(sl_state "$sl_id")" = COMPLETED ] && grep -q "probe ran as job $sl_id" "$CW_TEST_TMP/probe.marker" 2>/dev/null; then t_pass "${sl_cases[1]}"
    elif [ "$(sl_state "$sl_id")" = COMPLETED ]; then t_fail "${sl_cases[1]}" "job $sl_id COMPLETED but its script never ran (node $(cw_node_state); proctrack/cgroup without systemd?)"
    else t_fail "${sl_cases[1]}" "job $sl_id: $(sl_state "$sl_id") $(sl_reason "$sl_id"); node $(cw_node_state)"; sl_broken="the probe job did not run"; fi
    if [ "$(sl_state "$sl_id")" = COMPLETED ] && ! grep -q "probe ran as job $sl_id" "$CW_TEST_TMP/probe.marker" 2>/dev/null; then
      sl_broken="the probe job never ran its script"
    fi

    if [ -n "${sl_broken:-}" ]; then
      for c in "${sl_cases[@]:2:${#sl_cases[@]}-4}"; do t_skip "$c" "the test cluster cannot run jobs: $sl_broken"; done
    else
      # Without a GPU: the GPU check (default) and, with CW_GPU_CHECK=0, each built assignment's own programs.
      sl_gpu_jobs="" sl_check_id=""
      if [ "$CW_GPU_OK" = 1 ]; then
        t_skip "${sl_cases[2]}" "a GPU is present"; t_skip "${sl_cases[3]}" "a GPU is present"
      else
        # The GPU check's job first, alone: pi's own job below rewrites pi/results/.
        sl_before=$(find pi/results pi/runs -type f -exec md5sum {} + 2>/dev/null | sort)
        sl_check_id=$(sl_submit slurm/pi.sbatch)
        sl_wait 60 "$sl_check_id"
        sl_after=$(find pi/results pi/runs -type f -exec md5sum {} + 2>/dev/null | sort)
        for a in $sl_built; do
          sl_id=$(CW_GPU_CHECK=0 sl_submit "slurm/$a.sbatch") && sl_gpu_jobs="$sl_gpu_jobs $a:$sl_id"
        done
        # Two tasks of the sweep with the real vecmax: each task is a GPU step too.
        if [[ " $sl_built " == *" vecmax "* ]]; then
          sl_id=$(CW_GPU_CHECK=0 sl_submit --array=0-1 slurm/vecmax_sweep.sbatch) && sl_gpu_jobs="$sl_gpu_jobs vecmax_sweep:$sl_id"
        fi
      fi

      # The sweep with the stub program: all tasks, then the gather (afterok), into the run
      # folder of the parts' GPU (the stub's "fake device").
      sl_csv=$sl_run_csv
      rm -rf "$sl_t/vecmax/runs"
      sl_arr=$(VECMAX_BIN=$sl_stub CW_GPU_CHECK=0 sl_submit --array="0-$((sl_n - 1))" slurm/vecmax_sweep.sbatch)
      sl_gather=$(sl_submit --dependency="afterok:$sl_arr" --kill-on-invalid-dep=yes \
        slurm/vecmax_gather.sbatch "$sl_logs/vecmax_sweep-$sl_arr")
      # A failing task (configuration 2 exits 3 as vecmax does without a GPU), six tasks. The gather
      # is submitted with sbatch --wait, which returns 0 even when it is cancelled: not believed.
      sl_csv_f=$CW_TEST_TMP/slurm-sweep-fail.csv
      sl_farr=$(VECMAX_BIN=$sl_stub FAKE_VECMAX_FAIL="${sl_configs[2]}" CW_GPU_CHECK=0 sl_submit --array=0-5 slurm/vecmax_sweep.sbatch)
      VECMAX_SWEEP_CSV=$sl_csv_f timeout 240 sbatch --wait --parsable --dependency="afterok:$sl_farr" --kill-on-invalid-dep=yes \
        slurm/vecmax_gather.sbatch "$sl_logs/vecmax_sweep-$sl_farr" >"$CW_TEST_TMP/wait.out" 2>&1 &
      sl_wait_pid=$!

      # Trap: an --output folder that does not exist (plots.sbatch's relative slurm/logs/ from a bare folder).
      mkdir -p "$CW_TEST_TMP/bare"
      sl_bare=$(cd "$CW_TEST_TMP/bare" && CW_SLURM_DRY_RUN=1 sl_submit "$sl_t/slurm/plots.sbatch")

      # Wait for all of the above (one GPU: the GPU jobs run one after the other).
      # shellcheck disable=SC2086
      sl_all_ids="$sl_check_id $(sl_ids_of $sl_gpu_jobs) $sl_arr $sl_gather $sl_farr $sl_bare"
      # shellcheck disable=SC2086
      sl_wait 240 $sl_all_ids || echo "   (jobs still active after 240 s: $(timeout 10 squeue -h -o '%i %T %r' | tr '\n' ';'))"
      sleep 1
      # sbatch --wait polls slurmctld every few seconds: give it 15 s to say what it thinks.
      for ((sl_i = 0; sl_i < 30; sl_i++)); do kill -0 "$sl_wait_pid" 2>/dev/null || break; sleep 0.5; done
      if kill -0 "$sl_wait_pid" 2>/dev/null; then
        kill "$sl_wait_pid" 2>/dev/null  # timeout passes the signal on to sbatch
        sl_wait_status="still waiting"
        wait "$sl_wait_pid" 2>/dev/null
      else
        wait "$sl_wait_pid"; sl_wait_status="exited $?"
      fi

      if [ -n "$sl_check_id" ]; then
        sl_log=$sl_logs/pi-$sl_check_id.out
        if [ "$(sl_state "$sl_check_id")" = FAILED ] && [ "$(sl_exit "$sl_check_id")" = 3:0 ] &&
           grep -Eq 'CUDA error [0-9]+' "$sl_log" && grep -q 'nothing was run' "$sl_log" && ! grep -q 'report-run' "$sl_log" &&
           [ "$sl_before" = "$sl_after" ]; then
          t_pass "${sl_cases[2]}"
        else
          t_fail "${sl_cases[2]}" "job $sl_check_id: $(sl_state "$sl_check_id") exit $(sl_exit "$sl_check_id"), log $sl_log: $(tail -n 2 "$sl_log" 2>/dev/null | tr '\n' ' ')"
        fi
        if [ -z "$sl_built" ]; then
          t_skip "${sl_cases[3]}" "no assignment is built yet (only placeholders)"
        else
          sl_bad=""
          for sl_pair in $sl_gpu_jobs; do
            a=${sl_pair%%:*} sl_id=${sl_pair#*:}
            sl_log=$sl_logs/$a-$sl_id.out
            if [ "$a" = vecmax_sweep ]; then
              sl_tasks_out=$(sl_tasks "$sl_id")
              if [ "$(tr '\n' ';' <<<"$sl_tasks_out")" != "0 FAILED 3:0;1 FAILED 3:0;" ]; then sl_bad="$sl_bad vecmax_sweep tasks: $(tr '\n' ';' <<<"$sl_tasks_out")"
              elif ! grep -Eq 'CUDA error [0-9]+' "$sl_logs/vecmax_sweep-${sl_id}_1.out"; then sl_bad="$sl_bad vecmax_sweep: no CUDA error message in task 1's log;"
              fi
              continue
            fi
            if [ "$(sl_state "$sl_id")" != FAILED ] || [ "$(sl_exit "$sl_id")" != 3:0 ]; then
              sl_bad="$sl_bad $a: $(sl_state "$sl_id") exit $(sl_exit "$sl_id") ($(tail -n 3 "$sl_log" 2>/dev/null | tr '\n' ' '));"
            elif ! grep -Eq 'CUDA error [0-9]+' "$sl_log"; then sl_bad="$sl_bad $a: no CUDA error message in $sl_log;"
            elif grep -q 'Result = PASS' "$sl_log"; then sl_bad="$sl_bad $a: a result claims PASS;"
            fi
          done
          sl_names=$(for p in $sl_gpu_jobs; do printf '%s ' "${p%%:*}"; done)
          if [ -z "$sl_bad" ]; then t_pass "${sl_cases[3]} (${sl_names% })"; else t_fail "${sl_cases[3]}" "$sl_bad"; fi
        fi
      fi

      # The sweep: one task per configuration, each with its own parameters (from its log).
      sl_bad=""
      sl_tasks_out=$(sl_tasks "$sl_arr")
      for ((sl_i = 0; sl_i < sl_n; sl_i++)); do
        read -r sl_tt sl_bb <<<"${sl_configs[$sl_i]}"
        sl_log=$sl_logs/vecmax_sweep-${sl_arr}_$sl_i.out
        grep -qx "$sl_i COMPLETED 0:0" <<<"$sl_tasks_out" || { sl_bad="$sl_bad task $sl_i not COMPLETED 0:0;"; continue; }
        grep -q "task $sl_i: threads=$sl_tt blocks=$sl_bb\$" "$sl_log" 2>/dev/null &&
          grep -q -- "--threads=$sl_tt --blocks=$sl_bb --csv=$sl_logs/vecmax_sweep-$sl_arr/task-$(printf %03d "$sl_i").csv" "$sl_log" ||
          sl_bad="$sl_bad task $sl_i: log lacks threads=$sl_tt blocks=$sl_bb;"
      done
      [ "$(wc -l <<<"$sl_tasks_out")" -eq "$sl_n" ] || sl_bad="$sl_bad $(wc -l <<<"$sl_tasks_out") tasks, expected $sl_n;"
      if [ -z "$sl_bad" ]; then t_pass "${sl_cases[4]} ($sl_n tasks)"; else t_fail "${sl_cases[4]}" "$(cut -c1-300 <<<"$sl_bad")"; fi

      sl_got=$(tail -n +2 "$sl_csv" 2>/dev/null | cut -d, -f5,6)
      if [ "$(sl_state "$sl_gather")" = COMPLETED ] && [ "$(grep -c '^assignment,' "$sl_csv" 2>/dev/null)" = 1 ] && [ "$sl_got" = "$sl_expect" ] &&
         grep -q "combined $sl_n rows from $sl_n tasks into vecmax/runs/fake-device/sweep.csv" "$sl_logs/vecmax_gather-$sl_gather.out" &&
         [ "$(sl_vsum)" = "$sl_vcommitted" ]; then
        t_pass "${sl_cases[5]}"
      else t_fail "${sl_cases[5]}" "gather $sl_gather: $(sl_state "$sl_gather") $(sl_reason "$sl_gather"); $sl_csv rows: $(tail -n +2 "$sl_csv" 2>/dev/null | wc -l); vecmax/results/ $([ "$(sl_vsum)" = "$sl_vcommitted" ] && echo unchanged || echo changed)"; fi

      # The failing array: task 2 FAILED 3:0, the gather CANCELLED (never ran, no log, no CSV).
      sl_fgather=$(grep -Eo '^[0-9]+' "$CW_TEST_TMP/wait.out" | head -n 1)
      sl_ftasks=$(sl_tasks "$sl_farr")
      sl_fstate=$(sl_state "${sl_fgather:-0}") sl_freason=$(sl_reason "${sl_fgather:-0}")
      if [ -z "$sl_fgather" ]; then t_fail "${sl_cases[6]}" "the gather was not submitted: $(head -n 2 "$CW_TEST_TMP/wait.out")"
      elif ! grep -qx "2 FAILED 3:0" <<<"$sl_ftasks"; then t_fail "${sl_cases[6]}" "task 2 is not FAILED 3:0: $(tr '\n' ';' <<<"$sl_ftasks")"
      elif [ "$sl_fstate" = PENDING ]; then t_fail "${sl_cases[6]}" "gather left PENDING ($sl_freason): kill_invalid_depend not in effect (Slurm 22.05 reads it from DependencyParameters, not SchedulerParameters) and no --kill-on-invalid-dep"
      elif [ "$sl_fstate" != CANCELLED ] || [ -e "$sl_logs/vecmax_gather-$sl_fgather.out" ] || [ -e "$sl_csv_f" ]; then
        t_fail "${sl_cases[6]}" "gather $sl_fgather: $sl_fstate $sl_freason; log $( [ -e "$sl_logs/vecmax_gather-$sl_fgather.out" ] && echo exists || echo absent); csv $( [ -e "$sl_csv_f" ] && echo written || echo absent)"
      else t_pass "${sl_cases[6]} (gather $sl_fstate/$sl_freason; sbatch --wait $sl_wait_status, not believed)"; fi

      if [ "$(sl_state "$sl_bare")" = FAILED ] && [ "$(sl_exit "$sl_bare")" = 0:53 ] && [ ! -e "$CW_TEST_TMP/bare/slurm" ]; then
        t_pass "${sl_cases[7]}"
      else t_fail "${sl_cases[7]}" "job $sl_bare: $(sl_state "$sl_bare") exit $(sl_exit "$sl_bare") $(sl_reason "$sl_bare")"; fi

      # submit_all.sh end to end, from another directory, every job a dry run (no GPU needed).
      mkdir -p "$CW_TEST_TMP/elsewhere"
      # (the sweep with the list's first four configurations: the full array ran above)
      sed -e 's/#.*//' "$sl_list" | awk 'NF' | head -n 4 >"$CW_TEST_TMP/four_configs.txt"
      t_run sh -c "cd '$CW_TEST_TMP/elsewhere' && CW_SLURM_DRY_RUN=1 VECMAX_SWEEP_CONFIGS='$CW_TEST_TMP/four_configs.txt' bash '$sl_t/slurm/submit_all.sh' --sweep-array --profile"
      sl_sub_out=$(cat "$T_OUT")
      sl_bad="" sl_ids=""
      if [ "$T_STATUS" -ne 0 ]; then sl_bad="submit_all.sh exited $T_STATUS: $(head -n 2 "$T_ERR" | tr '\n' ' ')"
      else
        for j in $sl_assignments profile vecmax_sweep vecmax_gather plots; do
          sl_id=$(awk -v j="$j" '$1 == j { print $2 }' <<<"$sl_sub_out")
          [[ "$sl_id" =~ ^[0-9]+$ ]] || { sl_bad="$sl_bad no id for $j;"; continue; }
          sl_ids="$sl_ids $j:$sl_id"
        done
        # shellcheck disable=SC2046,SC2086
        sl_wait 240 $(sl_ids_of $sl_ids) || sl_bad="$sl_bad still running after 240 s;"
        for sl_pair in $sl_ids; do
          j=${sl_pair%%:*} sl_id=${sl_pair#*:}
          if [ "$j" = vecmax_sweep ]; then
            sl_tasks_out=$(sl_tasks "$sl_id")
            [ "$(grep -c ' COMPLETED 0:0$' <<<"$sl_tasks_out")" -eq 4 ] || sl_bad="$sl_bad array: $(grep -vc ' COMPLETED 0:0$' <<<"$sl_tasks_out") tasks not completed;"
            grep -q "^dry run: vecmax/bin/vecmax --threads=${sl_configs[0]% *} --blocks=${sl_configs[0]#* } " "$sl_logs/vecmax_sweep-${sl_id}_0.out" 2>/dev/null || sl_bad="$sl_bad task 0's log lacks its dry-run command;"
            continue
          fi
          [ "$(sl_state "$sl_id")" = COMPLETED ] || { sl_bad="$sl_bad $j: $(sl_state "$sl_id") $(sl_reason "$sl_id") exit $(sl_exit "$sl_id");"; continue; }
          [ -s "$sl_logs/$j-$sl_id.out" ] || sl_bad="$sl_bad no log slurm/logs/$j-$sl_id.out;"
        done
        grep -q '^dry run: make --no-print-directory plots' "$sl_logs/plots-${sl_ids##*plots:}.out" 2>/dev/null || sl_bad="$sl_bad plots log lacks 'make plots';"
        grep -q 'every job it waited for succeeded' "$sl_logs/plots-${sl_ids##*plots:}.out" 2>/dev/null || sl_bad="$sl_bad plots log does not say every job succeeded;"
        sl_id=$(awk '$1 == "profile" { print $2 }' <<<"$sl_sub_out")
        grep -q '^dry run: make --no-print-directory profile' "$sl_logs/profile-$sl_id.out" 2>/dev/null || sl_bad="$sl_bad profile log lacks 'make profile';"
      fi
      if [ -z "$sl_bad" ]; then t_pass "${sl_cases[8]} (and --profile's job)"; else t_fail "${sl_cases[8]}" "$sl_bad"; fi
      # slurm/wait.sh on the login node: the last submission's jobs (all ended by now), each succeeded.
      t_run env WAIT_POLL=1 bash "$sl_t/slurm/wait.sh"
      if [ "$T_STATUS" -eq 0 ] && grep -q 'every job has ended: ' "$T_OUT" && grep -q 'every job it waited for succeeded' "$T_OUT" &&
         grep -q 'next: make plots' "$T_OUT" && [ "$(wc -l <"$sl_logs/last-submission.txt")" -ge 8 ]; then
        t_pass "slurm/wait.sh: waits for the last submission's jobs, then says each succeeded and what is next (make plots)"
      else t_fail "slurm/wait.sh: waits for the last submission's jobs, then says each succeeded and what is next (make plots)" "exit $T_STATUS"; t_show_failure; fi

      # The pre-flight check: a stand-in nvcc, no module; then a partition that does not exist.
      sl_bad=""
      # (a job id above the highest one so far would be a submitted job: ids only grow)
      sl_max_id=$(timeout 10 scontrol -o show jobs 2>/dev/null | sed -n 's/^JobId=\([0-9]*\).*/\1/p' | sort -n | tail -n 1)
      t_run env PATH="$sl_fpath" CUDA_MODULE= bash "$sl_t/slurm/submit_all.sh" --check
      [ "$T_STATUS" -eq 0 ] || sl_bad="$sl_bad exit $T_STATUS: $(grep '^FAIL' "$T_OUT" | head -n 2 | tr '\n' ' ');"
      grep -q "nvcc: $sl_fakecuda/bin/nvcc: Cuda compilation tools, release 12.2" "$T_OUT" || sl_bad="$sl_bad nvcc not named;"
      grep -q "^ok    partition 'gpu' exists, GRES: .*gpu" "$T_OUT" || sl_bad="$sl_bad partition line;"
      for a in $sl_assignments plots; do grep -q "^ok    $a: Slurm would accept it" "$T_OUT" || sl_bad="$sl_bad $a not accepted;"; done
      grep -q "^sbatch --parsable --output=.*slurm/pi.sbatch" "$T_OUT" || sl_bad="$sl_bad sbatch lines not printed;"
      t_run env PATH="$sl_fpath" CUDA_MODULE= SBATCH_PARTITION=nosuch bash "$sl_t/slurm/submit_all.sh" --check
      [ "$T_STATUS" -eq 1 ] && grep -q "^FAIL  partition 'nosuch' not found; partitions here: gpu" "$T_OUT" || sl_bad="$sl_bad SBATCH_PARTITION=nosuch: exit $T_STATUS, no FAIL line naming it;"
      # SBATCH_GRES overrides the scripts' --gres=gpu:1 (two GPUs: more than the node has), not the plots job's.
      t_run env PATH="$sl_fpath" CUDA_MODULE= SBATCH_GRES=gpu:2 bash "$sl_t/slurm/submit_all.sh" --check pi
      [ "$T_STATUS" -eq 1 ] && grep -q "^FAIL  pi: Slurm would refuse it" "$T_OUT" && grep -q "^ok    plots: Slurm would accept it" "$T_OUT" ||
        sl_bad="$sl_bad SBATCH_GRES=gpu:2: exit $T_STATUS, pi not refused or plots refused;"
      [ "$(timeout 10 scontrol -o show jobs 2>/dev/null | sed -n 's/^JobId=\([0-9]*\).*/\1/p' | sort -n | tail -n 1)" = "$sl_max_id" ] ||
        sl_bad="$sl_bad a job was submitted;"
      if [ -z "$sl_bad" ]; then t_pass "${sl_cases[11]}"; else t_fail "${sl_cases[11]}" "$sl_bad"; t_show_failure; fi

      # scancel mid-run: the stand-in pi of the copy above (its experiment has written a partial
      # CSV and sleeps); Slurm sends SIGTERM to every process of the job, SIGKILL KillWait later.
      sl_bad=""
      sl_fcommitted=$(sl_fsum)
      rm -f "$sl_started"
      sl_id=$(cd "$sl_f" && PATH=$sl_fpath CW_GPU_CHECK=0 FAKE_EXPERIMENT_STARTED=$sl_started sl_submit slurm/pi.sbatch)
      if [ -z "$sl_id" ]; then sl_bad="not submitted: $(cat "$CW_TEST_TMP/sbatch.err")"
      elif ! cw_wait_for 60 test -e "$sl_started"; then sl_bad="job $sl_id: the experiment never started ($(sl_state "$sl_id"))"; timeout 10 scancel "$sl_id"
      else
        timeout 10 scancel "$sl_id"
        sl_wait 60 "$sl_id" || sl_bad="job $sl_id still $(sl_state "$sl_id") 60 s after scancel;"
        sl_log=$sl_f/slurm/logs/pi-$sl_id.out
        sl_kept=$(sl_kept_of "$sl_log")
        [ "$(sl_state "$sl_id")" = CANCELLED ] || sl_bad="$sl_bad state $(sl_state "$sl_id");"
        [ "$(sl_fsum)" = "$sl_fcommitted" ] || sl_bad="$sl_bad pi/results/ or pi/runs/ changed;"
        grep -q "FAILED (exit 143): pi: interrupted by SIGTERM (scancel, the time limit or Ctrl-C): pi/runs/<gpu>/ unchanged" "$sl_log" 2>/dev/null || sl_bad="$sl_bad no 'interrupted by SIGTERM' line in $sl_log ($(tail -n 2 "$sl_log" 2>/dev/null | tr '\n' ' '));"
        [[ "$sl_kept" == "$sl_runs"/pi-*-interrupted-SIGTERM ]] && [ -s "$sl_kept/table.csv" ] || sl_bad="$sl_bad kept folder '$sl_kept' not there;"
      fi
      if [ -z "$sl_bad" ]; then t_pass "${sl_cases[9]} (${sl_kept##*/})"; else t_fail "${sl_cases[9]}" "$sl_bad"; fi

      # profile.sbatch on the GPU-less node (no module: CW_MODULE_INIT=): no ncu, then a stand-in ncu.
      sl_bad=""
      sl_before=$(sl_rsum "$sl_t")
      sl_id=$(NCU=$sl_nonc sl_submit slurm/profile.sbatch)
      sl_id3=""
      [ "$CW_GPU_OK" = 1 ] || sl_id3=$(NCU=$sl_fakencu sl_submit slurm/profile.sbatch)
      sl_wait 120 "$sl_id" $sl_id3 || sl_bad="still running after 120 s;"
      sl_log=$sl_logs/profile-$sl_id.out
      if [ "$(sl_state "$sl_id")" != FAILED ] || [ "$(sl_exit "$sl_id")" != 2:0 ]; then sl_bad="$sl_bad no ncu: $(sl_state "$sl_id") $(sl_exit "$sl_id");"
      elif [ "$(grep -c FAILED "$sl_log")" -ne 1 ] || ! tail -n 1 "$sl_log" | grep -q 'FAILED (exit 2): profile: Nsight Compute (ncu) not found'; then sl_bad="$sl_bad no ncu: not one FAILED line ($(tail -n 1 "$sl_log"));"
      fi
      if [ -n "$sl_id3" ]; then
        sl_log=$sl_logs/profile-$sl_id3.out
        if [ "$(sl_state "$sl_id3")" != FAILED ] || [ "$(sl_exit "$sl_id3")" != 3:0 ]; then sl_bad="$sl_bad stand-in ncu: $(sl_state "$sl_id3") $(sl_exit "$sl_id3");"
        elif [ "$(grep -c FAILED "$sl_log")" -ne 1 ] || ! tail -n 1 "$sl_log" | grep -Eq 'FAILED \(exit 3\): profile: .*CUDA error [0-9]+'; then sl_bad="$sl_bad stand-in ncu: not one FAILED line with the CUDA message ($(tail -n 1 "$sl_log"));"
        fi
      fi
      [ "$(sl_rsum "$sl_t")" = "$sl_before" ] || sl_bad="$sl_bad a results/ or runs/ file changed;"
      if [ -z "$sl_bad" ]; then t_pass "${sl_cases[10]}$([ -z "$sl_id3" ] && echo ' (the no-GPU job not run: a GPU is present)')"; else t_fail "${sl_cases[10]}" "$sl_bad"; fi

      # Lmod: each toolkit's module, then the default, then a module that does not exist; one job
      # at a time, each read from its log and the build stamp it left (oldest toolkit first, so
      # that every job rebuilds the GPU probe: the stamp names the toolkit).
      sl_li=11
      if [ -n "$sl_lmod_why" ]; then
        for c in "${sl_lmod_cases[@]}"; do t_skip "$c" "$sl_lmod_why"; done
      else
        sl_lmod_write
        sl_lmod_check() {  # CASE JOB NAME ROOT [INIT]: the job loaded NAME, named ROOT's nvcc, built with it
          local c=$1 id=$2 name=$3 root=$4 init=${5:-} log=$sl_logs/profile-$2.out rel=${3#cuda/} bad=""
          [ -n "$id" ] && sl_wait 120 "$id" || bad="job ${id:-not submitted} did not finish;"
          [ "$(sl_state "$id")" = FAILED ] && [ "$(sl_exit "$id")" = 2:0 ] || bad="$bad $(sl_state "$id") $(sl_exit "$id");"
          grep -q "no 'module' function in this batch shell: sourced ${init:-/}" "$log" 2>/dev/null || bad="$bad the log does not name the modules init${init:+ $init} it sourced;"
          grep -q "module ${CUDA_MODULE_SEEN:-$name} loaded (loaded modules: $name)" "$log" 2>/dev/null || bad="$bad $name not loaded;"
          grep -q "nvcc: $root/bin/nvcc: Cuda compilation tools, release $rel," "$log" 2>/dev/null || bad="$bad the log's nvcc line is not $root's $rel ($(grep -m 1 'nvcc: ' "$log" 2>/dev/null));"
          tail -n 1 "$log" 2>/dev/null | grep -q 'FAILED (exit 2): profile: Nsight Compute (ncu) not found' || bad="$bad last line: $(tail -n 1 "$log" 2>/dev/null);"
          grep -q "^$root/bin/nvcc Build cuda_$rel" "$sl_stamp" 2>/dev/null || bad="$bad the build stamp is not $root's $rel: $(cut -c1-80 "$sl_stamp" 2>/dev/null);"
          if [ -z "$bad" ]; then t_pass "$c"; else t_fail "$c" "$bad"; fi
        }
        sl_first=1
        for sl_m in "${sl_lmod_mods[@]}"; do
          # The first as from a login shell with Lmod (LMOD_PKG set), the others with no Lmod variable at all.
          if [ "$sl_first" = 1 ]; then
            sl_id=$(sl_lmod_submit CUDA_MODULE="${sl_m%%:*}" LMOD_PKG=$sl_lmod_pkg)
            sl_lmod_check "${sl_lmod_cases[$((sl_li - 11))]}" "$sl_id" "${sl_m%%:*}" "${sl_m#*:}" "$sl_lmod_pkg/init/bash"
          else
            sl_id=$(sl_lmod_submit CUDA_MODULE="${sl_m%%:*}")
            sl_lmod_check "${sl_lmod_cases[$((sl_li - 11))]}" "$sl_id" "${sl_m%%:*}" "${sl_m#*:}"
          fi
          sl_first=0 sl_li=$((sl_li + 1))
        done
        sl_id=$(sl_lmod_submit)
        CUDA_MODULE_SEEN=cuda sl_lmod_check "${sl_lmod_cases[$((sl_li - 11))]}" "$sl_id" "$sl_lmod_default" "$(for m in "${sl_lmod_mods[@]}"; do [ "${m%%:*}" = "$sl_lmod_default" ] && echo "${m#*:}"; done)"
        sl_li=$((sl_li + 1))
        sl_c=${sl_lmod_cases[$((sl_li - 11))]}
        sl_stamp_before=$(stat -c %Y "$sl_stamp" 2>/dev/null)
        sl_id=$(sl_lmod_submit CUDA_MODULE=cuda/0.0)
        sl_log=$sl_logs/profile-$sl_id.out
        sl_wait 60 "$sl_id"
        if [ "$(sl_state "$sl_id")" = FAILED ] && [ "$(sl_exit "$sl_id")" = 2:0 ] && [ "$(grep -c FAILED "$sl_log")" -eq 1 ] &&
           tail -n 1 "$sl_log" | grep -q "FAILED (exit 2): cannot load module 'cuda/0.0'" && ! grep -Eq 'nvcc: |^\+ (flock|make)' "$sl_log" &&
           [ "$(stat -c %Y "$sl_stamp" 2>/dev/null)" = "$sl_stamp_before" ]; then t_pass "$sl_c"
        else t_fail "$sl_c" "job $sl_id: $(sl_state "$sl_id") $(sl_exit "$sl_id"): $(tail -n 1 "$sl_log" 2>/dev/null)"; fi
        sl_li=$((sl_li + 1))
        for sl_o in "${sl_lmod_other[@]}"; do
          sl_c=${sl_lmod_cases[$((sl_li - 11))]}
          case ${sl_o%%|*} in skip) t_skip "$sl_c" "${sl_o#*|}" ;; *) t_fail "$sl_c" "${sl_o#*|}" ;; esac
          sl_li=$((sl_li + 1))
        done
      fi

    fi
    sl_node=$(cw_node_state)
    if [ "$sl_node" = IDLE ]; then t_pass "${sl_cases[-2]}"; else t_fail "${sl_cases[-2]}" "node state $sl_node: $(timeout 5 scontrol show node | sl_field Reason)"; fi
    echo "   Slurm cases took $((SECONDS - sl_start)) s"
    cd "$sl_here" || true
  fi
  if cw_cluster_stop; then t_pass "${sl_cases[-1]} ($CW_CLUSTER_STOPPED)"
  else t_fail "${sl_cases[-1]}" "still running:$CW_CLUSTER_LEFT"; fi
  # Leave no daemon behind even if a step above was interrupted; then the runner's own trap.
  rm -rf "$sl_cluster"
  if [ -n "$sl_prev_trap" ]; then eval "$sl_prev_trap"; else trap - EXIT; fi
  trap - INT TERM
fi
