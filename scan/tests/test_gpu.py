"""scan on a GPU: every version at awkward sizes, inclusive and exclusive, several launch
configurations, random data with negatives, wrap-around and extreme inputs, exact equality with
the CPU (gpu_case counts the program's "planned: N runs"); the report's n = 33 result;
--input/--output; --inject-fault; compute-sanitizer; lookahead's two kernels; one runner launched
on inputs of changing sizes (--vary-input); Nsight Compute on `make profile`'s shapes. A case
about some versions selects them by property or tag (scan_versions.cu says what each tag means)."""
import csv
import os
import re

import pytest
from cwtest import (ROOT, every_version_ran, fault_case, gpu_case, labels, make_print, need_built, need_gpu, program,
                    run, sanitize, version_params, versions)

pytestmark = pytest.mark.gpu
NAME = "scan"
SCAN = program(NAME)
QUICK = "--repeat=1 --warmup=0 --runs=1 --l2=keep"
# lookahead's threshold: its warp-specialised kernel from this n up (where the device runs it)
POLICY = (ROOT / NAME / "scan_policy.h").read_text()
K_MIN_N = int(re.search(r"kMinN = (\d+);", POLICY).group(1))


def lookahead(constant):
    """A constant of scan_policy::LookaheadPolicy (the first struct that sets it after its name)."""
    return int(re.search(rf"static constexpr int {constant} = (\d+);", POLICY[POLICY.index("struct LookaheadPolicy"):]).group(1))


# The program's shape under its name in experiments/ws_scan.cu (ws_lab::shape_name).
WS_SHAPE = "_t{}_s{}_r{}_w{}_st{}_d{}_l{}".format(*map(lookahead, (
    "kTile", "kStages", "kReduceWarps", "kScanWarps", "kStore", "kSched", "kLookaheadWarps")))
ALL = lambda v: True  # noqa: E731
VALIDATED = lambda v: v.validated  # noqa: E731
MULTIBLOCK = lambda v: v.validated and "one_block" not in v.tags  # noqa: E731 (validated, any n)


def tagged(*tags):
    return lambda v: bool(set(tags) & v.tags)


def only(*names, where=lambda v: False):
    """--only= the named labels, the versions for which where() holds and the baseline, in registry order."""
    return "--only=" + ",".join(labels(NAME, lambda v: v.label in names or where(v) or v.baseline))


def per_version(table):
    """parametrize values (case, version, arguments) for each row (case, predicate, arguments) of a table
    and each version the predicate selects; ids "case-version", so that -k selects either."""
    if not versions(NAME):
        return [pytest.param(None, None, None, marks=pytest.mark.skip(reason=f"{NAME}/bin/{NAME} is not built (make)"))]
    return [pytest.param(case, v, args, id=f"{case}-{v}" if case else v) for case, where, args in table
            for v in version_params(NAME, where)]  # a row whose predicate selects nothing: an error


def csv_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


