#!/usr/bin/env python3
"""Fills vecmax/README.md's generated blocks from results/*.csv (make tables): the sweep beside
the report's GTX 970 numbers (original/report_000_gtx970.csv), the copies, the bench and its
targets, the single-pass tuning, the Nsight Compute counters, and every sentence that carries
a number. A CSV not there yet leaves a placeholder ("(run make report-run)", "(run make profile)").
    python3 tables.py [RESULTS_DIR [README]]"""
import os
import sys
from statistics import median

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from readme_tables import (TIME, NumRow, Readme, Table, bulleted, compare, fill, fill_blocks,  # noqa: E402
                           load, md_table, met, ncu_kernels, numbered, placeholder_table, ratio, read_csv,
                           section_values, span, verdict, wrap)

RUN, PROFILE = "(run make report-run)", "(run make profile)"
TUNING_MISSING = "(run bash experiments/run.sh on a GPU)"
N1, N2 = 40960000, 268435456  # the report's N and 2^28
BIG_GRID = 16384  # "configurations having more threads and blocks": at least 16k threads in the grid
# The report's "three parameter settings of the greatest speed up ... processing time ... only
# less than 1.5 milliseconds and the IO has occupy about 96% of the total time for GPU":
# "about 96%" is read as within one percentage point of 96.
TOP3_MS, TOP3_IO_PCT, TOP3_ABOUT = 1.5, 96.0, 1.0
# The report's table; its processing time is our kernel time.
ORIGINAL = [NumRow(r, kernel_ms=r["processing_ms"])
            for r in read_csv(os.path.join(HERE, "original", "report_000_gtx970.csv"), comments=True)]


def key(row):
    return (int(float(row["threads"])), int(float(row["blocks"])))


def shape(r):
    return "{} × {}".format(*key(r))


def grid(r):
    """The threads in the grid."""
    return key(r)[0] * key(r)[1]


def col(rows, name):
    return [float(r[name]) for r in rows]


def copies_share(r):
    return 100.0 * (float(r["input_ms"]) + float(r["output_ms"])) / float(r["total_gpu_ms"])


def top3(rows):
    return sorted(rows, key=lambda r: float(r["speedup_gpu"]), reverse=True)[:3]


def line(rows, i, value):
    """The configurations whose threads (i = 0) or blocks (i = 1) are `value`, along the other."""
    return sorted((r for r in rows if key(r)[i] == value), key=lambda r: key(r)[1 - i])


def sweep_order():
    """A row's place in sweep_configs.txt (the report's table, row by row)."""
    with open(os.path.join(HERE, "sweep_configs.txt")) as fh:
        configs = [tuple(map(int, x)) for x in (text.split("#", 1)[0].split() for text in fh) if len(x) == 2]
    return lambda r: configs.index(key(r)) if key(r) in configs else len(configs)


# ---- the tables ------------------------------------------------------------------------------
def time_split(*after_input):
    """The report's time split (sweep and copies tables); after_input: columns after the input copy."""
    return [("input_ms", "input (ms)", "{:.3f}"), *after_input, ("kernel_ms", "processing (ms)", "{:.4f}"),
            ("output_ms", "output (ms)", "{:.4f}"), ("total_gpu_ms", "total GPU (ms)", "{:.3f}"),
            ("cpu_ms", "CPU (ms)", "{:.3f}")]


def marked(rows, share):
    """The rows with their copies' share, and their speed-up marked "(top 3)" for the three best."""
    best = {key(r) for r in top3(rows)}
    return [dict(r, copies=share(r), top=key(r) in best,
                 speedup="{:.3f}".format(float(r["speedup_gpu"])) + " (top 3)" * (key(r) in best))
            for r in rows]


def sweep_rows(rows):
    """Ours, each beside the report's row of the same configuration (its columns: "GTX 970 " + name)."""
    orig = {key(r): {"GTX 970 " + k: v for k, v in r.items()} for r in marked(ORIGINAL, copies_share)}
    share = lambda r: copies_share(r) if float(r["total_gpu_ms"]) > 0 else float("nan")  # noqa: E731
    return [dict(r, **orig.get(key(r), {})) for r in marked(rows, share)]


GTX = (("input_ms", "input (ms)", "{:.2f}"), ("processing_ms", "processing (ms)", "{:.3f}"),
       ("output_ms", "output (ms)", "{:.3f}"), ("total_gpu_ms", "total (ms)", "{:.2f}"),
       ("cpu_ms", "CPU (ms)", "{:.2f}"), ("speedup", "speed-up"), ("copies", "copies (%)", "{:.1f}"))
