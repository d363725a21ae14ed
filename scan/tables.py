#!/usr/bin/env python3
"""Regenerates every table and generated paragraph of scan/README.md from results/*.csv (`make tables`,
run by `make plots` and `make report`): the words are prose.md's templates, the numbers come from here.
Without results/table1_1.csv or the two lookback_tuning.csv it stops with a message and writes nothing;
another missing CSV leaves its tables as they are or names what to run.   Usage: tables.py [README.md]"""
import math
import os
import sys
from collections import defaultdict

sys.dont_write_bytecode = True  # no __pycache__ next to the shared helpers
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))

from readme_tables import (Readme, Table, compare, fill, fill_blocks, load, md_table,  # noqa: E402
                           ncu_kernels, num, placeholder_table, pow2, ratio, read_templates, rewrap, span,
                           verdict)

README, RESULTS = os.path.join(HERE, "README.md"), os.path.join(HERE, "results")
T = read_templates(os.path.join(HERE, "prose.md"))  # the README's words; their {name}s are the values here
N20M, N28 = 20000000, 1 << 28
REPORT_SIZES = {1250000: "5 MB", 12500000: "50 MB", N20M: "80 MB"}  # Table 1.1's, 5, 50 and 80 MB of int
PER_THREAD_SIZES = {1250000: "5 MB", N20M: "80 MB"}
TARGET_SIZES = {N20M: "20m", N28: "2p28"}  # the sizes of the look-back target, as value names end
ORDER = []  # the versions in the order of the CSVs, the library baseline last (set_order)
PLACEHOLDER, PROFILE_PLACEHOLDER = "(run make report-run)", "(run make profile)"
NOT_MEASURED, NOT_RUN = "not measured yet: run make profile", "not measured yet: run make report-run"
# The sweep table's columns, in the README's order (brent_kung before map: not the CSV's order).
SWEEP_COLUMNS = ("brent_kung", "map", "map_brent_kung", "lookback", "lookahead", "cub")
# The occupancy table's sizes: 20,000,000, and the other sizes of the versions the prose discusses.
OCCUPANCY_SIZES = {"brent_kung": (1250000, 12500000, N20M, N28), "map_brent_kung": (1250000, N20M)}
MS = "{:.4f}"
TARGET, CUB_TARGET = 0.9, 1.10  # lookback at >= 0.9x CUB's speed; the memcpy experiment at >= 1.10x


def set_order(*tables):
    """ORDER from the CSVs' rows: each version where it first appears, baselines (is_baseline = 1) last."""
    baseline = {}
    for r in (r for rows in tables for r in rows or []):
        baseline.setdefault(r["version"], r.get("is_baseline") == "1")
    ORDER[:] = sorted(baseline, key=baseline.get)


def val(row, key):
    """A cell as a float, NaN where it is empty."""
    x = num(row.get(key))
    return math.nan if x is None else x


def by_n(rows, version=None):
    """The rows (of one version) in order of n."""
    return sorted((r for r in rows if version in (None, r["version"])), key=lambda r: int(r["n"]))


def rows_of(rows, version, n, mode=None):
    return [r for r in rows if r["version"] == version and int(r["n"]) == n and mode in (None, r["mode"])]


def the(rows, version, n, mode="inclusive"):
    sel = rows_of(rows, version, n, mode)
    if len(sel) != 1:
        sys.exit("tables.py: expected one %s row at n=%d (%s), found %d" % (version, n, mode, len(sel)))
    return sel[0]


def col(rows, version, sizes, key):
    """The column at these sizes over both scans, as floats; a size without rows is an error."""
    for n in sizes:
        if not rows_of(rows, version, n):
            sys.exit("tables.py: no %s rows at n=%d" % (version, n))
    return [val(r, key) for n in sizes for r in rows_of(rows, version, n)]


def wrong(rows, every=False):
    """The rows with a wrong run (every: wrong on every run)."""
    return [r for r in rows if (r["wrong_runs"] == r["runs"] if every else int(r["wrong_runs"]) > 0)]


def sci(x):
    """6.76e17 (three digits, no '+')."""
    mant, exp = "{:.2e}".format(x).split("e")
    return "%se%d" % (mant, int(exp))


def say(name, values):
    """Template `name` of prose.md filled from values, its prose rewrapped (a code block kept as it is)."""
    return rewrap(fill(T[name], values))


def device_text(rows):
    return fill(T["table.device"], dict(rows[0], copy="{:.0f}".format(val(rows[0], "copy_bw_GBps"))))


# --- Tables --------------------------------------------------------------------------------

