#!/usr/bin/env python3
"""Fills vecmax/README.md's generated blocks from results/*.csv (make tables): the sweep beside
the report's GTX 970 numbers (original/report_000_gtx970.csv), the copies, the bench and its
targets, the single-pass tuning, the Nsight Compute counters, and every sentence that carries
a number. A CSV not there yet leaves a placeholder ("(run make report-run)", "(run make profile)").
    python3 tables.py [RESULTS_DIR [README]]"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from readme_tables import (Readme, Table, compare, fill, in_base_unit, load, md_table, placeholder_table,  # noqa: E402
                           ratio, read_csv, span, verdict, wrap)

RUN, PROFILE = "(run make report-run)", "(run make profile)"
TUNING_MISSING = "(run bash experiments/run.sh on a GPU)"
N1, N2 = 40960000, 268435456  # the report's N and 2^28
BIG_GRID = 16384  # "configurations having more threads and blocks": at least 16k threads in the grid
# The report's "three parameter settings of the greatest speed up ... processing time ... only
# less than 1.5 milliseconds and the IO has occupy about 96% of the total time for GPU":
# "about 96%" is read as within one percentage point of 96.
TOP3_MS, TOP3_IO_PCT, TOP3_ABOUT = 1.5, 96.0, 1.0
ORIGINAL = read_csv(os.path.join(HERE, "original", "report_000_gtx970.csv"), comments=True)


def f(x):
    return float(x)


def key(row):
    return (int(float(row["threads"])), int(float(row["blocks"])))


def shape(r):
    return "{} × {}".format(*key(r))


def median(xs):
    xs = sorted(xs)
    return (xs[(len(xs) - 1) // 2] + xs[len(xs) // 2]) / 2.0


def copies_share(r):
    return 100.0 * (f(r["input_ms"]) + f(r["output_ms"])) / f(r["total_gpu_ms"])


def top3(rows):
    return sorted(rows, key=lambda r: f(r["speedup_gpu"]), reverse=True)[:3]


def sweep_order():
    with open(os.path.join(HERE, "sweep_configs.txt")) as fh:
        fields = [line.split("#", 1)[0].split() for line in fh]
    return {(int(x[0]), int(x[1])): i for i, x in enumerate(x for x in fields if len(x) == 2)}


def time_split(*after_input):
    """The report's time split (sweep and copies tables); after_input: columns after the input copy."""
    return [("input_ms", "input (ms)", "{:.3f}"), *after_input, ("kernel_ms", "processing (ms)", "{:.4f}"),
            ("output_ms", "output (ms)", "{:.4f}"), ("total_gpu_ms", "total GPU (ms)", "{:.3f}"),
            ("cpu_ms", "CPU (ms)", "{:.3f}")]


def gtx(field, spec, best=()):
    """Column: the report's GTX 970 value of the same configuration."""
    orig = {key(r): r for r in ORIGINAL}

    def get(r):
        o = orig.get(key(r))
        return "" if o is None else spec.format(f(o[field]) if field else copies_share(o)) + (
            " (top 3)" if key(r) in best else "")
    return get


def sweep_table(rows, order):
    best = {key(r) for r in top3(rows)}
    orig_best = {key(r) for r in top3(ORIGINAL)}
    columns = [("threads", "threads/block"), ("blocks", "blocks/grid"), *time_split(),
               (lambda r: "{:.3f}".format(f(r["speedup_gpu"])) + (" (top 3)" if key(r) in best else ""), "speed-up"),
               (lambda r: copies_share(r) if f(r["total_gpu_ms"]) > 0 else float("nan"), "copies (% of total)",
                "{:.1f}"), ("gpu_gflops", "GPU Gflops", "{:.1f}"),
               (gtx("input_ms", "{:.2f}"), "GTX 970 input (ms)"), (gtx("processing_ms", "{:.3f}"),
                                                                   "GTX 970 processing (ms)"),
               (gtx("output_ms", "{:.3f}"), "GTX 970 output (ms)"), (gtx("total_gpu_ms", "{:.2f}"), "GTX 970 total (ms)"),
               (gtx("cpu_ms", "{:.2f}"), "GTX 970 CPU (ms)"), (gtx("speedup_gpu", "{:.3f}", orig_best),
                                                               "GTX 970 speed-up"),
               (gtx(None, "{:.1f}"), "GTX 970 copies (%)")]
    return Table("sweep-table", "sweep.csv", columns, where={"version": "report"},
                 order=lambda r: order.get(key(r), len(order)), bold=lambda r: key(r) in best,
                 missing=placeholder_table(["threads/block", "blocks/grid"], RUN), note=lambda rows: (
                     "N = {n}, {device} (driver {driver}, runtime {runtime}), {host_memory} host memory, median of "
                     "{repeat} runs after {warmup} warm-ups; bold: our three best speed-ups. Every row: result_ok = "
                     "{ok}.").format(**rows[0], ok="1" if all(r["result_ok"] == "1" for r in rows) else "NOT ALL 1"))


def target_word(x, op, threshold):
    """"met" / "MISSED" for a measured speed ratio (a CSV cell); an empty one meets nothing."""
    held = compare(ratio(x, 1.0), op, threshold)
    return "not measurable (empty cell)" if held is None else ("met" if held else "MISSED")


