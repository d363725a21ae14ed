"""scan without a GPU: --help, --list-versions, --print-csv-header, every bad option or bad input
file (exit 2, one line on stderr, before any CUDA call), and, where no GPU is usable, exit 3 with
the runtime's message and no file written. The versions come from --list-versions."""
import csv
import os
import re
import shutil

import pytest
from cwtest import ROOT, gpu_reason, labels, need_built, program, run, usage_error, version_params, versions

NAME = "scan"
SCAN = program(NAME)
DEMOS = lambda v: not v.validated  # noqa: E731 (the report's racy kernels)
ONE_BLOCK = lambda v: "one_block" in v.tags  # noqa: E731 (versions that scan one block at most)


@pytest.fixture(autouse=True)
def built():
    need_built(SCAN)


def out(*args):
    r = run([SCAN, *args])
    assert r.rc == 0, r.tail()
    return r.out


def test_help_lists_every_option_and_the_shared_defaults():
    text = out("--help").replace("\n", " ")
    options = ("--n=N --sizes= --mode=inclusive|exclusive|both --data= --threads=N --per-thread=N --runs=N --lb-items= "
               "--la-kernel=auto|ws|lookback --l2= --repeat=N --warmup=N --seed=N --device=N --csv= --input= --output= "
               "--pinned --only= --print-csv-header --inject-fault").split()
    assert re.search(".*".join(map(re.escape, options)), text)
    assert re.search(r"--repeat=N .*default: 20\).*--warmup=N .*default: 3\).*--seed=N .*default: 1\)", text)


def test_list_versions_demonstrations_opt_in_the_rest_by_default():
    assert len(versions(NAME)) >= 7
    assert all(v.validated == v.default for v in versions(NAME)), out("--list-versions")
    assert len(labels(NAME, DEMOS)) >= 3  # the report's racy kernels


@pytest.mark.parametrize("v", version_params(NAME))
def test_only_one_version_is_planned(v):
    assert out(f"--only={v}", "--n=100", "--mode=inclusive", "--print-csv-header").startswith("assignment,version,")


def test_csv_header_core_columns_then_those_tables_and_plots_read():
    header = out("--print-csv-header").strip()
    assert header.startswith(
        "assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,n,threads,blocks,kernel_ms,"
        "kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,result_ok,mode,")
    read = ("mode data seed per_thread kernel_min_ms copy_bw_GBps model_bytes model_GBps cpu_ms speedup_vs_cpu "
            "h2d_ms d2h_ms total_ms mismatches first_mismatch runs wrong_runs mse mse_max sse k1_name k1_grid "
            "k1_block k1_regs k1_smem_bytes k1_blocks_per_sm k1_occupancy k1_waves k3_waves").split()
    assert not set(read) - set(header.split(","))


@pytest.mark.parametrize("args", [["--threads=0"], ["--inject-fault"]], ids=["threads_0_automatic", "inject_fault"])
def test_accepted_with_print_csv_header(args):
    assert out(*args, "--print-csv-header").startswith("assignment,")


BAD = [  # (arguments, what stderr says)
    ("--print-csv-header --n=0", "--n=0 is out of range"), ("--corrupt", "unknown option '--corrupt'"),
    ("--bogus", "unknown option"), ("-x", "unknown option"), ("--n=0", "--n=0 is out of range"),
    ("--n=-5", "out of range"), ("--n=abc", "expects an integer"), ("--n=2^31", "out of range"), ("0", "out of range"),
    ("100 200", "unexpected argument"), ("--n", "needs a value"),
    ("--n=5 --sizes=3", "options --sizes and --n exclude each other"), ("--sizes=10..2", "empty range"),
    ("--sizes=1,two", "expects an integer"), ("--sizes=1,,2", "empty item"), ("--sizes=1,2^31", "out of range"),
    ("--threads=100", "power of two"), ("--threads=2048", "out of range"), ("--threads=16", "out of range"),
    ("--per-thread=1", "out of range"), ("--runs=0", "out of range"), ("--repeat=0", "out of range"),
    ("--seed=2^32", r"--seed=2\^32 is out of range \[0, 4294967295\]"), ("--mode=both2", "must be one of"),
    ("--data=zeros", "must be one of"), ("--l2=cold", "must be one of"), ("--lb-items=8", "must be one of"),
    ("--la-kernel=cub", "must be one of"), ("--pinned=1", "takes no value")]


@pytest.mark.parametrize("args,pattern", BAD, ids=[a for a, _ in BAD])
def test_bad_option(args, pattern):
    usage_error([SCAN, *args.split()], pattern)


def test_unknown_version_and_version_named_twice():
    first, second = labels(NAME)[:2]
    usage_error([SCAN, f"--only={first},no_such_version"], "unknown version 'no_such_version'")
    usage_error([SCAN, f"--only={first},{second},{first}"], "twice")


@pytest.mark.parametrize("v", version_params(NAME, ONE_BLOCK))
def test_one_block_version_refuses_1025(v):
    usage_error([SCAN, f"--only={v}", "--n=1025"], f"{v} cannot run n=1025")
    usage_error([SCAN, f"--only={v}", "--sizes=1025..1030"], f"{v} cannot run n=1025")
    usage_error([SCAN, "--print-csv-header", f"--only={v}", "--n=1025"], f"{v} cannot run n=1025")


