"""Tier 1 of reduction_versions (no GPU): --help, and every bad option or bad input file gives exit 2
with one line on stderr, before any CUDA call (so these pass on a machine without a GPU); without a
usable device, exit 3 and no file left behind. The labels an option names come from the registry
(--list-versions)."""
import re

import pytest
from cwtest import usage_case, gpu_reason, labels, need_built, program, run, scratch

NAME = "reduction_versions"
P = program(NAME)
CORE = ("assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,n,threads,blocks,"
        "kernel_ms,kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,result_ok,")


@pytest.fixture(autouse=True)
def built():
    need_built(P)


def test_help_lists_every_option_seed_and_iota():
    r = run([P, "--help"])
    assert r.rc == 0, r.tail()
    text = r.out.replace("\n", " ")
    assert re.search(r"--n=N.*--sizes=.*--threads=.*--blocks=N.*--data=.*iota.*--l2=.*--repeat=N.*--warmup=N.*--seed=N"
                     r".*--device=N.*--csv=.*--input=.*--output=.*--pinned.*--only=.*--print-csv-header.*--inject-fault", text)
    assert re.search(r"wraps modulo 2\^32.*seed=N +seed of the random data \(default: 1\)", text)


# (id, arguments, stderr pattern). {tmp}: the test's folder (files made by inputs()); {a}, {b}: the
# registry's first two labels; {demos}: its demonstrations; {no_blocks}: the versions --blocks does not
# apply to (tag takes_blocks).
BAD = [
    ("unknown-option", "--bogus=1", r"unknown option '--bogus'"),
    ("single-dash", "-x", r"unknown option"),
    ("old-csv-header", "--csv-header", r"unknown option '--csv-header'"),
    ("n=0", "--n=0", r"--n=0 is out of range"),
    ("n-not-a-number", "--n=abc", r"--n expects an integer"),
    ("n-above-2^30", "--n=2^31", r"out of range"),
    ("n-without-value", "--n", r"--n needs a value"),
    ("positional-0", "0", r"out of range"),
    ("two-positionals", "1000 5", r"unexpected argument '5'"),
    ("threads-not-pow2", "--threads=100", r"--threads=100 is not 0 \(automatic\) or a power of two"),
    ("threads-below-64", "--threads=32", r"--threads=32 is not 0 \(automatic\) or a power of two in \[64, 1024\]"),
    ("threads-above-1024", "--threads=2048", r"--threads=2048 is out of range"),
    ("threads-twice", "--threads=64,64", r"twice"),
    ("threads-empty-item", "--threads=256,", r"has an empty item"),
    ("threads-0-in-list", "--threads=0,256", r"0 \(automatic\) cannot be listed"),
    ("threads-not-a-number", "--threads=many", r"expects an integer"),
    ("blocks-negative", "--blocks=-1", r"--blocks=-1 is out of range"),
    ("blocks-without-grid-stride-version", "--blocks=8 {no_blocks}", r"--blocks sets the grid of the grid-stride versions"),
    ("repeat=0", "--repeat=0", r"--repeat=0 is out of range"),
    ("warmup-negative", "--warmup=-1", r"--warmup=-1 is out of range"),
    ("seed-not-a-number", "--seed=x", r"--seed expects an integer"),
    ("device-negative", "--device=-1", r"--device=-1 is out of range"),
    ("data-unknown", "--data=zeros", r"--data must be one of"),
    ("l2-unknown", "--l2=sometimes", r"--l2 must be one of"),
    ("only-unknown-version", "--only={a},no_such_version", r"unknown version 'no_such_version'"),
    ("only-twice", "--only={b},{b}", r"names version '{b}' twice"),
    ("only-empty-item", "--only={a},,{b}", r"has an empty item"),
    ("pinned-with-value", "--pinned=1", r"--pinned takes no value"),
    ("sizes-zero", "--sizes=1024,0", r"--sizes=0 is out of range"),
    ("sizes-not-a-number", "--sizes=1024,big", r"--sizes expects an integer"),
    ("sizes-empty-range", "--sizes=9..3", r"empty range '9..3'"),
    ("sizes-empty-item", "--sizes=1024,,2048", r"has an empty item"),
    ("sizes-and-n", "--sizes=1024 --n=5", r"exclude each other"),
    ("sizes-empty", "--sizes=", r"needs a value"),
    ("print-csv-header-checks-options-first", "--print-csv-header --threads=7", r"--threads=7 is not"),
    ("input-missing", "--input={tmp}/missing.bin", r"cannot open input file '{tmp}/missing.bin'"),
    ("input-empty", "--input={tmp}/empty.bin", r"input file '{tmp}/empty.bin' is empty"),
    ("input-not-whole-int32s", "--input={tmp}/five.bin", r"not a whole number of 4-byte elements"),
    ("input-with-n", "--input={tmp}/two.bin --n=2", r"do not give --n with it"),
    ("input-with-sizes", "--input={tmp}/two.bin --sizes=2", r"do not give --sizes with it"),
    ("input-with-positional", "--input={tmp}/two.bin 2", r"do not give --n with it"),
    ("input-with-data", "--input={tmp}/two.bin --data=iota", r"--input and --data exclude each other"),
    ("input-is-a-directory", "--input={tmp}", r"input file '{tmp}' is a directory"),
    ("input-is-a-fifo-no-hang", "--input={tmp}/fifo", r"is a FIFO"),
    ("output-two-sizes", "--sizes=10,20 --output={tmp}/o.bin", r"--output needs a single size"),
    ("output-only-demonstrations", "{demos} --output={tmp}/o.bin", r"--output needs a validated version"),
    ("output-unwritable", "--output={tmp}/no/such/dir/o.bin", r"cannot write output file"),
    ("csv-unwritable", "--csv={tmp}/no/such/dir/r.csv", r"cannot write CSV file"),
    ("csv-other-columns", "--csv={tmp}/other.csv", r"has different columns"),
]