def bench_target(r):
    t = {N1: ("single_pass kernel <= cub / 1.05", 1.05), N2: ("single_pass >= 0.97 x cub", 0.97)}.get(int(f(r["n"])))
    return "" if r["version"] != "single_pass" or t is None else \
        "{}: {}".format(t[0], target_word(r["speedup_vs_baseline"], ">=", t[1]))


TABLES = [
    Table("copies-table", "copies.csv", [
        ("host_memory", "host memory"), "version", "threads", "blocks",
        *time_split(("h2d_GBps", "host-to-device (GB/s)", "{:.1f}")), ("speedup_gpu", "speed-up", "{:.3f}"),
        ("result_ok", "ok")], missing=placeholder_table(["host memory", "version"], RUN)),
    Table("bench-table", "bench.csv", [
        ("n", "N"), "version", "threads", "blocks", ("kernel_ms", "kernel (ms), L2 flushed", "{:.4f}"),
        ("kernel_ms_no_flush", "kernel (ms), no flush", "{:.4f}"), ("bandwidth_GBps", "GB/s", "{:.0f}"),
        ("pct_of_copy_bw", "% of copy bw", "{:.1f}"), ("copy_bw_GBps", "copy bw (GB/s)", "{:.0f}"),
        ("baseline_ms", "cub (ms)", "{:.4f}"), ("speedup_vs_baseline", "speed vs cub", "{:.3f}"),
        (bench_target, "target"), ("result_ok", "ok")], missing=placeholder_table(["N", "version"], RUN),
        note=lambda rows: "{device} (driver {driver}, runtime {runtime}); median of {repeat} runs after {warmup} "
                          "warm-ups.".format(**rows[0])),
]


class Values(dict):
    """The numbers of the prose, by name (value(name, text) as the functions below set them)."""
    def value(self, name, text):
        self[name] = str(text)


