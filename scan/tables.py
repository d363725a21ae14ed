#!/usr/bin/env python3
"""Regenerates every table of scan/README.md from results/*.csv (`make tables`, run by
`make plots` and `make report`). A missing CSV leaves its tables as they are."""
import math
import os
import sys
from collections import defaultdict

sys.dont_write_bytecode = True  # no __pycache__ next to the shared helpers
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))

from readme_tables import (Readme, Table, compare, fill, fill_blocks, load, md_table,  # noqa: E402
                           ncu_kernels, placeholder_table, pow2, ratio, read_csv, rewrap, span, verdict)
from prose import CONCLUSIONS, PROSE, RACY, STALLS_MEASURED, STALLS_NOT_MEASURED, TARGET  # noqa: E402

README = os.path.join(HERE, "README.md")
RESULTS = os.path.join(HERE, "results")
N20M, N28 = 20000000, 1 << 28
REPORT_SIZES = {1250000: "5 MB", 12500000: "50 MB", N20M: "80 MB"}  # Table 1.1's, 5, 50 and 80 MB of int
PER_THREAD_SIZES = {1250000: "5 MB", N20M: "80 MB"}
TARGET_SIZES = {N20M: "20m", N28: "2p28"}  # the sizes of the look-back target, as value names end
ORDER = []  # the versions in the order of the CSVs, the library baseline last (set_order)
PLACEHOLDER = "(run make report-run)"
PROFILE_PLACEHOLDER = "(run make profile)"
NOT_MEASURED = "not measured yet: run make profile"
NOT_RUN = "not measured yet: run make report-run"
# The sweep table's columns, in the README's order (brent_kung before map: not the CSV's order).
SWEEP_COLUMNS = ("brent_kung", "map", "map_brent_kung", "lookback", "lookahead", "cub")
# The occupancy table's sizes: 20,000,000, and the other sizes of the versions the prose discusses.
OCCUPANCY_SIZES = {"brent_kung": (1250000, 12500000, N20M, N28), "map_brent_kung": (1250000, N20M)}
MS = "{:.4f}"


def set_order(*tables):
    """ORDER from the CSVs' rows: each version where it first appears, baselines (is_baseline = 1) last."""
    baseline = {}
    for rows in tables:
        for r in rows or []:
            baseline.setdefault(r["version"], r.get("is_baseline") == "1")
    ORDER[:] = sorted(baseline, key=baseline.get)


def num(row, key):
    try:
        return float(row.get(key, ""))
    except ValueError:
        return float("nan")


def order_key(row):
    return ORDER.index(row["version"])


def rows_of(rows, version, n, mode=None):
    return [r for r in rows if r["version"] == version and int(r["n"]) == n
            and (mode is None or r["mode"] == mode)]


def the(rows, version, n, mode="inclusive"):
    sel = rows_of(rows, version, n, mode)
    if len(sel) != 1:
        sys.exit("tables.py: expected one %s row at n=%d (%s), found %d" % (version, n, mode, len(sel)))
    return sel[0]


def col(rows, version, n, key, mode=None):
    """The column over both scans (or one), as floats."""
    vals = [num(r, key) for r in rows_of(rows, version, n, mode)]
    if not vals:
        sys.exit("tables.py: no %s rows at n=%d" % (version, n))
    return vals


def sci(x):
    """6.76e17 (three digits, no '+')."""
    mant, exp = "{:.2e}".format(x).split("e")
    return "%se%d" % (mant, int(exp))


def device_of(*tables):
    """The device named by the first CSV that has rows: generated text never names a GPU itself."""
    return next((rows[0]["device"] for rows in tables if rows and rows[0].get("device")),
                "(no results yet: run make report-run)")


def device_text(rows):
    r = rows[0]
    return ("Measured on {} (compute capability {}, driver {}, runtime {}); device-to-device copy "
            "{:.0f} GB/s.".format(r["device"], r["compute_capability"], r["driver"], r["runtime"],
                                  num(r, "copy_bw_GBps")))


# --- Tables --------------------------------------------------------------------------------

def error_text(row):
    if row["validated"] != "1":
        return "MSE {:.3g} ({} of {} runs wrong)".format(num(row, "mse"), row["wrong_runs"], row["runs"])
    return "0 (exact)" if row["result_ok"] == "1" else "MSE {:.3g} ({} wrong)".format(num(row, "mse"),
                                                                                      row["mismatches"])


def occupancy_rows(rows):
    """The launches of every validated version with kernels of its own (inclusive), at the sizes
    the prose discusses: 20,000,000, and for brent_kung and map_brent_kung the sizes it quotes."""
    keys = ("grid", "block", "regs", "smem_bytes", "blocks_per_sm", "occupancy", "waves")
    out = [dict({c: r["k%d_%s" % (k, c)] for c in keys}, version=r["version"], n=r["n"],
                kernel="k%d %s" % (k, r["k%d_name" % k]))
           for r in rows if r["mode"] == "inclusive" and r["validated"] == "1"
           and int(r["n"]) in OCCUPANCY_SIZES.get(r["version"], (N20M,))
           for k in (1, 2, 3) if r.get("k%d_name" % k)]
    return sorted(out, key=lambda o: (ORDER.index(o["version"]), int(o["n"]), o["kernel"]))


def target_ratios(rows, sweep):
    """lookback speed / cub speed per (n, mode) with both rows: (ratio, lookback's row, cub's row)."""
    out = {}
    for n in TARGET_SIZES:
        for mode in ("inclusive", "exclusive"):
            sel = {r["version"]: r for r in list(sweep or []) + list(rows)
                   if int(r["n"]) == n and r["mode"] == mode}
            if "lookback" in sel and "cub" in sel:
                out[(n, mode)] = (num(sel["cub"], "kernel_ms") / num(sel["lookback"], "kernel_ms"),
                                  sel["lookback"], sel["cub"])
    return out


def target_rows(rows, sweep):
    """lookback against cub at 20,000,000 and 2^28, both scans (the sweep's 2^28 row fills a gap)."""
    return [{"n": n, "mode": mode, "cub": cub["kernel_ms"], "lb": lb["kernel_ms"], "ratio": x,
             "lbbw": lb["bandwidth_GBps"], "pct": lb["pct_of_copy_bw"], "cubbw": cub["bandwidth_GBps"],
             "met": "yes" if x >= 0.9 else "**no** (%.0f%% short)" % (100 * (0.9 - x) / 0.9)}
            for (n, mode), (x, lb, cub) in target_ratios(rows, sweep).items()]


def mse_rows(rows):
    out = []
    for version, launch in (("hs_inplace_racy", "<<<1, 32>>>"),
                            ("hs_multiblock_racy", "<<<ceil(n/1024), 1024>>>")):
        sel = sorted((r for r in rows if r["version"] == version), key=lambda r: int(r["n"]))
        if not sel:
            continue
        wrong = [r for r in sel if int(r["wrong_runs"]) > 0]
        in_1024 = [r for r in sel if int(r["n"]) <= 1024]
        out.append({
            "version": version, "launch": launch, "sizes": "{}..{}".format(sel[0]["n"], sel[-1]["n"]),
            "runs": sel[0]["runs"], "exact": int(wrong[0]["n"]) - 1 if wrong else int(sel[-1]["n"]),
            "wrong": "{} of {}".format(len(wrong), len(sel)),
            "wrong1024": "{} of {}".format(sum(1 for r in in_1024 if int(r["wrong_runs"]) > 0), len(in_1024)),
            "always": "{} of {}".format(sum(r["wrong_runs"] == r["runs"] for r in sel), len(sel)),
            "maxmse": max(num(r, "mse_max") for r in sel),
            "n33": next(("{:.0f}".format(num(r, "sse")) for r in sel if int(r["n"]) == 33), "")})
    return out


def sweep_rows(rows):
    out = []
    for n in [1 << e for e in range(10, 29, 2)]:
        sel = {r["version"]: r for r in rows if int(r["n"]) == n and r["mode"] == "inclusive"}
        if sel:
            any_row, lb = next(iter(sel.values())), sel.get("lookback")
            row = dict({v: r["kernel_ms"] for v, r in sel.items()}, n=pow2(n), cpu=any_row["cpu_ms"])
            if lb:
                row.update(lbtotal=lb["total_ms"], cpu_vs_lb=num(any_row, "cpu_ms") / num(lb, "kernel_ms"))
            out.append(row)
    return out


