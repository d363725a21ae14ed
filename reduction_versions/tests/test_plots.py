"""Tier 1 (no GPU): every figure and tables.py work on synthetic CSVs with the program's own header
(--print-csv-header) and a row for each version the registry lists, made in a temporary folder (the
committed results/ are rendered by the shared tests); without the newer CSVs (latency.csv,
profile.csv, the iota rows) the tables say what is missing."""
import re
from pathlib import Path

import pytest
from cwtest import ROOT, figure, make_print, need_built, program, run, versions

NAME = "reduction_versions"
N = 8388608
CUB_KERNELS = ['"cub::DeviceReduceKernel<P, unsigned int>"', '"cub::DeviceReduceSingleTileKernel<P, unsigned int>"']


def rows(cols, n, threads, vs, **extra):
    """One synthetic row per version (each faster than the one before), as the program writes them."""
    out = []
    for i, v in enumerate(vs):
        ms = 4 * n / ((300 + 300 * i) * 1e6) + 0.004
        d = dict.fromkeys(cols, "0")
        d.update(assignment=NAME, version=v.label, kernel="k" + v.label, device="Synthetic GPU", compute_capability="9.0",
                 driver="13.0", runtime="13.0", n=n, bytes=4 * n, data="full", threads=threads, blocks=100, launches=2,
                 l2="flush", repeat=20, warmup=3, kernel_ms=ms, bandwidth_GBps=4 * n / ms / 1e6, copy_bw_GBps=3000,
                 pct_of_copy_bw=4 * n / ms / 3e7, baseline_ms=0.01, speedup_vs_baseline=0.01 / ms, cpu_ms=n / 2.5e6,
                 cpu_bandwidth_GBps=10, checks=2, result_ok=1, validated=int(v.validated), is_baseline=int(v.baseline),
                 kernel_ms_scope="kernels")
        if v.baseline:  # the library's own launch: no block size, no grid, no launch count
            d.update(threads="", blocks="", launches="", memsets="")
        d.update(extra)
        out.append(",".join(str(d[c]) for c in cols))
    return out


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    need_built(program(NAME))
    r = run([program(NAME), "--print-csv-header"])
    assert r.rc == 0, r.tail()
    cols, d = r.out.strip().split(","), tmp_path_factory.mktemp("synthetic")
    default = [v for v in versions(NAME) if v.default]
    kernels = [v for v in default if not v.baseline]

    def write(name, lines, header=",".join(cols)):
        (d / name).write_text(header + "\n" + "\n".join(lines) + "\n")
    # the report's 1, 2, ..., n: its sum wraps to 2^22 modulo 2^32
    write("versions.csv", rows(cols, N, 256, default) + rows(cols, N, 256, default, data="iota", seed="", cpu_sum=4194304,
                                                             gpu_sum=4194304))
    write("size_sweep.csv", [line for e in range(10, 29) for line in rows(cols, 2 ** e, 256, default)])
    write("threads.csv", [line for t in (64, 128, 256, 512, 1024) for line in rows(cols, N, t, kernels)]
          + rows(cols, N, 256, [v for v in default if v.baseline]))
    write("unfixed_v5.csv", [line for n in (1024, N) for t in (64, 1024)
                             for line in rows(cols, n, t, [v for v in versions(NAME) if "unfixed_v5" in v.tags])])
    write("latency.csv", ["Synthetic GPU,shared,4096,4,1048576,30", "Synthetic GPU,L1,16384,128,1048576,38",
                          "Synthetic GPU,L2,4194304,128,262144,270", "Synthetic GPU,DRAM,268435456,128,65536,820"],
          "device,memory,footprint_bytes,stride_bytes,loads,cycles_per_load")
    # Nsight Compute's counters (the Makefile's list) as common/py/ncu_tidy.py writes them; the baseline with CUB's two kernels.
    write("profile.csv", [f"{NAME},{v.label},{k},,{N},{m},{'nsecond' if 'time' in m else ''},"
                          f"{1 if j and m == 'launch__grid_size' else 1000 * (9 - i) + 10 * j + 7},1,Synthetic GPU,2025.3.0"
                          for i, v in enumerate(default) for j, k in enumerate(CUB_KERNELS if v.baseline else ["k" + v.label])
                          for m in make_print(NAME, "PROFILE_METRICS").split(",")],
          "assignment,version,kernel,m,n,metric,unit,value,launches,device,ncu_version")
    return d


def figures():
    out = run(["make", "-s", "--no-print-directory", "-C", ROOT / NAME, "print-figures"]).out.split()
    return list(zip(out[::2], out[1::2]))


@pytest.mark.parametrize("name,source", figures())
def test_figure_from_synthetic_csv(synthetic, name, source):
    figure(ROOT / NAME / "plots" / f"{name}.gp", synthetic / Path(source).name, synthetic / f"{name}.png")


def tables(folder):
    r = run(["python3", ROOT / NAME / "tables.py", folder, "--out", folder / "tables.md"])
    assert r.rc == 0, r.tail()
    return (folder / "tables.md").read_text()


def test_tables_every_table_of_a_run(synthetic):
    text = tables(synthetic)
    for v in versions(NAME):
        if v.default and not v.baseline:
            assert f"\n| {v.label} | `k{v.label}` |" in text, f"no versions row for {v.label}"
    numbered = {v.label for v in versions(NAME) if v.default and v.label.isdigit()}
    for a, b in ((str(int(b) - 1), b) for b in numbered if str(int(b) - 1) in numbered):  # the steps: k - 1 → k
        assert f"\n| {a}→{b} |" in text, f"no step-counters row {a}→{b}"
    for cell in ("| 4194304 | 4194304 |", "| `cub::DeviceReduceKernel<P, unsigned int>` |", "\n| DRAM | 268,435,456 |"):
        assert cell in text


def test_tables_without_profile_latency_and_iota_say_no_data(synthetic, tmp_path):
    for name in ("size_sweep.csv", "threads.csv", "unfixed_v5.csv"):
        (tmp_path / name).write_text((synthetic / name).read_text())
    lines = (synthetic / "versions.csv").read_text().splitlines(keepends=True)
    (tmp_path / "versions.csv").write_text("".join(line for line in lines if ",iota," not in line))
    text = tables(tmp_path)
    assert re.search(r"^## profile\n+\(no data", text, re.M) and "(no data: latency.csv" in text
    assert [v for v in versions(NAME) if v.default and f"\n| {v.label} | `k{v.label}` |" in text]
