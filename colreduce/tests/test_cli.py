"""Tier 1 of colreduce (no GPU): --help, and every bad option or input refused with exit 2 and one
line on stderr before any CUDA call, creating or changing no file; the size grammar on each side of
MxN; exit 3 without a GPU; report-experiments refusing to append. The contract's generic cases
(integers, FIFOs, --only items, exit 3 leaves no file) run for every program in common/tests."""
import re
import struct

import pytest
from cwtest import ROOT, gpu_reason, labels, need_built, program, refusal, run, versions

NAME = "colreduce"
CR = program(NAME)

# (id, stderr pattern, arguments): {d} is a folder holding m12.bin (12 doubles), m95.bin (95
# bytes), empty.bin, fifo.bin and other.csv (other columns); none of them may change.
BAD = [
    ("m_0", r"--m=0 is out of range", "0 8"),
    ("m_negative", r"--m=-5 is out of range", "-5 8"),
    ("n_0", r"--n=0 is out of range", "160000 0"),
    ("n_1025", r"--n=1025 is out of range", "16 1025"),
    ("n_minus_1", r"--n=-1 is out of range", "--n=-1"),
    ("m_beyond_int", r"--m=2147483648 is out of range", "2147483648 8"),
    ("m_2_pow_31", r"--m=2\^31 is out of range", "2^31 8"),
    ("m_abc", r"--m expects an integer .*got 'abc'", "abc 8"),
    ("n_8x", r"--n expects an integer .*got '8x'", "100 8x"),
    ("m_fraction", r"--m expects an integer", "--m=1.5"),
    ("third_positional", r"unexpected argument '3'", "1 2 3"),
    ("host_memory_before_cuda", r"m=2147483647 n=1024 needs [0-9]+ MiB of host memory", "2147483647 1024"),
    ("sizes_with_m_n", r"options --sizes and --m exclude each other", "--sizes=10x3 10 3"),
    ("sizes_no_x", r"'100' is not of the form MxN", "--sizes=100"),
    ("sizes_no_n", r"'100x' is not of the form MxN", "--sizes=160000x8,100x"),
    ("sizes_n_0", r"out of range \[1, 1024\]", "--sizes=100x0"),
    ("sizes_m_beyond_int", r"out of range \[1, 2147483647\]", "--sizes=2^31x8"),
    ("sizes_host_memory", r"m=2147483647 n=1000 needs [0-9]+ MiB of host memory", "--sizes=10x10,2147483647x1000"),
    ("sizes_comma", r"--sizes=',' has an empty item", "--sizes=,"),
    ("sizes_trailing_comma", r"has an empty item", "--sizes=10x8,"),
    ("sizes_double_comma", r"has an empty item", "--sizes=10x8,,5x5"),
    ("sizes_empty_range", r"empty range '3..1x8'", "--sizes=3..1x8"),
    ("data_unknown", r"--data must be one of random\|report\|negative\|wide", "--data=zeros"),
    ("threads_2048", r"--threads=2048 is out of range", "--threads=2048"),
    ("blocks_negative", r"--blocks=-1 is out of range", "--blocks=-1"),
    ("slow_repeat_x", r"--slow-repeat expects an integer", "--slow-repeat=x"),
    ("seed_negative", r"--seed=-1 is out of range", "--seed=-1"),
    ("csv_unwritable", r"cannot write CSV file", "--csv=/nonexistent-dir/x.csv"),
    ("csv_other_columns", r"has different columns", "--csv={d}/other.csv"),
    ("output_unwritable", r"cannot write output file", "--output=/nonexistent-dir/y.bin"),
    ("output_with_sizes", r"--output needs a single size", "--sizes=4x4,5x5 --output={d}/o.bin"),
    ("output_not_created_on_exit_2", r"--n=1025 is out of range", "4 1025 --output={d}/never.bin"),
    ("header_bad_option", r"--threads=4096 is out of range", "--print-csv-header --threads=4096"),
    ("header_bad_sizes", r"not of the form MxN", "--print-csv-header --sizes=12"),
    ("header_short_input", r"not a whole number of rows of n=5", "--print-csv-header --input={d}/m12.bin --n=5"),
    ("input_missing", r"cannot open input file", "--n=4 --input={d}/none.bin"),
    ("input_without_n", r"--input needs --n", "--input={d}/m12.bin"),
    ("input_12_n_5", r"holds 12 elements, not a whole number of rows of n=5 columns", "--n=5 --input={d}/m12.bin"),
    ("input_with_m", r"do not give --m with it", "--m=3 --n=4 --input={d}/m12.bin"),
    ("input_with_m_n", r"do not give --m with it", "3 4 --input={d}/m12.bin"),
    ("input_with_sizes", r"do not give --sizes with it", "--sizes=3x4 --input={d}/m12.bin"),
    ("input_with_data", r"--input and --data exclude each other", "--n=4 --data=report --input={d}/m12.bin"),
    ("input_95_bytes", r"not a whole number of 8-byte elements", "--n=4 --input={d}/m95.bin"),
    ("input_empty", r"is empty", "--n=4 --input={d}/empty.bin"),
    ("input_folder", r"is a directory", "--n=4 --input={d}"),
    ("input_fifo_at_once", r"is a FIFO", "--n=4 --input={d}/fifo.bin"),
]


