"""slurm/ on a real Slurm (tier 1, no GPU needed). cluster.sh starts a throw-away single-node cluster
(slurmctld, slurmd, munged under a temporary folder: its own munge key and socket, free ports,
proctrack/linuxproc, a GPU-less node offering gpu:1) on which the job scripts run in a copy of the
repository (slurmtest.py): a job's script really runs; without a GPU the GPU check and each built
assignment's programs fail the job with exit 3; the sweep array and its gather (afterok; a failed task
leaves the gather CANCELLED); a missing --output folder; submit_all.sh from another directory,
slurm/wait.sh, --check; scancel of a report run; profile.sbatch; real environment modules (Lmod), one
per CUDA toolkit here; the node never drains; the daemons stop by their PIDs. Then a two-node cluster
on this machine runs the sweep's array, and gpu_cluster.sh (common/scripts/gpu_session.sh's cluster
phase on a GPU machine) starts this machine's Slurm packed as files (pack_slurm.sh) without a GPU.
Needs root and Debian's slurmctld, slurmd, slurm-client and munge: else each case is skipped, with why."""
import functools
import os
import re
import shutil
import subprocess
import tempfile
import time
import types
from pathlib import Path

import pytest
from cwtest import ASSIGNMENTS, ROOT, gpu_reason, run
from slurmtest import HERE, STUB, R, configs, copy_of_slurm, env, executable, fsums, kept_of, lacks, last, sums, sweep_rows

ACTIVE = {"PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING", "SIGNALING", "STAGE_OUT"}


