#!/usr/bin/env python3
"""The tables of README.md and DETAILS.md, declared over results/*.csv (common/py/mdtables.py), and
those of the lab's experiments/README.md, over experiments/results/<gpu>/*.csv.
    python3 tables.py                          fill README.md and DETAILS.md from results/, and the lab's
    python3 tables.py RESULTS_DIR --out F.md   every table of README.md and DETAILS.md of one run into F.md"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common", "py"))
from mdtables import Col, Row, Table, fill_docs, load, pivot, run  # noqa: E402

def steps(labels):
    """The chain of steps among the versions `labels` (of a CSV), {version: the version it improves
    on}: the numbered versions are the chain (the report's 1-5, Harris's 6 and 7, our 8, and any
    later number), version k measured against version k - 1; a variant (4w, 5-unfixed) or the
    library baseline is no step. The registry's order and the CSV's play no part."""
    return {v: str(int(v) - 1) for v in sorted((v for v in labels if v.isdigit()), key=int) if str(int(v) - 1) in labels}

SIZES = {str(2 ** k) for k in list(range(10, 29, 2)) + [23, 27]}  # the rows of the size tables
M = dict(m.split("=") for m in """time=gpu__time_duration.sum grid=launch__grid_size read=dram__bytes_read.sum
    occ=sm__warps_active.avg.pct_of_peak_sustained_active theo=sm__maximum_warps_per_active_cycle_pct
    dram=dram__throughput.avg.pct_of_peak_sustained_elapsed inst=smsp__inst_executed.sum
    thr=smsp__thread_inst_executed_per_inst_executed.ratio div=smsp__sass_branch_targets_threads_divergent.sum
    ld=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum st=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
    bar=smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio""".split())
X2, MS, GB = "{:.2f}x", "{:.4f}", "{:.0f}"
pow2 = lambda n: f"2^{int(n).bit_length() - 1}" if int(n) & (int(n) - 1) == 0 else f"{int(n):,}"  # noqa: E731
us, mega, mega1 = (lambda x: f"{x / 1e3:.1f}"), (lambda x: f"{x / 1e6:.2f}"), (lambda x: f"{x / 1e6:.1f}")

def per_csv(fn):
    """fn(rows of a CSV, *args) as a table's source: per_csv(fn)(csv, *args)(results_dir)."""
    return lambda csv, *args: lambda d: fn(load(d, csv), *args)

@per_csv
def versions(rs):
    """The versions on random data with their steps, then the serial CPU sum and the copy in."""
    rs = [r for r in rs if r.get("data", "full") == "full"]
    ms = {r["version"]: r.f("kernel_ms") for r in rs}
    step_from = steps(ms)
    for r in rs:
        r.update({"from": step_from.get(r["version"], ""), "vs1": ms.get("1") and ms["1"] / ms[r["version"]]})
        r["step"] = ms[r["from"]] / ms[r["version"]] if r["from"] in ms else None
    return rs + [Row(version=v, kernel=k, kernel_ms=rs[0][c], bandwidth_GBps=4 * rs[0].f("n") / rs[0].f(c) / 1e6,
                     vs1=ms.get("1") and ms["1"] / rs[0].f(c))
                 for v, k, c in (("CPU", "rv::sum_wrap", "cpu_ms"), ("copy in", "cudaMemcpy", "copy_in_ms")) if rs and rs[0].f(c)]

@per_csv
def by_size(rs, value):
    """One row per size of SIZES, one column per version (value of its row), the CPU, the steps
    (column "a→b": value of a / value of b)."""
    cpu, step_from = {r["n"]: r for r in rs}, steps({r["version"] for r in rs})
    return [Row(r, ints=pow2(r["n"]), cpu=cpu[r["n"]]["cpu_bandwidth_GBps"], cpu_ms=cpu[r["n"]]["cpu_ms"],
                **{f"{a}→{b}": r.f(a) / r.f(b) for b, a in step_from.items() if r.f(a) and r.f(b)})
            for r in pivot([r for r in rs if r["n"] in SIZES], "n", "version", value)]

def first_passes(d):
    """profile.csv: per version, the counters of its first pass (the kernel with the largest grid)."""
    out = {}
    for k in pivot(load(d, "profile.csv"), lambda r: (r["version"], r["kernel"]), "metric", lambda r: r.f("value")):
        v, grid = k["key"][0], k.get(M["grid"]) or 0
        if v not in out or grid > (out[v].get(M["grid"]) or 0):
            out[v] = Row(k, version=v, kernel=k["key"][1], conflicts=(k.get(M["ld"]) or 0) + (k.get(M["st"]) or 0),
                         bar_total=k.get(M["bar"]) and k[M["bar"]] * k[M["inst"]])
    return out

