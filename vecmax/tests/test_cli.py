"""vecmax, tier 1 (no GPU): its own options and input rules, each bad one exit 2 with one line on
stderr before any CUDA call (the shared contract's cases are common/tests'); the order of work
without a GPU (exit 3 before any host buffer is filled, no file left); --help."""
import os
import re

import pytest
import cwtest
from cwtest import usage_case, labels, need_built, program, run, usage_error

NAME = "vecmax"
B = program(NAME)
# A machine without a usable GPU, on any machine: no device is visible (CUDA error 100), or the
# driver cannot run this runtime (35).
NO_GPU = {**os.environ, "CUDA_VISIBLE_DEVICES": "-1"}
NO_GPU_LINE = r"^vecmax: no usable CUDA GPU: .*\(CUDA error (35|100), "


@pytest.fixture(autouse=True)
def built():
    need_built(B)


FILES = {"empty.bin": b"", "five_bytes.bin": b"\x00\x00\x80\x3f\x00", "other.csv": b"a,b,c\n",
         "two_floats.bin": b"\x00\x00\x80\x3f\x00\x00\x00\x40"}  # 1.0f, 2.0f


@pytest.fixture
def scratch(tmp_path):
    """The input files the rules are about, a CSV of other columns, a FIFO."""
    return cwtest.scratch(tmp_path, FILES)


def help_text():
    return cwtest.help_text(NAME)


HELP = {
    "every option": "--n=N.*--threads=N.*--blocks=N.*--sp-blocks=N.*--data=.*--offset=N.*--cpu-repeat=N.*--repeat=N"
                    ".*--warmup=N.*--seed=N.*--device=N.*--csv=.*--input=.*--output=.*--pinned.*--only=.*"
                    "--print-csv-header.*--inject-fault",
    "positional form N THREADS BLOCKS": r"\[N\] \[THREADS\] \[BLOCKS\]",
    "what 0 means for --threads and --blocks": "--threads=N .*0: automatic, 1024.*--blocks=N .*0: automatic, 128",
}


@pytest.mark.parametrize("pattern", HELP.values(), ids=HELP.keys())
def test_help_says(pattern):
    assert re.search(pattern, help_text().replace("\n", " ")), f"--help does not match /{pattern}/"


# Bad usage and input: (arguments, the one line on stderr). {T} is the scratch folder; {a} and {b}
# are two labels of the registry.
BAD = {
    "--n=0": ("--n=0", "--n=0 is out of range"),
    "--n negative": ("--n=-5", "--n=-5 is out of range"),
    "--n non-numeric": ("--n=abc", "--n expects an integer.*got 'abc'"),
    "--n too large for CUB's int count": ("--n=2^31", r"--n=2\^31 is out of range"),
    "--n without a value": ("--n", "--n needs a value"),
    "positional N = 0": ("0 256 4", "--n=0 is out of range"),
    "positional extra argument": ("100 256 4 9", "unexpected argument '9'"),
    "--threads not a power of two": ("--threads=48", "--threads=48 must be a power of two"),
    "positional threads not a power of two": ("1000 100 4", "--threads=100 must be a power of two"),
    "--threads negative": ("--threads=-1", r"--threads=-1 is out of range \[0, 1024\]"),
    "--threads=2048 beyond every device's block limit": ("--threads=2048", "--threads=2048 is out of range"),
    "--threads non-numeric": ("--threads=1.5", "--threads expects an integer"),
    "--blocks negative": ("--blocks=-3", r"--blocks=-3 is out of range \[0, 2147483647\]"),
    "--blocks beyond the grid limit": ("--blocks=2147483648", "--blocks=2147483648 is out of range"),
    "--blocks non-numeric": ("--blocks=many", "--blocks expects an integer"),
    "--sp-blocks negative": ("--sp-blocks=-1", "--sp-blocks=-1 is out of range"),
    "--cpu-repeat=0": ("--cpu-repeat=0", "--cpu-repeat=0 is out of range"),
    "--offset=4": ("--offset=4", "--offset=4 is out of range"),
    "--data unknown": ("--data=zeros", "--data must be one of"),
    "--only unknown version": ("--only={a},no_such_version", "unknown version 'no_such_version'"),
    "--only names a version twice": ("--only={b},{a},{b}", "names version '{b}' twice"),
    "--csv-header is gone": ("--csv-header", "unknown option '--csv-header'"),
    "--pinned with a value": ("--pinned=1", "--pinned takes no value"),
    # --print-csv-header checks every other option first.
    "--print-csv-header, bad --threads": ("--print-csv-header --threads=48", "--threads=48 must be a power of two"),
    "--print-csv-header, missing --input": ("--print-csv-header --input={T}/missing.bin", "cannot open input file"),
    "--print-csv-header, --input and --n": ("--print-csv-header --input=/dev/null --n=5", "do not give --n with it"),
    # Input files: the file gives N (no --n, no positional N, no --data with it); its size is
    # checked from fstat before any byte is read; a FIFO is refused at once.
    "--input missing": ("--input={T}/missing.bin", "cannot open input file '{T}/missing.bin'"),
    "--input empty": ("--input={T}/empty.bin", "input file '{T}/empty.bin' is empty"),
    "--input not whole floats": ("--input={T}/five_bytes.bin", "has 5 bytes, not a whole number of 4-byte elements"),
    "--input with --n, even the file's own size": ("--input={T}/two_floats.bin --n=2",
                                                   "option --input sets the size from the file; do not give --n"),
    "--input with a positional N": ("--input={T}/two_floats.bin 2 32 1", "do not give --n"),
    "--input with --data": ("--input={T}/two_floats.bin --data=negative", "--input and --data exclude each other"),
    "a FIFO as --input": ("--input={T}/fifo", "is a FIFO"),
    # Output files.
    "--output in a missing folder": ("--n=10 --output={T}/no/such/m.bin", "cannot write output file '{T}/no/such/m.bin'"),
    "--csv in a missing folder": ("--n=10 --csv={T}/no/such/dir/x.csv", "cannot write CSV file"),
    "--csv with different columns": ("--n=10 --csv={T}/other.csv", "has different columns"),
}


