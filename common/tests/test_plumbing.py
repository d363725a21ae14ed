"""The test and build plumbing: cwtest's verdicts on stand-in programs (a helper that cannot fail
would let every GPU case pass), common/scripts/pytest.sh, `make test-gpu` and `make report`
without a GPU, and what `make -n` may do."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import cwtest
from cwtest import ASSIGNMENTS, ROOT, fault_case, gpu_case, run


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """fake(lines, rc): a stand-in program printing lines and exiting rc; the GPU check answers yes
    and the versions it passes go to a log of the test's own."""
    monkeypatch.setattr(cwtest, "gpu_reason", lambda: None)
    monkeypatch.setenv("CW_VERSION_LOG", str(tmp_path / "versions.log"))

    def make(lines, rc=0, name="fake", touch=None):
        script = tmp_path / name
        script.write_text("#!/bin/sh\ncat <<'EOF'\n" + "\n".join(lines) + "\nEOF\n" + (f"touch {touch}\n" if touch else "") + f"exit {rc}\n")
        script.chmod(0o755)
        return script
    return make


def outcome(check, ok, *args):
    """check(*args) passes where ok, else fails (an AssertionError)."""
    if ok:
        return check(*args)
    with pytest.raises(AssertionError):
        check(*args)


PLAN2 = "planned: 2 runs"
PASS = "fake version=a n=5: Result = PASS"
DEMO = "fake version=d n=5: demonstration, not validated"
FAIL = "fake version=b n=5: Result = FAIL"


@pytest.mark.parametrize("lines,rc,ok", [
    pytest.param([PLAN2, PASS, PASS.replace("=a", "=b")], 0, True, id="every_planned_run_passed"),
    pytest.param([PLAN2, PASS, DEMO], 0, True, id="a_demonstration_accounts_for_its_run"),
    pytest.param([PLAN2, PASS], 0, False, id="a_version_dropped_out"),
    pytest.param([PASS], 0, False, id="no_planned_line"),
    pytest.param(["planned: 1 runs", DEMO], 0, False, id="demonstrations_only"),
    pytest.param([PLAN2, PASS, PASS, FAIL], 0, False, id="a_FAIL_printed"),
    pytest.param([PLAN2, PASS, PASS], 1, False, id="non_zero_exit")])
def test_gpu_case_accounts_for_every_planned_run(fake, lines, rc, ok):
    outcome(gpu_case, ok, [fake(lines, rc)])


def test_gpu_case_adds_the_plans_of_every_run(fake):
    """A loop of three runs: three plans of 2, six PASS lines; one run short fails."""
    one = fake([PLAN2, PASS, PASS])
    gpu_case(["sh", "-c", f"for i in 1 2 3; do {one}; done"])
    outcome(gpu_case, False, ["sh", "-c", f"{one}; {fake([PLAN2, PASS], name='short')}; {one}"])


@pytest.mark.parametrize("lines,rc,ok", [
    pytest.param([PLAN2, FAIL, FAIL], 1, True, id="every_run_failed"),
    pytest.param([PLAN2, FAIL], 1, False, id="one_FAIL_of_two_planned"),
    pytest.param([PLAN2, FAIL, FAIL], 0, False, id="exit_0"),
    pytest.param([PLAN2, FAIL, FAIL, PASS], 1, False, id="a_PASS_printed"),
    pytest.param([FAIL, FAIL], 1, False, id="no_planned_line")])
def test_fault_case_needs_every_run_failed_and_no_file(fake, tmp_path, lines, rc, ok):
    outcome(fault_case, ok, [fake(lines, rc)], tmp_path / "out.csv", tmp_path / "out.bin")


def test_fault_case_fails_a_file_left_behind(fake, tmp_path):
    with pytest.raises(AssertionError, match="left behind"):
        fault_case([fake([PLAN2, FAIL, FAIL], 1, touch=tmp_path / "out.csv")], tmp_path / "out.csv", tmp_path / "out.bin")


