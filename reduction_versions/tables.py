#!/usr/bin/env python3
"""The tables of README.md and DETAILS.md, declared over results/*.csv (common/py/mdtables.py).
    python3 tables.py                          fill README.md and DETAILS.md from results/
    python3 tables.py RESULTS_DIR --out F.md   every table of one run into F.md"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common", "py"))
from mdtables import Col, Row, Table, load, pivot, run  # noqa: E402

# The chain of steps, written out (not the registry's order): the report's versions 1-5,
# Harris's 6 and 7, and our version 8 measured against Harris's last.
STEP_FROM = {"2": "1", "3": "2", "4": "3", "5": "4", "6": "5", "7": "6", "8": "7"}
SIZES = {2 ** k for k in range(10, 29, 2)} | {2 ** 23, 2 ** 27}  # the rows of the size tables
M = {"time": "gpu__time_duration.sum", "grid": "launch__grid_size", "occ": "sm__warps_active.avg.pct_of_peak_sustained_active",
     "dram": "dram__throughput.avg.pct_of_peak_sustained_elapsed", "inst": "smsp__inst_executed.sum",
     "thr": "smsp__thread_inst_executed_per_inst_executed.ratio",
     "div": "smsp__sass_branch_targets_threads_divergent.sum",
     "ld": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     "st": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
     "bar": "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
     "theo": "sm__maximum_warps_per_active_cycle_pct", "read": "dram__bytes_read.sum"}
X2, X3, MS = "{:.2f}x", "{:.3f}x", "{:.4f}"


def pow2(n):
    n = int(n)
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else f"{n:,}"


def with_steps(rows):
    """Random-data rows of versions.csv, each with its step and its speed-up over version 1."""
    ms = {r["version"]: r.f("kernel_ms") for r in rows}
    for r in rows:
        r["from"] = STEP_FROM.get(r["version"], "")
        r["step"] = ms[r["from"]] / ms[r["version"]] if r["from"] in ms else None
        r["vs1"] = ms["1"] / ms[r["version"]] if "1" in ms else None
    return rows


def versions(csv):
    """The versions on random data, then the serial CPU sum and the copy of the input to the GPU."""
    def rows(d):
        rs = with_steps([r for r in load(d, csv) if r.get("data", "full") == "full"])
        one, n = (rs[0].f("kernel_ms"), rs[0].f("n")) if rs else (None, None)
        return rs + [Row(version=v, kernel=k, kernel_ms=rs[0][c], bandwidth_GBps=4 * n / rs[0].f(c) / 1e6,
                         vs1=one / rs[0].f(c)) for v, k, c in (("CPU", "rv::sum_wrap", "cpu_ms"),
                                                               ("copy in", "cudaMemcpy", "copy_in_ms")) if rs]
    return rows


VERSION_COLS = [
    Col("version"), Col("kernel", "kernel", "`{}`"), Col("threads"), Col("blocks", "blocks (1st launch)"),
    Col("launches"), Col("kernel_ms", "time (ms)", MS), Col("bandwidth_GBps", "GB/s", "{:.0f}"),
    Col("pct_of_copy_bw", "% of copy", "{:.0f}"), Col("copy_bw_GBps", "copy GB/s (same run)", "{:.0f}"),
    Col("speedup_vs_baseline", "speed vs CUB", X2), Col("from", "step from"),
    Col("step", "step speed-up", X2), Col("vs1", "speed-up over 1", X2)]


def iota(d):
    full = {r["version"]: r for r in load(d, "versions.csv") if r.get("data", "full") == "full"}
    return [Row(r, full_ms=full.get(r["version"], {}).get("kernel_ms")) for r in load(d, "versions.csv")
            if r.get("data") == "iota"]


IOTA_COLS = [Col("version"), Col("full_ms", "random ints: time (ms)", MS),
             Col("kernel_ms", "1, 2, ..., n: time (ms)", MS),
             Col(lambda r: r.f("kernel_ms") / r.f("full_ms"), "1, 2, ..., n / random", X3),
             Col("bandwidth_GBps", "1, 2, ..., n: GB/s", "{:.0f}"), Col("gpu_sum", "GPU sum"),
             Col("cpu_sum", "CPU sum"), Col("cpu_ms", "CPU (ms)", "{:.3f}")]


def by_size(csv, value):
    """One row per size of SIZES, one column per version (value of its row), then the CPU."""
    def rows(d):
        rs = [r for r in load(d, csv) if int(r["n"]) in SIZES]
        out = pivot(rs, "n", "version", value)
        cpu = {r["n"]: r for r in rs}
        return [Row(r, ints=pow2(r["n"]), cpu=cpu[r["n"]]["cpu_bandwidth_GBps"],
                    cpu_ms=cpu[r["n"]]["cpu_ms"]) for r in out]
    return rows


def version_cols(fmt, skip=("n", "ints", "cpu", "cpu_ms"), extra=()):
    return lambda rows: [Col("ints")] + [Col(v, v if v == "cub" else f"v{v}", fmt)
                                         for v in rows[0] if v not in skip] + list(extra)


def step_times(r):  # a size_sweep row: its step speed-ups (by version label)
    return {b: r.f(a) / r.f(b) for b, a in STEP_FROM.items() if r.f(a) and r.f(b)}


def steps(csv):
    def rows(d):
        return [Row(r, **{f"s{b}": x for b, x in step_times(r).items()})
                for r in by_size(csv, lambda r: r["kernel_ms"])(d)]
    return rows


STEP_COLS = [Col("ints")] + [Col(f"s{b}", f"{a}→{b}", X2) for b, a in STEP_FROM.items()]


def first_passes(d):
    """profile.csv: per version, the counters of its first pass (the kernel with the largest grid)."""
    kernels = pivot(load(d, "profile.csv"), lambda r: (r["version"], r["kernel"]), "metric",
                    lambda r: r.f("value"))
    out = {}
    for k in kernels:
        v = k["key"][0]
        if v not in out or (k.get(M["grid"]) or 0) > (out[v].get(M["grid"]) or 0):
            out[v] = Row(k, version=v, kernel=k["key"][1], bar_total=k.get(M["bar"]) and k[M["bar"]] * k[M["inst"]],
                         conflicts=(k.get(M["ld"]) or 0) + (k.get(M["st"]) or 0))
    return out


def step_counters(d):
    fp = first_passes(d)
    return [Row(step=f"{a}→{b}", **{f"{s}{c}": fp[v].get(c) for s, v in (("a", a), ("b", b))
                                    for c in (M["time"], M["inst"], "conflicts", "bar_total")})
            for b, a in STEP_FROM.items() if a in fp and b in fp]


def per_m(x):
    return f"{x / 1e6:.2f}"


PROFILE_COLS = [
    Col("version"), Col("kernel", "kernel (first pass)", "`{}`"), Col(M["grid"], "grid", "{:.0f}"),
    Col(M["time"], "time (us)", lambda x: f"{x / 1e3:.1f}"), Col(M["dram"], "DRAM % of peak", "{:.0f}"),
    Col(M["occ"], "achieved occupancy %", "{:.0f}"), Col(M["theo"], "theoretical occupancy %", "{:.0f}"),
    Col(M["inst"], "warp instructions (M)", per_m), Col(M["thr"], "threads per warp instruction", "{:.1f}"),
    Col(M["div"], "divergent branch targets", "{:,.0f}"), Col(M["ld"], "shared ld bank conflicts", "{:,.0f}"),
    Col(M["st"], "shared st bank conflicts", "{:,.0f}"),
    Col(M["bar"], "barrier stall per issued instruction (cycles)", "{:.2f}"),
    Col("bar_total", "barrier stall, total (M warp-cycles)", lambda x: f"{x / 1e6:.1f}")]
STEP_COUNTER_COLS = [Col("step")] + [
    Col(f"{s}{c}", f"{h} ({w})", f) for c, h, f in (
        (M["time"], "time us", lambda x: f"{x / 1e3:.1f}"), (M["inst"], "warp instr. M", per_m),
        ("conflicts", "bank conflicts", "{:,.0f}"), ("bar_total", "barrier stall M", lambda x: f"{x / 1e6:.1f}"))
    for s, w in (("a", "before"), ("b", "after"))]


def v8_grid(csv):
    """v8_grid.csv: one row per size, one column per sweep (a new sweep starts where n falls)."""
    def rows(d):
        rs, sweep, last = load(d, csv), 0, None
        for r in rs:
            sweep += last is not None and int(r["n"]) < last
            last, r["sweep"] = int(r["n"]), f"sweep {sweep + 1}"
            r["cell"] = f"{int(r['grid']):,}: {r.f('v8_over_cub'):.3f}x"
        return [Row(r, ints=pow2(r["n"])) for r in pivot(rs, "n", "sweep", "cell")]
    return rows


def v8_counters(d):
    return [Row(r, launch=r["key"][0], n=pow2(r["key"][1]), kernel=r["key"][2]) for r in pivot(
        load(d, "v8_cub_counters.csv"), lambda r: (r["launch_id"], r["n"], r["kernel"]), "metric",
        lambda r: r.f("value"))]


def targets(prefix):
    def rows(d):
        return [r for r in load(d, prefix + "versions.csv") if r["version"] == "8" and r.get("data") == "full"] + [
            r for r in load(d, prefix + "size_sweep.csv") if r["version"] == "8" and r["n"] == str(2 ** 28)]
    return rows


TARGET_COLS = [Col("n", "ints", pow2), Col("kernel_ms", "version 8 (ms)", MS), Col("baseline_ms", "CUB (ms)", MS),
               Col("bandwidth_GBps", "version 8 GB/s", "{:.0f}"),
               Col(lambda r: 4 * r.f("n") / r.f("baseline_ms") / 1e6, "CUB GB/s", "{:.0f}"),
               Col("speedup_vs_baseline", "CUB time / version 8 time", X3),
               Col("copy_bw_GBps", "copy GB/s (same run)", "{:.0f}")]


def threads_cols(rows):
    def cell(t):
        def fmt(r):
            best = min(r.f(s) for s in r if s not in ("version",) and r.f(s) is not None)
            return f"**{r.f(t):.4f}**" if r.f(t) == best else f"{r.f(t):.4f}"
        return Col(fmt, f"{t} threads")
    return [Col("version")] + [cell(t) for t in rows[0] if t != "version"]


def threads(csv):
    return lambda d: pivot([r for r in load(d, csv) if r["threads"]], "version", "threads", "kernel_ms")


def unfixed(csv):
    """Per size and block size: the wrong runs of version 5 (fixed) and of the report's as printed."""
    def rows(d):
        rs = load(d, csv)
        printed = {(r["n"], r["threads"]): r for r in rs if r["version"] == "5-unfixed"}
        return [Row(r, n=r["key"][0], threads=r["key"][1], gpu=printed.get(r["key"], {}).get("gpu_sum"),
                    cpu=printed.get(r["key"], {}).get("cpu_sum")) for r in pivot(
            rs, lambda r: (r["n"], r["threads"]), "version", lambda r: f"{r['wrong_checks']} of {r['checks']}")]
    return rows