def work_rows(rows):
    """Section 1.3: additions per version (scan_plan.h's model, the CSV's additions column)."""
    out = []
    for n in (1250000, N20M, N28):
        sel = [r for r in rows if int(r["n"]) == n and r["mode"] == "inclusive" and r.get("additions")]
        if sel:
            out.append({"n": n, "version": "CPU serial (n - 1)", "additions": n - 1, "pe": (n - 1) / n,
                        "report": n, "rpe": 1.0})
        for r in sorted(sel, key=order_key):
            hs = r["version"].startswith("hs_")
            out.append({"n": n, "version": r["version"], "additions": num(r, "additions"),
                        "pe": num(r, "additions") / n, "report": n * math.log2(n) if hs else "",
                        "rpe": math.log2(n) if hs else ""})
    return out


def per_thread_ms(version, n):
    """A cell of the per_thread table: the time of version at n for one K (the last such row)."""
    return lambda o: next((r["kernel_ms"] for r in reversed(o["rows"]) if r["version"] == version
                           and int(r["n"]) == n and r["mode"] == "inclusive"), "")


def sm_activity_rows(rows):
    """Figure 3.4 SM by SM: per size, how the blocks fell on the SMs and how long each SM was
    active, as % of the kernel's span."""
    out = []
    for n in sorted({int(r["n"]) for r in rows}):
        rs = [r for r in rows if int(r["n"]) == n]
        ran = [float(r["active_pct"]) for r in rs if int(r["sm_blocks"]) > 0]
        pct = [float(r["active_pct"]) for r in rs]
        out.append({"n": f"{n:,}", "blocks": rs[0]["blocks"], "ran": f"{len(ran)} of {len(rs)}",
                    "two": sum(1 for r in rs if int(r["sm_blocks"]) >= 2),
                    "span": float(rs[0]["span_ns"]) / 1e3,
                    "least": min(ran) if ran else "", "mean": sum(pct) / len(pct), "most": max(pct)})
    return out


def as_printed_rows(rows):
    out = []
    for r in sorted(rows, key=lambda r: int(r["n"])):
        share = ratio(r.get("serial_ms"), r.get("kernel_ms"))
        out.append({"n": "{:,}".format(int(r["n"])), "blocks": r["blocks"], "ms": num(r, "kernel_ms"),
                    "serial": r.get("serial_ms") or "?", "share": "?" if share is None else share,
                    "wrong": "%s of %s" % (r["wrong_runs"], r["runs"]),
                    "first": r.get("first_mismatch") or ""})
    return out


def specs(table, sweep, per_thread):
    """Every table of the README that is one CSV's rows, as a Table."""
    sm_headings = ["n", "blocks", "SMs that ran a block", "SMs with 2+ blocks", "span (us)",
                   "active, least busy SM that ran (%)", "active, mean over all SMs (%)",
                   "active, busiest SM (%)"]
    ap_headings = ["n", "blocks", "time (ms)", "thread 0's serial scan (ms)", "its share of the time",
                   "runs wrong", "first wrong element"]
    versions = list(dict.fromkeys(r["version"] for r in per_thread or []))
    return [
        Table("table1_1", "table1_1.csv", [
            (lambda r: REPORT_SIZES[int(r["n"])], "size"), "n", ("mode", "scan"), "version",
            (error_text, "error"),
            (lambda r: "({}, {})".format(r["blocks"], r["threads"]) if r["blocks"] else "(CUB's choice)",
             "(grid, block)"),
            ("kernel_ms", "time (ms)", MS), ("bandwidth_GBps", "GB/s (8 B/elem)", "{:.0f}"),
            ("speedup_vs_baseline", "speed vs cub", "{:.2f}"), ("speedup_vs_cpu", "speed vs CPU", "{:.1f}")],
            where=lambda r: int(r["n"]) in REPORT_SIZES and r["mode"] in ("inclusive", "exclusive"),
            order=lambda r: (list(REPORT_SIZES).index(int(r["n"])), r["mode"] != "inclusive", order_key(r)),
            bold=lambda r: r["version"] == "lookback", head=lambda rows: device_text(table)),
        Table("occupancy", "table1_1.csv", [
            "version", "n", "kernel", "grid", "block", ("regs", "registers/thread"),
            ("smem_bytes", "shared bytes/block"), ("blocks_per_sm", "blocks/SM"),
            ("occupancy", "theoretical occupancy", "{:.0%}"), ("waves", "waves", "{:.2f}")],
            rows=occupancy_rows),
        Table("target", "table1_1.csv", [
            "n", ("mode", "scan"), ("cub", "cub (ms)", MS), ("lb", "lookback (ms)", MS),
            ("ratio", "lookback speed / cub", "{:.3f}"), ("lbbw", "lookback GB/s", "{:.0f}"),
            ("pct", "lookback % of copy", "{:.1f}"), ("cubbw", "cub GB/s", "{:.0f}"),
            ("met", ">= 0.9 x cub?")],
            rows=lambda rows: target_rows(rows, sweep)),
        Table("bytes", "table1_1.csv", [
            "n", "version",
            (lambda r: num(r, "model_bytes") / int(r["n"]), "bytes moved per element (model)", "{:.2f}"),
            ("kernel_ms", "time (ms)", MS), ("model_GBps", "GB/s of those bytes", "{:.0f}"),
            ("bandwidth_GBps", "GB/s (8 B/elem)", "{:.0f}"),
            ("speedup_vs_baseline", "speed vs cub", "{:.2f}")],
            where=lambda r: (int(r["n"]) in TARGET_SIZES and r["mode"] == "inclusive"
                             and r["validated"] == "1"),
            order=lambda r: (int(r["n"]) != N20M, order_key(r))),
        Table("work", "table1_1.csv", [
            "n", "version", ("additions", "additions", "{:.4g}"), ("pe", "per element", "{:.2f}"),
            ("report", "report's count (1.3)", "{:.4g}"), ("rpe", "per element", "{:.2f}")],
            rows=work_rows, missing=placeholder_table(
                ["n", "version", "additions", "per element", "report's count", "report's count per element"],
                PLACEHOLDER)),
        Table("mse", "mse.csv", [
            "version", "launch", ("sizes", "n"), ("runs", "runs per n"),
            ("exact", "exact on every run up to n ="),
            ("wrong", "sizes with a wrong run"), ("wrong1024", "... among n <= 1024"),
            ("always", "sizes wrong on every run"), ("maxmse", "largest MSE", "{:.3g}"),
            ("n33", "sum of squared errors at n = 33")], rows=mse_rows, head=device_text),
        Table("sweep", "sweep.csv", [("n", "n"), ("cpu", "CPU serial (ms)", MS)] + [
            (v, v + " (ms)", MS) for v in SWEEP_COLUMNS] + [
            ("lbtotal", "lookback + copies (ms)", "{:.3f}"), ("cpu_vs_lb", "CPU / lookback", "{:.0f}")],
            rows=sweep_rows),
        Table("per_thread", "per_thread.csv", [("k", "per thread")] + [
            (per_thread_ms(v, n), "%s %s (ms)" % (v, size), MS) for n, size in PER_THREAD_SIZES.items()
            for v in versions],
            rows=lambda rows: [{"k": k, "rows": [r for r in rows if r.get("per_thread") == str(k)]}
                               for k in sorted({int(r["per_thread"]) for r in rows if r.get("per_thread")})],
            head=device_text, missing=placeholder_table(["per thread", "time (ms)"], PLACEHOLDER)),
        Table("sm_activity", "sm_activity.csv", list(zip(
            ["n", "blocks", "ran", "two", "span", "least", "mean", "most"], sm_headings,
            ["{}", "{}", "{}", "{}", "{:.1f}", "{:.0f}", "{:.0f}", "{:.0f}"])),
            rows=sm_activity_rows, missing=placeholder_table(sm_headings, PROFILE_PLACEHOLDER)),
        Table("as_printed", "as_printed.csv", list(zip(
            ["n", "blocks", "ms", "serial", "share", "wrong", "first"], ap_headings,
            ["{}", "{}", MS, MS, "{:.0%}", "{}", "{}"])), rows=as_printed_rows,
            head=lambda rows: ("On %s, %s elements per thread, %s threads per block (the serial part is "
                               "thread 0's own clock, `%%globaltimer`, of the last timed run):"
                               % (rows[0]["device"], rows[0]["per_thread"], rows[0]["threads"])),
            missing=placeholder_table(ap_headings, NOT_RUN))]


