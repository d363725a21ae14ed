"""pi, tier 1 (no GPU): --help; every bad option and bad input file gives exit 2 with one line on
stderr, before any CUDA call; --print-csv-header; valid command lines reach the device (exit 3
without one) and leave no file behind; the CPU versions run and validate without a GPU."""
import csv
import os
import re
import struct

import pytest
import cwtest
from cwtest import usage_case, gpu_reason, labels, need_built, only, program, run, usage_error, version_params, versions

NAME = "pi"
P = program(NAME)
NO_GPU = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}  # hides every GPU: the same on a GPU machine
Q = ["--repeat=1", "--warmup=0", "--cpu-repeat=1"]
FILES = {"empty.bin": b"", "seven.bin": b"1234567", "zero.bin": struct.pack("<3q", 64, 0, 128),
         "big.bin": struct.pack("<2q", 64, 1 << 40), "sizes.bin": struct.pack("<2q", 64, 65), "other.csv": b"a,b\n"}


@pytest.fixture(autouse=True)
def built():
    need_built(P)


@pytest.fixture
def scratch(tmp_path):
    """The input files the rules are about, a CSV of other columns, a FIFO."""
    return cwtest.scratch(tmp_path, FILES)


def help_text():
    return cwtest.help_text(NAME)


def a_gpu_version():
    return labels(NAME, lambda v: not v.host)[0]


def test_help_lists_every_option_and_no_seed_or_data_and_says_why():
    text = help_text()
    assert re.search(r"--niter=N.*--sizes=.*--chunk=N.*--threads=N.*--blocks=N.*--precision=float\|double\|both.*"
                     r"--cpu-threads=N.*--cpu-repeat=N.*--repeat=N.*--warmup=N.*--device=N.*--csv=.*--input=.*"
                     r"--output=.*--pinned.*--only=.*--print-csv-header.*--inject-fault", text.replace("\n", " "))
    assert not re.search(r"--(seed|data)=", text)
    assert re.search(r"no random data .*no seed option and no data option", text)


