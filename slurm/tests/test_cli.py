"""slurm/ without Slurm (tier 1): the job scripts' syntax and #SBATCH lines; plain-bash runs (dry runs,
the GPU check, the sweep and its gather with a stand-in vecmax); a stand-in assignment's staged runs
(failures, SIGTERM, environment modules, nvcc, make profile, colreduce's run.slurm sizes);
submit_all.sh's dependency graph (--print) and its --check where Slurm cannot be reached. Everything
runs in copies of the repository (slurmtest.py); the cases on a real Slurm are test_cluster.py's."""
import os
import re
import shutil
import signal
import subprocess
import time

import pytest
from cwtest import ASSIGNMENTS, ROOT, Run, gpu_reason, run, usage_error
from slurmtest import BASE_ENV, HERE, STUB, R, configs, env, executable, expect, fsums, kept_of, lacks, last, sh, sums, sweep_rows

SLURM = ROOT / "slurm"
RUN_CSV = "vecmax/runs/fake-device/sweep.csv"  # the sweep's run folder: the stand-in's device
COMMITTED = "assignment,committed\nvecmax,1\n"  # a sweep.csv that a failed gather must leave byte for byte
DEVICE_LINE = "Device 0: Fake GPU 80GB, compute capability 9.0; kernels: sm_90 code, native"  # devinfo's stand-in
WHOLE_RUN = "assignment,n,ms,device\npi,1,0.125,Fake GPU 80GB\npi,2,0.25,Fake GPU 80GB\n"  # the stand-in's CSV


def no_gpu(repo=None):
    """Skips a case about a machine without a GPU where there is one (or no GPU probe in the copy)."""
    if not gpu_reason():
        pytest.skip("a GPU is present")
    if repo and not os.access(repo / "common/bin/devinfo", os.X_OK):
        pytest.skip("common/bin/devinfo does not build here")


def scripts():
    return [*sorted(SLURM.glob("*.sbatch")), SLURM / "submit_all.sh", SLURM / "lib.sh", *sorted(HERE.glob("*.sh"))]


def test_every_script_parses():
    bad = [s.name for s in scripts() if run(["bash", "-n", s]).rc]
    assert not bad, f"syntax errors in {bad}"


def test_shellcheck_finds_nothing():
    if not shutil.which("shellcheck"):
        pytest.skip("shellcheck not installed (apt-get install shellcheck)")
    r = run(["shellcheck", "-x", "-S", "warning", "-s", "bash", *(s.relative_to(SLURM) for s in scripts())], cwd=SLURM)
    assert r.rc == 0, f"{r.out.count(chr(10) + 'In ')} findings\n" + r.tail(30)


def test_assignments_sh_lists_the_assignments():
    assert ASSIGNMENTS, "common/scripts/assignments.sh printed nothing"


def test_every_job_script_finds_the_repository_through_find_repo_sh_with_the_same_three_lines():
    blocks = {}
    for f in SLURM.glob("*.sbatch"):
        text = f.read_text()
        found = re.findall(r"^# >>> find the repository.*?^# <<< find the repository.*?$", text, re.M | re.S)
        one = len(found) == 1 == text.count("\n# >>> find the repository") == text.count("\n# <<< find the repository")
        blocks[f.name] = found[0] if one else "not exactly one block"
    assert len(set(blocks.values())) == 1, f"the blocks differ: {blocks}"
    block = blocks.popitem()[1]
    assert '. "$cw_d/slurm/find_repo.sh"' in block and len(block.splitlines()) <= 5, block
    assert not lacks((SLURM / "find_repo.sh").read_text(), R(r"^[^#]*\. slurm/lib.sh")), "find_repo.sh does not source lib.sh"


def test_every_sbatch_line_has_a_comment():
    bad = [line for f in SLURM.glob("*.sbatch") for line in f.read_text().splitlines()
           if line.startswith("#SBATCH") and not re.match(r"#SBATCH \S* *# ", line)]
    assert not bad, bad


def test_each_gpu_job_asks_for_one_gpu_on_partition_gpu_a_time_limit_a_log_in_slurm_logs():
    wants = [R("^#SBATCH " + w) for w in ("--gres=gpu:1 ", "--partition=gpu ", "--time=", "--output=slurm/logs/")]
    jobs = [SLURM / f"{a}.sbatch" for a in [*ASSIGNMENTS, "vecmax_sweep"]]
    bad = {f.name: lacks(f.read_text(), *wants) if f.exists() else "missing" for f in jobs}
    assert not any(bad.values()), bad


def test_pi_sbatch_asks_for_the_16_cores_of_its_cpu_references():
    assert not lacks((SLURM / "pi.sbatch").read_text(), R("^#SBATCH --cpus-per-task=16 "))


def test_the_sweep_array_matches_vecmax_sweep_configs():
    if not (ROOT / "vecmax/sweep_configs.txt").exists():
        pytest.skip("vecmax/sweep_configs.txt is not there yet")
    n = len(configs(ROOT))
    assert f"\n#SBATCH --array=0-{n - 1} " in (SLURM / "vecmax_sweep.sbatch").read_text(), f"--array is not 0-{n - 1}"