@per_csv
def v8_grid(rs):
    """v8_grid.csv: one row per size, one column per sweep (a new sweep starts where n falls)."""
    sweep, last = 0, 0
    for r in rs:
        sweep, last = sweep + (int(r["n"]) < last), int(r["n"])
        r.update(sweep=f"sweep {sweep + 1}", cell=f"{int(r['grid']):,}: {r.f('v8_over_cub'):.3f}x")
    return [Row(r, ints=pow2(r["n"])) for r in pivot(rs, "n", "sweep", "cell")]

@per_csv
def unfixed(rs):
    """Per size and block size: the wrong runs of version 5 (fixed: validated) and of the report's as
    printed (the demonstration: validated = 0)."""
    kind = lambda r: "fixed" if r["validated"] == "1" else "printed"  # noqa: E731
    printed = {(r["n"], r["threads"]): r for r in rs if kind(r) == "printed"}
    return [Row(r, n=r["key"][0], threads=r["key"][1], **{k: printed.get(r["key"], {}).get(k) for k in ("gpu_sum", "cpu_sum")})
            for r in pivot(rs, lambda r: (r["n"], r["threads"]), kind, lambda r: f"{r['wrong_checks']} of {r['checks']}")]

VERSION_COLS = [
    Col("version"), Col("kernel", "kernel", "`{}`"), Col("threads"), Col("blocks", "blocks (1st launch)"), Col("launches"),
    Col("kernel_ms", "time (ms)", MS), Col("bandwidth_GBps", "GB/s", GB), Col("pct_of_copy_bw", "% of copy", GB),
    Col("copy_bw_GBps", "copy GB/s (same run)", GB), Col("speedup_vs_baseline", "speed vs CUB", X2),
    Col("from", "step from"), Col("step", "step speed-up", X2), Col("vs1", "speed-up over 1", X2)]
per_version = (lambda fmt, extra=(): lambda rows: [Col("ints")] + [  # noqa: E731
    Col(v, v if v == "cub" else "v" + v, fmt) for v in rows[0] if v not in ("n", "ints", "cpu", "cpu_ms") and "→" not in v] + list(extra))
SIZE = per_version(GB, [Col("cpu", "CPU GB/s", "{:.1f}"), Col("cpu_ms", "CPU (ms)", "{:.3g}")])
best = (lambda r, t: "**{:.4f}**" if r.f(t) == min(r.f(s) for s in r if s != "version") else MS)  # noqa: E731
THREADS = (lambda rows: [Col("version")] + [  # noqa: E731: time per block size, the best of each version in bold
    Col(lambda r, t=t: best(r, t).format(r.f(t)), f"{t} threads") for t in rows[0] if t != "version"])
SIZE_CAPTION = "GB/s = 4 bytes per int read once / median time; CPU: the serial loop of the same run."
STEPS = lambda rows: [Col("ints")] + [Col(s, s, X2) for s in dict.fromkeys(s for r in rows for s in r if "→" in s)]  # noqa: E731
LATENCY = [Col("memory"), Col("footprint_bytes", "footprint (bytes)", "{:,.0f}"), Col("stride_bytes", "stride (bytes)"),
           Col("loads", "dependent loads", "{:,.0f}"), Col("cycles_per_load", "cycles per load", GB), Col("device")]
UNFIXED = [Col("n", "ints", "{:,.0f}"), Col("threads"), Col("fixed", "version 5 (fixed): wrong runs"),
           Col("printed", "as printed: wrong runs"), Col("gpu_sum", "a wrong sum (as printed)"), Col("cpu_sum", "CPU sum")]
TARGETS = [Col("n", "ints", pow2), Col("kernel_ms", "version 8 (ms)", MS), Col("baseline_ms", "CUB (ms)", MS),
           Col("bandwidth_GBps", "version 8 GB/s", GB), Col(lambda r: 4 * r.f("n") / r.f("baseline_ms") / 1e6, "CUB GB/s", GB),
           Col("speedup_vs_baseline", "CUB time / version 8 time", "{:.3f}x"), Col("copy_bw_GBps", "copy GB/s (same run)", GB)]
PROFILE = [
    Col("version"), Col("kernel", "kernel (first pass)", "`{}`"), Col(M["grid"], "grid", GB), Col(M["time"], "time (us)", us),
    Col(M["dram"], "DRAM % of peak", GB), Col(M["occ"], "achieved occupancy %", GB),
    Col(M["theo"], "theoretical occupancy %", GB), Col(M["inst"], "warp instructions (M)", mega),
    Col(M["thr"], "threads per warp instruction", "{:.1f}"), Col(M["div"], "divergent branch targets", "{:,.0f}"),
    Col(M["ld"], "shared ld bank conflicts", "{:,.0f}"), Col(M["st"], "shared st bank conflicts", "{:,.0f}"),
    Col(M["bar"], "barrier stall per issued instruction (cycles)", "{:.2f}"),
    Col("bar_total", "barrier stall, total (M warp-cycles)", mega1)]