# Bad usage and input: {case: (arguments, the one line on stderr)}; {T} is the scratch folder, {a}
# and {b} two labels of the registry.
BAD = {
    "--seed is not an option of pi": ("--seed=1", "unknown option '--seed'"),
    "unknown option": ("--bogus", "unknown option '--bogus'"),
    "--niter=0": ("--niter=0", "--niter=0 is out of range"), "--niter<0": ("--niter=-5", "--niter=-5 is out of range"),
    "--niter not a number": ("--niter=abc", "--niter expects an integer"),
    "--niter above 2^34": ("--niter=2^35", r"--niter=2\^35 is out of range"),
    "--niter without a value": ("--niter", "--niter needs a value"),
    "--chunk=0": ("--chunk=0", "--chunk=0 is out of range"),
    "--threads not a power of two": ("--threads=48", r"--threads=48 must be 0 \(automatic\) or a power of two"),
    "--threads below a warp": ("--threads=16", r"--threads=16 must be 0 \(automatic\) or a power of two"),
    "--threads above 1024": ("--threads=2048", "--threads=2048 is out of range"),
    "--blocks negative": ("--blocks=-1", "--blocks=-1 is out of range"),
    "--precision=half": ("--precision=half", r"--precision must be one of float\|double\|both"),
    "--cpu-threads negative": ("--cpu-threads=-1", "--cpu-threads=-1 is out of range"),
    "--repeat=0": ("--repeat=0", "--repeat=0 is out of range"),
    "--only with an unknown version": ("--only={a},no_such_version", "unknown version 'no_such_version'"),
    "--only naming a version twice": ("--only={b},{a},{b}", "names version '{b}' twice"),
    "--only with an empty item": ("--only={a},,{b}", "--only='{a},,{b}' has an empty item"),
    "--pinned takes no value": ("--pinned=1", "--pinned takes no value"),
    "--sizes with a bad item": ("--sizes=64,x,128", "--sizes expects an integer"),
    "--sizes with 0": ("--sizes=64,0", "--sizes=0 is out of range"),
    "--sizes with an empty item": ("--sizes=64,,128", "--sizes='64,,128' has an empty item"),
    "--sizes with an empty range": ("--sizes=9..3", "empty range '9..3'"),
    "--niter and --sizes": ("--niter=64 --sizes=64,128", "options --sizes and --niter exclude each other"),
    "positional NITER and --sizes": ("64 --sizes=64,128", "options --sizes and --niter exclude each other"),
    "the old --niters is gone": ("--niters=64", "unknown option '--niters'"),
    "a third positional argument": ("1024 64 7", "unexpected argument '7'"),
    "positional NITER not a number": ("lots", "--niter expects an integer"),
    "--input missing": ("--input={T}/none.bin", "cannot open input file '{T}/none.bin'"),
    "--input empty": ("--input={T}/empty.bin", "input file '.*empty.bin' is empty"),
    "--input not whole int64s": ("--input={T}/seven.bin", "has 7 bytes, not a whole number of 8-byte"),
    "--input holding NITER 0": ("--input={T}/zero.bin", "holds NITER 0, outside"),
    "--input holding NITER 2^40": ("--input={T}/big.bin", "holds NITER 1099511627776, outside"),
    "--input with --niter": ("--input={T}/sizes.bin --niter=64", "do not give --niter with it"),
    "--input with positional NITER": ("64 --input={T}/sizes.bin", "do not give --niter with it"),
    "--input with --sizes": ("--input={T}/sizes.bin --sizes=64", "do not give --sizes with it"),
    "a FIFO as --input is refused at once": ("--input={T}/fifo", "is a FIFO"),
    "--csv unwritable": ("--niter=64 --csv=/nonexistent/x.csv", "cannot write CSV file '/nonexistent/x.csv'"),
    "--csv with other columns": ("--niter=64 --csv={T}/other.csv", "has different columns"),
    "--output unwritable": ("--niter=64 --output=/nonexistent/x.bin", "cannot write output file '/nonexistent/x.bin'"),
    "--output a directory": ("--niter=64 --output={T}", "output file '{T}' is a directory"),
    "--print-csv-header with a bad option": ("--print-csv-header --niter=0", "--niter=0 is out of range"),
    "--print-csv-header with a bad --input": ("--print-csv-header --input={T}/fifo", "is a FIFO"),
}


@pytest.mark.parametrize("args,pattern", BAD.values(), ids=BAD.keys())
def test_bad_usage_exit_2_one_line(args, pattern, scratch):
    a, b = labels(NAME)[:2]
    usage_case([P], args, pattern, T=scratch, a=a, b=b)


# The CPU versions' thread count from the environment (OMP_NUM_THREADS, else SLURM_CPUS_PER_TASK) is
# bounded like --cpu-threads, [1, 4096]: libgomp would start 100000 threads and crash (SIGSEGV) or
# stop in its own "Thread creation failed" at 40000. One line naming the variable, exit 2. Likewise
# a list with an empty or bad item (OMP_NUM_THREADS: a count per nesting level) and a list where one
# count is meant (SLURM_CPUS_PER_TASK): refused whole, not read up to the first comma.
@pytest.mark.parametrize("variable,value", [("OMP_NUM_THREADS", "100000"), ("OMP_NUM_THREADS", "40000"),
                                            ("OMP_NUM_THREADS", "4097"), ("SLURM_CPUS_PER_TASK", "5000"),
                                            ("OMP_NUM_THREADS", "8,"), ("OMP_NUM_THREADS", "8,,2"),
                                            ("OMP_NUM_THREADS", ",8"), ("OMP_NUM_THREADS", "8,x"),
                                            ("SLURM_CPUS_PER_TASK", "8,"), ("SLURM_CPUS_PER_TASK", "8,2")])