class Cluster:
    """`bash cluster.sh DIR NODES`: a throw-away Slurm, up until stop() ends the script's input.
    missing: why none can be started here; error: why this one did not start."""

    def __init__(self, nodes=1):
        self.dir = tempfile.mkdtemp(prefix="cwslurm.", dir="/tmp")  # short: the munge socket's path
        self.conf = dict(SLURM_CONF=f"{self.dir}/etc/slurm.conf")
        self.proc = subprocess.Popen(["bash", HERE / "cluster.sh", self.dir, str(nodes)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env(**self.conf))
        said = next((line.strip() for line in self.proc.stdout if re.match("(ready|missing:|error:)", line)), "")
        self.missing = said.partition(" ")[2] if said.startswith("missing:") else None
        self.error = None if said.startswith(("ready", "missing:")) else said or f"cluster.sh ended: exit {self.proc.wait()}"
        self.stopped = None

    def stop(self):
        """Stops the daemons (cluster.sh, by their PIDs): (True, "stopped PIDS") or (False, "left PIDS")."""
        if self.stopped is None:
            out = self.proc.communicate("", timeout=120)[0] if self.proc.poll() is None else ""
            self.stopped = (self.proc.returncode == 0, out.strip())
            shutil.rmtree(self.dir, ignore_errors=True)
        return self.stopped

    def sh(self, *cmd, cwd=None, timeout=None, **changes):
        return run(cmd, timeout, env=env(**self.conf, **changes), cwd=cwd)

    def submit(self, *args, cwd, **changes):
        """sbatch --parsable ARGS from cwd: the job id, or None (sbatch's message in self.sbatch_err)."""
        r = self.sh("sbatch", "--parsable", *args, cwd=cwd, timeout=30, **changes)
        self.sbatch_err = r.err
        return r.out.strip().split(";")[0] if r.rc == 0 else None

    def jobs(self, job):
        """scontrol's records of a job (one per array task) as dicts: jobs stay listed for MinJobAge (300 s)."""
        out = self.sh("scontrol", "-o", "show", "job", job, timeout=10).out if job else ""
        return [dict(re.findall(r"(?:^|\s)(\w+)=(\S*)", line)) for line in out.splitlines() if line.startswith("JobId=")]

    def job(self, job):
        return (self.jobs(job) or [{}])[0]

    def state(self, job):
        """"STATE EXIT", e.g. "FAILED 3:0"."""
        j = self.job(job)
        return f"{j.get('JobState')} {j.get('ExitCode')}"

    def tasks(self, job):
        """{task: "STATE EXIT"} of an array."""
        return {int(j["ArrayTaskId"]): f"{j['JobState']} {j['ExitCode']}" for j in self.jobs(job) if "ArrayTaskId" in j}

    def node_state(self):
        """IDLE when every node is idle, else the first state that is not."""
        states = re.findall(r"^\s*State=(\S+)", self.sh("scontrol", "show", "node", timeout=5).out, re.M)
        return next((s for s in states if s != "IDLE"), "IDLE" if states else "?")

    def wait(self, limit, *ids):
        """Until every job (array tasks too) has finished: False after limit seconds, or at once when the
        node is drained or down (nothing would run any more)."""
        end = time.time() + limit
        while any(j.get("JobState") in ACTIVE for i in ids for j in self.jobs(i)):
            if time.time() > end or re.search("DRAIN|DOWN|FAIL|NOT_RESPONDING", self.node_state()):
                return False
            time.sleep(0.5)
        return True

    @functools.cached_property
    def probe(self):
        """Why jobs cannot run here ("" when they can): COMPLETED is believed only with what its script wrote."""
        marker = Path(self.dir, "probe.marker")
        script = executable(Path(self.dir, "probe.sh"), f'#!/bin/bash\necho "probe ran as job $SLURM_JOB_ID" >{marker}\n')
        job = self.submit(f"--output={self.dir}/probe-%j.out", script, cwd=self.dir)
        self.wait(30, job)
        if marker.exists() and f"probe ran as job {job}" in marker.read_text():
            return ""
        if self.state(job).startswith("COMPLETED"):
            return f"job {job} COMPLETED but its script never ran (node {self.node_state()}; proctrack/cgroup without systemd?)"
        return f"job {job}: {self.state(job)} {self.job(job).get('Reason')}; node {self.node_state()} {self.sbatch_err}"


@pytest.fixture(scope="module")
def started():
    """The single-node cluster, as it started (or why not)."""
    cl = Cluster()
    yield cl
    cl.stop()


def skip_unless_started(cl):
    if cl.missing or cl.error:
        pytest.skip(cl.missing or "the test cluster did not start")


@pytest.fixture(scope="module")
def cluster(started, request):
    """The cluster where it runs jobs (else the case is skipped), with cluster.repo: the copy of the
    repository the jobs run in (slurmtest.py's, only made then)."""
    skip_unless_started(started)
    if started.probe:
        pytest.skip("the test cluster cannot run jobs: " + started.probe)
    started.repo = request.getfixturevalue("repo")
    return started


def log(repo, name):
    """A job's log in slurm/logs/ ("" when there is none)."""
    path = repo / "slurm/logs" / name
    return path.read_text(errors="replace") if path.exists() else ""


def ids_of(r):
    """{job name: id} from submit_all.sh's output."""
    return {f[0]: f[1] for f in map(str.split, r.out.splitlines()) if len(f) > 1 and f[1].isdigit()}


def test_the_test_cluster_starts_and_its_node_is_idle(started):
    if started.missing:
        pytest.skip(started.missing)
    assert not started.error


def test_a_jobs_script_really_runs_not_reported_completed_without_running(started):
    skip_unless_started(started)
    assert not started.probe


# ---------------------------------------------------------------- jobs submitted together, checked one by one
@pytest.fixture(scope="module")
def batch(cluster, tmp_path_factory, request):
    """Without a GPU: the GPU check's job alone first, then each built assignment's job with CW_GPU_CHECK=0
    (its own programs fail) and two tasks of the sweep with the real vecmax. Then the sweep with the
    stand-in program (every configuration, then the gather: afterok), a failing array (configuration 2
    exits 3) whose gather is submitted with sbatch --wait, and the plots job from a bare folder (no
    slurm/logs/ there for its --output). All at once (one GPU-less node), then checked case by case."""
    repo, built, b = cluster.repo, request.getfixturevalue("built"), types.SimpleNamespace(check=None, gpu_jobs={})
    b.tmp, logs, cfg = tmp_path_factory.mktemp("batch"), repo / "slurm/logs", configs(repo)
    if gpu_reason():
        b.before = sums(repo / "pi", "results", "runs")
        b.check = cluster.submit("slurm/pi.sbatch", cwd=repo)
        cluster.wait(60, b.check)
        b.after = sums(repo / "pi", "results", "runs")
        b.gpu_jobs = {a: cluster.submit(f"slurm/{a}.sbatch", cwd=repo, CW_GPU_CHECK=0) for a in sorted(built)}
        if "vecmax" in built:
            b.gpu_jobs["vecmax_sweep"] = cluster.submit("--array=0-1", "slurm/vecmax_sweep.sbatch", cwd=repo, CW_GPU_CHECK=0)
    shutil.rmtree(repo / "vecmax/runs", ignore_errors=True)
    b.committed = sums(repo / "vecmax", "results")
    b.arr = cluster.submit(f"--array=0-{len(cfg) - 1}", "slurm/vecmax_sweep.sbatch", cwd=repo, VECMAX_BIN=STUB, CW_GPU_CHECK=0)
    b.gather = cluster.submit(f"--dependency=afterok:{b.arr}", "--kill-on-invalid-dep=yes", "slurm/vecmax_gather.sbatch",
                              f"{logs}/vecmax_sweep-{b.arr}", cwd=repo)
    b.fail_csv = b.tmp / "slurm-sweep-fail.csv"
    b.farr = cluster.submit("--array=0-5", "slurm/vecmax_sweep.sbatch", cwd=repo, VECMAX_BIN=STUB,
                            FAKE_VECMAX_FAIL=" ".join(cfg[2]), CW_GPU_CHECK=0)
    waiting = subprocess.Popen(["timeout", "240", "sbatch", "--wait", "--parsable", f"--dependency=afterok:{b.farr}",
                                "--kill-on-invalid-dep=yes", "slurm/vecmax_gather.sbatch", f"{logs}/vecmax_sweep-{b.farr}"],
                               cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=env(**cluster.conf, VECMAX_SWEEP_CSV=b.fail_csv))
    (b.tmp / "bare").mkdir()
    b.bare = cluster.submit(repo / "slurm/plots.sbatch", cwd=b.tmp / "bare", CW_SLURM_DRY_RUN=1)
    cluster.wait(240, *filter(None, [b.check, *b.gpu_jobs.values(), b.arr, b.gather, b.farr, b.bare]))
    time.sleep(1)
    try:  # sbatch --wait polls slurmctld every few seconds: 15 s to say what it thinks
        out, b.wait_status = waiting.communicate(timeout=15)[0], f"exited {waiting.returncode}"
    except subprocess.TimeoutExpired:
        waiting.terminate()  # timeout passes it on to sbatch
        out, b.wait_status = waiting.communicate()[0], "still waiting"
    b.fgather = (re.findall("^[0-9]+", out, re.M) or [None])[0]
    return b


def test_the_gpu_check_fails_the_job_without_a_gpu_exit_3_cuda_message(cluster, batch):
    if not batch.check:
        pytest.skip("a GPU is present")
    text = log(cluster.repo, f"pi-{batch.check}.out")
    assert cluster.state(batch.check) == "FAILED 3:0", text[-500:]
    assert not lacks(text, R("CUDA error [0-9]+"), "nothing was run") and "report-run" not in text, text[-500:]
    assert batch.before == batch.after, "pi/results/ or pi/runs/ changed"


def test_each_built_assignments_job_on_the_gpu_less_node_fails_exit_3_cuda_message(cluster, batch):
    if not batch.check or not batch.gpu_jobs:
        pytest.skip("a GPU is present" if not batch.check else "no assignment is built yet (only placeholders)")
    for a, job in batch.gpu_jobs.items():
        if a == "vecmax_sweep":
            assert cluster.tasks(job) == {0: "FAILED 3:0", 1: "FAILED 3:0"}, f"vecmax_sweep tasks: {cluster.tasks(job)}"
            assert not lacks(log(cluster.repo, f"vecmax_sweep-{job}_1.out"), R("CUDA error [0-9]+")), "no CUDA error: task 1"
            continue
        text = log(cluster.repo, f"{a}-{job}.out")
        assert cluster.state(job) == "FAILED 3:0", f"{a}: {cluster.state(job)}\n{text[-500:]}"
        assert not lacks(text, R("CUDA error [0-9]+")) and "Result = PASS" not in text, f"{a}: no CUDA error message, or a PASS"


def test_the_sweep_array_runs_one_task_per_configuration_with_its_parameters(cluster, batch):
    cfg, logs = configs(cluster.repo), cluster.repo / "slurm/logs"
    assert cluster.tasks(batch.arr) == {i: "COMPLETED 0:0" for i in range(len(cfg))}, cluster.tasks(batch.arr)
    for i, (t, b) in enumerate(cfg):
        missing = lacks(log(cluster.repo, f"vecmax_sweep-{batch.arr}_{i}.out"), R(f"task {i}: threads={t} blocks={b}$"),
                        f"--threads={t} --blocks={b} --csv={logs}/vecmax_sweep-{batch.arr}/task-{i:03d}.csv")
        assert not missing, f"task {i}'s log lacks {missing}"


def test_the_gather_runs_after_every_task_and_writes_the_combined_csv_into_runs_gpu(cluster, batch):
    n = len(configs(cluster.repo))
    assert cluster.state(batch.gather).startswith("COMPLETED"), f"{cluster.state(batch.gather)} {cluster.job(batch.gather)}"
    assert sweep_rows(cluster.repo / "vecmax/runs/fake-device/sweep.csv") == configs(cluster.repo)
    text = log(cluster.repo, f"vecmax_gather-{batch.gather}.out")
    assert f"combined {n} rows from {n} tasks into vecmax/runs/fake-device/sweep.csv" in text, text
    assert sums(cluster.repo / "vecmax", "results") == batch.committed, "vecmax/results/ changed"


def test_a_failed_task_keeps_the_gather_from_running_cancelled_not_left_pending(cluster, batch):
    assert batch.fgather, "the gather was not submitted"
    assert cluster.tasks(batch.farr).get(2) == "FAILED 3:0", cluster.tasks(batch.farr)
    state, reason = cluster.job(batch.fgather).get("JobState"), cluster.job(batch.fgather).get("Reason")
    assert state != "PENDING", (f"gather left PENDING ({reason}): kill_invalid_depend not in effect (Slurm 22.05 reads it from "
                                "DependencyParameters, not SchedulerParameters) and no --kill-on-invalid-dep")
    assert state == "CANCELLED", f"gather {batch.fgather}: {state} {reason}; sbatch --wait {batch.wait_status}, not believed"
    assert not log(cluster.repo, f"vecmax_gather-{batch.fgather}.out") and not batch.fail_csv.exists(), "the gather ran"


def test_a_missing_output_folder_is_caught_as_a_failure_0_53_not_success(cluster, batch):
    assert cluster.state(batch.bare) == "FAILED 0:53", cluster.job(batch.bare).get("Reason")
    assert not (batch.tmp / "bare/slurm").exists()


# ---------------------------------------------------------------- submit_all.sh, wait.sh, --check
@pytest.fixture(scope="module")
def submission(cluster, tmp_path_factory):
    """submit_all.sh --sweep-array --profile from another directory, every job a dry run (no GPU needed),
    the sweep with the list's first four configurations (the whole array ran above); waited for."""
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "four.txt").write_text("".join(f"{t} {b}\n" for t, b in configs(cluster.repo)[:4]))
    r = cluster.sh("bash", cluster.repo / "slurm/submit_all.sh", "--sweep-array", "--profile", cwd=elsewhere, CW_SLURM_DRY_RUN=1,
                   VECMAX_SWEEP_CONFIGS=elsewhere / "four.txt")
    return r, ids_of(r), r.rc == 0 and cluster.wait(240, *ids_of(r).values())


