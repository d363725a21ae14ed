"""What the tests of every folder share (pytest; conftest.py puts this module on the path).

A program is run with run() and judged by the helpers below, each one assert with the command
and the last lines of its output in the message:
  gpu_case(cmd)          a GPU run: exit 0, every planned run accounted for ("planned: N runs" =
                         PASS lines + demonstration lines), no FAIL; skipped without a GPU
  fault_case(cmd, ...)   a run with --inject-fault: every planned run FAILs, exit 1, no file left
  sanitize(tool, cmd)    compute-sanitizer TOOL finds nothing
  usage_error(cmd, re)   exit 2, one line on stderr matching re, no result
The versions come from the program itself (versions(): its --list-versions), never from a list
in a test; every_version_ran() closes a GPU module and fails when a listed version ran no case.
"""
import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ASSIGNMENTS = subprocess.run(["bash", str(ROOT / "common/scripts/assignments.sh")], capture_output=True,
                             text=True, cwd=ROOT).stdout.split()
# The assignments the shared tests (common/tests) run their per-assignment cases for: every one, or
# CW_ASSIGNMENT's alone (an assignment's `make test` runs the shared tests about it).
UNDER_TEST = [a for a in ASSIGNMENTS if os.environ.get("CW_ASSIGNMENT") in (None, "", a)]
COLLECTED: dict = {}  # a module's node id -> the node ids it holds / that were selected (conftest.py)
SELECTED: dict = {}
DIST = "no"  # pytest-xdist's --dist: the closing checks need a module's tests in one worker
TIMEOUT = int(os.environ.get("CW_CASE_TIMEOUT", "300"))


def program(name):
    """The built program of an assignment: NAME/bin/NAME."""
    return ROOT / name / "bin" / name


@dataclass
class Run:
    cmd: list
    rc: int
    out: str
    err: str

    def tail(self, lines=8):
        shown = "\n".join((self.out + self.err).splitlines()[-lines:])
        return f"$ {' '.join(map(str, self.cmd))}\nexit {self.rc}; last lines:\n{shown}"