# ---------------------------------------------------------------- plain bash: dry runs, the GPU check, the sweep
def test_dry_run_prints_colreduce_commands(repo):
    expect(sh("bash", repo / "slurm/colreduce.sbatch", CW_SLURM_DRY_RUN=1), 0, ["dry run: make -C colreduce report-run"])


def test_dry_run_of_the_sweep_prints_one_vecmax_command_per_configuration_then_the_gather(repo):
    cfg = configs(repo)
    r = expect(sh("bash", repo / "slurm/vecmax_sweep.sbatch", CW_SLURM_DRY_RUN=1), 0,
               [f"dry run: vecmax/bin/vecmax --threads={cfg[-1][0]} --blocks={cfg[-1][1]} --csv=",
                R(f"^dry run: combine {len(cfg)} parts .* into vecmax/runs/<gpu>/sweep.csv$")])
    assert len(re.findall("^dry run: vecmax/bin/vecmax --threads=", r.out, re.M)) == len(cfg), r.tail()


def test_plain_bash_without_a_gpu_exits_3_with_the_cuda_message_results_and_runs_untouched(repo):
    """A device file but no usable GPU: one FAILED line holding devinfo's reason, not devinfo's own line besides."""
    no_gpu(repo)
    before = sums(repo / "pi", "results", "runs")
    r = sh("bash", repo / "slurm/pi.sbatch")
    assert r.rc == 3 and len(r.err.splitlines()) == 1, r.tail()
    assert re.search(r"FAILED \(exit 3\): no usable GPU on .*: .*CUDA error [0-9]+.*; nothing was run or written$", r.err), r.tail()
    assert sums(repo / "pi", "results", "runs") == before and not (repo / "pi/runs").exists()


@pytest.mark.parametrize("module", [None, "cuda/nosuch"])
def test_plain_bash_on_a_login_node_two_header_lines_and_one_failed_line(repo, module):
    """README: `bash slurm/scan.sbatch` on a login node (no NVIDIA device file) prints its two header lines
    and one FAILED line, before any module or build; the header names what CUDA_VISIBLE_DEVICES holds:
    GPU indices."""
    r = sh("bash", repo / "slurm/scan.sbatch", CW_GPU_DEVICE_FILES="/nonexistent/nvidia0", CUDA_VISIBLE_DEVICES="0",
           CUDA_MODULE=module)
    out = r.out.splitlines()
    assert r.rc == 3 and len(out) == 2 and len(r.err.splitlines()) == 1, r.tail()
    assert re.search(r"\] job .* name scan.sbatch on ", out[0]), out
    assert out[1].endswith(f"repository {repo}; GPU indices given (CUDA_VISIBLE_DEVICES): 0"), out
    assert re.search(r"\] FAILED \(exit 3\): no GPU on .*: no NVIDIA device here \(/nonexistent/nvidia0\), as on a login node", r.err), r.tail()


@pytest.fixture(scope="module")
def stub_sweep(repo):
    """The sweep in plain bash with the stand-in vecmax: every configuration, then the gather."""
    shutil.rmtree(repo / "vecmax/runs", ignore_errors=True)
    committed = sums(repo / "vecmax", "results")
    return sh("bash", repo / "slurm/vecmax_sweep.sbatch", VECMAX_BIN=STUB, CW_GPU_CHECK=0), committed


def test_plain_bash_sweep_gathers_every_configuration_in_order_into_runs_gpu_sweep_csv(repo, stub_sweep):
    r, committed = stub_sweep
    n = len(configs(repo))
    expect(r, 0, [f"combined {n} rows from {n} tasks into {RUN_CSV}"])
    assert sweep_rows(repo / RUN_CSV) == configs(repo)
    assert os.listdir(repo / "vecmax/runs") == ["fake-device"] and sums(repo / "vecmax", "results") == committed


def test_plain_bash_sweep_stops_at_a_failing_configuration_nothing_gathered(repo, stub_sweep):
    t, b = configs(repo)[2]
    before = sums(repo / "vecmax", "results", "runs")
    r = sh("bash", repo / "slurm/vecmax_sweep.sbatch", VECMAX_BIN=STUB, FAKE_VECMAX_FAIL=f"{t} {b}", CW_GPU_CHECK=0)
    expect(r, 3, err=[f"task 2 (threads={t} blocks={b})"])
    assert sums(repo / "vecmax", "results", "runs") == before


# ---------------------------------------------------------------- the gather's own checks, on hand-made parts
@pytest.fixture
def parts(repo, tmp_path):
    """The sweep's parts (one stand-in run per configuration) and beside them a "committed" sweep.csv."""
    d = tmp_path / "parts"
    d.mkdir()
    for i, (t, b) in enumerate(configs(repo)):
        sh(STUB, f"--threads={t}", f"--blocks={b}", f"--csv={d}/task-{i:03d}.csv", FAKE_VECMAX_FAIL="")
    (tmp_path / "sweep.csv").write_text(COMMITTED)
    return d


def gather(repo, parts, **changes):
    return sh("bash", repo / "slurm/vecmax_gather.sbatch", parts, **changes)