TARGETS = {N1: ("single_pass kernel <= cub / 1.05", 1.05), N2: ("single_pass >= 0.97 x cub", 0.97)}


def bench_target(r):
    t = TARGETS.get(int(float(r["n"])))
    if r["version"] != "single_pass" or t is None:
        return ""
    return f"{t[0]}: {met(r['speedup_vs_baseline'], '>=', t[1])}"


TABLES = [
    Table("sweep-table", "sweep.csv", [
        ("threads", "threads/block"), ("blocks", "blocks/grid"), *time_split(), ("speedup", "speed-up"),
        ("copies", "copies (% of total)", "{:.1f}"), ("gpu_gflops", "GPU Gflops", "{:.1f}"),
        *[("GTX 970 " + k, "GTX 970 " + heading, *spec) for k, heading, *spec in GTX]],
        where={"version": "report"}, order=sweep_order(), rows=sweep_rows, bold=lambda r: r["top"],
        missing=placeholder_table(["threads/block", "blocks/grid"], RUN), note=lambda rows: (
            "N = {n}, {device} (driver {driver}, runtime {runtime}), {host_memory} host memory, median of "
            "{repeat} runs after {warmup} warm-ups; bold: our three best speed-ups. Every row: result_ok = "
            "{ok}.").format(**rows[0], ok="1" if all(r["result_ok"] == "1" for r in rows) else "NOT ALL 1")),
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
        note=lambda rows: "{device} (driver {driver}, runtime {runtime}); median of {repeat} runs after "
                          "{warmup} warm-ups.".format(**rows[0])),
]


# ---- the numbers of the prose: each section's function sets its values from its CSV ----------
def speedups(rows):
    return ", ".join("{:.2f}".format(r.speedup_gpu) for r in rows)


def gains(rows):
    return ", ".join("{:+.2f}".format(b.speedup_gpu - a.speedup_gpu) for a, b in zip(rows, rows[1:]))


def per_thread(rows):
    """How far kernel time × threads in the grid strays from constant (%)."""
    prod = [r.kernel_ms * grid(r) for r in rows]
    return 100.0 * (max(prod) / min(prod) - 1.0)


def top3_claim(rows):
    """The verdict on "processing under 1.5 ms, I/O about 96% of the GPU time" for the three best
    speed-ups, and their numbers."""
    best3 = top3(rows)
    io = [ratio(100.0 * (r.input_ms + r.output_ms), r["total_gpu_ms"]) for r in best3]
    slowest = max(r.kernel_ms for r in best3)
    about = None if None in io else compare(max(abs(x - TOP3_IO_PCT) for x in io), "<=", TOP3_ABOUT)
    detail = "; ".join("{}: {:.2f} ms, {}".format(shape(r), r.kernel_ms, "?" if x is None else f"{x:.1f}%")
                       for r, x in zip(best3, io))
    holds = None if about is None else slowest < TOP3_MS and about
    return verdict(holds, "a total GPU time is zero or missing"), detail


def plateau(rows):
    """The configurations of at least BIG_GRID threads: count, speed-ups (range, median), the median
    ceiling CPU time / copy time, and the largest share of the kernel in the total (%)."""
    sel = [r for r in rows if grid(r) >= BIG_GRID]
    sp, ceiling = col(sel, "speedup_gpu"), [r.cpu_ms / (r.input_ms + r.output_ms) for r in sel]
    kernel_share = max(100.0 * r.kernel_ms / r.total_gpu_ms for r in sel)
    return len(sel), span(sp, "{:.2f}"), median(sp), median(ceiling), kernel_share


