#!/usr/bin/env python3
"""Regenerates every table of scan/README.md from results/*.csv (`make tables`, run by
`make plots` and `make report`). A missing CSV leaves its tables as they are."""
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ next to the shared helpers
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))

from readme_tables import (Readme, Table, compare, load, md_table, placeholder_table, pow2, ratio, read_csv,  # noqa: E402
                           span, verdict)
from readme_tables import wrap as shared_wrap  # noqa: E402
from prose import PROSE  # noqa: E402

README = os.path.join(HERE, "README.md")
RESULTS = os.path.join(HERE, "results")
REPORT_SIZES = [(1250000, "5 MB"), (12500000, "50 MB"), (20000000, "80 MB")]
ORDER = []  # the versions in the order of the CSVs, the library baseline last (set_order)
PLACEHOLDER = "(run make report-run)"
PROFILE_PLACEHOLDER = "(run make profile)"
NOT_MEASURED = "not measured yet: run make profile"
NOT_RUN = "not measured yet: run make report-run"
N20M, N28 = 20000000, 1 << 28
PER_THREAD_SIZES = ((1250000, "5 MB"), (N20M, "80 MB"))
# The sweep table's columns, in the README's order (brent_kung before map: not the CSV's order).
SWEEP_COLUMNS = ("brent_kung", "map", "map_brent_kung", "lookback", "cub")
# The occupancy table's sizes: 20,000,000, and the other sizes of the versions whose launches the prose discusses.
OCCUPANCY_SIZES = {"brent_kung": (1250000, 12500000, N20M, N28), "map_brent_kung": (1250000, N20M)}


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


def device_text(rows):
    r = rows[0]
    return "Measured on {} (compute capability {}, driver {}, runtime {}); device-to-device copy {:.0f} GB/s.".format(
        r["device"], r["compute_capability"], r["driver"], r["runtime"], num(r, "copy_bw_GBps"))


def occupancy_rows(rows):
    """The launches of every validated version with kernels of its own (inclusive), at the sizes
    the prose discusses: 20,000,000, and for brent_kung and map_brent_kung the sizes it quotes."""
    out = []
    for r in rows:
        if r["mode"] != "inclusive" or r["validated"] != "1" or int(r["n"]) not in OCCUPANCY_SIZES.get(r["version"], (N20M,)):
            continue
        out += [{"version": r["version"], "n": r["n"], "kernel": "k%d %s" % (k, r["k%d_name" % k]),
                 **{c: r["k%d_%s" % (k, c)] for c in ("grid", "block", "regs", "smem_bytes", "blocks_per_sm",
                                                       "occupancy", "waves")}}
                for k in (1, 2, 3) if r.get("k%d_name" % k)]
    return sorted(out, key=lambda o: (ORDER.index(o["version"]), int(o["n"]), o["kernel"]))


def target_rows(rows, sweep):
    """lookback against cub at 20,000,000 and 2^28, both scans (the sweep's 2^28 row fills a gap)."""
    return [{"n": n, "mode": mode, "cub": cub["kernel_ms"], "lb": lb["kernel_ms"], "ratio": x,
             "lbbw": lb["bandwidth_GBps"], "pct": lb["pct_of_copy_bw"], "cubbw": cub["bandwidth_GBps"],
             "met": "yes" if x >= 0.9 else "**no** (%.0f%% short)" % (100 * (0.9 - x) / 0.9)}
            for (n, mode), (x, lb, cub) in target_ratios(rows, sweep).items()]


def mse_rows(rows):
    out = []
    for version, launch in (("hs_inplace_racy", "<<<1, 32>>>"), ("hs_multiblock_racy", "<<<ceil(n/1024), 1024>>>")):
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
            "always": "{} of {}".format(sum(1 for r in sel if int(r["wrong_runs"]) == int(r["runs"])), len(sel)),
            "maxmse": max(num(r, "mse_max") for r in sel),
            "n33": next(("{:.0f}".format(num(r, "sse")) for r in sel if int(r["n"]) == 33), "")})
    return out


def sweep_rows(rows):
    out = []
    for n in [1 << e for e in range(10, 29, 2)]:
        sel = {r["version"]: r for r in rows if int(r["n"]) == n and r["mode"] == "inclusive"}
        if sel:
            any_row, lb = next(iter(sel.values())), sel.get("lookback")
            out.append(dict({v: r["kernel_ms"] for v, r in sel.items()}, n="2^%d" % (n.bit_length() - 1),
                            cpu=any_row["cpu_ms"], **({"lbtotal": lb["total_ms"], "cpu_vs_lb": num(
                                any_row, "cpu_ms") / num(lb, "kernel_ms")} if lb else {})))
    return out


def report_tables(table, sweep):
    ms = "{:.4f}"
    return [
        Table("table1_1", "table1_1.csv", [
            (lambda r: dict(REPORT_SIZES)[int(r["n"])], "size"), "n", ("mode", "scan"), "version",
            (error_text, "error"), (grid_block, "(grid, block)"), ("kernel_ms", "time (ms)", ms),
            ("bandwidth_GBps", "GB/s (8 B/elem)", "{:.0f}"), ("speedup_vs_baseline", "speed vs cub", "{:.2f}"),
            ("speedup_vs_cpu", "speed vs CPU", "{:.1f}")], where=lambda r: int(r["n"]) in dict(REPORT_SIZES) and r["mode"] in ("inclusive", "exclusive"),
            order=lambda r: ([n for n, _ in REPORT_SIZES].index(int(r["n"])), r["mode"] != "inclusive", order_key(r)),
            bold=lambda r: r["version"] == "lookback", head=lambda rows: device_text(table)),
        Table("occupancy", "table1_1.csv", [
            "version", "n", "kernel", "grid", "block", ("regs", "registers/thread"),
            ("smem_bytes", "shared bytes/block"), ("blocks_per_sm", "blocks/SM"),
            ("occupancy", "theoretical occupancy", "{:.0%}"), ("waves", "waves", "{:.2f}")], rows=occupancy_rows),
        Table("target", "table1_1.csv", [
            "n", ("mode", "scan"), ("cub", "cub (ms)", ms), ("lb", "lookback (ms)", ms),
            ("ratio", "lookback speed / cub", "{:.3f}"), ("lbbw", "lookback GB/s", "{:.0f}"),
            ("pct", "lookback % of copy", "{:.1f}"), ("cubbw", "cub GB/s", "{:.0f}"), ("met", ">= 0.9 x cub?")],
            rows=lambda rows: target_rows(rows, sweep)),
        Table("bytes", "table1_1.csv", [
            "n", "version", (lambda r: num(r, "model_bytes") / int(r["n"]), "bytes moved per element (model)", "{:.2f}"),
            ("kernel_ms", "time (ms)", ms), ("model_GBps", "GB/s of those bytes", "{:.0f}"),
            ("bandwidth_GBps", "GB/s (8 B/elem)", "{:.0f}"), ("speedup_vs_baseline", "speed vs cub", "{:.2f}")],
            where=lambda r: int(r["n"]) in (N20M, N28) and r["mode"] == "inclusive" and r["validated"] == "1",
            order=lambda r: (int(r["n"]) != N20M, order_key(r))),
        Table("mse", "mse.csv", [
            "version", "launch", ("sizes", "n"), ("runs", "runs per n"), ("exact", "exact on every run up to n ="),
            ("wrong", "sizes with a wrong run"), ("wrong1024", "... among n <= 1024"),
            ("always", "sizes wrong on every run"), ("maxmse", "largest MSE", "{:.3g}"),
            ("n33", "sum of squared errors at n = 33")], rows=mse_rows, head=device_text),
        Table("sweep", "sweep.csv", [("n", "n"), ("cpu", "CPU serial (ms)", ms)] + [
            (v, v + " (ms)", ms) for v in SWEEP_COLUMNS] + [
            ("lbtotal", "lookback + copies (ms)", "{:.3f}"), ("cpu_vs_lb", "CPU / lookback", "{:.0f}")],
            rows=sweep_rows)]


class ProseReadme(Readme):
    """README.md with its measured sentences as whole blocks: value() keeps each number, save()
    fills prose.PROSE's templates with them and writes each as its block, re-wrapped at 100
    characters (bullets, paragraphs; tables as they are). A template naming a value that no
    part of tables.py set is an error, not an empty cell."""

    def __init__(self, path):
        super().__init__(path)
        self.values = {}

    def value(self, name, text):
        self.values[name] = str(text)

    def save(self):
        for name, template in PROSE.items():
            try:
                text = template.format(**self.values)
            except KeyError as e:
                sys.exit("tables.py: prose.py's %s needs the value %s, which nothing set" % (name, e))
            self.block(name, rewrap(text))
        super().save()


def rewrap(text):
    """Markdown bullets and paragraphs joined and wrapped at 100 characters; table rows kept."""
    out, item = [], []

    def flush():
        if item:
            out.append(wrap(" ".join(part.strip() for part in item)))
            item.clear()
    for line in text.split("\n"):
        if line.startswith("|"):
            flush()
            out.append(line)
        elif line.startswith("- ") or not line.strip():
            flush()
            if line.strip():
                item.append(line)
            else:
                out.append("")
        else:
            item.append(line)
    flush()
    return "\n".join(out)


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