def error_text(row):
    if row["validated"] != "1":
        return "MSE {:.3g} ({} of {} runs wrong)".format(val(row, "mse"), row["wrong_runs"], row["runs"])
    return "0 (exact)" if row["result_ok"] == "1" else "MSE {:.3g} ({} wrong)".format(val(row, "mse"),
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


def target_rows(rows, sweep):
    """lookback against cub at 20,000,000 and 2^28, both scans, where both ran (the sweep's 2^28 rows
    fill a gap of table1_1.csv): x is lookback's speed / cub's."""
    out = []
    for n in TARGET_SIZES:
        for mode in ("inclusive", "exclusive"):
            sel = {r["version"]: r for r in (sweep or []) + rows if int(r["n"]) == n and r["mode"] == mode}
            lb, cub = sel.get("lookback"), sel.get("cub")
            if lb and cub:
                x = val(cub, "kernel_ms") / val(lb, "kernel_ms")
                met = "yes" if x >= TARGET else "**no** (%.0f%% short)" % (100 * (TARGET - x) / TARGET)
                out.append({"n": n, "mode": mode, "x": x, "met": met, "cub_ms": cub["kernel_ms"],
                            "lb_ms": lb["kernel_ms"], "lbbw": lb["bandwidth_GBps"],
                            "pct": lb["pct_of_copy_bw"], "cubbw": cub["bandwidth_GBps"]})
    return out


def mse_rows(rows):
    out = []
    for version, launch in (("hs_inplace_racy", "<<<1, 32>>>"),
                            ("hs_multiblock_racy", "<<<ceil(n/1024), 1024>>>")):
        sel = by_n(rows, version)
        if sel:
            bad, in_1024 = wrong(sel), [r for r in sel if int(r["n"]) <= 1024]
            out.append({"version": version, "launch": launch, "sizes": "%s..%s" % (sel[0]["n"], sel[-1]["n"]),
                        "runs": sel[0]["runs"], "exact": int(bad[0]["n"]) - 1 if bad else int(sel[-1]["n"]),
                        "wrong": "%d of %d" % (len(bad), len(sel)),
                        "wrong1024": "%d of %d" % (len(wrong(in_1024)), len(in_1024)),
                        "always": "%d of %d" % (len(wrong(sel, every=True)), len(sel)),
                        "maxmse": max(val(r, "mse_max") for r in sel),
                        "n33": next(("{:.0f}".format(val(r, "sse")) for r in sel if int(r["n"]) == 33), "")})
    return out


def sweep_rows(rows):
    out = []
    for n in [1 << e for e in range(10, 29, 2)]:
        sel = {r["version"]: r for r in rows if int(r["n"]) == n and r["mode"] == "inclusive"}
        if sel:
            any_row, lb = next(iter(sel.values())), sel.get("lookback")
            row = dict({v: r["kernel_ms"] for v, r in sel.items()}, n=pow2(n), cpu=any_row["cpu_ms"])
            if lb:
                row.update(lbtotal=lb["total_ms"], cpu_vs_lb=val(any_row, "cpu_ms") / val(lb, "kernel_ms"))
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
        for r in sorted(sel, key=lambda r: ORDER.index(r["version"])):
            hs = r["version"].startswith("hs_")
            out.append({"n": n, "version": r["version"], "additions": val(r, "additions"),
                        "pe": val(r, "additions") / n, "report": n * math.log2(n) if hs else "",
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
        pct = [val(r, "active_pct") for r in rs]
        ran = [x for x, r in zip(pct, rs) if int(r["sm_blocks"]) > 0]
        out.append({"n": f"{n:,}", "blocks": rs[0]["blocks"], "ran": f"{len(ran)} of {len(rs)}",
                    "two": sum(int(r["sm_blocks"]) >= 2 for r in rs), "span": val(rs[0], "span_ns") / 1e3,
                    "least": min(ran) if ran else "", "mean": sum(pct) / len(pct), "most": max(pct)})
    return out


def as_printed_rows(rows):
    out = []
    for r in by_n(rows):
        share = ratio(r.get("serial_ms"), r.get("kernel_ms"))
        out.append({"n": "{:,}".format(int(r["n"])), "blocks": r["blocks"], "ms": val(r, "kernel_ms"),
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
            order=lambda r: (list(REPORT_SIZES).index(int(r["n"])), r["mode"] != "inclusive",
                             ORDER.index(r["version"])),
            bold=lambda r: r["version"] == "lookback", head=lambda rows: device_text(table)),
        Table("occupancy", "table1_1.csv", [
            "version", "n", "kernel", "grid", "block", ("regs", "registers/thread"),
            ("smem_bytes", "shared bytes/block"), ("blocks_per_sm", "blocks/SM"),
            ("occupancy", "theoretical occupancy", "{:.0%}"), ("waves", "waves", "{:.2f}")],
            rows=occupancy_rows),
        Table("target", "table1_1.csv", [
            "n", ("mode", "scan"), ("cub_ms", "cub (ms)", MS), ("lb_ms", "lookback (ms)", MS),
            ("x", "lookback speed / cub", "{:.3f}"), ("lbbw", "lookback GB/s", "{:.0f}"),
            ("pct", "lookback % of copy", "{:.1f}"), ("cubbw", "cub GB/s", "{:.0f}"),
            ("met", ">= 0.9 x cub?")],
            rows=lambda rows: target_rows(rows, sweep)),
        Table("bytes", "table1_1.csv", [
            "n", "version",
            (lambda r: val(r, "model_bytes") / int(r["n"]), "bytes moved per element (model)", "{:.2f}"),
            ("kernel_ms", "time (ms)", MS), ("model_GBps", "GB/s of those bytes", "{:.0f}"),
            ("bandwidth_GBps", "GB/s (8 B/elem)", "{:.0f}"),
            ("speedup_vs_baseline", "speed vs cub", "{:.2f}")],
            where=lambda r: (int(r["n"]) in TARGET_SIZES and r["mode"] == "inclusive"
                             and r["validated"] == "1"),
            order=lambda r: (int(r["n"]) != N20M, ORDER.index(r["version"]))),
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
            ["{}", "{}", MS, MS, "{:.0%}", "{}", "{}"])),
            rows=as_printed_rows, head=lambda rows: fill(T["as_printed.head"], rows[0]),
            missing=placeholder_table(ap_headings, NOT_RUN))]


# --- Numbers of the prose, every one computed from results/*.csv -------------------------------

MSE_BUCKETS = ((65, 128), (129, 256), (257, 414), (415, 512), (513, 768), (769, 1024))
# results/lookback_tuning.csv's variants (experiments/lookback_tuning.cu) quoted in the prose.
COMMITTED = "256x32 minb6 tid0 sleep100 hint0 stash1"
TUNING = {
    "bounds8": ["256x16 minb8 tid0 sleep0 hint0 stash0"],
    "backoff": ["256x16 minb8 tid0 sleep100 hint0 stash0"],
    "stash": ["256x16 minb8 tid0 sleep100 hint0 stash1"], "committed": [COMMITTED],
    "tid": ["256x32 minb6 tid1 sleep100 hint0 stash1"], "hints": ["256x32 minb6 tid0 sleep100 hint1 stash1"],
    "items": ["256x12 minb8 tid0 sleep100 hint0 stash1", "256x16 minb8 tid0 sleep100 hint0 stash1",
              "256x20 minb6 tid0 sleep100 hint0 stash1", "256x24 minb6 tid0 sleep100 hint0 stash1"],
    "t128": ["128x32 minb12 tid0 sleep100 hint0 stash1", "128x64 minb6 tid0 sleep100 hint0 stash1"],
    "t512": ["512x16 minb4 tid0 sleep100 hint0 stash1"], "minb4": ["256x32 minb4 tid0 sleep100 hint0 stash1"],
    "sleeps": ["256x32 minb6 tid0 sleep50 hint0 stash1", "256x32 minb6 tid0 sleep300 hint0 stash1"],
    "nosleep": ["256x32 minb6 tid0 sleep0 hint0 stash1"]}