def sweep_values(V, rows, csvs):
    """The conclusions' numbers from sweep.csv (ours) and the report's table (GTX 970)."""
    rows, orig = [NumRow(r) for r in rows if r["version"] == "report"], {key(r): r for r in ORIGINAL}
    o4, o32, big_o = line(ORIGINAL, 1, 4), line(ORIGINAL, 0, 32), [r for r in ORIGINAL if grid(r) >= BIG_GRID]
    V["report-graphs"] = (
        f"at 4 blocks the speed-up rose from {o4[0].speedup_gpu:.2f} (32 threads) to "
        f"{o4[-1].speedup_gpu:.2f} (1024 threads); at 32 threads per block from {o32[0].speedup_gpu:.2f} (4 "
        f"blocks) to {o32[-1].speedup_gpu:.2f} (128 blocks); the processing time fell from "
        f"{orig[(32, 4)].kernel_ms:.0f} ms (32 × 4) to {span(col(big_o, 'kernel_ms'), '{:.1f}')} ms (≥ "
        f"{BIG_GRID:,} threads in the grid), where the copies took "
        f"{span([copies_share(r) for r in big_o], '{:.0f}')}% of the total GPU time")
    r0 = rows[0]
    V["results-device"] = f"an {r0['device']} (driver {r0['driver']}, CUDA runtime {r0['runtime']})"
    mb = 4.0 * r0.n / 1e6
    V["gtx-input"] = (f"{span(col(ORIGINAL, 'input_ms'), '{:.1f}')} ms for {mb:.0f} MB "
                      f"({span([mb / r.input_ms for r in ORIGINAL], '{:.1f}')} GB/s)")

    # Conclusion 1: copies dominate.
    shares = {key(r): copies_share(r) for r in rows}
    minority = sorted((k for k, v in shares.items() if v <= 50.0), key=lambda k: k[0] * k[1])
    top, inputs = max(rows, key=grid), col(rows, "input_ms")
    V["c1-sweep"] = (
        f"In the sweep the copies are more than half of the total GPU time in {len(shares) - len(minority)} "
        f"of the {len(shares)} configurations" + (
            f" (the exceptions are the smallest grids, {', '.join('{} × {}'.format(*k) for k in minority)}, "
            f"at {span([shares[k] for k in minority], '{:.1f}')}%)" if minority else "")
        + f" and {shares[key(top)]:.1f}% at {shape(top)} (GTX 970: "
        f"{copies_share(orig[key(top)]) if key(top) in orig else float('nan'):.1f}%). The pageable input "
        f"copy takes {span(inputs, '{:.1f}')} ms (median {median(inputs):.1f} ms, about "
        f"{mb / median(inputs):.1f} GB/s) while the kernel takes {top.kernel_ms:.3f} ms at {shape(top)}.")
    blocks = max(key(r)[1] for r in rows)
    V["c1-output"] = (
        f"the block maxima that come back are at most {blocks} floats ({4 * blocks} bytes) instead of "
        f"{int(r0.n):,}, and copying them (with the host's final maximum) takes "
        f"{span(col(rows, 'output_ms'), '{:.4f}')} ms, at most "
        f"{max(100.0 * r.output_ms / r.total_gpu_ms for r in rows):.2f}% of the total GPU time; but the "
        f"input, {mb:.0f} MB, crosses the bus whole whatever the kernel does ({span(inputs, '{:.1f}')} ms). "
        f"The report's own output time, {span(col(ORIGINAL, 'output_ms'), '{:.2f}')} ms in every "
        "configuration, cannot be the copy of at most 128 floats either (see the bugs above)")

    # Conclusion 2: at 4 blocks, more threads.
    l4, l32 = line(rows, 1, 4), line(rows, 0, 32)
    V["c2"] = (
        f"At 4 blocks the kernel time halves with every doubling of the block, from {l4[0].kernel_ms:.2f} ms "
        f"(32 threads) to {l4[-1].kernel_ms:.2f} ms (1024 threads, {l4[0].kernel_ms / l4[-1].kernel_ms:.1f}× "
        f"for 32× the threads), and the speed-up goes {speedups(l4)} (GTX 970: {speedups(o4)}); it rises "
        f"more slowly at the top because the copies become {copies_share(l4[-1]):.1f}% of the total")

    # Conclusion 3: at 32 threads, more blocks; time depends on threads x blocks only.
    by_grid = {g: [r.kernel_ms for r in rows if grid(r) == g] for g in map(grid, rows)}
    worst = max(max(v) / min(v) - 1.0 for v in by_grid.values())
    bw = 4.0 * top.n / (top.kernel_ms * 1e6)
    big = [r for r in rows if grid(r) >= BIG_GRID]
    first, second = top3(rows)[:2]
    V["c3"] = (
        f"At 32 threads per block the speed-up goes {speedups(l32)} for 4, 16, 32, 64, 128 blocks (kernel "
        f"{l32[0].kernel_ms:.2f} to {l32[-1].kernel_ms:.2f} ms). Both graphs show one effect: the kernel "
        "time depends only on the number of threads in the grid (every configuration with the same threads "
        f"× blocks is within {100.0 * worst:.1f}% of the others), and it halves with each doubling up to the "
        f"largest grid, {grid(top):,} threads ({top.kernel_ms:.3f} ms, {bw:.0f} GB/s, "
        f"{100.0 * bw / top.copy_bw_GBps:.1f}% of the copy bandwidth). From {BIG_GRID:,} threads on, the "
        f"kernel is at most {100.0 * max(r.kernel_ms / r.total_gpu_ms for r in big):.1f}% of the total and "
        f"the speed-ups are {span(col(big, 'speedup_gpu'), '{:.2f}')}: their ranking is set by the "
        f"run-to-run spread of the CPU time ({span(col(rows, 'cpu_ms'), '{:.1f}')} ms) and of the input copy "
        f"({span(inputs, '{:.1f}')} ms), not by the kernel ({shape(first)} is first with an input copy of "
        f"{first.input_ms:.1f} ms and a CPU time of {first.cpu_ms:.1f} ms; {shape(second)} second with "
        f"{second.input_ms:.1f} and {second.cpu_ms:.1f} ms)")

    (v_orig, d_orig), (v_ours, d_ours) = top3_claim(ORIGINAL), top3_claim(rows)
    V["top3-verdict"] = f"{v_ours} on ours ({v_orig} on the GTX 970)"
    V["top3"] = (
        f"(\"About {TOP3_IO_PCT:.0f}%\" is read as within {TOP3_ABOUT:.0f} percentage point.) Processing "
        "time and copies (input + output, as % of the total GPU time) of the three best speed-ups: on the "
        f"GTX 970 {d_orig}; on ours {d_ours}. Which three configurations come first on ours is set by the "
        "run-to-run spread of the CPU time and the input copy, not by the kernel (conclusion 3)")
    ok = all(r["result_ok"] == "1" and r.rel_error == 0.0 for r in rows)
    V["sweep-ok"] = ("every" if ok else "NOT every") + " row has `result_ok` = 1 and `rel_error` = 0"

    # "Speed-ups saturate to 1.6."
    (no, ro, mo, co, ko), (nu, ru, mu, cu, ku) = plateau(ORIGINAL), plateau(rows)
    V["saturation"] = (
        f"On the GTX 970 the {no} configurations with at least {BIG_GRID:,} threads in the grid have "
        f"speed-ups {ro} (median {mo:.2f}): the report's 1.6 is their median. On ours the same {nu} have "
        f"{ru} (median {mu:.2f}): the speed-ups saturate, but at {mu:.1f}, not 1.6. Both plateaus are the "
        f"ceiling that the copies set: with the kernel at most {ku:.1f}% (ours) and {ko:.1f}% (GTX 970) of "
        f"the total, the speed-up is close to CPU time / copy time, median {cu:.2f} on ours and {co:.2f} on "
        "the GTX 970; the spread around it is run-to-run noise of the CPU time and the input copy")

    # "Grows linearly."
    V["linear-threads"] = (
        f"at 4 blocks each doubling of the threads adds {gains(l4)} to the speed-up on ours ({gains(o4)} on "
        "the GTX 970): linear in the thread count would mean gains that double at each step. The GTX 970's "
        "gains up to 256 threads are nearly equal per doubling: its speed-up grows linearly in "
        "log2(threads), not in the threads. Drawn over thread counts spaced evenly (32, 64, 128, ...), as a "
        "graph with one point per configuration is often drawn, that looks like a straight line; the "
        "report's graphs are not in its text, so how their axis was spaced cannot be checked. Ours are "
        "irregular (the run-to-run noise of the CPU time and of the copies, conclusion 3). What is linear "
        f"is the kernel's speed: kernel time × threads is constant within {per_thread(l4):.1f}% on ours "
        f"({per_thread(o4):.1f}% on the GTX 970), i.e. the kernel-only speed-up (right axis) is proportional "
        "to the threads")
    V["linear-blocks"] = (
        f"at 32 threads per block each step of the blocks (4 → 16 is ×4, then ×2) adds {gains(l32)} on ours "
        f"({gains(o32)} on the GTX 970), where growth linear in the blocks would double the gain at each "
        f"doubling; kernel time × blocks is constant within {per_thread(l32):.1f}% on ours "
        f"({per_thread(o32):.1f}% on the GTX 970): again the kernel scales linearly, the speed-up with "
        "copies does not")


