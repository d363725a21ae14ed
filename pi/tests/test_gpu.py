"""pi, tier 2 (GPU): every GPU version (--only=V: the ids name it) at the awkward sizes under
several launch shapes, chunks and grids; every version's CSV row; --pinned with --input; the
report's largest size once (CSV, --output and the accuracy targets); --inject-fault;
compute-sanitizer; make profile's recipe. Without a GPU every case is skipped with the reason."""
import csv
import re
import struct

import pytest
import cwprofile
from cwprofile import profile_experiments
from cwtest import (every_version_ran, fault_case, gpu_case, labels, only, program, sanitize,
                    version_params, versions)

pytestmark = pytest.mark.gpu
NAME = "pi"
P = program(NAME)
Q = ["--repeat=2", "--warmup=1", "--cpu-repeat=1"]
SIZES = "--sizes=1,63,64,65,1025,1000003"


def gpu(v):
    return not v.host


def tagged(tag):
    return lambda v: tag in v.tags


def planned(r):
    return int(re.search(r"^planned: (\d+) runs$", r.out, re.M).group(1))


@pytest.mark.parametrize("threads", [32, 256, 1024], ids=lambda x: f"threads={x}")
@pytest.mark.parametrize("v", version_params(NAME, gpu))
def test_gpu_version_float_and_double(v, threads):
    gpu_case([P, SIZES, f"--threads={threads}", f"--only={v}", "--precision=both", *Q])


@pytest.mark.parametrize("chunk", [1, 7, 1000], ids=lambda x: f"chunk={x}")
@pytest.mark.parametrize("v", version_params(NAME, tagged("chunk")))
def test_chunk_not_dividing_niter_larger_than_niter_or_one_term(v, chunk):
    gpu_case([P, SIZES, f"--chunk={chunk}", "--threads=64", f"--only={v}", "--precision=both", *Q])


@pytest.mark.parametrize("blocks", [1, 3, 5000], ids=lambda x: f"blocks={x}")
@pytest.mark.parametrize("v", version_params(NAME, tagged("last_block")))
def test_last_block_one_block_a_few_or_more_than_tiles(v, blocks):
    """One block is its own last block; more blocks than tiles leaves threads with no tile."""
    gpu_case([P, SIZES, f"--blocks={blocks}", "--threads=128", f"--only={v}", "--precision=both", *Q])


def test_csv_rows_of_every_version(tmp_path):
    """One row per planned run; a CPU version leaves threads and blocks empty and says how many
    cpu_threads ran, a library call (own_launch) leaves all three empty, a kernel fills threads
    and blocks only."""
    r = gpu_case([P, "--sizes=1,63,65,1025", only(NAME), "--precision=both", *Q, f"--csv={tmp_path}/rows.csv"])
    rows = list(csv.DictReader(open(tmp_path / "rows.csv")))
    assert len(rows) == planned(r), f"{len(rows)} rows for {planned(r)} planned runs"
    host, own = labels(NAME, lambda v: v.host), labels(NAME, tagged("own_launch"))
    for x in rows:
        kernel = x["version"] not in host + own
        filled = (x["threads"] != "", x["blocks"] != "", x["cpu_threads"] != "")
        assert filled == (kernel, kernel, x["version"] in host), x


@pytest.mark.parametrize("v", version_params(NAME, gpu))
def test_pinned_with_an_input_of_int64_sizes(v, tmp_path):
    (tmp_path / "n.bin").write_bytes(struct.pack("<3q", 1, 65, 100003))
    gpu_case([P, f"--input={tmp_path}/n.bin", "--pinned", f"--only={v}", *Q])


def test_niter_2_30_every_gpu_version_csv_output_and_accuracy_targets(tmp_path):
    """The report's largest size, float and double, once: every row passes and agrees with --output;
    no bandwidth; is_baseline and the time's scope as the registry says; a version tagged
    accuracy_target has |error| <= 1e-6 in float, 1e-12 in double."""
    csv_file, out = tmp_path / "big.csv", tmp_path / "big.bin"
    r = gpu_case([P, "--niter=2^30", only(NAME, gpu), "--precision=both", "--repeat=2", "--warmup=1",
                  f"--csv={csv_file}", f"--output={out}"])
    rows = list(csv.DictReader(open(csv_file)))
    data = out.read_bytes()
    est = struct.unpack(f"<{len(data) // 8}d", data)
    assert len(rows) == planned(r) == len(est), f"{len(rows)} rows, {len(est)} outputs, {planned(r)} planned"
    info = {v.label: v for v in versions(NAME)}
    for x, e in zip(rows, est):
        v = info[x["version"]]
        assert x["result_ok"] == "1" and x["bandwidth_GBps"] == "" and x["pct_of_copy_bw"] == "", x
        assert (x["is_baseline"] == "1") == v.baseline, x
        assert x["kernel_ms_scope"] == ("call: alloc+kernels+copy+free" if "own_launch" in v.tags else "kernels"), x
        assert abs(float(x["estimate"]) - e) <= 1e-15 * abs(e), f"--output {e!r}, CSV {x['estimate']}"
        if "accuracy_target" in v.tags:
            assert float(x["abs_error"]) <= (1e-6 if x["precision"] == "float" else 1e-12), x


def test_inject_fault_every_planned_run_fails_no_csv_no_output(tmp_path):
    """Every estimate is replaced by NaN: every planned run FAILs, exit 1, neither file written."""
    csv_file, out = tmp_path / "fault.csv", tmp_path / "fault.bin"
    fault_case([P, "--sizes=65,1025", only(NAME, lambda v: v.validated), "--precision=both", *Q, "--inject-fault",
                f"--csv={csv_file}", f"--output={out}"], csv_file, out)


# compute-sanitizer on small sizes: one run of each version, float and double.
S = ["--sizes=65,1025", "--threads=64", "--precision=both", "--repeat=1", "--warmup=0", "--cpu-repeat=1"]


@pytest.mark.parametrize("tool", ["memcheck", "racecheck", "synccheck", "initcheck"])
@pytest.mark.parametrize("v", version_params(NAME, lambda v: gpu(v) and v.validated))
def test_sanitizer(v, tool):
    sanitize(tool, [P, *S, f"--only={v}"])


@pytest.mark.parametrize("v", version_params(NAME, tagged("last_block")))
def test_racecheck_one_block_is_its_own_last_block(v):
    sanitize("racecheck", [P, *S, f"--only={v}", "--blocks=1"])


def test_make_profile_at_niter_2_20_every_metric_of_every_gpu_version(tmp_path):
    """make profile's recipe at niter = 2^20: each GPU version, float and double ("V:float"), has a
    row of every metric; pipe_utilisation.gp and tables.py use it."""
    rows, metrics = profile_experiments(NAME, tmp_path, "pipe_utilisation", "bench.csv", PI_PROFILE_NITER=1048576), cwprofile.metrics(NAME)
    for v in labels(NAME, gpu):
        for p in ("float", "double"):
            mine = [r for r in rows if r["version"] == f"{v}:{p}"]
            missing = set(metrics) - {r["metric"] for r in mine}
            assert not missing, f"{v}:{p} lacks {sorted(missing)}"
            assert all(r["n"] == "1048576" for r in mine), f"{v}:{p}: n"


def test_every_version_ran_a_case(request):
    every_version_ran(NAME, request)