def sweep_values(readme, rows, original):
    """The conclusions' numbers from sweep.csv (ours) and the report's table (GTX 970)."""
    ours = {key(r): r for r in rows}
    orig = {key(r): r for r in original}

    def line(table, fixed, value, var):
        sel = [r for k, r in table.items() if k[fixed] == value]
        return sorted(sel, key=lambda r: key(r)[1 - fixed])

    # The report's graphs, from its table.
    o4, o32 = line(orig, 1, 4, "threads"), line(orig, 0, 32, "blocks")
    big_o = [r for r in original if key(r)[0] * key(r)[1] >= BIG_GRID]
    readme.value("report-graphs", (
        "at 4 blocks the speed-up rose from {:.2f} (32 threads) to {:.2f} (1024 threads); at 32 threads per "
        "block from {:.2f} (4 blocks) to {:.2f} (128 blocks); the processing time fell from {:.0f} ms (32 × 4) "
        "to {} ms (≥ {:,} threads in the grid), where the copies took {}% of the total GPU time").format(
        f(o4[0]["speedup_gpu"]), f(o4[-1]["speedup_gpu"]), f(o32[0]["speedup_gpu"]), f(o32[-1]["speedup_gpu"]),
        f(orig[(32, 4)]["processing_ms"]), span([f(r["processing_ms"]) for r in big_o], "{:.1f}"), BIG_GRID,
        span([copies_share(r) for r in big_o], "{:.0f}")))

    r0 = rows[0]
    readme.value("results-device", "an {} (driver {}, CUDA runtime {})".format(r0["device"], r0["driver"], r0["runtime"]))
    readme.value("gtx-input", "{} ms for {:.0f} MB ({} GB/s)".format(
        span([f(r["input_ms"]) for r in original], "{:.1f}"), 4.0 * f(r0["n"]) / 1e6,
        span([4.0 * f(r0["n"]) / 1e6 / f(r["input_ms"]) for r in original], "{:.1f}")))

    # Conclusion 1: copies dominate.
    shares = {k: copies_share(r) for k, r in ours.items()}
    minority = sorted((k for k, v in shares.items() if v <= 50.0), key=lambda k: k[0] * k[1])
    best = max(ours, key=lambda k: k[0] * k[1])
    inputs = [f(r["input_ms"]) for r in rows]
    gb = 4.0 * f(rows[0]["n"]) / 1e6
    text = "In the sweep the copies are more than half of the total GPU time in {} of the {} configurations".format(
        len(ours) - len(minority), len(ours))
    if minority:
        text += " (the exceptions are the smallest grids, {}, at {}%)".format(
            ", ".join("{} × {}".format(*k) for k in minority), span([shares[k] for k in minority], "{:.1f}"))
    text += (" and {:.1f}% at {} × {} (GTX 970: {:.1f}%). The pageable input copy takes {} ms (median {:.1f} ms, "
             "about {:.1f} GB/s) while the kernel takes {:.3f} ms at {} × {}.").format(
        shares[best], best[0], best[1], copies_share(orig[best]) if best in orig else float("nan"),
        span(inputs, "{:.1f}"), median(inputs), gb / median(inputs), f(ours[best]["kernel_ms"]), best[0], best[1])
    readme.value("c1-sweep", text)

    outs = [f(r["output_ms"]) for r in rows]
    out_share = [100.0 * f(r["output_ms"]) / f(r["total_gpu_ms"]) for r in rows]
    readme.value("c1-output", (
        "the block maxima that come back are at most {} floats ({} bytes) instead of {:,}, and copying them "
        "(with the host's final maximum) takes {} ms, at most {:.2f}% of the total GPU time; but the input, "
        "{:.0f} MB, crosses the bus whole whatever the kernel does ({} ms). The report's own output time, "
        "{} ms in every configuration, cannot be the copy of at most 128 floats either (see the bugs above)").format(
        max(k[1] for k in ours), 4 * max(k[1] for k in ours), int(f(rows[0]["n"])), span(outs, "{:.4f}"),
        max(out_share), gb, span(inputs, "{:.1f}"), span([f(r["output_ms"]) for r in original], "{:.2f}")))

    # Conclusion 2: at 4 blocks, more threads.
    l4 = line(ours, 1, 4, "threads")
    k0, k1 = f(l4[0]["kernel_ms"]), f(l4[-1]["kernel_ms"])
    readme.value("c2", (
        "At 4 blocks the kernel time halves with every doubling of the block, from {:.2f} ms (32 threads) to "
        "{:.2f} ms (1024 threads, {:.1f}× for 32× the threads), and the speed-up goes {} (GTX 970: {}); it rises "
        "more slowly at the top because the copies become {:.1f}% of the total").format(
        k0, k1, k0 / k1, ", ".join("{:.2f}".format(f(r["speedup_gpu"])) for r in l4),
        ", ".join("{:.2f}".format(f(r["speedup_gpu"])) for r in o4), copies_share(l4[-1])))

    # Conclusion 3: at 32 threads, more blocks; time depends on threads x blocks only.
    l32 = line(ours, 0, 32, "blocks")
    by_product = {}
    for k, r in ours.items():
        by_product.setdefault(k[0] * k[1], []).append(f(r["kernel_ms"]))
    worst = max(max(v) / min(v) - 1.0 for v in by_product.values())
    bw = 4.0 * f(ours[best]["n"]) / (f(ours[best]["kernel_ms"]) * 1e6)
    big = [r for r in rows if key(r)[0] * key(r)[1] >= BIG_GRID]
    cpus = [f(r["cpu_ms"]) for r in rows]
    top = sorted(rows, key=lambda r: f(r["speedup_gpu"]), reverse=True)[:2]
    readme.value("c3", (
        "At 32 threads per block the speed-up goes {} for 4, 16, 32, 64, 128 blocks (kernel {:.2f} to {:.2f} ms). "
        "Both graphs show one effect: the kernel time depends only on the number of threads in the grid (every "
        "configuration with the same threads × blocks is within {:.1f}% of the others), and it halves with each "
        "doubling up to the largest grid, {:,} threads ({:.3f} ms, {:.0f} GB/s, {:.1f}% of the copy bandwidth). "
        "From {:,} threads on, the kernel is at most {:.1f}% of the total and the speed-ups are {}: their ranking "
        "is set by the run-to-run spread of the CPU time ({} ms) and of the input copy ({} ms), not by the kernel "
        "({} is first with an input copy of {:.1f} ms and a CPU time of {:.1f} ms; {} second with {:.1f} and "
        "{:.1f} ms)").format(
        ", ".join("{:.2f}".format(f(r["speedup_gpu"])) for r in l32), f(l32[0]["kernel_ms"]), f(l32[-1]["kernel_ms"]),
        100.0 * worst, best[0] * best[1], f(ours[best]["kernel_ms"]), bw, 100.0 * bw / f(ours[best]["copy_bw_GBps"]),
        BIG_GRID, 100.0 * max(f(r["kernel_ms"]) / f(r["total_gpu_ms"]) for r in big),
        span([f(r["speedup_gpu"]) for r in big], "{:.2f}"), span(cpus, "{:.1f}"), span(inputs, "{:.1f}"),
        shape(top[0]), f(top[0]["input_ms"]), f(top[0]["cpu_ms"]), shape(top[1]), f(top[1]["input_ms"]),
        f(top[1]["cpu_ms"])))

    # The three best speed-ups: processing under 1.5 ms, I/O about 96% of the GPU time.
    def top3(table, kernel_col):
        best3 = sorted(table, key=lambda r: f(r["speedup_gpu"]), reverse=True)[:3]
        io = [ratio(100.0 * (f(r["input_ms"]) + f(r["output_ms"])), r["total_gpu_ms"]) for r in best3]
        slowest = max(f(r[kernel_col]) for r in best3)
        furthest = None if any(x is None for x in io) else max(abs(x - TOP3_IO_PCT) for x in io)
        under, about = compare(slowest, "<", TOP3_MS), compare(furthest, "<=", TOP3_ABOUT)
        holds = None if under is None or about is None else (under and about)
        detail = "; ".join("{}: {:.2f} ms, {}".format(shape(r), f(r[kernel_col]), "?" if x is None else
                                                     "{:.1f}%".format(x)) for r, x in zip(best3, io))
        return verdict(holds, "a total GPU time is zero or missing"), detail

    v_orig, d_orig = top3(original, "processing_ms")
    v_ours, d_ours = top3(rows, "kernel_ms")
    readme.value("top3-verdict", "{} on ours ({} on the GTX 970)".format(v_ours, v_orig))
    readme.value("top3", (
        "(\"About {:.0f}%\" is read as within {:.0f} percentage point.) Processing time and copies (input + "
        "output, as % of the total GPU time) of the three best speed-ups: on the GTX 970 {}; on ours {}. Which "
        "three configurations come first on ours is set by the run-to-run spread of the CPU time and the input "
        "copy, not by the kernel (conclusion 3)").format(TOP3_IO_PCT, TOP3_ABOUT, d_orig, d_ours))
    readme.value("sweep-ok", "every row has `result_ok` = 1 and `rel_error` = 0"
                 if all(r["result_ok"] == "1" and f(r["rel_error"]) == 0.0 for r in rows)
                 else "NOT every row has `result_ok` = 1 and `rel_error` = 0")

    # "Speed-ups saturate to 1.6."
    def plateau(table, kernel_col):
        sel = [r for r in table if key(r)[0] * key(r)[1] >= BIG_GRID]
        sp = [f(r["speedup_gpu"]) for r in sel]
        ceiling = [f(r["cpu_ms"]) / (f(r["input_ms"]) + f(r["output_ms"])) for r in sel]
        kshare = max(100.0 * f(r[kernel_col]) / f(r["total_gpu_ms"]) for r in sel)
        return len(sel), span(sp, "{:.2f}"), median(sp), median(ceiling), kshare

    no, ro, mo, co, ko = plateau(original, "processing_ms")
    nu, ru, mu, cu, ku = plateau(rows, "kernel_ms")
    readme.value("saturation", (
        "On the GTX 970 the {} configurations with at least {:,} threads in the grid have speed-ups {} (median "
        "{:.2f}): the report's 1.6 is their median. On ours the same {} have {} (median {:.2f}): the speed-ups "
        "saturate, but at {:.1f}, not 1.6. Both plateaus are the ceiling that the copies set: with the kernel at "
        "most {:.1f}% (ours) and {:.1f}% (GTX 970) of the total, the speed-up is close to CPU time / copy time, "
        "median {:.2f} on ours and {:.2f} on the GTX 970; the spread around it is run-to-run noise of the CPU "
        "time and the input copy").format(no, BIG_GRID, ro, mo, nu, ru, mu, mu, ku, ko, cu, co))

    # "Grows linearly."
    def gains(sel):
        return ", ".join("{:+.2f}".format(f(b["speedup_gpu"]) - f(a["speedup_gpu"])) for a, b in zip(sel, sel[1:]))

    def per_thread(sel, col, var):
        prod = [f(r[col]) * (key(r)[0] * key(r)[1]) for r in sel]
        return 100.0 * (max(prod) / min(prod) - 1.0)

    readme.value("linear-threads", (
        "at 4 blocks each doubling of the threads adds {} to the speed-up on ours ({} on the GTX 970): linear "
        "in the thread count would mean gains that double at each step. The GTX 970's gains up to 256 threads "
        "are nearly equal per doubling: its speed-up grows linearly in log2(threads), not in the threads. "
        "Drawn over thread counts spaced evenly (32, 64, 128, ...), as a graph with one point per "
        "configuration is often drawn, that looks like a straight line; the report's graphs are not in "
        "its text, so how their axis was spaced cannot be checked. Ours are irregular (the run-to-run noise of the CPU time and of the "
        "copies, conclusion 3). What is linear is the kernel's speed: kernel time × threads is constant within {:.1f}% on ours "
        "({:.1f}% on the GTX 970), i.e. the kernel-only speed-up (right axis) is proportional to the "
        "threads").format(gains(l4), gains(o4), per_thread(l4, "kernel_ms", 0), per_thread(o4, "processing_ms", 0)))
    readme.value("linear-blocks", (
        "at 32 threads per block each step of the blocks (4 → 16 is ×4, then ×2) adds {} on ours ({} on the "
        "GTX 970), where growth linear in the blocks would double the gain at each doubling; kernel time "
        "× blocks is constant within {:.1f}% on ours ({:.1f}% on the GTX 970): again the kernel scales "
        "linearly, the speed-up with copies does not").format(
        gains(l32), gains(o32), per_thread(l32, "kernel_ms", 1), per_thread(o32, "processing_ms", 1)))