def copies_values(V, rows, csvs):
    by = {(r["host_memory"], r["version"]): NumRow(r) for r in rows}
    pg, pn, rp = by[("pageable", "single_pass")], by[("pinned", "single_pass")], by[("pinned", "report")]
    V["c1-pinned"] = (
        "Pinned memory does not change the conclusion: in `copies.csv` the input copy falls from "
        f"{pg.input_ms:.2f} ms ({pg.h2d_GBps:.1f} GB/s) to {pn.input_ms:.2f} ms ({pn.h2d_GBps:.1f} GB/s), "
        f"{pg.input_ms / pn.input_ms:.1f}× faster, and the total GPU time of `single_pass` from "
        f"{pg.total_gpu_ms:.2f} to {pn.total_gpu_ms:.2f} ms, but the copies are still "
        f"{copies_share(pn):.1f}% of it ({copies_share(rp):.1f}% for `report`), and the input copy is "
        f"{pn.input_ms / pn.kernel_ms:.0f}× the `single_pass` kernel ({pn.kernel_ms:.4f} ms; "
        f"{pg.input_ms / pg.kernel_ms:.0f}× with pageable memory). The speed-up over the CPU rises from "
        f"{pg.speedup_gpu:.1f} (pageable) to "
        f"{span(col([r for r in rows if r['host_memory'] == 'pinned'], 'speedup_gpu'), '{:.1f}')} (pinned); "
        + (f"a part ({100.0 * abs(pn.cpu_ms / pg.cpu_ms - 1.0):.0f}%)" if pn.cpu_ms >= pg.cpu_ms else
           f"none (the CPU was {100.0 * (1.0 - pn.cpu_ms / pg.cpu_ms):.0f}% faster in the pinned run)")
        + f" of that rise is the CPU time, {pg.cpu_ms:.1f} ms in the pageable run and {pn.cpu_ms:.1f} ms in "
        "the pinned one")


