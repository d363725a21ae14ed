#!/usr/bin/env python3
"""Regenerates every table of scan/README.md from results/*.csv (`make tables`, run by
`make plots` and `make report`). A missing CSV leaves its tables as they are."""
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ next to the shared helpers
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
from readme_tables import Readme, md_table, read_csv  # noqa: E402

README = os.path.join(HERE, "README.md")
RESULTS = os.path.join(HERE, "results")
REPORT_SIZES = [(1250000, "5 MB"), (12500000, "50 MB"), (20000000, "80 MB")]
ORDER = ["hs_multiblock_racy", "hs_inplace_racy", "hs_buffered", "map", "brent_kung", "map_brent_kung", "lookback", "cub"]
PLACEHOLDER = "(run make report-run)"
PROFILE_PLACEHOLDER = "(run make profile)"


def load(name):
    path = os.path.join(RESULTS, name)
    return read_csv(path) if os.path.exists(path) else None


def num(row, key):
    try:
        return float(row.get(key, ""))
    except ValueError:
        return float("nan")


def order_key(row):
    v = row["version"]
    return ORDER.index(v) if v in ORDER else len(ORDER)


def error_text(row):
    if row["validated"] == "1":
        return "0 (exact)" if row["result_ok"] == "1" else "MSE {:.3g} ({} wrong)".format(num(row, "mse"), row["mismatches"])
    return "MSE {:.3g} ({} of {} runs wrong)".format(num(row, "mse"), row["wrong_runs"], row["runs"])


def grid_block(row):
    if not row.get("blocks"):
        return "(CUB's choice)"
    return "({}, {})".format(row["blocks"], row["threads"])


def device_line(rows):
    r = rows[0]
    return "Measured on {} (compute capability {}, driver {}, runtime {}); device-to-device copy {:.0f} GB/s.".format(
        r["device"], r["compute_capability"], r["driver"], r["runtime"], num(r, "copy_bw_GBps"))


def table1_1(rows):
    out = []
    for n, label in REPORT_SIZES:
        for mode in ("inclusive", "exclusive"):
            sel = [r for r in rows if int(r["n"]) == n and r["mode"] == mode]
            out += sorted(sel, key=order_key)
    cols = [
        (lambda r: dict(REPORT_SIZES)[int(r["n"])], "size", "{}"),
        ("n", "n", "{}"),
        ("mode", "scan", "{}"),
        ("version", "version", "{}"),
        (error_text, "error", "{}"),
        (grid_block, "(grid, block)", "{}"),
        ("kernel_ms", "time (ms)", "{:.4f}"),
        ("bandwidth_GBps", "GB/s (8 B/elem)", "{:.0f}"),
        ("speedup_vs_baseline", "speed vs cub", "{:.2f}"),
        ("speedup_vs_cpu", "speed vs CPU", "{:.1f}"),
    ]
    return device_line(rows) + "\n\n" + md_table(out, cols, bold=lambda r: r["version"] == "lookback")


def occupancy(rows):
    out = []
    for r in rows:
        if r["mode"] != "inclusive" or r["version"] not in ("brent_kung", "map", "map_brent_kung", "lookback"):
            continue
        if r["version"] == "map_brent_kung" and int(r["n"]) not in (1250000, 20000000):
            continue
        if r["version"] in ("map", "lookback") and int(r["n"]) != 20000000:
            continue
        for k in (1, 2, 3):
            if r.get("k%d_name" % k):
                out.append({
                    "version": r["version"], "n": r["n"], "kernel": "k%d %s" % (k, r["k%d_name" % k]),
                    "grid": r["k%d_grid" % k], "block": r["k%d_block" % k], "regs": r["k%d_regs" % k],
                    "smem": r["k%d_smem_bytes" % k], "bps": r["k%d_blocks_per_sm" % k],
                    "occ": r["k%d_occupancy" % k], "waves": r["k%d_waves" % k],
                })
    out.sort(key=lambda o: (ORDER.index(o["version"]), int(o["n"]), o["kernel"]))
    cols = [
        ("version", "version", "{}"), ("n", "n", "{}"), ("kernel", "kernel", "{}"), ("grid", "grid", "{}"),
        ("block", "block", "{}"), ("regs", "registers/thread", "{}"), ("smem", "shared bytes/block", "{}"),
        ("bps", "blocks/SM", "{}"), ("occ", "theoretical occupancy", "{:.0%}"), ("waves", "waves", "{:.2f}"),
    ]
    return md_table(out, cols)


