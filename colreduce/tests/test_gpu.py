"""Tier 2 of colreduce (GPU): every version at the issue's awkward sizes and the report's sizes, the
launch configurations of the versions that take --threads/--blocks, adversarial data, bitwise
repeatability, exact sums through --input/--output, new inputs launched on kept device state,
compute-sanitizer, the over-limit demonstration, make profile's path and --inject-fault. The program
checks every column against the CPU reference (bound m * 2^-52 * sum|a_ij|, README); timing does
not matter here: --repeat=1 --warmup=0, several sizes per process (--sizes)."""
import csv
import os
import re
import struct
from pathlib import Path

import pytest
from cwtest import (ROOT, every_version_ran, fault_case, gpu_case, labels, make_print, need_gpu, program, run,
                    sanitize, sanitizer, version_params, version_ran, versions)

pytestmark = pytest.mark.gpu
NAME = "colreduce"
CR = program(NAME)
FAST = ["--repeat=1", "--warmup=0"]
NS = [1, 3, 7, 8, 9, 32, 63, 64, 65, 1000]
SAN = "--sizes=1x1,15x3,16x8,17x9,33x65,100x1000,1000x63,5x1024"
# In the CUDA 11.8 legacy pack libcublas.so.11 is a stand-in without cuBLAS (tests/legacy_pack.sh
# writes this file there): every case leaves out the versions that need it, and one checks that
# they stop cleanly.
STAND_IN = (Path(__file__).parent / "cublas_stand_in").exists()


def runnable(where):
    return lambda v: where(v) and not (STAND_IN and "needs_cublas" in v.tags)


def tag(t):
    return lambda v: t in v.tags


DEFAULT = runnable(lambda v: v.default)


def only_these(where=DEFAULT):
    return "--only=" + ",".join(labels(NAME, runnable(where)))


def params(where):
    return version_params(NAME, runnable(where))


def sizes(ms, ns):
    return "--sizes=" + ",".join(f"{m}x{n}" for m in ms for n in ns)


def rows(path):
    return list(csv.DictReader(open(path)))


@pytest.mark.parametrize("v", params(DEFAULT))
def test_awkward_sizes_small_m_one_passing_csv_row_per_run(v, tmp_path):
    r = gpu_case([CR, sizes([1, 15, 16, 17, 1000], NS), *FAST, f"--only={v}", f"--csv={tmp_path}/s.csv"])
    got, planned = rows(tmp_path / "s.csv"), int(re.search(r"^planned: (\d+) runs$", r.out, re.M).group(1))
    assert len(got) == planned and all(x["result_ok"] == "1" for x in got), r.tail()
    assert all(float(x["context_ms"] or 0) > 0 for x in got), "context creation not measured on every row"


@pytest.mark.parametrize("args", [[sizes([160000], NS)], [sizes([1600003], NS[:-1])], ["1600003", "1000", "--pinned"]],
                         ids=["160000xN", "1600003xN", "1600003x1000_12.8GB_pinned"])
def test_every_version_large_m(args):
    gpu_case([CR, *args, *FAST, only_these()])


@pytest.mark.parametrize("v", params(DEFAULT))
def test_report_sizes(v):
    gpu_case([CR, "--sizes=" + make_print(NAME, "REPORT_SIZES"), *FAST, f"--only={v}"])


# From the smallest block (rounded to one multiple of q = n/gcd(n,2)) and a single block (every
# thread loops) to 1024 threads and more blocks than the data needs.
@pytest.mark.parametrize("threads,blocks,more", [
    pytest.param(t, b, more, id=f"{t}threads_{b}blocks") for t, b, more in
    [(1, 1, ",1600003x7"), (1, 1000, ""), (64, 3, ""), (96, 1000, ""), (1024, 1, ""), (1024, 7, ",1600003x7")]])