# --- Numbers of the prose, every one computed from results/*.csv -------------------------------

MSE_BUCKETS = ((65, 128), (129, 256), (257, 414), (415, 512), (513, 768), (769, 1024))
# results/lookback_tuning.csv's variants (experiments/lookback_tuning.cu) quoted in the prose.
COMMITTED = "256x32 minb6 tid0 sleep100 hint0 stash1"
TUNING = {
    "bounds8": ["256x16 minb8 tid0 sleep0 hint0 stash0"],
    "backoff": ["256x16 minb8 tid0 sleep100 hint0 stash0"],
    "stash": ["256x16 minb8 tid0 sleep100 hint0 stash1"],
    "committed": [COMMITTED],
    "tid": ["256x32 minb6 tid1 sleep100 hint0 stash1"],
    "hints": ["256x32 minb6 tid0 sleep100 hint1 stash1"],
    "items": ["256x12 minb8 tid0 sleep100 hint0 stash1", "256x16 minb8 tid0 sleep100 hint0 stash1",
              "256x20 minb6 tid0 sleep100 hint0 stash1", "256x24 minb6 tid0 sleep100 hint0 stash1"],
    "t128": ["128x32 minb12 tid0 sleep100 hint0 stash1", "128x64 minb6 tid0 sleep100 hint0 stash1"],
    "t512": ["512x16 minb4 tid0 sleep100 hint0 stash1"],
    "minb4": ["256x32 minb4 tid0 sleep100 hint0 stash1"],
    "sleeps": ["256x32 minb6 tid0 sleep50 hint0 stash1", "256x32 minb6 tid0 sleep300 hint0 stash1"],
    "nosleep": ["256x32 minb6 tid0 sleep0 hint0 stash1"],
}


def table_prose(t, sweep):
    """t_*: numbers of the prose from results/table1_1.csv (the target's 2²⁸ gap filled from the sweep)."""
    lb = the(t, "lookback", N20M)
    v = {"t_lb_regs": lb["k1_regs"], "t_lb_bps": lb["k1_blocks_per_sm"],
         "t_lb_occ": "{:.0%}".format(num(lb, "k1_occupancy")),
         "t_lb_smem_kib": "{:.0f}".format(num(lb, "k1_smem_bytes") / 1024),
         "t_lb_total_20m": "{:.1f}".format(num(lb, "total_ms")),
         "t_cpu_20m": "{:.1f}".format(num(lb, "cpu_ms"))}
    # Bytes and bandwidths (both scans), at 20,000,000 and 2²⁸.
    factors = []
    for n, tag in TARGET_SIZES.items():
        for version, short in (("brent_kung", "bk"), ("map", "map")):
            v["t_%s_vs_cub_%s" % (short, tag)] = span(col(t, version, n, "speedup_vs_baseline"), "{:.2f}")
            v["t_%s_gbps_%s" % (short, tag)] = span(col(t, version, n, "model_GBps"), "{:.0f}")
        bk, cub = col(t, "brent_kung", n, "model_GBps"), col(t, "cub", n, "model_GBps")
        v["t_cub_gbps_" + tag] = span(cub, "{:.0f}")
        v["t_bk_bw_share_" + tag] = span([b / c for b in bk for c in cub], "{:.2f}")
        factors += [c / b for b in bk for c in cub]
    v["t_bk_bw_factor"] = span(factors, "{:.1f}")
    for version, short in (("brent_kung", "bk"), ("map", "map"), ("lookback", "lb")):
        v["t_%s_bpe" % short] = span([num(r, "model_bytes") / n for n in TARGET_SIZES
                                      for r in rows_of(t, version, n)], "{:.2f}")
    v["t_bk_bytes_factor"] = span([num(r, "model_bytes") / (8.0 * n) for n in TARGET_SIZES
                                   for r in rows_of(t, "brent_kung", n)], "{:.1f}")
    for name, version, key, spec in (("t_bk_vs_cub_all", "brent_kung", "speedup_vs_baseline", "{:.2f}"),
                                     ("t_bk_gbps_all", "brent_kung", "model_GBps", "{:.0f}"),
                                     ("t_cub_gbps_all", "cub", "model_GBps", "{:.0f}")):
        v[name] = span([x for n in TARGET_SIZES for x in col(t, version, n, key)], spec)
    # lookback against the other versions of ours at 20,000,000 (both scans).
    ours = [r for r in t if int(r["n"]) == N20M and r["validated"] == "1" and r["is_baseline"] != "1"]
    fastest = {min((x for x in ours if x["mode"] == r["mode"]), key=lambda x: num(x, "kernel_ms"))["version"]
               for r in ours}
    v["t_lb_rank"] = ("the fastest of ours" if fastest == {"lookback"}
                      else "not the fastest of ours (%s is)" % ", ".join(sorted(fastest)))
    # The many-block racy launch at the Table 1.1 sizes.
    mb = [the(t, "hs_multiblock_racy", n) for n in REPORT_SIZES]
    counts = ["%s of %s" % (r["wrong_runs"], r["runs"]) for r in mb]
    times = [num(r, "kernel_ms") for r in mb]
    v.update({
        "t_mb_verdict": "holds" if all(r["wrong_runs"] == r["runs"] for r in mb) else "does not hold",
        "t_mb_runs": ("%s runs wrong at each of 5, 50 and 80 MB" % counts[0] if len(set(counts)) == 1
                      else "%s runs wrong at 5, 50 and 80 MB" % ", ".join(counts)),
        "t_mb_mse": ", ".join(sci(num(r, "mse")) for r in mb),
        "t_mb_trend": ("grows with n" if times == sorted(times) and times[0] < times[-1]
                       else "does not grow steadily with n"),
        "t_mb_t5": "{:.3f}".format(times[0]), "t_mb_t80": "{:.3f}".format(times[-1]),
        "t_mb_tbps": "{:.1f}".format(num(mb[-1], "model_GBps") / 1000),
        "t_mb_gb": "{:.0f}".format(num(mb[-1], "model_bytes") / 1e9),
        "t_mb_vs_copy": "{:.1f}".format(num(mb[-1], "model_GBps") / num(mb[-1], "copy_bw_GBps"))})
    # Brent–Kung against the CPU (kernel time) in the Table 1.1 run.
    for n, tag in ((1250000, "5"), (12500000, "50"), (N20M, "80"), (N28, "2p28")):
        v["t_bk_cpu_" + tag] = "{:.0f}".format(num(the(t, "brent_kung", n), "speedup_vs_cpu"))
    # Occupancy and waves of map and brent_kung (Table 1.1 sizes; 2²⁸ where said).
    launches = [(r, k) for r in t if r["version"] in ("map", "brent_kung") for k in (1, 2, 3)]
    v["t_occ_mapbk"] = span([num(r, "k%d_occupancy" % k) for r, k in launches if r.get("k%d_occupancy" % k)],
                            "{:.0%}")
    v["t_occ_mapbk_bps"] = "/".join(sorted({r["k%d_blocks_per_sm" % k] for r, k in launches
                                            if r.get("k%d_blocks_per_sm" % k)}))
    under = ["%s at %s" % (version, size) for version in ("map", "brent_kung")
             for n, size in REPORT_SIZES.items() if num(the(t, version, n), "k1_waves") < 1]
    v["t_occ_except"] = (", except for " + " and ".join(under)) if under else ""
    bk = [the(t, "brent_kung", n) for n in REPORT_SIZES]
    main_waves = [num(r, "k%d_waves" % k) for r in bk for k in (1, 3)]
    k2_waves, k2_grids = max(num(r, "k2_waves") for r in bk), [int(r["k2_grid"]) for r in bk]
    mp = [the(t, "map", n) for n in REPORT_SIZES]
    map_k2 = [num(r, "k2_waves") for r in mp]
    v.update({
        "t_bk_waves_lo": "{:.1f}".format(min(main_waves)), "t_bk_waves_hi": "{:.0f}".format(max(main_waves)),
        "t_bk_waves_2p28": "{:.0f}".format(num(the(t, "brent_kung", N28), "k1_waves")),
        "t_bk_k2_blocks": "%d to %d" % (min(k2_grids), max(k2_grids)),
        "t_bk_k2_wave": "a fraction of one wave" if k2_waves < 1 else "up to %.2f waves" % k2_waves,
        "t_map_waves_5": "{:.2f}".format(num(mp[0], "k1_waves")),
        "t_map_waves_50": "{:.1f}".format(num(mp[1], "k1_waves")),
        "t_map_waves_80": "{:.1f}".format(num(mp[2], "k1_waves")),
        "t_map_blocks_5": mp[0]["k1_grid"],
        "t_map_slots": "{:.0f}".format(num(mp[0], "k1_grid") / num(mp[0], "k1_waves")),
        "t_map_k2_blocks": ", ".join(r["k2_grid"] for r in mp),
        "t_map_k2_waves": "{:.2f} to {:.2f}".format(min(map_k2), max(map_k2)),
        "t_map_idle": ("at 5 MB the grid does leave SMs idle" if num(mp[0], "k1_waves") < 1
                       else "no grid leaves SMs idle")})
    # The look-back target.
    ratios = target_ratios(t, sweep)
    v["t_target_verdict"] = "met" if ratios and all(r[0] >= 0.9 for r in ratios.values()) else "**missed**"
    for (n, mode), (x, _, _) in ratios.items():
        v["t_ratio_%s_%s" % (TARGET_SIZES[n], mode[:3])] = "{:.3f}".format(x)
    for n, tag in TARGET_SIZES.items():
        pair = [ratios[(n, m)] for m in ("inclusive", "exclusive")]
        v["t_lb_pct_" + tag] = span([num(lb, "pct_of_copy_bw") for _, lb, _ in pair], "{:.0f}")
        v["t_lb_bw_" + tag] = span([num(lb, "bandwidth_GBps") for _, lb, _ in pair], "{:.0f}")
        v["t_cub_bw_" + tag] = span([num(cub, "bandwidth_GBps") for _, _, cub in pair], "{:.0f}")
    return v