def test_submit_all_from_another_directory_every_job_array_gather_profile_and_plots_complete(cluster, submission):
    (r, ids, done), (t, b) = submission, configs(cluster.repo)[0]
    assert r.rc == 0 and set(ids) >= {*ASSIGNMENTS, "profile", "vecmax_sweep", "vecmax_gather", "plots"}, r.tail()
    assert done, "still running after 240 s"
    for j, job in ids.items():
        if j == "vecmax_sweep":
            assert list(cluster.tasks(job).values()) == ["COMPLETED 0:0"] * 4, cluster.tasks(job)
            text = log(cluster.repo, f"vecmax_sweep-{job}_0.out")
            assert not lacks(text, R(f"^dry run: vecmax/bin/vecmax --threads={t} --blocks={b} ")), text
        else:
            assert cluster.state(job).startswith("COMPLETED"), f"{j}: {cluster.state(job)} {cluster.job(job).get('Reason')}"
            assert log(cluster.repo, f"{j}-{job}.out"), f"no log slurm/logs/{j}-{job}.out"
    plots = log(cluster.repo, f"plots-{ids['plots']}.out")
    assert not lacks(plots, R("^dry run: make --no-print-directory plots"), "every job it waited for succeeded"), plots
    assert not lacks(log(cluster.repo, f"profile-{ids['profile']}.out"), R("^dry run: make --no-print-directory profile"))