def copies_values(readme, rows):
    by = {(r["host_memory"], r["version"]): r for r in rows}
    pg, pn = by[("pageable", "single_pass")], by[("pinned", "single_pass")]
    rp = by[("pinned", "report")]
    pin_speedups = [f(r["speedup_gpu"]) for r in rows if r["host_memory"] == "pinned"]
    cpu_pg, cpu_pn = f(pg["cpu_ms"]), f(pn["cpu_ms"])
    readme.value("c1-pinned", (
        "Pinned memory does not change the conclusion: in `copies.csv` the input copy falls from {:.2f} ms "
        "({:.1f} GB/s) to {:.2f} ms ({:.1f} GB/s), {:.1f}× faster, and the total GPU time of `single_pass` from "
        "{:.2f} to {:.2f} ms, but the copies are still {:.1f}% of it ({:.1f}% for `report`), and the input copy "
        "is {:.0f}× the `single_pass` kernel ({:.4f} ms; {:.0f}× with pageable memory). The speed-up over the CPU "
        "rises from {:.1f} (pageable) to {} (pinned); {} of that rise is the CPU time, {:.1f} ms in the "
        "pageable run and {:.1f} ms in the pinned one").format(
        f(pg["input_ms"]), f(pg["h2d_GBps"]), f(pn["input_ms"]), f(pn["h2d_GBps"]),
        f(pg["input_ms"]) / f(pn["input_ms"]), f(pg["total_gpu_ms"]), f(pn["total_gpu_ms"]), copies_share(pn),
        copies_share(rp), f(pn["input_ms"]) / f(pn["kernel_ms"]), f(pn["kernel_ms"]),
        f(pg["input_ms"]) / f(pg["kernel_ms"]), f(pg["speedup_gpu"]), span(pin_speedups, "{:.1f}"),
        "a part ({:.0f}%)".format(100.0 * abs(cpu_pn / cpu_pg - 1.0)) if cpu_pn >= cpu_pg else
        "none (the CPU was {:.0f}% faster in the pinned run)".format(100.0 * (1.0 - cpu_pn / cpu_pg)),
        cpu_pg, cpu_pn))