@pytest.mark.parametrize("v", params(tag("threads_blocks")))
def test_threads_blocks(v, threads, blocks, more):
    gpu_case([CR, f"--sizes=1x1,17x9,1000x63,33x1000,160000x65,999x1023,5x1024{more}", *FAST, f"--only={v}",
              f"--threads={threads}", f"--blocks={blocks}"])


@pytest.mark.parametrize("data", ["negative", "wide", "report"])
def test_adversarial_data(data):
    gpu_case([CR, "--sizes=1x1,17x9,1000x63,160000x8,16000x1000,1600003x3", *FAST, f"--data={data}", "--seed=5",
              only_these()])


@pytest.mark.parametrize("v", params(tag("bitwise_repeatable")))
def test_bitwise_repeatable_version_same_bits_in_5_runs_and_two_processes(v, tmp_path):
    gpu_case([CR, "--sizes=160000x8,1600003x63,1000x1000", "--repeat=5", "--warmup=0", f"--only={v}"])
    for k in (1, 2):
        gpu_case([CR, "1600003", "9", f"--only={v}", *FAST, f"--output={tmp_path}/{k}.bin"])
    assert (tmp_path / "1.bin").read_bytes() == (tmp_path / "2.bin").read_bytes() != b""


@pytest.mark.parametrize("v", params(lambda v: v.validated))
def test_input_output_exact_sums(v, tmp_path):
    m, n = 7, 5  # small integers: every version's sums are exact
    a = [[(i * 7 + j * 3) % 11 - 5 for j in range(n)] for i in range(m)]
    (tmp_path / "in.bin").write_bytes(struct.pack(f"<{m * n}d", *[x for row in a for x in row]))
    gpu_case([CR, f"--n={n}", f"--input={tmp_path}/in.bin", f"--output={tmp_path}/out.bin", f"--only={v}", *FAST])
    assert (tmp_path / "out.bin").read_bytes() == struct.pack(f"<{n}d", *[sum(c) for c in zip(*a)])


@pytest.mark.parametrize("v", params(tag("keeps_state")))
def test_state_kept_between_launches_follows_new_inputs(v):
    # --vary-input=3: after the checked run, the runner is launched on 3 more inputs in a row, the
    # later ones on the device state the earlier launches left (colreduce_versions.cu, input_changed).
    for launch in ([], ["--threads=96", "--blocks=5"]):
        gpu_case([CR, "--sizes=1600003x9,1025x33,17x9,1x1", "--vary-input=3", "--repeat=2", "--warmup=1", f"--only={v}",
                  *launch])


# memcheck on every version; racecheck on ours and the report's kernels (shared memory, atomics,
# __syncthreads); memcheck and synccheck of the versions --threads/--blocks set, at odd shapes.
SANITIZED = [("memcheck", DEFAULT, []), ("racecheck", lambda v: v.default and not v.baseline, []),
             ("memcheck", tag("threads_blocks"), ["--threads=1", "--blocks=3"]),
             ("synccheck", tag("threads_blocks"), ["--threads=96", "--blocks=2"])]


@pytest.mark.parametrize("tool,v,extra", [pytest.param(t, v, x, id="-".join([t, v] + [a.strip("-") for a in x]))
                                          for t, where, x in SANITIZED for v in labels(NAME, runnable(where))])
def test_sanitizer(tool, v, extra):
    sanitize(tool, [CR, SAN, *FAST, f"--only={v}", *extra])


def test_over_limit_demonstration_fails_its_launch_beside_block_per_column_passing(tmp_path):
    """The report's third idea (block_per_column, 1024 threads) passes; its demonstration with 2048
    threads (launch unchecked, not validated) exits 0, its rows naming the launch error (any but
    cudaSuccess), every column wrong (the memset's zeros), the device limit 1024."""
    sz = ["1x1", "17x9", "1000x63", "160000x8", "1600003x64", "5x1024"]
    r = gpu_case([CR, "--sizes=" + ",".join(sz), *FAST, only_these(tag("over_limit")), f"--csv={tmp_path}/bpc.csv"])
    got = rows(tmp_path / "bpc.csv")
    assert len(got) == len(sz) * len(labels(NAME, tag("over_limit"))), r.tail()
    for x in got:
        if x["validated"] == "1":
            assert x["launch_error"] == "cudaSuccess" and x["result_ok"] == "1", x
        else:
            assert x["launch_error"].startswith("cudaError") and x["result_ok"] == x["validated"] == "0", x
            assert x["wrong_columns"] == x["n"] and x["max_threads_per_block"] == "1024", x
    assert "launch failed, not checked" in r.out, r.tail()