def test_every_version_ran_fails_a_version_without_a_case(fake, monkeypatch):
    """gpu_case logs the versions it saw pass or demonstrate (version_ran those of another kind of
    case), with the test file that ran them;
    every_version_ran compares this module's with the registry (another module's lines do not
    count), and skips when only part of the module was selected or xdist may split it."""
    gpu_case([fake([PLAN2, PASS, DEMO])])
    cwtest.version_ran([("fake", "e")])  # a case that checks something else than a PASS line
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "other/tests/test_other.py::test_x (call)")
    gpu_case([fake([PLAN2, PASS, PASS.replace("version=a", "version=c")])])  # c, but in another module
    module = "common/tests/test_plumbing.py"
    monkeypatch.setitem(cwtest.COLLECTED, module, {"a", "b"})
    monkeypatch.setitem(cwtest.SELECTED, module, {"a", "b"})
    request = SimpleNamespace(node=SimpleNamespace(path=ROOT / module, nodeid=module + "::test_every_version_ran_a_case"),
                              config=SimpleNamespace(rootpath=ROOT))
    registry = lambda *labels: lambda name: tuple(  # noqa: E731
        cwtest.Version(v, True, False, True, False, frozenset(), "") for v in labels)
    monkeypatch.setattr(cwtest, "versions", registry("a", "d"))
    cwtest.every_version_ran("fake", request)
    monkeypatch.setattr(cwtest, "versions", registry("a", "d", "e"))  # e: logged by version_ran
    cwtest.every_version_ran("fake", request)
    monkeypatch.setattr(cwtest, "versions", registry("a", "d", "c"))
    with pytest.raises(AssertionError, match=r"\['c'\]"):
        cwtest.every_version_ran("fake", request)
    monkeypatch.setattr(cwtest, "DIST", "load")
    with pytest.raises(pytest.skip.Exception):
        cwtest.every_version_ran("fake", request)
    monkeypatch.setattr(cwtest, "DIST", "loadfile")
    monkeypatch.setitem(cwtest.SELECTED, module, {"a"})
    with pytest.raises(pytest.skip.Exception):
        cwtest.every_version_ran("fake", request)


def test_closing_check_sees_what_its_module_holds_and_what_was_selected(request):
    """conftest.py's hooks fill COLLECTED and SELECTED under the key the closing check looks up
    (a key that differs, say a relative path against an absolute one, skips every closing check)."""
    held, selected = cwtest.selection(request)
    assert held and request.node.nodeid in held, (request.node.nodeid, sorted(cwtest.COLLECTED)[:5])
    assert selected and request.node.nodeid in selected and selected <= held