def bench_values(readme, rows, copies):
    by = {(int(f(r["n"])), r["version"]): r for r in rows}
    small, large = 40960000, 268435456
    s, c = by[(small, "single_pass")], by[(small, "cub")]
    need = f(c["kernel_ms"]) / 1.05
    others = [f(r["speedup_vs_baseline"]) for r in copies if r["version"] == "single_pass"] if copies else []
    readme.value("bench-small", (
        "**{}.** `single_pass` {:.4f} ms, CUB {:.4f} ms: {:.3f}× CUB's speed (needed: ≤ {:.4f} ms{}). "
        "`single_pass` streams at {:.0f} GB/s, {:.1f}% of the device-to-device copy bandwidth measured in the "
        "same run ({:.0f} GB/s), CUB at {:.0f} GB/s ({:.1f}%)").format(
        target_word(s["speedup_vs_baseline"], ">=", 1.05), f(s["kernel_ms"]), f(c["kernel_ms"]), f(s["speedup_vs_baseline"]), need,
        "; the other runs at this size, in `copies.csv`, give " + " and ".join("{:.3f}×".format(x) for x in others)
        if others else "", f(s["bandwidth_GBps"]), f(s["pct_of_copy_bw"]), f(s["copy_bw_GBps"]),
        f(c["bandwidth_GBps"]), f(c["pct_of_copy_bw"])))
    s2, c2 = by[(large, "single_pass")], by[(large, "cub")]
    readme.value("bench-large", (
        "**{}.** {:.4f} ms vs {:.4f} ms, {:.3f}×; {:.0f} GB/s, {:.1f}% of the copy bandwidth ({:.0f} GB/s; a "
        "read-only stream can exceed a copy, which both reads and writes), CUB {:.0f} GB/s, {:.1f}%").format(
        target_word(s2["speedup_vs_baseline"], ">=", 0.97), f(s2["kernel_ms"]), f(c2["kernel_ms"]),
        f(s2["speedup_vs_baseline"]), f(s2["bandwidth_GBps"]), f(s2["pct_of_copy_bw"]), f(s2["copy_bw_GBps"]),
        f(c2["bandwidth_GBps"]), f(c2["pct_of_copy_bw"])))

    def fit(v):
        t1, t2 = f(by[(small, v)]["kernel_ms"]), f(by[(large, v)]["kernel_ms"])
        b1, b2 = 4.0 * small, 4.0 * large
        rate = (b2 - b1) / ((t2 - t1) * 1e-3) / 1e9  # GB/s
        fixed = t1 * 1e3 - b1 / (rate * 1e9) * 1e6  # us
        return fixed, rate

    fs, rs = fit("single_pass")
    fc, rc = fit("cub")
    readme.value("bench-fit", (
        "`single_pass` about {:.1f} µs of fixed cost and {:.0f} GB/s, CUB {:.1f} µs and {:.0f} GB/s").format(
        fs, rs, fc, rc))

    def nf(r):
        a, b = f(r["kernel_ms"]), f(r["kernel_ms_no_flush"])
        return "{:.4f} vs {:.4f} ms ({:+.1f} µs, {:+.1f}%)".format(b, a, (b - a) * 1e3, 100.0 * (b / a - 1.0))

    ratio = lambda n: f(by[(n, "cub")]["kernel_ms_no_flush"]) / f(by[(n, "single_pass")]["kernel_ms_no_flush"])
    readme.value("no-flush", (
        "`single_pass` {} and CUB {} at 40,960,000; `single_pass` {} and CUB {} at 2²⁸. Same-run ratios "
        "without the flush: {:.3f}× at 40,960,000, {:.3f}× at 2²⁸").format(
        nf(s), nf(c), nf(s2), nf(c2), ratio(small), ratio(large)))