def test_wait_sh_waits_for_the_last_submission_says_each_succeeded_and_what_is_next(cluster, submission):
    r = cluster.sh("bash", cluster.repo / "slurm/wait.sh", cwd=cluster.repo, WAIT_POLL=1)
    said = ["every job has ended: ", "every job it waited for succeeded", "next: make plots"]
    assert r.rc == 0 and not lacks(r.out, *said), r.tail()
    assert len(log(cluster.repo, "last-submission.txt").splitlines()) >= 8


def highest_job(cluster):
    jobs = cluster.sh("scontrol", "-o", "show", "jobs", timeout=10).out
    return max(map(int, re.findall(r"^JobId=([0-9]+)", jobs, re.M)), default=0)


def test_check_names_nvcc_the_gpus_every_job_accepted_a_wrong_partition_fails_nothing_submitted(cluster, fpath, fakecuda):
    def check(*args, **changes):
        return cluster.sh("bash", cluster.repo / "slurm/submit_all.sh", "--check", *args, cwd=cluster.repo, PATH=fpath,
                          CUDA_MODULE="", **changes)
    before = highest_job(cluster)  # ids only grow: a higher one would be a submitted job
    r = check()
    missing = lacks(r.out, f"nvcc: {fakecuda}/bin/nvcc: Cuda compilation tools, release 12.2",
                    R("^ok    partition 'gpu' exists, GRES: .*gpu"),
                    *(R(f"^ok    {a}: Slurm would accept it") for a in [*ASSIGNMENTS, "plots"]),
                    R("^sbatch --parsable --output=.*slurm/pi.sbatch"))
    assert r.rc == 0 and not missing, f"lacks {missing}\n" + r.tail()
    r = check(SBATCH_PARTITION="nosuch")
    assert r.rc == 1 and not lacks(r.out, R("^FAIL  partition 'nosuch' not found; partitions here: gpu")), r.tail()
    # SBATCH_GRES overrides the scripts' --gres=gpu:1 (two GPUs: more than the node has), not the plots job's.
    r = check("pi", SBATCH_GRES="gpu:2")
    assert r.rc == 1 and not lacks(r.out, R("^FAIL  pi: Slurm would refuse it"), R("^ok    plots: Slurm would accept")), r.tail()
    assert highest_job(cluster) == before, "a job was submitted"