@pytest.fixture
def d(tmp_path):
    need_built(CR)
    m12 = struct.pack("<12d", *range(12))
    for name, data in [("m12.bin", m12), ("m95.bin", m12[:95]), ("empty.bin", b""), ("other.csv", b"a,b\n1,2\n")]:
        (tmp_path / name).write_bytes(data)
    run(["mkfifo", tmp_path / "fifo.bin"])
    return tmp_path


def help_text():
    need_built(CR)
    return run([CR, "--help"]).out.replace("\n", " ")


@pytest.mark.parametrize("pattern,args", [pytest.param(p, a, id=i) for i, p, a in BAD])
def test_refused(d, pattern, args):
    refusal([CR, *args.format(d=d).split()], pattern, d)


def test_help_lists_options_and_defaults():
    h = help_text()
    assert re.search(r"--m=N.*--n=N.*--sizes.*--data=random\|report\|negative\|wide.*--threads.*--blocks.*"
                     r"--slow-repeat.*--repeat.*--warmup.*--seed.*--device.*--csv.*--input.*--output.*--pinned.*"
                     r"--only.*--print-csv-header.*--inject-fault.*M \(= --m\) N \(= --n\)", h), h
    assert re.search(r"--threads=N .*0 = automatic.*1024.*--blocks=N .*0 = automatic.*--repeat=N .*default: 20.*"
                     r"--warmup=N .*default: 3.*--seed=N .*default: 1\)", h), h


def test_help_marks_the_slow_versions():
    """The shared order and kinds are common/tests/test_contract.py's; colreduce also marks its slow ones."""
    for v in versions(NAME):
        m = re.search(r"^  [* ] %s +(.*)$" % re.escape(v.label), run([CR, "--help"]).out, re.M)
        assert m and ("[slow: --slow-repeat]" in m[1]) == ("slow" in v.tags), f"{v.label}: {m and m[0]}"


def test_only_names_a_version_twice_or_an_unknown_one(d):
    first, second = labels(NAME)[:2]
    refusal([CR, f"--only={first},{second},{first}"], f"names version '{first}' twice", d)
    refusal([CR, f"--only={first},no_such_version"],
            re.escape(f"unknown version 'no_such_version' (known: {','.join(labels(NAME))})"), d)


@pytest.mark.parametrize("args", ["--input={d}/m12.bin --n=4", "--sizes=1..3x8", "--sizes=8x1..3"])
def test_print_csv_header_after_valid_options(d, args):
    r = run([CR, "--print-csv-header", *args.format(d=d).split()])
    assert r.rc == 0 and r.out.startswith("assignment,version,"), r.tail()


def test_no_gpu_exit_3_writes_no_file(d):
    if not gpu_reason():
        pytest.skip("a GPU is present")
    (d / "kept.csv").write_text(run([CR, "--print-csv-header"]).out)
    before = (d / "kept.csv").read_bytes()
    r = run([CR, "--n=4", f"--input={d}/m12.bin", f"--output={d}/new.bin", f"--csv={d}/kept.csv"])
    assert r.rc == 3 and len(r.err.splitlines()) == 1, r.tail()
    assert re.match(r"colreduce: no usable CUDA GPU: .*\(CUDA error (100|35), ", r.err), r.err
    assert not (d / "new.bin").exists() and (d / "kept.csv").read_bytes() == before
    assert not [p for p in d.iterdir() if ".tmp." in p.name]


def test_input_holding_a_nan_is_refused_on_a_gpu_never_read_without(d):
    (d / "nan.bin").write_bytes(struct.pack("<3d", 1.0, 2.0, float("nan")))
    cmd = [CR, "--n=3", f"--input={d}/nan.bin"]
    if gpu_reason():
        assert run(cmd).rc == 3
    else:
        refusal(cmd, r"not finite \(element 2\)", d)


def test_report_experiments_refuses_an_existing_csv(tmp_path):
    (tmp_path / "colreduce.csv").write_text("")
    r = run(["make", "--no-print-directory", "-s", "-C", ROOT / NAME, "report-experiments", f"RESULTS_DIR={tmp_path}"])
    assert r.rc != 0 and "colreduce.csv exists" in r.err and (tmp_path / "colreduce.csv").read_text() == "", r.tail()