@pytest.mark.parametrize("args,pattern", BAD.values(), ids=BAD.keys())
def test_bad_usage_exit_2_one_line(args, pattern, scratch):
    a, b = labels(NAME)[:2]
    usage_case([B], args, pattern, T=scratch, a=a, b=b)


@pytest.mark.parametrize("args", ["--threads=0 --blocks=0 --sp-blocks=0", "1000 0 0"], ids=["options", "positional"])
def test_zero_threads_and_blocks_mean_automatic(args):
    r = run([B, *args.split(), "--print-csv-header"])
    assert r.rc == 0 and r.out.startswith("assignment,"), r.tail()


def test_print_csv_header_alone_on_stdout_core_columns_first():
    r = run([B, "--print-csv-header"])
    assert r.rc == 0 and len(r.out.splitlines()) == 1 and not r.err, r.tail()
    assert re.match(r"assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,n,threads,"
                    r"blocks,kernel_ms,kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,"
                    r"result_ok,kernel,.*,kernel_ms_no_flush,copy_bw_GBps,input_ms,h2d_GBps,output_ms,total_gpu_ms,"
                    r"cpu_ms,gpu_gflops,cpu_gflops,speedup_gpu,rel_error,result,expected$", r.out), r.out


def test_a_9_gib_input_is_refused_from_its_size_before_reading(tmp_path):
    huge = tmp_path / "huge.bin"
    try:
        with open(huge, "wb") as f:
            f.truncate(9 << 30)  # sparse: more than 2^31-1 floats
    except OSError as e:
        pytest.skip(f"cannot create a sparse file in {tmp_path}: {e}")
    try:
        usage_error([B, f"--input={huge}"], "holds 2415919104 elements, more than 2147483647", timeout=10)
    finally:
        huge.unlink()


def test_exit_2_leaves_no_output_or_csv(tmp_path):
    new_bin, new_csv = tmp_path / "new.bin", tmp_path / "new.csv"
    usage_error([B, "--n=10", "--threads=3", f"--output={new_bin}", f"--csv={new_csv}"], "must be a power of two")
    assert not new_bin.exists() and not new_csv.exists(), os.listdir(tmp_path)


def test_no_gpu_exit_3_at_once_before_any_buffer_no_file_left(tmp_path):
    """--n=2^31-1 would fill 8 GiB first: exit 3 with one line in plain words comes before; no
    --output file, an existing --csv unchanged, no temporary file left."""
    existing, out = tmp_path / "existing.csv", tmp_path / "max.bin"
    existing.write_text(run([B, "--print-csv-header"]).out + f"vecmax,{labels(NAME)[0]},1,0,earlier,run\n")
    before = existing.read_bytes()
    r = run([B, "--n=2147483647", f"--csv={existing}", f"--output={out}"], timeout=10, env=NO_GPU)
    assert r.rc == 3, r.tail()
    assert len(r.err.splitlines()) == 1 and re.match(NO_GPU_LINE, r.err), r.tail()
    assert not re.search(r"^n=", r.out, re.M), "the data was made before the device probe"
    assert not out.exists() and existing.read_bytes() == before, os.listdir(tmp_path)
    assert not [p for p in os.listdir(tmp_path) if ".tmp." in p], os.listdir(tmp_path)


def test_no_gpu_with_a_valid_input_exit_3(scratch):
    r = run([B, f"--input={scratch}/two_floats.bin"], timeout=10, env=NO_GPU)
    assert r.rc == 3 and re.match(NO_GPU_LINE, r.err), r.tail()