def test_gather_refuses_a_missing_part_keeps_the_valid_ones_in_a_named_folder(repo, parts):
    (parts / "task-001.csv").unlink()
    r = expect(gather(repo, parts, VECMAX_SWEEP_CSV=parts.parent / "sweep.csv"), 1, err=["no CSV from task(s) 1;"], one_line=True)
    kept = kept_of(r.err, r"the [0-9]* valid parts, combined, and the problems are in (.*)$")
    assert (parts.parent / "sweep.csv").read_text() == COMMITTED
    assert kept and len(open(f"{kept}/sweep.csv").readlines()) - 1 == len(configs(repo)) - 1, kept
    assert "no CSV from task(s) 1" in open(f"{kept}/problems.txt").read()


def test_gather_refuses_a_part_of_another_configuration(repo, parts):
    (parts / "task-001.csv").unlink()
    sh(STUB, "--threads=999", "--blocks=7", f"--csv={parts}/task-001.csv")
    expect(gather(repo, parts, VECMAX_SWEEP_CSV=parts.parent / "sweep.csv"), 1,
           err=[R(r"task 1 \(threads=[0-9]* blocks=[0-9]*\): no row has threads=")])
    assert (parts.parent / "sweep.csv").read_text() == COMMITTED


def test_gather_with_every_part_replaces_sweep_csv_leaves_no_temporary_file(repo, parts):
    expect(gather(repo, parts, VECMAX_SWEEP_CSV=parts.parent / "sweep.csv"), 0)
    assert sweep_rows(parts.parent / "sweep.csv") == configs(repo)
    assert not list(parts.rglob("gather-*.incomplete")) and not list(parts.parent.glob(".sweep.csv.tmp.*"))


def test_gather_without_vecmax_sweep_csv_writes_runs_of_the_parts_gpu_and_nothing_else(repo, parts):
    other = parts.parent / "parts2"
    other.mkdir()
    for p in parts.iterdir():
        (other / p.name).write_text(p.read_text().replace(",fake device,", ",Other GPU 40GB,"))
    before = sums(repo / "vecmax", "results", "runs")
    try:
        expect(gather(repo, other), 0)
        csv = repo / "vecmax/runs/other-gpu-40gb/sweep.csv"
        assert sweep_rows(csv) == configs(repo)
        assert {x.split(",")[2] for x in csv.read_text().splitlines()[1:]} == {"Other GPU 40GB"}
        after = sums(repo / "vecmax", "results", "runs")
        assert after.pop("runs/other-gpu-40gb/sweep.csv") and after == before, "another vecmax/runs/ or results/ file changed"
    finally:
        shutil.rmtree(repo / "vecmax/runs/other-gpu-40gb", ignore_errors=True)


def test_gather_without_its_parts_folder_exits_2(repo):
    expect(sh("bash", repo / "slurm/vecmax_gather.sbatch"), 2)


# ---------------------------------------------------------------- staged runs of the stand-in pi
def kept_run(fakerepo, kept, name, csv="table.csv"):
    """The kept run is the stand-in's build/runs/NAME (a regex) with a non-empty csv, and no run is left .incomplete."""
    assert not list((fakerepo / "pi/build/runs").glob("*.incomplete")), "a staging folder is left .incomplete"
    assert re.fullmatch(re.escape(f"{fakerepo}/pi/build/runs/") + name, kept) and os.path.getsize(f"{kept}/{csv}"), kept


def test_a_failing_report_run_leaves_results_and_runs_the_log_names_the_kept_run(fakerepo, fpath):
    before = fsums(fakerepo)
    r = expect(sh("bash", fakerepo / "slurm/pi.sbatch", PATH=fpath, CW_GPU_CHECK=0, FAKE_EXPERIMENT="fail"), 3,
               [f"report-run pi: staging in {fakerepo}/pi/build/runs/pi-"],
               [last("FAILED (exit 3): pi: make -C pi report-run failed: pi/runs/<gpu>/ unchanged; this run's files are kept")])
    assert fsums(fakerepo) == before, "pi/results/ or pi/runs/ changed"
    kept_run(fakerepo, kept_of(r.err), "pi-.*-failed-exit.*")


def interrupt(cmd, tmp_path, group, **changes):
    """Starts cmd, waits for the stand-in experiment (its partial CSV written, asleep), then sends SIGTERM
    to cmd alone or (group) to every process of it, as scancel and the time limit do. Its exit status
    is the shell's (143 for SIGTERM)."""
    started, out, err = tmp_path / "started", tmp_path / "out", tmp_path / "err"
    with open(out, "w") as o, open(err, "w") as e:
        p = subprocess.Popen([str(c) for c in cmd], stdout=o, stderr=e, start_new_session=group,
                             env=env(FAKE_EXPERIMENT_STARTED=started, **changes))
    for _ in range(300):
        if started.exists() or p.poll() is not None:
            break
        time.sleep(0.1)
    kill = (lambda s: os.killpg(p.pid, s)) if group else p.send_signal
    kill(signal.SIGTERM if started.exists() else signal.SIGKILL)
    try:
        p.wait(30)
    except subprocess.TimeoutExpired:
        kill(signal.SIGKILL)
        pytest.fail("still running 30 s after SIGTERM")
    assert started.exists(), "the experiment never started:\n" + out.read_text() + err.read_text()
    return Run(cmd, 128 - p.returncode if p.returncode < 0 else p.returncode, out.read_text(), err.read_text())


