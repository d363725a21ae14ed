"""The command-line and file contract every program shares (README.md, "One command line" and
"Data safety"), run against each of the five programs: strict integers of any length, one-line
messages, --only items, FIFOs, directories, devices and pseudo-files refused without blocking,
nothing created or changed on exit 2 or 3, --print-csv-header's core columns, huge --csv and
--input files, standard output that cannot be written; then, with a program's host versions (no
GPU needed), what a run that fails late commits: nothing. Each case is bounded by a timeout.
A program's tiny run is its Makefile's SMALL_ARGS. Ids name the program: `pytest -k scan`."""
import array
import fcntl
import functools
import os
import re
import resource
import shutil
import signal
import subprocess
import termios
import time
from pathlib import Path

import pytest
from cwtest import ROOT, UNDER_TEST, gpu_reason, make_print, need_built, only, program, refusal, run, usage_error, versions

SYSFS_FILE = Path("/sys/kernel/mm/transparent_hugepage/enabled")
NINES = "9" * 41


@functools.lru_cache(maxsize=None)
def small(name):
    return make_print(name, "SMALL_ARGS").split()


@functools.lru_cache(maxsize=None)
def help_text(name):
    return run([program(name), "--help"], 10).out if program(name).exists() else ""


# (id, stderr pattern, arguments): SMALL stands for the program's tiny run, {d} for the case's folder.
REFUSALS = [
    *[(f"repeat_{i}", "option --repeat (expects an integer|needs a value)", [f"--repeat={v}"]) for i, v in
      {"leading_blank": " 5", "trailing_blank": "5 ", "suffix": "5x", "bare_power": "2^", "fraction": "1.5", "empty": ""}.items()],
    *[(f"repeat_{v}_out_of_range", rf"option --repeat={re.escape(v)} is out of range \[1, 100000\]", [f"--repeat={v}"])
      for v in ("2^63", "1e19", "99999999999999999999", "0")],
    ("repeat_45_digits_out_of_range", r"option --repeat=9{45} is out of range \[1, 100000\]", ["--repeat=9999" + NINES]),
    ("repeat_2^_41_digits_out_of_range", r"option --repeat=2\^9{41} is out of range", ["--repeat=2^" + NINES]),
    ("repeat_1e_41_digits_out_of_range", r"option --repeat=1e9{41} is out of range", ["--repeat=1e" + NINES]),
    ("newline_in_a_value_one_line", r"expects an integer.*5\\n6", ["--repeat=5\n6"]),
    ("help_takes_no_value", "option --help takes no value", ["--help=1"]),
    ("unknown_option", "unknown option '--bogus'", ["--bogus"]),
    ("option_given_twice", "given twice", ["--repeat=3", "--repeat=4"]),
    ("only_empty_item", "option --only=.*has an empty item", ["--only=,"]),
    ("only_unknown_version", "unknown version 'no_such'", ["--only=no_such"]),
    ("only_unknown_tag", "no version has the tag 'no_such_tag'", ["--only=@no_such_tag"]),
    ("only_empty_tag", "no version has the tag ''", ["--only=@"]),
    ("input_fifo", "input file '.*fifo' is a FIFO", ["--input={d}/fifo"]),
    ("input_directory", "is a directory", ["--input={d}/folder"]),
    ("input_dev_zero", "is a character device", ["--input=/dev/zero"]),
    ("input_proc_file", "is empty", ["--input=/proc/self/status"]),
    ("input_missing", "cannot open input file", ["--input={d}/missing.bin"]),
    ("csv_fifo", "CSV file '.*fifo_csv' is a FIFO", ["SMALL", "--csv={d}/fifo_csv"]),
    ("output_fifo", "output file '.*fifo_out' is a FIFO", ["SMALL", "--output={d}/fifo_out"]),
    ("output_in_missing_folder", "cannot write output file", ["SMALL", "--output={d}/no/such/out.bin"]),
    ("csv_with_other_columns", "has different columns", ["SMALL", "--csv={d}/other.csv"]),
    ("output_in_proc", "output file '/proc/x'", ["SMALL", "--output=/proc/x"]),
    ("csv_in_sys", "CSV file '/sys/kernel/x'", ["SMALL", "--csv=/sys/kernel/x"]),
    ("output_300_byte_name", "output file '.*" + "a" * 300 + "'.*300 bytes", ["SMALL", "--output={d}/" + "a" * 300]),
    ("csv_and_output_one_new_file", "same file", ["SMALL", "--csv={d}/new.x", "--output={d}/new.x"]),
    ("csv_and_output_dot_slash", "same file", ["SMALL", "--csv={d}/new.x", "--output={d}/./new.x"]),
    ("csv_and_output_symlink", "same file", ["SMALL", "--csv={d}/rows.csv", "--output={d}/link.csv"]),
    ("print_csv_header_checks_options", "out of range", ["--print-csv-header", "--repeat=0"]),
    ("list_versions_checks_only", "unknown version 'bogus'", ["--list-versions", "--only=bogus"]),
    ("list_versions_checks_outputs", "output file '/proc/x'", ["--list-versions", "--output=/proc/x"]),
    ("list_versions_with_print_csv_header", "exclude each other", ["--list-versions", "--print-csv-header"]),
]