@pytest.mark.parametrize("phase", ["tests", "legacy", "legacy_compiles"])
@pytest.mark.parametrize("jobs", ["1", "3"])
def test_gpu_session_one_line_per_folder_in_order(tmp_path, jobs, phase):
    """gpu_session.sh's tests and legacy phases in a stand-in tree (make, nvcc, nvidia-smi, devinfo
    and pytest.sh stand-ins, the legacy phase's pack made of that tree; pytest.sh logs when each
    folder starts and ends, the first folder being the slowest): a line per folder in the folders'
    order and their sum, whether the folders run one after another (CW_FOLDER_JOBS=1: none
    overlaps) or at once (CW_FOLDER_JOBS=3: the others start before the slow one ends). In the
    legacy phase `nvcc --version` answers the pack's toolkit and is no compile; a compile is
    refused and fails the rebuild check (legacy_compiles)."""
    if phase == "legacy_compiles":
        (tmp_path / "compile").touch()
    tree, stubs, pack = tmp_path / "tree", tmp_path / "stubs", tmp_path / "pack"
    for d in ["common/scripts", "common/bin", "common/tests", "a/tests", "b/tests", "c/tests"]:
        (tree / d).mkdir(parents=True)
    stubs.mkdir()
    shutil.copy2(ROOT / "common/scripts/gpu_session.sh", tree / "common/scripts")
    scripts = {
        tree / "common/scripts/assignments.sh": "echo a b c",
        tree / "common/scripts/pytest.sh":  # "$@" ends with the folder's tests
            f'f=${{@: -1}}; f=${{f%/tests}}; echo "start $f $(date +%s.%N)" >>{tmp_path}/times\n'
            f'case $f in a) sleep 2;; *) sleep 0.2;; esac; echo "end $f $(date +%s.%N)" >>{tmp_path}/times\n'
            f'echo "$(nvcc --version | tail -n 1)" >>{tmp_path}/versions\n'  # as scan's Makefile asks it
            f'[ ! -e {tmp_path}/compile ] || nvcc -c x.cu\n'
            'echo "=== 2 passed, 1 skipped in 0.1s ==="',
        tree / "common/bin/devinfo": "echo 'Device 0: stand-in'",
        stubs / "make": "exit 0", stubs / "nvcc": "echo 'Build cuda_stand-in'", stubs / "nvidia-smi": "exit 0"}
    for path, body in scripts.items():
        path.write_text("#!/usr/bin/env bash\n" + body + "\n")
        path.chmod(0o755)
    pack.mkdir()
    subprocess.run(["tar", "-C", tree, "-czf", pack / "tree.tar.gz", "."], check=True)
    (pack / "MANIFEST.sha256").write_text(subprocess.run(["sha256sum", "common/bin/devinfo"], cwd=tree,
                                                         capture_output=True, text=True, check=True).stdout)
    (pack / "BUILD_INFO.txt").write_text("toolkit: Build cuda_11.8.r11.8/compiler.0 (stand-in)\n")
    env = dict(os.environ, PATH=f"{stubs}:{os.environ['PATH']}", OUT=str(tmp_path / "out"),
               CW_FOLDER_JOBS=jobs, CW_LEGACY_PACK=str(pack))
    r = run(["bash", tree / "common/scripts/gpu_session.sh", phase.split("_")[0]], 60, env=env)
    assert r.rc == 0, r.tail()
    summary = (tmp_path / "out/summary.txt").read_text()
    versions = set((tmp_path / "versions").read_text().splitlines())
    assert versions == ({"Build cuda_stand-in"} if phase == "tests" else {
        "Cuda compilation tools, release 11.8 (the legacy pack's toolkit)"}), versions
    if phase == "legacy_compiles":
        record = (tmp_path / "out/legacy_record.txt").read_text()
        assert "rebuild check: FAILED: a compiler was called 4 time(s)" in record, record
        return
    word = {"tests": "test-gpu", "legacy": "legacy"}[phase]
    assert re.findall(rf"^{word} (\w+): 2 passed, 1 skipped", summary, re.M) == ["common", "a", "b", "c"], summary
    total = "8 passed, 0 failed, 4 skipped, 0 errors"
    assert (f"GPU tier: {total}" if phase == "tests" else f"legacy total: {total} (record") in summary, summary
    if phase == "legacy":
        record = (tmp_path / "out/legacy_record.txt").read_text()
        assert re.findall(r"^(\w+): 2 passed, 1 skipped", record, re.M) == ["common", "a", "b", "c"], record
        assert "rebuild check: ok" in record, record
    times = {(w, f): float(t) for w, f, t in (line.split() for line in (tmp_path / "times").read_text().splitlines())}
    started_during_a = [f for f in "bc" if times["start", f] < times["end", "a"]]  # a runs before b and c
    assert started_during_a == ([] if jobs == "1" else ["b", "c"]), times


@pytest.mark.parametrize("jobs", ["auto", "0", "-1", "2x"])
def test_gpu_session_refuses_a_folder_count_that_is_not_a_whole_number(tmp_path, jobs):
    r = run(["bash", ROOT / "common/scripts/gpu_session.sh", "tests"], 30,
            env=dict(os.environ, CW_FOLDER_JOBS=jobs, OUT=str(tmp_path / "out")))
    assert r.rc == 2 and len(r.err.splitlines()) == 1 and "CW_FOLDER_JOBS" in r.err, r.tail()
    assert not (tmp_path / "out").exists()


def test_pytest_script_runs_pytest():
    r = run(["bash", ROOT / "common/scripts/pytest.sh", "--version"], 60)
    assert r.rc == 0 and "pytest" in r.out + r.err, r.tail()


def copy_tree(dst, *paths, skip=()):
    """A copy of the repository's paths (mtimes kept, so a built tree stays built), leaving out the
    paths in skip (relative to the root)."""
    for p in paths:
        src = ROOT / p
        if src.is_dir():
            shutil.copytree(src, dst / p, symlinks=True,
                            ignore=lambda d, names: [n for n in names if str(Path(d, n).relative_to(ROOT)) in skip])
        else:
            shutil.copy2(src, dst / p)
    return dst