def target(rows, sweep):
    # The Table 1.1 run has both sizes and both scans; the sweep's 2^28 row fills a gap.
    out = []
    for n in (20000000, 1 << 28):
        for mode in ("inclusive", "exclusive"):
            sel = {}
            for r in list(sweep or []) + list(rows):  # rows of the Table 1.1 run win
                if int(r["n"]) == n and r["mode"] == mode:
                    sel[r["version"]] = r
            if "lookback" not in sel or "cub" not in sel:
                continue
            lb, cub = sel["lookback"], sel["cub"]
            ratio = num(cub, "kernel_ms") / num(lb, "kernel_ms")
            out.append({
                "n": n, "mode": mode, "cub": cub["kernel_ms"], "lb": lb["kernel_ms"], "ratio": ratio,
                "lbbw": lb["bandwidth_GBps"], "pct": lb["pct_of_copy_bw"], "cubbw": cub["bandwidth_GBps"],
                "met": "yes" if ratio >= 0.9 else "**no** (%.0f%% short)" % (100 * (0.9 - ratio) / 0.9),
            })
    cols = [
        ("n", "n", "{}"), ("mode", "scan", "{}"), ("cub", "cub (ms)", "{:.4f}"), ("lb", "lookback (ms)", "{:.4f}"),
        ("ratio", "lookback speed / cub", "{:.3f}"), ("lbbw", "lookback GB/s", "{:.0f}"),
        ("pct", "lookback % of copy", "{:.1f}"), ("cubbw", "cub GB/s", "{:.0f}"), ("met", ">= 0.9 x cub?", "{}"),
    ]
    return md_table(out, cols)


def bytes_table(rows):
    out = []
    for n in (20000000, 1 << 28):
        sel = [r for r in rows if int(r["n"]) == n and r["mode"] == "inclusive" and r["validated"] == "1"]
        for r in sorted(sel, key=order_key):
            out.append(dict(r, bpe=num(r, "model_bytes") / n))
    cols = [
        ("n", "n", "{}"), ("version", "version", "{}"), ("bpe", "bytes moved per element (model)", "{:.2f}"),
        ("kernel_ms", "time (ms)", "{:.4f}"), ("model_GBps", "GB/s of those bytes", "{:.0f}"),
        ("bandwidth_GBps", "GB/s (8 B/elem)", "{:.0f}"), ("speedup_vs_baseline", "speed vs cub", "{:.2f}"),
    ]
    return md_table(out, cols)


def mse_summary(rows):
    out = []
    for version, launch in (("hs_inplace_racy", "<<<1, 32>>>"), ("hs_multiblock_racy", "<<<ceil(n/1024), 1024>>>")):
        sel = sorted((r for r in rows if r["version"] == version), key=lambda r: int(r["n"]))
        if not sel:
            continue
        wrong = [r for r in sel if int(r["wrong_runs"]) > 0]
        always = [r for r in sel if int(r["wrong_runs"]) == int(r["runs"])]
        first_wrong = int(wrong[0]["n"]) if wrong else None
        exact_up_to = (first_wrong - 1) if wrong else int(sel[-1]["n"])
        in_1024 = [r for r in sel if int(r["n"]) <= 1024]
        out.append({
            "version": version, "launch": launch,
            "sizes": "{}..{}".format(sel[0]["n"], sel[-1]["n"]), "runs": sel[0]["runs"],
            "exact": exact_up_to,
            "wrong": "{} of {}".format(len(wrong), len(sel)),
            "wrong1024": "{} of {}".format(sum(1 for r in in_1024 if int(r["wrong_runs"]) > 0), len(in_1024)),
            "always": "{} of {}".format(len(always), len(sel)),
            "maxmse": max(num(r, "mse_max") for r in sel),
            "n33": next(("{:.0f}".format(num(r, "sse")) for r in sel if int(r["n"]) == 33), ""),
        })
    cols = [
        ("version", "version", "{}"), ("launch", "launch", "{}"), ("sizes", "n", "{}"), ("runs", "runs per n", "{}"),
        ("exact", "exact on every run up to n =", "{}"), ("wrong", "sizes with a wrong run", "{}"),
        ("wrong1024", "... among n <= 1024", "{}"), ("always", "sizes wrong on every run", "{}"),
        ("maxmse", "largest MSE", "{:.3g}"), ("n33", "sum of squared errors at n = 33", "{}"),
    ]
    return device_line(rows) + "\n\n" + md_table(out, cols)


