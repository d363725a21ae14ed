"""Tier 2 of reduction_versions (GPU): each default version with every block size (64..1024) at awkward
sizes on seeded random signed data (CW_SEED=S repeats a data set), checked exactly against the CPU sum;
other data, grids, pinned memory, --input/--output, the CSV, a fault that must be caught, the
demonstrations, device state kept between launches, compute-sanitizer, the latency experiment and
make profile's recipe. Which versions a case is about comes from the registry's properties and tags."""
import csv
import os
import random
import re

import pytest
from cwtest import (ROOT, every_version_ran, fault_case, gpu_case, labels, make_print, need_built, need_gpu, program, run,
                    sanitize, version_params, versions)

pytestmark = pytest.mark.gpu
NAME = "reduction_versions"
P = program(NAME)
FAST = ["--repeat=1", "--warmup=0", "--l2=keep"]
SEED = os.environ.get("CW_SEED") or str(random.randrange(32768))  # a new data set each run, named in the command
DEFAULT = version_params(NAME, lambda v: v.default)
TAKES_BLOCKS = version_params(NAME, lambda v: "takes_blocks" in v.tags)  # --blocks sets their grid


def csv_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("sizes", ["1,31,32,33,255,256,257,1023,1025", "999983,8388608,2^28"], ids=["small", "large"])
@pytest.mark.parametrize("v", DEFAULT)
def test_every_block_size(v, sizes):
    gpu_case([P, f"--only={v}", f"--sizes={sizes}", "--threads=all", *FAST, f"--seed={SEED}"])


@pytest.mark.parametrize("data", ["negative", "extreme", "small", "iota"])
def test_other_data_every_version(data):
    gpu_case([P, "--sizes=1025,999983", "--threads=all", f"--data={data}", *FAST])


@pytest.mark.parametrize("blocks", [1, 3, 1000])
@pytest.mark.parametrize("v", TAKES_BLOCKS)
def test_blocks_sets_the_grid(v, blocks):
    gpu_case([P, f"--only={v}", "--sizes=257,999983", "--threads=all", f"--blocks={blocks}", *FAST])


@pytest.mark.parametrize("blocks", [0, 3, 1000])
@pytest.mark.parametrize("v", version_params(NAME, lambda v: "keeps_state" in v.tags))
def test_device_state_each_runner_on_4_inputs_in_a_row(v, blocks):
    """Version 8's self-resetting counter: each runner launched on 4 seeded inputs in a row, each checked
    (--vary-input=3); a runner has one size, so the sizes go down and up in one process, the counter
    passing between runners of other sizes and grids (n=1 is one block, which leaves it alone)."""
    gpu_case([P, f"--only={v}", "--sizes=1000003,4097,1,33,65537,8388608", "--threads=all", f"--blocks={blocks}",
              "--vary-input=3", "--repeat=2", "--warmup=1", f"--seed={SEED}"])


@pytest.mark.parametrize("args", ["--n=1000001 --pinned", "--sizes=1,65536,999983 --threads=0 --blocks=0"],
                         ids=["pinned", "automatic-block-size-and-grid"])
def test_every_version(args):
    gpu_case([P, *args.split(), *FAST])


def test_inject_fault_every_run_fails_and_no_file_is_written(tmp_path):
    fault_case([P, "--n=4097", "--inject-fault", f"--csv={tmp_path}/f.csv", f"--output={tmp_path}/f.bin", *FAST],
               tmp_path / "f.csv", tmp_path / "f.bin")


def test_input_file_summed_into_output(tmp_path):
    data = os.urandom(4 * 100003)
    (tmp_path / "in.bin").write_bytes(data)
    gpu_case([P, f"--input={tmp_path}/in.bin", f"--output={tmp_path}/out.bin", *FAST])
    want = sum(int.from_bytes(data[i:i + 4], "little", signed=True) for i in range(0, len(data), 4)) & 0xffffffff
    assert int.from_bytes((tmp_path / "out.bin").read_bytes(), "little") == want


def test_csv_one_row_per_planned_run_core_columns_first(tmp_path):
    r = gpu_case([P, "--sizes=100,5000", "--threads=64,512", f"--csv={tmp_path}/r.csv", *FAST])
    rows = csv_rows(tmp_path / "r.csv")
    assert len(rows) == int(re.search(r"^planned: (\d+) runs$", r.out, re.M)[1]), r.tail()
    assert (tmp_path / "r.csv").read_text().splitlines()[0] == run([P, "--print-csv-header"]).out.strip()
    assert {"kernel", "cpu_ms", "gpu_sum", "cpu_sum"} <= set(rows[0]) and {r["assignment"] for r in rows} == {NAME}


@pytest.mark.parametrize("v", version_params(NAME, lambda v: not v.validated))
def test_demonstration_labelled_never_counted_csv_validated_0(v, tmp_path):
    """The report's buggy originals (5-unfixed: version 5 as printed), named beside the baseline: their
    line says demonstration, never PASS or FAIL, their CSV rows say validated = 0."""
    r = gpu_case([P, f"--only={v},{','.join(labels(NAME, lambda b: b.baseline))}", "--n=8192", "--threads=256",
                  f"--csv={tmp_path}/u.csv", *FAST])
    line = re.search(rf"^{NAME} version={re.escape(v)} .*$", r.out, re.M)
    assert line and line[0].endswith(": demonstration, not validated") and "Result = " not in line[0], r.tail()
    assert {row["validated"] for row in csv_rows(tmp_path / "u.csv") if row["version"] == v} == {"0"}