@pytest.mark.parametrize("args,pattern", [pytest.param(a, p, id=i) for i, a, p in BAD])
def test_usage_error(args, pattern, tmp_path):
    scratch(tmp_path, {"empty.bin": b"", "five.bin": b"abcde", "two.bin": b"abcdefgh", "other.csv": b"a,b,c\n1,2,3\n"})
    names = dict(tmp=tmp_path, a=labels(NAME)[0], b=labels(NAME)[1], demos=only_of(lambda v: not v.validated),
                 no_blocks=only_of(lambda v: "takes_blocks" not in v.tags))
    usage_case([P], args, pattern, **names)
    assert not (tmp_path / "o.bin").exists(), "--output created on exit 2"


def only_of(where):
    found = labels(NAME, where)
    assert found, "the registry has no such version"
    return "--only=" + ",".join(found)


def test_print_csv_header_core_columns_then_the_programs_own():
    r = run([P, "--print-csv-header"])
    assert r.rc == 0 and len(r.out.splitlines()) == 1, r.tail()
    assert re.fullmatch(re.escape(CORE) + r".*kernel.*data.*seed.*launches.*checks.*wrong_checks.*gpu_sum.*cpu_sum\n", r.out)


def test_without_a_device_exit_3_no_output_csv_unchanged_no_host_buffer_first(tmp_path):
    if not gpu_reason():
        pytest.skip("a usable GPU is present")
    csv = tmp_path / "keep.csv"
    csv.write_text(run([P, "--print-csv-header"]).out + "reduction_versions,8,1,0,X,9.0,13.0,13.0,1000\n")
    before = csv.read_bytes()
    r = run([P, "--n=1000", f"--csv={csv}", f"--output={tmp_path}/o3.bin"])
    assert r.rc == 3 and len(r.err.splitlines()) == 1 and "Result = " not in r.out, r.tail()
    assert re.match(r"reduction_versions: no usable CUDA GPU: .*\(CUDA error (100|35), cudaError", r.err), r.err
    assert not (tmp_path / "o3.bin").exists() and csv.read_bytes() == before and not list(tmp_path.glob("*.tmp.*"))
    assert run([P, "--n=2^30"], timeout=10).rc == 3, "--n=2^30: the size is checked after the device probe, not first filled"
