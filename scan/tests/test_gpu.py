"""scan on a GPU: every version at awkward sizes, inclusive and exclusive, several launch
configurations, random data with negatives, wrap-around and extreme inputs, exact equality with
the CPU (gpu_case counts the program's "planned: N runs"); the report's n = 33 result;
--input/--output; --inject-fault; compute-sanitizer; lookahead's two kernels (the warp-specialised
one forced, and each side of its policy's threshold); one runner launched on inputs of changing
sizes (--vary-input); Nsight Compute on `make profile`'s shapes. Versions come from --list-versions
and its tags (scan_versions.cu says what each tag means); each case skips without a GPU."""
import csv
import os
import re

import pytest
from cwtest import (ROOT, every_version_ran, fault_case, gpu_case, labels, make_print, need_built, need_gpu, program,
                    run, sanitize, version_params, versions)

pytestmark = pytest.mark.gpu
NAME = "scan"
SCAN = program(NAME)
QUICK = ["--repeat=1", "--warmup=0", "--runs=1", "--l2=keep"]
AWKWARD = "--sizes=1,2,31,32,33,1023,1024,1025,65537,999983"
K_MIN_N = int(re.search(r"kMinN = (\d+);", (ROOT / NAME / "scan_policy.h").read_text()).group(1))  # lookahead's threshold


def tagged(tag):
    return lambda v: tag in v.tags


VALIDATED = lambda v: v.validated  # noqa: E731
DEMOS = lambda v: not v.validated  # noqa: E731 (the report's racy kernels)
MULTIBLOCK = lambda v: v.validated and "one_block" not in v.tags  # noqa: E731 (validated, any n)


def only(*names, where=lambda v: False):
    """--only= the named labels, the versions for which where() holds and the baseline, in registry order."""
    return "--only=" + ",".join(labels(NAME, lambda v: v.label in names or where(v) or v.baseline))


def csv_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def scan_case(*args, timeout=None):
    return gpu_case([SCAN, *args, *QUICK], timeout)


# -- every version, the report's sizes, launch configurations, data ------------------------------

@pytest.mark.parametrize("v", version_params(NAME))
def test_awkward_sizes_both_scans(v):
    scan_case(AWKWARD, "--mode=both", only(v))


def test_plain_run_runs_every_default_version_and_no_demonstration():
    r = scan_case("--n=5000", "--mode=inclusive")
    assert not re.search(r": demonstration, not validated$", r.out, re.M), r.tail()
    for v in labels(NAME, lambda v: v.default):
        assert re.search(rf"^scan version={v} .*(Result = PASS|skipped)", r.out, re.M), f"{v} did not run\n" + r.tail()


@pytest.mark.parametrize("v", version_params(NAME, MULTIBLOCK))
def test_report_sizes_5_50_80_mb_and_2_to_the_28(v):
    scan_case("--sizes=1250000,12500000,20000000,2^28", "--mode=both", only(v), timeout=600)


@pytest.mark.parametrize("config", ["--threads=32 --per-thread=2 --sizes=1,31,32,33,1025,65537",
                                    "--threads=128 --per-thread=3 --sizes=127,128,129,4097,999983",
                                    "--threads=256 --per-thread=16 --sizes=255,256,257,1048579"])
def test_launch_configuration_every_default_version(config):
    scan_case(*config.split(), "--mode=both")


@pytest.mark.parametrize("data", ["--data=full --sizes=1025,999983", "--data=negative --sizes=1024,999983",
                                  "--data=extreme --sizes=1,2,1000,999983", "--data=iota --n=1048577"],
                         ids=["full_int32_range_wraps", "all_negative", "int32_max_and_min", "iota_2_to_the_20_plus_1"])
def test_data_every_default_version(data):
    scan_case(*data.split(), "--mode=both")


@pytest.mark.parametrize("v", version_params(NAME, MULTIBLOCK))
def test_pinned_host_buffers(v):
    scan_case("--n=999983", "--pinned", "--mode=both", only(v))


@pytest.mark.parametrize("v", version_params(NAME, MULTIBLOCK))
def test_timed_runs_with_warm_up_and_l2_flush(v):
    gpu_case([SCAN, "--n=999983", "--mode=both", only(v), "--repeat=3", "--warmup=1", "--l2=flush"])