def bench_values(V, rows, csvs):
    by = {(int(float(r["n"])), r["version"]): NumRow(r) for r in rows}
    s, c = by[(N1, "single_pass")], by[(N1, "cub")]
    others = col([r for r in csvs["copies.csv"] or [] if r["version"] == s["version"]], "speedup_vs_baseline")
    V["bench-small"] = (
        f"**{met(s['speedup_vs_baseline'], '>=', 1.05)}.** `single_pass` {s.kernel_ms:.4f} ms, CUB "
        f"{c.kernel_ms:.4f} ms: {s.speedup_vs_baseline:.3f}× CUB's speed "
        f"(needed: ≤ {c.kernel_ms / 1.05:.4f} ms"
        + ("; the other runs at this size, in `copies.csv`, give " + " and ".join(f"{x:.3f}×" for x in others)
           if others else "")
        + f"). `single_pass` streams at {s.bandwidth_GBps:.0f} GB/s, {s.pct_of_copy_bw:.1f}% of the "
        f"device-to-device copy bandwidth measured in the same run ({s.copy_bw_GBps:.0f} GB/s), CUB at "
        f"{c.bandwidth_GBps:.0f} GB/s ({c.pct_of_copy_bw:.1f}%)")
    s2, c2 = by[(N2, "single_pass")], by[(N2, "cub")]
    V["bench-large"] = (
        f"**{met(s2['speedup_vs_baseline'], '>=', 0.97)}.** {s2.kernel_ms:.4f} ms vs {c2.kernel_ms:.4f} ms, "
        f"{s2.speedup_vs_baseline:.3f}×; {s2.bandwidth_GBps:.0f} GB/s, {s2.pct_of_copy_bw:.1f}% of the copy "
        f"bandwidth ({s2.copy_bw_GBps:.0f} GB/s; a read-only stream can exceed a copy, which both reads and "
        f"writes), CUB {c2.bandwidth_GBps:.0f} GB/s, {c2.pct_of_copy_bw:.1f}%")

    def fit(v):  # time = fixed + bytes / rate through both sizes: fixed (µs), rate (GB/s)
        t1, t2 = by[(N1, v)].kernel_ms, by[(N2, v)].kernel_ms
        rate = 4.0 * (N2 - N1) / ((t2 - t1) * 1e-3) / 1e9
        return t1 * 1e3 - 4.0 * N1 / (rate * 1e9) * 1e6, rate

    (fs, rs), (fc, rc) = fit("single_pass"), fit("cub")
    V["bench-fit"] = (f"`single_pass` about {fs:.1f} µs of fixed cost and {rs:.0f} GB/s, CUB {fc:.1f} µs and "
                      f"{rc:.0f} GB/s")

    def nf(r):
        a, b = r.kernel_ms, r.kernel_ms_no_flush
        return f"{b:.4f} vs {a:.4f} ms ({(b - a) * 1e3:+.1f} µs, {100.0 * (b / a - 1.0):+.1f}%)"

    V["no-flush"] = (
        f"`single_pass` {nf(s)} and CUB {nf(c)} at 40,960,000; `single_pass` {nf(s2)} and CUB {nf(c2)} at "
        f"2²⁸. Same-run ratios without the flush: {c.kernel_ms_no_flush / s.kernel_ms_no_flush:.3f}× at "
        f"40,960,000, {c2.kernel_ms_no_flush / s2.kernel_ms_no_flush:.3f}× at 2²⁸")


