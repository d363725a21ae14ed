#!/usr/bin/env python3
"""The tables of scan/README.md and DETAILS.md over common/py/mdtables.py, from results/ (H100) and results/h200/
(H200), and those of the lab's experiments/README.md (LAB_TABLES), from experiments/results/<gpu>/ (and the
reference's results/h200/): `python3 tables.py` fills all three; `python3 tables.py RESULTS_DIR --out FILE.md`
writes the tables of README.md and DETAILS.md of one run."""
import math, os, re, statistics, sys  # noqa: E401
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common", "py"))
from mdtables import Table, Col, Row, fill_docs, run, load, pivot, value_of  # noqa: E402

N20M, N28 = "20000000", str(1 << 28)
SIZES = {"1250000": "5 MB", "12500000": "50 MB", N20M: "80 MB"}  # Table 1.1's 5, 50, 80 MB of int
MS, F0, F1, F2 = "{:.4f}", "{:.0f}", "{:.1f}", "{:.2f}"
STALL = "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio"
STALLS = ("long_scoreboard", "barrier", "short_scoreboard", "lg_throttle")  # the reasons the README discusses
HERE = os.path.dirname(os.path.abspath(__file__))


def policy_shape():  # scan_policy.h's LookaheadPolicy as experiments/ws_scan.cu names a shape (ws_lab::shape_name)
    with open(os.path.join(HERE, "scan_policy.h")) as f:
        policy = f.read().split("struct LookaheadPolicy", 1)[1]
    k = lambda name: re.search(r"static constexpr int %s = (\d+);" % name, policy).group(1)  # noqa: E731
    return "_t%s_s%s_r%s_w%s_st%s_d%s_l%s" % tuple(map(k, (
        "kTile", "kStages", "kReduceWarps", "kScanWarps", "kStore", "kSched", "kLookaheadWarps")))


WS = "ws" + policy_shape()  # the variant of experiments/ws_scan.cu that `lookahead` runs
WSCOPY = "wscopy" + WS[2:]  # its pipeline alone
LAB = os.path.join(HERE, "experiments", "results")  # the lab's files: LAB/h100/, LAB/h200/
H200 = lambda rows_of: lambda d: rows_of(os.path.join(d, "h200"))  # noqa: E731 (the same rows, results/h200/)
HS = lambda r: r["version"].startswith("hs_")  # noqa: E731 (the report's Hillis-Steele kernel)

def series(rows, *not_series):  # the series of pivoted rows, in the order they first appear in any row
    return [k for k in dict.fromkeys(k for r in rows for k in r) if k not in not_series]
def series_cols(key, fmt, heading=None):  # the key column, then one column per series found in the rows
    return lambda rows: [Col(key, heading)] + [Col(k, k, fmt) for k in series(rows, key)]

def mse_rows(d):  # the racy in-place kernel per launch: where it is exact, how often wrong
    out = []
    for v, launch in (("hs_inplace_racy", "<<<1, 32>>>"), ("hs_multiblock_racy", "<<<ceil(n/1024), 1024>>>")):
        rs = sorted((r for r in load(d, "mse.csv") if r["version"] == v), key=lambda r: int(r["n"]))
        bad = [r for r in rs if r["wrong_runs"] != "0"]
        out += [{"device": rs[0]["device"], "launch": launch, "n": "1..%s" % rs[-1]["n"], "runs": rs[0]["runs"],
                 "exact": int(bad[0]["n"]) - 1 if bad else rs[-1]["n"], "wrong": len(bad),
                 "always": sum(r["wrong_runs"] == r["runs"] for r in rs), "max": max(r.f("mse_max") for r in rs),
                 "sse33": next((r["sse"] for r in rs if r["n"] == "33"), None)}] if rs else []
    return out

