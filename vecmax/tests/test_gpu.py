"""vecmax, tier 2 (GPU): every version (--only=V: the ids name it) at the awkward sizes under
several launch shapes (grids larger than n included), random and adversarial data, misaligned
starts, NaN and -inf, pinned memory; the result slots of a version that keeps state between
launches; files in and out; the CSV; --inject-fault; compute-sanitizer; make profile's recipe.
Each run checks its versions exactly against the CPU maximum, and gpu_case counts the results
against the program's "planned: N runs". Without a GPU every case is skipped with the reason."""
import csv
import math
import re
import struct

import pytest
import cwprofile
from cwprofile import profile_experiments
from cwtest import (every_version_ran, fault_case, gpu_case, labels, need_gpu, only, program,
                    run, sanitize, version_params, versions)

pytestmark = pytest.mark.gpu
NAME = "vecmax"
B = program(NAME)
Q = ["--repeat=1", "--warmup=0", "--cpu-repeat=1"]
SIZES = [1, 31, 32, 33, 1023, 1025, 999983]
# At each size, launch shapes and data: --threads/--blocks shape version report, --sp-blocks
# version single_pass; --offset=K puts the data K floats past a 16-byte boundary (the single-pass
# kernel's scalar head) and n % 4 != 0 exercises its tail.
SHAPES = {
    "uniform-32x1": "--threads=32 --blocks=1 --data=uniform --seed={n}",
    "negative-1024x128-sp300-grids_above_n": "--threads=1024 --blocks=128 --sp-blocks=300 --data=negative --seed={n}",
    "spike_last-offset1-64x7": "--threads=64 --blocks=7 --offset=1 --data=spike_last",
    "spike_first-offset3-1x3-sp2": "--threads=1 --blocks=3 --sp-blocks=2 --offset=3 --data=spike_first",
    "spike_random-offset2-256x1000": "--threads=256 --blocks=1000 --offset=2 --data=spike --seed={n7}",
}
CASES = {f"n={n}-{name}": args.format(n=n, n7=n + 7) for n in SIZES for name, args in SHAPES.items()} | {
    # The report's size, the automatic shapes, a misaligned start with a 3-float tail.
    "n=40960000-automatic_shapes": "--n=40960000",
    "n=999983-zero_means_automatic": "--n=999983 --threads=0 --blocks=0 --sp-blocks=0 --data=spike_last --offset=1",
    "n=40960000-spike_last-offset3-512x4000": "--n=40960000 --threads=512 --blocks=4000 --offset=3 --data=spike_last",
    "n=40960001-negative-32x4_positional": "40960001 32 4 --data=negative",  # the report's slowest shape
    # NaN anywhere gives NaN in every version; all -inf gives -inf (not CUB Max's -FLT_MAX).
    "n=1025-nan": "--n=1025 --threads=128 --blocks=3 --data=nan",
    "n=999983-nan-sp64": "--n=999983 --sp-blocks=64 --data=nan --seed=5",
    "n=33-neg_inf": "--n=33 --threads=32 --blocks=2 --data=neg_inf",
    "n=999983-pinned": "--n=999983 --pinned --data=spike",
}


def planned(r):
    return int(re.search(r"^planned: (\d+) runs$", r.out, re.M).group(1))


@pytest.mark.parametrize("args", CASES.values(), ids=CASES.keys())
@pytest.mark.parametrize("v", version_params(NAME))
def test_version(v, args):
    gpu_case([B, f"--only={v}", *args.split(), *Q])


# A run launches each version warmup + 2 x repeat times before fetching: 2, 3, 8 and 9 here.
LAUNCHES = {"2_launches": "--repeat=1 --warmup=0", "3_launches": "--repeat=1 --warmup=1",
            "8_launches": "--repeat=3 --warmup=2", "9_launches": "--repeat=3 --warmup=3"}


@pytest.mark.parametrize("launches", LAUNCHES.values(), ids=LAUNCHES.keys())
@pytest.mark.parametrize("v", version_params(NAME, lambda v: "keeps_state" in v.tags))
def test_state_kept_between_launches_after_even_and_odd_counts(v, launches):
    """single_pass keeps its result in one of two slots, alternating per launch: the result is the
    last launch's after an even and after an odd number of launches."""
    gpu_case([B, "--n=999983", f"--only={v}", "--data=spike", "--seed=9", *launches.split(), "--cpu-repeat=1"])


# --input/--output against a maximum computed here: all negative with the maximum last (n = 1001:
# a 1-float tail), and the same with a NaN.
NEGATIVE = [-1.5 - (i % 97) * 0.25 for i in range(1000)] + [-1.25]
NEGATIVE[500] = float("-inf")
WITH_NAN = NEGATIVE[:17] + [float("nan")] + NEGATIVE[18:]
FILES = {"all_negative_max_last": (NEGATIVE, lambda x: x == max(NEGATIVE)), "nan": (WITH_NAN, math.isnan)}