# ---------------------------------------------------------------- scancel, profile.sbatch
def test_scancel_of_a_running_report_job_cancelled_results_runs_untouched_the_kept_run_named(cluster, fakerepo, fpath, tmp_path):
    before, started = fsums(fakerepo), tmp_path / "started"
    job = cluster.submit("slurm/pi.sbatch", cwd=fakerepo, PATH=fpath, CW_GPU_CHECK=0, FAKE_EXPERIMENT_STARTED=started)
    assert job, cluster.sbatch_err
    end = time.time() + 60
    while not started.exists() and time.time() < end:
        time.sleep(0.2)
    cluster.sh("scancel", job, timeout=10)
    assert started.exists(), f"job {job}: the experiment never started ({cluster.state(job)})"
    assert cluster.wait(60, job) and cluster.job(job).get("JobState") == "CANCELLED", f"after scancel: {cluster.state(job)}"
    text = log(fakerepo, f"pi-{job}.out")
    assert fsums(fakerepo) == before, "pi/results/ or pi/runs/ changed"
    assert "FAILED (exit 143): pi: interrupted by SIGTERM (scancel, the time limit or Ctrl-C): pi/runs/<gpu>/ unchanged" in text
    kept = kept_of(text)
    assert re.fullmatch(re.escape(f"{fakerepo}/pi/build/runs/pi-") + ".*-interrupted-SIGTERM", kept), text
    assert os.path.getsize(f"{kept}/table.csv")


def test_profile_on_the_gpu_less_node_fails_2_without_ncu_3_with_one_one_line_each_nothing_written(cluster, fakencu, tmp_path):
    repo, before = cluster.repo, sums(cluster.repo, "*/results", "*/runs")
    job = cluster.submit("slurm/profile.sbatch", cwd=repo, NCU=tmp_path / "no-ncu/ncu")
    job3 = cluster.submit("slurm/profile.sbatch", cwd=repo, NCU=fakencu) if gpu_reason() else None  # (not where a GPU is)
    assert cluster.wait(120, job, job3), "still running after 120 s"
    expected = {job: ("FAILED 2:0", last("FAILED (exit 2): profile: Nsight Compute (ncu) not found")),
                job3: ("FAILED 3:0", R(r"FAILED \(exit 3\): profile: .*CUDA error [0-9]+.*\n?\Z"))}
    for j, (state, said) in expected.items():
        if j:
            text = log(repo, f"profile-{j}.out")
            assert cluster.state(j) == state and text.count("FAILED") == 1 and not lacks(text, said), text[-500:]
    assert sums(repo, "*/results", "*/runs") == before, "a results/ or runs/ file changed"


# ---------------------------------------------------------------- real environment modules (Lmod)
# A Lua modulefile for every CUDA toolkit here (named after the release its nvcc reports) in a
# MODULEPATH of the test's own, the oldest marked default (.version: a `module load cuda` that
# ignored the mark would get the newest). The jobs get no `module` function and no Lmod setup
# from the test: lib.sh finds the init. Each is profile.sbatch with NCU pointing at nothing: it
# loads the module, names nvcc, builds the GPU probe with it and stops at the ncu check (exit 2).
LMOD = "/usr/share/lmod/lmod"
EXTRA = [r.rstrip("/") or "/" for r in os.environ.get("CW_EXTRA_CUDA_ROOTS", "").split()]  # CI: /opt/cw-cuda12
ROOTS = ["/usr/lib/nvidia-cuda-toolkit", "/usr/local/cuda", "/opt/cw-cuda12"]