def versions_of(rows):
    return list(dict.fromkeys(r["version"] for r in rows or []))


def per_thread_spec(rows):
    """Section 3.0.3: time against NUM_OF_ADDS_PER_THREAD, for each version of per_thread.csv."""
    def ms(v, n):
        return lambda o: next((r["kernel_ms"] for r in reversed(o["rows"]) if r["version"] == v and int(r["n"]) == n
                               and r["mode"] == "inclusive"), "")
    return Table("per_thread", "per_thread.csv", [("k", "per thread")] + [
        (ms(v, n), "%s %s (ms)" % (v, label), "{:.4f}") for n, label in PER_THREAD_SIZES for v in versions_of(rows)],
        rows=lambda rows: [{"k": k, "rows": [r for r in rows if r.get("per_thread") == str(k)]}
                           for k in sorted({int(r["per_thread"]) for r in rows if r.get("per_thread")})],
        head=device_text, missing=placeholder_table(["per thread", "time (ms)"], PLACEHOLDER))


# --- Numbers of the prose (value markers), every one computed from results/*.csv --------

SUP = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
TABLE_SIZES = (1250000, 12500000, 20000000)          # 5, 50 and 80 MB of int
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


def sci(x):
    """6.76e17 (three digits, no '+')."""
    mant, exp = "{:.2e}".format(x).split("e")
    return "%se%d" % (mant, int(exp))


def rows_of(rows, version, n, mode=None):
    return [r for r in rows if r["version"] == version and int(r["n"]) == n and (mode is None or r["mode"] == mode)]


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


def target_ratios(rows, sweep):
    """lookback speed / cub speed per (n, mode), as the target table computes it."""
    out = {}
    for n in (N20M, N28):
        for mode in ("inclusive", "exclusive"):
            sel = {}
            for r in list(sweep or []) + list(rows):
                if int(r["n"]) == n and r["mode"] == mode:
                    sel[r["version"]] = r
            if "lookback" in sel and "cub" in sel:
                out[(n, mode)] = (num(sel["cub"], "kernel_ms") / num(sel["lookback"], "kernel_ms"), sel["lookback"], sel["cub"])
    return out


def table_prose(t, sweep):
    """t_*: numbers of the prose from results/table1_1.csv (the target's 2²⁸ gap filled from the sweep)."""
    v = {}
    lb = the(t, "lookback", N20M)
    v["t_lb_regs"] = lb["k1_regs"]
    v["t_lb_bps"] = lb["k1_blocks_per_sm"]
    v["t_lb_occ"] = "{:.0%}".format(num(lb, "k1_occupancy"))
    v["t_lb_smem_kib"] = "{:.0f}".format(num(lb, "k1_smem_bytes") / 1024)
    # Bytes and bandwidths (both scans), at 20,000,000 and 2²⁸.
    for n, tag in ((N20M, "20m"), (N28, "2p28")):
        for ver, short in (("brent_kung", "bk"), ("map", "map"), ("lookback", "lb"), ("cub", "cub")):
            v["t_%s_vs_cub_%s" % (short, tag)] = span(col(t, ver, n, "speedup_vs_baseline"), "{:.2f}")
            v["t_%s_gbps_%s" % (short, tag)] = span(col(t, ver, n, "model_GBps"), "{:.0f}")
        v["t_bk_bw_share_%s" % tag] = span([b / c for b in col(t, "brent_kung", n, "model_GBps")
                                            for c in col(t, "cub", n, "model_GBps")], "{:.2f}")
    bpe = lambda ver: span([num(r, "model_bytes") / int(r["n"]) for n in (N20M, N28)
                            for r in rows_of(t, ver, n)], "{:.2f}")
    v["t_bk_bpe"], v["t_map_bpe"], v["t_lb_bpe"] = bpe("brent_kung"), bpe("map"), bpe("lookback")
    v["t_bk_bytes_factor"] = span([num(r, "model_bytes") / (8.0 * int(r["n"])) for n in (N20M, N28)
                                   for r in rows_of(t, "brent_kung", n)], "{:.1f}")
    v["t_bk_bw_factor"] = span([c / b for n in (N20M, N28) for b in col(t, "brent_kung", n, "model_GBps")
                                for c in col(t, "cub", n, "model_GBps")], "{:.1f}")
    v["t_bk_vs_cub_all"] = span([x for n in (N20M, N28) for x in col(t, "brent_kung", n, "speedup_vs_baseline")], "{:.2f}")
    v["t_bk_gbps_all"] = span([x for n in (N20M, N28) for x in col(t, "brent_kung", n, "model_GBps")], "{:.0f}")
    v["t_cub_gbps_all"] = span([x for n in (N20M, N28) for x in col(t, "cub", n, "model_GBps")], "{:.0f}")
    # lookback against the other versions of ours at 20,000,000 (both scans).
    ours = [r for r in t if int(r["n"]) == N20M and r["validated"] == "1" and r["is_baseline"] != "1"]
    fastest = {r["mode"]: min((x for x in ours if x["mode"] == r["mode"]), key=lambda x: num(x, "kernel_ms"))["version"]
               for r in ours}
    v["t_lb_rank"] = ("the fastest of ours" if set(fastest.values()) == {"lookback"}
                      else "not the fastest of ours (%s is)" % ", ".join(sorted(set(fastest.values()))))
    # The many-block racy launch at the Table 1.1 sizes.
    mb = [the(t, "hs_multiblock_racy", n) for n in TABLE_SIZES]
    all_wrong = all(r["wrong_runs"] == r["runs"] for r in mb)
    v["t_mb_verdict"] = "holds" if all_wrong else "does not hold"
    counts = ["%s of %s" % (r["wrong_runs"], r["runs"]) for r in mb]
    v["t_mb_runs"] = ("%s runs wrong at each of 5, 50 and 80 MB" % counts[0] if len(set(counts)) == 1
                      else "%s runs wrong at 5, 50 and 80 MB" % ", ".join(counts))
    v["t_mb_mse"] = ", ".join(sci(num(r, "mse")) for r in mb)
    times = [num(r, "kernel_ms") for r in mb]
    v["t_mb_trend"] = "grows with n" if times == sorted(times) and times[0] < times[-1] else "does not grow steadily with n"
    v["t_mb_t5"], v["t_mb_t80"] = "{:.3f}".format(times[0]), "{:.3f}".format(times[-1])
    v["t_mb_tbps"] = "{:.1f}".format(num(mb[-1], "model_GBps") / 1000)
    v["t_mb_gb"] = "{:.0f}".format(num(mb[-1], "model_bytes") / 1e9)
    v["t_mb_vs_copy"] = "{:.1f}".format(num(mb[-1], "model_GBps") / num(mb[-1], "copy_bw_GBps"))
    # Brent–Kung against the CPU (kernel time) in the Table 1.1 run.
    for n, tag in ((1250000, "5"), (12500000, "50"), (20000000, "80"), (N28, "2p28")):
        v["t_bk_cpu_" + tag] = "{:.0f}".format(num(the(t, "brent_kung", n), "speedup_vs_cpu"))
    v["t_lb_total_20m"] = "{:.1f}".format(num(lb, "total_ms"))
    v["t_cpu_20m"] = "{:.1f}".format(num(lb, "cpu_ms"))
    # Occupancy and waves of map and brent_kung (Table 1.1 sizes; 2²⁸ where said).
    occ = [num(r, "k%d_occupancy" % k) for r in t if r["version"] in ("map", "brent_kung")
           for k in (1, 2, 3) if r.get("k%d_occupancy" % k)]
    bps = {r["k%d_blocks_per_sm" % k] for r in t if r["version"] in ("map", "brent_kung")
           for k in (1, 2, 3) if r.get("k%d_blocks_per_sm" % k)}
    v["t_occ_mapbk"] = span(occ, "{:.0%}")
    v["t_occ_mapbk_bps"] = "/".join(sorted(bps))
    under = ["%s at %s MB" % (ver, {1250000: 5, 12500000: 50, 20000000: 80}[n])
             for ver in ("map", "brent_kung") for n in TABLE_SIZES if num(the(t, ver, n), "k1_waves") < 1]
    v["t_occ_except"] = (", except for " + " and ".join(under)) if under else ""
    bk = [the(t, "brent_kung", n) for n in TABLE_SIZES]
    main_waves = [num(r, "k%d_waves" % k) for r in bk for k in (1, 3)]
    v["t_bk_waves_lo"], v["t_bk_waves_hi"] = "{:.1f}".format(min(main_waves)), "{:.0f}".format(max(main_waves))
    v["t_bk_waves_2p28"] = "{:.0f}".format(num(the(t, "brent_kung", N28), "k1_waves"))
    v["t_bk_k2_blocks"] = "%s to %s" % (min(int(r["k2_grid"]) for r in bk), max(int(r["k2_grid"]) for r in bk))
    v["t_bk_k2_wave"] = ("a fraction of one wave" if max(num(r, "k2_waves") for r in bk) < 1
                         else "up to %.2f waves" % max(num(r, "k2_waves") for r in bk))
    mp = [the(t, "map", n) for n in TABLE_SIZES]
    v["t_map_waves_50"], v["t_map_waves_80"] = "{:.1f}".format(num(mp[1], "k1_waves")), "{:.1f}".format(num(mp[2], "k1_waves"))
    v["t_map_waves_5"] = "{:.2f}".format(num(mp[0], "k1_waves"))
    v["t_map_blocks_5"] = mp[0]["k1_grid"]
    v["t_map_slots"] = "{:.0f}".format(num(mp[0], "k1_grid") / num(mp[0], "k1_waves"))
    v["t_map_k2_blocks"] = ", ".join(r["k2_grid"] for r in mp)
    v["t_map_k2_waves"] = "%s to %s" % ("{:.2f}".format(min(num(r, "k2_waves") for r in mp)),
                                        "{:.2f}".format(max(num(r, "k2_waves") for r in mp)))
    v["t_map_idle"] = ("at 5 MB the grid does leave SMs idle" if num(mp[0], "k1_waves") < 1
                       else "no grid leaves SMs idle")
    # The look-back target.
    ratios = target_ratios(t, sweep)
    v["t_target_verdict"] = "met" if ratios and all(r[0] >= 0.9 for r in ratios.values()) else "**missed**"
    for (n, mode), (x, _, _) in ratios.items():
        v["t_ratio_%s_%s" % ("20m" if n == N20M else "2p28", mode[:3])] = "{:.3f}".format(x)
    for n, tag in ((N20M, "20m"), (N28, "2p28")):
        v["t_lb_pct_" + tag] = span([num(ratios[(n, m)][1], "pct_of_copy_bw") for m in ("inclusive", "exclusive")], "{:.0f}")
        v["t_lb_bw_" + tag] = span([num(ratios[(n, m)][1], "bandwidth_GBps") for m in ("inclusive", "exclusive")], "{:.0f}")
        v["t_cub_bw_" + tag] = span([num(ratios[(n, m)][2], "bandwidth_GBps") for m in ("inclusive", "exclusive")], "{:.0f}")
    return v