def test_sigterm_to_make_report_run_mid_run_leaves_results_and_runs_keeps_the_run_interrupted(fakerepo, fpath, tmp_path):
    before = fsums(fakerepo)
    r = interrupt(["make", "--no-print-directory", "-C", fakerepo / "pi", "report-run"], tmp_path, False, PATH=fpath)
    assert r.rc != 0, r.tail()
    assert fsums(fakerepo) == before, "pi/results/ or pi/runs/ changed"
    kept_run(fakerepo, kept_of(r.err, "what this run produced is in (.*)$"), "pi-.*-interrupted-SIGTERM")


INTERRUPTED = "FAILED (exit 143): pi: interrupted by SIGTERM (scancel, the time limit or Ctrl-C): pi/runs/<gpu>/ unchanged"


def test_sigterm_to_the_whole_job_as_scancel_exits_143_and_names_the_kept_run(fakerepo, fpath, tmp_path):
    before = fsums(fakerepo)
    r = interrupt(["bash", fakerepo / "slurm/pi.sbatch"], tmp_path, True, PATH=fpath, CW_GPU_CHECK=0)
    expect(r, 143, err=[last(INTERRUPTED)])
    assert fsums(fakerepo) == before, "pi/results/ or pi/runs/ changed"
    kept_run(fakerepo, kept_of(r.err), "pi-.*-interrupted-SIGTERM")


# An exported Lmod-like `module` for `bash -c MODULE_FN JOB`: `load cuda` works (LOADEDMODULES, the
# stand-in nvcc on PATH), and so does `load gcc/12`; with FAKE_CUDA_NEEDS=gcc/12, `load cuda` fails
# unless gcc/12 is loaded first (a site whose CUDA module needs its compiler module); any other
# module is unknown: Lmod's dozen lines of error and status $FAKE_MODULE_RC (Lmod's 0 by default).
MODULE_FN = r'''module() { case "$1 ${2:-}" in
  "load gcc/12") export LOADEDMODULES=${LOADEDMODULES:+$LOADEDMODULES:}gcc/12 ;;
  "load cuda") if [ -n "${FAKE_CUDA_NEEDS:-}" ] && [[ ":${LOADEDMODULES:-}:" != *":$FAKE_CUDA_NEEDS:"* ]]; then
      printf "Lmod has detected the following error:  These module(s) or extension(s) exist but cannot be\nloaded as requested: \"cuda\"\n   Try: \"module spider cuda\" to see how to load the module(s).\n\n\n\n" >&2; return 1; fi
    export LOADEDMODULES=${LOADEDMODULES:+$LOADEDMODULES:}cuda/12.2 PATH=FAKECUDA/bin:$PATH ;;
  "is-loaded "*) case ":${LOADEDMODULES:-}:" in *":$2"[:/]*) return 0 ;; esac; return 1 ;;
  "load "*) printf "\nLmod has detected the following error:  The following module(s) are unknown:\n\"%s\"\n\nPlease check the spelling or version number. Also try \"module spider ...\"\nIt is also possible your cache file is out-of-date; it may help to try:\n  \$ module --ignore_cache load \"%s\"\n\nAlso make sure that all modulefiles written for TCL start with the string\n#%%Module\n\n\n\n" "$2" "$2" >&2; return "${FAKE_MODULE_RC:-0}" ;;
  esac; }; export -f module; exec bash "$0"'''


def with_module(fakerepo, fakecuda, **changes):
    """pi.sbatch of the stand-in, run with the Lmod-like module function."""
    return sh("bash", "-c", MODULE_FN.replace("FAKECUDA", str(fakecuda)), fakerepo / "slurm/pi.sbatch", **changes)


def test_module_load_cuda_names_nvcc_before_the_build_a_whole_run_writes_runs_gpu_table_csv(fakerepo, fakecuda):
    before = fsums(fakerepo)
    r = expect(with_module(fakerepo, fakecuda, CW_GPU_CHECK=0, FAKE_EXPERIMENT="ok"), 0,
               [R(r"^\+ module load cuda$"), R("report-run pi: runs/fake-gpu-80gb/ updated: table.csv$"),
                last("done: pi/runs/fake-gpu-80gb/ updated: table.csv")])
    nvcc = r.out.find(f"nvcc: {fakecuda}/bin/nvcc: Cuda compilation tools, release 12.2")
    build = re.search(r"^\+ .*make -C pi", r.out, re.M)
    assert 0 <= nvcc and build and nvcc < build.start(), "nvcc is not named before the build\n" + r.tail()
    assert (fakerepo / "pi/runs/fake-gpu-80gb/table.csv").read_text() == WHOLE_RUN
    after = fsums(fakerepo)
    after.pop("runs/fake-gpu-80gb/table.csv"), before.pop("runs/fake-gpu-80gb/table.csv", None)
    after.pop("runs/fake-gpu-80gb/MANIFEST.tsv"), before.pop("runs/fake-gpu-80gb/MANIFEST.tsv", None)  # the run's provenance
    assert after == before and os.listdir(fakerepo / "pi/runs") == ["fake-gpu-80gb"], "results/ or another runs/ file changed"