TUNING_VARIANTS = (  # (variant of results/single_pass_tuning.csv, what it is)
    ("256x4 split0 load0 finish0 occ100", "256 threads, last-block finish (the first kernel)"),
    ("256x4 split0 load0 finish1 occ100", "its load phase alone (block maxima finished on the host, not a usable version)"),
    ("1024x4 split0 load0 finish0 occ100", "1024 threads, last-block finish"),
    ("1024x4 split0 load0 finish2 occ100", "1024 threads, one `atomicMax` of an order key per block: **the committed kernel**"),
)


def tuning_table(V, rows):
    def at(variants, n=N1, empty=None):
        xs = [f(r["speedup_vs_cub"]) for r in rows if r["variant"] in variants and int(f(r["n"])) == n]
        return span(xs, "{:.3f}") + "×" if xs or empty is None else empty

    V.readme.block("tuning-table", md_table(TUNING_VARIANTS, [
        (lambda t: t[1], "variant"), (lambda t: at((t[0],), N1, "—"), "speed vs CUB at 40,960,000"),
        (lambda t: at((t[0],), N2, "—"), "at 2²⁸")], rule="---"))
    V.value("tuning-rest", (
        "128 or 512 threads ({}), 2 or 8 float4 loads in flight per thread instead of 4 ({}, against {} for 4), "
        "a contiguous chunk per block instead of the grid-stride loop ({} with 1024 threads), loads with an L2 "
        "256-byte prefetch hint or evict-first ({}), half the resident blocks ({})").format(
        at(("128x4 split0 load0 finish0 occ100", "512x4 split0 load0 finish0 occ100", "512x4 split0 load0 finish2 occ100")),
        at(("1024x2 split0 load0 finish2 occ100", "1024x8 split0 load0 finish2 occ100")),
        at(("1024x4 split0 load0 finish2 occ100",)), at(("1024x4 split1 load0 finish2 occ100",)),
        at(("1024x4 split0 load1 finish2 occ100", "1024x4 split0 load2 finish2 occ100")),
        at(("256x4 split0 load0 finish0 occ50",))))


# ---- Nsight Compute counters (make profile) --------------------------------------------------
PROFILE_SIZES = (N1, N2)
DRAM_PCT = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
MAIN_KERNEL = {"sm_pct": "sm__throughput.avg.pct_of_peak_sustained_elapsed", "grid": "launch__grid_size",
               "occ": "sm__warps_active.avg.pct_of_peak_sustained_active", "block": "launch__block_size",
               "regs": "launch__registers_per_thread", "waves": "launch__waves_per_multiprocessor",
               "dram_pct": DRAM_PCT, "read": "dram__bytes_read.sum", "write": "dram__bytes_write.sum"}


def profile_summary(rows):
    """{(version, n): ...} with the kernels' summed time (us), DRAM bytes, the time-weighted DRAM
    throughput (% of peak) and the counters of the longest kernel; None where a value is missing."""
    out = {}
    for v in dict.fromkeys(r["version"] for r in rows):
        for n in PROFILE_SIZES:
            sel = [r for r in rows if r["version"] == v and r["n"] and int(f(r["n"])) == n]
            kernels = []
            for k in dict.fromkeys(r["kernel"] for r in sel):
                m = {r["metric"]: in_base_unit(f(r["value"]), r["unit"]) for r in sel if r["kernel"] == k}
                if "gpu__time_duration.sum" in m:
                    kernels.append(dict({x: m.get(name) for x, name in MAIN_KERNEL.items()},
                                        us=m["gpu__time_duration.sum"] * 1e-3))
            if not kernels:
                continue
            total = sum(k["us"] for k in kernels)
            known = lambda x: all(k[x] is not None for k in kernels)  # noqa: E731
            out[(v, n)] = {"kernels": kernels, "us": total, "main": max(kernels, key=lambda k: k["us"]),
                           "dram_pct": sum(k["dram_pct"] * k["us"] for k in kernels) / total
                           if known("dram_pct") and total > 0 else None,
                           "read": sum(k["read"] for k in kernels) if known("read") else None,
                           "write": sum(k["write"] for k in kernels) if known("write") else None,
                           "device": sel[0]["device"], "ncu": sel[0]["ncu_version"]}
    return out