# Each case runs gpu_case(scan ARGUMENTS --only=VERSION,baseline) for every version its predicate selects.
# map_brent_kung's chunks: --threads=32, 3 per thread: 192 = 64 chunks = one Brent-Kung block of
# totals, 193 = 65; 12288 = 64 blocks of totals, 12289 = 65; 786433: 262145 -> 4097 -> 65 -> 2 totals.
# --vary-input: odd extra launches scan n/2 + 1, n/4 + 1, ... (main.cu), even ones n again, on one
# runner: descriptors, counters and epochs left by a launch of another size and input; above twice the
# threshold, lookahead's runner switches between its two kernels.
CASES = [
    ("awkward_sizes", ALL, f"--sizes=1,2,31,32,33,1023,1024,1025,65537,999983 --mode=both {QUICK}"),
    ("report_sizes_5_50_80_mb_2_28", MULTIBLOCK, f"--sizes=1250000,12500000,20000000,2^28 --mode=both {QUICK}"),
    ("pinned", MULTIBLOCK, f"--n=999983 --pinned --mode=both {QUICK}"),
    ("timed_warm_up_l2_flush", MULTIBLOCK, "--n=999983 --mode=both --repeat=3 --warmup=1 --l2=flush"),
    ("chunks_one_block_of_totals_and_recursion", tagged("per_thread"), "--threads=32 --per-thread=3 --sizes=1,2,3,4,"
     f"191,192,193,194,12287,12288,12289,12290,786433,999983 --mode=both {QUICK}"),
    ("chunks_one_up_to_1024", tagged("per_thread"), f"--per-thread=1024 --sizes=1,1023,1024,1025,2049,1048583 "
     f"--mode=both {QUICK}"),
    ("chunks_sweep_smallest_k", tagged("per_thread"), f"--per-thread=2 --sizes=20000000 --mode=both {QUICK}"),
    ("chunks_sweep_largest_k", tagged("per_thread"), f"--per-thread=64 --sizes=20000000,2^28 --mode=both {QUICK}"),
    *[(f"lb_items_{k}_{what}", tagged("lb_items"), f"--lb-items={k} --sizes={sizes} --mode=both {QUICK}")
      for k in (32, 16) for what, sizes in (("tile_boundaries", "4095,4096,4097,8191,8192,8193,16385,262145,819217"),
                                            ("20000000_and_2_28", "20000000,2^28"))],
    ("ws_forced_sizes_not_multiples_of_its_tile", tagged("la_kernel"), "--la-kernel=ws "
     f"--sizes=1,2,31,4095,4096,4097,8191,8193,65537,999983,1048577,4000037 --mode=both {QUICK}"),
    ("ws_forced_repeated_launches_l2_flush", tagged("la_kernel"),
     "--la-kernel=ws --sizes=999983,16777219 --mode=both --repeat=5 --warmup=2 --l2=flush"),
    ("ws_forced_full_int32_range", tagged("la_kernel"),
     f"--la-kernel=ws --sizes=1025,999983 --data=full --mode=both {QUICK}"),
    ("vary_sizes_ws_forced", tagged("keeps_state"),
     f"--vary-input=6 --la-kernel=ws --sizes=20000003,1000003,65537,4097,1025,33,1 --mode=both {QUICK}"),
    ("vary_sizes_across_the_ws_threshold", tagged("keeps_state"),
     f"--vary-input=6 --sizes={2 * K_MIN_N + 1},{K_MIN_N + 4097} --mode=both {QUICK}"),
]


@pytest.mark.parametrize("case,v,args", per_version(CASES))
def test_version(case, v, args):
    gpu_case([SCAN, *args.split(), only(v)], 600)


@pytest.mark.parametrize("args", [
    "--threads=32 --per-thread=2 --sizes=1,31,32,33,1025,65537",
    "--threads=128 --per-thread=3 --sizes=127,128,129,4097,999983",
    "--threads=256 --per-thread=16 --sizes=255,256,257,1048579", "--data=full --sizes=1025,999983",
    "--data=negative --sizes=1024,999983", "--data=extreme --sizes=1,2,1000,999983", "--data=iota --n=1048577"])
def test_every_default_version(args):
    gpu_case([SCAN, *args.split(), "--mode=both", *QUICK.split()])


def test_plain_run_runs_every_default_version_and_no_demonstration():
    r = gpu_case([SCAN, "--n=5000", "--mode=inclusive", *QUICK.split()])
    assert not re.search(r": demonstration, not validated$", r.out, re.M), r.tail()
    for v in labels(NAME, lambda v: v.default):
        assert re.search(rf"^scan version={v} .*(Result = PASS|skipped)", r.out, re.M), f"{v} did not run\n" + r.tail()


@pytest.mark.parametrize("v", version_params(NAME, tagged("threads")))
def test_threads_0_is_the_reports_1024(v):
    r = gpu_case([SCAN, "--threads=0", "--n=1000", "--mode=inclusive", only(v), *QUICK.split()])
    assert re.search(rf"version={v} n=1000 mode=inclusive .*threads=1024 ", r.out), r.tail()


@pytest.mark.parametrize("v", version_params(NAME, tagged("la_kernel")))
def test_each_side_of_the_lookahead_threshold_k1_name_says_which_kernel_ran(v, tmp_path):
    sizes = [K_MIN_N - 1, K_MIN_N, K_MIN_N + 1, K_MIN_N + 4097, 268435461]
    r = gpu_case([SCAN, "--sizes=" + ",".join(map(str, sizes)), "--mode=both", only(v, where=tagged("lb_items")),
                  f"--csv={tmp_path}/la.csv", *QUICK.split()], 600)
    ws_here = re.search(r"^lookahead tuning policy: warp-specialised kernel", r.out, re.M)
    rows = [row for row in csv_rows(tmp_path / "la.csv") if row["version"] == v]
    assert len(rows) == 2 * len(sizes), r.tail()
    for row in rows:
        want = "ws_scan_kernel" if ws_here and int(row["n"]) >= K_MIN_N else "scan_decoupled_lookback"
        assert row["k1_name"] == want and row["result_ok"] == "1", f"n={row['n']} {row['mode']}: {row['k1_name']}"