def sweep_prose(sw, t):
    """sw_*: numbers of the prose from results/sweep.csv (tsw_*: with results/table1_1.csv)."""
    v = {}
    sizes = sorted({int(r["n"]) for r in sw})
    lead = {n: num(the(sw, "cub", n), "kernel_ms") / num(the(sw, "lookback", n), "kernel_ms") for n in sizes}
    behind = [n for n in sizes if lead[n] < 1]
    v["sw_lb_ahead"] = ("behind CUB at %s" % ", ".join(pow2(n, True) for n in behind) if behind
                        else "ahead of CUB at every size from %s to %s" % (pow2(sizes[0], True),
                                                                          pow2(sizes[-1], True)))
    least = min(sizes, key=lambda n: lead[n])
    v["sw_lb_least"] = "{:.2f}× at {}".format(lead[least], pow2(least, True))
    v["sw_lb_small"] = span([lead[n] for n in sizes if n < 1 << 22], "{:.2f}")
    # Brent–Kung against the serial CPU (kernel time), the crossover.
    bkx = {n: num(the(sw, "brent_kung", n), "cpu_ms") / num(the(sw, "brent_kung", n), "kernel_ms")
           for n in sizes}
    faster_from = next(n for i, n in enumerate(sizes) if all(bkx[m] > 1 for m in sizes[i:]))
    slow = [n for n in sizes if n < faster_from]
    if slow and all(bkx[n] < 1 for n in slow):
        v["sw_bk_cross"] = "it is slower than the CPU up to %s (%.2f× there) and faster from %s" % (
            pow2(slow[-1], True), bkx[slow[-1]], pow2(faster_from, True))
    else:
        v["sw_bk_cross"] = "it is faster than the CPU at every size from %s on" % pow2(faster_from, True)
    v["sw_bk_cpu_2p28"] = "{:.0f}".format(bkx[N28])
    if t:
        cpu_t, cpu_s = num(the(t, "brent_kung", N28), "cpu_ms"), num(the(sw, "brent_kung", N28), "cpu_ms")
        v["tsw_cpu_cmp"] = "%s (%.0f ms against %.0f)" % ("slower" if cpu_s > cpu_t else "faster",
                                                          cpu_s, cpu_t)
        # Counting the copies: does any validated GPU version beat the serial CPU at any size?
        beats = sorted({int(r["n"]) for r in list(sw) + list(t)
                        if r["validated"] == "1" and num(r, "total_ms") < num(r, "cpu_ms")})
        v["tsw_copies"] = ("a GPU version beats the serial CPU only at n = "
                           + ", ".join(pow2(n, True) for n in beats) if beats
                           else "no GPU version beats the serial CPU at any size")
    return v