@pytest.mark.parametrize("v", version_params(NAME, tagged("threads")))
def test_threads_0_is_the_reports_1024(v):
    r = scan_case("--threads=0", "--n=1000", "--mode=inclusive", only(v))
    assert re.search(rf"version={v} n=1000 mode=inclusive .*threads=1024 ", r.out), r.tail()


# -- the chunked scans (--per-thread), lookback's tiles (--lb-items), lookahead's kernels ----------

# map_brent_kung with --threads=32: 64 totals per Brent-Kung block; 3 per thread: 192 = 64 chunks,
# 193 = 65; 12288 = 64 blocks of totals, 12289 = 65; 786433: totals 262145 -> 4097 -> 65 -> 2.
CHUNKS = {"one_block_of_totals_and_its_recursion": "--threads=32 --per-thread=3 --sizes=1,2,3,4,191,192,193,194,"
                                                   "12287,12288,12289,12290,786433,999983",
          "one_chunk_up_to_1024": "--per-thread=1024 --sizes=1,1023,1024,1025,2049,1048583",
          "sweep_smallest_k_2": "--per-thread=2 --sizes=20000000",
          "sweep_largest_k_64": "--per-thread=64 --sizes=20000000,2^28"}


@pytest.mark.parametrize("shape", CHUNKS)
@pytest.mark.parametrize("v", version_params(NAME, tagged("per_thread")))
def test_chunked_scan(v, shape):
    scan_case(*CHUNKS[shape].split(), "--mode=both", only(v), timeout=600)


@pytest.mark.parametrize("sizes", ["4095,4096,4097,8191,8192,8193,16385,262145,819217", "20000000,2^28"],
                         ids=["tile_boundaries", "20000000_and_2_to_the_28"])
@pytest.mark.parametrize("items", ["32", "16"])
@pytest.mark.parametrize("v", version_params(NAME, tagged("lb_items")))
def test_lookback_tile(v, items, sizes):
    scan_case(f"--lb-items={items}", f"--sizes={sizes}", "--mode=both", only(v), timeout=600)


WS = {"sizes_not_multiples_of_its_tile": ["--sizes=1,2,31,4095,4096,4097,8191,8193,65537,999983,1048577,4000037"]
      + QUICK,
      "repeated_launches_warm_up_and_l2_flush": ["--sizes=999983,16777219", "--repeat=5", "--warmup=2", "--l2=flush"],
      "full_int32_range": ["--sizes=1025,999983", "--data=full"] + QUICK}


@pytest.mark.parametrize("case", WS)
@pytest.mark.parametrize("v", version_params(NAME, tagged("la_kernel")))
def test_warp_specialised_kernel_forced(v, case):
    gpu_case([SCAN, "--la-kernel=ws", *WS[case], "--mode=both", only(v)])


@pytest.mark.parametrize("v", version_params(NAME, tagged("la_kernel")))
def test_each_side_of_the_lookahead_threshold_k1_name_says_which_kernel_ran(v, tmp_path):
    sizes = [K_MIN_N - 1, K_MIN_N, K_MIN_N + 1, K_MIN_N + 4097, 268435461]
    r = scan_case("--sizes=" + ",".join(map(str, sizes)), "--mode=both", only(v, where=tagged("lb_items")),
                  f"--csv={tmp_path}/la.csv", timeout=600)
    ws_here = re.search(r"^lookahead tuning policy: warp-specialised kernel", r.out, re.M)
    rows = [row for row in csv_rows(tmp_path / "la.csv") if row["version"] == v]
    assert len(rows) == 2 * len(sizes), r.tail()
    for row in rows:
        want = "ws_scan_kernel" if ws_here and int(row["n"]) >= K_MIN_N else "scan_decoupled_lookback"
        assert row["k1_name"] == want and row["result_ok"] == "1", f"n={row['n']} {row['mode']}: {row['k1_name']}"