def refusals(name):
    """REFUSALS plus the cases of the options this program has: --vary-input is refused with --input
    or --output, or at once by a program without input data to vary (no VARY_ARGS: pi)."""
    cases = list(REFUSALS)
    if make_print(name, "VARY_ARGS"):
        cases += [("vary_input_with_input", "option --vary-input varies seeded data", ["--vary-input=1", "--input={d}/folder"]),
                  ("vary_input_with_output", "option --vary-input is a testing aid", ["SMALL", "--vary-input=1", "--output={d}/v.bin"])]
    else:
        cases.append(("vary_input_without_input_data", f"option --vary-input: {name} has no input data to vary", ["SMALL", "--vary-input=1"]))
    if "--seed=" in help_text(name):
        cases.append(("seed_above_2^32-1", r"option --seed=4294967296 is out of range \[0, 4294967295\]", ["--seed=4294967296"]))
    data = re.search(r".*--data=([a-z0-9_]*)", help_text(name))
    if data:
        cases.append(("input_with_data", "exclude each other", ["--input={d}/sixteen.bin", f"--data={data.group(1)}"]))
    # A 1 TiB --input: its size against the limits and the host memory before a byte is read
    # (colreduce's limit in rows lets 1 TiB through: host memory refuses it).
    size = ["--n=1024"] if re.search(r"--input=.*give --n", help_text(name)) else []
    cases.append(("input_1_TiB_at_once", "input file '.*huge.bin' (holds [0-9]+ elements, more than|needs [0-9]+ MiB of host memory)",
                  [*size, "--input={d}/huge.bin"]))
    if SYSFS_FILE.is_file():  # sysfs says 4096 bytes whatever a file holds
        cases.append(("input_sysfs_file", f"input file '{SYSFS_FILE}' is a pseudo-file of sysfs", [f"--input={SYSFS_FILE}"]))
    return cases


def expand(name, args, d):
    return [program(name)] + [w for a in args for w in (small(name) if a == "SMALL" else [a.format(d=d)])]


@pytest.fixture
def d(tmp_path, name):
    """The case's folder (no file in it may be created or changed by a refusal): FIFOs, a folder, a
    CSV of other columns, one of the program's own (rows.csv), a symlink to it, a sparse 1 TiB file."""
    need_built(program(name))
    for fifo in ("fifo", "fifo_csv", "fifo_out"):
        os.mkfifo(tmp_path / fifo)
    (tmp_path / "folder").mkdir()
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    (tmp_path / "sixteen.bin").write_bytes(b"0123456789abcdef")
    (tmp_path / "rows.csv").write_text(run([program(name), "--print-csv-header"], 10).out)
    (tmp_path / "link.csv").symlink_to("rows.csv")
    with open(tmp_path / "huge.bin", "wb") as f:
        f.truncate(1 << 40)
    return tmp_path