@pytest.mark.parametrize("v", version_params(NAME, tagged("la_kernel")))
def test_la_kernel_lookback_runs_lookbacks_kernel_at_2_to_the_28(v):
    r = gpu_case([SCAN, "--la-kernel=lookback", "--n=2^28", "--mode=inclusive", only(v), *QUICK.split()])
    assert re.search(rf"version={v} n=268435456 mode=inclusive .*kernel=scan_decoupled_lookback "
                     r"\((--la-kernel=lookback|the ws kernel cannot run here)", r.out), r.tail()


def test_tuning_policies_are_reported():
    r = gpu_case([SCAN, "--n=5000", "--mode=inclusive", only(where=tagged("lb_items", "la_kernel")), *QUICK.split()])
    assert re.search(r"^lookback tuning policy: 256 threads x (16|32) ints per tile", r.out, re.M), r.tail()
    assert re.search(r"^lookahead tuning policy: (warp-specialised kernel|lookback's kernel at every n)", r.out, re.M)


# -- the report's racy demonstrations -----------------------------------------------------------

@pytest.mark.parametrize("v", version_params(NAME, lambda v: not v.validated and "one_block" in v.tags))
def test_one_block_racy_demonstration_reproduces_report_fig_1_3_at_33_and_is_exact_up_to_32(v):
    need_gpu()
    base = [SCAN, f"--only={v}", "--threads=32", "--data=iota", "--mode=inclusive", "--runs=3", "--repeat=1",
            "--warmup=0"]
    r = run(base + ["--n=33"])  # 528^2: element 33 is left unscanned
    assert r.rc == 0 and re.search(rf"version={v} .*sse\(run 1\)=278784, 3 of 3 runs wrong, first wrong element 32",
                                   r.out), r.tail()
    r = run(base + ["--n=32"])  # one warp in lock-step
    assert r.rc == 0 and re.search(rf"version={v} .*sse\(run 1\)=0, 0 of 3 runs wrong", r.out), r.tail()


@pytest.mark.parametrize("v", version_params(NAME, lambda v: not v.validated))
def test_racy_demonstration_is_not_validated_and_does_not_set_the_exit_status(v):
    need_gpu()
    r = run([SCAN, f"--only={v}", "--sizes=1000,2^20", "--mode=inclusive", *QUICK.split()])
    assert r.rc == 0 and re.search(rf"version={v} .*: demonstration, not validated$", r.out, re.M), r.tail()
    assert "Result = " not in r.out, r.tail()


@pytest.mark.parametrize("v", version_params(NAME, tagged("as_printed")))
def test_as_printed_demonstration_measures_its_serial_part(v, tmp_path):
    gpu_case([SCAN, only(v), "--sizes=1000,15000", "--mode=inclusive", f"--csv={tmp_path}/ap.csv", *QUICK.split()])
    rows = [row for row in csv_rows(tmp_path / "ap.csv") if row["version"] == v]
    assert len(rows) == 2 and all(row["validated"] == "0" and float(row["serial_ms"]) > 0 for row in rows), rows


# -- faults, files, the CSV ---------------------------------------------------------------------

FAULTS = [("every_validated_version", VALIDATED, "--n=1000 --mode=inclusive"),
          ("ws_kernel_forced", tagged("la_kernel"), "--n=100003 --mode=both --la-kernel=ws")]


@pytest.mark.parametrize("case,v,args", per_version(FAULTS))
def test_inject_fault_fails_every_run_and_writes_no_file(case, v, args, tmp_path):
    csv_, out = tmp_path / "fault.csv", tmp_path / "fault.bin"
    fault_case([SCAN, *args.split(), f"--only={v}", "--inject-fault", f"--csv={csv_}", f"--output={out}",
                *QUICK.split()], csv_, out)


def int32s(values):
    return b"".join(x.to_bytes(4, "little", signed=True) for x in values)


# 1, -1, INT32_MAX, 1 -> inclusive 1, 0, INT32_MAX, INT32_MIN (wraps); exclusive 0, 1, 0, INT32_MAX.
WANT = {"inclusive": (1, 0, 2**31 - 1, -2**31), "exclusive": (0, 1, 0, 2**31 - 1)}


@pytest.mark.parametrize("mode", WANT)
@pytest.mark.parametrize("case,v,args", per_version([("", VALIDATED, ""),
                                                     ("ws", tagged("la_kernel"), "--la-kernel=ws")]))