def test_thread_count_from_the_environment_past_the_bound_exit_2_one_line(variable, value):
    env = {**NO_GPU, variable: value}
    env.pop("OMP_NUM_THREADS" if variable != "OMP_NUM_THREADS" else "SLURM_CPUS_PER_TASK", None)
    usage_error([P, "--niter=1000", "--only=cpu", *Q], rf"environment variable {variable}={value}: .*must be in \[1, 4096\], "
                r"as --cpu-threads", env=env)


# A value libgomp cannot take: libgomp's own warning, printed before main ("libgomp: Invalid value for
# environment variable OMP_NUM_THREADS", after an empty line), must not come beside pi's one line
# (main.cu hides the variable from libgomp's constructor).
@pytest.mark.parametrize("value", ["abc", "0", "-1", " ", "\x1b[2J"])
def test_thread_count_from_the_environment_libgomp_cannot_take_one_line(value):
    env = {**NO_GPU, "OMP_NUM_THREADS": value}
    env.pop("SLURM_CPUS_PER_TASK", None)
    usage_error([P, "--niter=1000", "--only=cpu", *Q], r"^pi: error: environment variable OMP_NUM_THREADS=.*must be in "
                r"\[1, 4096\]", env=env)


def test_thread_count_from_the_environment_in_range_or_overridden_runs():
    env = {**NO_GPU, "OMP_NUM_THREADS": "2,1"}
    r = run([P, "--niter=1000", "--only=cpu_omp", *Q], env=env)
    assert r.rc == 0 and "cpu_threads=2 from OMP_NUM_THREADS" in r.out, r.tail()
    r = run([P, "--niter=1000", "--only=cpu_omp", "--cpu-threads=3", *Q], env={**env, "OMP_NUM_THREADS": "100000"})
    assert r.rc == 0 and "cpu_threads=3 " in r.out, r.tail()


@pytest.mark.parametrize("v", version_params(NAME, lambda v: "float_only" in v.tags))
def test_float_only_version_in_double_runs_nothing(v):
    usage_error([P, f"--only={v}", "--precision=double"], rf"runs nothing \({v} exists in float only\)")


@pytest.mark.parametrize("v", version_params(NAME, lambda v: "int_niter" in v.tags))
def test_int_niter_version_refuses_niter_above_int(v):
    usage_error([P, "--niter=2^31", f"--only={v}"], f"{v} takes NITER <= 2147483647")


def test_print_csv_header_core_columns_then_precision_and_abs_error_accepted_by_csv(tmp_path):
    r = run([P, "--print-csv-header"])
    assert r.rc == 0 and re.match(
        r"assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,n,threads,blocks,kernel_ms,"
        r"kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,result_ok,precision,abs_error,"
        r".*,estimate,.*,tolerance,truncation_error$", r.out), r.tail()
    (tmp_path / "same.csv").write_text(r.out)
    r = run([P, "--print-csv-header", f"--csv={tmp_path}/same.csv"])
    assert r.rc == 0 and r.out.startswith("assignment,"), r.tail()


# Valid command lines get past the checks: with a GPU they pass, without one they end with exit 3
# and the runtime's message, never 2. niter = 65 with chunk = 64: the last chunk is clamped.
VALID = {
    "niter=65-chunk=64": lambda T: "--niter=65 --chunk=64",
    "positional_NITER_CHUNK": lambda T: "1000 7",
    "sizes-float-every_version": lambda T: "--sizes=1,63,1025 --precision=float " + only(NAME),
    "sizes_range-automatic_launch": lambda T: "--sizes=63..65 --threads=0 --blocks=0",
    "input-opt_in_versions_and_a_gpu_one":
        lambda T: f"--input={T}/sizes.bin " + only(NAME, lambda v: not v.default or v.label == a_gpu_version()),
}