TUNING_VARIANTS = {  # variant of results/single_pass_tuning.csv: what it is
    "256x4 split0 load0 finish0 occ100": "256 threads, last-block finish (the first kernel)",
    "256x4 split0 load0 finish1 occ100":
        "its load phase alone (block maxima finished on the host, not a usable version)",
    "1024x4 split0 load0 finish0 occ100": "1024 threads, last-block finish",
    "1024x4 split0 load0 finish2 occ100":
        "1024 threads, one `atomicMax` of an order key per block: **the committed kernel**",
}
TUNING_HEADINGS = ["variant", "speed vs CUB at 40,960,000", "at 2²⁸"]


def tuning_values(V, rows, csvs):
    def at(n, *variants, empty=None):
        xs = col([r for r in rows if r["variant"] in variants and int(float(r["n"])) == n], "speedup_vs_cub")
        return span(xs, "{:.3f}") + "×" if xs or empty is None else empty

    V["tuning-table"] = md_table(
        [(d, at(N1, v, empty="—"), at(N2, v, empty="—")) for v, d in TUNING_VARIANTS.items()],
        [(lambda t, i=i: t[i], h) for i, h in enumerate(TUNING_HEADINGS)], rule="---")
    V["tuning-rest"] = (
        "128 or 512 threads ({}), 2 or 8 float4 loads in flight per thread instead of 4 ({}, against {} for "
        "4), a contiguous chunk per block instead of the grid-stride loop ({} with 1024 threads), loads with "
        "an L2 256-byte prefetch hint or evict-first ({}), half the resident blocks ({})").format(*[
            at(N1, *group.split(", ")) for group in (
                "128x4 split0 load0 finish0 occ100, 512x4 split0 load0 finish0 occ100, "
                "512x4 split0 load0 finish2 occ100",
                "1024x2 split0 load0 finish2 occ100, 1024x8 split0 load0 finish2 occ100",
                "1024x4 split0 load0 finish2 occ100", "1024x4 split1 load0 finish2 occ100",
                "1024x4 split0 load1 finish2 occ100, 1024x4 split0 load2 finish2 occ100",
                "256x4 split0 load0 finish0 occ50")])


# ---- Nsight Compute counters (make profile) --------------------------------------------------
MAIN_KERNEL = {"sm_pct": "sm__throughput.avg.pct_of_peak_sustained_elapsed", "grid": "launch__grid_size",
               "occ": "sm__warps_active.avg.pct_of_peak_sustained_active", "block": "launch__block_size",
               "regs": "launch__registers_per_thread", "waves": "launch__waves_per_multiprocessor",
               "dram_pct": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
               "read": "dram__bytes_read.sum", "write": "dram__bytes_write.sum"}
PROFILE_COLUMNS = [
    ("n", "N", "{:,}"), ("v", "version"), "kernels", ("us", "time (µs)", "{:.1f}"),
    ("read", "DRAM read (MB)", lambda x: f"{x / 1e6:.1f}"),
    ("write", "DRAM written (MB)", lambda x: f"{x / 1e6:.2f}"),
    (lambda s: (s["read"] + (s["write"] or 0)) / (s["us"] * 1e3) if s.get("read") is not None else None,
     "GB/s (ncu)", "{:.0f}"), ("dram_pct", "DRAM throughput (% of peak)", "{:.1f}"),
    (lambda s: "{} × {}".format(int(s["grid"]), int(s["block"])) if s.get("grid") and s.get("block") else "",
     "main kernel: grid × block"), ("regs", "registers", "{:.0f}"), ("waves", "waves per SM", "{:.2f}"),
    ("occ", "achieved occupancy (%)", "{:.1f}"), ("sm_pct", "SM throughput (%)", "{:.1f}")]


def profile_summary(rows):
    """{(version, n): summary} at N1 and N2, versions in the CSV's order: the counters of MAIN_KERNEL
    (None where not measured) of the longest kernel, with `kernels` (how many have a time), `us` (their
    summed time, µs), `device` and `ncu`; DRAM bytes summed over the kernels, the DRAM throughput
    weighted by their times. A (version, n) without a timed kernel is left out."""
    by = ncu_kernels(rows, lambda r: (r["version"], r["n"] and int(float(r["n"]))))
    out = {}
    for v in dict.fromkeys(r["version"] for r in rows):
        for n in (N1, N2):
            ks = [dict({x: k.get(metric) for x, metric in MAIN_KERNEL.items()}, us=k[TIME] * 1e-3)
                  for k in by.get((v, n), {}).values() if TIME in k]
            if not ks:
                continue
            us, first = sum(k["us"] for k in ks), next(iter(by[v, n].values()))
            s = dict(max(ks, key=lambda k: k["us"]), kernels=len(ks), us=us, device=first["device"],
                     ncu=first["ncu_version"])
            for x in ("read", "write"):
                s[x] = None if any(k[x] is None for k in ks) else sum(k[x] for k in ks)
            known = us > 0 and all(k["dram_pct"] is not None for k in ks)
            s["dram_pct"] = sum(k["dram_pct"] * k["us"] for k in ks) / us if known else None
            out[(v, n)] = s
    return out