def table_prose(t, sweep):
    """t_*: numbers of the prose from results/table1_1.csv (the target's 2²⁸ gap filled from the sweep)."""
    lb = the(t, "lookback", N20M)
    v = {"t_lb_regs": lb["k1_regs"], "t_lb_bps": lb["k1_blocks_per_sm"],
         "t_lb_occ": f"{val(lb, 'k1_occupancy'):.0%}",
         "t_lb_smem_kib": f"{val(lb, 'k1_smem_bytes') / 1024:.0f}",
         "t_lb_total_20m": f"{val(lb, 'total_ms'):.1f}", "t_cpu_20m": f"{val(lb, 'cpu_ms'):.1f}"}
    # Bytes and bandwidths (both scans), at 20,000,000 and 2²⁸: a size's, and over both sizes (all).
    factors = []
    for sizes, tag in [([n], tag) for n, tag in TARGET_SIZES.items()] + [(TARGET_SIZES, "all")]:
        for version, short in (("brent_kung", "bk"), ("map", "map"), ("cub", "cub")):
            v[f"t_{short}_vs_cub_{tag}"] = span(col(t, version, sizes, "speedup_vs_baseline"), "{:.2f}")
            v[f"t_{short}_gbps_{tag}"] = span(col(t, version, sizes, "model_GBps"), "{:.0f}")
        if tag != "all":
            bk, cub = col(t, "brent_kung", sizes, "model_GBps"), col(t, "cub", sizes, "model_GBps")
            v["t_bk_bw_share_" + tag] = span([b / c for b in bk for c in cub], "{:.2f}")
            factors += [c / b for b in bk for c in cub]
    v["t_bk_bw_factor"] = span(factors, "{:.1f}")
    for version, short in (("brent_kung", "bk"), ("map", "map"), ("lookback", "lb")):
        v[f"t_{short}_bpe"] = span([val(r, "model_bytes") / n for n in TARGET_SIZES
                                    for r in rows_of(t, version, n)], "{:.2f}")
    v["t_bk_bytes_factor"] = span([val(r, "model_bytes") / (8.0 * n) for n in TARGET_SIZES
                                   for r in rows_of(t, "brent_kung", n)], "{:.1f}")
    # lookback against the other versions of ours at 20,000,000 (both scans).
    ours = [r for r in t if int(r["n"]) == N20M and r["validated"] == "1" and r["is_baseline"] != "1"]
    fastest = {min((x for x in ours if x["mode"] == r["mode"]), key=lambda x: val(x, "kernel_ms"))["version"]
               for r in ours}
    v["t_lb_rank"] = ("the fastest of ours" if fastest == {"lookback"}
                      else "not the fastest of ours (%s is)" % ", ".join(sorted(fastest)))
    # The many-block racy launch at the Table 1.1 sizes, and Brent–Kung against the CPU (kernel time).
    mb = [the(t, "hs_multiblock_racy", n) for n in REPORT_SIZES]
    counts, times = ["%s of %s" % (r["wrong_runs"], r["runs"]) for r in mb], [val(r, "kernel_ms") for r in mb]
    v.update({
        "t_mb_verdict": "holds" if len(wrong(mb, every=True)) == len(mb) else "does not hold",
        "t_mb_runs": ("%s runs wrong at each of 5, 50 and 80 MB" % counts[0] if len(set(counts)) == 1
                      else "%s runs wrong at 5, 50 and 80 MB" % ", ".join(counts)),
        "t_mb_mse": ", ".join(sci(val(r, "mse")) for r in mb),
        "t_mb_trend": ("grows with n" if times == sorted(times) and times[0] < times[-1]
                       else "does not grow steadily with n"),
        "t_mb_t5": f"{times[0]:.3f}", "t_mb_t80": f"{times[-1]:.3f}",
        "t_mb_tbps": f"{val(mb[-1], 'model_GBps') / 1000:.1f}",
        "t_mb_gb": f"{val(mb[-1], 'model_bytes') / 1e9:.0f}",
        "t_mb_vs_copy": f"{val(mb[-1], 'model_GBps') / val(mb[-1], 'copy_bw_GBps'):.1f}"})
    for n, tag in ((1250000, "5"), (12500000, "50"), (N20M, "80"), (N28, "2p28")):
        v["t_bk_cpu_" + tag] = f"{val(the(t, 'brent_kung', n), 'speedup_vs_cpu'):.0f}"
    # Occupancy and waves of map and brent_kung (Table 1.1 sizes; 2²⁸ where said).
    launches = [(r, k) for r in t if r["version"] in ("map", "brent_kung") for k in (1, 2, 3)]
    v["t_occ_mapbk"] = span([val(r, "k%d_occupancy" % k) for r, k in launches if r.get("k%d_occupancy" % k)],
                            "{:.0%}")
    v["t_occ_mapbk_bps"] = "/".join(sorted({r["k%d_blocks_per_sm" % k] for r, k in launches
                                            if r.get("k%d_blocks_per_sm" % k)}))
    bk, mp = ([the(t, version, n) for n in REPORT_SIZES] for version in ("brent_kung", "map"))
    under = ["%s at %s" % (version, size) for version, rows in (("map", mp), ("brent_kung", bk))
             for r, size in zip(rows, REPORT_SIZES.values()) if val(r, "k1_waves") < 1]
    main_waves = [val(r, "k%d_waves" % k) for r in bk for k in (1, 3)]
    k2_waves, k2_grids, map_k2 = max(val(r, "k2_waves") for r in bk), [int(r["k2_grid"]) for r in bk], [
        val(r, "k2_waves") for r in mp]
    v.update({
        "t_occ_except": (", except for " + " and ".join(under)) if under else "",
        "t_bk_waves_lo": f"{min(main_waves):.1f}", "t_bk_waves_hi": f"{max(main_waves):.0f}",
        "t_bk_waves_2p28": f"{val(the(t, 'brent_kung', N28), 'k1_waves'):.0f}",
        "t_bk_k2_blocks": "%d to %d" % (min(k2_grids), max(k2_grids)),
        "t_bk_k2_wave": "a fraction of one wave" if k2_waves < 1 else "up to %.2f waves" % k2_waves,
        "t_map_waves_5": f"{val(mp[0], 'k1_waves'):.2f}", "t_map_waves_50": f"{val(mp[1], 'k1_waves'):.1f}",
        "t_map_waves_80": f"{val(mp[2], 'k1_waves'):.1f}", "t_map_blocks_5": mp[0]["k1_grid"],
        "t_map_slots": f"{val(mp[0], 'k1_grid') / val(mp[0], 'k1_waves'):.0f}",
        "t_map_k2_blocks": ", ".join(r["k2_grid"] for r in mp),
        "t_map_k2_waves": f"{min(map_k2):.2f} to {max(map_k2):.2f}",
        "t_map_idle": ("at 5 MB the grid does leave SMs idle" if val(mp[0], "k1_waves") < 1
                       else "no grid leaves SMs idle")})
    # The look-back target.
    target = {(o["n"], o["mode"]): o for o in target_rows(t, sweep)}
    v["t_target_verdict"] = ("met" if target and all(o["x"] >= TARGET for o in target.values())
                            else "**missed**")
    for (n, mode), o in target.items():
        v["t_ratio_%s_%s" % (TARGET_SIZES[n], mode[:3])] = f"{o['x']:.3f}"
    for n, tag in TARGET_SIZES.items():
        pair = [target[(n, mode)] for mode in ("inclusive", "exclusive")]
        for name, key in (("t_lb_pct_", "pct"), ("t_lb_bw_", "lbbw"), ("t_cub_bw_", "cubbw")):
            v[name + tag] = span([val(o, key) for o in pair], "{:.0f}")
    return v