def race_rows(d):  # one 1024-thread block: wrong runs per range of warps holding elements, ceil(n/32)
    out = []
    for lo, hi in ((1, 2), (3, 4), (5, 8), (9, 13), (14, 16), (17, 24), (25, 32)):
        out.append({"warps": "%d–%d" % (lo, hi), "n": "%d–%d" % (32 * lo - 31, 32 * hi)})
        for g in ("", "h200"):
            sel = [r for r in load(os.path.join(d, g), "mse.csv") if r["version"] == "hs_multiblock_racy" and lo <= (int(r["n"]) + 31) // 32 <= hi]
            out[-1]["w" + g] = 100 * sum(int(r["wrong_runs"]) for r in sel) / max(1, sum(int(r["runs"]) for r in sel))
    return out

def sweep_rows(d):  # inclusive, at every even power of two: every version, lookback with its copies, the CPU
    rs = [r for r in load(d, "sweep.csv") if r["mode"] == "inclusive" and int(r["n"]).bit_length() % 2 == 1]
    out = pivot(rs, "n", "version", "kernel_ms")
    for o in out:
        at = [r for r in rs if r["n"] == o["n"]]  # the CPU's time is the same on every row of a size
        lb = next((r for r in at if r["version"] == "lookback"), Row())
        o.update(cpu=at[0]["cpu_ms"], total=lb.get("total_ms"), n="2^%d" % math.log2(int(o["n"])),
                 x=value_of(lambda r: r.f("cpu_ms") / r.f("kernel_ms"), lb))
    return out

def sweep_cols(rows, drop=()):  # drop: the versions a README table leaves out (at most 9 columns)
    return ([Col("n"), Col("cpu", "CPU serial (ms)", MS)] + [Col(v, v + " (ms)", MS) for v in series(rows, "n", "cpu", "total", "x")
                                                            if v not in drop]
            + [Col("total", "lookback + copies (ms)", "{:.3f}"), Col("x", "CPU / lookback", lambda x: ("{:.2f}" if x < 10 else F0).format(x))])

def kernel(k):  # launch k of a version: name, grid × block, registers, shared bytes, blocks/SM, occupancy, waves
    return lambda r: "%s: %s × %s, %s regs, %s B, %s/SM, %.0f%%, %.2f" % tuple(
        [r["k%d_%s" % (k, c)] for c in ("name", "grid", "block", "regs", "smem_bytes", "blocks_per_sm")]
        + [100 * r.f("k%d_occupancy" % k), r.f("k%d_waves" % k)]) if r["k%d_name" % k] else None
def per_thread_rows(d):
    rs = [dict(r, series="%s %s (ms)" % (r["version"], SIZES[r["n"]])) for r in load(d, "per_thread.csv")]
    return sorted(pivot(rs, "per_thread", "series", "kernel_ms"), key=lambda o: int(o["per_thread"]))
def profile_rows(d):  # one row per profiled launch, its counters as columns
    return pivot([dict(r, launch="%s (%s), n = %s" % (r["kernel"].split("<")[0], r["version"], r["n"]))
                  for r in load(d, "profile.csv")], "launch", "metric", "value")
def tuning(name, gpu, n):  # experiments/lookback_tuning.cu at n (the lab's gpu/): × CUB (% of the copy) of each round
    return Table(name, lambda d: pivot([r for r in load(os.path.join(d, gpu), "lookback_tuning.csv") if r["n"] == n],
                                       "variant", "round", lambda r: "%.2f (%.0f %%)" % (r.f("speedup_vs_cub"), r.f(
                                           "pct_of_copy"))), series_cols("variant", "{}"), caption="Columns: round.")
def budget_rows(d):  # experiments/copy_budget.cu: % of the copy per shape and injected wait
    return pivot([dict(r, shape="%s (%s blocks/SM, %s KiB/SM)" % (r["shape"], r["blocks_per_sm"], r["inflight_KiB_per_sm"]),
                       cycles=r["injected_cycles"] + " cycles") for r in load(d, "copy_budget.csv") if r["validated"] == "1"],
                 "shape", "cycles", "pct_of_copy")
def medians(rs, col="ms"):  # the median of `col` per (n, variant) over the rows (processes, rounds)
    groups = {}
    for r in rs:
        groups.setdefault((r["n"], r["variant"]), []).append(r.f(col))
    return {k: statistics.median(v) for k, v in groups.items()}
def inclusive(d, csv):  # an H200 experiment CSV's inclusive rows
    return [r for r in load(os.path.join(d, "h200"), csv) if r["mode"] == "inclusive"]
def over_ws(rs, tried, label):  # per size: the ws kernel's median (µs) and each tried variant's median over it
    med = medians(rs)
    return [dict(n=n, ws=1000 * med[n, WS], **{label(v): med[n, v] / med[n, WS] for v in tried})
            for n in dict.fromkeys(r["n"] for r in rs)]
def shape_rows(d):  # ws_scan.csv (H100, H200), inclusive: each ws variant's % of the copy per GPU and timed size
    return pivot([dict(r, at="%s, %s" % (g.upper(), "2^28" if r["n"] == N28 else "{:,}".format(int(r["n"]))))
                  for g in ("h100", "h200") for r in load(os.path.join(d, g), "ws_scan.csv")
                  if r["ms"] and r["mode"] == "inclusive" and r["variant"].startswith("ws")], "variant", "at", "pct_of_copy")
def per_size(d, csv, columns):  # a lookback_tuning CSV (H200): per size, the copy's median and each column's, in µs
    rs = load(os.path.join(d, "h200"), csv)
    med, copies = medians(rs), {}
    for r in rs:
        copies.setdefault(r["n"], []).append(r.f("copy_ms"))
    # columns(the variants timed at n, sorted): {heading: variant}
    return [dict(n=n, copy=1000 * statistics.median(c), **{k: 1000 * med[n, v] for k, v in columns(
        sorted(v for nn, v in med if nn == n)).items()}) for n, c in copies.items()]
MID = {"copy": "memcpy_d2d", "pipeline": WSCOPY, "ws kernel": WS,
       "lookback": "lookback", "CUB": "cub"}  # ws_scan_mid.csv's variants, by column heading
def mid_rows(d):  # ws_scan_mid.csv (H200), inclusive: per size, each row's median over the processes, in µs
    rs = inclusive(d, "ws_scan_mid.csv")
    med = medians(rs)
    return [dict(n=n, **{k: 1000 * med[n, v] for k, v in MID.items()}) for n in dict.fromkeys(r["n"] for r in rs)]

def copy_rows(d):  # per size from 2^20 (and 80 MB) and scan, the fastest validated version against the same-size copy
    rs = [r for f in ("sweep.csv", "table1_1.csv") for r in load(d, f) if r["validated"] == "1" and r["is_baseline"] == "0"
          and r["result_ok"] == "1" and r["copy_n_ms"] and (int(r["n"]) >= 1 << 20 if f == "sweep.csv" else r["n"] == N20M)]
    keys = sorted({(int(r["n"]), r["mode"]) for r in rs})
    return [min((r for r in rs if (int(r["n"]), r["mode"]) == k), key=lambda r: r.f("kernel_ms")) for k in keys]
def switch_rows(d):  # la_switch.csv (H200, three processes): medians in µs of each kernel per size and scan
    rs, med = load(os.path.join(d, "h200"), "la_switch.csv"), lambda xs: 1000 * statistics.median(xs)
    return [dict(n=n, mode=m, **{k: med(r.f(c) for r in rs if (r["n"], r["mode"]) == (n, m) and p(r)) for k, c, p in (
        ("lookback", "kernel_ms", lambda r: r["version"] == "lookback"), ("ws", "kernel_ms", lambda r: r["k1_name"] == "ws_scan_kernel"),
        ("cub", "baseline_ms", lambda r: True), ("copy", "copy_n_ms", lambda r: True))}) for n, m in dict.fromkeys((r["n"], r["mode"]) for r in rs)]

def tries_rows(d):  # ws_scan_mid.csv (H200), inclusive: each tried variant's median time over the chosen one's
    rs = inclusive(d, "ws_scan_mid.csv")
    return over_ws(rs, [v for v in dict.fromkeys(r["variant"] for r in rs) if v.startswith(WS + "_")],
                   lambda v: v[len(WS) + 1:])
def launch_figures(ctas):  # one traced launch: its CTAs' times (µs from the first CTA's start) and scan warp 0's cycles
    us = lambda xs: statistics.median(xs) / 1000  # noqa: E731
    run, look = [c for c in ctas if int(c["tiles"])], [c for c in ctas if int(c["look_tiles"])]
    ints = lambda cs, k: [int(c[k]) for c in cs]  # noqa: E731
    cycles = sum(ints(run, "cycles"))
    f = dict(event=1000 * ctas[0].f("event_ms"), landed=us(ints(run, "first_landed_ns")),
             stored=us(ints(run, "first_stored_ns")), done_med=us(ints(run, "last_stored_ns")),
             done_max=max(ints(run, "last_stored_ns")) / 1000,
             **{k: 100 * sum(ints(run, k + "_cycles")) / cycles for k in ("wait_data", "wait_reduce", "wait_prefix", "work")})
    f["after"] = f["event"] - f["done_max"]
    preds = [c for c in look if int(c.get("preds_published_ns", -1)) >= 0 and int(c["first_tile"]) > 0]  # tile 0: none
    if preds:
        f.update(preds=us(ints(preds, "preds_published_ns")))
    if look:
        f.update(looked=us(ints(look, "look_done_ns")), rounds1=statistics.median(ints(look, "look_first_rounds")),
                 rounds=sum(ints(look, "look_rounds")) / sum(ints(look, "look_tiles")))
    return f
def traced(d, csv):  # a trace CSV (H200): {(variant, n): the figures of each of its launches}
    launches, out = {}, {}
    for r in load(os.path.join(d, "h200"), csv):
        launches.setdefault((r["variant"], r["n"], r["launch"]), []).append(r)
    for (v, n, _), ctas in launches.items():
        out.setdefault((v, n), []).append(launch_figures(ctas))
    return out
def over_launches(fs):  # the median of each figure over the launches (a figure only where every launch has it)
    return {k: statistics.median(f[k] for f in fs) for k in set.intersection(*(set(f) for f in fs))}
def trace_rows(d):  # ws_trace.csv: per size, the chosen variant's medians and its pipeline's
    t = traced(d, "ws_trace.csv")
    return [dict(over_launches(t[WS, n]), n=n, copy_event=statistics.median(f["event"] for f in t[WSCOPY, n]),
                 copy_stored=statistics.median(f["stored"] for f in t[WSCOPY, n])) for n in dict.fromkeys(n for _, n in t)]
FILL = {"d0 (chosen)": WS, "d1": WS.replace("_d0_", "_d1_"), "d1, f2": WS.replace("_d0_", "_d1_") + "_f2"}
def fill_trace_rows(d):  # ws_trace_first_fill.csv: per size and first fill, medians over the launches
    t = traced(d, "ws_trace_first_fill.csv")
    return [dict(over_launches(t[v, n]), n=n, fill=k) for n in dict.fromkeys(n for _, n in t) for k, v in FILL.items()]
def fill_rows(d):  # ws_first_fill.csv (H200), inclusive: each variant's median over the chosen one's, three processes
    rs = inclusive(d, "ws_first_fill.csv")
    tried = ["lookback"] + sorted(v for v in dict.fromkeys(r["variant"] for r in rs) if v.startswith(FILL["d1"]))
    return over_ws(rs, tried, lambda v: v.replace(FILL["d1"], "d1").replace("_f", ", f"))
def window_rows(d):  # lookback_window.csv (H200): per size, every variant's median over processes and rounds, in µs
    short = lambda v: v.replace("256x32 minb6 ", "").replace(" sleep100 hint0 stash1", "")  # noqa: E731
    return per_size(d, "lookback_window.csv", lambda variants: {short(v): v for v in variants})
SMALL = {"data path": "tile_copy_smem 256x32", "scan, no look-back": "local 256x32 minb6",
         "whole scan": "256x32 minb6 tid0 sleep100 hint0 stash1"}  # lookback_small.csv's variants, by heading
def small_rows(d):  # lookback_small.csv (H200): per size, medians over processes and rounds, in µs
    return per_size(d, "lookback_small.csv", lambda variants: SMALL)

def start_rows(g):  # start_cost.csv (one process): per variant, each size's ratio to the copy of the same n
    def rows(d):
        rs = load(os.path.join(d, g), "start_cost.csv")
        out = pivot(rs, "variant", "n", lambda r: "%.2f×" % r.f("ratio_to_copy") + ("" if r["ok"] == "1" else " WRONG"))
        # Reversed: pivot keeps a key's last row, so each size keeps its first copy.
        copy = pivot(rs[::-1], lambda r: "copy", "n", lambda r: "%.2f (%s)" % (1000 * r.f("copy_ms"), r.get("copy_by") or "memcpy"))
        return copy[:1] + out
    return rows
def start_trace_rows(g, variant):  # start_trace_tiles.csv (the launch of median span): per 32 tiles, the medians in µs
    def rows(d):
        out = []
        rs = [r for r in load(os.path.join(d, g), "start_trace_tiles.csv") if r["variant"] == variant and r["n"] != "1000000"]
        for n in sorted({r["n"] for r in rs}, key=int):
            tiles = [r for r in rs if r["n"] == n]
            for w in range(0, len(tiles), 32):
                grp = tiles[w:w + 32]
                med = lambda k: statistics.median(r.f(k) for r in grp)  # noqa: E731
                out.append(Row(dict(n=n, tiles="%d–%d" % (w, w + len(grp) - 1), **{k: med(k) / (1 if k in (
                    "polls", "windows") else 1000) for k in ("enter_ns", "loaded_ns", "published_ns", "pred_published_ns",
                                                               "prefixed_ns", "stored_ns", "polls", "windows")})))
        return out
    return rows
def start_exchange_rows(g):  # start_trace_tiles.csv: per traced variant and n, a prefix's wait after its last predecessor
    def cell(grp):  # a barrier's tiles wait for the last arrival of all (its `published`), not their predecessors'
        barrier, last = grp[0]["variant"].startswith("barrier"), max(r.f("published_ns") for r in grp)
        since = lambda own: last if barrier else own  # noqa: E731
        waits = [r.f("prefixed_ns") - since(r.f("pred_published_ns")) for r in grp if r["tile"] != "0"]
        t0 = [r.f("prefixed_ns") - since(r.f("published_ns")) for r in grp if r["tile"] == "0"]
        return "%.2f / %.2f" % (statistics.median(waits) / 1000, t0[0] / 1000) if waits and t0 else None
    def rows(d):
        groups = {}  # variant -> n -> the launch's tiles
        for r in load(os.path.join(d, g), "start_trace_tiles.csv"):
            groups.setdefault(r["variant"], {}).setdefault(r["n"], []).append(r)
        return [Row(variant=v, **{n: cell(grp) for n, grp in by_n.items()}) for v, by_n in groups.items()]
    return rows
START_TRACE_COLS = [Col("n", "n", "{:,.0f}"), Col("tiles")] + [Col(k + "_ns", h, F2) for k, h in (
    ("enter", "started"), ("loaded", "scanned"), ("published", "published"), ("pred_published", "preds published"),
    ("prefixed", "prefix known"), ("stored", "stores issued"))] + [Col("polls", "polls", F1), Col("windows", "windows", F1)]
def start_cols(rows):
    return [Col(lambda r: r.get("variant") or r.get("key"), "variant")] + [
        Col(k, "{:,}".format(int(k))) for k in sorted(series(rows, "variant", "key"), key=int)]

def table1_1(name, csv, modes):  # Table 1.1's sizes, every version
    return Table(name, csv, [
        Col(lambda r: SIZES[r["n"]], "size"), Col("mode", "scan"), Col("version"), Col(lambda r: "0 (exact)" if r[
            "validated"] == "1" and r["result_ok"] == "1" else "MSE %.3g (%s of %s runs wrong)" % (
            r.f("mse"), r["wrong_runs"], r["runs"]), "error"),
        Col(lambda r: "(%s, %s)" % (r["blocks"], r["threads"]) if r["blocks"] else "(CUB's choice)", "(grid, block)"),
        Col("kernel_ms", "time (ms)", MS), Col("bandwidth_GBps", "GB/s (8 B/elem)", F0),
        Col("speedup_vs_baseline", "speed vs cub", F2), Col("speedup_vs_cpu", "speed vs CPU", F1)],
        where=lambda r: r["n"] in SIZES and r["mode"] in modes, sort=lambda r: (int(r["n"]), r["mode"] != "inclusive"))

def as_printed(name, csv):  # section 2's kernel as printed
    return Table(name, csv, [
        Col("n"), Col("blocks"), Col("kernel_ms", "time (ms)", MS), Col("serial_ms", "thread 0's serial scan (ms)", MS),
        Col(lambda r: 100 * r.f("serial_ms") / r.f("kernel_ms"), "its share of the time (%)", F0),
        Col(lambda r: "%s of %s" % (r["wrong_runs"], r["runs"]), "runs wrong"),
        Col("first_mismatch", "first wrong element")], sort=lambda r: int(r["n"]))

TABLES = [
    Table("mse", lambda d: mse_rows(d) + H200(mse_rows)(d), [
        Col("device", "GPU"), Col("launch"), Col("n"), Col("runs", "runs per n"),
        Col("exact", "exact on every run up to n ="), Col("wrong", "sizes with a wrong run"),
        Col("always", "sizes wrong on every run"), Col("max", "largest MSE", "{:.3g}"),
        Col("sse33", "sum of squared errors at n = 33")]),
    Table("race", race_rows, [
        Col("warps", "warps holding elements"), Col("n"), Col("w", "`results/`: wrong runs (%)", F0),
        Col("wh200", "`results/h200/`: wrong runs (%)", F0)]),
    as_printed("as_printed", "as_printed.csv"), as_printed("as_printed-h200", "h200/as_printed.csv"),
    table1_1("table1_1", "table1_1.csv", {"inclusive"}), table1_1("table1_1-h200", "h200/table1_1.csv", {"inclusive"}),
    table1_1("table1_1-exclusive", "table1_1.csv", {"exclusive"}),
    Table("sweep", sweep_rows, lambda rows: sweep_cols(rows, ("hs_multiblock_racy", "map_brent_kung"))),
    Table("sweep-h200", H200(sweep_rows), sweep_cols),
    Table("occupancy", "table1_1.csv", [Col("version"), Col("n")] + [Col(kernel(k), "k%d: grid × block, registers, "
                                        "shared memory, blocks/SM, occupancy, waves" % k) for k in (1, 2, 3)],
          where=lambda r: r["mode"] == "inclusive" and r["k1_name"] and r["n"] in (
              ("1250000", "12500000", N20M, N28) if r["version"] in ("map", "brent_kung") else (N20M,)),
          sort=lambda r: int(r["n"])),
    Table("work", "table1_1.csv", [
        Col("n"), Col("version"), Col("additions", "additions", "{:.4g}"),
        Col(lambda r: r.f("additions") / int(r["n"]), "per element", F2),
        Col(lambda r: int(r["n"]) * math.log2(int(r["n"])) if HS(r) else None, "report's count, n log2 n", "{:.4g}"),
        Col(lambda r: math.log2(int(r["n"])) if HS(r) else None, "per element", F2)],
        where=lambda r: r["mode"] == "inclusive" and r["additions"] and r["n"] in ("1250000", N28)),
    *(Table("per_thread" + h, f, series_cols("per_thread", MS, "per thread")) for h, f in (("", per_thread_rows),
                                                                                            ("-h200", H200(per_thread_rows)))),
    Table("profile", profile_rows, [
        Col("launch", "kernel (version), n"), Col("launch__grid_size", "grid", F0),
        Col("sm__maximum_warps_per_active_cycle_pct", "theoretical occupancy (%)", F0),
        Col("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy (%)", F1),
        Col("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput (% of peak)", F1),
        Col(lambda o: o.f("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
            / o.f("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), "global load sectors per request", F1),
        Col("smsp__average_warp_latency_per_inst_issued.ratio", "warp cycles per issued instruction", F2)] + [
        Col(STALL % s, s + " (stall cycles per issued instruction)", F2) for s in STALLS[:2]],
        caption="Every counter (blocks/SM limits, SM activity, two more stall reasons): `profile.csv`.")]

# The lab's tables (experiments/README.md), over experiments/results/ (h100/, h200/); copy-h200 reads the
# reference run of results/h200/.
LAB_TABLES = [
    *(tuning("tuning-%s%s" % (s, g == "h200" and "-h200" or ""), g, n) for g in ("h100", "h200") for s, n in (("20m", N20M), ("2p28", N28))),
    Table("ws_scan", lambda d: load(d, "h100/ws_scan.csv") + load(d, "h200/ws_scan.csv"), [
        Col("device", "GPU"), Col("n"), Col("mode"), Col("variant"), Col("ms", "time (ms)", MS),
        Col(lambda r: 8 * int(r["n"]) / r.f("copy_ms") / 1e6, "copy (GB/s)", F0),
        Col("pct_of_copy", "% of the copy", F1), Col("speedup_vs_cub", "× CUB", "{:.3f}"), Col("ok", "validated")],
        where=lambda r: r["ms"] and r["variant"] in ("lookback", WS)),
    Table("ws-shapes", shape_rows, lambda rows: [Col("variant")] + [Col(k, k, F1) for k in series(rows, "variant")],
          sort=lambda r: (r["variant"].startswith("wscopy"), r["variant"] != WS), caption="% of the copy of the same n ints, inclusive scans (exclusive: the CSVs); columns: GPU, n."),
    *(Table("copy_budget" + h, lambda d, g=g: budget_rows(os.path.join(d, g)), series_cols("shape", F1))
      for h, g in (("", "h100"), ("-h200", "h200"))),
    *(Table("copy-" + g, lambda d, sub=sub: copy_rows(os.path.join(HERE, "results", *sub)), [  # the reference runs'
        Col(lambda r: "2^%d" % math.log2(int(r["n"])) if int(r["n"]) & (int(r["n"]) - 1) == 0 else "{:,}".format(int(r["n"])), "n"),
        Col("mode", "scan"), Col("version", "fastest version"), Col(lambda r: 1000 * r.f("kernel_ms"), "time (µs)", F2),
        Col(lambda r: "%.2f (%s)" % (1000 * r.f("copy_n_ms"), r.get("copy_n_by") or "cudaMemcpy"), "copy of the same n ints (µs, by)"),
        Col(lambda r: r.f("kernel_ms") / r.f("copy_n_ms"), "× that copy (target ≤ 1.15)", F2),
        Col("pct_of_copy_bw", "% of the run's 256 MiB copy (target at 80 MB: ≥ 90)", F1),
        Col("speedup_vs_baseline", "× CUB", F2)]) for g, sub in (("h100", ()), ("h200", ("h200",)))),
    Table("switch", switch_rows, [Col("n", "n", "{:,.0f}"), Col("mode", "scan")] + [
        Col(k, k + " (µs)", F2) for k in ("lookback", "ws", "cub", "copy")], caption="ws: lookahead forced to its warp-"
        "specialised kernel (--la-kernel=ws); copy: the same n ints."),
    Table("mid", mid_rows, [Col("n", "n", "{:,.0f}"), Col("copy", "copy (µs)", F2)] + [Col(lambda o, k=k: "%.2f (%.2f×)" % (
        o[k], o[k] / o["copy"]), k) for k in list(MID)[1:]],
          caption="Each cell: µs (× the copy); pipeline: the ws kernel moving the data unscanned."),
    Table("tries", tries_rows, lambda rows: [Col("n", "n", "{:,.0f}"), Col("ws", "ws kernel (µs)", F2)] + [
        Col(k, k, "{:.3f}") for k in series(rows, "n", "ws")], caption="Each: time / the ws kernel's. f2, f4, f6: at most 2, 4, "
        "6 copies of a CTA in flight\nuntil its stages are full; la2, la4, la8: rounds of 2, 4, 8 descriptors a lane "
        "(ws kernel: 16)."),
    Table("trace", trace_rows, [
        Col("n", "n", "{:,.0f}"), Col("event", "launch (µs)", F2), Col("landed", "first tile landed", F2),
        Col(lambda r: r.get("preds"), "its predecessors published", F2), Col("looked", "its prefix known", F2), Col("rounds1", "in rounds", "{:.0f}"), Col("stored", "first store", F2),
        Col("copy_stored", "pipeline's first store", F2), Col("done_med", "CTAs done: median", F2),
        Col("done_max", "last", F2), Col("after", "launch − CTAs' span", F2), Col("rounds", "rounds per tile", F2),
        Col(lambda r: "%.0f / %.0f / %.0f / %.0f" % (r["wait_data"], r["wait_reduce"], r["wait_prefix"], r["work"]),
            "scan warp 0: data / totals / prefix / work (%)")],
          caption="µs from the first CTA's start (%globaltimer): medians over the CTAs (last: the latest), then over"
          "\nthe launches; rounds per tile and the shares: sums over the CTAs; rounds: look-ahead warp 1's polls."),
    Table("fill", fill_rows, lambda rows: [Col("n", "n", "{:,.0f}"), Col("ws", "ws kernel (µs)", F2)] + [
        Col(k, k, "{:.3f}") for k in series(rows, "n", "ws")], caption="Each: time / the ws kernel's (d0: every tile drawn "
        "from the counter); d1: each CTA's first 12\ntiles fixed (CTA c: c, c + G, ...); f2, f3, f4: its first fill "
        "ramped to 2, 3, 4 copies."),
    Table("fill-trace", fill_trace_rows, [
        Col("n", "n", "{:,.0f}"), Col("fill", "first fill"), Col("event", "launch (µs)", F2),
        Col(lambda r: r.get("preds"), "first tile's predecessors published", F2), Col("looked", "its prefix known", F2),
        Col("rounds1", "in rounds", "{:.0f}"), Col("stored", "first store", F2), Col("done_max", "last CTA done", F2)],
          caption="µs from the first CTA's start: medians over the CTAs (last: the latest), then over five launches."),
    Table("window", window_rows, lambda rows: [Col("n", "n", "{:,.0f}"), Col("copy", "copy (µs)", F2)] + [
        Col(k, k, F2) for k in series(rows, "n", "copy")], caption="µs, medians; tid1: tile ids from blockIdx.x (coop: a "
        "cooperative launch), tid0: drawn (lb1: waits\nonly for the nearest unpublished predecessor); winKx32: K "
        "descriptors a lane, 32 × K a round."),
    *(Table("start-" + g, start_rows(g), start_cols, caption="Time / the copy of the same n ints timed beside it (both "
            "in the CSV); copy: the first such copy (µs)\nand which was faster; `no look-back`: each tile scanned "
            "alone, not a scan.") for g in ("h100", "h200")),
    *(Table("start-trace-" + g, start_trace_rows(g, "lookback 256x32 traced"), START_TRACE_COLS, caption="µs after "
        "the first block's start (%globaltimer), medians per 32 tiles of the median launch of 21;\npreds published: "
        "the last predecessor's aggregate; polls, windows: the look-back's reads, windows.") for g in ("h100", "h200")),
    *(Table("start-allread-trace-" + g, start_trace_rows(g, "allread 256x8 traced"), START_TRACE_COLS[:-1], caption="µs "
        "after the first block's start (%globaltimer), medians per 32 tiles of the median launch of 21;\npreds "
        "published: the last predecessor's aggregate; polls: rounds of reads.")
      for g in ("h100",)),  # the H200's start_cost run predates allread
    *(Table("start-exchange-" + g, start_exchange_rows(g), start_cols, caption="µs to a known prefix after the last "
        "predecessor's publication (barrier: the last arrival):\nmedian of tiles 1 on / tile 0's, after its own "
        "(barrier: the last arrival); launch of median span.") for g in ("h100", "h200")),
    Table("small", small_rows, [Col("n", "n", "{:,.0f}"), Col("copy", "copy (µs)", F2)] + [Col(lambda o, k=k: "%.2f (%.2f×)" % (
        o[k], o[k] / o["copy"]), k) for k in SMALL], caption="Each cell: µs (× the copy of the same n ints: the median of "
        "the copies timed beside\nevery variant); data path and scan without look-back: not scans.")]

if __name__ == "__main__":
    run(TABLES)
    if len(sys.argv) == 1:  # the committed documents: the lab's too
        fill_docs(LAB_TABLES, LAB, os.path.join(HERE, "experiments"))