@pytest.mark.parametrize("rc", [0, 1])
def test_an_unknown_cuda_module_exits_2_at_once_with_one_line_nothing_built(fakerepo, fakecuda, rc):
    before = fsums(fakerepo)
    said = re.escape(f"FAILED (exit 2): cannot load module 'cuda/nosuch' (module load exit {rc}, not loaded afterwards; it said: "
                     'Lmod has detected the following error: The following module(s) are unknown: "cuda/nosuch"')
    expect(with_module(fakerepo, fakecuda, CUDA_MODULE="cuda/nosuch", FAKE_MODULE_RC=rc, CW_GPU_CHECK=1), 2,
           err=[R(said + ".*'module spider cuda'")], absent=["Lmod", R(r"^\+ (flock|make)|devinfo|nvcc:")], one_line=True)
    assert fsums(fakerepo) == before


def test_cuda_module_list_loads_in_order_where_cuda_needs_gcc_first_cuda_alone_exits_2(fakerepo, fakecuda):
    r = with_module(fakerepo, fakecuda, CUDA_MODULE="gcc/12 cuda", FAKE_CUDA_NEEDS="gcc/12", CW_GPU_CHECK=0,
                    FAKE_EXPERIMENT="fail")
    assert not lacks(r.out, R(r"^\+ module load gcc/12\n\+ module load cuda$"), f"nvcc: {fakecuda}/bin/nvcc",
                     "modules gcc/12 cuda loaded (loaded modules: gcc/12:cuda/12.2)"), r.tail()
    said = re.escape("FAILED (exit 2): cannot load module 'cuda' (module load exit 1, not loaded afterwards; it said: Lmod has "
                     "detected the following error: These module(s) or extension(s) exist but cannot be loaded as requested: "
                     '"cuda" Try: "module spider cuda" ')
    expect(with_module(fakerepo, fakecuda, CUDA_MODULE="cuda", FAKE_CUDA_NEEDS="gcc/12", CW_GPU_CHECK=1), 2,
           err=[R(said + ".*where it says a compiler must be loaded first, list it before")], one_line=True)


def test_no_nvcc_exits_2_with_one_line_nothing_built(fakerepo, tmp_path):
    expect(sh("bash", fakerepo / "slurm/pi.sbatch", CUDA_MODULE="", CUDA_PATH=tmp_path / "nocuda"), 2,
           ["CUDA_MODULE is empty: no module loaded"], [f"FAILED (exit 2): no nvcc ({tmp_path}/nocuda/bin/nvcc not found"],
           absent=[R(r"^\+ (flock|make)")], one_line=True)


def test_where_module_does_not_exist_cuda_module_is_skipped_with_a_log_line(fakerepo, fpath):
    if sh("bash", "-c", "type module").rc == 0:
        pytest.skip("this environment has a 'module' command")
    expect(sh("bash", fakerepo / "slurm/pi.sbatch", PATH=fpath, CW_SLURM_DRY_RUN=1), 0,
           ["no 'module' command here: CUDA_MODULE=cuda not loaded"])


def test_the_real_pi_job_without_a_gpu_exits_3_results_untouched_no_runs_the_kept_run_named(repo, built):
    no_gpu()
    if "pi" not in built:
        pytest.skip("pi does not build here")
    before = sums(repo / "pi", "results")
    r = sh("bash", repo / "slurm/pi.sbatch", CW_GPU_CHECK=0)
    assert r.rc == 3 and not lacks(r.out + r.err, R("CUDA error [0-9]+")), r.tail()
    assert sums(repo / "pi", "results") == before and not (repo / "pi/runs").exists()
    kept = kept_of(r.err)
    assert re.fullmatch(re.escape(f"{repo}/pi/build/runs/pi-") + ".*-failed-exit.*", kept) and os.path.isdir(kept), r.tail()


# ---------------------------------------------------------------- profile.sbatch (make profile)
def test_profile_without_ncu_exits_2_with_one_line_nothing_built_or_written(repo, tmp_path):
    before = sums(repo, "*/results", "*/runs")
    expect(sh("bash", repo / "slurm/profile.sbatch", NCU=tmp_path / "no-ncu/ncu"), 2, [R(r"^\[.*\] nvcc: ")],
           [R(r"FAILED \(exit 2\): profile: Nsight Compute \(ncu\) not found.*nothing was profiled or written$")],
           absent=[R(r"^\+ (flock|make)")], one_line=True)
    assert sums(repo, "*/results", "*/runs") == before


def test_profile_with_ncu_but_no_gpu_exits_3_with_one_line_nothing_written(repo, fakencu):
    no_gpu(repo)
    before = sums(repo, "*/results", "*/runs")
    expect(sh("bash", repo / "slurm/profile.sbatch", NCU=fakencu), 3,
           err=[R(r"FAILED \(exit 3\): profile: .*CUDA error [0-9]+.*nothing was profiled")],
           absent=[R(r"^\+ (flock|make)")], one_line=True)
    assert sums(repo, "*/results", "*/runs") == before