def sweep_table(rows):
    picks = [1 << e for e in (10, 12, 14, 16, 18, 20, 22, 24, 26, 28)]
    out = []
    for n in picks:
        sel = {r["version"]: r for r in rows if int(r["n"]) == n and r["mode"] == "inclusive"}
        if not sel:
            continue
        any_row = next(iter(sel.values()))
        o = {"n": "2^%d" % (n.bit_length() - 1), "cpu": any_row["cpu_ms"]}
        for v in ("brent_kung", "map", "map_brent_kung", "lookback", "cub"):
            o[v] = sel[v]["kernel_ms"] if v in sel else ""
        if "lookback" in sel:
            o["lbtotal"] = sel["lookback"]["total_ms"]
            o["cpu_vs_lb"] = num(any_row, "cpu_ms") / num(sel["lookback"], "kernel_ms")
        out.append(o)
    cols = [
        ("n", "n", "{}"), ("cpu", "CPU serial (ms)", "{:.4f}"), ("brent_kung", "brent_kung (ms)", "{:.4f}"),
        ("map", "map (ms)", "{:.4f}"), ("map_brent_kung", "map_brent_kung (ms)", "{:.4f}"),
        ("lookback", "lookback (ms)", "{:.4f}"), ("cub", "cub (ms)", "{:.4f}"),
        ("lbtotal", "lookback + copies (ms)", "{:.3f}"), ("cpu_vs_lb", "CPU / lookback", "{:.0f}"),
    ]
    return md_table(out, cols)


def setv(readme, name, text):
    """A value marker of the prose, where the README has it."""
    if "<!-- v:%s -->" % name in readme.content:
        readme.value(name, text)


def placeholder_table(headings, text):
    return md_table([{h: (text if i == 0 else "") for i, h in enumerate(headings)}], [(h, h, "{}") for h in headings])


def work_table(rows):
    """Section 1.3: additions per version (scan_plan.h's model, the CSV's additions column)."""
    headings = ["n", "version", "additions", "per element", "report's count", "report's count per element"]
    if not rows or "additions" not in rows[0]:
        return placeholder_table(headings, PLACEHOLDER)
    out = []
    for n in (1250000, 20000000, 1 << 28):
        sel = [r for r in rows if int(r["n"]) == n and r["mode"] == "inclusive" and r.get("additions")]
        if not sel:
            continue
        log2n = math.log2(n)
        out.append({"n": n, "version": "CPU serial (n - 1)", "additions": n - 1, "pe": (n - 1) / n,
                    "report": n, "rpe": 1.0})
        for r in sorted(sel, key=order_key):
            hs = r["version"].startswith("hs_")
            out.append({"n": n, "version": r["version"], "additions": num(r, "additions"),
                        "pe": num(r, "additions") / n,
                        "report": n * log2n if hs else "", "rpe": log2n if hs else ""})
    cols = [("n", "n", "{}"), ("version", "version", "{}"), ("additions", "additions", "{:.4g}"),
            ("pe", "per element", "{:.2f}"), ("report", "report's count (1.3)", "{:.4g}"),
            ("rpe", "per element", "{:.2f}")]
    return md_table(out, cols)


def per_thread_table(rows):
    """Section 3.0.3: time against NUM_OF_ADDS_PER_THREAD."""
    headings = ["per thread", "map 5 MB (ms)", "map_brent_kung 5 MB (ms)", "map 80 MB (ms)", "map_brent_kung 80 MB (ms)"]
    if not rows:
        return placeholder_table(headings, PLACEHOLDER)
    ks = sorted({int(r["per_thread"]) for r in rows if r.get("per_thread")})
    out = []
    for k in ks:
        o = {"k": k}
        for v in ("map", "map_brent_kung"):
            for n in (1250000, 20000000):
                sel = [r for r in rows if r["version"] == v and int(r["n"]) == n and r.get("per_thread") == str(k)
                       and r["mode"] == "inclusive"]
                o["%s_%d" % (v, n)] = sel[-1]["kernel_ms"] if sel else ""
        out.append(o)
    cols = [("k", "per thread", "{}"), ("map_1250000", "map 5 MB (ms)", "{:.4f}"),
            ("map_brent_kung_1250000", "map_brent_kung 5 MB (ms)", "{:.4f}"),
            ("map_20000000", "map 80 MB (ms)", "{:.4f}"), ("map_brent_kung_20000000", "map_brent_kung 80 MB (ms)", "{:.4f}")]
    return device_line(rows) + "\n\n" + md_table(out, cols)