@pytest.mark.parametrize("v", version_params(NAME, tagged("la_kernel")))
def test_la_kernel_lookback_runs_lookbacks_kernel_at_2_to_the_28(v):
    r = scan_case("--la-kernel=lookback", "--n=2^28", "--mode=inclusive", only(v))
    assert re.search(rf"version={v} n=268435456 mode=inclusive .*kernel=scan_decoupled_lookback "
                     r"\((--la-kernel=lookback|the ws kernel cannot run here)", r.out), r.tail()


def test_tuning_policies_are_reported():
    r = scan_case("--n=5000", "--mode=inclusive", only(where=lambda v: {"lb_items", "la_kernel"} & v.tags))
    assert re.search(r"^lookback tuning policy: 256 threads x (16|32) ints per tile", r.out, re.M), r.tail()
    assert re.search(r"^lookahead tuning policy: (warp-specialised kernel|lookback's kernel at every n)", r.out,
                     re.M), r.tail()


# -- state kept between launches: one runner, inputs and sizes changing (--vary-input) -------------

# Odd extra launches scan n/2 + 1, n/4 + 1, ... (main.cu), even ones n again: descriptors, counters
# and epochs left by a launch of another size and input; just above the threshold, lookahead's
# runner switches between its two kernels.
VARY = {"ws_kernel_forced": "--la-kernel=ws --sizes=20000003,1000003,65537,4097,1025,33,1",
        "across_lookaheads_threshold": f"--sizes={2 * K_MIN_N + 1},{K_MIN_N + 4097}"}


@pytest.mark.parametrize("case", VARY)
@pytest.mark.parametrize("v", version_params(NAME, tagged("launch_state")))
def test_one_runner_scans_changing_inputs_and_sizes(v, case):
    scan_case(*VARY[case].split(), "--vary-input=6", "--mode=both", only(v), timeout=600)


# -- the report's racy demonstrations -----------------------------------------------------------

ONE_BLOCK_DEMO = lambda v: not v.validated and "one_block" in v.tags  # noqa: E731 (section 1's <<<1, 32>>>)


@pytest.mark.parametrize("v", version_params(NAME, ONE_BLOCK_DEMO))
def test_one_block_racy_demonstration_reproduces_report_fig_1_3_at_33_and_is_exact_up_to_32(v):
    need_gpu()
    base = [SCAN, f"--only={v}", "--threads=32", "--data=iota", "--mode=inclusive", "--runs=3", "--repeat=1",
            "--warmup=0"]
    r = run(base + ["--n=33"])  # 528^2: element 33 is left unscanned
    assert r.rc == 0 and re.search(rf"version={v} .*sse\(run 1\)=278784, 3 of 3 runs wrong, first wrong element 32",
                                   r.out), r.tail()
    r = run(base + ["--n=32"])  # one warp in lock-step
    assert r.rc == 0 and re.search(rf"version={v} .*sse\(run 1\)=0, 0 of 3 runs wrong", r.out), r.tail()


@pytest.mark.parametrize("v", version_params(NAME, DEMOS))
def test_racy_demonstration_is_not_validated_and_does_not_set_the_exit_status(v):
    need_gpu()
    r = run([SCAN, f"--only={v}", "--sizes=1000,2^20", "--mode=inclusive", *QUICK])
    assert r.rc == 0 and re.search(rf"version={v} .*: demonstration, not validated$", r.out, re.M), r.tail()
    assert "Result = " not in r.out, r.tail()


@pytest.mark.parametrize("v", version_params(NAME, tagged("as_printed")))
def test_as_printed_demonstration_measures_its_serial_part(v, tmp_path):
    scan_case(only(v), "--sizes=1000,15000", "--mode=inclusive", f"--csv={tmp_path}/ap.csv")
    rows = [row for row in csv_rows(tmp_path / "ap.csv") if row["version"] == v]
    assert len(rows) == 2 and all(row["validated"] == "0" and float(row["serial_ms"]) > 0 for row in rows), rows


# -- faults, files, the CSV ---------------------------------------------------------------------

@pytest.mark.parametrize("v", version_params(NAME, VALIDATED))
def test_inject_fault_fails_every_run_and_writes_no_file(v, tmp_path):
    csv_, out = tmp_path / "fault.csv", tmp_path / "fault.bin"
    fault_case([SCAN, "--n=1000", "--mode=inclusive", f"--only={v}", "--inject-fault", f"--csv={csv_}",
                f"--output={out}", *QUICK], csv_, out)