@pytest.fixture
def gpu_here(fakerepo):
    """The stand-in's GPU probe reports a GPU (for its staged make profile), with devinfo's device line."""
    dev = fakerepo / "common/bin/devinfo"
    dev.rename(dev.with_name("devinfo.real"))
    executable(dev, f"#!/bin/sh\necho '{DEVICE_LINE}'\nexit 0\n")
    yield
    dev.with_name("devinfo.real").replace(dev)


def test_a_report_job_logs_devinfo_s_device_line_once_its_gpu_check_passes(fakerepo, fpath, gpu_here):
    """The job log names the GPU and the code its kernels run (slurm/tests/gpu_cluster.sh checks that line)."""
    r = expect(sh("bash", fakerepo / "slurm/pi.sbatch", PATH=fpath, FAKE_EXPERIMENT="ok"), 0, [DEVICE_LINE])
    assert r.out.splitlines().count(DEVICE_LINE) == 1, r.tail()


def test_a_failing_profile_leaves_results_and_runs_names_the_kept_pi_profile_run(fakerepo, fpath, fakencu, gpu_here):
    before = fsums(fakerepo)
    r = expect(sh("bash", fakerepo / "slurm/profile.sbatch", PATH=fpath, NCU=fakencu, FAKE_EXPERIMENT="fail"), 3,
               [f"ncu: {fakencu}: Version 2025.3.0.0"],
               [last("FAILED (exit 3): profile: make profile failed: pi/runs/<gpu>/ unchanged; this run's files are kept in ")])
    assert fsums(fakerepo) == before, "pi/results/ or pi/runs/ changed"
    kept_run(fakerepo, kept_of(r.err), "pi-profile-.*-failed-exit.*", "profile.csv")


def test_a_whole_profile_writes_runs_gpu_profile_csv_only_and_says_so(fakerepo, fpath, fakencu, gpu_here):
    before = fsums(fakerepo)
    expect(sh("bash", fakerepo / "slurm/profile.sbatch", PATH=fpath, NCU=fakencu, FAKE_EXPERIMENT="ok"), 0,
           [R("report-run pi-profile: runs/fake-gpu-80gb/ updated: profile.csv$"),
            last("done: pi/runs/fake-gpu-80gb/ updated: profile.csv")])
    assert (fakerepo / "pi/runs/fake-gpu-80gb/profile.csv").read_text() == WHOLE_RUN
    after = fsums(fakerepo)
    after.pop("runs/fake-gpu-80gb/profile.csv"), before.pop("runs/fake-gpu-80gb/profile.csv", None)
    after.pop("runs/fake-gpu-80gb/MANIFEST.tsv"), before.pop("runs/fake-gpu-80gb/MANIFEST.tsv", None)  # the run's provenance
    assert after == before, "another file of pi/results/ or pi/runs/ changed"


def test_colreduce_checks_run_slurm_sizes_in_this_runs_csvs_not_results_or_older_files(fakerepo, fpath):
    run(["bash", HERE / "fake_assignment.sh", fakerepo, "colreduce"])
    block = re.search(r"^RUN_SLURM_SIZES=\((.*?)\)", (fakerepo / "slurm/colreduce.sbatch").read_text(), re.M | re.S)
    sizes = re.findall(r'"(\d+) (\d+)"', block.group(1)) if block else []
    assert len(sizes) == 8, f"colreduce.sbatch's sizes not found: {sizes}"
    rows = "assignment,m,n,ms,device\n" + "".join(f"colreduce,{m},{n},1,committed GPU\n" for m, n in sizes)
    (fakerepo / "colreduce/results/table.csv").write_text(rows)  # all eight in results/ and in an older run
    (fakerepo / "colreduce/runs/fake-gpu-80gb").mkdir(parents=True, exist_ok=True)
    (fakerepo / "colreduce/runs/fake-gpu-80gb/earlier.csv").write_text(rows.replace("committed GPU", "Fake GPU 80GB"))
    job = lambda s: sh("bash", fakerepo / "slurm/colreduce.sbatch", PATH=fpath, CW_GPU_CHECK=0, FAKE_EXPERIMENT="ok",
                       FAKE_SIZES=",".join(f"{m}x{n}" for m, n in s))
    expect(job(sizes[:-1]), 1, err=[last("FAILED (exit 1): colreduce/runs/fake-gpu-80gb/ (this run's table.csv) lacks "
                                         f"run.slurm sizes (m n): [{' '.join(sizes[-1])}]")])
    expect(job(sizes), 0, [last("all eight run.slurm sizes are in this run's CSVs in colreduce/runs/fake-gpu-80gb/")])


# ---------------------------------------------------------------- submit_all.sh without Slurm
def print_graph(repo, *args, **changes):
    """submit_all.sh --print ARGS: exit 0; the sbatch lines it would run are on stderr."""
    return expect(sh("bash", repo / "slurm/submit_all.sh", "--print", *args, **changes), 0)


