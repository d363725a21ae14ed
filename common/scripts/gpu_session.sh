#!/usr/bin/env bash
# Everything a GPU machine is needed for, in one call (for a borrowed GPU node or a
# teaching assistant's check): build for the local GPU, run the GPU tier of the tests, run
# the experiments of the chosen assignments, and pack logs and results.
#   bash common/scripts/gpu_session.sh [PHASES] [FOLDERS]
#     PHASES   any of: tests report profile ncu-sample legacy cluster (default: "tests report")
#              tests: the GPU cases of each folder (pytest -m gpu); report: make report-run (staged) per folder;
#              profile: make profile per folder; ncu-sample: a small real ncu CSV for the
#              parser's unit test (common/tests/data/ncu_sample.csv), ncu_sample-<folder>.csv
#              from each folder whose Makefile sets NCU_SAMPLE_ARGS (the program's options for
#              it); legacy: the GPU tier
#              of the CUDA 11.8 SMS="35 52" build packed by common/scripts/legacy_build.sh (its
#              compute_52 PTX JIT-compiled by the driver), run from the pack, never rebuilt:
#              CW_LEGACY_PACK (default .legacy-pack), logs/legacy-*.log, legacy_record.txt
#              (alone, "legacy" builds nothing in this checkout); cluster: a single-node Slurm
#              from CW_SLURM_PACK (default .slurm-pack, made by slurm/tests/pack_slurm.sh) runs
#              slurm/submit_all.sh and checks every job (slurm/tests/gpu_cluster.sh),
#              logs/cluster.log, cluster_record.txt (and cluster_record-logs/); then the same
#              pack on two nodes of this machine (CW_CLUSTER_NODES=2: two slurmd, one GPU each
#              where there are two, else sharing the one) running the sweep's array and gather
#              (submit_all.sh --no-plots vecmax_sweep): logs/cluster-two-node.log and the record
#              slurm/records/cluster-two-node-<gpu>-<date>.txt under $OUT (a line per array task,
#              `array task N ... on <node>`), to be committed as it is;
#              cluster-two-node: that two-node run alone (CW_CLUSTER_TWO_NODE=0 leaves it out of
#              "cluster", for a machine whose commands have a time limit: run them as two calls)
#     FOLDERS  assignment folders (default: every one that exists)
#   CW_FOLDER_JOBS=N  the tests and legacy phases run N folders at once (default 1); CW_TEST_JOBS=M
#            runs each folder's cases on M pytest-xdist workers
# Output goes to $OUT (default build/gpu_session): summary.txt, logs.tgz, results.tgz.
# The report phase re-makes the committed reference: */results/ (CW_REFERENCE=1, the default
# here), or with CW_RESULTS_SUBDIR=h200 */results/h200/ (a second GPU's reference). A user's
# `make report` writes */runs/<gpu>/ instead (common/scripts/staged_run.sh). Each folder's
# MANIFEST.tsv gets the rows of the CSVs the run wrote (staged_run.sh); the summary ends the
# phase with the reference CSVs still stale (common/py/provenance.py status).
set -u
cd "$(dirname "$0")/../.."
phases=${1:-tests report}
folders=${2:-$(bash common/scripts/assignments.sh)}
case ${CW_FOLDER_JOBS:-1} in
  '' | *[!0-9]* | 0) echo "gpu_session.sh: CW_FOLDER_JOBS='${CW_FOLDER_JOBS}': a whole number of folders at once, 1 or more" >&2; exit 2 ;;
esac
OUT=${OUT:-$PWD/build/gpu_session}
logs=$OUT/logs
mkdir -p "$logs"
summary=$OUT/summary.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 ))s; }

nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
note "host: $(hostname), $(nproc) cores; nvcc: $(nvcc --version | tail -n 1)"
note "folders: $folders; phases: $phases"