@pytest.mark.parametrize("v", params(lambda v: "over_limit" in v.tags and not v.validated))
def test_memcheck_over_limit_demonstration_reports_only_its_launch_error(v):
    need_gpu()
    if not sanitizer():
        pytest.skip("compute-sanitizer not found")
    r = run([sanitizer(), "--tool", "memcheck", CR, "--sizes=17x9,1000x63", *FAST, f"--only={v}"])
    assert r.rc == 0 and "Program hit cudaError" in r.out, r.tail()
    assert not re.search(r"Invalid __global__|Out-of-range|Address .* is out of bounds|Misaligned", r.out), r.tail()


@pytest.mark.parametrize("v", params(DEFAULT))
def test_profile_path_dram_rows_with_the_registry_kernel_filter(v, tmp_path):
    """make profile's path: ncu_profile.sh, the Makefile's metrics, the version's kernel filter from
    the registry (a library call: every kernel, the Makefile's exclusions), tidy rows with DRAM."""
    need_gpu()
    check = run(["bash", ROOT / "common/scripts/ncu_profile.sh", "--check"])
    if check.rc:
        pytest.skip(check.err.strip())
    kernels = next(x.kernels for x in versions(NAME) if x.label == v)
    env = dict(os.environ, CW_PROFILE_LOG_DIR=str(tmp_path / "log"),
               CW_NCU_EXCLUDE="" if kernels else make_print(NAME, "PROFILE_LIBRARY_EXCLUDE"))
    filt = ["--kernel-name", f"regex:{kernels}"] if kernels else []
    r = run(["bash", ROOT / "common/scripts/ncu_profile.sh", tmp_path / "p.csv", NAME, v, 16000, 8,
             make_print(NAME, "PROFILE_METRICS"), "--print-units", "base", *filt, CR, f"--only={v}", 16000, 8, *FAST],
            600, env=env)
    assert r.rc == 0, r.tail()
    assert re.search(rf"^{NAME},{v},.*,16000,8,dram__throughput.avg.pct_of_peak_sustained_elapsed,",
                     (tmp_path / "p.csv").read_text(), re.M), r.tail()


@pytest.mark.parametrize("v", params(lambda v: v.validated))
def test_inject_fault_fails_every_run_and_writes_no_file(v, tmp_path):
    csv_, out = tmp_path / "fault.csv", tmp_path / "fault.bin"
    fault_case([CR, 1000, 63, *FAST, f"--only={v}", "--inject-fault", f"--csv={csv_}", f"--output={out}"], csv_, out)


@pytest.mark.skipif(not STAND_IN, reason="the stand-in libcublas.so.11 of the CUDA 11.8 legacy pack only")
@pytest.mark.parametrize("v", version_params(NAME, tag("needs_cublas")))
def test_needs_cublas_with_the_stand_in_library_stops_with_one_cublas_line(v):
    need_gpu()
    r = run([CR, 1000, 8, f"--only={v}", *FAST])
    assert r.rc == 3 and len(r.err.splitlines()) == 1, r.tail()
    assert "cuBLAS error 1 (CUBLAS_STATUS_NOT_INITIALIZED (stand-in" in r.err, r.tail()
    version_ran([(NAME, v)])  # its case in this build (every_version_ran)


def test_every_version_ran_a_case(request):
    every_version_ran(NAME, request)