@pytest.mark.parametrize("where", ["top", "assignment"])
def test_make_test_gpu_without_gpu_one_line_and_non_zero_exit(tmp_path, where):
    """In a copy of the top Makefile, common/ (built) and an assignment, at the top and in the
    assignment's folder: one line and a non-zero exit before anything is built or tested."""
    if not (ROOT / "common/bin/devinfo").exists():
        pytest.skip("common/bin/devinfo is not built (make)")
    if cwtest.gpu_reason() is None:
        pytest.skip("a GPU is present")
    copy = copy_tree(tmp_path, "Makefile", "pytest.ini", "conftest.py", "common", ASSIGNMENTS[0])
    r = run(["make", "-C", copy if where == "top" else copy / ASSIGNMENTS[0], "test-gpu"], 600)
    lines = [line for line in r.err.splitlines() if not line.startswith("make") or "*** " not in line]
    assert r.rc != 0 and len(lines) == 1, r.tail()
    assert re.match(r"make test-gpu: nothing was tested: no usable CUDA GPU.*CUDA error [0-9]", lines[0]), r.tail()
    assert not [line for line in r.out.splitlines() if "directory" not in line], r.tail()  # nothing built or run


@pytest.fixture(scope="module")
def clean_clone(tmp_path_factory):
    """The top Makefile, common/ and the first assignment without build outputs (a fresh clone)."""
    one = ASSIGNMENTS[0]
    skip = ("common/build", "common/bin", f"{one}/build", f"{one}/bin")
    return copy_tree(tmp_path_factory.mktemp("clone"), "Makefile", "common", one, skip=skip), one


def test_make_n_profile_on_a_clean_clone_runs_nothing(clean_clone):
    clone, one = clean_clone
    r = run(["make", "-C", clone / one, "-n", "profile"], 120)
    assert r.rc == 0 and not (clone / one / "build/runs").exists() and "staging in" not in r.out + r.err, r.tail()


def test_make_n_in_a_built_tree_lists_no_compile():
    """make -n lists only what would run: common's devinfo, just brought up to date, needs nothing."""
    run(["make", "-C", ROOT / "common", "--no-print-directory", "bin/devinfo"], 600)
    r = run(["make", "-C", ROOT / "common", "--no-print-directory", "-n", "bin/devinfo"], 60)
    compiles = [line for line in r.out.splitlines() if "/nvcc " in line or "-c -o " in line]
    assert r.rc == 0 and not compiles, r.tail()


def test_make_report_without_gpu_says_so_first_nothing_built_or_staged(clean_clone):
    clone, one = clean_clone
    gpus = subprocess.run("nvidia-smi -L", shell=True, capture_output=True, text=True).stdout
    if gpus.startswith("GPU"):
        pytest.skip("a GPU is present (nvidia-smi -L)")
    r = run(["make", "-C", clone, "--no-print-directory", "report"], 120)
    assert r.rc != 0 and re.search("no usable CUDA GPU.*make plots", r.err.split("\n")[0]), r.tail()
    assert not r.out.strip() and not (clone / one / "bin").exists() and not (clone / one / "build/runs").exists(), r.tail()


# ---- make and make test use the machine's cores; each ends with one true line ----

STUB_ASSIGNMENT = """# stand-in: `all` sleeps a second between two lines of a shared log (ordered by time)
all:
\t@echo "start $(notdir $(CURDIR))" >>../jobs.log; sleep 1; echo "end $(notdir $(CURDIR))" >>../jobs.log
unit-tests:
\t@:
ifeq (0,1)
include ../common/assignment.mk
endif
"""


@pytest.fixture
def stub_top(tmp_path):
    """The top Makefile and common/ (unbuilt) with two stand-in assignments whose `all` takes a second."""
    copy = copy_tree(tmp_path, "Makefile", "common", skip=("common/build", "common/bin"))
    for i, a in enumerate(("one", "two")):
        (copy / a).mkdir()
        (copy / a / "Makefile").write_text(STUB_ASSIGNMENT)
        (copy / a / "README.md").write_text(f"# {a}, report 00{i}\n")
    (copy / "common/Makefile").write_text("all:\n\t@:\nunit-tests:\n\t@:\nclean:\n\t@:\n")
    return copy