STEP_COUNTERS = [Col("step")] + [Col(s + c, f"{h} ({w})", f) for c, h, f in (
    (M["time"], "time us", us), (M["inst"], "warp instr. M", mega), ("conflicts", "bank conflicts", "{:,.0f}"),
    ("bar_total", "barrier stall M", mega1)) for s, w in (("a", "before"), ("b", "after"))]

def both(name, csv, cols, fn=None, *args, **kw):
    return [Table(name + h, fn(p + csv, *args) if fn else p + csv, cols, **kw) for h, p in (("", ""), ("-h200", "h200/"))]

iota = per_csv(lambda rs: (lambda full: [Row(r, full_ms=full.get(r["version"])) for r in rs if r.get("data") == "iota"])(
    {r["version"]: r["kernel_ms"] for r in rs if r.get("data", "full") == "full"}))  # with the random-data time
def narrow(cols, *drop):  # a README table's columns (at most 9): cols without the headings dropped
    return [c for c in cols if c.heading not in drop]


VERSION_README = narrow(VERSION_COLS, "threads", "launches", "copy GB/s (same run)", "step from")
PROFILE_README = narrow(PROFILE, "grid", "theoretical occupancy %", "shared ld bank conflicts",
                        "shared st bank conflicts", "barrier stall, total (M warp-cycles)")  # in step-counters
SIZE_README = lambda rows: [c for c in SIZE(rows) if c.heading not in ("v3", "CPU GB/s", "CPU (ms)")]  # noqa: E731
TABLES = [*both("versions", "versions.csv", VERSION_README, versions), Table("iota", iota("versions.csv"), [
    Col("version"), Col("full_ms", "random ints: time (ms)", MS), Col("kernel_ms", "1, 2, ..., n: time (ms)", MS),
    Col(lambda r: r.f("kernel_ms") / r.f("full_ms"), "1, 2, ..., n / random", "{:.3f}x"),
    Col("bandwidth_GBps", "1, 2, ..., n: GB/s", GB), Col("gpu_sum", "GPU sum"), Col("cpu_sum", "CPU sum"),
    Col("cpu_ms", "CPU (ms)", "{:.3f}")]),
    Table("sweep", by_size("size_sweep.csv", "bandwidth_GBps"), SIZE_README,
          caption="GB/s = 4 bytes per int read once / median time; v3 and the CPU: `size_sweep.csv`."),
    Table("sweep-h200", by_size("h200/size_sweep.csv", "bandwidth_GBps"), SIZE, caption=SIZE_CAPTION),
    Table("sweep-ms", by_size("size_sweep.csv", "kernel_ms"), per_version(MS)),
    *both("steps", "size_sweep.csv", STEPS, by_size, "kernel_ms"),
    Table("profile", lambda d: list(first_passes(d).values()), PROFILE_README),
    Table("step-counters", lambda d: (lambda fp: [Row(step=f"{a}→{b}", **{s + c: fp[v].get(c) for s, v in (("a", a), ("b", b))
          for c in (M["time"], M["inst"], "conflicts", "bar_total")}) for b, a in steps(fp).items()])(
        first_passes(d)), STEP_COUNTERS),
    *both("latency", "latency.csv", LATENCY), *both("unfixed", "unfixed_v5.csv", UNFIXED, unfixed),
    *both("targets", "size_sweep.csv", TARGETS, where=lambda r: r["version"] == "8" and r["n"] in ("8388608", str(2 ** 28))),
    *both("threads", "threads.csv", THREADS, per_csv(lambda rs: pivot([r for r in rs if r["threads"]], "version",
                                                                           "threads", "kernel_ms")))]
# The lab's (experiments/README.md), over experiments/results/: h100/ and h200/.
LAB_TABLES = [Table("v8-grid" + h, v8_grid(g + "/v8_grid.csv"), lambda rows: [Col("ints")] + [Col(s) for s in rows[0] if "sweep" in s])
              for h, g in (("", "h100"), ("-h200", "h200"))]

if __name__ == "__main__":
    run(TABLES)
    if len(sys.argv) == 1:  # the committed documents: the lab's too
        here = os.path.dirname(os.path.abspath(__file__))
        fill_docs(LAB_TABLES, os.path.join(here, "experiments", "results"), os.path.join(here, "experiments"))