def profile_values(V, rows, csvs):
    summary = profile_summary(rows)
    missing = {"kernels": f"not in profile.csv {PROFILE}"}
    V["profile-table"] = md_table([dict(summary.get((v, n), missing), n=n, v=v) for n in (N1, N2)
                                   for v in dict.fromkeys(r["version"] for r in rows)], PROFILE_COLUMNS)
    if summary:
        s = next(iter(summary.values()))
        V["profile-table"] += "\n\n" + wrap(
            f"Nsight Compute {s['ncu']} on {s['device']}, `ncu --clock-control none`, caches flushed before "
            "each profiled kernel; one launch per version (CUB: its two kernels). DRAM throughput of a "
            "version with several kernels: their values weighted by their times. GB/s (ncu): DRAM bytes "
            "read + written / summed kernel time. Main kernel: the longest.")

    def pct(v, n):
        s = summary.get((v, n))
        return "{:.1f}%".format(s["dram_pct"]) if s and s["dram_pct"] is not None else PROFILE

    def threads(s):
        return int((s["grid"] or 0) * (s["block"] or 0))

    r, sp = summary.get(("report", N1)), summary.get(("single_pass", N1))
    launch = " ({} × {})".format(int(r["block"]), int(r["grid"])) if r and r["grid"] and r["block"] else ""
    V["prof-dram"] = (
        "Nsight Compute measures the achieved DRAM throughput, as % of the device's peak: at N = 40,960,000 "
        f"`report`{launch} {pct('report', N1)}, `single_pass` {pct('single_pass', N1)}, CUB "
        f"{pct('cub', N1)}; at N = 2²⁸ {pct('report', N2)}, {pct('single_pass', N2)} and {pct('cub', N2)}")
    if not (r and r["read"] is not None and r["occ"] is not None and r["dram_pct"] is not None):
        V["prof-report"] = "The counters of the report's kernel are not measured yet " + PROFILE
        return
    low = sp and sp["dram_pct"] and r["dram_pct"] < 0.75 * sp["dram_pct"]
    V["prof-report"] = (
        f"The report's kernel reads {r['read'] / 1e6:.1f} MB from DRAM for the {4.0 * N1 / 1e6:.1f} MB "
        f"vector (each element once), with an achieved occupancy of {r['occ']:.1f}% of the warp slots, and "
        f"reaches {pct('report', N1)} of the DRAM peak") + (
        ": the sweep's best kernel time is not the GPU's limit. The counters do not say why by themselves; "
        f"the likely cause is the bytes in flight: as written, each of its {threads(r):,} threads has one "
        f"4-byte load outstanding per iteration of its loop ({threads(r) * 4 / 1024.0:.0f} KiB for the whole "
        f"GPU), where each of `single_pass`'s {threads(sp):,} threads has four 16-byte loads outstanding "
        f"({threads(sp) * 64 / 1024.0:.0f} KiB)" if low
        else f", close to `single_pass`'s {pct('single_pass', N1)}")