@pytest.mark.parametrize("v", version_params(NAME, tagged("la_kernel")))
def test_inject_fault_fails_the_warp_specialised_kernel_too(v, tmp_path):
    csv_, out = tmp_path / "fault.csv", tmp_path / "fault.bin"
    fault_case([SCAN, "--n=100003", "--mode=both", f"--only={v}", "--la-kernel=ws", "--inject-fault", f"--csv={csv_}",
                f"--output={out}", *QUICK], csv_, out)


# 1, -1, INT32_MAX, 1 -> inclusive 1, 0, INT32_MAX, INT32_MIN (wraps); exclusive 0, 1, 0, INT32_MAX.
INPUT = (1, -1, 2**31 - 1, 1)
WANT = {"inclusive": (1, 0, 2**31 - 1, -2**31), "exclusive": (0, 1, 0, 2**31 - 1)}
# Every validated version, and the versions with a --la-kernel forced to the warp-specialised kernel.
ROUND_TRIPS = ([pytest.param(v, [], id=v) for v in labels(NAME, VALIDATED)]
               + [pytest.param(v, ["--la-kernel=ws"], id=v + "-ws") for v in labels(NAME, tagged("la_kernel"))]
               or [pytest.param(None, None, marks=pytest.mark.skip(reason=f"{NAME}/bin/{NAME} is not built (make)"))])


def int32s(values):
    return b"".join(x.to_bytes(4, "little", signed=True) for x in values)


@pytest.mark.parametrize("mode", WANT)
@pytest.mark.parametrize("v,force", ROUND_TRIPS)
def test_input_output_round_trip_wraps_around(v, force, mode, tmp_path):
    need_gpu()
    (tmp_path / "in.bin").write_bytes(int32s(INPUT))
    r = run([SCAN, f"--input={tmp_path}/in.bin", f"--output={tmp_path}/out.bin", f"--mode={mode}", f"--only={v}",
             *force, *QUICK])
    assert r.rc == 0 and (tmp_path / "out.bin").read_bytes() == int32s(WANT[mode]), r.tail()


def test_csv_a_row_per_planned_run_core_columns_baseline_on_every_row(tmp_path):
    r = scan_case("--sizes=1000,5000", "--mode=both", only(where=lambda v: True), f"--csv={tmp_path}/r.csv")
    planned = int(re.search(r"^planned: (\d+) runs$", r.out, re.M).group(1))
    with open(tmp_path / "r.csv") as f:
        assert f.readline().strip() == run([SCAN, "--print-csv-header"]).out.strip()
    rows = csv_rows(tmp_path / "r.csv")
    assert len(rows) == planned
    kind = {v.label: v for v in versions(NAME)}
    for row in rows:
        v = kind[row["version"]]
        assert row["baseline_ms"] and row["is_baseline"] == str(int(v.baseline)), row
        assert row["validated"] == str(int(v.validated)) and (row["result_ok"] == "1" or not v.validated), row


# -- compute-sanitizer --------------------------------------------------------------------------

SMALL = ["--threads=128", "--per-thread=4", "--mode=both", *QUICK]
SANITIZED = {"memcheck": "--sizes=1,33,1025,70001", "racecheck": "--sizes=33,1025,70001",
             "synccheck": "--sizes=33,1025,70001"}


@pytest.mark.parametrize("tool", SANITIZED)
@pytest.mark.parametrize("v", version_params(NAME, VALIDATED))
def test_sanitizer_threads_128(v, tool):
    sanitize(tool, [SCAN, SANITIZED[tool], f"--only={v}", *SMALL])


@pytest.mark.parametrize("v", version_params(NAME, lambda v: v.validated and "threads" in v.tags))
def test_racecheck_threads_1024(v):
    sanitize("racecheck", [SCAN, "--sizes=1000,5000", "--threads=1024", f"--only={v}", "--mode=both", *QUICK])