@pytest.mark.parametrize("args", VALID.values(), ids=VALID.keys())
def test_valid_command_line_passes_or_exit_3_without_a_gpu(args, scratch):
    r = run([P, *args(scratch).split(), *Q])
    if gpu_reason():
        assert r.rc == 3 and re.match(r"^pi: no usable CUDA GPU: .*\(CUDA error (100|35), ", r.err), r.tail()
    else:
        assert r.rc == 0, r.tail()


def test_exit_3_creates_no_output_or_csv_and_keeps_an_existing_csv(tmp_path):
    out, new_csv, kept = tmp_path / "never.bin", tmp_path / "never.csv", tmp_path / "kept.csv"
    r = run([P, "--niter=64", f"--output={out}", f"--csv={new_csv}"], env=NO_GPU)
    assert r.rc == 3 and not out.exists() and not new_csv.exists(), r.tail()
    assert not [p for p in os.listdir(tmp_path) if ".tmp." in p], os.listdir(tmp_path)
    kept.write_text(run([P, "--print-csv-header"]).out + f"pi,{a_gpu_version()},1,0,dev,9.0,13.0,13.0,64,256,1\n")
    before = kept.read_bytes()
    r = run([P, "--niter=64", f"--csv={kept}"], env=NO_GPU)
    assert r.rc == 3 and kept.read_bytes() == before, r.tail()


def test_exit_2_creates_no_output(tmp_path):
    r = run([P, "--niter=0", f"--output={tmp_path}/bad.bin"])
    assert r.rc == 2 and not (tmp_path / "bad.bin").exists(), r.tail()


def test_host_versions_run_and_validate_without_a_gpu(tmp_path):
    """A run of the CPU versions alone makes no CUDA call: exit 0, every run PASS (each version in both
    precisions, a float_only one in float), no CUDA named, the CSV rows (device empty) and --output written."""
    out, rows_csv, sizes = tmp_path / "cpu.bin", tmp_path / "cpu.csv", [1, 63, 1025]
    r = run([P, only(NAME, lambda v: v.host), f"--sizes={','.join(map(str, sizes))}", "--cpu-repeat=1",
             f"--csv={rows_csv}", f"--output={out}"], env=NO_GPU)
    runs = len(sizes) * sum(1 if "float_only" in v.tags else 2 for v in versions(NAME) if v.host)
    assert r.rc == 0 and r.out.count("Result = PASS") == runs and "Result = FAIL" not in r.out, r.tail()
    assert not re.search("cuda", r.out + r.err, re.I), r.tail()
    rows = list(csv.DictReader(open(rows_csv)))
    assert len(rows) == runs and not [x for x in rows if x["device"]] and out.stat().st_size == 8 * runs


def test_host_versions_alone_are_validated_without_a_gpu():
    r = run([P, only(NAME, lambda v: v.host), "--niter=1025", "--cpu-repeat=1", "--inject-fault"], env=NO_GPU)
    assert r.rc == 1, r.tail()


def test_a_gpu_version_beside_the_host_versions_still_needs_a_gpu():
    r = run([P, only(NAME, lambda v: v.host or v.label == a_gpu_version()), "--niter=1025", "--cpu-repeat=1"],
            env=NO_GPU)
    assert r.rc == 3 and r.err.startswith("pi: no usable CUDA GPU") and "Result = " not in r.out, r.tail()


@pytest.mark.parametrize("v", version_params(NAME, lambda v: v.host))
def test_host_version_alone_at_awkward_sizes(v):
    """Each CPU version by itself (no GPU: none is probed), every size PASS, in each precision it has."""
    r = run([P, f"--only={v}", "--sizes=1,2,63,1025,1000003", "--precision=both", "--cpu-repeat=1"], env=NO_GPU)
    planned = re.search(r"^planned: (\d+) runs$", r.out, re.M)
    runs = 5 * (1 if v in labels(NAME, lambda x: "float_only" in x.tags) else 2)  # 5 sizes, each precision it has
    assert r.rc == 0 and planned and int(planned[1]) == runs == r.out.count("Result = PASS"), r.tail()