def run(cmd, timeout=None, **kwargs):
    """Runs cmd (a list; its items str()-ed), capturing text output; a command still running after
    `timeout` seconds (CW_CASE_TIMEOUT, 300) is killed and gets rc 124, like timeout(1)."""
    cmd = [str(c) for c in cmd]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                           timeout=timeout or TIMEOUT, **kwargs)
        return Run(cmd, p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return Run(cmd, 124, out, f"killed after {timeout or TIMEOUT} s")


def make_print(folder, var):
    """A variable of a folder's Makefile (`make -s print-VAR`), e.g. VARY_ARGS."""
    return run(["make", "--no-print-directory", "-s", "-C", ROOT / folder, f"print-{var}"]).out.strip()


@functools.lru_cache(maxsize=None)
def gpu_reason():
    """None where a CUDA GPU is usable (common/bin/devinfo --check), else why not."""
    devinfo = ROOT / "common/bin/devinfo"
    if not devinfo.exists():
        return "common/bin/devinfo is not built (make)"
    r = run([devinfo, "--check"], timeout=60)
    return None if r.rc == 0 else "no usable CUDA device: " + (r.err.strip().splitlines() or ["?"])[0]


def need_gpu():
    if gpu_reason():
        pytest.skip(gpu_reason())


def need_built(path):
    if not Path(path).exists():
        pytest.skip(f"{Path(path).relative_to(ROOT)} is not built (make)")


def need_nvcc():
    """Skips a test that builds code where nothing may be built (CW_NO_BUILD: gpu_session.sh's legacy
    phase runs a prebuilt pack and refuses every compile) or no nvcc is found."""
    if os.environ.get("CW_NO_BUILD"):
        pytest.skip("CW_NO_BUILD is set: this run builds nothing (the legacy pack's binaries)")
    if not (shutil.which(os.environ.get("NVCC", "nvcc")) or Path(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin/nvcc").exists()):
        pytest.skip("nvcc not found: the example cannot be built")


@dataclass(frozen=True)
class Version:
    label: str
    validated: bool
    baseline: bool
    default: bool
    host: bool
    tags: frozenset
    kernels: str  # ncu --kernel-name regex, "" for every kernel


@functools.lru_cache(maxsize=None)
def versions(name):
    """The registry of program `name`, from its --list-versions (empty where it is not built)."""
    if not program(name).exists():
        return ()
    r = run([program(name), "--list-versions"], timeout=30)
    assert r.rc == 0, r.tail()
    out = []
    for line in r.out.splitlines():
        label, kind, role, default, where, tags, kernels = line.split()
        out.append(Version(label, kind == "validated", role == "baseline", default == "default", where == "host",
                           frozenset() if tags == "-" else frozenset(tags.split(",")), "" if kernels == "-" else kernels))
    return tuple(out)


def labels(name, where=lambda v: True):
    return [v.label for v in versions(name) if where(v)]


def only(name, where=lambda v: True):
    """--only=LIST of the versions of `name` for which where(version) holds."""
    return "--only=" + ",".join(labels(name, where))


def version_params(name, where=lambda v: True):
    """pytest.mark.parametrize values: the labels of `name`'s versions for which where() holds; one
    skipped parameter where the program is not built. A built program with no such version is an
    error at collection (a tag spelled wrong would otherwise drop its cases without a word)."""
    found = labels(name, where)
    if found:
        return found
    if versions(name):
        raise ValueError(f"{name}: no version of --list-versions matches this test's selection")
    return [pytest.param(None, marks=pytest.mark.skip(reason=f"{name}/bin/{name} is not built (make)"))]


RESULT = re.compile(r"^(\S+) version=(\S+?)[\s:].*(?:Result = PASS|: demonstration, not validated)$", re.M)


def version_ran(pairs):
    """Logs (program, label) pairs as having run a case of the current test's module, for
    every_version_ran: "test file, program, label" per line (the closing check of a module counts
    its own lines only). gpu_case logs the versions it saw pass; a case that checks something else
    (a version that must stop cleanly where its library is a stand-in) logs its own."""
    path, test = os.environ.get("CW_VERSION_LOG"), os.environ.get("PYTEST_CURRENT_TEST", "").split("::")[0]
    if path:
        with open(path, "a") as f:
            f.writelines(f"{test} {prog} {label}\n" for prog, label in pairs)


def _log_versions(r):  # every version that passed or ran as a demonstration
    version_ran(RESULT.findall(r.out))


def gpu_case(cmd, timeout=None, **kwargs):
    """A GPU run that must exit 0, print "planned: N runs" and account for every planned run: as many
    "Result = PASS" plus demonstration lines as runs planned (summed over several runs of a shell
    loop), at least one PASS, no FAIL. A version that silently drops out is caught, not only one that
    fails. The versions that passed are logged for every_version_ran(). Skipped without a GPU."""
    need_gpu()
    r = run(cmd, timeout, **kwargs)
    planned = sum(int(n) for n in re.findall(r"^planned: (\d+) runs$", r.out, re.M))
    passed = r.out.count("Result = PASS")
    demos = len(re.findall(r": demonstration, not validated$", r.out, re.M))
    assert r.rc == 0, r.tail()
    assert "Result = FAIL" not in r.out, "a version failed\n" + r.tail()
    assert planned, "no 'planned: N runs' line\n" + r.tail()
    assert passed >= 1 and passed + demos == planned, f"{passed} PASS + {demos} demonstrations, {planned} planned\n" + r.tail()
    _log_versions(r)
    return r


def fault_case(cmd, csv, output, timeout=None):
    """A run with --inject-fault that writes --csv=csv and --output=output must FAIL every planned
    run: exit 1, one FAIL line per planned run, no PASS, and neither file left behind."""
    need_gpu()
    for f in (csv, output):
        Path(f).unlink(missing_ok=True)
    r = run(cmd, timeout)
    planned = re.search(r"^planned: (\d+) runs$", r.out, re.M)
    assert r.rc == 1 and planned, r.tail()
    assert r.out.count("Result = FAIL") == int(planned.group(1)) and "Result = PASS" not in r.out, r.tail()
    assert not Path(csv).exists() and not Path(output).exists(), "a file was left behind\n" + r.tail()
    return r


def sanitizer():
    """compute-sanitizer on the PATH, else in CUDA_PATH (/usr/local/cuda), else None."""
    cs = Path(os.environ.get("CUDA_PATH", "/usr/local/cuda")) / "bin/compute-sanitizer"
    return shutil.which("compute-sanitizer") or (str(cs) if cs.exists() else None)


def sanitize(tool, cmd, timeout=None):
    """compute-sanitizer --tool TOOL: the program passes and the tool reports nothing."""
    need_gpu()
    cs = sanitizer()
    if not cs:
        pytest.skip("compute-sanitizer not found")
    r = run([cs, "--tool", tool, "--error-exitcode", "99", *cmd], timeout)
    assert r.rc == 0, f"exit {r.rc} under {tool}\n" + r.tail()
    assert re.search(r"ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards", r.out), r.tail()
    assert not re.search(r"(ERROR|RACECHECK) SUMMARY: [1-9]", r.out), f"{tool} reported errors\n" + r.tail()
    _log_versions(r)
    return r


def usage_error(cmd, pattern, timeout=None, **kwargs):
    """Bad usage or input: exit 2, exactly one line on stderr matching pattern, no result printed."""
    r = run(cmd, timeout, **kwargs)
    assert r.rc == 2, r.tail()
    assert len(r.err.splitlines()) == 1, f"stderr has {len(r.err.splitlines())} lines, expected one\n" + r.tail()
    assert re.search(pattern, r.err), f"stderr {r.err!r} does not match /{pattern}/"
    assert "Result = " not in r.out, "a result was printed for bad input"
    return r


def help_text(name):
    """The program's --help (exit 0)."""
    r = run([program(name), "--help"], 30)
    assert r.rc == 0, r.tail()
    return r.out


def reuse_builds(dest, folders):
    """A copy of the repository gets the checkout's build outputs (build/ and bin/ of each folder,
    times kept), so that a make in the copy rebuilds only what its own changes touch (an example
    version: its kernels and registry, not the library baselines), as it would in the checkout."""
    for f in folders:
        for part in ("build", "bin"):
            if (ROOT / f / part).is_dir() and not (Path(dest) / f / part).exists():
                shutil.copytree(ROOT / f / part, Path(dest) / f / part, symlinks=True)


def built_warning_free(r):
    """A make run that succeeded and whose compilers printed no warning (the checkout's own build
    configuration, whatever WERROR says: warnings of the units it rebuilt are caught here)."""
    warnings = [line for line in (r.out + r.err).splitlines() if re.search(r"\bwarning\b", line, re.I)]
    assert r.rc == 0 and not warnings, (warnings[:10], r.tail(30))


def scratch(folder, files):
    """Bad-input fixtures in `folder`: each {name: bytes} of `files` written, and a FIFO named fifo."""
    for name, data in files.items():
        (Path(folder) / name).write_bytes(data)
    os.mkfifo(Path(folder) / "fifo")
    return Path(folder)


def usage_case(cmd, args, pattern, **names):
    """usage_error for one row of a table of bad command lines: {names} filled into ARGS (then split
    into words) and into PATTERN (escaped as regular expressions); 10 s, as a FIFO must not block."""
    return usage_error([*cmd, *args.format(**names).split()],
                       pattern.format(**{k: re.escape(str(v)) for k, v in names.items()}), timeout=10)


def snapshot(folder):
    return sorted((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in Path(folder).rglob("*"))


def refusal(cmd, pattern, watch):
    """usage_error within 10 s that creates or changes no file in the folder `watch`."""
    before = snapshot(watch)
    r = usage_error(cmd, pattern, timeout=10)
    assert snapshot(watch) == before, f"files changed in {watch}: {sorted(os.listdir(watch))}"
    return r


def figure(script, csv, png):
    """`gnuplot -c script csv png` exits 0, draws a non-empty png and prints no warning or error."""
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot not installed")
    r = run(["gnuplot", "-c", script, csv, png], 120)
    assert r.rc == 0 and Path(png).stat().st_size > 0, r.tail()
    assert not re.search(r"warning|error", r.out + r.err, re.I), r.tail()


def module_id(nodeid):
    """The node id of a test's module ("scan/tests/test_gpu.py"): the key of COLLECTED and SELECTED."""
    return nodeid.split("::")[0]


def selection(request):
    """The node ids the requesting test's module holds, and those of them selected for this run."""
    key = module_id(request.node.nodeid)
    return COLLECTED.get(key), SELECTED.get(key)


def every_version_ran(name, request):
    """Closes a GPU module: every version `name` lists ran in some case of this module (a PASS or a
    demonstration line, logged by gpu_case and sanitize). conftest.py runs it after the module's
    other tests; skipped when only part of the module was selected (-k, a test id), or where
    pytest-xdist may spread the module over workers (--dist other than loadfile)."""
    need_gpu()
    path = str(request.node.path)
    held, selected = selection(request)
    if selected != held:
        pytest.skip(f"only part of {Path(path).name} was selected")
    if DIST not in ("no", "loadfile"):
        pytest.skip(f"--dist={DIST} may run this module's tests in several workers (use --dist loadfile)")
    module = str(Path(path).relative_to(request.config.rootpath))
    with open(os.environ["CW_VERSION_LOG"]) as f:
        seen = {tuple(line.split()[1:]) for line in f if line.split()[0] == module}
    missing = [v.label for v in versions(name) if (name, v.label) not in seen]
    assert not missing, f"{name}: versions listed by --list-versions that ran no case of {module}: {missing}"


class GoogleTestFile(pytest.File):
    """A folder's tests/*_test.cpp as pytest sees it: one item per GoogleTest case of the folder's
    build/unit_tests whose suite the file defines (conftest.py collects these files)."""

    def collect(self):
        binary = self.path.parent.parent / "build/unit_tests"
        if not binary.exists():
            yield GoogleTestCase.from_parent(self, name="unit_tests", binary=binary, case=None)
            return
        defined = lambda f: set(re.findall(r"^\s*(?:TYPED_TEST(?:_P)?|TEST(?:_F|_P)?)\(\s*(\w+)\s*,", f.read_text(), re.M))
        sources = sorted(self.path.parent.glob("*_test.cpp"))
        mine, everyone = defined(self.path), set().union(*map(defined, sources))
        suite = None
        for line in run([binary, "--gtest_list_tests"], 60).out.splitlines():
            if not line.startswith(" "):
                suite = line.split()[0]
                continue
            names = set(suite.rstrip(".").split("/"))
            # A suite no source defines by name (a macro's, say) goes with the first file: none is dropped.
            if names & mine or (not names & everyone and self.path == sources[0]):
                yield GoogleTestCase.from_parent(self, name=suite + line.split()[0], binary=binary, case=suite + line.split()[0])


class GoogleTestCase(pytest.Item):
    def __init__(self, *, binary, case, **kwargs):
        super().__init__(**kwargs)
        self.binary, self.case = binary, case

    def runtest(self):
        if self.case is None:
            pytest.skip(f"{self.binary.relative_to(ROOT)} is not built (GoogleTest: apt-get install libgtest-dev; make)")
        r = run([self.binary, f"--gtest_filter={self.case}", "--gtest_color=no"], 120)
        assert r.rc == 0, r.tail(30)
        if "[  SKIPPED ] 1 test" in r.out:
            pytest.skip("skipped by the test")
        assert "[  PASSED  ] 1 test" in r.out, r.tail(30)

    def repr_failure(self, excinfo):
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, None, f"GoogleTest {self.case}"