UNFIXED_COLS = [Col("n", "ints", "{:,.0f}"), Col("threads"), Col("5", "version 5 (fixed): wrong runs"),
                Col("5-unfixed", "as printed: wrong runs"), Col("gpu", "a wrong sum (as printed)"),
                Col("cpu", "CPU sum")]
LATENCY_COLS = [Col("memory"), Col("footprint_bytes", "footprint (bytes)", "{:,.0f}"), Col("stride_bytes", "stride (bytes)"),
                Col("loads", "dependent loads", "{:,.0f}"), Col("cycles_per_load", "cycles per load", "{:.0f}")]
SIZE_CAPTION = "GB/s = 4 bytes per int read once / median time; CPU: the serial loop of the same run."

TABLES = [
    Table("versions", versions("versions.csv"), VERSION_COLS),
    Table("versions-h200", versions("h200/versions.csv"), VERSION_COLS),
    Table("iota", iota, IOTA_COLS),
    Table("sweep", by_size("size_sweep.csv", "bandwidth_GBps"), version_cols("{:.0f}", extra=[
        Col("cpu", "CPU GB/s", "{:.1f}"), Col("cpu_ms", "CPU (ms)", "{:.3g}")]), caption=SIZE_CAPTION),
    Table("sweep-h200", by_size("h200/size_sweep.csv", "bandwidth_GBps"), version_cols("{:.0f}", extra=[
        Col("cpu", "CPU GB/s", "{:.1f}"), Col("cpu_ms", "CPU (ms)", "{:.3g}")]), caption=SIZE_CAPTION),
    Table("sweep-ms", by_size("size_sweep.csv", "kernel_ms"), version_cols("{:.4f}")),
    Table("steps", steps("size_sweep.csv"), STEP_COLS),
    Table("steps-h200", steps("h200/size_sweep.csv"), STEP_COLS),
    Table("profile", lambda d: list(first_passes(d).values()), PROFILE_COLS),
    Table("step-counters", step_counters, STEP_COUNTER_COLS),
    Table("latency", "latency.csv", LATENCY_COLS + [Col("device")]),
    Table("latency-h200", "h200/latency.csv", LATENCY_COLS + [Col("device")]),
    Table("unfixed", unfixed("unfixed_v5.csv"), UNFIXED_COLS),
    Table("unfixed-h200", unfixed("h200/unfixed_v5.csv"), UNFIXED_COLS),
    Table("targets", targets(""), TARGET_COLS),
    Table("targets-h200", targets("h200/"), TARGET_COLS),
    Table("threads", threads("threads.csv"), threads_cols),
    Table("threads-h200", threads("h200/threads.csv"), threads_cols),
    Table("v8-grid", v8_grid("v8_grid.csv"), lambda rows: [Col("ints")] + [Col(s) for s in rows[0] if "sweep" in s]),
    Table("v8-grid-h200", v8_grid("h200/v8_grid.csv"), lambda rows: [Col("ints")] + [Col(s) for s in rows[0] if "sweep" in s]),
    Table("v8-cub-counters", v8_counters, [
        Col("launch"), Col("n", "ints"), Col("kernel", "kernel", "`{}`"), Col(M["grid"], "grid", "{:.0f}"),
        Col(M["time"], "time (us)", lambda x: f"{x / 1e3:.2f}"), Col(M["read"], "DRAM read (MB)", lambda x: f"{x / 1e6:.1f}"),
        Col(M["dram"], "DRAM % of peak", "{:.1f}"), Col(M["occ"], "achieved occupancy %", "{:.0f}"),
        Col(M["inst"], "warp instructions", "{:,.0f}")]),
]

if __name__ == "__main__":
    run(TABLES)