def toolkits():
    """{cuda/RELEASE: root} of every toolkit here, oldest first (the first root of a release wins), and
    what is wrong with each root CW_EXTRA_CUDA_ROOTS names that has no working nvcc."""
    found, broken = {}, []
    for root in ROOTS + EXTRA:
        nvcc = f"{root}/bin/nvcc"
        rel = re.search(r"release ([0-9][0-9.]*),", run([nvcc, "--version"], 60).out) if os.access(nvcc, os.X_OK) else None
        if rel:
            found.setdefault(f"cuda/{rel.group(1)}", root)
        elif root in EXTRA:
            broken.append(f"{nvcc} {'reports no release' if os.path.exists(nvcc) else 'is not there'}")
    return dict(sorted(found.items(), key=lambda kv: [int(x) for x in kv[0][5:].split(".")])), broken


TOOLKITS, BROKEN = toolkits()


@pytest.fixture(scope="module")
def modulefiles(cluster, tmp_path_factory):
    if not os.access(f"{LMOD}/init/bash", os.R_OK):
        pytest.skip("Lmod is not installed (apt-get install lmod)")
    d = tmp_path_factory.mktemp("modulefiles")
    (d / "cuda").mkdir()
    for name, root in TOOLKITS.items():
        # Debian's nvcc needs /usr/bin (ptxas, fatbinary, nvlink) before any other toolkit's bin/ on PATH;
        # a toolkit with lib64/ (cuBLAS for colreduce) puts it on LD_LIBRARY_PATH, as a cluster's module does.
        (d / f"{name}.lua").write_text(
            f'-- written by slurm/tests/test_cluster.py\nwhatis("CUDA {name[5:]} ({root})")\nfamily("cuda")\n'
            + ('prepend_path("PATH", "/usr/bin")\n' if root == "/usr/lib/nvidia-cuda-toolkit" else "")
            + f'prepend_path("PATH", "{root}/bin")\n'
            + (f'prepend_path("LD_LIBRARY_PATH", "{root}/lib64")\n' if os.path.isdir(f"{root}/lib64") else "")
            + f'setenv("CUDA_HOME", "{root}")\n')
    (d / "cuda/.version").write_text(f'#%Module\nset ModulesVersion "{next(iter(TOOLKITS))[5:]}"\n')
    return d


def lmod_job(cluster, modulefiles, tmp_path, **changes):
    """profile.sbatch with the test's MODULEPATH and no ncu, finished: its id and its log."""
    changes = {"CW_MODULE_INIT": None, "CUDA_MODULE": None, "LMOD_PKG": None, "MODULEPATH": modulefiles,
               "NCU": tmp_path / "no-ncu", **changes}
    job = cluster.submit("slurm/profile.sbatch", cwd=cluster.repo, **changes)
    assert job and cluster.wait(120, job), f"job {job or 'not submitted'} did not finish"
    return job, log(cluster.repo, f"profile-{job}.out")


def lmod_check(cluster, job, text, name, init=None, seen=None):
    """The job loaded module `name`, named its toolkit's nvcc, built with it (the build stamp), stopped at the ncu check."""
    root, rel = TOOLKITS[name], name[5:]
    missing = lacks(text, f"no 'module' function in this batch shell: sourced {init or '/'}",
                    f"module {seen or name} loaded (loaded modules: {name})",
                    f"nvcc: {root}/bin/nvcc: Cuda compilation tools, release {rel},",
                    last("FAILED (exit 2): profile: Nsight Compute (ncu) not found"))
    assert cluster.state(job) == "FAILED 2:0" and not missing, f"{cluster.state(job)}; the log lacks {missing}\n" + text[-500:]
    stamp = (cluster.repo / "common/build/build-config.stamp").read_text()
    assert not lacks(stamp, R(f"^{re.escape(root)}/bin/nvcc Build cuda_{re.escape(rel)}")), f"the build stamp: {stamp[:80]}"


@pytest.mark.parametrize("name", list(TOOLKITS) or [pytest.param(None, marks=pytest.mark.skip(reason=f"no nvcc in {ROOTS + EXTRA}"))])
def test_lmod_cuda_module_loads_in_the_batch_shell_names_its_nvcc_builds_with_it(cluster, modulefiles, tmp_path, name):
    # The oldest first, as from a login shell with Lmod (LMOD_PKG set); the others with no Lmod variable at all.
    first = name == next(iter(TOOLKITS))
    job, text = lmod_job(cluster, modulefiles, tmp_path, CUDA_MODULE=name, **({"LMOD_PKG": LMOD} if first else {}))
    lmod_check(cluster, job, text, name, init=f"{LMOD}/init/bash" if first else None)