def per_thread_values(readme, rows):
    """The best --per-thread of each (version, size), for the prose."""
    for v in ("map", "map_brent_kung"):
        for n, tag in ((1250000, "5mb"), (20000000, "80mb")):
            sel = [r for r in (rows or []) if r["version"] == v and int(r["n"]) == n and r["mode"] == "inclusive"]
            name = "pt_best_%s_%s" % (v, tag)
            if not sel:
                setv(readme, name, PLACEHOLDER)
                setv(readme, name + "_ms", PLACEHOLDER)
                setv(readme, name + "_k2_ms", PLACEHOLDER)
                continue
            best = min(sel, key=lambda r: num(r, "kernel_ms"))
            k2 = [r for r in sel if r.get("per_thread") == "2"]
            setv(readme, name, best["per_thread"])
            setv(readme, name + "_ms", "{:.4f}".format(num(best, "kernel_ms")))
            setv(readme, name + "_k2_ms", "{:.4f}".format(num(k2[0], "kernel_ms")) if k2 else "n/a")


def table_values(readme, rows):
    """map_brent_kung against brent_kung and map in the Table 1.1 run, for the prose."""
    def ms(v, n):
        sel = [r for r in (rows or []) if r["version"] == v and int(r["n"]) == n and r["mode"] == "inclusive"]
        return num(sel[0], "kernel_ms") if sel else None
    for n, tag in ((1250000, "5mb"), (20000000, "80mb")):
        mbk, bk, mp = ms("map_brent_kung", n), ms("brent_kung", n), ms("map", n)
        setv(readme, "mbk_ms_" + tag, "{:.4f}".format(mbk) if mbk else PLACEHOLDER)
        setv(readme, "mbk_vs_bk_" + tag, "{:.2f}".format(bk / mbk) if mbk and bk else PLACEHOLDER)
        setv(readme, "mbk_vs_map_" + tag, "{:.2f}".format(mp / mbk) if mbk and mp else PLACEHOLDER)


# --- Nsight Compute (results/profile.csv, `make profile`) -------------------------------

PROFILE_CASES = [("map_brent_kung", 15000, "map_scan_chunks", "map15k"),
                 ("map_brent_kung", 1250000, "map_scan_chunks", "map5mb"),
                 ("brent_kung", 1250000, "brent_kung_block_scan", "bk5mb"),
                 ("lookback", 1250000, "scan_decoupled_lookback", "lb5mb")]
STALLS = ("long_scoreboard barrier short_scoreboard wait mio_throttle lg_throttle math_pipe_throttle not_selected "
          "selected no_instruction dispatch_stall membar drain sleeping branch_resolving tex_throttle imc_miss").split()
LIMITS = (("blocks", "block slots"), ("registers", "registers"), ("shared_mem", "shared memory"), ("warps", "warps"))


def counters(profile, version, n, kernel):
    return {r["metric"]: num(r, "value") for r in profile
            if r["version"] == version and int(r["n"]) == n and kernel in r["kernel"]}