other_phases=" $phases "; other_phases=${other_phases// legacy / }
if [ -n "${other_phases// /}" ]; then  # the legacy phase alone needs nothing built here
if ! make -j"$(nproc)" -C common all >"$logs/build-common.log" 2>&1; then note "BUILD FAILED: common"; fi
for f in $folders; do
  if make -j"$(nproc)" -C "$f" all experiments >"$logs/build-$f.log" 2>&1; then
    note "build $f: ok ($(grep -m1 '^arch:' "$logs/build-$f.log"))"
  else
    note "BUILD FAILED: $f"; tail -n 20 "$logs/build-$f.log" | tee -a "$summary"
  fi
done
common/bin/devinfo 2>&1 | tee "$logs/devinfo.txt" | tee -a "$summary"
fi

# The sum of pytest's summary lines ("== 12 passed, 1 skipped in 3.4s ==") of the logs given.
pytest_totals() {
  cat "$@" 2>/dev/null | sed -n 's/^=* \(.*\) in [0-9.]*s.*$/\1/p' | tr ',' '\n' |
    awk '{ n[$2] += $1 } END { printf "%d passed, %d failed, %d skipped, %d errors", n["passed"], n["failed"], n["skipped"], n["error"] + n["errors"] }'
}

# pytest_totals of this run's folders' logs PREFIX-<folder>.log (not a log left by an earlier run).
folder_totals() {
  local f files=()
  for f in common $folders; do files+=("$logs/$1-$f.log"); done
  pytest_totals "${files[@]}"
}
# pytest's summary line at the end of a log, without its rule ("12 passed, 1 skipped in 3.4s").
last_summary() { tail -n 1 "$1" | tr -d '=' | sed 's/^ *//'; }

# Runs the function $1 for common and each folder, CW_FOLDER_JOBS folders at once (default 1: one
# after another; the tests are for correctness, none is timed, so folders may share the GPU and the
# cores). Each folder's lines for the summary go to a file of their own and reach the summary in
# the folders' order.
for_each_folder() {
  local fn=$1 f n=0
  for f in common $folders; do
    if [ "${CW_FOLDER_JOBS:-1}" -le 1 ]; then
      "$fn" "$f" >"$logs/.lines-$f" 2>&1
      folder_lines "$f"  # one after another: each folder's lines as soon as it is done
      continue
    fi
    "$fn" "$f" >"$logs/.lines-$f" 2>&1 &
    n=$((n + 1))
    if [ "$n" -ge "$CW_FOLDER_JOBS" ]; then wait -n; n=$((n - 1)); fi
  done
  wait
  for f in common $folders; do folder_lines "$f"; done
}
# A folder's lines (for_each_folder's file) into the summary, once.
folder_lines() {
  [ -f "$logs/.lines-$1" ] || return 0
  tee -a "$summary" <"$logs/.lines-$1"
  rm -f "$logs/.lines-$1"
}

# The GPU cases of one folder (pytest -m gpu, as make test-gpu runs them), one pytest per folder so
# that a folder's log and count stand alone; CW_TEST_JOBS=N runs its cases on N pytest-xdist workers
# where it is installed.
test_folder() {
  local f=$1 s
  s=$(date +%s)
  timeout 900 bash common/scripts/pytest.sh -m gpu -rfEs "$f/tests" >"$logs/test-gpu-$f.log" 2>&1
  echo "test-gpu $f: $(last_summary "$logs/test-gpu-$f.log") ($(( $(date +%s) - s ))s wall)"
  grep -E '^(FAILED|ERROR) ' "$logs/test-gpu-$f.log" | head -n 20
}
if [[ " $phases " == *" tests "* ]]; then
  for_each_folder test_folder
  note "GPU tier: $(folder_totals test-gpu)"
fi

if [[ " $phases " == *" report "* ]]; then
  for f in $folders; do
    s=$(date +%s)
    if CW_REFERENCE=1 timeout 900 make --no-print-directory -C "$f" report-run >"$logs/report-$f.log" 2>&1; then
      note "report-run $f: ok in $(( $(date +%s) - s ))s"
    else
      note "REPORT FAILED: $f (exit $?) after $(( $(date +%s) - s ))s"; tail -n 15 "$logs/report-$f.log" | tee -a "$summary"
    fi
  done
  python3 common/py/provenance.py status $folders >"$logs/provenance.txt" 2>&1
  note "$(tail -n 1 "$logs/provenance.txt") (logs/provenance.txt)"
fi

if [[ " $phases " == *" profile "* ]]; then
  for f in $folders; do
    s=$(date +%s)
    if timeout 600 make --no-print-directory -C "$f" profile >"$logs/profile-$f.log" 2>&1; then
      note "profile $f: ok in $(( $(date +%s) - s ))s"
    else
      note "PROFILE FAILED: $f after $(( $(date +%s) - s ))s"; tail -n 15 "$logs/profile-$f.log" | tee -a "$summary"
    fi
  done
fi

if [[ " $phases " == *" ncu-sample "* ]]; then
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  for f in $folders; do
    sample_args=$(make --no-print-directory -s -C "$f" print-NCU_SAMPLE_ARGS)
    [ -n "$sample_args" ] || continue
    # shellcheck disable=SC2086  # the program's options, split into words
    "$ncu" --clock-control none --csv --log-file "$OUT/ncu_sample-$f.csv" \
      --metrics gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
      "$f/bin/$f" $sample_args >"$logs/ncu-sample-$f.log" 2>&1
    note "ncu-sample $f: exit $?, $(wc -l <"$OUT/ncu_sample-$f.csv" 2>/dev/null) lines ($f/bin/$f $sample_args)"
  done
fi

# legacy: tier 2 of every folder from the pack of common/scripts/legacy_build.sh (the CUDA 11.8 build
# for SMS="35 52"; on a newer GPU the driver JIT-compiles its compute_52 PTX, so the
# __CUDA_ARCH__ < 600 paths run). The pack is unpacked into a temporary folder (times kept)
# and each folder's GPU cases are run there by pytest directly (no `make test-gpu`, no devinfo rule).
# Nothing may be rebuilt with this machine's toolkit: MAKEFILES names a makefile that every
# make reads first (the tests call make for profile-experiments and to print variables),
# which keeps each folder's build-config stamp as it is, and points the compilers at a guard
# that refuses and logs; the binaries' sha256 (the pack's manifest) and the times of every
# binary, object and stamp are compared before and after, and cuobjdump must show sm_35.
# The stand-in libraries of the pack (.legacy/lib, built by the assignments' tests/legacy_pack.sh)
# are on LD_LIBRARY_PATH; an assignment's pack step may have adapted its packed tests to them.
# One folder's GPU cases in the unpacked pack ($tree, $lt and $guard: legacy_phase's).
legacy_folder() {
  local f=$1 s
  s=$(date +%s)
  if [ ! -d "$tree/$f/tests" ]; then echo "legacy $f: not in the pack"; return; fi
  (cd "$tree" && CW_NO_BUILD=1 MAKEFILES=$lt/guard.mk PATH=$guard:$PATH \
     LD_LIBRARY_PATH=$tree/.legacy/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
     timeout "${CW_LEGACY_TIMEOUT:-900}" bash common/scripts/pytest.sh -m gpu -rfEs "$f/tests") >"$logs/legacy-$f.log" 2>&1
  echo "legacy $f: $(last_summary "$logs/legacy-$f.log") ($(( $(date +%s) - s ))s wall)"
  grep -E '^(FAILED|ERROR) ' "$logs/legacy-$f.log" | head -n 20
  grep -E '^SKIPPED ' "$logs/legacy-$f.log" | sed 's/^SKIPPED \[[0-9]*\] [^ ]*: /  skipped: /' | sort | uniq -c | head -n 5
}
legacy_phase() {
  local pack=${CW_LEGACY_PACK:-$PWD/.legacy-pack} record=$OUT/legacy_record.txt
  local lt tree guard results f before after ok=1 problems="" cuobjdump sm35=0 nbin=0 unread="" b
  case $pack in /*) ;; *) pack=$PWD/$pack ;; esac
  : >"$record"
  rec() { echo "$*" >>"$record"; }
  rec "legacy phase: $(date -u +%Y-%m-%dT%H:%M:%SZ), host $(hostname), pack $pack"
  rec "device: $(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null | head -n 1 |
                 sed 's/^\(.*\), \(.*\), \(.*\)$/\1 (compute capability \3), driver \2/' | grep . || echo "none (nvidia-smi: no device)")"
  if [ ! -f "$pack/tree.tar.gz" ] || [ ! -f "$pack/MANIFEST.sha256" ] || [ ! -f "$pack/BUILD_INFO.txt" ]; then
    note "LEGACY FAILED: no legacy pack at $pack (make one where CUDA 11.8 is: bash common/scripts/legacy_build.sh $pack)"
    rec "no pack at $pack"; return
  fi
  sed -n 's/^toolkit: /build toolkit: /p; s/^source: /build source: /p; s/^made /build made /p' "$pack/BUILD_INFO.txt" >>"$record"
  lt=$(mktemp -d "${TMPDIR:-/tmp}/cw-legacy.XXXXXX")
  tree=$lt/tree guard=$lt/guard results=$OUT/legacy-test-results.txt
  mkdir -p "$tree" "$guard"
  : >"$results"
  if ! tar -C "$tree" -xzf "$pack/tree.tar.gz" 2>"$logs/legacy-unpack.log"; then
    note "LEGACY FAILED: cannot unpack $pack/tree.tar.gz"; rec "unpack failed"; rm -rf "$lt"; return
  fi
  if ! (cd "$tree" && sha256sum --quiet -c "$pack/MANIFEST.sha256") >"$logs/legacy-manifest.log" 2>&1; then
    ok=0 problems="$problems; binaries differ from the pack's manifest"
  fi
  # The binaries are the 11.8 ones: sm_35 code is in each (no toolkit since CUDA 12 makes it).
  cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null || true)
  for b in $(cd "$tree" && ls common/bin/* */bin/* */build/experiments/* 2>/dev/null); do
    nbin=$((nbin + 1))
    [ -n "$cuobjdump" ] || continue
    if ! "$cuobjdump" -lelf "$tree/$b" >"$lt/elf" 2>&1; then unread=$((${unread:-0} + 1))
    elif grep -q '\.sm_35\.cubin' "$lt/elf"; then sm35=$((sm35 + 1))
    else ok=0 problems="$problems; $b holds no sm_35 code"; fi
  done
  if [ -z "$cuobjdump" ]; then rec "binaries: $nbin; cuobjdump not found (sha256 of the pack's manifest only)"
  else rec "binaries: $sm35 of $nbin hold sm_35 code ($cuobjdump -lelf)${unread:+, $unread not readable by it (sha256 only)}"; fi
  # The guard: any compile is refused and logged; the stamps keep the 11.8 configuration. A
  # Makefile that asks `nvcc --version` (scan's, to leave out what CUDA 11 cannot build) is
  # answered with the pack's toolkit, as the pack's build was, and that is no compile.
  release=$(sed -n 's/^toolkit: .*cuda_\([0-9]*\.[0-9]*\).*/\1/p' "$pack/BUILD_INFO.txt")
  for c in nvcc g++ gcc c++; do
    { echo '#!/bin/sh'
      if [ "$c" = nvcc ] && [ -n "$release" ]; then
        printf 'if [ "$*" = --version ]; then echo "Cuda compilation tools, release %s (the legacy pack'"'"'s toolkit)"; exit 0; fi\n' "$release"
      fi
      printf 'echo "$PWD: %s $*" >>"%s/calls.log"\necho "legacy phase: %s refused: the packed CUDA 11.8 build is never rebuilt here" >&2\nexit 97\n' \
        "$c" "$guard" "$c"
    } >"$guard/$c"
    chmod +x "$guard/$c"
  done
  cat >"$lt/guard.mk" <<MK
# The legacy phase (common/scripts/gpu_session.sh): read first by every make, nothing is rebuilt.
override BUILD_CONFIG = \$(if \$(wildcard \$(CONFIG_STAMP)),\$(file <\$(CONFIG_STAMP)),legacy-phase: no stamp)
override NVCC := $guard/nvcc
override HOST_CXX := $guard/g++
override GENCODE_FLAGS := -legacy-phase-guard
override UNSHADOW_FLAGS :=
override ARCH_MESSAGE := arch: legacy pack, prebuilt with CUDA 11.8 (sm_35 sm_52 + compute_52 PTX), nothing built here
MK
  snapshot() {
    (cd "$tree" && find . -type f \( -path '*/bin/*' -o -name '*.o' -o -name '*.stamp' -o -path '*/build/experiments/*' \
                   -o -path './.legacy/*' \) -printf '%p %s %T@\n' | sort)
  }
  before=$(snapshot)
  (cd "$tree/common" && timeout 60 bin/devinfo --check) >"$logs/legacy-devinfo.txt" 2>&1
  note "legacy: $(head -n 1 "$logs/legacy-devinfo.txt") [the pack's devinfo, built with ${release:+CUDA $release}]"
  rec "pack's devinfo: $(head -n 1 "$logs/legacy-devinfo.txt")"
  for_each_folder legacy_folder
  for f in common $folders; do
    if [ -d "$tree/$f/tests" ]; then rec "$f: $(last_summary "$logs/legacy-$f.log")"
    else rec "$f: not in the pack"; fi
  done
  after=$(snapshot)
  if [ "$before" != "$after" ]; then
    ok=0 problems="$problems; binaries, objects or stamps changed: $(diff <(echo "$before") <(echo "$after") | grep -c '^>') of them"
    diff <(echo "$before") <(echo "$after") >"$logs/legacy-changed.txt"
  fi
  if [ -s "$guard/calls.log" ]; then
    ok=0 problems="$problems; a compiler was called $(wc -l <"$guard/calls.log") time(s)"
    cp "$guard/calls.log" "$logs/legacy-compiler-calls.txt"
  fi
  (cd "$tree" && sha256sum --quiet -c "$pack/MANIFEST.sha256") >>"$logs/legacy-manifest.log" 2>&1 ||
    { ok=0 problems="$problems; binaries differ from the pack's manifest after the run"; }
  if [ "$ok" = 1 ]; then
    note "legacy: nothing rebuilt (sha256 and times of $(wc -l <<<"$before") binaries, objects and stamps unchanged, no compiler called)"
    rec "rebuild check: ok (nothing rebuilt, no compiler called, manifest verified)"
  else
    note "LEGACY FAILED: ${problems#; }"; rec "rebuild check: FAILED: ${problems#; }"
  fi
  rec "total: $(folder_totals legacy)$([ "$ok" = 1 ] || echo "; the rebuild check FAILED")"
  note "legacy $(tail -n 1 "$record") (record: $record)"
  rm -rf "$lt"
}
if [[ " $phases " == *" legacy "* ]]; then legacy_phase; fi

# The two-node run (CW_CLUSTER_NODES=2): the sweep's array over two slurmd of this machine.
cluster_two_node() {
  local pack=$1 s st gpu rec2
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 | tr 'A-Z' 'a-z' | sed 's/^nvidia //; s/ .*//')
  rec2=$OUT/slurm/records/cluster-two-node-${gpu:-gpu}-$(date +%F).txt
  s=$(date +%s)
  CW_CLUSTER_NODES=2 CW_CLUSTER_TIMEOUT=${CW_CLUSTER_TWO_NODE_TIMEOUT:-400} CW_CLUSTER_RECORD=$rec2 \
    bash slurm/tests/gpu_cluster.sh "$pack" >"$logs/cluster-two-node.log" 2>&1
  st=$?
  [ -f "$rec2" ] && cp "$rec2" "$logs/"  # in logs.tgz too: the record comes back whatever else $OUT holds
  note "cluster, two nodes: $([ "$st" = 0 ] && echo ok || echo "FAILED (exit $st)") in $(( $(date +%s) - s ))s: $(grep -c '^PASS' "$logs/cluster-two-node.log") checks passed, $(grep -c '^FAIL' "$logs/cluster-two-node.log") failed; $(grep -c '^  array task ' "$rec2" 2>/dev/null) array task lines, nodes: $(sed -n 's/^  array task .* on \([^ ]*\) (Slurm.*/\1/p' "$rec2" 2>/dev/null | sort | uniq -c | tr -s ' \n' ' ') (record: $rec2)"
  grep -E '^(FAIL|CANNOT RUN|INTERRUPTED)|^gpu_cluster.sh: ' "$logs/cluster-two-node.log" | head -n 20 | tee -a "$summary"
}
if [[ " $phases " == *" cluster-two-node "* ]] && [[ " $phases " != *" cluster "* ]]; then
  pack=${CW_SLURM_PACK:-$PWD/.slurm-pack}
  if [ ! -d "$pack" ]; then note "cluster-two-node: no slurm pack (run slurm/tests/pack_slurm.sh .slurm-pack here and carry it)"
  else cluster_two_node "$pack"; fi