def profile_section(V, rows):
    summary = profile_summary(rows)
    table = [dict(s, n=n, v=v) for n in PROFILE_SIZES for v in dict.fromkeys(r["version"] for r in rows)
             for s in [summary.get((v, n), {"missing": f"not in profile.csv {PROFILE}"})]]
    main = lambda name: (lambda s: s["main"][name] if "main" in s else None)  # noqa: E731
    text = md_table(table, [
        ("n", "N", "{:,}"), ("v", "version"), (lambda s: s.get("missing", len(s.get("kernels", []))), "kernels"),
        ("us", "time (µs)", "{:.1f}"), (lambda s: s.get("read") and s["read"] / 1e6, "DRAM read (MB)", "{:.1f}"),
        (lambda s: s.get("write") and s["write"] / 1e6, "DRAM written (MB)", "{:.2f}"),
        (lambda s: ((s["read"] or 0) + (s["write"] or 0)) / (s["us"] * 1e3) if s.get("read") is not None else None,
         "GB/s (ncu)", "{:.0f}"), ("dram_pct", "DRAM throughput (% of peak)", "{:.1f}"),
        (lambda s: "{} × {}".format(int(s["main"]["grid"]), int(s["main"]["block"]))
         if "main" in s and s["main"]["grid"] and s["main"]["block"] else "", "main kernel: grid × block"),
        (main("regs"), "registers", "{:.0f}"), (main("waves"), "waves per SM", "{:.2f}"),
        (main("occ"), "achieved occupancy (%)", "{:.1f}"), (main("sm_pct"), "SM throughput (%)", "{:.1f}")])
    any_s = next(iter(summary.values()), None)
    if any_s:
        text += "\n\n" + wrap(
            f"Nsight Compute {any_s['ncu']} on {any_s['device']}, `ncu --clock-control none`, caches flushed before "
            "each profiled kernel; one launch per version (CUB: its two kernels). DRAM throughput of a version with "
            "several kernels: their values weighted by their times. GB/s (ncu): DRAM bytes read + written / summed "
            "kernel time. Main kernel: the longest.")
    V.readme.block("profile-table", text)

    def pct(v, n):
        s = summary.get((v, n))
        return "{:.1f}%".format(s["dram_pct"]) if s and s["dram_pct"] is not None else PROFILE

    def threads(s):
        return int((s["main"]["grid"] or 0) * (s["main"]["block"] or 0))

    r, sp = summary.get(("report", N1)), summary.get(("single_pass", N1))
    launch = " ({} × {})".format(int(r["main"]["block"]), int(r["main"]["grid"])) \
        if r and r["main"]["grid"] and r["main"]["block"] else ""
    V.value("prof-dram", (
        "Nsight Compute measures the achieved DRAM throughput, as % of the device's peak: at N = 40,960,000 "
        "`report`{} {}, `single_pass` {}, CUB {}; at N = 2²⁸ {}, {} and {}").format(
        launch, pct("report", N1), pct("single_pass", N1), pct("cub", N1), pct("report", N2), pct("single_pass", N2),
        pct("cub", N2)))
    if r and r["read"] is not None and r["main"]["occ"] is not None and r["dram_pct"] is not None:
        low = bool(sp and sp["dram_pct"] and r["dram_pct"] < 0.75 * sp["dram_pct"])
        V.value("prof-report", (
            "The report's kernel reads {:.1f} MB from DRAM for the {:.1f} MB vector (each element once), with "
            "an achieved occupancy of {:.1f}% of the warp slots, and reaches {} of the DRAM peak").format(
            r["read"] / 1e6, 4.0 * N1 / 1e6, r["main"]["occ"], pct("report", N1))
            + ((": the sweep's best kernel time is not the GPU's limit. The counters do not say why by "
                "themselves; the likely cause is the bytes in flight: as written, each of its {:,} threads has "
                "one 4-byte load outstanding per iteration of its loop ({:.0f} KiB for the whole GPU), where "
                "each of `single_pass`'s {:,} threads has four 16-byte loads outstanding ({:.0f} KiB)").format(
                threads(r), threads(r) * 4 / 1024.0, threads(sp), threads(sp) * 64 / 1024.0)
               if low else ", close to `single_pass`'s {}".format(pct("single_pass", N1))))
    else:
        V.value("prof-report", "The counters of the report's kernel are not measured yet " + PROFILE)


# ---- the README's generated prose: whole paragraphs and list items ------------------------
CONCLUSIONS = (
    ('"The memory copying from host to device and from device to host is the dominant of the total '
     'time for GPU"', "holds, more strongly than on the GTX 970",
     "{c1-sweep} {c1-pinned}. **\"Parallel reduction can help reduce the data transferring\": holds only for "
     "the output, which was never the problem.** The reduction runs on the GPU, so {c1-output}. What shortens "
     "the transfer is pinned memory (above), or keeping the data on the GPU between computations; the kernel "
     "only ever reads the vector once (see the counters below)."),
    ('"When the number of blocks per grid is relatively small, it is better to increase the number of threads '
     'per block"', "holds", "{c2}."),
    ('"When the number of threads per block is small, it is better to increase the number of blocks per grid"',
     "holds", "{c3}."),
    ('"The three parameter settings of the greatest speed up ... The processing time of them is actually only '
     'less than 1.5 milliseconds and the IO has occupy about 96% of the total time for GPU"', "{top3-verdict}",
     "{top3}."),
    ('"For those configurations having more threads and blocks, their speed-ups have saturated to 1.6"',
     "the saturation holds, its level does not", "{saturation}."),
    ('"As the number of threads per block grows, GPU speed up also increases linearly" (and the same for '
     'blocks)', "does not hold on either GPU, for the speed-up with copies",
     "On both GPUs, {linear-threads}. Likewise {linear-blocks}."),
)


