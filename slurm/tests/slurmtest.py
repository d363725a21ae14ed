"""What slurm/tests' modules share: the environment the jobs run in, copies of the repository
they run in (never the checkout: a job writes <assignment>/runs/<gpu>/), and stand-ins for vecmax,
nvcc and ncu. conftest.py makes the fixtures below visible to test_cli.py and test_cluster.py."""
import hashlib
import os
import re
import shutil
from pathlib import Path

import pytest
from cwtest import ASSIGNMENTS, ROOT, program, run

HERE = ROOT / "slurm" / "tests"
STUB = HERE / "fake_vecmax.sh"  # stands in for vecmax/bin/vecmax (no GPU)
# The jobs run as on a machine without environment modules, whether or not this one has them
# (CW_MODULE_INIT= : lib.sh sources no modules init; no inherited `module` function or Lmod
# state); the plots job is submitted only with a partition of its own (PLOTS_PARTITION).
DROP = {"BASH_ENV", "LMOD_PKG", "MODULESHOME", "MODULEPATH", "LOADEDMODULES", "_LMFILES_", "SBATCH_GRES",
        "SBATCH_CONSTRAINT", "PI_CPUS_PER_TASK", "GNUPLOT_MODULE"}
# Every job finds an NVIDIA device file (CW_GPU_DEVICE_FILES=/dev/null), so that its checks after that
# first one run where no GPU is (a case about a login node sets a file that is not there).
BASE_ENV = {k: v for k, v in os.environ.items() if k not in DROP and not k.startswith("BASH_FUNC_")}
BASE_ENV.update(CW_MODULE_INIT="", PLOTS_PARTITION="gpu", CW_GPU_DEVICE_FILES="/dev/null")


def env(**changes):
    """The jobs' environment with changes (None removes a variable)."""
    e = dict(BASE_ENV)
    for k, v in changes.items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = str(v)
    return e


def sh(*cmd, cwd=None, timeout=None, **changes):
    """run(cmd) in env(**changes)."""
    return run(cmd, timeout, env=env(**changes), cwd=cwd)


def R(pattern):
    """A regular expression (re.M) among the strings that lacks() and expect() look for (the others are
    looked for as they are)."""
    return re.compile(pattern, re.M)


def last(line):
    """Matches where the last line of a text has line in it."""
    return R(re.escape(line) + r".*\n?\Z")


def lacks(text, *wants):
    """Those of wants (strings, or R() expressions) that text does not have."""
    return [w for w in wants if not (w.search(text) if isinstance(w, re.Pattern) else w in text)]


def expect(r, rc, out=(), err=(), absent=(), one_line=False):
    """Run r exited rc; its stdout has every one of out, its stderr every one of err, its stdout none of
    absent; one_line: its stderr is one line."""
    assert r.rc == rc, f"exit {r.rc}, expected {rc}\n" + r.tail()
    missing = lacks(r.out, *out) + lacks(r.err, *err)
    assert not missing, f"not in its output: {missing}\n" + r.tail()
    present = [w for w in absent if not lacks(r.out, w)]
    assert not present, f"in its output: {present}\n" + r.tail()
    assert not one_line or len(r.err.splitlines()) == 1, "stderr is not one line\n" + r.tail()
    return r


def sums(folder, *subdirs):
    """{file: md5} of every file under folder/SUBDIR for each SUBDIR (a glob), as a results/ or runs/
    that must stay byte for byte."""
    return {str(p.relative_to(folder)): hashlib.md5(p.read_bytes()).hexdigest()
            for sub in subdirs for d in Path(folder).glob(sub) for p in d.rglob("*") if p.is_file()}


def configs(repo):
    """The sweep's configurations [(threads, blocks)] from the copy's vecmax/sweep_configs.txt."""
    rows = [line.split("#")[0].split() for line in (repo / "vecmax/sweep_configs.txt").read_text().splitlines()]
    return [tuple(r[:2]) for r in rows if r]


def sweep_rows(csv):
    """The (threads, blocks) of a sweep.csv's rows (its header once)."""
    rows = csv.read_text().splitlines()
    assert rows[0].startswith("assignment,") and not any(x.startswith("assignment,") for x in rows[1:]), rows
    return [tuple(x.split(",")[4:6]) for x in rows[1:]]


def kept_of(text, pattern=r"this run.s files are kept in (.*)$"):
    """The folder a failed or interrupted job's last such line names ("" when none)."""
    found = re.findall(pattern, text, re.M)
    return found[-1] if found else ""