def sweep_prose(sw, t):
    """sw_*: numbers of the prose from results/sweep.csv (tsw_*: with results/table1_1.csv)."""
    v = {}
    sizes = sorted({int(r["n"]) for r in sw})
    lead = {n: num(the(sw, "cub", n), "kernel_ms") / num(the(sw, "lookback", n), "kernel_ms") for n in sizes}
    behind = [n for n in sizes if lead[n] < 1]
    v["sw_lb_ahead"] = ("ahead of CUB at every size from %s to %s" % (pow2(sizes[0], True), pow2(sizes[-1], True)) if not behind
                        else "behind CUB at %s" % ", ".join(pow2(n, True) for n in behind))
    least = min(sizes, key=lambda n: lead[n])
    v["sw_lb_least"] = "{:.2f}× at {}".format(lead[least], pow2(least, True))
    v["sw_lb_small"] = span([lead[n] for n in sizes if n < 1 << 22], "{:.2f}")
    # Brent–Kung against the serial CPU (kernel time), the crossover.
    bkx = {n: num(the(sw, "brent_kung", n), "cpu_ms") / num(the(sw, "brent_kung", n), "kernel_ms") for n in sizes}
    faster_from = next(n for i, n in enumerate(sizes) if all(bkx[m] > 1 for m in sizes[i:]))
    slow = [n for n in sizes if n < faster_from]
    if slow and all(bkx[n] < 1 for n in slow):
        v["sw_bk_cross"] = "it is slower than the CPU up to %s (%.2f× there) and faster from %s" % (
            pow2(slow[-1], True), bkx[slow[-1]], pow2(faster_from, True))
    else:
        v["sw_bk_cross"] = "it is faster than the CPU at every size from %s on" % pow2(faster_from, True)
    bk28 = the(sw, "brent_kung", N28)
    v["sw_bk_cpu_2p28"] = "{:.0f}".format(bkx[N28])
    if t:
        cpu_t = num(the(t, "brent_kung", N28), "cpu_ms")
        cpu_s = num(bk28, "cpu_ms")
        v["tsw_cpu_cmp"] = "%s (%.0f ms against %.0f)" % ("slower" if cpu_s > cpu_t else "faster", cpu_s, cpu_t)
        # Counting the copies: does any validated GPU version beat the serial CPU at any size?
        beats = sorted({int(r["n"]) for r in list(sw) + list(t) if r["validated"] == "1"
                        and num(r, "total_ms") < num(r, "cpu_ms")})
        v["tsw_copies"] = ("no GPU version beats the serial CPU at any size" if not beats
                           else "a GPU version beats the serial CPU only at n = " + ", ".join(pow2(n, True) for n in beats))
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
        v["mse_ip_beyond"] = "wrong on all %s runs for every n from %d to %s" % (beyond[0]["runs"], first, ip[-1]["n"])
    else:
        v["mse_ip_beyond"] = "wrong on some run for %d of the sizes from %s to %s" % (
            len([r for r in beyond if int(r["wrong_runs"]) > 0]), first, ip[-1]["n"])
    v["mse_ip_wrong_count"] = str(len(wrong))
    r33 = next(r for r in ip if int(r["n"]) == 33)
    v["mse_ip_sse33"] = "{:.0f}".format(num(r33, "sse"))
    v["mse_ip_sse33_vs_report"] = "the report's number" if num(r33, "sse") == 278784 else "not the report's 278784"
    v["mse_ip_33_every"] = ("on every run" if r33["wrong_runs"] == r33["runs"] and num(r33, "mse") == num(r33, "mse_max")
                            else "on some runs")
    v["mse_ip_mse33"] = "{:.0f}".format(num(r33, "mse"))
    v["mse_ip_verdict"] = ("holds, but not for the report's reason" if v["mse_ip_exact_to"] == "32" and "every n" in v["mse_ip_beyond"]
                           else "does not hold as stated")
    mb = sorted((r for r in m if r["version"] == "hs_multiblock_racy"), key=lambda r: int(r["n"]))
    one = [r for r in mb if int(r["n"]) <= 1024]
    wrong = [r for r in one if int(r["wrong_runs"]) > 0]
    first = wrong[0]
    v["mse_mb_exact_to"] = str(int(first["n"]) - 1)
    v["mse_mb_first_wrong"] = first["n"]
    v["mse_mb_first_wrong_runs"] = "%s of %s" % (first["wrong_runs"], first["runs"])
    v["mse_mb_first_wrong_warps"] = {1: "one", 2: "two", 3: "three", 4: "four"}.get(
        -(-int(first["n"]) // 32), str(-(-int(first["n"]) // 32)))
    v["mse_mb_vs_414"] = "far below 414" if int(first["n"]) < 414 else "not below the report's 414"
    partial = [r for r in one if 0 < int(r["wrong_runs"]) < int(r["runs"])]
    v["mse_mb_partial"] = str(len(partial))
    for a, b in MSE_BUCKETS:
        sel = [r for r in one if a <= int(r["n"]) <= b]
        v["mse_mb_pct_%d_%d" % (a, b)] = "{:.0%}".format(sum(int(r["wrong_runs"]) for r in sel) /
                                                         sum(int(r["runs"]) for r in sel))
    exact = [int(r["n"]) for r in one if int(r["wrong_runs"]) == 0]
    v["mse_mb_exact_sizes"] = str(len(exact))
    v["mse_mb_exact_largest"] = str(max(exact))
    r414 = next(r for r in one if int(r["n"]) == 414)
    v["mse_mb_414"] = ("was exact on all %s runs" % r414["runs"] if r414["wrong_runs"] == "0"
                       else "was wrong on %s of %s runs" % (r414["wrong_runs"], r414["runs"]))
    big = [r for r in mb if int(r["n"]) > 1024]
    if big and all(r["wrong_runs"] == r["runs"] for r in big):
        v["mse_mb_big"] = "every n from %s to %s wrong on all %s runs" % (big[0]["n"], big[-1]["n"], big[0]["runs"])
    else:
        v["mse_mb_big"] = "%d of the sizes from %s to %s wrong on every run" % (
            sum(1 for r in big if r["wrong_runs"] == r["runs"]), big[0]["n"], big[-1]["n"])
    return v


def tuning_prose(tu):
    """tu_*: the look-back tuning experiment (results/lookback_tuning.csv): speed against CUB per
    variant, the range over the variants named and the rounds."""
    v = {}
    sizes = {N20M: "20m", N28: "2p28"}

    def ratios(key, n):
        vals = [num(r, "speedup_vs_cub") for r in tu if r["variant"] in TUNING[key] and int(r["n"]) == n]
        if not vals:
            sys.exit("tables.py: lookback_tuning.csv has no %s at n=%d" % (TUNING[key], n))
        return vals

    def compare(key, n, spec):
        a, c = ratios(key, n), ratios("committed", n)
        lo, hi = float(spec.format(min(a))), float(spec.format(max(a)))
        clo, chi = float(spec.format(min(c))), float(spec.format(max(c)))
        return "faster" if lo > chi else "slower" if hi < clo else "within the spread"

    for key in TUNING:
        for n, tag in sizes.items():
            v["tu_%s_%s" % (key, tag)] = span(ratios(key, n), "{:.2f}")
            v["tu_%s_%s_cmp" % (key, tag)] = compare(key, n, "{:.2f}")
    for key in ("hints", "sleeps", "nosleep"):
        a, b = v["tu_%s_20m_cmp" % key], v["tu_%s_2p28_cmp" % key]
        v["tu_%s_cmp" % key] = "%s at both sizes" % a if a == b else "%s at 20M and %s at 2²⁸" % (a, b)
    v["tu_items_all"] = span(ratios("items", N20M) + ratios("items", N28), "{:.2f}")
    v["tu_t128_all"] = span(ratios("t128", N20M) + ratios("t128", N28), "{:.2f}")
    v["tu_t512_all"] = span(ratios("t512", N20M) + ratios("t512", N28), "{:.2f}")
    v["tu_minb4_all"] = span(ratios("minb4", N20M) + ratios("minb4", N28), "{:.2f}")
    for key in ("tid", "committed"):
        v["tu_%s_2p28_3" % key] = span(ratios(key, N28), "{:.3f}")
    cmp_word = {"faster": "faster", "slower": "slower", "within the spread": "as fast"}
    v["tu_tid_2p28_word"] = cmp_word[compare("tid", N28, "{:.3f}")]
    v["tu_tid_20m_word"] = cmp_word[compare("tid", N20M, "{:.2f}")]
    return v


def report_prose(rep):
    """rep_*: the report's own numbers, from original/report_002.csv."""
    times = [float(r["time_ms"]) for r in rep if r["what"] == "table1_1"]
    return {"rep_t_lo": "{:.2f}".format(min(times)), "rep_t_hi": "{:.2f}".format(max(times))}


def prose_values(readme, table, sweep, mse, tuning, rep):
    """Every number of the prose that comes from results/, from the CSVs that exist."""
    values = {}
    for rows, fn in ((table, lambda: table_prose(table, sweep)), (sweep, lambda: sweep_prose(sweep, table)),
                     (mse, lambda: mse_prose(mse)), (tuning, lambda: tuning_prose(tuning)), (rep, lambda: report_prose(rep))):
        if rows:
            values.update(fn())
    for name, text in values.items():
        readme.value(name, text)
    return values


# --- Nsight Compute (results/profile.csv, `make profile`) -------------------------------

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
        stalls = sorted(((g(STALL_METRIC % s), s) for s in STALLS if g(STALL_METRIC % s) is not None), reverse=True)
        spr = ratio(g(SECTORS), g(REQUESTS))
        out.append({
            "kernel": "%s (%s)" % (kernel, version), "n": n, "grid": g("launch__grid_size"),
            "waves": g("launch__waves_per_multiprocessor"),
            "theo": g("sm__maximum_warps_per_active_cycle_pct"),
            "ach": g("sm__warps_active.avg.pct_of_peak_sustained_active"),
            "limits": ", ".join("{:g}".format(v) if v is not None else "?" for v in limits),
            "limiter": limiter, "act": act_text, "dram": g("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
            "stalls": ", ".join("%s %.2f" % (s, v) for v, s in stalls[:3]) if stalls else NOT_MEASURED,
            "cpi": "{:.2f}".format(g(STALL_TOTAL)) if g(STALL_TOTAL) is not None else NOT_MEASURED,
            "spr": "{:.1f}".format(spr) if spr is not None else NOT_MEASURED,
        })
    cols = [("kernel", headings[0], "{}"), ("n", "n", "{}"), ("grid", "grid", "{:.0f}"), ("waves", "waves", "{:.3g}"),
            ("theo", headings[4] + " (%)", "{:.0f}"), ("ach", headings[5] + " (%)", "{:.1f}"),
            ("limits", headings[6], "{}"), ("limiter", headings[7], "{}"), ("act", headings[8], "{}"),
            ("dram", headings[9], "{:.1f}"), ("spr", "global load sectors per request", "{}"),
            ("cpi", "warp cycles per issued instruction", "{}"),
            ("stalls", headings[10] + " (stall cycles per issued instruction)", "{}")]
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
        stalls = [(c.get(STALL_METRIC % s), s) for s in STALLS]
        stalls = [x for x in stalls if x[0] is not None]
        if stalls:
            v, s = max(stalls)
            values[tag + "_top_stall"] = s
            values[tag + "_top_stall_value"] = "{:.2f}".format(v)
    for name, text in values.items():
        readme.value(name, text)
    return values


def sm_activity_table(rows):
    """Figure 3.4 SM by SM (experiments/sm_activity.cu, `make profile`): per size, how the
    blocks fell on the SMs and how long each SM was active, as % of the kernel's span."""
    headings = ["n", "blocks", "SMs that ran a block", "SMs with 2+ blocks", "span (us)",
                "active, least busy SM that ran (%)", "active, mean over all SMs (%)", "active, busiest SM (%)"]
    if not rows:
        return placeholder_table(headings, "(run make profile)")
    out = []
    for n in sorted({int(r["n"]) for r in rows}):
        rs = [r for r in rows if int(r["n"]) == n]
        ran = [r for r in rs if int(r["sm_blocks"]) > 0]
        pct = [float(r["active_pct"]) for r in rs]
        out.append({"n": f"{n:,}", "blocks": rs[0]["blocks"], "ran": f"{len(ran)} of {len(rs)}",
                    "two": str(sum(1 for r in rs if int(r["sm_blocks"]) >= 2)),
                    "span": "{:.1f}".format(float(rs[0]["span_ns"]) / 1e3),
                    "least": "{:.0f}".format(min(float(r["active_pct"]) for r in ran)) if ran else "",
                    "mean": "{:.0f}".format(sum(pct) / len(pct)), "most": "{:.0f}".format(max(pct))})
    keys = ["n", "blocks", "ran", "two", "span", "least", "mean", "most"]
    return md_table(out, [(k, h, "{}") for k, h in zip(keys, headings)])


# The memcpy-speed experiment: rounds 3 to 5 of experiments/lookback_tuning.cu on
# each GPU (results/lookback_tuning.csv on the H100, results/h200/lookback_tuning.csv on the
# H200), every variant against a device-to-device copy of the same bytes timed in the same loop.
MEMCPY_ROWS = [
    ("committed", ["256x32 minb6 tid0 sleep100 hint0 stash1"], "the committed kernel (256 × 32 ints, 6 blocks/SM, tile id drawn from a counter)"),
    ("t512", ["512x32 minb3 tid0 sleep100 hint0 stash1"], "512 × 32-int tiles (3 blocks/SM): half the look-backs"),
    ("tid1", ["512x32 minb3 tid1 sleep100 hint0 stash1"], "512 × 32, tile id = `blockIdx.x` (as CUB; no progress guarantee)"),
    ("lb1", ["256x32 minb6 tid0 sleep100 hint0 stash1 lb1"], "look-back that waits only for the nearest unfinished predecessor"),
    ("tid2", ["256x32 minb6 tid2 sleep100 hint0 stash1"], "tile `blockIdx.x` loaded while the tile id is drawn (kept when they match)"),
    ("pipe", ["pipe 256x32 minb4 sleep100"], "persistent blocks loading their next tile during the look-back (4 blocks/SM)"),
    ("bulk", "bulk ", "bulk asynchronous loads (`cp.async.bulk` into 2–6 shared-memory stages), best of 13 shapes"),
    ("striped", "striped ", "no transpose: each lane scans a uint4, values kept in registers, best of 9 shapes"),
    ("local", ["local 256x32 minb6"], "*not a scan:* the committed kernel without its look-back (each tile scanned alone)"),
    ("local_tid1", ["local tid1 256x32 minb6"], "*not a scan:* the same, and no tile-id draw (`blockIdx.x`)"),
    ("copy_smem", ["tile_copy_smem 256x32"], "*not a scan:* the committed kernel's data path alone (loads, padded shared memory, barrier, stores)"),
    ("tile_copy", ["tile_copy 256x32"], "*not a scan:* the same tiles' loads and stores, through registers"),
]
MEMCPY_GPUS = (("h100", "lookback_tuning.csv", "H100"), ("h200", os.path.join("h200", "lookback_tuning.csv"), "H200"))
MEMCPY_TARGET = {"h100": 95.0, "h200": 90.0}


def memcpy_rows(tu, names, n):
    """The passing rows at n of the variants `names` (a list), or of a family's fastest."""
    if isinstance(names, str):  # a family (name prefix): its variant fastest at 2^28 (worse round)
        family = sorted({r["variant"] for r in tu if r["variant"].startswith(names)})
        if not family:
            return []
        best = max(family, key=lambda v: min(num(r, "pct_of_copy") for r in tu if r["variant"] == v and int(r["n"]) == N28))
        names = [best]
    return [r for r in tu if r["variant"] in names and int(r["n"]) == n and r["ok"] == "1"]


def memcpy(readme):
    """The memcpy table (block 'memcpy') and mc_* values: per GPU, % of the copy and speed
    against CUB at 20M and 2^28 for the variants of MEMCPY_ROWS, ranges over the two rounds."""
    data = {}
    for gpu, name, _ in MEMCPY_GPUS:
        rows = load(RESULTS, name)
        if not rows or "pct_of_copy" not in rows[0]:
            sys.exit("tables.py: results/%s has no copy column (rerun experiments/run.sh)" % name)
        data[gpu] = rows
    out = []
    for key, names, label in MEMCPY_ROWS:
        row = {"variant": label}
        for gpu, _, _ in MEMCPY_GPUS:
            pct, cub = [], []
            for n in (N20M, N28):
                rs = memcpy_rows(data[gpu], names, n)
                if not rs:
                    sys.exit("tables.py: %s lookback_tuning.csv has no %s at n=%d" % (gpu, key, n))
                pct.append(span([num(r, "pct_of_copy") for r in rs], "{:.0f}"))
                cub.append(span([num(r, "speedup_vs_cub") for r in rs], "{:.2f}"))
                if key == "committed":
                    tag = "20m" if n == N20M else "2p28"
                    readme.value("mc_%s_cub_%s" % (gpu, tag), cub[-1])
                if key == "committed" and n == N28:
                    readme.value("mc_%s_pct_2p28" % gpu, pct[-1])
                    # CUB's own share of the copy, over every row at that size
                    cubpct = [100.0 * num(r, "copy_ms") / num(r, "cub_ms") for r in data[gpu] if int(r["n"]) == n]
                    readme.value("mc_%s_cubpct_2p28" % gpu, span(cubpct, "{:.0f}"))
                    copy = [8.0 * n / num(r, "copy_ms") / 1e6 for r in data[gpu] if int(r["n"]) == n]
                    readme.value("mc_%s_copy_2p28" % gpu, span(copy, "{:.0f}"))
                if key in ("local", "local_tid1", "copy_smem", "striped", "tile_copy", "tid1", "bulk", "pipe") and n == N28:
                    readme.value("mc_%s_%s_pct_2p28" % (gpu, key), pct[-1])
            row[gpu + "_pct"] = "%s / %s" % tuple(pct)
            row[gpu + "_cub"] = "%s / %s" % tuple(cub)
        out.append(row)
    for gpu, _, label in MEMCPY_GPUS:
        best = max(num(r, "pct_of_copy") for r in memcpy_rows(data[gpu], MEMCPY_ROWS[0][1], N28))
        worst_cub = min(num(r, "speedup_vs_cub") for n in (N20M, N28)
                        for r in memcpy_rows(data[gpu], MEMCPY_ROWS[0][1], n))
        target = MEMCPY_TARGET[gpu]
        readme.value("mc_%s_verdict" % gpu,
                     "met" if best >= target and worst_cub >= 1.10 else
                     "missed: at most %.0f%% of the copy at 2²⁸ (target %.0f%%), at least %.2f× CUB (target 1.10×)"
                     % (best, target, worst_cub))
    # The copy that table1_1.csv's pct_of_copy_bw divides by: each run's own measurement (256 MiB
    # copies, common/device_info.cuh), a little below the copy at the scan's size measured here.
    run_copy = [num(r, "copy_bw_GBps") for r in (load(RESULTS, "table1_1.csv") or []) if r.get("copy_bw_GBps")]
    readme.value("mc_h100_run_copy", span(run_copy, "{:.0f}") if run_copy else "(no table1_1.csv)")
    columns = [("variant", "variant (each validated against the CPU)", "{}")]
    for gpu, _, label in MEMCPY_GPUS:
        columns += [(gpu + "_pct", "%s: %% of copy, 20M / 2²⁸" % label, "{}"),
                    (gpu + "_cub", "%s: × CUB, 20M / 2²⁸" % label, "{}")]
    readme.block("memcpy", md_table(out, columns))


# --- The warp-specialised look-ahead scan (experiments/ws_scan.cu): both GPUs' CSVs ---------

WS_FILES = (("results/ws_scan.csv", "results/"), ("results/h200/ws_scan.csv", "results/h200/"))
WS_CHOSEN = "ws_t4096_s12_r2_w8_st0_d0_l2"  # the design experiments/ws_scan.cuh describes


def ws_scan_block():
    """Block 'ws_scan': per GPU, size and mode, the copy, CUB, the committed `lookback` and the
    chosen warp-specialised variant of one ws_scan run (ratios within that run), then one
    generated bullet per GPU on the targets of issue #24 (95 % / 90 % of copy, 1.10x CUB)."""
    gpus = [(folder, read_csv(os.path.join(HERE, rel))) for rel, folder in WS_FILES
            if os.path.exists(os.path.join(HERE, rel))]
    if not gpus:
        return "*(not measured yet: run `build/experiments/ws_scan --csv=results/ws_scan.csv` on a GPU)*"
    out, bullets = [], []
    for folder, rows in gpus:
        timed = [r for r in rows if r["ms"]]
        device = timed[0]["device"]
        mine = [r for r in timed if r["variant"] == WS_CHOSEN]
        for w in mine:
            same = {r["variant"]: r for r in timed if r["n"] == w["n"] and r["mode"] == w["mode"]}
            lb = same.get("lookback")
            out.append({"gpu": "%s (`%s`)" % (device, folder), "n": pow2(int(w["n"])), "mode": w["mode"],
                        "copy": "%.1f" % (8.0 * int(w["n"]) / (num(w, "copy_ms") * 1e6)),
                        "cub": "%.4f" % num(w, "cub_ms"),
                        "lookback": "%.4f (%.1f %%, %.3f×)" % (num(lb, "ms"), num(lb, "pct_of_copy"),
                                                               num(lb, "speedup_vs_cub")) if lb else "",
                        "ws": "%.4f (%.1f %%, %.3f×)" % (num(w, "ms"), num(w, "pct_of_copy"), num(w, "speedup_vs_cub")),
                        "ok": "all %d" % len(rows) if all(r["ok"] == "1" for r in rows) else "NOT all"})
        big = [w for w in mine if int(w["n"]) == max(int(r["n"]) for r in mine)]
        goal = 95.0 if "H100" in device else 90.0
        low_pct = min(num(w, "pct_of_copy") for w in big)
        low_x = min(num(w, "speedup_vs_cub") for w in mine)
        bullets.append("- %s: at 2^%d ints, %.1f–%.1f %% of the same run's copy (target %.0f %% %s); against "
                       "CUB %.3f–%.3f× over both sizes and modes (target 1.10× %s); %d of %d runs validated." % (
                           device, round(math.log2(int(big[0]["n"]))), low_pct,
                           max(num(w, "pct_of_copy") for w in big), goal, verdict(compare(low_pct, ">=", goal)),
                           low_x, max(num(w, "speedup_vs_cub") for w in mine), verdict(compare(low_x, ">=", 1.10)),
                           sum(r["ok"] == "1" for r in rows), len(rows)))
    columns = [("gpu", "GPU (results folder)", "{}"), ("n", "n", "{}"), ("mode", "mode", "{}"),
               ("copy", "copy (GB/s)", "{}"), ("cub", "CUB (ms)", "{}"),
               ("lookback", "`lookback` (ms, % of copy, × CUB)", "{}"),
               ("ws", "warp-specialised (ms, % of copy, × CUB)", "{}"), ("ok", "rows validated", "{}")]
    return md_table(out, columns) + "\n\n" + "\n".join(shared_wrap(b, "", "  ") for b in bullets)


# --- The copy budget (experiments/copy_budget.cu): both GPUs' CSVs -------------------------

BUDGET_CYCLES = (0, 2048, 4096, 6144, 8192, 12288, 16384)
BUDGET_FILES = (("results/copy_budget.csv", "results/"), ("results/h200/copy_budget.csv", "results/h200/"))
COMMITTED_TILE = "per_tile_256x32"  # the committed look-back kernel's tile (LookbackPolicy on sm_90)


def copy_budget_block():
    """Block 'copy_budget': % of the same run's copy per shape and injected wait, for each GPU
    whose copy_budget.csv exists, then what the committed tile can hide (generated bullets)."""
    gpus = []
    for rel, folder in BUDGET_FILES:
        path = os.path.join(HERE, rel)
        rows = [r for r in (read_csv(path) if os.path.exists(path) else []) if r.get("validated") == "1"]
        if rows:
            gpus.append((folder, rows))
    if not gpus:
        return "*(not measured yet: run `build/experiments/copy_budget --csv=results/copy_budget.csv` on a GPU)*"
    out, bullets = [], []
    for folder, rows in gpus:
        device = rows[0]["device"]
        shapes = []
        for r in rows:
            if r["shape"] not in shapes:
                shapes.append(r["shape"])
        for shape in shapes:
            mine = [r for r in rows if r["shape"] == shape]
            row = {"shape": "%s (%s blocks/SM, %s KiB/SM)" % (shape, mine[0]["blocks_per_sm"], mine[0]["inflight_KiB_per_sm"]),
                   "device": "%s (`%s`)" % (device, folder)}
            for c in BUDGET_CYCLES:
                cell = [num(r, "pct_of_copy") for r in mine if int(r["injected_cycles"]) == c]
                row[str(c)] = "%.1f" % cell[0] if cell else ""
            out.append(row)
        copy = [num(r, "copy_GBps") for r in rows]
        committed = sorted((r for r in rows if r["shape"] == COMMITTED_TILE), key=lambda r: int(r["injected_cycles"]))
        if committed:
            base = num(committed[0], "pct_of_copy")
            held = [r for r in committed if num(r, "pct_of_copy") >= base - 2.0]
            last = held[-1]
            cycles, mhz = int(last["injected_cycles"]), num(last, "sm_clock_MHz")
            bullets.append(
                "- %s: the copy itself ran at %s GB/s (bytes read + written). The committed tile (`%s`) "
                "runs at %.1f %% of it with no wait and stays within 2 points of that up to %d cycles per "
                "tile (%.1f %%), about %.1f µs at the SM clock of %.0f MHz." %
                (device, span(copy, "{:.0f}"), COMMITTED_TILE, base, cycles, num(last, "pct_of_copy"),
                 cycles / mhz, mhz))
        rings = [num(r, "pct_of_copy") for r in rows if r["shape"].startswith("ring_") and int(r["injected_cycles"]) == 0]
        tiles = [num(r, "pct_of_copy") for r in rows if r["shape"].startswith("per_tile_") and int(r["injected_cycles"]) == 0]
        if rings and tiles:
            bullets.append(
                "- %s, with no wait at all: the rings at %s %% of the copy, the one-tile-per-block shapes at "
                "%s %%." % (device, span(rings, "{:.1f}"), span(tiles, "{:.1f}")))
    columns = [("shape", "shape (blocks per SM, KiB of tiles per SM)", "{}"), ("device", "GPU (results folder)", "{}")]
    columns += [(str(c), "%d cycles" % c, "{}") for c in BUDGET_CYCLES]
    return md_table(out, columns) + "\n\n" + "\n".join(wrap(b) for b in bullets)


# --- Generated prose: whole blocks, lines wrapped at 100 characters -------------------------

GTX970_GBPS = 224.0  # the report's GTX 970: memory bandwidth of NVIDIA's specification, GB/s


def wrap(text, indent=""):
    """One paragraph or bullet ("- ...": its continuation lines indented two spaces), wrapped by
    readme_tables.wrap."""
    return shared_wrap(text, "", "  " if text.startswith("- ") else indent)


def paragraphs(items):
    return "\n".join(wrap(t) for t in items)


def device_of(*tables):
    """The device named by the first CSV that has rows: generated text never names a GPU itself."""
    for rows in tables:
        if rows and rows[0].get("device"):
            return rows[0]["device"]
    return "(no results yet: run make report-run)"


def sample_output(table):
    """What a run prints: the progress lines of the committed run (from table1_1.csv)."""
    if not table:
        return "```\n" + NOT_RUN + "\n```"
    # The CSV's row order is the order the program ran them in (the registry's).
    rows = [r for r in table if int(r["n"]) == N20M and r["mode"] == "inclusive"]
    lines = ["$ bin/scan 20000000 --mode=inclusive --only=%s" % ",".join(r["version"] for r in rows)]
    for i, r in enumerate(rows, 1):
        outcome = ("PASS" if r["result_ok"] == "1" else "FAIL") if r["validated"] == "1" else "demonstration"
        lines.append("[%d/%d] version=%s n=%s mode=inclusive %.4f ms %s" % (
            i, len(rows), r["version"], r["n"], num(r, "kernel_ms"), outcome))
    return wrap("On %s (from `results/table1_1.csv`; the program prints more per version: grid, block, "
                "GB/s, and for a demonstration its error):" % rows[0]["device"]) + "\n\n```\n%s\n```" % "\n".join(lines)


def per_thread_summary(rows):
    """Section 3.0.3's claim judged within each algorithm: the time of each (version, size)
    against K, from results/per_thread.csv."""
    if not rows:
        return NOT_RUN
    items, low_end, rising_above = [], [], []
    for v in versions_of(rows):
        for n, label in PER_THREAD_SIZES:
            sel = sorted((r for r in rows if r["version"] == v and int(r["n"]) == n and r["mode"] == "inclusive"),
                         key=lambda r: int(r["per_thread"]))
            if not sel:
                continue
            ks = [int(r["per_thread"]) for r in sel]
            ms = [num(r, "kernel_ms") for r in sel]
            best = ms.index(min(ms))
            rises = all(ms[i + 1] > ms[i] for i in range(best, len(ms) - 1))
            rising_above.append(rises)
            low_end.append(best == 0)
            items.append("- `%s` at %s: fastest at K = %d (%.4f ms); %s to %.4f ms at K = %d%s." % (
                v, label, ks[best], ms[best],
                "the time rises with every doubling above it" if rises else "the time does not rise steadily above it",
                ms[-1], ks[-1],
                "" if best == 0 else "; smaller K is slower (K = %d: %.4f ms)" % (ks[0], ms[0])))
    # The claim holds as a rule if the smallest K is the fastest in every series.
    holds = verdict(all(low_end) if low_end else None, "no per_thread.csv rows")
    above = all(rising_above) if rising_above else None
    bad = sorted({(r["version"], int(r["n"]), r["per_thread"]) for r in rows if r["result_ok"] != "1"})
    exact = ("Every K is exact at every n here" if not bad else
             "Not every K is exact (wrong: %s)" % ", ".join("%s K = %s at n = %d" % b for b in bad))
    head = ("**Judged within each algorithm, from `results/per_thread.csv`: %s as a rule%s.** %s. "
            "Fewer elements per thread means more threads, more chunk totals and a larger second "
            "and third pass, so the claim holds only above the fastest K." % (
                holds, "; above the fastest K, less work per thread is faster in every series" if above else "",
                exact))
    return paragraphs([head, ""] + items)


def mbk_block(table):
    """Section 3's map_brent_kung against brent_kung and map (Table 1.1's run)."""
    if not table:
        return NOT_RUN
    def ms(v, n):
        sel = [r for r in table if r["version"] == v and int(r["n"]) == n and r["mode"] == "inclusive"]
        return num(sel[0], "kernel_ms") if sel else None
    items = []
    for n, label in ((1250000, "5 MB"), (20000000, "80 MB")):
        mbk, bk, mp = ms("map_brent_kung", n), ms("brent_kung", n), ms("map", n)
        r1, r2 = ratio(bk, mbk), ratio(mp, mbk)
        items.append("- at %s: `map_brent_kung` %s ms, %s× the speed of `brent_kung` and %s× that of `map`" % (
            label, "{:.4f}".format(mbk) if mbk else NOT_RUN, "{:.2f}".format(r1) if r1 else "?",
            "{:.2f}".format(r2) if r2 else "?"))
    return paragraphs(["Inclusive, 8 elements per thread, 1024 threads, on %s:" % device_of(table), ""] + items).replace(
        ":\n\n- ", ":\n\n- ")


def as_printed_block(rows, table):
    """Section 2 as printed (map_as_printed): time, the serial part's share, wrong runs, per n
    across the report's 15,000 limit (results/as_printed.csv, step 7 of make report-run)."""
    headings = ["n", "blocks", "time (ms)", "thread 0's serial scan (ms)", "its share of the time",
                "runs wrong", "first wrong element"]
    if not rows:
        return placeholder_table(headings, NOT_RUN)
    out = []
    for r in sorted(rows, key=lambda r: int(r["n"])):
        share = ratio(r.get("serial_ms"), r.get("kernel_ms"))
        out.append({"n": "{:,}".format(int(r["n"])), "blocks": r["blocks"], "ms": "{:.4f}".format(num(r, "kernel_ms")),
                    "serial": "{:.4f}".format(num(r, "serial_ms")) if r.get("serial_ms") else "?",
                    "share": "{:.0%}".format(share) if share is not None else "?",
                    "wrong": "%s of %s" % (r["wrong_runs"], r["runs"]),
                    "first": r.get("first_mismatch") or ""})
    keys = ["n", "blocks", "ms", "serial", "share", "wrong", "first"]
    return (wrap("On %s, %s elements per thread, %s threads per block (the serial part is thread 0's own "
                 "clock, `%%globaltimer`, of the last timed run):" % (rows[0]["device"], rows[0]["per_thread"],
                                                                    rows[0]["threads"])) + "\n\n"
            + md_table(out, [(k, h, "{}") for k, h in zip(keys, headings)]))


def as_printed_verdicts(rows):
    """Bullets: is the kernel right within one block, beyond it; what the serial part costs."""
    if not rows:
        return ["- **Section 2's kernel as printed (`map_as_printed`): " + NOT_RUN + ".**"]
    rows = sorted(rows, key=lambda r: int(r["n"]))
    per_block = int(rows[0]["threads"]) * int(rows[0]["per_thread"])
    one = [r for r in rows if int(r["n"]) <= per_block]
    many = [r for r in rows if int(r["n"]) > per_block]
    wrong_one = [r for r in one if int(r["wrong_runs"]) > 0]
    wrong_many = [r for r in many if int(r["wrong_runs"]) > 0]
    first_wrong = next((int(r["n"]) for r in rows if int(r["wrong_runs"]) > 0), None)
    shares = [(int(r["n"]), ratio(r.get("serial_ms"), r.get("kernel_ms"))) for r in rows]
    shares = [(n, x) for n, x in shares if x is not None]
    big = max(shares, key=lambda t: t[0]) if shares else None
    out = ["- **Section 2's kernel as printed (`map_as_printed`), validated anyway: %s within one block (n ≤ %d: "
           "%d of %d sizes had a wrong run), %s beyond it (%d of %d sizes had a wrong run)%s.** The report's "
           "\"handles up to 15000\" is %s here." % (
               "right" if not wrong_one else "not always right", per_block, len(wrong_one), len(one),
               "wrong" if wrong_many else "right by luck", len(wrong_many), len(many),
               "" if first_wrong is None else "; the first wrong run is at n = {:,}".format(first_wrong),
               verdict(None if first_wrong is None and not many else compare(first_wrong or 0, ">", 15000),
                       "no size failed, so no limit was seen").replace("holds", "confirmed").replace(
                   "does not hold", "not confirmed")),
           "- **\"The greatest bottleneck is when the thread 0 tries to compute the prefix sum of the "
           "intermediate array\": %s.** %s" % (
               verdict(compare(big[1], ">", 0.5) if big else None, "no serial_ms measured"),
               ("Thread 0's serial loop takes %s of the kernel's time at n = 15,000 and %s at n = {:,}." .format(big[0])
                % (next(("{:.0%}".format(x) for n, x in shares if n == 15000), "?"), "{:.0%}".format(big[1])))
               if big else "")]
    return out


def conclusions(vals, prof, table, mse, per_thread, profile, as_printed, rep):
    """The section "Which of the report's conclusions hold": every number from the CSVs."""
    def v(name):
        return vals.get(name, PLACEHOLDER)

    def pv(name):
        return prof.get(name, PROFILE_PLACEHOLDER)
    dev = device_of(table, mse, per_thread)
    items = ["All numbers are from the committed run on %s (`results/*.csv`); ratios compare versions of the "
             "same run." % dev, ""]
    items.append(
        "- **Exact up to one warp, wrong beyond (Figures 1.2/1.3): %s.** With the report's `<<<1, 32>>>` the "
        "in-place kernel is exact on all its runs for n ≤ %s and %s (%s sizes with a wrong run); at n = 33 the "
        "sum of squared errors is %s, %s, %s (MSE %s). That is the 33rd element having no thread, not the race."
        % (v("mse_ip_verdict"), v("mse_ip_exact_to"), v("mse_ip_beyond"), v("mse_ip_wrong_count"),
           v("mse_ip_sse33"), v("mse_ip_sse33_vs_report"), v("mse_ip_33_every"), v("mse_ip_mse33")))
    buckets = ", ".join("%s for n = %d–%d" % (v("mse_mb_pct_%d_%d" % (a, b)), a, b) for a, b in MSE_BUCKETS)
    items.append(
        "- **The race and the 414-element limit (§1.10): the race is real, the limit does not reproduce.** "
        "In one block of 1024 threads (`hs_multiblock_racy`, n ≤ 1024) the kernel is exact on every run up "
        "to n = %s; the first wrong runs come at n = %s (%s), i.e. with %s warps, %s. It is intermittent "
        "rather than a threshold: %s of the sizes up to 1024 were wrong on some of their runs and right on "
        "others. The share of wrong runs is %s; %s of the 1024 sizes were exact on every run, the largest "
        "n = %s (n = 414 itself %s in this sweep). On %s no size above n = %s can be called safe."
        % (v("mse_mb_exact_to"), v("mse_mb_first_wrong"), v("mse_mb_first_wrong_runs"),
           v("mse_mb_first_wrong_warps"), v("mse_mb_vs_414"), v("mse_mb_partial"), buckets,
           v("mse_mb_exact_sizes"), v("mse_mb_exact_largest"), v("mse_mb_414"), dev, v("mse_mb_exact_to")))
    items.append(
        "- **The many-block launch is wrong at every Table 1.1 size: %s.** %s (MSE %s), and %s. Its time %s "
        "(%s → %s ms for 16× the data), unlike the report's nearly flat %s–%s ms."
        % (v("t_mb_verdict"), v("t_mb_runs"), v("t_mb_mse"), v("mse_mb_big"), v("t_mb_trend"), v("t_mb_t5"),
           v("t_mb_t80"), v("rep_t_lo"), v("rep_t_hi")))
    # Point 7 of the list above: Table 1.1's times against what the kernel must move.
    racy = [r for r in (table or []) if r["version"] == "hs_multiblock_racy" and int(r["n"]) == N20M]
    if racy:
        floor_ms = 8.0 * N20M / (GTX970_GBPS * 1e6)
        c = {}
        for version, n, kernel, tag in PROFILE_CASES:
            if tag == "racy80mb":
                c = counters(profile or [], version, n, kernel)
        dram = None
        if c.get("dram__bytes_read.sum") is not None and c.get("dram__bytes_write.sum") is not None:
            dram = c["dram__bytes_read.sum"] + c["dram__bytes_write.sum"]
        items.append(
            "- **Table 1.1's times against what the kernel must move: cannot be judged from the report's "
            "numbers.** Any scan of 80 MB reads and writes the array once, %.0f MB, at least %.2f ms at the "
            "%.0f GB/s of the report's GTX 970: its %s ms is above that floor. A model in which each of the "
            "25 steps streams the whole array through DRAM (%s GB) does not describe this kernel: with no "
            "barrier between blocks, each block runs all its steps on its own elements while they are in the "
            "caches; on %s the kernel takes %s ms at 80 MB, which over those bytes would be %s TB/s, %s× the "
            "device-to-device copy of the same run. %s"
            % (8.0 * N20M / 1e6, floor_ms, GTX970_GBPS, v("rep_t_hi"), v("t_mb_gb"), dev, v("t_mb_t80"),
               v("t_mb_tbps"), v("t_mb_vs_copy"),
               ("Nsight Compute counts %.2f GB of DRAM traffic for it (%.1f× the %.0f MB a scan must move)." % (
                   dram / 1e9, dram / (8.0 * N20M), 8.0 * N20M / 1e6)) if dram is not None else
               "Its DRAM bytes: " + NOT_MEASURED + "."))
    else:
        items.append("- **Table 1.1's times against what the kernel must move:** " + NOT_RUN + ".")
    items.append(
        "- **Brent–Kung against the CPU and CUB.** Against the serial CPU (kernel time only) it is %s×, %s× "
        "and %s× faster at 5, 50 and 80 MB (inclusive) and %s× at 2²⁸ (Table 1.1's run; %s× at 2²⁸ in the "
        "sweep, whose CPU run was %s); in the sweep %s. Against CUB it is %s× at 20,000,000 and at 2²⁸: a "
        "factor %s from its %s bytes per element against 8, and a further factor of about %s from the lower "
        "bandwidth at which it moves them (%s against CUB's %s GB/s). Counting the two pageable copies, %s "
        "in these runs: at 20,000,000 `lookback` plus copies takes %s ms, the CPU %s ms."
        % (v("t_bk_cpu_5"), v("t_bk_cpu_50"), v("t_bk_cpu_80"), v("t_bk_cpu_2p28"), v("sw_bk_cpu_2p28"),
           v("tsw_cpu_cmp"), v("sw_bk_cross"), v("t_bk_vs_cub_all"), v("t_bk_bytes_factor"), v("t_bk_bpe"),
           v("t_bk_bw_factor"), v("t_bk_gbps_all"), v("t_cub_gbps_all"), v("tsw_copies"), v("t_lb_total_20m"),
           v("t_cpu_20m")))
    # Sectors per request of the global loads: 4 for a warp reading 32 consecutive ints.
    def spr(tag):
        for version, n, kernel, t in PROFILE_CASES:
            if t == tag:
                c = counters(profile or [], version, n, kernel)
                return ratio(c.get(SECTORS), c.get(REQUESTS))
    s_map, s_bk = spr("map5mb"), spr("bk5mb")
    measured = ("Measured at 5 MB: the map kernel %.1f sectors per request (32 expected: %s), `brent_kung`'s "
                "block scan %.1f (4 expected: %s)." % (s_map, verdict(compare(s_map, ">=", 31)), s_bk,
                                                       verdict(compare(s_bk, "<=", 4.5)))
                if s_map is not None and s_bk is not None else "Sectors per request: " + NOT_MEASURED + ".")
    items.append(
        "- **Why the loads are slow, from the counters (sectors per request).** A warp that loads 32 "
        "consecutive ints touches 4 sectors of 32 bytes per request; `map`'s thread t reads element t·K + i, "
        "so with K = 8 a warp's request spans 32 sectors. " + measured)
    items.append("- **\"Whenever a single thread does less computation the performance gets better\" "
                 "(§3.0.3):** judged within each algorithm in the section above (elements per thread). "
                 "Across algorithms the work per thread does not order them: `lookback` gives each thread "
                 "32 elements and is %s; what orders them is the bytes moved (%s, %s and %s bytes per "
                 "element for lookback, brent_kung and map)."
                 % (v("t_lb_rank"), v("t_lb_bpe"), v("t_bk_bpe"), v("t_map_bpe")))
    # §1.9: "each multiprocessor can accept up to 1024 threads": the per-SM limit from the
    # occupancy API (blocks per SM × block / occupancy = the device's maximum threads per SM).
    per_sm = None
    for r in table or []:
        if r["version"] == "map" and r.get("k1_occupancy"):
            per_sm = ratio(num(r, "k1_blocks_per_sm") * num(r, "k1_block"), r["k1_occupancy"])
            break
    items.append(
        "- **\"Each multiprocessor can accept up to 1024 threads\" (§1.9): does not hold.** 1024 is the "
        "limit of one block; a multiprocessor of %s holds %s threads (from the device's properties, through "
        "the occupancy API: blocks per SM × block size / theoretical occupancy), i.e. two blocks of 1024."
        % (dev, "{:.0f}".format(per_sm) if per_sm else "(" + NOT_RUN + ")"))
    items.append(
        "- **\"Occupancy was limited by the number of blocks\": not on this GPU at these sizes%s.** Every "
        "kernel of map and Brent–Kung has %s theoretical occupancy (%s blocks of 1024 per SM). Brent–Kung's "
        "two main kernels run %s to %s waves at the Table 1.1 sizes (about %s at 2²⁸); its scan of the block "
        "sums has %s blocks, %s, but handles 1/2048 of the data. Map's main kernels run %s and %s waves at 50 "
        "and 80 MB but only %s of a wave at 5 MB (%s blocks for %s slots), and its scan of the totals, 1/8 of "
        "the data, has %s blocks (%s waves): %s."
        % (v("t_occ_except"), v("t_occ_mapbk"), v("t_occ_mapbk_bps"), v("t_bk_waves_lo"), v("t_bk_waves_hi"),
           v("t_bk_waves_2p28"), v("t_bk_k2_blocks"), v("t_bk_k2_wave"), v("t_map_waves_50"),
           v("t_map_waves_80"), v("t_map_waves_5"), v("t_map_blocks_5"), v("t_map_slots"), v("t_map_k2_blocks"),
           v("t_map_k2_waves"), v("t_map_idle")))
    items.append(
        "- **\"Occupancy limited by the number of blocks, which is 2\" (Figure 3.2), from the counters.** The "
        "map kernel (`map_scan_chunks`) at n = 15,000 with 8 elements per thread runs a grid of %s blocks (%s "
        "waves): theoretical occupancy %s, achieved %s, and the resource that allows the fewest blocks per SM "
        "is %s (%s blocks of 1024 threads). At 5 MB: grid %s (%s waves), achieved occupancy %s, limit %s from "
        "%s. Two readings of the report's \"2\": 2 blocks per SM is the per-SM limit of any 1024-thread "
        "block; 2 blocks in the grid is our profile's n = 15,000 at 8 elements per thread (1875 chunks). The "
        "report does not print its K: with K ≥ 15, which its 15,000 limit implies (point 5 above), 15,000 "
        "elements are one block of 1000 threads. Either way the GPU is far from full when the grid is a "
        "fraction of a wave."
        % (pv("map15k_grid"), pv("map15k_waves"), pv("map15k_theo"), pv("map15k_ach"), pv("map15k_limiter"),
           pv("map15k_limit"), pv("map5mb_grid"), pv("map5mb_waves"), pv("map5mb_ach"), pv("map5mb_limit"),
           pv("map5mb_limiter")))
    top = {t: prof.get(t + "_top_stall") for t in ("map5mb", "map15k", "bk5mb", "lb5mb", "ap15k")}
    map5 = counters(profile or [], "map_brent_kung", 1250000, "map_scan_chunks")
    share = ratio(map5.get(STALL_METRIC % "long_scoreboard"), map5.get(STALL_TOTAL))
    if share is None:
        items.append(
            "- **\"Time wasted for global memory accessing\" (Figure 3.3): %s.** The stall reasons per issued "
            "instruction (Nsight Compute's Warp State section) are %s. DRAM throughput: map kernel %s, block "
            "scan %s, `lookback` %s of peak." % (verdict(None, NOT_MEASURED), NOT_MEASURED, pv("map5mb_dram"),
                                                 pv("bk5mb_dram"), pv("lb5mb_dram")))
    else:
      items.append(
        "- **\"Time wasted for global memory accessing\" (Figure 3.3): %s.** Stall cycles per issued "
        "instruction (Nsight Compute's Warp State section; the reasons add up to the warp's cycles per "
        "issued instruction). The map kernel at 5 MB: largest reason %s (%s of its %s cycles per issued "
        "instruction); at n = 15,000 %s; the report's kernel as printed at 15,000: %s. `brent_kung`'s block "
        "scan: %s; `lookback`: %s. `long_scoreboard` is a warp waiting for a global-memory (L1TEX) load. "
        "DRAM throughput: map kernel %s, block scan %s, `lookback` %s of peak."
        % (verdict(compare(share, ">", 0.5), NOT_MEASURED),
           top["map5mb"] or NOT_MEASURED, "{:.0%}".format(share) if share is not None else "?",
           "{:.2f}".format(map5[STALL_TOTAL]) if map5.get(STALL_TOTAL) is not None else "?",
           top["map15k"] or NOT_MEASURED, top["ap15k"] or NOT_MEASURED, top["bk5mb"] or NOT_MEASURED,
           top["lb5mb"] or NOT_MEASURED, pv("map5mb_dram"), pv("bk5mb_dram"), pv("lb5mb_dram")))
    items.append(
        "- **SM activity (Figure 3.4).** The map kernel's least / mean / most active SM, as a share of the "
        "kernel's elapsed cycles: %s / %s / %s at n = 15,000, %s / %s / %s at 5 MB; `lookback` at 5 MB %s / "
        "%s / %s. A gap between the least and the most active SM is the imbalance the report describes (too "
        "few blocks for the SMs, or blocks of unequal length)."
        % (pv("map15k_sm_min"), pv("map15k_sm_avg"), pv("map15k_sm_max"), pv("map5mb_sm_min"),
           pv("map5mb_sm_avg"), pv("map5mb_sm_max"), pv("lb5mb_sm_min"), pv("lb5mb_sm_avg"), pv("lb5mb_sm_max")))
    items += as_printed_verdicts(as_printed)
    out = [wrap(t) if t else "" for t in items]
    return "\n".join(out)


def target_block(vals):
    """Our speed target for lookback, judged from table1_1.csv (and the sweep)."""
    v = lambda name: vals.get(name, PLACEHOLDER)
    return paragraphs([
        "**Our speed target for `lookback` (at least 0.9× CUB's speed at 20,000,000 and 2²⁸ elements): %s.** "
        "Measured in `results/table1_1.csv` (same run, same timing, L2 flushed): %s× (inclusive) and %s× "
        "(exclusive) at 20,000,000, %s× and %s× at 2²⁸. `lookback` moves %s GB/s at 20M and %s GB/s at 2²⁸ "
        "(%s%% and %s%% of the device-to-device copy) against CUB's %s and %s GB/s; the sweep has it %s (its "
        "smallest lead %s; %s× below 2²², where CUB's extra initialisation kernel counts)."
        % (v("t_target_verdict"), v("t_ratio_20m_inc"), v("t_ratio_20m_exc"), v("t_ratio_2p28_inc"),
           v("t_ratio_2p28_exc"), v("t_lb_bw_20m"), v("t_lb_bw_2p28"), v("t_lb_pct_20m"), v("t_lb_pct_2p28"),
           v("t_cub_bw_20m"), v("t_cub_bw_2p28"), v("sw_lb_ahead"), v("sw_lb_least"), v("sw_lb_small"))])


def main():
    table = load(RESULTS, "table1_1.csv")
    sweep = load(RESULTS, "sweep.csv")
    mse = load(RESULTS, "mse.csv")
    per_thread = load(RESULTS, "per_thread.csv")
    profile = load(RESULTS, "profile.csv")
    tuning = load(RESULTS, "lookback_tuning.csv")
    set_order(table, sweep, mse, per_thread)
    rep_path = os.path.join(HERE, "original", "report_002.csv")
    rep = read_csv(rep_path, comments=True) if os.path.exists(rep_path) else None
    # argv[1]: another README to fill (tier 1 checks that a copy comes out unchanged).
    readme = ProseReadme(sys.argv[1] if len(sys.argv) > 1 else README)  # written once, at save()
    readme.block("work", work_table(table))
    readme.block("profile", profile_table(profile))
    readme.block("sm_activity", sm_activity_table(load(RESULTS, "sm_activity.csv")))
    prof = profile_values(readme, profile)
    vals = prose_values(readme, table, sweep, mse, tuning, rep)
    as_printed = load(RESULTS, "as_printed.csv")
    readme.block("run_output", sample_output(table))
    readme.block("per_thread_summary", per_thread_summary(per_thread))
    readme.block("mbk", mbk_block(table))
    readme.block("as_printed", as_printed_block(as_printed, table))
    readme.block("conclusions", conclusions(vals, prof, table, mse, per_thread, profile, as_printed, rep))
    readme.block("target_verdict", target_block(vals))
    memcpy(readme)
    readme.block("copy_budget", copy_budget_block())
    readme.block("ws_scan", ws_scan_block())
    readme.tables(report_tables(table, sweep) + [per_thread_spec(per_thread)], RESULTS)
    readme.save()
    print("tables.py: README.md tables regenerated from", ", ".join(
        n for n, d in (("table1_1.csv", table), ("sweep.csv", sweep), ("mse.csv", mse),
                       ("per_thread.csv", per_thread), ("profile.csv", profile)) if d) or "nothing")


if __name__ == "__main__":
    main()