def test_input_output_round_trip_wraps_around(case, v, args, mode, tmp_path):
    need_gpu()
    (tmp_path / "in.bin").write_bytes(int32s((1, -1, 2**31 - 1, 1)))
    r = run([SCAN, f"--input={tmp_path}/in.bin", f"--output={tmp_path}/out.bin", f"--mode={mode}", f"--only={v}",
             *args.split(), *QUICK.split()])
    assert r.rc == 0 and (tmp_path / "out.bin").read_bytes() == int32s(WANT[mode]), r.tail()


def test_csv_a_row_per_planned_run_core_columns_baseline_on_every_row(tmp_path):
    r = gpu_case([SCAN, "--sizes=1000,5000", "--mode=both", only(where=ALL), f"--csv={tmp_path}/r.csv", *QUICK.split()])
    planned = int(re.search(r"^planned: (\d+) runs$", r.out, re.M).group(1))
    with open(tmp_path / "r.csv") as f:
        assert f.readline().strip() == run([SCAN, "--print-csv-header"]).out.strip()
    rows, kind = csv_rows(tmp_path / "r.csv"), {v.label: v for v in versions(NAME)}
    assert len(rows) == planned
    for row in rows:
        v = kind[row["version"]]
        assert row["baseline_ms"] and row["is_baseline"] == str(int(v.baseline)), row
        assert row["validated"] == str(int(v.validated)) and (row["result_ok"] == "1" or not v.validated), row


# -- compute-sanitizer: (tool, versions, arguments); the warp-specialised kernel (mbarriers, bulk
# copies, named barrier) forced on a partial tile alone, full tiles and a partial one, more tiles
# than stages, and by the policy just above its threshold --------------------------------------

SMALL = f"--threads=128 --per-thread=4 --mode=both {QUICK}"
SANITIZED = [(tool, VALIDATED, f"--sizes={sizes} {SMALL}") for tool, sizes in (
    ("memcheck", "1,33,1025,70001"), ("racecheck", "33,1025,70001"), ("synccheck", "33,1025,70001"))] + [
    ("racecheck", lambda v: v.validated and "threads" in v.tags,
     f"--sizes=1000,5000 --threads=1024 --mode=both {QUICK}"),
    ("initcheck", lambda v: v.validated and not v.baseline, f"--sizes=33,5000 --threads=256 --mode=both {QUICK}"),
    ("racecheck", tagged("lb_items"), f"--lb-items=16 --sizes=33,4097,70001 --mode=both {QUICK}"),
    ("memcheck", tagged("lb_items"), f"--lb-items=16 --sizes=1,4097,70001 --mode=both {QUICK}"),
    ("racecheck", tagged("per_thread"), f"--sizes=193,12289 --threads=32 --per-thread=3 --mode=both {QUICK}"),
    *[(tool, tagged("la_kernel"), f"--la-kernel=ws --sizes=1,4097,70001 --mode=both {QUICK}")
      for tool in ("memcheck", "racecheck", "synccheck", "initcheck")],
    ("memcheck", tagged("la_kernel"), f"--n={K_MIN_N + 4097} --mode=both {QUICK}")]


@pytest.mark.parametrize("tool,v,args", per_version(SANITIZED))
def test_sanitizer(tool, v, args):
    sanitize(tool, [SCAN, *args.split(), f"--only={v}"], 600)


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