def test_lmod_no_cuda_module_loads_the_module_marked_default(cluster, modulefiles, tmp_path):
    if not TOOLKITS:
        pytest.skip("no CUDA toolkit here")
    job, text = lmod_job(cluster, modulefiles, tmp_path)
    lmod_check(cluster, job, text, next(iter(TOOLKITS)), seen="cuda")


def test_lmod_a_module_that_does_not_exist_fails_2_at_once_one_line_nothing_built(cluster, modulefiles, tmp_path):
    stamp = cluster.repo / "common/build/build-config.stamp"
    before = stamp.stat().st_mtime if stamp.exists() else None
    job, text = lmod_job(cluster, modulefiles, tmp_path, CUDA_MODULE="cuda/0.0")
    assert cluster.state(job) == "FAILED 2:0" and text.count("FAILED") == 1, text[-500:]
    assert not lacks(text, last("FAILED (exit 2): cannot load module 'cuda/0.0'")), text[-500:]
    assert lacks(text, "nvcc: ") and lacks(text, R(r"^\+ (flock|make)")), "nvcc named or something built\n" + text[-500:]
    assert (stamp.stat().st_mtime if stamp.exists() else None) == before, "the build stamp changed"


# What each CUDA major release builds and does not (nvcc --list-gpu-arch), as README.md, slurm/README.md
# and common/scripts/select_arch.sh's table of toolkits say it: CUDA 12 dropped sm_35, CUDA 13 sm_50 to sm_72.
BUILDS = {11: ({"35", "52", "70", "90"}, set()), 12: ({"52", "60", "70", "90"}, {"35"}), 13: ({"75", "90"}, {"52", "60", "70"})}


@pytest.mark.parametrize("major", [11, 12, 13])
def test_lmod_a_toolkit_of_each_cuda_major_release_is_here_and_builds_what_the_readmes_say(major):
    """A toolkit of each major release: required where CW_EXTRA_CUDA_ROOTS is set (CI installs all three),
    else skipped when missing; each one found lists the architectures the READMEs say it builds, not those
    they say it dropped."""
    how = {11: "Debian bookworm's is apt-get install nvidia-cuda-toolkit",
           12: "bash common/scripts/cuda12_prefix.sh /opt/cw-cuda12 makes one from Debian trixie's packages",
           13: "NVIDIA's CUDA 13 installs in /usr/local/cuda"}[major]
    found = {name: root for name, root in TOOLKITS.items() if name.startswith(f"cuda/{major}.")}
    if not found:
        missing = f"no CUDA {major}.x toolkit here (looked in {' '.join(ROOTS + EXTRA)}, CW_EXTRA_CUDA_ROOTS included); {how}"
        if EXTRA:
            pytest.fail(missing + " (CW_EXTRA_CUDA_ROOTS is set: CI installs a toolkit of each major release)")
        pytest.skip(missing)
    builds, dropped = BUILDS[major]
    for name, root in found.items():
        listed = set(re.findall(r"^compute_([0-9]+)$", run([f"{root}/bin/nvcc", "--list-gpu-arch"], 60).out, re.M))
        assert listed, f"{root}/bin/nvcc --list-gpu-arch lists nothing"
        assert builds <= listed and not dropped & listed, f"{name} ({root}) lists {sorted(listed, key=int)}: not {sorted(builds - listed)}, " \
                                                          f"or also {sorted(dropped & listed)}"


def test_lmod_every_toolkit_cw_extra_cuda_roots_names_has_a_working_nvcc():
    if not EXTRA:
        pytest.skip("CW_EXTRA_CUDA_ROOTS is not set")
    assert not BROKEN, BROKEN


# ---------------------------------------------------------------- the end of the single-node cluster
def test_the_node_is_still_up_not_drained_after_every_job(started):
    skip_unless_started(started)
    assert started.node_state() == "IDLE", started.sh("scontrol", "show", "node", timeout=5).out


def test_the_daemons_are_stopped_by_their_pids_none_left(started):
    if started.missing:
        pytest.skip(started.missing)
    stopped, said = started.stop()
    assert stopped, said