def sweep_prose(sw, t):
    """sw_*: numbers of the prose from results/sweep.csv (tsw_*: with results/table1_1.csv)."""
    sizes = sorted({int(r["n"]) for r in sw})
    lead = {n: val(the(sw, "cub", n), "kernel_ms") / val(the(sw, "lookback", n), "kernel_ms") for n in sizes}
    behind, least = [n for n in sizes if lead[n] < 1], min(sizes, key=lambda n: lead[n])
    # Brent–Kung against the serial CPU (kernel time), the crossover.
    bk = {n: the(sw, "brent_kung", n) for n in sizes}
    bkx = {n: val(r, "cpu_ms") / val(r, "kernel_ms") for n, r in bk.items()}
    faster_from = next(n for i, n in enumerate(sizes) if all(bkx[m] > 1 for m in sizes[i:]))
    slow = [n for n in sizes if n < faster_from]
    cpu_t, cpu_s = val(the(t, "brent_kung", N28), "cpu_ms"), val(bk[N28], "cpu_ms")
    # Counting the copies: does any validated GPU version beat the serial CPU at any size?
    beats = sorted({int(r["n"]) for r in sw + t
                    if r["validated"] == "1" and val(r, "total_ms") < val(r, "cpu_ms")})
    sup = {n: pow2(n, True) for n in sizes + beats}  # 2²⁸
    return {
        "sw_lb_ahead": ("behind CUB at %s" % ", ".join(sup[n] for n in behind) if behind
                        else "ahead of CUB at every size from %s to %s" % (sup[sizes[0]], sup[sizes[-1]])),
        "sw_lb_least": "{:.2f}× at {}".format(lead[least], sup[least]),
        "sw_lb_small": span([lead[n] for n in sizes if n < 1 << 22], "{:.2f}"),
        "sw_bk_cpu_2p28": f"{bkx[N28]:.0f}",
        "sw_bk_cross": ("it is slower than the CPU up to %s (%.2f× there) and faster from %s" % (
            sup[slow[-1]], bkx[slow[-1]], sup[faster_from]) if slow and all(bkx[n] < 1 for n in slow)
            else "it is faster than the CPU at every size from %s on" % sup[faster_from]),
        "tsw_cpu_cmp": "%s (%.0f ms against %.0f)" % ("slower" if cpu_s > cpu_t else "faster", cpu_s, cpu_t),
        "tsw_copies": ("a GPU version beats the serial CPU only at n = " + ", ".join(sup[n] for n in beats)
                       if beats else "no GPU version beats the serial CPU at any size")}