def profile_table(profile):
    headings = ["kernel (version)", "n", "grid", "waves", "theoretical occupancy", "achieved occupancy",
                "blocks/SM allowed by block slots, registers, shared memory, warps", "limiter",
                "SM active min / mean / max (% of elapsed)", "DRAM throughput (% of peak)", "top stall reasons"]
    if not profile:
        return placeholder_table(headings, PROFILE_PLACEHOLDER)
    out = []
    for version, n, kernel, _ in PROFILE_CASES:
        c = counters(profile, version, n, kernel)
        if not c:
            continue
        g = lambda m: c.get(m)
        limits = [g("launch__occupancy_limit_" + k) for k, _ in LIMITS]
        known = [(v, name) for v, (_, name) in zip(limits, LIMITS) if v is not None]
        low = min(v for v, _ in known) if known else None
        limiter = ", ".join(name for v, name in known if v == low) if known else ""
        el = g("sm__cycles_elapsed.max")
        act = [g("sm__cycles_active." + s) for s in ("min", "avg", "max")]
        act_text = " / ".join("{:.0f}".format(100 * a / el) if a is not None and el else "?" for a in act)
        stalls = sorted(((g("smsp__average_warp_latency_issue_stalled_%s.ratio" % s), s) for s in STALLS
                         if g("smsp__average_warp_latency_issue_stalled_%s.ratio" % s) is not None), reverse=True)
        out.append({
            "kernel": "%s (%s)" % (kernel, version), "n": n, "grid": g("launch__grid_size"),
            "waves": g("launch__waves_per_multiprocessor"),
            "theo": g("sm__maximum_warps_per_active_cycle_pct"),
            "ach": g("sm__warps_active.avg.pct_of_peak_sustained_active"),
            "limits": ", ".join("{:g}".format(v) if v is not None else "?" for v in limits),
            "limiter": limiter, "act": act_text, "dram": g("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
            "stalls": ", ".join("%s %.1f" % (s, v) for v, s in stalls[:3]),
        })
    cols = [("kernel", headings[0], "{}"), ("n", "n", "{}"), ("grid", "grid", "{:.0f}"), ("waves", "waves", "{:.3g}"),
            ("theo", headings[4] + " (%)", "{:.0f}"), ("ach", headings[5] + " (%)", "{:.1f}"),
            ("limits", headings[6], "{}"), ("limiter", headings[7], "{}"), ("act", headings[8], "{}"),
            ("dram", headings[9], "{:.1f}"), ("stalls", headings[10] + " (cycles per issued instruction)", "{}")]
    r0 = profile[0]
    return "Nsight Compute {} on {} (`ncu --clock-control none`, one launch per row).\n\n{}".format(
        r0.get("ncu_version", ""), r0.get("device", ""), md_table(out, cols))


def profile_values(readme, profile):
    """Counters quoted in the prose; a placeholder until results/profile.csv exists."""
    names = []
    for _, _, _, tag in PROFILE_CASES:
        names += [tag + s for s in ("_grid", "_waves", "_theo", "_ach", "_limiter", "_limit", "_sm_min", "_sm_avg",
                                    "_sm_max", "_top_stall", "_top_stall_value", "_dram")]
    values = {name: PROFILE_PLACEHOLDER for name in names}
    for version, n, kernel, tag in PROFILE_CASES:
        c = counters(profile or [], version, n, kernel)
        if not c:
            continue
        def put(suffix, value, spec):
            if value is not None:
                values[tag + suffix] = spec.format(value)
        put("_grid", c.get("launch__grid_size"), "{:.0f}")
        put("_waves", c.get("launch__waves_per_multiprocessor"), "{:.3g}")
        put("_theo", c.get("sm__maximum_warps_per_active_cycle_pct"), "{:.0f}%")
        put("_ach", c.get("sm__warps_active.avg.pct_of_peak_sustained_active"), "{:.1f}%")
        put("_dram", c.get("dram__throughput.avg.pct_of_peak_sustained_elapsed"), "{:.1f}%")
        known = [(c.get("launch__occupancy_limit_" + k), name) for k, name in LIMITS
                 if c.get("launch__occupancy_limit_" + k) is not None]
        if known:
            low = min(v for v, _ in known)
            values[tag + "_limit"] = "{:g}".format(low)
            values[tag + "_limiter"] = " and ".join(name for v, name in known if v == low)
        el = c.get("sm__cycles_elapsed.max")
        for s in ("min", "avg", "max"):
            a = c.get("sm__cycles_active." + s)
            if a is not None and el:
                values["%s_sm_%s" % (tag, s)] = "{:.0f}%".format(100 * a / el)
        stalls = [(c.get("smsp__average_warp_latency_issue_stalled_%s.ratio" % s), s) for s in STALLS]
        stalls = [x for x in stalls if x[0] is not None]
        if stalls:
            v, s = max(stalls)
            values[tag + "_top_stall"] = s
            values[tag + "_top_stall_value"] = "{:.1f}".format(v)
    for name, text in values.items():
        setv(readme, name, text)


def main():
    table = load("table1_1.csv")
    sweep = load("sweep.csv")
    mse = load("mse.csv")
    per_thread = load("per_thread.csv")
    profile = load("profile.csv")
    readme = Readme(README)  # every table replaced in memory, the file written once
    readme.block("work", work_table(table))
    readme.block("per_thread", per_thread_table(per_thread))
    per_thread_values(readme, per_thread)
    table_values(readme, table)
    readme.block("profile", profile_table(profile))
    profile_values(readme, profile)
    if table:
        readme.block("table1_1", table1_1(table))
        readme.block("occupancy", occupancy(table))
        readme.block("target", target(table, sweep))
        readme.block("bytes", bytes_table(table))
    if mse:
        readme.block("mse", mse_summary(mse))
    if sweep:
        readme.block("sweep", sweep_table(sweep))
    readme.save()
    print("tables.py: README.md tables regenerated from", ", ".join(
        n for n, d in (("table1_1.csv", table), ("sweep.csv", sweep), ("mse.csv", mse),
                       ("per_thread.csv", per_thread), ("profile.csv", profile)) if d) or "nothing")


if __name__ == "__main__":
    main()