@pytest.mark.parametrize("name,pattern,args", [pytest.param(n, p, a, id=f"{n}-{i}") for n in UNDER_TEST for i, p, a in refusals(n)])
def test_refused(name, pattern, args, d):
    refusal(expand(name, args, d), pattern, d)


def peak_run(cmd):
    """cmd under a 1 GiB address-space limit (a whole read of a huge file cannot take the machine's
    memory): its exit status, standard error and peak resident memory (KB)."""
    limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # noqa: E731
    p = subprocess.Popen([str(c) for c in cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=limit)
    err = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, err, usage.ru_maxrss


@pytest.mark.parametrize("option,what", [("--csv", "CSV file"), ("--output", "output file")])
@pytest.mark.parametrize("name", UNDER_TEST)
def test_output_naming_a_symlink_loop_refused(name, option, what, tmp_path):
    """A symbolic link to itself names no file (stat: ELOOP); the commit's rename would have replaced the
    link with the file. One line naming it, exit 2, the link left as it was."""
    need_built(program(name))
    os.symlink("loop", tmp_path / "loop")
    usage_error([program(name), *small(name), f"{option}={tmp_path}/loop"],
                f"cannot write {what} '.*/loop': Too many levels of symbolic links", timeout=10)
    assert os.listdir(tmp_path) == ["loop"] and os.readlink(tmp_path / "loop") == "loop", os.listdir(tmp_path)


@pytest.mark.parametrize("name", UNDER_TEST)
def test_6_gib_csv_refused_with_a_bounded_header_read(name, d):
    """A 6 GiB sparse --csv without a newline: the header check reads what it needs, not the file; its
    peak memory exceeds that of the same command with a small --csv by 64 MB at most."""
    with open(d / "huge.csv", "wb") as f:
        f.truncate(6 << 30)
    (d / "small.csv").write_text("x\n")
    refusal([program(name), *small(name), f"--csv={d}/huge.csv"], "CSV file '.*huge.csv' has different columns", d)
    _, _, rss_small = peak_run([program(name), *small(name), f"--csv={d}/small.csv"])
    status, err, rss_huge = peak_run([program(name), *small(name), f"--csv={d}/huge.csv"])
    assert status == 2 and "has different columns" in err, f"exit {status} under a 1 GiB limit: {err}"
    assert rss_huge < rss_small + 65536, f"peak {rss_huge} KB, {rss_small} KB with a small file"


@pytest.mark.parametrize("name", UNDER_TEST)
def test_leading_zeros_are_zeros(name):
    need_built(program(name))
    r = run([program(name), "--print-csv-header", "--repeat=" + "0" * 45 + "3"], 10)
    assert r.rc == 0, r.tail()


@pytest.mark.parametrize("name", UNDER_TEST)
def test_print_csv_header_one_line_core_columns_first(name):
    need_built(program(name))
    r = run([program(name), "--print-csv-header"], 10)
    core = (r"^assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,(n|m,n),threads,blocks,"
            r"kernel_ms,kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,result_ok(,|$)")
    assert r.rc == 0 and len(r.out.splitlines()) == 1 and re.match(core, r.out), r.tail()


@pytest.mark.parametrize("name", UNDER_TEST)
def test_help_lists_the_shared_options_and_versions(name):
    need_built(program(name))
    shared = "--repeat --warmup --device --csv --input --output --pinned --only --print-csv-header --inject-fault".split()
    missing = [o for o in shared if o not in help_text(name)]
    assert not missing and re.search("^Versions", help_text(name), re.M), f"missing: {missing}"


@pytest.mark.parametrize("name", UNDER_TEST)
def test_help_lists_every_version_of_the_registry_in_order(name):
    """--help's version list is --list-versions: every label in the registry's order, '*' for a default
    version, the kind in brackets ([library baseline], [demonstration, not validated])."""
    need_built(program(name))
    text, at = help_text(name), []
    for v in versions(name):
        m = re.search(r"^  ([* ]) %s +(.*)$" % re.escape(v.label), text, re.M)
        assert m and (m[1] == "*") == v.default, f"{v.label}: {m and m[0]}"
        assert ("[library baseline]" in m[2]) == v.baseline, m[0]
        assert ("[demonstration, not validated]" in m[2]) != v.validated, m[0]
        at.append(m.start())
    assert at == sorted(at), "--help lists the versions in another order than --list-versions"


# A value with the C1 controls U+0085 (a line break) and U+009B (a terminal's CSI: CSI 2J clears
# the screen), then bytes that are not UTF-8 (FF, a cut-short C3, an overlong C0 AF), then an "é",
# which is well-formed UTF-8 above U+009F and kept as typed.
UNPRINTABLE = b"x\xc2\x85\xc2\x9b2J\xff\xc3\xc0\xaf" + "\u00e9".encode()
UNPRINTABLE_SHOWN = b"x\\xc2\\x85\\xc2\\x9b2J\\xff\\xc3\\xc0\\xaf" + "\u00e9".encode()


@pytest.mark.parametrize("option", ["--input=", "--only="])
@pytest.mark.parametrize("name", UNDER_TEST)
def test_c1_controls_and_bytes_not_utf8_escaped(name, option):
    """Exit 2 and one line of well-formed UTF-8 without a control character, the value's C1 controls
    and stray bytes written as \\xNN per byte (cw::printable)."""
    need_built(program(name))
    p = subprocess.run([bytes(program(name)), option.encode() + UNPRINTABLE], capture_output=True, timeout=10)
    err = p.stderr.decode("utf-8", errors="backslashreplace")
    assert p.returncode == 2 and UNPRINTABLE_SHOWN in p.stderr, f"exit {p.returncode}: {err}"
    assert p.stderr.endswith(b"\n") and p.stderr.count(b"\n") == 1, err
    assert not re.search("[\x00-\x1f\x7f-\x9f]", p.stderr[:-1].decode("utf-8")), err


@pytest.mark.parametrize("name", UNDER_TEST)
def test_without_gpu_exit_3_one_line_no_file_left(name, d):
    if gpu_reason() is None:
        pytest.skip("a usable GPU is present")
    (d / "existing.bin").write_text("keep me\n")
    r = run([program(name), *small(name), f"--csv={d}/new.csv", f"--output={d}/existing.bin"], 20)
    assert r.rc == 3, r.tail()
    assert len(r.err.splitlines()) == 1 and re.match(f"{name}: no usable CUDA GPU: .*CUDA error [0-9]", r.err), r.err
    assert not (d / "new.csv").exists() and (d / "existing.bin").read_text() == "keep me\n", sorted(os.listdir(d))
    assert not [f for f in os.listdir(d) if ".tmp." in f], sorted(os.listdir(d))


# ---- Standard output that cannot be written, and what a run that fails late commits ----

def _signal_defaults():
    """A test run in the background inherits SIGINT and SIGQUIT ignored: every signal at its default."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(s, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def probe(cmd, stdout=None, env=None, file_limit=None, closed_pipe=False, remove_mid_run=None):
    """Runs cmd with the signals at their defaults and core dumps off; its standard output is `stdout`,
    or a pipe whose reader is gone (closed_pipe), or a small pipe full but for a few bytes: once the
    command's first flush lands (every check passed, the run begun) the folder remove_mid_run is
    removed, then the pipe drained. Returns (status, stderr): status 128+N when killed by signal N."""
    def pre():
        _signal_defaults()
        if file_limit:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))
    r = w = None
    if closed_pipe or remove_mid_run:
        r, w = os.pipe()
        stdout = w
    if closed_pipe:
        os.close(r)
    if remove_mid_run:
        fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ: one page
        full = os.write(w, b"#" * (fcntl.fcntl(w, 1032) - 160))  # room for the first flush, not for what follows
    p = subprocess.Popen([str(c) for c in cmd], stdout=stdout, stderr=subprocess.PIPE, env=env, preexec_fn=pre)
    if w is not None:
        os.close(w)
    if remove_mid_run:
        def queued():
            n = array.array("i", [0])
            fcntl.ioctl(r, termios.FIONREAD, n)
            return n[0]
        deadline = time.time() + 60
        while queued() == full and p.poll() is None and time.time() < deadline:
            time.sleep(0.01)
        if p.poll() is not None or queued() == full:
            p.kill()
            pytest.fail(f"the command did not pause in its run (exit {p.poll()})")
        shutil.rmtree(remove_mid_run)
        while os.read(r, 65536):
            pass
        os.close(r)
    try:
        err = p.communicate(timeout=120)[1].decode(errors="replace")
    except subprocess.TimeoutExpired:
        p.kill()
        return 124, p.communicate()[1].decode(errors="replace")
    return (128 - p.returncode if p.returncode < 0 else p.returncode), err


@pytest.mark.parametrize("opt", ["--help", "--print-csv-header"])
@pytest.mark.parametrize("name", UNDER_TEST)
def test_stdout_dev_full_is_an_error(name, opt):
    """GNU tools' rule: a non-zero exit and one line saying so."""
    need_built(program(name))
    with open("/dev/full", "w") as full:
        status, err = probe([program(name), opt], stdout=full)
    assert status not in (0, 124) and len(err.splitlines()) == 1 and "cannot write standard output" in err, f"exit {status}: {err}"


@pytest.mark.parametrize("opt", ["--help", "--print-csv-header", "--list-versions"])
@pytest.mark.parametrize("name", UNDER_TEST)
def test_stdout_closed_pipe_one_line_exit_2(name, opt):
    """README.md, "Exit status": not a silent death by SIGPIPE."""
    need_built(program(name))
    status, err = probe([program(name), opt], closed_pipe=True)
    assert status == 2 and len(err.splitlines()) == 1 and "error: cannot write standard output: Broken pipe" in err, f"exit {status}: {err}"


HOST_PROGRAMS = [n for n in UNDER_TEST if any(v.host for v in versions(n))] or [
    pytest.param(None, marks=pytest.mark.skip(reason="no program under test with a host version is built (make)"))]

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
/* CW_RAISE=N CW_RAISE_AT=fchmod|fsync|rename CW_RAISE_CALL=K: raise signal N in the K-th call. */
static void maybe_raise(const char* where) {
    static int calls = 0;
    const char *at = getenv("CW_RAISE_AT"), *sig = getenv("CW_RAISE"), *k = getenv("CW_RAISE_CALL");
    if (at && sig && strcmp(at, where) == 0 && ++calls == (k ? atoi(k) : 1)) raise(atoi(sig));
}
int fchmod(int fd, mode_t mode) {
    maybe_raise("fchmod");
    return ((int (*)(int, mode_t))dlsym(RTLD_NEXT, "fchmod"))(fd, mode);
}
int fsync(int fd) {
    maybe_raise("fsync");
    return ((int (*)(int))dlsym(RTLD_NEXT, "fsync"))(fd);
}
int rename(const char* from, const char* to) {
    maybe_raise("rename");
    return ((int (*)(const char*, const char*))dlsym(RTLD_NEXT, "rename"))(from, to);
}
"""


@pytest.fixture(scope="module")
def raise_shim(tmp_path_factory):
    """A preloaded library raising a signal in the K-th fchmod (called on each complete temporary), fsync
    (called on an existing CSV once its rows are appended) or rename (the commit)."""
    folder = tmp_path_factory.mktemp("shim")
    (folder / "raise_shim.c").write_text(SHIM)
    r = run(["cc", "-shared", "-fPIC", "-o", folder / "raise_shim.so", folder / "raise_shim.c", "-ldl"], 60)
    if r.rc != 0:
        pytest.skip(f"cannot build a preload shim: {(r.err.splitlines() or ['?'])[0]}")
    return folder / "raise_shim.so"


class Commit:
    """A folder where a good run of the program's host versions wrote rows.csv (which every failing
    run must leave as it is) and the command of that run, to which a case adds --csv and --output."""

    def __init__(self, name, d):
        self.d = d
        self.cmd = [program(name), *small(name), only(name, lambda v: v.host), "--repeat=1", "--warmup=0"]
        r = run(self.cmd + [f"--csv={d}/rows.csv", f"--output={d}/first.bin"], 120)
        assert r.rc == 0 and (d / "first.bin").stat().st_size > 0, "a run of its host versions writes --csv and --output\n" + r.tail()
        self.rows = (d / "rows.csv").read_bytes()

    def args(self, output="new.bin"):
        return self.cmd + [f"--csv={self.d}/rows.csv", f"--output={self.d}/{output}"]

    def check(self, status, err, want, pattern=None, committed=False):
        """The exit status and one-line message; nothing committed (or, with committed, both files
        written); no temporary or core file left."""
        assert status == want, f"exit {status}, expected {want}: {err[:300]}"
        if pattern:
            assert len(err.splitlines()) == 1 and re.search(pattern, err), f"stderr is not one line matching /{pattern}/: {err[:300]}"
        left = [p.name for p in self.d.rglob("*") if ".tmp." in p.name or ".old." in p.name or p.name.startswith("core")]
        assert not left, f"left behind: {left}"
        new, rows = self.d / "new.bin", (self.d / "rows.csv").read_bytes()
        if committed:
            assert new.exists() and new.stat().st_size > 0 and rows != self.rows, f"not committed: {os.listdir(self.d)}"
        else:
            assert not new.exists() and rows == self.rows, f"written: {os.listdir(self.d)}, rows.csv {len(rows.splitlines())} lines"


@pytest.fixture
def commit(name, tmp_path):
    need_built(program(name))
    return Commit(name, tmp_path)


@pytest.mark.parametrize("name", HOST_PROGRAMS)
def test_commit_stdout_dev_full_nothing_written(name, commit):
    with open("/dev/full", "w") as full:
        commit.check(*probe(commit.args(), stdout=full), 2, "cannot write standard output")


@pytest.mark.parametrize("name", HOST_PROGRAMS)
def test_commit_stdout_closed_pipe_nothing_written(name, commit):
    commit.check(*probe(commit.args(), closed_pipe=True), 2, "cannot write standard output: Broken pipe")


@pytest.mark.parametrize("name", HOST_PROGRAMS)
def test_commit_output_folder_removed_mid_run_csv_not_appended(name, commit):
    (commit.d / "gone").mkdir()
    commit.check(*probe(commit.args("gone/new.bin"), remove_mid_run=commit.d / "gone"), 2, "cannot write output file '.*gone/new.bin'")


@pytest.mark.parametrize("name", HOST_PROGRAMS)
def test_commit_file_size_limit_exit_2_nothing_written(name, commit):
    """A file-size limit (ulimit -f 64) that the CSV's commit passes: exit 2 (EFBIG, not SIGXFSZ)."""
    header, *rows = commit.rows.decode().splitlines(keepends=True)
    (commit.d / "rows.csv").write_text((header + "".join(rows) * 1000)[:64 * 1024 - 64] + "\n")
    commit.rows = (commit.d / "rows.csv").read_bytes()
    commit.check(*probe(commit.args(), stdout=subprocess.DEVNULL, file_limit=64 * 1024), 2,
                 "cannot write CSV file '.*rows.csv': File too large")