def test_print_one_job_per_assignment_sweep_inside_vecmax_plots_after_all_afterany(repo):
    ids, named = "".join(f":<{a}>" for a in ASSIGNMENTS), " ".join(f"{a}:<{a}>" for a in ASSIGNMENTS)
    cmds = print_graph(repo).err
    assert not lacks(cmds, *(R(f"sbatch --parsable --output=.*/slurm/logs/%x-%j.out slurm/{a}.sbatch") for a in ASSIGNMENTS),
                     R(f"--dependency=afterany{ids} --output=.*slurm/plots.sbatch {named}$")), cmds
    assert "vecmax_sweep" not in cmds and "vecmax_gather" not in cmds, "the sweep array is submitted by default"
    assert len(re.findall("^sbatch ", cmds, re.M)) == len(ASSIGNMENTS) + 1, cmds


def test_print_sweep_array_the_array_and_its_gather_instead_of_inside_vecmax(repo):
    ids = "".join(f":<{a}>" for a in ASSIGNMENTS)
    expect(print_graph(repo, "--sweep-array"), 0, err=[
        R("--export=ALL,VECMAX_SKIP_SWEEP=1 --output=.*slurm/vecmax.sbatch"),
        R(f"--array=0-{len(configs(repo)) - 1} .*slurm/vecmax_sweep.sbatch"),
        R("--dependency=afterok:<vecmax_sweep>,afterany:<vecmax> --kill-on-invalid-dep=yes .*slurm/vecmax_gather.sbatch "
          ".*/slurm/logs/vecmax_sweep-<vecmax_sweep>"),
        R(f"--dependency=afterany{ids}:<vecmax_gather> .*slurm/plots.sbatch "
          ".*vecmax_sweep:<vecmax_sweep> vecmax_gather:<vecmax_gather>")])


def test_print_profile_adds_the_profile_job_only_on_request_plots_wait_for_it(repo):
    expect(print_graph(repo, "--profile", "pi"), 0, err=[
        R("sbatch --parsable --output=.*/slurm/logs/%x-%j.out slurm/profile.sbatch"),
        R("--dependency=afterany:<pi>:<profile> .*slurm/plots.sbatch pi:<pi> profile:<profile>")])
    assert "profile.sbatch" not in print_graph(repo, "pi").err


def test_without_plots_partition_no_plots_job_says_wait_sh_gather_without_gres_pi_cpus(repo):
    r = expect(print_graph(repo, "--sweep-array", PLOTS_PARTITION=None, SBATCH_GRES="gpu:a100:1", PI_CPUS_PER_TASK=8), 0,
               ["slurm/wait.sh"], [R(r"^# \(no GPU: the next one without the GPU settings: env -u SBATCH_GRES -u "
                                     r"SBATCH_CONSTRAINT.*\n.*slurm/vecmax_gather.sbatch"),
                                   R("^sbatch --parsable --cpus-per-task=8 .*slurm/pi.sbatch")])
    assert "plots.sbatch" not in r.err, "a plots job was submitted"


def test_make_clean_removes_the_build_locks_keeps_the_logs(repo):
    logs = repo / "slurm/logs"
    for f in (".build-common.lock", ".build-vecmax.lock", "kept-1.out"):
        (logs / f).touch()
    try:
        expect(run(["make", "--no-print-directory", "-C", repo / "slurm", "clean"]), 0)
        assert not list(logs.glob(".build-*.lock")) and (logs / "kept-1.out").exists(), os.listdir(logs)
    finally:
        (logs / "kept-1.out").unlink(missing_ok=True)


def test_check_where_slurm_cannot_be_reached_says_so_with_sinfos_message_and_stops(repo, fpath, tmp_path):
    said = "slurm_load_partitions: Unable to contact slurm controller (connect failure)"
    executable(tmp_path / "sinfo", f'#!/bin/sh\necho "{said}" >&2\nexit 1\n')
    executable(tmp_path / "sbatch", '#!/bin/sh\necho "sbatch: error: unreachable" >&2\nexit 1\n')
    r = expect(sh("bash", repo / "slurm/submit_all.sh", "--check", PATH=f"{tmp_path}:{fpath}", CUDA_MODULE=""), 1,
               [R("^FAIL  Slurm cannot be reached from .*: sinfo says: " + re.escape(said)),
                last("check: Slurm cannot be reached (above): stopped; nothing was submitted")],
               absent=["partition '", "sbatch --parsable"])
    assert len(re.findall("^FAIL", r.out, re.M)) == 1, r.tail()


def test_plots_job_renders_then_names_each_job_that_did_not_succeed(repo):
    expect(sh("bash", repo / "slurm/plots.sbatch", "pi:999999991", "scan:999999992", CW_SLURM_DRY_RUN=1), 0,
           ["missing: pi (job 999999991: ", "missing: scan (job 999999992: ", "2 of 2 jobs did not succeed",
            R("^dry run: make --no-print-directory plots")])


@pytest.mark.parametrize("args, pattern", [(["--print", "nosuch"], "unknown job 'nosuch'"),
                                           (["--bogus"], "unknown option '--bogus'")], ids=["unknown-job", "unknown-option"])
def test_submit_all_rejects(repo, args, pattern):
    usage_error(["bash", repo / "slurm/submit_all.sh", *args], pattern, env=env())