@pytest.mark.parametrize("v", version_params(NAME, lambda v: v.validated and not v.baseline))
def test_initcheck_threads_256(v):
    sanitize("initcheck", [SCAN, "--sizes=33,5000", "--threads=256", f"--only={v}", "--mode=both", *QUICK])


@pytest.mark.parametrize("tool,sizes", [("racecheck", "33,4097,70001"), ("memcheck", "1,4097,70001")])
@pytest.mark.parametrize("v", version_params(NAME, tagged("lb_items")))
def test_sanitizer_lookback_16_ints_per_thread(v, tool, sizes):
    sanitize(tool, [SCAN, "--lb-items=16", f"--sizes={sizes}", f"--only={v}", "--mode=both", *QUICK])


@pytest.mark.parametrize("v", version_params(NAME, tagged("per_thread")))
def test_racecheck_chunked_scan_threads_32_recursive_totals(v):
    sanitize("racecheck", [SCAN, "--sizes=193,12289", "--threads=32", "--per-thread=3", f"--only={v}", "--mode=both",
                           *QUICK])


# The warp-specialised kernel (mbarriers, bulk copies, named barrier): a partial tile alone, full
# tiles and a partial one, more tiles than stages; and by the policy just above its threshold.
@pytest.mark.parametrize("tool", ["memcheck", "racecheck", "synccheck", "initcheck"])
@pytest.mark.parametrize("v", version_params(NAME, tagged("la_kernel")))
def test_sanitizer_warp_specialised_kernel_forced(v, tool):
    sanitize(tool, [SCAN, "--la-kernel=ws", "--sizes=1,4097,70001", f"--only={v}", "--mode=both", *QUICK])


@pytest.mark.parametrize("v", version_params(NAME, tagged("la_kernel")))
def test_memcheck_just_above_the_lookahead_threshold(v):
    sanitize("memcheck", [SCAN, f"--n={K_MIN_N + 4097}", f"--only={v}", "--mode=both", *QUICK], timeout=600)


# -- make profile's shapes under Nsight Compute, Figure 3.4's trace -------------------------------

def profiled_sizes(v):
    return sorted(int(t.split("_")[1]) for t in v.tags if re.fullmatch(r"profile_\d+", t))


@pytest.mark.parametrize("v", version_params(NAME, profiled_sizes))
def test_ncu_profile_every_metric_of_the_profiled_kernel(v, tmp_path):
    """make profile's command for one version (its kernel filter from profile_kernels) at n = 15000
    where it is profiled there (the report's map kernel: a grid of 2 blocks), else at 5000."""
    need_gpu()
    check = run(["bash", ROOT / "common/scripts/ncu_profile.sh", "--check"])
    if check.rc != 0:
        pytest.skip(check.err.strip())
    version = next(x for x in versions(NAME) if x.label == v)
    n = 15000 if 15000 in profiled_sizes(version) else 5000
    metrics = make_print(NAME, "PROFILE_METRICS")
    kernel = ["--kernel-name", "regex:" + version.kernels] if version.kernels else []
    r = run(["bash", ROOT / "common/scripts/ncu_profile.sh", tmp_path / "profile.csv", NAME, v, "", n, metrics,
             "--print-units", "base", *kernel, "--launch-count", "1", SCAN, f"--only={v}", f"--n={n}",
             *make_print(NAME, "PROFILE_ARGS").split()], 600, env=dict(os.environ, CW_PROFILE_LOG_DIR=str(tmp_path)))
    assert r.rc == 0, r.tail()
    rows = csv_rows(tmp_path / "profile.csv")
    kernels = {row["kernel"] for row in rows}
    assert len(kernels) == 1 and re.search(version.kernels, kernels.pop()), rows[:1]
    assert {row["metric"] for row in rows} == set(metrics.split(","))
    if n == 15000:
        assert {float(row["value"]) for row in rows if row["metric"] == "launch__grid_size"} == {2.0}


def test_sm_activity_traces_every_block_and_the_map_kernel_is_exact(tmp_path):
    binary = ROOT / NAME / "build/experiments/sm_activity"
    need_built(binary)
    gpu_case([binary, tmp_path / "sm_activity.csv", 1, 1025, 15000, 1250003])


def test_every_version_ran_a_case(request):
    every_version_ran(NAME, request)