# ---- the README's generated prose: whole paragraphs and list items ------------------------
PARAGRAPHS = {  # README block: its text, with the values above in braces
    "results-device": "The committed CSVs come from one run on {results-device}; the figures and the tables "
                      "below were regenerated from them (device, driver and runtime are in every CSV row).",
    "report-graphs": "The report's own numbers, as its graphs would draw them: {report-graphs}.",
    "gtx-input": "The GTX 970's input time was {gtx-input} (pageable, and most likely with the allocation, "
                 "see the bugs above).",
    "tuning-rest": "What did not help, at 40,960,000 (speed vs CUB over the two rounds): {tuning-rest}.",
    "no-flush": "**`kernel_ms` (L2 flushed) vs `kernel_ms_no_flush`.** Without the flush the kernels are not "
                "faster but slower (no flush vs flushed): {no-flush}.",
}
CONCLUSIONS = [  # the report's claims and their verdicts, then the counters: one list item each
    "**\"The memory copying from host to device and from device to host is the dominant of the total time "
    "for GPU\": holds, more strongly than on the GTX 970.** {c1-sweep} {c1-pinned}. **\"Parallel reduction "
    "can help reduce the data transferring\": holds only for the output, which was never the problem.** The "
    "reduction runs on the GPU, so {c1-output}. What shortens the transfer is pinned memory (above), or "
    "keeping the data on the GPU between computations; the kernel only ever reads the vector once (see the "
    "counters below).",
    "**\"When the number of blocks per grid is relatively small, it is better to increase the number of "
    "threads per block\": holds.** {c2}.",
    "**\"When the number of threads per block is small, it is better to increase the number of blocks per "
    "grid\": holds.** {c3}.",
    "**\"The three parameter settings of the greatest speed up ... The processing time of them is actually "
    "only less than 1.5 milliseconds and the IO has occupy about 96% of the total time for GPU\": "
    "{top3-verdict}.** {top3}.",
    "**\"For those configurations having more threads and blocks, their speed-ups have saturated to 1.6\": "
    "the saturation holds, its level does not.** {saturation}.",
    "**\"As the number of threads per block grows, GPU speed up also increases linearly\" (and the same for "
    "blocks): does not hold on either GPU, for the speed-up with copies.** On both GPUs, {linear-threads}. "
    "Likewise {linear-blocks}.",
    "**What the counters say (Nsight Compute, `make profile`).** {prof-dram}. {prof-report}. Figure and "
    "table: [Counters](#counters-nsight-compute).",
]
SECTIONS = (  # CSV, the values its function sets, their text while the CSV is missing
    ("sweep.csv", ("results-device", "gtx-input", "report-graphs", "c1-sweep", "c1-output", "c2", "c3",
                   "saturation", "linear-threads", "linear-blocks", "top3-verdict", "top3", "sweep-ok"),
     sweep_values, RUN),
    ("copies.csv", ("c1-pinned",), copies_values, RUN),
    ("bench.csv", ("bench-small", "bench-large", "bench-fit", "no-flush"), bench_values, RUN),
    ("single_pass_tuning.csv", ("tuning-rest",), tuning_values, TUNING_MISSING),
    ("profile.csv", ("prof-dram", "prof-report"), profile_values, PROFILE))


def main(argv):
    results = os.path.abspath(argv[1]) if len(argv) > 1 else os.path.join(HERE, "results")
    readme = Readme(os.path.abspath(argv[2]) if len(argv) > 2 else os.path.join(HERE, "README.md"))
    readme.tables(TABLES, results)
    csvs = {name: load(results, name) for name, *_ in SECTIONS}

    def section(name, names, fn, missing):  # fn(V, rows, csvs) sets the names from CSV `name`'s rows
        def values():
            if csvs[name] is None:
                raise LookupError(name)
            V = {}
            fn(V, csvs[name], csvs)
            return V
        return names, values, missing
    V = section_values([section(*s) for s in SECTIONS], {  # a section's tables: placeholders until it runs
        "tuning-table": placeholder_table(TUNING_HEADINGS, TUNING_MISSING, rule="---"),
        "profile-table": placeholder_table(["N", "version", "DRAM throughput (% of peak)"], PROFILE)})
    fill_blocks(readme, PARAGRAPHS, V)
    for block in ("tuning-table", "profile-table"):
        readme.block(block, V[block])
    readme.block("conclusions", numbered([fill(t, V) for t in CONCLUSIONS], fill(
        "All numbers below are generated from the committed CSVs by `tables.py` (N = 40,960,000 unless "
        "stated; the GTX 970's from the report's table); ratios are taken within one run; {sweep-ok}.", V)))
    readme.block("bench-targets", bulleted([fill(t, V) for t in (
        "N = 40,960,000, `single_pass` kernel ≤ CUB's / 1.05: {bench-small}. A two-point fit of time = "
        "fixed + bytes / rate over the two sizes (two medians only) gives {bench-fit}: the lead is fixed "
        "cost (one launch, no second pass), so it shrinks as N grows.",
        "N = 2²⁸, `single_pass` ≥ 0.97 × CUB's speed: {bench-large}.")],
        "**Targets of `single_pass`** (`bench.csv`, median of 20 runs, L2 flushed), on the GPU of the "
        "committed run:"))
    readme.save()  # one atomic write, whatever was regenerated
    blocks = {t.csv: t.block for t in TABLES}
    blocks.update({"single_pass_tuning.csv": "tuning-table", "profile.csv": "profile-table"})
    found = ", ".join(b for name, b in blocks.items() if csvs[name] is not None)
    print(f"tables.py: updated {found or 'nothing'} in {readme.path}; placeholders for the rest")


if __name__ == "__main__":
    main(sys.argv)