# fchmod: --output's temporary is whole; fsync: rows.csv's rows are appended, not yet flushed;
# rename: --output's temporary is renamed into place, the rows appended.
@pytest.mark.parametrize("sig,at,want,committed", [
    *[pytest.param(s, "fchmod", "killed", False, id=f"SIG{s}_while_written_killed") for s in ("INT", "TERM", "HUP", "QUIT")],
    *[pytest.param(s, "fchmod", 0, True, id=f"SIG{s}_while_written_ignored_committed") for s in ("PIPE", "XFSZ")],
    *[pytest.param(s, "fsync", "killed", False, id=f"SIG{s}_while_appended_cut_back") for s in ("INT", "TERM")],
    pytest.param("TERM", "rename", "killed", False, id="SIGTERM_between_renames_undone")])
@pytest.mark.parametrize("name", HOST_PROGRAMS)
def test_commit_signal(name, sig, at, want, committed, commit, raise_shim):
    n = getattr(signal, "SIG" + sig).value
    env = dict(os.environ, LD_PRELOAD=str(raise_shim), CW_RAISE=str(n), CW_RAISE_AT=at, CW_RAISE_CALL="1")
    commit.check(*probe(commit.args(), stdout=subprocess.DEVNULL, env=env), 128 + n if want == "killed" else want, committed=committed)