@pytest.mark.parametrize("values,check", FILES.values(), ids=FILES.keys())
@pytest.mark.parametrize("v", version_params(NAME))
def test_input_output_against_a_maximum_computed_here(v, values, check, tmp_path):
    (tmp_path / "in.bin").write_bytes(struct.pack(f"<{len(values)}f", *values))
    gpu_case([B, f"--only={v}", f"--input={tmp_path}/in.bin", f"--output={tmp_path}/out.bin", "--threads=16",
              "--blocks=5", *Q])
    got = (tmp_path / "out.bin").read_bytes()
    assert len(got) == 4 and check(struct.unpack("<f", got)[0]), f"--output holds {got!r}"


def test_csv_one_row_per_planned_run_header_once(tmp_path):
    """Rows are appended at the end of each successful run, the header once (what the Slurm gather
    relies on): two runs of the sweep's versions (sweep_configs.txt), one of every version; every
    row result_ok=1, threads and blocks empty exactly for a version that picks its own launch."""
    sweep = re.search(r"^# vecmax-args: .*?(--only=\S+)", (B.parents[1] / "sweep_configs.txt").read_text(), re.M)[1]
    out, rows = tmp_path / "sweep.csv", 0
    for args in (["--threads=32", "--blocks=4", sweep], ["--threads=1024", "--blocks=128", sweep], [only(NAME)]):
        rows += planned(gpu_case([B, "--n=4099", *args, f"--csv={out}", *Q]))
    lines = out.read_text().splitlines()
    assert len(lines) == rows + 1 and sum(l.startswith("assignment,") for l in lines) == 1, lines[:3]
    own = labels(NAME, lambda v: "own_launch" in v.tags)
    bad = [r for r in csv.DictReader(lines) if r["result_ok"] != "1" or (r["threads"] == "") != (r["version"] in own)]
    assert not bad, bad


def test_inject_fault_every_version_fails_no_file_written(tmp_path):
    csv_file, out = tmp_path / "fault.csv", tmp_path / "fault.bin"
    fault_case([B, "--n=1025", "--inject-fault", only(NAME, lambda v: v.validated), f"--csv={csv_file}",
                f"--output={out}", *Q], csv_file, out)


@pytest.mark.parametrize("v", version_params(NAME, lambda v: v.validated and not v.baseline))
def test_inject_fault_with_the_baseline_left_out(v, tmp_path):
    """A baseline left out by --only runs for its time alone (no fault planted in it): V still FAILs."""
    csv_file, out = tmp_path / "fault.csv", tmp_path / "fault.bin"
    fault_case([B, "--n=1025", "--inject-fault", f"--only={v}", f"--csv={csv_file}", f"--output={out}", *Q],
               csv_file, out)


def test_device_beyond_the_devices_present_exit_2():
    need_gpu()
    r = run([B, "--n=10", "--device=1000", *Q])
    assert r.rc == 2, r.tail()


# compute-sanitizer at small sizes.
SANITIZE = {
    "memcheck-n=1025-offset1": ("memcheck", "--n=1025 --offset=1 --threads=64 --blocks=3 --sp-blocks=8 "
                                            "--data=spike_last"),
    "memcheck-n=33-offset3-grids_above_n": ("memcheck", "--n=33 --offset=3 --threads=1024 --blocks=40 --sp-blocks=20 "
                                                        "--data=negative"),
    "racecheck-n=5003": ("racecheck", "--n=5003 --threads=128 --blocks=4 --sp-blocks=4"),
    "synccheck-n=5003": ("synccheck", "--n=5003 --threads=256 --blocks=2 --sp-blocks=3"),
}


@pytest.mark.parametrize("tool,args", SANITIZE.values(), ids=SANITIZE.keys())
@pytest.mark.parametrize("v", version_params(NAME, lambda v: v.validated))
def test_sanitizer(v, tool, args):
    sanitize(tool, [B, f"--only={v}", *args.split(), *Q])


def test_make_profile_at_n_2_20_every_metric_of_every_default_version(tmp_path):
    """make profile's recipe at n = 2^20: each default version has its own kernel(s) (profile_kernels;
    two for profile_two_kernels), each with a row of every metric; dram_sol.gp and tables.py use it."""
    rows, metrics = profile_experiments(NAME, tmp_path, "dram_sol", "*.csv", PROFILE_SIZES=1048576), cwprofile.metrics(NAME)
    for v in (v for v in versions(NAME) if v.default):
        mine = [r for r in rows if r["version"] == v.label]
        kernels = sorted({r["kernel"] for r in mine})
        assert len(kernels) == (2 if "profile_two_kernels" in v.tags else 1), f"{v.label}: kernels {kernels}"
        assert all(re.search(v.kernels, k) for k in kernels), f"{v.label}: kernels {kernels} against /{v.kernels}/"
        for k in kernels:
            missing = set(metrics) - {r["metric"] for r in mine if r["kernel"] == k}
            assert not missing, f"{v.label} {k} lacks {sorted(missing)}"
        assert all(r["n"] == "1048576" for r in mine), f"{v.label}: n"


def test_every_version_ran_a_case(request):
    every_version_ran(NAME, request)