def test_ws_scan_trace_accounts_for_every_tile_and_its_times_are_ordered(tmp_path):
    """experiments/ws_scan.cu --trace (the timeline of the chosen variant and of its pipeline alone):
    every traced launch validated, a row per CTA of the grid, the CTAs' tiles adding up to the
    launch's, each CTA's times in order, and scan warp 0's waits and work adding up exactly to the
    CTA's cycles from its start to its last store (nothing counted twice or left out); look-ahead
    warp 1's first tile, its look-ahead after the tile landed, its rounds counted."""
    binary = ROOT / NAME / "build/experiments/ws_scan"
    need_built(binary)
    trace, sizes = tmp_path / "trace.csv", (1000003, 1 << 22)
    need_gpu()
    r = run([binary, f"--csv={tmp_path}/ws.csv", f"--trace={trace}", f"--only=ws{WS_SHAPE}",
             "--sizes=%d,%d" % sizes, "--check-sizes=4097", "--repeat=2", "--warmup=1"])
    assert r.rc == 0 and "Result = PASS" in r.out, r.tail()
    if "ws variants skipped" in r.out:
        pytest.skip("no sm_90 code for this GPU: ws_scan traces nothing")
    rows = csv_rows(trace)
    launches = {}
    for row in rows:
        launches.setdefault((row["variant"], int(row["n"]), row["launch"]), []).append(row)
    traced = ("ws" + WS_SHAPE, "wscopy" + WS_SHAPE)
    assert {(v, n) for v, n, _ in launches} == {(v, n) for v in traced for n in sizes}
    for (variant, n, launch), ctas in launches.items():
        where = f"{variant} n={n} launch {launch}"
        assert all(c["ok"] == "1" for c in ctas) and len(ctas) == int(ctas[0]["grid"]), where
        assert sum(int(c["tiles"]) for c in ctas) == -(-n // lookahead("kTile")), where
        assert min(int(c["enter_ns"]) for c in ctas) == 0, where
        for c in ctas:
            if int(c["tiles"]) == 0:
                continue
            t = [int(c[k]) for k in ("enter_ns", "first_landed_ns", "first_stored_ns", "last_stored_ns")]
            assert t == sorted(t) and int(c["cycles"]) > 0, (where, c)
            spent = sum(int(c[k]) for k in ("wait_data_cycles", "wait_reduce_cycles", "wait_prefix_cycles",
                                            "work_cycles"))
            assert spent == int(c["cycles"]), (where, c)
        looked = [c for c in ctas if int(c["look_tiles"]) > 0]  # look-ahead warp 1's view
        if variant.startswith("wscopy"):
            assert not looked, where  # no look-ahead in the pipeline alone
            continue
        assert looked and sum(int(c["look_tiles"]) for c in ctas) <= sum(int(c["tiles"]) for c in ctas), where
        assert len({int(c["first_tile"]) for c in looked}) == len(looked), where  # a tile is drawn once
        for c in looked:
            assert int(c["enter_ns"]) <= int(c["look_start_ns"]) <= int(c["look_done_ns"]), (where, c)
            assert int(c["look_first_rounds"]) <= int(c["look_rounds"]), (where, c)
            assert int(c["look_first_rounds"]) >= 1 or int(c["first_tile"]) == 0, (where, c)  # tile 0 needs none
            # Every predecessor of the first tile landed before it was published, and all were
            # published before the look-ahead could end (it sums their aggregates).
            landed, published = int(c["preds_landed_ns"]), int(c["preds_published_ns"])
            if int(c["first_tile"]) > 0:
                assert 0 <= landed <= published <= int(c["look_done_ns"]) + 1000, (where, c)
        assert max(int(c["last_stored_ns"]) for c in ctas) <= 1e6 * float(ctas[0]["event_ms"]) + 2000, where


def test_ws_scan_times_the_programs_kernel_under_its_policys_name(tmp_path):
    """experiments/ws_scan.cu's first variant is the program's own kernel, named from scan_policy.h."""
    binary = ROOT / NAME / "build/experiments/ws_scan"
    need_built(binary)
    need_gpu()
    r = run([binary, f"--csv={tmp_path}/ws.csv", f"--only=ws{WS_SHAPE}", "--sizes=1000003", "--check-sizes=1,4097",
             "--repeat=1", "--warmup=0"])
    assert r.rc == 0 and "Result = PASS" in r.out, r.tail()
    if "ws variants skipped" in r.out:
        pytest.skip("no sm_90 code for this GPU: ws_scan runs only its baselines")
    rows = [row for row in csv_rows(tmp_path / "ws.csv") if row["variant"] == "ws" + WS_SHAPE]
    assert rows and all(row["ok"] == "1" for row in rows), rows
    assert {row["tile"] for row in rows} == {str(lookahead("kTile"))}, rows


def test_tile_state_look_ahead_gives_every_tiles_prefix_over_launches_and_the_epoch_wrap():
    """tests/tile_state_test.cu: the ws kernel's tile state alone (publish, TileState::sum chained as the
    look-ahead warps chain it, the epoch) over generated tile counts, grids and data, three launches per
    case on one descriptor array, and across the epoch's wrap over stale descriptors of epoch 1."""
    binary = ROOT / NAME / "build/tests/tile_state_test"
    need_built(binary)
    need_gpu()
    r = run([binary], 600)
    skipped = re.search(r"^tile_state_test: (no sm_90 code .*): skipped$", r.out, re.M)
    if r.rc == 0 and skipped:
        pytest.skip(skipped.group(1))
    planned = int(re.search(r"^planned: (\d+) runs$", r.out, re.M).group(1)) if "planned:" in r.out else 0
    assert r.rc == 0 and planned > 0 and r.out.count("Result = PASS") == planned, r.tail()
    assert "Result = FAIL" not in r.out and "epoch wrap" in r.out, r.tail()


def test_every_version_ran_a_case(request):
    every_version_ran(NAME, request)