# ---------------------------------------------------------------- two nodes, the carried pack
def test_two_node_sweep_every_task_log_names_its_node_both_nodes_take_tasks_the_gather_combines_every_part(tmp_path):
    """submit_all.sh --no-plots vecmax_sweep from another directory on two slurmd of this machine (cw-node1,
    cw-node2, one GPU-less gpu:1 each), sharing the file system as a cluster's nodes do; the stand-in
    vecmax takes a second per configuration, so that both nodes take tasks."""
    r = copy_of_slurm(tmp_path / "repo")  # and vecmax as far as the sweep needs it: its list (six), a Makefile
    (r / "vecmax/results").mkdir(parents=True)
    (r / "vecmax/Makefile").write_text("all:\n\t@:\nifeq (0,1)\ninclude ../common/assignment.mk\nendif\n")
    cfg = [(t, "4") for t in "32 64 128 256 512 1024".split()]  # the report's first six where vecmax/ has no list yet
    cfg = configs(ROOT)[:6] if (ROOT / "vecmax/sweep_configs.txt").exists() else cfg
    (r / "vecmax/sweep_configs.txt").write_text("".join(f"{t} {b}\n" for t, b in cfg))
    (r / "vecmax/results/sweep.csv").write_text("assignment,device\nvecmax,committed GPU\n")
    (tmp_path / "elsewhere").mkdir()
    cl = Cluster(2)
    try:
        if cl.missing:
            pytest.skip(cl.missing)
        assert not cl.error, f"the two-node test cluster did not start: {cl.error}"
        s = cl.sh("bash", r / "slurm/submit_all.sh", "--no-plots", "vecmax_sweep", cwd=tmp_path / "elsewhere", VECMAX_BIN=STUB,
                  FAKE_VECMAX_SLEEP=1, CW_GPU_CHECK=0, CUDA_MODULE="")
        arr, gather = ids_of(s).get("vecmax_sweep"), ids_of(s).get("vecmax_gather")
        assert s.rc == 0 and arr and gather, s.tail()
        assert cl.wait(120, arr, gather), "jobs still active after 120 s"
        assert cl.tasks(arr) == {i: "COMPLETED 0:0" for i in range(len(cfg))}, cl.tasks(arr)
        nodes = {}
        for i in range(len(cfg)):
            text = log(r, f"vecmax_sweep-{arr}_{i}.out")
            line = re.search(f"array task {i} of array job {arr}, name \\S* on (\\S*) \\(host ", text)
            nodes[i] = (line.group(1) if line else None, cl.job(f"{arr}_{i}").get("BatchHost"))
        assert all(ran == host for ran, host in nodes.values()), f"each task's node (its log's line, Slurm's BatchHost): {nodes}"
        assert {ran for ran, _ in nodes.values()} == {"cw-node1", "cw-node2"}, f"not both nodes took tasks: {nodes}"
        assert cl.state(gather).startswith("COMPLETED"), cl.state(gather)
        assert sweep_rows(r / "vecmax/runs/fake-device/sweep.csv") == cfg
        text = log(r, f"vecmax_gather-{gather}.out")
        assert f"combined {len(cfg)} rows from {len(cfg)} tasks into vecmax/runs/fake-device/sweep.csv" in text, text
        assert (r / "vecmax/results/sweep.csv").read_text() == "assignment,device\nvecmax,committed GPU\n", "results/ changed"
        assert cl.node_state() == "IDLE", f"a node is {cl.node_state()} afterwards"
    finally:
        stopped, said = cl.stop()
    assert stopped, said


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    """Debian's Slurm and munge as files (pack_slurm.sh), as carried to a GPU machine that has no Slurm."""
    d = tmp_path_factory.mktemp("pack") / "pack"
    r = run(["bash", HERE / "pack_slurm.sh", d], 300)
    if r.rc == 2 and "is not installed" in r.err:
        pytest.skip(r.err.strip())
    assert r.rc == 0, r.tail()
    return d


@pytest.mark.parametrize("nodes", [1, 2])
def test_gpu_cluster_sh_starts_the_pack_and_runs_submit_all_as_dry_runs_without_a_gpu(pack, tmp_path, nodes):
    """gpu_cluster.sh (gpu_session.sh's cluster phase) as far as a machine without a GPU takes it
    (CW_CLUSTER_NO_GPU=1): the pack's daemons, a trivial job, submit_all.sh as dry runs in a copy of
    the checkout (two nodes: the sweep's array over both), every job's state, every daemon stopped."""
    if os.geteuid():
        pytest.skip("starting slurmd needs root")
    r = run(["bash", HERE / "gpu_cluster.sh", pack], 300,
            env=env(CW_CLUSTER_NO_GPU=1, CW_CLUSTER_NODES=nodes, CW_CLUSTER_RECORD=tmp_path / "record.txt"))
    assert r.rc == 0 and not lacks(r.out, *(["PASS both nodes took tasks"] if nodes == 2 else [])), r.tail(20)
    assert lacks(r.out, R("^(FAIL|CANNOT RUN)")), r.tail(20)