def mse_prose(m):
    """mse_*: the racy kernels of Figures 1.2/1.3 and section 1.10 (results/mse.csv)."""
    ip, mb = by_n(m, "hs_inplace_racy"), by_n(m, "hs_multiblock_racy")
    bad = wrong(ip)
    first, last = int(bad[0]["n"]) if bad else None, ip[-1]["n"]
    beyond = [r for r in ip if first and int(r["n"]) >= first]
    r33 = next(r for r in ip if int(r["n"]) == 33)
    v = {"mse_ip_exact_to": str(first - 1 if bad else int(last)),
         "mse_ip_beyond": ("wrong on all %s runs for every n from %d to %s" % (beyond[0]["runs"], first, last)
                           if beyond and len(wrong(beyond, every=True)) == len(beyond) else
                           "wrong on some run for %d of the sizes from %s to %s" % (
                               len(wrong(beyond)), first, last)),
         "mse_ip_wrong_count": str(len(bad)), "mse_ip_sse33": f"{val(r33, 'sse'):.0f}",
         "mse_ip_sse33_vs_report": ("the report's number" if val(r33, "sse") == 278784
                                    else "not the report's 278784"),
         "mse_ip_33_every": ("on every run" if r33["wrong_runs"] == r33["runs"]
                             and val(r33, "mse") == val(r33, "mse_max") else "on some runs"),
         "mse_ip_mse33": f"{val(r33, 'mse'):.0f}"}
    v["mse_ip_verdict"] = ("holds, but not for the report's reason"
                           if v["mse_ip_exact_to"] == "32" and "every n" in v["mse_ip_beyond"]
                           else "does not hold as stated")
    one, big = [r for r in mb if int(r["n"]) <= 1024], [r for r in mb if int(r["n"]) > 1024]
    first, r414 = wrong(one)[0], next(r for r in one if int(r["n"]) == 414)
    warps, exact = -(-int(first["n"]) // 32), [int(r["n"]) for r in one if int(r["wrong_runs"]) == 0]
    always, sizes = wrong(big, every=True), "from %s to %s" % (big[0]["n"], big[-1]["n"])
    v.update({
        "mse_mb_exact_to": str(int(first["n"]) - 1), "mse_mb_first_wrong": first["n"],
        "mse_mb_first_wrong_runs": "%s of %s" % (first["wrong_runs"], first["runs"]),
        "mse_mb_first_wrong_warps": {1: "one", 2: "two", 3: "three", 4: "four"}.get(warps, str(warps)),
        "mse_mb_vs_414": "far below 414" if int(first["n"]) < 414 else "not below the report's 414",
        "mse_mb_partial": str(sum(0 < int(r["wrong_runs"]) < int(r["runs"]) for r in one)),
        "mse_mb_exact_sizes": str(len(exact)), "mse_mb_exact_largest": str(max(exact)),
        "mse_mb_414": ("was exact on all %s runs" % r414["runs"] if r414["wrong_runs"] == "0"
                       else "was wrong on %s of %s runs" % (r414["wrong_runs"], r414["runs"])),
        "mse_mb_big": ("every n %s wrong on all %s runs" % (sizes, big[0]["runs"]) if len(always) == len(big)
                       else "%d of the sizes %s wrong on every run" % (len(always), sizes))})
    for a, b in MSE_BUCKETS:
        sel = [r for r in one if a <= int(r["n"]) <= b]
        v["mse_mb_pct_%d_%d" % (a, b)] = "{:.0%}".format(sum(int(r["wrong_runs"]) for r in sel)
                                                         / sum(int(r["runs"]) for r in sel))
    return v


def tuning_prose(tu):
    """tu_*: the look-back tuning experiment (results/lookback_tuning.csv): speed against CUB per
    variant, the range over the variants named and the rounds."""
    def ratios(key, n):
        vals = [val(r, "speedup_vs_cub") for r in tu if r["variant"] in TUNING[key] and int(r["n"]) == n]
        if not vals:
            sys.exit("tables.py: lookback_tuning.csv has no %s at n=%d" % (TUNING[key], n))
        return vals

    def against(key, n, spec):  # against the committed kernel, as printed with spec
        lo, hi = (float(spec.format(f(ratios(key, n)))) for f in (min, max))
        clo, chi = (float(spec.format(f(ratios("committed", n)))) for f in (min, max))
        return "faster" if lo > chi else "slower" if hi < clo else "within the spread"

    v = {}
    for key in TUNING:
        v.update({"tu_%s_%s" % (key, tag): span(ratios(key, n), "{:.2f}") for n, tag in TARGET_SIZES.items()})
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
DRAM_BYTES = ("dram__bytes_read.sum", "dram__bytes_write.sum")
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
PROFILE_COLUMNS = [
    ("kernel", "kernel (version)"), "n", ("grid", "grid", "{:.0f}"), ("waves", "waves", "{:.3g}"),
    ("theo", "theoretical occupancy (%)", "{:.0f}"), ("ach", "achieved occupancy (%)", "{:.1f}"),
    ("limits", "blocks/SM allowed by block slots, registers, shared memory, warps"), "limiter",
    ("act", "SM active min / mean / max (% of elapsed)"), ("dram", "DRAM throughput (% of peak)", "{:.1f}"),
    ("spr", "global load sectors per request", "{:.1f}"),
    ("cpi", "warp cycles per issued instruction", "{:.2f}"),
    ("stalls", "top stall reasons (stall cycles per issued instruction)")]
PROFILE_MISSING = ["kernel (version)", "n", "grid", "waves", "theoretical occupancy", "achieved occupancy",
                   "blocks/SM allowed by block slots, registers, shared memory, warps", "limiter",
                   "SM active min / mean / max (% of elapsed)", "DRAM throughput (% of peak)",
                   "top stall reasons"]


def profile_cases(profile):
    """Per launch of PROFILE_CASES that was profiled: its counters (c), the blocks per SM each resource
    allows (limits) and the lowest of them (low, limiters), the least / mean / most active SM as % of
    the elapsed cycles (active) and the stall reasons, largest first."""
    out, launches = [], ncu_kernels(profile, lambda r: (r["version"], int(r["n"])))
    for version, n, kernel, tag in PROFILE_CASES:
        c = {}
        for name, counters in launches.get((version, n), {}).items():
            if kernel in name:
                c.update(counters)
        if c:
            limits = [c.get("launch__occupancy_limit_" + k) for k, _ in LIMITS]
            low, el = min((x for x in limits if x is not None), default=None), c.get("sm__cycles_elapsed.max")
            active = [c.get("sm__cycles_active." + s) for s in ("min", "avg", "max")]
            stalls = [(c[STALL_METRIC % s], s) for s in STALLS if c.get(STALL_METRIC % s) is not None]
            out.append({"version": version, "n": n, "kernel": kernel, "tag": tag, "c": c, "limits": limits,
                        "low": low, "limiters": [name for x, (_, name) in zip(limits, LIMITS)
                                                 if x is not None and x == low],
                        "active": [100 * a / el if a is not None and el else None for a in active],
                        "stalls": sorted(stalls, reverse=True)})
    return out


def profile_block(cases, profile):
    rows = []
    for p in cases:
        c, spr = p["c"], ratio(p["c"].get(SECTORS), p["c"].get(REQUESTS))
        rows.append(dict({name: c.get(metric) for name, metric, _, _ in SHOWN},
                         kernel="%s (%s)" % (p["kernel"], p["version"]), n=p["n"],
                         limiter=", ".join(p["limiters"]),
                         limits=", ".join("?" if x is None else "{:g}".format(x) for x in p["limits"]),
                         act=" / ".join("?" if a is None else "{:.0f}".format(a) for a in p["active"]),
                         spr=NOT_MEASURED if spr is None else spr, cpi=c.get(STALL_TOTAL, NOT_MEASURED),
                         stalls=", ".join("%s %.2f" % (s, x) for x, s in p["stalls"][:3]) or NOT_MEASURED))
    return fill(T["profile.head"], profile[0]) + "\n\n" + md_table(rows, PROFILE_COLUMNS)


def profile_values(cases):
    """{tag}_{what}: the counters the prose quotes, a placeholder until results/profile.csv exists."""
    v = {"%s_%s" % (case[-1], what): PROFILE_PLACEHOLDER for case in PROFILE_CASES for what in (
        "grid", "waves", "theo", "ach", "dram", "limiter", "limit", "sm_min", "sm_avg", "sm_max",
        "top_stall")}
    for p in cases:
        tag = p["tag"]
        v.update({f"{tag}_{name}": spec.format(p["c"][metric]) + unit
                  for name, metric, spec, unit in SHOWN if p["c"].get(metric) is not None})
        v.update({f"{tag}_sm_{s}": f"{a:.0f}%" for s, a in zip(("min", "avg", "max"), p["active"])
                  if a is not None})
        if p["limiters"]:
            v[tag + "_limit"], v[tag + "_limiter"] = "{:g}".format(p["low"]), " and ".join(p["limiters"])
        if p["stalls"]:
            v[tag + "_top_stall"] = p["stalls"][0][1]
    return v


# --- The look-back tuning against a copy, warp specialisation and the copy budget: both GPUs --------

# The memcpy-speed experiment: rounds 3 to 5 of experiments/lookback_tuning.cu on each GPU
# (results/lookback_tuning.csv on the H100, results/h200/ on the H200), every variant against a
# device-to-device copy of the same bytes timed in the same loop: the variants of each row of
# prose.md's memcpy table (a list), or a family (a name prefix: its fastest).
MEMCPY_ROWS = {
    "committed": [COMMITTED], "t512": ["512x32 minb3 tid0 sleep100 hint0 stash1"],
    "tid1": ["512x32 minb3 tid1 sleep100 hint0 stash1"],
    "lb1": ["256x32 minb6 tid0 sleep100 hint0 stash1 lb1"],
    "tid2": ["256x32 minb6 tid2 sleep100 hint0 stash1"],
    "pipe": ["pipe 256x32 minb4 sleep100"], "bulk": "bulk ", "striped": "striped ",
    "local": ["local 256x32 minb6"], "local_tid1": ["local tid1 256x32 minb6"],
    "copy_smem": ["tile_copy_smem 256x32"], "tile_copy": ["tile_copy 256x32"]}
MEMCPY_GPUS = {"h100": "lookback_tuning.csv", "h200": os.path.join("h200", "lookback_tuning.csv")}
MEMCPY_TARGET = {"h100": 95.0, "h200": 90.0}  # % of the copy at 2^28 (and CUB_TARGET at both sizes)


def memcpy_rows(tu, names, n):
    """The passing rows at n of the variants `names` (a list), or of a family's fastest."""
    if isinstance(names, str):  # a family (name prefix): its variant fastest at 2^28 (worse round)
        family = sorted({r["variant"] for r in tu if r["variant"].startswith(names)})
        if not family:
            return []
        names = [max(family, key=lambda v: min(val(r, "pct_of_copy") for r in tu
                                               if r["variant"] == v and int(r["n"]) == N28))]
    return [r for r in tu if r["variant"] in names and int(r["n"]) == n and r["ok"] == "1"]


def memcpy_values(v, table):
    """mc_*: per GPU, % of the copy and speed against CUB at 20M and 2^28 of each variant of
    MEMCPY_ROWS (mc_{gpu}_{key}_pct|cub_{size}), ranges over the two rounds; CUB's share of the copy,
    the copy, the verdicts."""
    data = {}
    for gpu, name in MEMCPY_GPUS.items():
        data[gpu] = load(RESULTS, name)
        if not data[gpu] or "pct_of_copy" not in data[gpu][0]:
            sys.exit("tables.py: results/%s has no copy column (rerun experiments/run.sh)" % name)
    for key, names in MEMCPY_ROWS.items():
        for gpu, rows in data.items():
            for n, tag in TARGET_SIZES.items():
                rs = memcpy_rows(rows, names, n)
                if not rs:
                    sys.exit("tables.py: %s lookback_tuning.csv has no %s at n=%d" % (gpu, key, n))
                v[f"mc_{gpu}_{key}_pct_{tag}"] = span([val(r, "pct_of_copy") for r in rs], "{:.0f}")
                v[f"mc_{gpu}_{key}_cub_{tag}"] = span([val(r, "speedup_vs_cub") for r in rs], "{:.2f}")
    for gpu, rows in data.items():
        at28 = [r for r in rows if int(r["n"]) == N28]
        cub_share, copy = ([100 * val(r, "copy_ms") / val(r, "cub_ms") for r in at28],
                           [8.0 * N28 / val(r, "copy_ms") / 1e6 for r in at28])
        v[f"mc_{gpu}_cubpct_2p28"], v[f"mc_{gpu}_copy_2p28"] = span(cub_share, "{:.0f}"), span(copy, "{:.0f}")
        best = max(val(r, "pct_of_copy") for r in memcpy_rows(rows, [COMMITTED], N28))
        worst = min(val(r, "speedup_vs_cub") for n in TARGET_SIZES for r in memcpy_rows(rows, [COMMITTED], n))
        v[f"mc_{gpu}_verdict"] = "met" if best >= MEMCPY_TARGET[gpu] and worst >= CUB_TARGET else fill(
            T["prose_memcpy_verdicts.missed"], {"best": f"{best:.0f}", "goal": f"{MEMCPY_TARGET[gpu]:.0f}",
                                                "worst_cub": f"{worst:.2f}", "goal_cub": f"{CUB_TARGET:.2f}"})
    # The copy that table1_1.csv's pct_of_copy_bw divides by: each run's own measurement (256 MiB
    # copies, common/device_info.cuh), a little below the copy at the scan's size measured here.
    v["mc_h100_run_copy"] = span([val(r, "copy_bw_GBps") for r in table or [] if r.get("copy_bw_GBps")],
                                 "{:.0f}")


def per_gpu(name, where=lambda r: True):
    """(folder, rows) of results/name and results/h200/name, each that exists and has rows (where)."""
    found = [(folder, [r for r in load(os.path.join(HERE, folder), name) or [] if where(r)])
             for folder in ("results/", "results/h200/")]
    return [(folder, rows) for folder, rows in found if rows]


def ws_scan_block(variant="ws_t4096_s12_r2_w8_st0_d0_l2"):
    """Per GPU, size and mode, the copy, CUB, the committed `lookback` and the warp-specialised variant
    (the design ws_scan.cuh describes) of one experiments/ws_scan.cu run (ratios within that run), then
    one bullet per GPU on the targets (95 % / 90 % of copy, 1.10x CUB)."""
    gpus = per_gpu("ws_scan.csv")
    if not gpus:
        return T["ws_scan.missing"]

    def cell(r):  # a variant's time, % of the copy and speed against CUB
        return "%.4f (%.1f %%, %.3f×)" % tuple(val(r, k) for k in ("ms", "pct_of_copy", "speedup_vs_cub"))
    out, bullets = [], []
    for folder, rows in gpus:
        timed = [r for r in rows if r["ms"]]
        device, mine = timed[0]["device"], [r for r in timed if r["variant"] == variant]
        for w in mine:
            lb = next((r for r in timed if r["variant"] == "lookback" and r["n"] == w["n"]
                       and r["mode"] == w["mode"]), None)
            out.append({"gpu": "%s (`%s`)" % (device, folder), "n": pow2(int(w["n"])), "mode": w["mode"],
                        "copy": 8.0 * int(w["n"]) / (val(w, "copy_ms") * 1e6), "cub": w["cub_ms"],
                        "lookback": cell(lb) if lb else "", "ws": cell(w),
                        "ok": "all %d" % len(rows) if all(r["ok"] == "1" for r in rows) else "NOT all"})
        largest = max(int(r["n"]) for r in mine)
        big = [val(w, "pct_of_copy") for w in mine if int(w["n"]) == largest]
        speed = [val(w, "speedup_vs_cub") for w in mine]
        goal = MEMCPY_TARGET["h100" if "H100" in device else "h200"]
        bullets.append(fill(T["ws_scan.gpu"], {
            "device": device, "log2n": round(math.log2(largest)), "pct_lo": f"{min(big):.1f}",
            "pct_hi": f"{max(big):.1f}", "goal": f"{goal:.0f}",
            "pct_verdict": verdict(compare(min(big), ">=", goal)),
            "cub_lo": f"{min(speed):.3f}", "cub_hi": f"{max(speed):.3f}", "goal_cub": f"{CUB_TARGET:.2f}",
            "cub_verdict": verdict(compare(min(speed), ">=", CUB_TARGET)),
            "ok": sum(r["ok"] == "1" for r in rows), "runs": len(rows)}))
    columns = [("gpu", "GPU (results folder)"), "n", "mode", ("copy", "copy (GB/s)", "{:.1f}"),
               ("cub", "CUB (ms)", MS), ("lookback", "`lookback` (ms, % of copy, × CUB)"),
               ("ws", "warp-specialised (ms, % of copy, × CUB)"), ("ok", "rows validated")]
    return md_table(out, columns) + "\n\n" + rewrap("\n".join(bullets))


def copy_budget_block(cycles=(0, 2048, 4096, 6144, 8192, 12288, 16384), tile_shape="per_tile_256x32",
                      within=2.0):
    """% of the same run's copy per shape and injected wait (experiments/copy_budget.cu), for each GPU,
    then how long a wait the committed tile (LookbackPolicy on sm_90) hides within `within` points."""
    gpus = per_gpu("copy_budget.csv", lambda r: r.get("validated") == "1")
    if not gpus:
        return T["copy_budget.missing"]
    out, bullets = [], []
    for folder, rows in gpus:
        device = rows[0]["device"]
        for shape in dict.fromkeys(r["shape"] for r in rows):
            mine = [r for r in rows if r["shape"] == shape]
            out.append(dict({c: next((r["pct_of_copy"] for r in mine if int(r["injected_cycles"]) == c), "")
                             for c in cycles}, device="%s (`%s`)" % (device, folder),
                            shape="%s (%s blocks/SM, %s KiB/SM)" % (shape, mine[0]["blocks_per_sm"],
                                                                   mine[0]["inflight_KiB_per_sm"])))
        tile = sorted((r for r in rows if r["shape"] == tile_shape), key=lambda r: int(r["injected_cycles"]))
        if tile:
            base = val(tile[0], "pct_of_copy")
            last = [r for r in tile if val(r, "pct_of_copy") >= base - within][-1]
            waited, mhz = int(last["injected_cycles"]), val(last, "sm_clock_MHz")
            bullets.append(fill(T["copy_budget.tile"], {
                "device": device, "copy": span([val(r, "copy_GBps") for r in rows], "{:.0f}"),
                "tile": tile_shape, "base": f"{base:.1f}", "within": f"{within:.0f}", "waited": waited,
                "last": f"{val(last, 'pct_of_copy'):.1f}", "us": f"{waited / mhz:.1f}", "mhz": f"{mhz:.0f}"}))
        at0 = {kind: [val(r, "pct_of_copy") for r in rows if r["shape"].startswith(kind)
                      and int(r["injected_cycles"]) == 0] for kind in ("ring_", "per_tile_")}
        if all(at0.values()):
            bullets.append(fill(T["copy_budget.rings"], {
                "device": device, "rings": span(at0["ring_"], "{:.1f}"),
                "tiles": span(at0["per_tile_"], "{:.1f}")}))
    columns = [("shape", "shape (blocks per SM, KiB of tiles per SM)"), ("device", "GPU (results folder)")]
    columns += [(c, "%d cycles" % c, "{:.1f}") for c in cycles]
    return md_table(out, columns) + "\n\n" + rewrap("\n".join(bullets))


# --- Generated prose: whole blocks, lines wrapped at 100 characters ---------------------------
# (written once the prose_* blocks have their numbers, so results/table1_1.csv is there)

GTX970_GBPS = 224.0  # the report's GTX 970: memory bandwidth of NVIDIA's specification, GB/s


def run_output(table):
    """What a run prints: the progress lines of the committed run (from table1_1.csv), in the order
    the program ran them (the registry's: the CSV's row order)."""
    rows = [r for r in table if int(r["n"]) == N20M and r["mode"] == "inclusive"]
    lines = [fill(T["run_output.line"], dict(
        r, i=i, count=len(rows), ms=f"{val(r, 'kernel_ms'):.4f}",
        outcome=("PASS" if r["result_ok"] == "1" else "FAIL") if r["validated"] == "1" else "demonstration"))
        for i, r in enumerate(rows, 1)]
    return say("run_output", {"device": rows[0]["device"], "versions": ",".join(r["version"] for r in rows),
                              "lines": "\n".join(lines)})


def per_thread_summary(rows):
    """Section 3.0.3's claim judged within each algorithm: the time of each (version, size) against K,
    from results/per_thread.csv. It holds as a rule if the smallest K is the fastest in every series."""
    if not rows:
        return NOT_RUN
    items, low_end, rising = [], [], []
    for version in dict.fromkeys(r["version"] for r in rows):
        for n, size in PER_THREAD_SIZES.items():
            sel = sorted(rows_of(rows, version, n, "inclusive"), key=lambda r: int(r["per_thread"]))
            if sel:
                ks, ms = [int(r["per_thread"]) for r in sel], [val(r, "kernel_ms") for r in sel]
                best = ms.index(min(ms))
                rising.append(all(ms[i + 1] > ms[i] for i in range(best, len(ms) - 1)))
                low_end.append(best == 0)
                items.append(fill(T["per_thread_summary.item"], {
                    "version": version, "size": size, "k": ks[best], "ms": f"{ms[best]:.4f}",
                    "trend": "the time rises with every doubling above it" if rising[-1]
                    else "the time does not rise steadily above it", "last_ms": f"{ms[-1]:.4f}",
                    "last_k": ks[-1],
                    "smaller": "; smaller K is slower (K = %d: %.4f ms)" % (ks[0], ms[0]) if best else ""}))
    bad = sorted({(r["version"], int(r["n"]), int(r["per_thread"])) for r in rows if r["result_ok"] != "1"})
    return say("per_thread_summary", {
        "verdict": verdict(all(low_end) if low_end else None, "no per_thread.csv rows"),
        "above": "; above the fastest K, less work per thread is faster in every series"
                 if rising and all(rising) else "",
        "exact": "Not every K is exact (wrong: %s)" % ", ".join("%s K = %d at n = %d" % (v, k, n)
                                                               for v, n, k in bad)
                 if bad else "Every K is exact at every n here", "items": "\n".join(items)})


def mbk_block(table):
    """Section 3's map_brent_kung against brent_kung and map (Table 1.1's run)."""
    items = []
    for n, size in PER_THREAD_SIZES.items():
        mbk, bk, mp = (next((val(r, "kernel_ms") for r in rows_of(table, v, n, "inclusive")), None)
                       for v in ("map_brent_kung", "brent_kung", "map"))
        vs_bk, vs_map = ("{:.2f}".format(x) if x else "?" for x in (ratio(bk, mbk), ratio(mp, mbk)))
        items.append(fill(T["mbk.item"], {"size": size, "ms": "{:.4f}".format(mbk) if mbk else NOT_RUN,
                                          "vs_bk": vs_bk, "vs_map": vs_map}))
    return say("mbk", {"device": table[0]["device"], "items": "\n".join(items)})


def as_printed_verdicts(rows, v):
    """Bullets: is section 2's kernel right within one block, beyond it; what the serial part costs."""
    if not rows:
        return fill(T["conclusions.as_printed_not_run"], v)
    rows = by_n(rows)
    per_block = int(rows[0]["threads"]) * int(rows[0]["per_thread"])
    bad = wrong(rows)
    bad_one, many = [r for r in bad if int(r["n"]) <= per_block], [r for r in rows if int(r["n"]) > per_block]
    first_wrong = int(bad[0]["n"]) if bad else None
    shares = {int(r["n"]): ratio(r.get("serial_ms"), r.get("kernel_ms")) for r in rows}
    shares = {n: x for n, x in shares.items() if x is not None}
    big = max(shares) if shares else None
    limit = verdict(None if first_wrong is None and not many else compare(first_wrong or 0, ">", 15000),
                    "no size failed, so no limit was seen")
    return fill(T["conclusions.as_printed"], {
        "within": "not always right" if bad_one else "right", "per_block": per_block,
        "wrong_one": len(bad_one), "one": len(rows) - len(many),
        "beyond": "wrong" if len(bad) > len(bad_one) else "right by luck",
        "wrong_many": len(bad) - len(bad_one), "many": len(many),
        "first_wrong": "; the first wrong run is at n = {:,}".format(first_wrong) if bad else "",
        "limit": limit.replace("holds", "confirmed").replace("does not hold", "not confirmed"),
        "serial_verdict": verdict(compare(shares[big], ">", 0.5) if shares else None,
                                  "no serial_ms measured"),
        "serial_share": fill(T["conclusions.as_printed_share"], {
            "share_15k": "{:.0%}".format(shares[15000]) if 15000 in shares else "?",
            "share_big": "{:.0%}".format(shares[big]), "big": "{:,}".format(big)}) if shares else ""})


def conclusions(v, table, cases, as_printed):
    """The section "Which of the report's conclusions hold" (v: every value, a placeholder for those of
    a CSV that is not there yet): the sentences that stand only where their counters were measured."""
    c = {p["tag"]: p["c"] for p in cases}
    racy_80mb, map5 = c.get("racy80mb", {}), c.get("map5mb", {})
    v.update(scan_mb="%.0f" % (8.0 * N20M / 1e6), floor_ms="%.2f" % (8.0 * N20M / (GTX970_GBPS * 1e6)),
             gtx="%.0f" % GTX970_GBPS, not_measured=NOT_MEASURED, not_run=NOT_RUN, dev=table[0]["device"])
    if all(k in racy_80mb for k in DRAM_BYTES):
        dram = sum(racy_80mb[k] for k in DRAM_BYTES)
        v["dram"] = fill(T["conclusions.dram"], dict(v, dram_gb="%.2f" % (dram / 1e9),
                                                     dram_x="%.1f" % (dram / (8.0 * N20M))))
    else:
        v["dram"] = fill(T["conclusions.dram_not_measured"], v)
    v["racy"] = fill(T["conclusions.racy"], v)
    # Sectors per request of the global loads: 4 for a warp reading 32 consecutive ints.
    s_map, s_bk = (ratio(c.get(tag, {}).get(SECTORS), c.get(tag, {}).get(REQUESTS))
                   for tag in ("map5mb", "bk5mb"))
    if s_map is None or s_bk is None:
        v["sectors"] = fill(T["conclusions.sectors_not_measured"], v)
    else:
        v["sectors"] = fill(T["conclusions.sectors"], {
            "map_spr": f"{s_map:.1f}", "map_verdict": verdict(compare(s_map, ">=", 31)),
            "bk_spr": f"{s_bk:.1f}", "bk_verdict": verdict(compare(s_bk, "<=", 4.5))})
    # §1.9: the per-SM limit from the occupancy API (blocks per SM × block / occupancy = the
    # device's maximum threads per SM).
    per_sm = next((ratio(val(r, "k1_blocks_per_sm") * val(r, "k1_block"), r["k1_occupancy"])
                   for r in table if r["version"] == "map" and r.get("k1_occupancy")), None)
    share = ratio(map5.get(STALL_METRIC % "long_scoreboard"), map5.get(STALL_TOTAL))
    v.update(per_sm="{:.0f}".format(per_sm) if per_sm else "(" + NOT_RUN + ")",
             verdict=verdict(compare(share, ">", 0.5), NOT_MEASURED),
             share="?" if share is None else "{:.0%}".format(share),
             cpi="?" if map5.get(STALL_TOTAL) is None else "{:.2f}".format(map5[STALL_TOTAL]))
    v["stalls"] = fill(T["conclusions.stalls_not_measured" if share is None else "conclusions.stalls"], v)
    v["as_printed"] = as_printed_verdicts(as_printed, v)
    return say("conclusions", v)


def main():
    table, sweep, mse, per_thread, profile, tuning, as_printed = (load(RESULTS, name + ".csv") for name in (
        "table1_1", "sweep", "mse", "per_thread", "profile", "lookback_tuning", "as_printed"))
    rep = load(os.path.join(HERE, "original"), "report_002.csv", comments=True)
    set_order(table, sweep, mse, per_thread)
    cases = profile_cases(profile)
    values = profile_values(cases)
    if table:
        values.update(table_prose(table, sweep))
    if table and sweep:
        values.update(sweep_prose(sweep, table))
    if mse:
        values.update(mse_prose(mse))
    if tuning:
        values.update(tuning_prose(tuning))
    if rep:  # the report's own numbers
        times = [float(r["time_ms"]) for r in rep if r["what"] == "table1_1"]
        values.update(rep_t_lo="{:.2f}".format(min(times)), rep_t_hi="{:.2f}".format(max(times)))
    readme = Readme(sys.argv[1] if len(sys.argv) > 1 else README)  # written once, at save()
    memcpy_values(values, table)
    # Blocks prose_* need every value of theirs: without results/table1_1.csv, this stops the run.
    fill_blocks(readme, {k: t for k, t in T.items() if k.startswith("prose_") and "." not in k}, values,
                "prose.md")
    readme.block("memcpy", say("memcpy", values))
    readme.block("profile", profile_block(cases, profile) if profile else placeholder_table(
        PROFILE_MISSING, PROFILE_PLACEHOLDER))
    readme.block("run_output", run_output(table))
    readme.block("per_thread_summary", per_thread_summary(per_thread))
    readme.block("mbk", mbk_block(table))
    # The conclusions and the target's verdict show a placeholder for a number whose CSV is not there yet.
    lenient = defaultdict(lambda: PLACEHOLDER, values)
    readme.block("conclusions", conclusions(lenient.copy(), table, cases, as_printed))
    readme.block("target_verdict", say("target_verdict", lenient))
    readme.block("copy_budget", copy_budget_block())
    readme.block("ws_scan", ws_scan_block())
    readme.tables(specs(table, sweep, per_thread), RESULTS)
    readme.save()
    print("tables.py: README.md tables regenerated from", ", ".join(
        n for n, d in (("table1_1.csv", table), ("sweep.csv", sweep), ("mse.csv", mse),
                       ("per_thread.csv", per_thread), ("profile.csv", profile)) if d) or "nothing")


if __name__ == "__main__":
    main()