@pytest.mark.parametrize("name", HOST_PROGRAMS)
def test_commit_appends_to_a_6_gib_csv_without_reading_it(name, commit):
    """An existing --csv gets its rows appended: a 6 GiB one (sparse past its rows) under a 1 GiB
    address-space limit commits in seconds, its content kept, the new rows at its end."""
    rows = commit.d / "rows.csv"
    with open(rows, "r+b") as f:
        f.truncate(6 << 30)
    started = time.monotonic()
    status, err, _ = peak_run(commit.args())
    assert status == 0, f"exit {status}: {err}"
    assert time.monotonic() - started < 60, "the commit took a minute or more"
    with open(rows, "rb") as f:
        assert f.read(len(commit.rows)) == commit.rows
        f.seek(6 << 30)
        tail = f.read()
    assert tail.startswith(b"\n") and tail.count(b"\n") == len(commit.rows.splitlines()), tail[:300]


@pytest.mark.parametrize("name", HOST_PROGRAMS)
def test_csv_at_the_file_size_limit_refused_before_the_run(name, commit):
    """An existing --csv as large as the file-size limit (ulimit -f) allows: one line naming --csv and
    the file, exit 2, before the run (no plan printed), the file unchanged."""
    rows = commit.d / "rows.csv"
    with open(rows, "ab") as f:
        f.write(b"#" * (64 * 1024 - len(commit.rows) - 1) + b"\n")
    commit.rows = rows.read_bytes()
    r = run(["bash", "-c", 'ulimit -f 64 && exec "$@"', "bash", *commit.args()], 60)
    commit.check(r.rc, r.err, 2, r"CSV file '.*rows.csv' \(--csv\) has 65536 bytes, as many as the file-size limit")
    assert "planned:" not in r.out, "refused after the run began\n" + r.tail()