# ---------------------------------------------------------------- --check: the partition's GPUs and the toolkit
@pytest.fixture
def stub_slurm(tmp_path):
    """A sinfo answering for one partition `gpu` whose nodes have FAKE_SINFO_GRES (default gpu:v100:4) and
    FAKE_SINFO_FEATURES, an sbatch --test-only that accepts, and a CUDA 13 nvcc: PATH's first folders."""
    executable(tmp_path / "bin/sinfo", '#!/bin/sh\ncase "$*" in\n'
               '  *"%G|%f"*) echo "${FAKE_SINFO_GRES:-gpu:v100:4(S:0-1)}|${FAKE_SINFO_FEATURES:-gpu}" ;;\n'
               '  *%G*) echo "${FAKE_SINFO_GRES:-gpu:v100:4(S:0-1)}" ;;\n  *%P*) echo gpu ;;\nesac\n')
    executable(tmp_path / "bin/sbatch", '#!/bin/sh\necho "sbatch: Job 1 to start at 2026-01-01T00:00:00 in partition gpu" >&2\n')
    archs = " ".join(["75", "80", "86", "87", "88", "89", "90", "100", "103", "110", "120", "121"])
    executable(tmp_path / "cuda13/bin/nvcc", f'#!/bin/sh\ncase "$1" in --list-gpu-arch) for a in {archs}; do echo compute_$a; done ;;\n'
               '*) echo "Cuda compilation tools, release 13.0, V13.0.88" ;; esac\n')
    return f"{tmp_path}/bin:{tmp_path}/cuda13/bin:{BASE_ENV['PATH']}"


def check(repo, path, **changes):
    return sh("bash", repo / "slurm/submit_all.sh", "--check", "pi", PATH=path, CUDA_MODULE="", **changes)


def test_check_refuses_a_partition_of_gpus_the_toolkit_cannot_serve_naming_the_cuda_that_can(repo, stub_slurm):
    """A V100 partition (gres gpu:v100) with CUDA 13's nvcc: compute_75 PTX cannot run on sm_70, so no job could;
    refused before the queue, naming CUDA 12. Its node features name the GPU where GRES has no type."""
    for changes in ({}, {"FAKE_SINFO_GRES": "gpu:4", "FAKE_SINFO_FEATURES": "gpu,tesla_v100"}):
        r = expect(check(repo, stub_slurm, **changes), 1, [last("check: see the FAIL lines above; nothing was submitted")])
        fails = re.findall("^FAIL .*$", r.out, re.M)
        assert len(fails) == 1 and re.match(r"FAIL  partition 'gpu': its (tesla_)?v100 GPUs cannot run what this toolkit builds: sm_70 "
                                            r"\(compute capability 7\.0\) is older than what nvcc 13\.0 builds .*built by CUDA 12", fails[0]), r.tail()


@pytest.mark.parametrize("gres,wanted,said", [
    ("gpu:a100:4", None, r"^ok    partition 'gpu': its a100 GPUs, sm_80 \(compute capability 8\.0\): native code"),
    ("gpu:a100:4,gpu:v100:2", "gpu:a100:1", r"^ok    partition 'gpu': its a100 GPUs"),
    ("gpu:4", None, r"^      partition 'gpu': GPUs without a type in Slurm's GRES .*not checked here")], ids=["a100", "sbatch_gres_a100", "untyped"])
def test_check_passes_gpus_the_toolkit_serves_and_says_what_it_cannot_see(repo, stub_slurm, gres, wanted, said):
    r = expect(check(repo, stub_slurm, FAKE_SINFO_GRES=gres, SBATCH_GRES=wanted), 0, [R(said), last("check: all well")])
    assert "its v100" not in r.out and "FAIL" not in r.out, r.tail()


def test_check_after_an_architecture_refusal_names_the_build_not_the_module(repo, stub_slurm):
    """SMS=70 with CUDA 13: the module step and nvcc passed; the FAIL line says the build refused, not to change the module."""
    r = expect(check(repo, stub_slurm, FAKE_SINFO_GRES="gpu:a100:4", SMS="70"), 1, [R(r"^      \S*arch\.mk:[0-9]+: \*\*\* SMS='70': ")])
    fails = re.findall("^FAIL .*$", r.out, re.M)
    assert fails == ["FAIL  CUDA_MODULE empty (no module) and nvcc (" + stub_slurm.split(":")[1] + "/nvcc) are fine, but the build refuses "
                     "what it was given (above): change what that line names (SMS, or the toolkit, as it says)"], r.tail()


def test_check_with_a_module_that_cannot_be_loaded_points_to_module_spider(repo, stub_slurm, fakecuda):
    fn = MODULE_FN.replace("FAKECUDA", str(fakecuda)).replace('exec bash "$0"', 'exec bash "$0" --check pi')
    r = expect(sh("bash", "-c", fn, repo / "slurm/submit_all.sh", PATH=stub_slurm, CUDA_MODULE="cuda/nosuch",
                  FAKE_SINFO_GRES="gpu:a100:4"), 1)
    fails = re.findall("^FAIL .*$", r.out, re.M)
    assert len(fails) == 1 and fails[0].startswith("FAIL  CUDA_MODULE=cuda/nosuch cannot be loaded (above): set CUDA_MODULE to a module "
                                                   "'module spider cuda' lists (in an Lmod hierarchy"), r.tail()