def test_opt_in_versions_not_run_by_default():
    r = gpu_case([P, "--n=1024", *FAST])
    assert not [v.label for v in versions(NAME) if not v.default and f"version={v.label} " in r.out], r.tail()


def test_device_beyond_those_present_exit_2():
    need_gpu()
    assert run([P, "--device=1000", "--n=10"]).rc == 2


@pytest.mark.parametrize("tool,args", [pytest.param(t, a, id=t) for t, a in (
    ("memcheck", "--sizes=33,1025 --threads=all"), ("racecheck", "--n=1025 --threads=64,256,1024"),
    ("synccheck", "--n=1025 --threads=64,256,1024"))])
@pytest.mark.parametrize("v", DEFAULT)
def test_sanitizer(v, tool, args):
    sanitize(tool, [P, f"--only={v}", *args.split(), *FAST])


@pytest.mark.parametrize("v", TAKES_BLOCKS)
def test_memcheck_grid_of_3_blocks(v):
    sanitize("memcheck", [P, f"--only={v}", "--n=4099", "--threads=all", "--blocks=3", *FAST])


def test_memory_latency_shared_below_l2_below_dram(tmp_path):
    """make report's step 6: four rows, shared memory the fastest and DRAM the slowest (an ordering any
    GPU must show; the factors are what the README reports), the L2 clearly below DRAM (at most 0.8 of
    it: a chain that spilled to DRAM must fail, not pass on a lucky run). Up to three runs, each level's
    minimum over them: the GPU tier runs other folders' tests at once (gpu_session.sh CW_FOLDER_JOBS),
    and their traffic through the shared L2 (an L2 flush writes hundreds of MiB) can evict the 4 MiB
    chain mid-chase (seen on an H200: "L2" 824 cycles against DRAM's 716). Interference only adds
    latency, so the minimum is the GPU's own."""
    need_gpu()
    need_built(ROOT / NAME / "build/experiments/memory_latency")
    low = {}
    for attempt in range(3):
        r = run([ROOT / NAME / "build/experiments/memory_latency", tmp_path / f"lat{attempt}.csv"])
        assert r.rc == 0, r.tail()
        c = {row["memory"]: float(row["cycles_per_load"]) for row in csv_rows(tmp_path / f"lat{attempt}.csv")}
        assert sorted(c) == ["DRAM", "L1", "L2", "shared"] and min(c.values()) > 0, (c, r.tail())
        low = {k: min(v, low.get(k, v)) for k, v in c.items()}
        if low["shared"] < low["L2"] and low["L1"] < low["L2"] < 0.8 * low["DRAM"]:
            return
    pytest.fail(f"each level's minimum over three runs: {low}; expected shared, L1 < L2 < 0.8 x DRAM")


def test_make_profile_each_version_its_own_kernel(tmp_path):
    """make profile's recipe at n=65536: every default version; a kernel version through its registry
    filter (profile_kernels) on exactly one kernel, the grid the program reports for it, every metric of
    PROFILE_METRICS; the library baseline on its own kernels."""
    need_gpu()
    check = run(["bash", ROOT / "common/scripts/ncu_profile.sh", "--check"])
    if check.rc:
        pytest.skip(check.err.strip())
    r = run(["make", "-s", "-C", ROOT / NAME, "profile-experiments", f"RESULTS_DIR={tmp_path}", "PROFILE_N=65536"],
            timeout=900, env={**os.environ, "CW_PROFILE_LOG_DIR": str(tmp_path / "ncu")})
    assert r.rc == 0, r.tail()
    got = {}
    for row in csv_rows(tmp_path / "profile.csv"):
        got.setdefault(row["version"], {}).setdefault(row["kernel"], {})[row["metric"]] = float(row["value"])
    for v in (v for v in versions(NAME) if v.default):
        kernels = got.get(v.label, {})
        ok = len(kernels) == 1 and re.search(v.kernels, next(iter(kernels))) if v.kernels else any("Reduce" in k for k in kernels)
        assert ok, f"{v.label}: kernels {list(kernels)}"
        if v.kernels:
            counters = next(iter(kernels.values()))
            assert set(counters) == set(make_print(NAME, "PROFILE_METRICS").split(",")), f"{v.label}: {sorted(counters)}"
            log = (tmp_path / "ncu" / re.sub(r"[^\w.-]", "_", f"ncu-{NAME}-{v.label}-65536.log")).read_text()
            grid = re.search(rf"^{NAME} version={re.escape(v.label)} .*\bgrid=(\d+)", log, re.M)
            assert grid and counters["launch__grid_size"] == float(grid[1]), f"{v.label}: grid {counters['launch__grid_size']}"


def test_every_version_ran_a_case(request):
    every_version_ran(NAME, request)