def executable(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def copy_of_slurm(dest):
    """dest/ with slurm/ (no job logs), common/ and the top Makefile of the checkout."""
    dest.mkdir(parents=True, exist_ok=True)
    run(["cp", "-a", ROOT / "slurm", ROOT / "common", ROOT / "Makefile", dest])
    for p in (dest / "slurm/logs").iterdir():
        if p.name != ".gitignore":
            shutil.rmtree(p) if p.is_dir() else p.unlink()
    return dest


PLACEHOLDER = "all:\n\t@echo placeholder for {0}\nreport-run:\n\t@echo placeholder report-run; exit 3\nplots:\n\t@:\n" \
              "ifeq (0,1)\ninclude ../common/assignment.mk\nendif\n"  # (the include keeps it in assignments.sh's list)


@pytest.fixture(scope="session")
def built():
    """The assignments that build here (built first, as a job would), and common/bin/devinfo."""
    run(["make", "--no-print-directory", "-s", "-C", ROOT / "common", "bin/devinfo"], 900)
    return {a for a in ASSIGNMENTS if (ROOT / a / "Makefile").exists()
            and run(["make", "--no-print-directory", "-s", "-C", ROOT / a], 900).rc == 0 and program(a).exists()}


@pytest.fixture(scope="session")
def repo(tmp_path_factory, built):
    """A copy of the repository: every assignment that builds here (with its programs), a placeholder
    Makefile for the others, and the sweep's list (the report's 30 configurations where vecmax/ has none)."""
    dest = copy_of_slurm(tmp_path_factory.mktemp("repo"))
    for a in ASSIGNMENTS:
        if a in built:
            run(["cp", "-a", ROOT / a, dest])
            continue
        (dest / a / "results").mkdir(parents=True)
        (dest / a / "Makefile").write_text(PLACEHOLDER.format(a))
        for f in ("README.md", "sweep_configs.txt"):
            if (ROOT / a / f).exists():
                shutil.copy(ROOT / a / f, dest / a / f)
        (dest / a / "results/placeholder.csv").write_text("placeholder,1\n")
    if not (dest / "vecmax/sweep_configs.txt").exists():
        (dest / "vecmax/sweep_configs.txt").write_text(
            "".join(f"{t} {b}\n" for b in (4, 16, 32, 64, 128) for t in (32, 64, 128, 256, 512, 1024)))
    return dest


@pytest.fixture(scope="session")
def fakecuda(tmp_path_factory):
    """A folder with a stand-in nvcc (release 12.2) in bin/, so that nothing depends on this machine's toolkit."""
    d = tmp_path_factory.mktemp("fakecuda")
    executable(d / "bin/nvcc", '#!/bin/sh\ncase "$1" in --list-gpu-arch) printf "compute_52\\ncompute_90\\n" ;; *) '
               'echo "nvcc: NVIDIA (R) Cuda compiler driver"; echo "Cuda compilation tools, release 12.2, V12.2.140" ;; esac\n')
    return d


@pytest.fixture(scope="session")
def fpath(fakecuda):
    """PATH with the stand-in nvcc first."""
    return f"{fakecuda}/bin:{BASE_ENV['PATH']}"


@pytest.fixture(scope="session")
def fakencu(tmp_path_factory):
    """A stand-in ncu: its --version only (the check needs it to exist; the stand-in's profile never calls it)."""
    return executable(tmp_path_factory.mktemp("fakencu") / "ncu", '#!/bin/sh\ncase "$1" in --version)\n'
                      '  echo "NVIDIA (R) Nsight Compute Command Line Profiler"\n'
                      '  echo "Version 2025.3.0.0 (build 0) (public-release)" ;;\n'
                      '*) echo "stand-in ncu" >&2; exit 1 ;;\nesac\n')


@pytest.fixture(scope="session")
def fakerepo(tmp_path_factory):
    """A second copy whose pi/ is a stand-in (fake_assignment.sh: the assignments' own staged report-run,
    an experiment that writes a partial CSV, device "Fake GPU 80GB", and then succeeds, fails or sleeps),
    with an earlier run's file in its run folder pi/runs/fake-gpu-80gb/."""
    dest = copy_of_slurm(tmp_path_factory.mktemp("fakerepo"))
    run(["bash", HERE / "fake_assignment.sh", dest, "pi"])
    (dest / "pi/runs/fake-gpu-80gb").mkdir(parents=True)
    (dest / "pi/runs/fake-gpu-80gb/earlier.csv").write_text("assignment,device\npi,Fake GPU 80GB\n")
    return dest


def fsums(fakerepo):
    """The stand-in pi's results/ and runs/."""
    return sums(fakerepo / "pi", "results", "runs")