def mse_prose(m):
    """mse_*: the racy kernels of Figures 1.2/1.3 and section 1.10 (results/mse.csv)."""
    v = {}
    ip = sorted((r for r in m if r["version"] == "hs_inplace_racy"), key=lambda r: int(r["n"]))
    wrong = [r for r in ip if int(r["wrong_runs"]) > 0]
    first = int(wrong[0]["n"]) if wrong else None
    v["mse_ip_exact_to"] = str(first - 1 if wrong else int(ip[-1]["n"]))
    beyond = [r for r in ip if first and int(r["n"]) >= first]
    if beyond and all(r["wrong_runs"] == r["runs"] for r in beyond):
        v["mse_ip_beyond"] = "wrong on all %s runs for every n from %d to %s" % (beyond[0]["runs"], first,
                                                                                 ip[-1]["n"])
    else:
        v["mse_ip_beyond"] = "wrong on some run for %d of the sizes from %s to %s" % (
            len([r for r in beyond if int(r["wrong_runs"]) > 0]), first, ip[-1]["n"])
    r33 = next(r for r in ip if int(r["n"]) == 33)
    v.update({
        "mse_ip_wrong_count": str(len(wrong)), "mse_ip_sse33": "{:.0f}".format(num(r33, "sse")),
        "mse_ip_sse33_vs_report": ("the report's number" if num(r33, "sse") == 278784
                                   else "not the report's 278784"),
        "mse_ip_33_every": ("on every run" if r33["wrong_runs"] == r33["runs"]
                            and num(r33, "mse") == num(r33, "mse_max") else "on some runs"),
        "mse_ip_mse33": "{:.0f}".format(num(r33, "mse")),
        "mse_ip_verdict": ("holds, but not for the report's reason"
                           if v["mse_ip_exact_to"] == "32" and "every n" in v["mse_ip_beyond"]
                           else "does not hold as stated")})
    mb = sorted((r for r in m if r["version"] == "hs_multiblock_racy"), key=lambda r: int(r["n"]))
    one = [r for r in mb if int(r["n"]) <= 1024]
    first = next(r for r in one if int(r["wrong_runs"]) > 0)
    warps = -(-int(first["n"]) // 32)
    exact = [int(r["n"]) for r in one if int(r["wrong_runs"]) == 0]
    r414 = next(r for r in one if int(r["n"]) == 414)
    v.update({
        "mse_mb_exact_to": str(int(first["n"]) - 1), "mse_mb_first_wrong": first["n"],
        "mse_mb_first_wrong_runs": "%s of %s" % (first["wrong_runs"], first["runs"]),
        "mse_mb_first_wrong_warps": {1: "one", 2: "two", 3: "three", 4: "four"}.get(warps, str(warps)),
        "mse_mb_vs_414": "far below 414" if int(first["n"]) < 414 else "not below the report's 414",
        "mse_mb_partial": str(len([r for r in one if 0 < int(r["wrong_runs"]) < int(r["runs"])])),
        "mse_mb_exact_sizes": str(len(exact)), "mse_mb_exact_largest": str(max(exact)),
        "mse_mb_414": ("was exact on all %s runs" % r414["runs"] if r414["wrong_runs"] == "0"
                       else "was wrong on %s of %s runs" % (r414["wrong_runs"], r414["runs"]))})
    for a, b in MSE_BUCKETS:
        sel = [r for r in one if a <= int(r["n"]) <= b]
        v["mse_mb_pct_%d_%d" % (a, b)] = "{:.0%}".format(sum(int(r["wrong_runs"]) for r in sel)
                                                         / sum(int(r["runs"]) for r in sel))
    big = [r for r in mb if int(r["n"]) > 1024]
    if big and all(r["wrong_runs"] == r["runs"] for r in big):
        v["mse_mb_big"] = "every n from %s to %s wrong on all %s runs" % (big[0]["n"], big[-1]["n"],
                                                                          big[0]["runs"])
    else:
        v["mse_mb_big"] = "%d of the sizes from %s to %s wrong on every run" % (
            sum(1 for r in big if r["wrong_runs"] == r["runs"]), big[0]["n"], big[-1]["n"])
    return v


def tuning_prose(tu):
    """tu_*: the look-back tuning experiment (results/lookback_tuning.csv): speed against CUB per
    variant, the range over the variants named and the rounds."""
    def ratios(key, n):
        vals = [num(r, "speedup_vs_cub") for r in tu if r["variant"] in TUNING[key] and int(r["n"]) == n]
        if not vals:
            sys.exit("tables.py: lookback_tuning.csv has no %s at n=%d" % (TUNING[key], n))
        return vals

    def against(key, n, spec):  # against the committed kernel, as printed with spec
        lo, hi = (float(spec.format(f(ratios(key, n)))) for f in (min, max))
        clo, chi = (float(spec.format(f(ratios("committed", n)))) for f in (min, max))
        return "faster" if lo > chi else "slower" if hi < clo else "within the spread"

    v = {}
    for key in TUNING:
        for n, tag in TARGET_SIZES.items():
            v["tu_%s_%s" % (key, tag)] = span(ratios(key, n), "{:.2f}")
        v["tu_%s_all" % key] = span(ratios(key, N20M) + ratios(key, N28), "{:.2f}")
        v["tu_%s_2p28_3" % key] = span(ratios(key, N28), "{:.3f}")
    for key in ("hints", "sleeps", "nosleep"):
        a, b = against(key, N20M, "{:.2f}"), against(key, N28, "{:.2f}")
        v["tu_%s_cmp" % key] = "%s at both sizes" % a if a == b else "%s at 20M and %s at 2²⁸" % (a, b)
    words = {"faster": "faster", "slower": "slower", "within the spread": "as fast"}
    v["tu_tid_2p28_word"] = words[against("tid", N28, "{:.3f}")]
    v["tu_tid_20m_word"] = words[against("tid", N20M, "{:.2f}")]
    return v


# --- Nsight Compute (results/profile.csv, `make profile`) -------------------------------------

PROFILE_CASES = [("map_as_printed", 15000, "map_prefix_sum_as_printed", "ap15k"),
                 ("map_brent_kung", 15000, "map_scan_chunks", "map15k"),
                 ("map_brent_kung", 1250000, "map_scan_chunks", "map5mb"),
                 ("brent_kung", 1250000, "brent_kung_block_scan", "bk5mb"),
                 ("lookback", 1250000, "scan_decoupled_lookback", "lb5mb"),
                 ("hs_multiblock_racy", 20000000, "hillis_steele_in_place", "racy80mb")]
# Stall reasons per issued instruction (the Warp State section): they add up to STALL_TOTAL.
STALL_METRIC = "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio"
STALL_TOTAL = "smsp__average_warp_latency_per_inst_issued.ratio"
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
STALLS = ("long_scoreboard barrier short_scoreboard wait mio_throttle lg_throttle math_pipe_throttle "
          "not_selected selected no_instruction dispatch_stall membar drain sleeping branch_resolving "
          "tex_throttle imc_miss").split()
LIMITS = (("blocks", "block slots"), ("registers", "registers"), ("shared_mem", "shared memory"),
          ("warps", "warps"))
# Counters shown as they are: (name in the table and the prose, metric, format, unit in the prose).
SHOWN = (("grid", "launch__grid_size", "{:.0f}", ""),
         ("waves", "launch__waves_per_multiprocessor", "{:.3g}", ""),
         ("theo", "sm__maximum_warps_per_active_cycle_pct", "{:.0f}", "%"),
         ("ach", "sm__warps_active.avg.pct_of_peak_sustained_active", "{:.1f}", "%"),
         ("dram", "dram__throughput.avg.pct_of_peak_sustained_elapsed", "{:.1f}", "%"))


def profile_cases(profile):
    """Per launch of PROFILE_CASES that was profiled: its counters (c), the blocks per SM each resource
    allows (limits) and the lowest of them (low, limiters), the least / mean / most active SM as % of the
    elapsed cycles (active) and the stall reasons, largest first."""
    out, launches = [], ncu_kernels(profile, lambda r: (r["version"], int(r["n"])))
    for version, n, kernel, tag in PROFILE_CASES:
        c = {}
        for name, counters in launches.get((version, n), {}).items():
            if kernel in name:
                c.update(counters)
        if not c:
            continue
        limits = [c.get("launch__occupancy_limit_" + k) for k, _ in LIMITS]
        known = [(x, name) for x, (_, name) in zip(limits, LIMITS) if x is not None]
        low = min(known)[0] if known else None
        el = c.get("sm__cycles_elapsed.max")
        active = [c.get("sm__cycles_active." + s) for s in ("min", "avg", "max")]
        stalls = [(c[STALL_METRIC % s], s) for s in STALLS if c.get(STALL_METRIC % s) is not None]
        out.append({"version": version, "n": n, "kernel": kernel, "tag": tag, "c": c, "limits": limits,
                    "low": low, "limiters": [name for x, name in known if x == low],
                    "active": [100 * a / el if a is not None and el else None for a in active],
                    "stalls": sorted(stalls, reverse=True)})
    return out


def profile_block(profile):
    if not profile:
        return placeholder_table(["kernel (version)", "n", "grid", "waves", "theoretical occupancy",
                                  "achieved occupancy",
                                  "blocks/SM allowed by block slots, registers, shared memory, warps",
                                  "limiter",
                                  "SM active min / mean / max (% of elapsed)",
                                  "DRAM throughput (% of peak)", "top stall reasons"], PROFILE_PLACEHOLDER)
    rows = []
    for p in profile_cases(profile):
        c, spr = p["c"], ratio(p["c"].get(SECTORS), p["c"].get(REQUESTS))
        rows.append(dict({name: c.get(metric) for name, metric, _, _ in SHOWN},
                         kernel="%s (%s)" % (p["kernel"], p["version"]), n=p["n"],
                         limiter=", ".join(p["limiters"]),
                         limits=", ".join("?" if x is None else "{:g}".format(x) for x in p["limits"]),
                         act=" / ".join("?" if a is None else "{:.0f}".format(a) for a in p["active"]),
                         spr=NOT_MEASURED if spr is None else spr,
                         cpi=NOT_MEASURED if c.get(STALL_TOTAL) is None else c[STALL_TOTAL],
                         stalls=", ".join("%s %.2f" % (s, x) for x, s in p["stalls"][:3]) or NOT_MEASURED))
    columns = [("kernel", "kernel (version)"), "n", ("grid", "grid", "{:.0f}"), ("waves", "waves", "{:.3g}"),
               ("theo", "theoretical occupancy (%)", "{:.0f}"), ("ach", "achieved occupancy (%)", "{:.1f}"),
               ("limits", "blocks/SM allowed by block slots, registers, shared memory, warps"), "limiter",
               ("act", "SM active min / mean / max (% of elapsed)"),
               ("dram", "DRAM throughput (% of peak)", "{:.1f}"),
               ("spr", "global load sectors per request", "{:.1f}"),
               ("cpi", "warp cycles per issued instruction", "{:.2f}"),
               ("stalls", "top stall reasons (stall cycles per issued instruction)")]
    return "Nsight Compute {} on {} (`ncu --clock-control none`, one launch per row).\n\n{}".format(
        profile[0].get("ncu_version", ""), profile[0].get("device", ""), md_table(rows, columns))


def profile_values(profile):
    """{tag}_{what}: the counters the prose quotes, a placeholder until results/profile.csv exists."""
    v = {"%s_%s" % (case[-1], what): PROFILE_PLACEHOLDER for case in PROFILE_CASES for what in (
        "grid", "waves", "theo", "ach", "dram", "limiter", "limit", "sm_min", "sm_avg", "sm_max",
        "top_stall")}
    for p in profile_cases(profile):
        tag = p["tag"]
        for name, metric, spec, unit in SHOWN:
            if p["c"].get(metric) is not None:
                v["%s_%s" % (tag, name)] = spec.format(p["c"][metric]) + unit
        if p["limiters"]:
            v[tag + "_limit"], v[tag + "_limiter"] = "{:g}".format(p["low"]), " and ".join(p["limiters"])
        for s, a in zip(("min", "avg", "max"), p["active"]):
            if a is not None:
                v["%s_sm_%s" % (tag, s)] = "{:.0f}%".format(a)
        if p["stalls"]:
            v[tag + "_top_stall"] = p["stalls"][0][1]
    return v


# --- The look-back tuning against a copy, warp specialisation and the copy budget: both GPUs --------

# The memcpy-speed experiment: rounds 3 to 5 of experiments/lookback_tuning.cu on each GPU
# (results/lookback_tuning.csv on the H100, results/h200/ on the H200), every variant against a
# device-to-device copy of the same bytes timed in the same loop: (key, the variants (a list) or a
# family (a name prefix: its fastest), label).
MEMCPY_ROWS = [
    ("committed", [COMMITTED],
     "the committed kernel (256 × 32 ints, 6 blocks/SM, tile id drawn from a counter)"),
    ("t512", ["512x32 minb3 tid0 sleep100 hint0 stash1"],
     "512 × 32-int tiles (3 blocks/SM): half the look-backs"),
    ("tid1", ["512x32 minb3 tid1 sleep100 hint0 stash1"],
     "512 × 32, tile id = `blockIdx.x` (as CUB; no progress guarantee)"),
    ("lb1", ["256x32 minb6 tid0 sleep100 hint0 stash1 lb1"],
     "look-back that waits only for the nearest unfinished predecessor"),
    ("tid2", ["256x32 minb6 tid2 sleep100 hint0 stash1"],
     "tile `blockIdx.x` loaded while the tile id is drawn (kept when they match)"),
    ("pipe", ["pipe 256x32 minb4 sleep100"],
     "persistent blocks loading their next tile during the look-back (4 blocks/SM)"),
    ("bulk", "bulk ",
     "bulk asynchronous loads (`cp.async.bulk` into 2–6 shared-memory stages), best of 13 shapes"),
    ("striped", "striped ",
     "no transpose: each lane scans a uint4, values kept in registers, best of 9 shapes"),
    ("local", ["local 256x32 minb6"],
     "*not a scan:* the committed kernel without its look-back (each tile scanned alone)"),
    ("local_tid1", ["local tid1 256x32 minb6"], "*not a scan:* the same, and no tile-id draw (`blockIdx.x`)"),
    ("copy_smem", ["tile_copy_smem 256x32"], "*not a scan:* the committed kernel's data path alone (loads, "
     "padded shared memory, barrier, stores)"),
    ("tile_copy", ["tile_copy 256x32"], "*not a scan:* the same tiles' loads and stores, through registers"),
]
MEMCPY_GPUS = (("h100", "lookback_tuning.csv", "H100"),
               ("h200", os.path.join("h200", "lookback_tuning.csv"), "H200"))
MEMCPY_TARGET = {"h100": 95.0, "h200": 90.0}


def memcpy_rows(tu, names, n):
    """The passing rows at n of the variants `names` (a list), or of a family's fastest."""
    if isinstance(names, str):  # a family (name prefix): its variant fastest at 2^28 (worse round)
        family = sorted({r["variant"] for r in tu if r["variant"].startswith(names)})
        if not family:
            return []
        names = [max(family, key=lambda v: min(num(r, "pct_of_copy") for r in tu
                                               if r["variant"] == v and int(r["n"]) == N28))]
    return [r for r in tu if r["variant"] in names and int(r["n"]) == n and r["ok"] == "1"]


def memcpy(v, table):
    """The memcpy table and mc_* values: per GPU, % of the copy and speed against CUB at 20M and 2^28
    of the variants of MEMCPY_ROWS (mc_{gpu}_{key}_pct|cub_{size}), ranges over the two rounds."""
    data = {}
    for gpu, name, _ in MEMCPY_GPUS:
        data[gpu] = load(RESULTS, name)
        if not data[gpu] or "pct_of_copy" not in data[gpu][0]:
            sys.exit("tables.py: results/%s has no copy column (rerun experiments/run.sh)" % name)
    out = []
    for key, names, label in MEMCPY_ROWS:
        row = {"variant": label}
        for gpu in data:
            for n, tag in TARGET_SIZES.items():
                rs = memcpy_rows(data[gpu], names, n)
                if not rs:
                    sys.exit("tables.py: %s lookback_tuning.csv has no %s at n=%d" % (gpu, key, n))
                name = "mc_%s_%s_%%s_%s" % (gpu, key, tag)
                v[name % "pct"] = span([num(r, "pct_of_copy") for r in rs], "{:.0f}")
                v[name % "cub"] = span([num(r, "speedup_vs_cub") for r in rs], "{:.2f}")
            for what in ("pct", "cub"):
                row[gpu + "_" + what] = " / ".join(v["mc_%s_%s_%s_%s" % (gpu, key, what, tag)]
                                                   for tag in TARGET_SIZES.values())
        out.append(row)
    for gpu, rows in data.items():
        at28 = [r for r in rows if int(r["n"]) == N28]
        # CUB's own share of the copy, and the copy, over every row at that size
        v["mc_%s_cubpct_2p28" % gpu] = span([100.0 * num(r, "copy_ms") / num(r, "cub_ms") for r in at28],
                                            "{:.0f}")
        v["mc_%s_copy_2p28" % gpu] = span([8.0 * N28 / num(r, "copy_ms") / 1e6 for r in at28], "{:.0f}")
        best = max(num(r, "pct_of_copy") for r in memcpy_rows(rows, [COMMITTED], N28))
        worst_cub = min(num(r, "speedup_vs_cub") for n in TARGET_SIZES
                        for r in memcpy_rows(rows, [COMMITTED], n))
        v["mc_%s_verdict" % gpu] = (
            "met" if best >= MEMCPY_TARGET[gpu] and worst_cub >= 1.10
            else "missed: at most %.0f%% of the copy at 2²⁸ (target %.0f%%), at least %.2f× CUB "
            "(target 1.10×)"
            % (best, MEMCPY_TARGET[gpu], worst_cub))
    # The copy that table1_1.csv's pct_of_copy_bw divides by: each run's own measurement (256 MiB
    # copies, common/device_info.cuh), a little below the copy at the scan's size measured here.
    run_copy = [num(r, "copy_bw_GBps") for r in table or [] if r.get("copy_bw_GBps")]
    v["mc_h100_run_copy"] = span(run_copy, "{:.0f}") if run_copy else "(no table1_1.csv)"
    columns = [("variant", "variant (each validated against the CPU)")]
    for gpu, _, label in MEMCPY_GPUS:
        columns += [(gpu + "_pct", "%s: %% of copy, 20M / 2²⁸" % label),
                    (gpu + "_cub", "%s: × CUB, 20M / 2²⁸" % label)]
    return md_table(out, columns)


def per_gpu(name, where=lambda r: True):
    """(folder, rows) of results/name and results/h200/name, each that exists and has rows (where)."""
    found = [(folder, [r for r in read_csv(os.path.join(HERE, folder, name)) if where(r)])
             for folder in ("results/", "results/h200/") if os.path.exists(os.path.join(HERE, folder, name))]
    return [(folder, rows) for folder, rows in found if rows]


def ws_scan_block():
    """Per GPU, size and mode, the copy, CUB, the committed `lookback` and the chosen warp-specialised
    variant of one experiments/ws_scan.cu run (ratios within that run), then one bullet per GPU on the
    targets of issue #24 (95 % / 90 % of copy, 1.10x CUB)."""
    gpus = per_gpu("ws_scan.csv")
    if not gpus:
        return "*(not measured yet: run `build/experiments/ws_scan --csv=results/ws_scan.csv` on a GPU)*"
    out, bullets = [], []
    for folder, rows in gpus:
        timed = [r for r in rows if r["ms"]]
        device = timed[0]["device"]
        # the design ws_scan.cuh describes
        mine = [r for r in timed if r["variant"] == "ws_t4096_s12_r2_w8_st0_d0_l2"]
        for w in mine:
            lb = next((r for r in timed if r["n"] == w["n"] and r["mode"] == w["mode"]
                       and r["variant"] == "lookback"), None)
            out.append({"gpu": "%s (`%s`)" % (device, folder), "n": pow2(int(w["n"])), "mode": w["mode"],
                        "copy": 8.0 * int(w["n"]) / (num(w, "copy_ms") * 1e6), "cub": w["cub_ms"],
                        "lookback": "%.4f (%.1f %%, %.3f×)" % (num(lb, "ms"), num(lb, "pct_of_copy"),
                                                               num(lb, "speedup_vs_cub")) if lb else "",
                        "ws": "%.4f (%.1f %%, %.3f×)" % (num(w, "ms"), num(w, "pct_of_copy"),
                                                         num(w, "speedup_vs_cub")),
                        "ok": "all %d" % len(rows) if all(r["ok"] == "1" for r in rows) else "NOT all"})
        big = [num(w, "pct_of_copy") for w in mine if int(w["n"]) == max(int(r["n"]) for r in mine)]
        speed = [num(w, "speedup_vs_cub") for w in mine]
        goal = 95.0 if "H100" in device else 90.0
        bullets.append("- %s: at 2^%d ints, %.1f–%.1f %% of the same run's copy (target %.0f %% %s); against "
                       "CUB %.3f–%.3f× over both sizes and modes (target 1.10× %s); %d of %d runs "
                       "validated." % (device, round(math.log2(max(int(r["n"]) for r in mine))), min(big),
                                       max(big), goal, verdict(compare(min(big), ">=", goal)), min(speed),
                                       max(speed), verdict(compare(min(speed), ">=", 1.10)),
                                       sum(r["ok"] == "1" for r in rows), len(rows)))
    columns = [("gpu", "GPU (results folder)"), "n", "mode", ("copy", "copy (GB/s)", "{:.1f}"),
               ("cub", "CUB (ms)", MS), ("lookback", "`lookback` (ms, % of copy, × CUB)"),
               ("ws", "warp-specialised (ms, % of copy, × CUB)"), ("ok", "rows validated")]
    return md_table(out, columns) + "\n\n" + rewrap("\n".join(bullets))


def copy_budget_block(cycles=(0, 2048, 4096, 6144, 8192, 12288, 16384), committed="per_tile_256x32"):
    """% of the same run's copy per shape and injected wait (experiments/copy_budget.cu), for each GPU,
    then what the committed tile (LookbackPolicy on sm_90) can hide."""
    gpus = per_gpu("copy_budget.csv", lambda r: r.get("validated") == "1")
    if not gpus:
        return ("*(not measured yet: run `build/experiments/copy_budget --csv=results/copy_budget.csv` "
                "on a GPU)*")
    out, bullets = [], []
    for folder, rows in gpus:
        device = rows[0]["device"]
        for shape in dict.fromkeys(r["shape"] for r in rows):
            mine = [r for r in rows if r["shape"] == shape]
            out.append(dict({c: next((r["pct_of_copy"] for r in mine if int(r["injected_cycles"]) == c), "")
                             for c in cycles}, device="%s (`%s`)" % (device, folder),
                            shape="%s (%s blocks/SM, %s KiB/SM)" % (shape, mine[0]["blocks_per_sm"],
                                                                   mine[0]["inflight_KiB_per_sm"])))
        tile = sorted((r for r in rows if r["shape"] == committed), key=lambda r: int(r["injected_cycles"]))
        if tile:
            base = num(tile[0], "pct_of_copy")
            last = [r for r in tile if num(r, "pct_of_copy") >= base - 2.0][-1]
            waited, mhz = int(last["injected_cycles"]), num(last, "sm_clock_MHz")
            bullets.append(
                "- %s: the copy itself ran at %s GB/s (bytes read + written). The committed tile (`%s`) "
                "runs at %.1f %% of it with no wait and stays within 2 points of that up to %d cycles per "
                "tile (%.1f %%), about %.1f µs at the SM clock of %.0f MHz." % (
                    device, span([num(r, "copy_GBps") for r in rows], "{:.0f}"), committed, base, waited,
                    num(last, "pct_of_copy"), waited / mhz, mhz))
        at0 = {kind: [num(r, "pct_of_copy") for r in rows if r["shape"].startswith(kind)
                      and int(r["injected_cycles"]) == 0] for kind in ("ring_", "per_tile_")}
        if all(at0.values()):
            bullets.append("- %s, with no wait at all: the rings at %s %% of the copy, the "
                           "one-tile-per-block shapes at %s %%." % (device, span(at0["ring_"], "{:.1f}"),
                                                 span(at0["per_tile_"], "{:.1f}")))
    columns = [("shape", "shape (blocks per SM, KiB of tiles per SM)"), ("device", "GPU (results folder)")]
    columns += [(c, "%d cycles" % c, "{:.1f}") for c in cycles]
    return md_table(out, columns) + "\n\n" + rewrap("\n".join(bullets))


# --- Generated prose: whole blocks, lines wrapped at 100 characters ---------------------------

GTX970_GBPS = 224.0  # the report's GTX 970: memory bandwidth of NVIDIA's specification, GB/s


def sample_output(table):
    """What a run prints: the progress lines of the committed run (from table1_1.csv), in the order
    the program ran them (the registry's: the CSV's row order)."""
    rows = [r for r in table or [] if int(r["n"]) == N20M and r["mode"] == "inclusive"]
    if not rows:
        return "```\n" + NOT_RUN + "\n```"
    lines = ["$ bin/scan 20000000 --mode=inclusive --only=%s" % ",".join(r["version"] for r in rows)]
    for i, r in enumerate(rows, 1):
        outcome = ("PASS" if r["result_ok"] == "1" else "FAIL") if r["validated"] == "1" else "demonstration"
        lines.append("[%d/%d] version=%s n=%s mode=inclusive %.4f ms %s" % (
            i, len(rows), r["version"], r["n"], num(r, "kernel_ms"), outcome))
    return rewrap("On %s (from `results/table1_1.csv`; the program prints more per version: grid, block, "
                  "GB/s, and for a demonstration its error):" % rows[0]["device"]) + (
        "\n\n```\n%s\n```" % "\n".join(lines))


def per_thread_summary(rows):
    """Section 3.0.3's claim judged within each algorithm: the time of each (version, size) against
    K, from results/per_thread.csv."""
    if not rows:
        return NOT_RUN
    items, low_end, rising_above = [], [], []
    for v in dict.fromkeys(r["version"] for r in rows):
        for n, label in PER_THREAD_SIZES.items():
            sel = sorted(rows_of(rows, v, n, "inclusive"), key=lambda r: int(r["per_thread"]))
            if not sel:
                continue
            ks, ms = [int(r["per_thread"]) for r in sel], [num(r, "kernel_ms") for r in sel]
            best = ms.index(min(ms))
            rising_above.append(all(ms[i + 1] > ms[i] for i in range(best, len(ms) - 1)))
            low_end.append(best == 0)
            items.append("- `%s` at %s: fastest at K = %d (%.4f ms); %s to %.4f ms at K = %d%s." % (
                v, label, ks[best], ms[best],
                "the time rises with every doubling above it" if rising_above[-1]
                else "the time does not rise steadily above it", ms[-1], ks[-1],
                "" if best == 0 else "; smaller K is slower (K = %d: %.4f ms)" % (ks[0], ms[0])))
    # The claim holds as a rule if the smallest K is the fastest in every series.
    bad = sorted({(r["version"], int(r["n"]), r["per_thread"]) for r in rows if r["result_ok"] != "1"})
    head = ("**Judged within each algorithm, from `results/per_thread.csv`: %s as a rule%s.** %s. Fewer "
            "elements per thread means more threads, more chunk totals and a larger second and third pass, "
            "so the claim holds only above the fastest K." % (
                verdict(all(low_end) if low_end else None, "no per_thread.csv rows"),
                "; above the fastest K, less work per thread is faster in every series"
                if rising_above and all(rising_above) else "",
                "Not every K is exact (wrong: %s)" % ", ".join("%s K = %s at n = %d" % b for b in bad)
                if bad else "Every K is exact at every n here"))
    return rewrap("\n".join([head, ""] + items))


def mbk_block(table):
    """Section 3's map_brent_kung against brent_kung and map (Table 1.1's run)."""
    if not table:
        return NOT_RUN
    items = []
    for n, label in PER_THREAD_SIZES.items():
        mbk, bk, mp = (next((num(r, "kernel_ms") for r in rows_of(table, v, n, "inclusive")), None)
                       for v in ("map_brent_kung", "brent_kung", "map"))
        items.append("- at %s: `map_brent_kung` %s ms, %s× the speed of `brent_kung` and %s× that of "
                     "`map`" % (
            label, "{:.4f}".format(mbk) if mbk else NOT_RUN,
            *("{:.2f}".format(x) if x else "?" for x in (ratio(bk, mbk), ratio(mp, mbk)))))
    head = "Inclusive, 8 elements per thread, 1024 threads, on %s:" % device_of(table)
    return rewrap("\n".join([head, ""] + items))


def as_printed_verdicts(rows):
    """Bullets: is section 2's kernel right within one block, beyond it; what the serial part costs."""
    if not rows:
        return ["- **Section 2's kernel as printed (`map_as_printed`): " + NOT_RUN + ".**"]
    rows = sorted(rows, key=lambda r: int(r["n"]))
    per_block = int(rows[0]["threads"]) * int(rows[0]["per_thread"])
    wrong = [r for r in rows if int(r["wrong_runs"]) > 0]
    wrong_one = [r for r in wrong if int(r["n"]) <= per_block]
    many = [r for r in rows if int(r["n"]) > per_block]
    first_wrong = int(wrong[0]["n"]) if wrong else None
    shares = {int(r["n"]): ratio(r.get("serial_ms"), r.get("kernel_ms")) for r in rows}
    shares = {n: x for n, x in shares.items() if x is not None}
    big = max(shares) if shares else None
    limit = verdict(None if first_wrong is None and not many else compare(first_wrong or 0, ">", 15000),
                    "no size failed, so no limit was seen")
    return ["- **Section 2's kernel as printed (`map_as_printed`), validated anyway: %s within one block "
            "(n ≤ %d: %d of %d sizes had a wrong run), %s beyond it (%d of %d sizes had a wrong run)%s.** "
            "The report's \"handles up to 15000\" is %s here." % (
                "not always right" if wrong_one else "right", per_block, len(wrong_one),
                len(rows) - len(many), "wrong" if len(wrong) > len(wrong_one) else "right by luck",
                len(wrong) - len(wrong_one), len(many),
                "" if first_wrong is None else "; the first wrong run is at n = {:,}".format(first_wrong),
                limit.replace("holds", "confirmed").replace("does not hold", "not confirmed")),
            "- **\"The greatest bottleneck is when the thread 0 tries to compute the prefix sum of the "
            "intermediate array\": %s.** %s" % (
                verdict(compare(shares[big], ">", 0.5) if shares else None, "no serial_ms measured"),
                "Thread 0's serial loop takes %s of the kernel's time at n = 15,000 and %s at n = %s." % (
                    "{:.0%}".format(shares[15000]) if 15000 in shares else "?", "{:.0%}".format(shares[big]),
                    "{:,}".format(big)) if shares else "")]


def conclusions(values, table, profile, as_printed, dev):
    """The section "Which of the report's conclusions hold": every number from the CSVs, a placeholder
    for those of a CSV that is not there yet."""
    v = defaultdict(lambda: PLACEHOLDER, values, dev=dev, not_measured=NOT_MEASURED)
    v["buckets"] = ", ".join("%s for n = %d–%d" % (v["mse_mb_pct_%d_%d" % (a, b)], a, b)
                             for a, b in MSE_BUCKETS)
    c = {p["tag"]: p["c"] for p in profile_cases(profile)}
    racy = c.get("racy80mb", {})
    dram = racy["dram__bytes_read.sum"] + racy["dram__bytes_write.sum"] if all(
        racy.get(k) is not None for k in ("dram__bytes_read.sum", "dram__bytes_write.sum")) else None
    v.update(scan_mb="%.0f" % (8.0 * N20M / 1e6), floor_ms="%.2f" % (8.0 * N20M / (GTX970_GBPS * 1e6)),
             gtx="%.0f" % GTX970_GBPS, dram="Its DRAM bytes: " + NOT_MEASURED + "." if dram is None else
             "Nsight Compute counts %.2f GB of DRAM traffic for it (%.1f× the %.0f MB a scan must move)." % (
                 dram / 1e9, dram / (8.0 * N20M), 8.0 * N20M / 1e6))
    v["racy"] = (fill(RACY, v) if rows_of(table or [], "hs_multiblock_racy", N20M) else
                 "- **Table 1.1's times against what the kernel must move:** " + NOT_RUN + ".")
    # Sectors per request of the global loads: 4 for a warp reading 32 consecutive ints.
    s_map, s_bk = (ratio(c.get(tag, {}).get(SECTORS), c.get(tag, {}).get(REQUESTS))
                   for tag in ("map5mb", "bk5mb"))
    v["sectors"] = ("Measured at 5 MB: the map kernel %.1f sectors per request (32 expected: %s), "
                    "`brent_kung`'s block scan %.1f (4 expected: %s)." % (
                        s_map, verdict(compare(s_map, ">=", 31)), s_bk, verdict(compare(s_bk, "<=", 4.5)))
                    if s_map is not None and s_bk is not None
                    else "Sectors per request: " + NOT_MEASURED + ".")
    # §1.9: the per-SM limit from the occupancy API (blocks per SM × block / occupancy = the
    # device's maximum threads per SM).
    per_sm = next((ratio(num(r, "k1_blocks_per_sm") * num(r, "k1_block"), r["k1_occupancy"])
                   for r in table or [] if r["version"] == "map" and r.get("k1_occupancy")), None)
    v["per_sm"] = "{:.0f}".format(per_sm) if per_sm else "(" + NOT_RUN + ")"
    map5 = c.get("map5mb", {})
    share = ratio(map5.get(STALL_METRIC % "long_scoreboard"), map5.get(STALL_TOTAL))
    v.update(verdict=verdict(compare(share, ">", 0.5), NOT_MEASURED),
             share="?" if share is None else "{:.0%}".format(share),
             cpi="?" if map5.get(STALL_TOTAL) is None else "{:.2f}".format(map5[STALL_TOTAL]))
    v["stalls"] = fill(STALLS_NOT_MEASURED if share is None else STALLS_MEASURED, v)
    v["as_printed"] = "\n".join(as_printed_verdicts(as_printed))
    return rewrap(fill(CONCLUSIONS, v))


def main():
    table, sweep, mse, per_thread, profile, tuning, as_printed = (load(RESULTS, name + ".csv") for name in (
        "table1_1", "sweep", "mse", "per_thread", "profile", "lookback_tuning", "as_printed"))
    set_order(table, sweep, mse, per_thread)
    rep_path = os.path.join(HERE, "original", "report_002.csv")
    rep = read_csv(rep_path, comments=True) if os.path.exists(rep_path) else None
    values = profile_values(profile)
    for rows, prose in ((table, lambda: table_prose(table, sweep)),
                        (sweep, lambda: sweep_prose(sweep, table)),
                        (mse, lambda: mse_prose(mse)), (tuning, lambda: tuning_prose(tuning))):
        if rows:
            values.update(prose())
    if rep:  # the report's own numbers
        times = [float(r["time_ms"]) for r in rep if r["what"] == "table1_1"]
        values.update(rep_t_lo="{:.2f}".format(min(times)), rep_t_hi="{:.2f}".format(max(times)))
    # argv[1]: another README to fill (tier 1 checks that a copy comes out unchanged).
    readme = Readme(sys.argv[1] if len(sys.argv) > 1 else README)  # written once, at save()
    readme.block("profile", profile_block(profile))
    readme.block("run_output", sample_output(table))
    readme.block("per_thread_summary", per_thread_summary(per_thread))
    readme.block("mbk", mbk_block(table))
    dev = device_of(table, mse, per_thread)
    readme.block("conclusions", conclusions(values, table, profile, as_printed, dev))
    readme.block("target_verdict", rewrap(fill(TARGET, defaultdict(lambda: PLACEHOLDER, values))))
    readme.block("memcpy", memcpy(values, table))
    readme.block("copy_budget", copy_budget_block())
    readme.block("ws_scan", ws_scan_block())
    readme.tables(specs(table, sweep, per_thread), RESULTS)
    fill_blocks(readme, PROSE, values, "prose.py")
    readme.save()
    print("tables.py: README.md tables regenerated from", ", ".join(
        n for n, d in (("table1_1.csv", table), ("sweep.csv", sweep), ("mse.csv", mse),
                       ("per_thread.csv", per_thread), ("profile.csv", profile)) if d) or "nothing")


if __name__ == "__main__":
    main()