fi
if [[ " $phases " == *" cluster "* ]]; then
  pack=${CW_SLURM_PACK:-$PWD/.slurm-pack}
  if [ ! -d "$pack" ]; then
    note "cluster: no slurm pack (run slurm/tests/pack_slurm.sh .slurm-pack here and carry it)"
  else
    s=$(date +%s)
    CW_CLUSTER_RECORD=${CW_CLUSTER_RECORD:-$OUT/cluster_record.txt} bash slurm/tests/gpu_cluster.sh "$pack" >"$logs/cluster.log" 2>&1
    st=$?
    note "cluster: $([ "$st" = 0 ] && echo ok || echo "FAILED (exit $st)") in $(( $(date +%s) - s ))s: $(grep -c '^PASS' "$logs/cluster.log") checks passed, $(grep -c '^FAIL' "$logs/cluster.log") failed (record: ${CW_CLUSTER_RECORD:-$OUT/cluster_record.txt})"
    grep -E '^(FAIL|CANNOT RUN|INTERRUPTED)|^gpu_cluster.sh: ' "$logs/cluster.log" | head -n 20 | tee -a "$summary"
    [ "${CW_CLUSTER_TWO_NODE:-1}" = 0 ] || cluster_two_node "$pack"
  fi
fi

tar czf "$OUT/logs.tgz" -C "$OUT" logs
tar czf "$OUT/results.tgz" $(ls -d */results */experiments/results */build/runs 2>/dev/null) 2>/dev/null
note "done in $(elapsed)"