def prose_blocks(readme, values):
    sub = lambda text: fill(text, values)  # noqa: E731
    readme.block("results-device", wrap(sub(
        "The committed CSVs come from one run on {results-device}; the figures and the tables below were "
        "regenerated from them (device, driver and runtime are in every CSV row).")))
    readme.block("report-graphs", wrap(sub("The report's own numbers, as its graphs would draw them: {report-graphs}.")))
    readme.block("gtx-input", wrap(sub(
        "The GTX 970's input time was {gtx-input} (pageable, and most likely with the allocation, see the "
        "bugs above).")))
    items = [wrap(sub("**{}: {}.** {}".format(*c)), f"{i}. ") for i, c in enumerate(CONCLUSIONS, 1)]
    items.append(wrap(sub(
        "**What the counters say (Nsight Compute, `make profile`).** {prof-dram}. {prof-report}. Figure and "
        "table: [Counters](#counters-nsight-compute)."), f"{len(CONCLUSIONS) + 1}. "))
    readme.block("conclusions", wrap(sub(
        "All numbers below are generated from the committed CSVs by `tables.py` (N = 40,960,000 unless stated; the "
        "GTX 970's from the report's table); ratios are taken within one run; {sweep-ok}.")) + "\n\n" + "\n".join(items))
    readme.block("bench-targets", "\n".join([
        wrap(sub("**Targets of `single_pass`** (`bench.csv`, median of 20 runs, L2 flushed), on the GPU of "
                 "the committed run:")), "",
        wrap(sub("N = 40,960,000, `single_pass` kernel ≤ CUB's / 1.05: {bench-small}. A two-point fit of "
                 "time = fixed + bytes / rate over the two sizes (two medians only) gives {bench-fit}: the "
                 "lead is fixed cost (one launch, no second pass), so it shrinks as N grows."), "- "),
        wrap(sub("N = 2²⁸, `single_pass` ≥ 0.97 × CUB's speed: {bench-large}."), "- ")]))
    readme.block("tuning-rest", wrap(sub(
        "What did not help, at 40,960,000 (speed vs CUB over the two rounds): {tuning-rest}.")))
    readme.block("no-flush", wrap(sub(
        "**`kernel_ms` (L2 flushed) vs `kernel_ms_no_flush`.** Without the flush the kernels are not faster "
        "but slower (no flush vs flushed): {no-flush}.")))


def guarded(values, names, source, fn, *args):
    """fn(values, *args) sets the values `names`; numbers that cannot give them (an empty or zero
    cell, a missing row) leave a placeholder naming the CSV and the problem, rather than failing."""
    try:
        fn(values, *args)
    except (ArithmeticError, ValueError, KeyError, IndexError, TypeError) as e:
        text = "(not computable from {}: {} {})".format(source, type(e).__name__, e)
        print("tables.py: " + text)
        values.update({n: text for n in names if n not in values})


SWEEP_VALUES = ("results-device", "gtx-input", "report-graphs", "c1-sweep", "c1-output", "c2", "c3", "saturation",
                "linear-threads", "linear-blocks", "top3-verdict", "top3", "sweep-ok")
SECTIONS = (  # CSV, its values, the function that computes them, the placeholder while the CSV is missing
    ("sweep.csv", SWEEP_VALUES, lambda V, rows, csvs: sweep_values(
        V, [r for r in rows if r["version"] == "report"], ORIGINAL), RUN),
    ("copies.csv", ("c1-pinned",), lambda V, rows, csvs: copies_values(V, rows), RUN),
    ("bench.csv", ("bench-small", "bench-large", "bench-fit", "no-flush"),
     lambda V, rows, csvs: bench_values(V, rows, csvs["copies.csv"] or []), RUN),
    ("single_pass_tuning.csv", ("tuning-rest",), lambda V, rows, csvs: tuning_table(V, rows), TUNING_MISSING),
    ("profile.csv", ("prof-dram", "prof-report"), lambda V, rows, csvs: profile_section(V, rows), PROFILE))


def main(argv):
    results = os.path.abspath(argv[1]) if len(argv) > 1 else os.path.join(HERE, "results")
    readme = Readme(os.path.abspath(argv[2]) if len(argv) > 2 else os.path.join(HERE, "README.md"))
    csvs = {name: load(results, name) for name, _, _, _ in SECTIONS}
    order = sweep_order()
    sweep = sorted([r for r in csvs["sweep.csv"] or [] if r["version"] == "report"],
                   key=lambda r: order.get(key(r), len(order)))
    readme.tables([sweep_table(sweep, order)] + TABLES, results)
    readme.block("tuning-table", placeholder_table(["variant", "speed vs CUB at 40,960,000", "at 2²⁸"], TUNING_MISSING,
                                                   rule="---"))
    readme.block("profile-table", placeholder_table(["N", "version", "DRAM throughput (% of peak)"], PROFILE))
    values = Values()
    values.readme = readme
    for name, names, fn, missing in SECTIONS:
        if csvs[name] is not None:
            guarded(values, names, "results/" + name, fn, csvs[name], csvs)
        else:
            values.update({n: missing for n in names})
    prose_blocks(readme, values)
    readme.save()  # one atomic write, whatever was regenerated
    blocks = {"sweep.csv": "sweep-table", "copies.csv": "copies-table", "bench.csv": "bench-table",
              "single_pass_tuning.csv": "tuning-table", "profile.csv": "profile-table"}
    print("tables.py: updated " + (", ".join(blocks[n] for n in blocks if csvs[n] is not None) or "nothing")
          + " in " + readme.path + "; placeholders for the rest")


if __name__ == "__main__":
    main(sys.argv)