@pytest.mark.parametrize("v", version_params(NAME, lambda v: ONE_BLOCK(v) and v.validated))
def test_one_block_validated_version_refuses_more_than_threads(v):
    usage_error([SCAN, f"--only={v}", "--threads=32", "--n=33"], f"{v} cannot run n=33")


def test_demonstrations_have_no_exclusive_scan_and_no_output(tmp_path):
    demos = "--only=" + ",".join(labels(NAME, DEMOS))
    usage_error([SCAN, demos, "--mode=exclusive", "--n=100"], "nothing to run")
    usage_error([SCAN, demos, "--n=10", "--mode=inclusive", f"--output={tmp_path}/o.bin"], "validated version")


def test_bad_output_and_csv_paths(tmp_path):
    usage_error([SCAN, "--sizes=1,2", "--mode=inclusive", f"--output={tmp_path}/o.bin"], "single size")
    small = [SCAN, "--n=10", "--mode=inclusive"]
    usage_error(small + [f"--output={tmp_path}/no/such/dir/o.bin"], "cannot write output file")
    usage_error(small + [f"--output={tmp_path}"], f"output file '{tmp_path}' is a directory")
    usage_error([SCAN, "--n=10", f"--csv={tmp_path}/no/such/dir/r.csv"], "cannot write CSV")
    (tmp_path / "other.csv").write_text("version,n\ncub,1\n")
    usage_error([SCAN, "--n=10", f"--csv={tmp_path}/other.csv"], "has different columns")


def test_bad_input_files(tmp_path):
    (tmp_path / "empty.bin").write_bytes(b"")
    (tmp_path / "odd.bin").write_bytes(b"abcde")
    (tmp_path / "one.bin").write_bytes(b"\1\0\0\0")
    one = f"--input={tmp_path}/one.bin"
    for args, pattern in [([f"--input={tmp_path}/none.bin"], "cannot open input file"),
                          ([f"--input={tmp_path}/empty.bin"], "is empty"),
                          ([f"--input={tmp_path}/odd.bin"], "not a whole number"),
                          ([f"--input={tmp_path}"], "input file .* is a directory"),
                          ([one, "--n=1"], "do not give --n"), ([one, "5"], "do not give --n"),
                          ([one, "--sizes=1,2"], "do not give --sizes"),
                          ([one, "--data=iota"], "--input and --data exclude each other")]:
        usage_error([SCAN, *args], pattern)
    os.mkfifo(tmp_path / "fifo")
    usage_error([SCAN, f"--input={tmp_path}/fifo"], "is a FIFO", timeout=10)


def test_exit_2_creates_neither_output_nor_csv(tmp_path):
    r = run([SCAN, "--n=10", "--mode=inclusive", "--runs=0", f"--output={tmp_path}/o.bin", f"--csv={tmp_path}/r.csv"])
    assert r.rc == 2 and not os.listdir(tmp_path), r.tail()


def no_gpu():
    if not gpu_reason():
        pytest.skip("a usable GPU is present")


def test_no_gpu_exits_3_with_the_runtimes_message():
    no_gpu()
    r = run([SCAN, "--n=100"])
    assert r.rc == 3 and len(r.err.splitlines()) == 1, r.tail()
    assert re.match(r"scan: no usable CUDA GPU: .*\(CUDA error (100|35), ", r.err), r.err


def test_no_gpu_exit_3_leaves_no_output_and_an_existing_csv_unchanged(tmp_path):
    no_gpu()
    old = out("--print-csv-header") + "scan,cub,1,1,old row\n"
    (tmp_path / "old.csv").write_text(old)
    r = run([SCAN, "--n=10", "--mode=inclusive", f"--output={tmp_path}/o.bin", f"--csv={tmp_path}/old.csv"])
    assert r.rc == 3 and (tmp_path / "old.csv").read_text() == old, r.tail()
    assert os.listdir(tmp_path) == ["old.csv"], os.listdir(tmp_path)


def test_no_gpu_2_to_the_30_exits_3_before_filling_4_gib():
    no_gpu()
    r = run([SCAN, "--n=2^30", f"--only={labels(NAME, lambda v: v.baseline)[0]}", "--mode=inclusive"], timeout=20)
    assert r.rc == 3, r.tail()


def test_tables_of_a_run_name_its_gpu_on_each_launch_of_the_mse_table(tmp_path):
    """A run's tables (a runs/<gpu>/ folder: here the H100's reference CSVs alone, no h200/ beside them)
    say which GPU made them: the mse table names it on the row of each of its two launches."""
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    for path in (ROOT / NAME / "results").glob("*.csv"):
        shutil.copy2(path, run_dir)
    with open(run_dir / "table1_1.csv") as f:
        gpu = next(csv.DictReader(f))["device"]
    r = run(["python3", "tables.py", run_dir, "--out", tmp_path / "run.md"], cwd=ROOT / NAME)
    assert r.rc == 0, r.tail()
    mse = (tmp_path / "run.md").read_text().split("\n## mse\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in mse.splitlines() if line.startswith("| ")][2:]  # below the heading and its rule
    assert len(rows) == 2 and all(line.startswith(f"| {gpu} | ") for line in rows), mse
