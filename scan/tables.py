#!/usr/bin/env python3
"""Regenerates every table of scan/README.md from results/*.csv (`make tables`, run by
`make plots` and `make report`). A missing CSV leaves its tables as they are."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ next to the shared helpers
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
from readme_tables import Readme, md_table, read_csv  # noqa: E402

README = os.path.join(HERE, "README.md")
RESULTS = os.path.join(HERE, "results")
REPORT_SIZES = [(1250000, "5 MB"), (12500000, "50 MB"), (20000000, "80 MB")]
ORDER = ["hs_multiblock_racy", "hs_inplace_racy", "hs_buffered", "map", "brent_kung", "lookback", "cub"]


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
        if r["mode"] != "inclusive" or r["version"] not in ("brent_kung", "map", "lookback"):
            continue
        if r["version"] != "brent_kung" and int(r["n"]) != 20000000:
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
        for v in ("brent_kung", "map", "lookback", "cub"):
            o[v] = sel[v]["kernel_ms"] if v in sel else ""
        if "lookback" in sel:
            o["lbtotal"] = sel["lookback"]["total_ms"]
            o["cpu_vs_lb"] = num(any_row, "cpu_ms") / num(sel["lookback"], "kernel_ms")
        out.append(o)
    cols = [
        ("n", "n", "{}"), ("cpu", "CPU serial (ms)", "{:.4f}"), ("brent_kung", "brent_kung (ms)", "{:.4f}"),
        ("map", "map (ms)", "{:.4f}"), ("lookback", "lookback (ms)", "{:.4f}"), ("cub", "cub (ms)", "{:.4f}"),
        ("lbtotal", "lookback + copies (ms)", "{:.3f}"), ("cpu_vs_lb", "CPU / lookback", "{:.0f}"),
    ]
    return md_table(out, cols)


def main():
    table = load("table1_1.csv")
    sweep = load("sweep.csv")
    mse = load("mse.csv")
    readme = Readme(README)  # every table replaced in memory, the file written once
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
        n for n, d in (("table1_1.csv", table), ("sweep.csv", sweep), ("mse.csv", mse)) if d) or "nothing")


if __name__ == "__main__":
    main()