def readme_exit_status_examples():
    """The examples of the top README's "Exit status" table: the code spans that are a program's
    options with a redirection (`--help > /dev/full`), each given as what follows the program."""
    text = (ROOT / "README.md").read_text().split("## Exit status", 1)[-1].split("\n## ", 1)[0]
    spans = [s.replace("\\|", "|") for s in re.findall(r"`([^`]+)`", text)]
    return [s for s in spans if s.startswith("--") and re.search(r"[>|]", s)]


@pytest.mark.parametrize("example", readme_exit_status_examples())
def test_readme_exit_status_example_holds_every_time(example):
    """An example in the README is a test that always holds: 25 runs, 5 of each program, exit 2 and one
    line each time (`--help | head -0` gave exit 0 in about half of its runs)."""
    names = [n for n in UNDER_TEST if program(n).exists()]
    if not names:
        pytest.skip("no program is built (make)")
    bad = []
    for i in range(25):
        name = names[i % len(names)]
        p = subprocess.run(["bash", "-c", f'"$0" {example}; exit ${{PIPESTATUS[0]}}', str(program(name))],
                           capture_output=True, text=True, timeout=30)
        if p.returncode != 2 or len(p.stderr.splitlines()) != 1 or "cannot write standard output" not in p.stderr:
            bad.append((name, p.returncode, p.stderr.strip()))
    assert not bad, f"{len(bad)} of 25 runs of `<program> {example}`: {bad[:3]}"