@pytest.mark.parametrize("jobs", [[], ["-j1"]])
def test_make_uses_every_core_unless_j_is_given_and_ends_with_one_line(stub_top, jobs):
    """`make` runs the folders side by side (-j$(nproc)) unless -j is given; its last line names the programs."""
    if os.cpu_count() < 2 and not jobs:
        pytest.skip("one core: nothing to run side by side")
    r = run(["make", "--no-print-directory", *jobs, "all"], 120, cwd=stub_top)
    events = [line.split() for line in (stub_top / "jobs.log").read_text().splitlines()]
    overlapped = [e[0] for e in events[:2]] == ["start", "start"]
    assert r.rc == 0 and overlapped == (not jobs), f"{events}\n" + r.tail()
    assert r.out.splitlines()[-1] == ("make: built and up to date: common/bin/devinfo one/bin/one two/bin/two; next: make test "
                                      "(no GPU needed), make report (a GPU)"), r.tail()


@pytest.mark.parametrize("jobs,want", [(None, "auto"), ("1", None), ("3", "3")])
def test_pytest_script_runs_on_every_core_where_xdist_is_and_no_gpu(tmp_path, jobs, want):
    """common/scripts/pytest.sh: -n auto --dist loadfile by default where pytest-xdist is installed and no
    GPU is usable (GPU cases run one at a time); CW_TEST_JOBS=1 one at a time, =N N workers."""
    executable = tmp_path / "python3"
    executable.write_text('#!/bin/sh\n[ "$1" = -c ] && exit 0\necho "$@"\n')  # has pytest and xdist; prints its arguments
    executable.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    env.pop("CW_TEST_JOBS", None)
    if jobs:
        env["CW_TEST_JOBS"] = jobs
    if want == "auto" and cwtest.gpu_reason() is None:
        want = None  # a usable GPU: one test at a time
    r = run(["bash", ROOT / "common/scripts/pytest.sh", "-k", "x"], 60, env=env)
    assert r.rc == 0 and r.out.strip() == " ".join(["-m", "pytest", *(["-n", want, "--dist", "loadfile"] if want else []), "-k", "x"]), r.tail()


def test_make_plots_without_gnuplot_one_line_naming_the_package(stub_top, tmp_path):
    """No gnuplot on PATH: one line naming gnuplot-nox, exit 1, nothing rendered."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for d in os.environ["PATH"].split(":"):
        for f in (Path(d).iterdir() if Path(d).is_dir() else []):
            if not f.name.startswith("gnuplot") and not (bin_dir / f.name).exists():
                (bin_dir / f.name).symlink_to(f)
    r = run(["make", "--no-print-directory", "plots"], 60, cwd=stub_top, env={**os.environ, "PATH": str(bin_dir)})
    assert r.rc == 2 and not r.out and len(r.err.splitlines()) == 1, r.tail()
    assert re.match(r"Makefile:[0-9]+: \*\*\* make plots: gnuplot is not installed: apt-get install gnuplot-nox", r.err), r.tail()


# pytest_collect_file's arguments in each pytest (its hookspec): pytest 6 (the python3-pytest of
# Ubuntu 22.04 and RHEL 9, a python3 that is not Debian's) has no file_path, pytest 8 no path;
# pluggy refuses a conftest hook that declares an argument its version lacks, and no test runs.
COLLECT_FILE_SPEC = {"6.2.5": {"path", "parent"}, "7.2.1": {"file_path", "path", "parent"}, "8.3.3": {"file_path", "parent"}}


@pytest.mark.parametrize("version", COLLECT_FILE_SPEC)
def test_conftest_hooks_take_only_arguments_the_running_pytest_has(tmp_path, version):
    """`python3 -m pytest slurm/tests` with any python3 that has pytest: the top conftest.py loaded under a
    stand-in pytest of each version declares pytest_collect_file with arguments of that version only."""
    (tmp_path / "pytest.py").write_text(f'__version__ = "{version}"\nclass File: pass\nclass Item: pass\n'
                                        "def skip(*a, **k): pass\n")
    code = ("import inspect, sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import conftest; "
            "print(' '.join(inspect.signature(conftest.pytest_collect_file).parameters))")
    r = run([sys.executable, "-c", code, tmp_path, ROOT], 60)
    assert r.rc == 0 and r.out.split() and set(r.out.split()) <= COLLECT_FILE_SPEC[version], r.tail()
