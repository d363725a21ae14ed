#!/usr/bin/env python3
"""Regenerates the tables of vecmax/README.md from results/*.csv (make tables / make plots).

    sweep-table   results/sweep.csv (version=report rows) beside the report's GTX 970 numbers
                  (original/report_000_gtx970.csv); the three best speed-ups in bold
    copies-table  results/copies.csv: pageable vs pinned host memory
    bench-table   results/bench.csv: single_pass vs cub at N = 40,960,000 and 2^28, with the targets
    tuning-table  results/single_pass_tuning.csv: the single-pass variants that made the committed kernel
    profile-table results/profile.csv (make profile): Nsight Compute's counters of every version
and every sentence of the README that carries a number from results, as whole generated
paragraphs and list items (blocks, composed by prose_blocks() from the values the functions
below compute). A CSV that does not exist yet leaves a placeholder row or text, "(run make
report-run)" or "(run make profile)", rather than failing.

    python3 tables.py [RESULTS_DIR [README]]     (default: results/ and README.md next to it)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from readme_tables import Readme, compare, md_table, ratio, read_csv, verdict, wrap  # noqa: E402

README = os.path.join(HERE, "README.md")
RESULTS = os.path.join(HERE, "results")
RUN = "(run make report-run)"
PROFILE = "(run make profile)"


def path(*parts):
    return os.path.join(HERE, *parts)


def result(name):
    return os.path.join(RESULTS, name)


def read_commented_csv(p):
    """A CSV whose leading lines may be '#' comments."""
    import csv
    with open(p, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def sweep_order():
    order = []
    with open(path("sweep_configs.txt")) as f:
        for line in f:
            fields = line.split("#", 1)[0].split()
            if len(fields) == 2:
                order.append((int(fields[0]), int(fields[1])))
    return order


def key(row):
    return (int(float(row["threads"])), int(float(row["blocks"])))


def time_split_columns(*after_input):
    """The report's time split, as its table has it (the sweep and copies tables): the input
    copy, processing, output copy, total GPU and CPU times; `after_input` columns stand right
    after the input copy (the copies table's host-to-device bandwidth)."""
    return [
        ("input_ms", "input (ms)", "{:.3f}"),
        *after_input,
        ("kernel_ms", "processing (ms)", "{:.4f}"),
        ("output_ms", "output (ms)", "{:.4f}"),
        ("total_gpu_ms", "total GPU (ms)", "{:.3f}"),
        ("cpu_ms", "CPU (ms)", "{:.3f}"),
    ]


def sweep_table(readme):
    rows = [r for r in read_csv(result("sweep.csv")) if r["version"] == "report"]
    original = {key(r): r for r in read_commented_csv(path("original", "report_000_gtx970.csv"))}
    order = {k: i for i, k in enumerate(sweep_order())}
    rows.sort(key=lambda r: order.get(key(r), len(order)))
    best = sorted(rows, key=lambda r: float(r["speedup_gpu"]), reverse=True)[:3]
    best_keys = {key(r) for r in best}
    orig_best = sorted(original.values(), key=lambda r: float(r["speedup_gpu"]), reverse=True)[:3]
    orig_best_keys = {key(r) for r in orig_best}

    def copies_pct(r):
        total = float(r["total_gpu_ms"])
        return 100.0 * (float(r["input_ms"]) + float(r["output_ms"])) / total if total > 0 else float("nan")

    def orig(field, fmt):
        def get(r):
            o = original.get(key(r))
            if o is None:
                return ""
            text = fmt.format(float(o[field]))
            if field == "speedup_gpu" and key(r) in orig_best_keys:
                text += " (top 3)"
            return text
        return get

    def orig_copies_pct(r):
        o = original.get(key(r))
        if o is None:
            return ""
        return "{:.1f}".format(100.0 * (float(o["input_ms"]) + float(o["output_ms"])) / float(o["total_gpu_ms"]))

    def ours_speedup(r):
        text = "{:.3f}".format(float(r["speedup_gpu"]))
        return text + " (top 3)" if key(r) in best_keys else text

    columns = [
        ("threads", "threads/block", "{}"),
        ("blocks", "blocks/grid", "{}"),
        *time_split_columns(),
        (ours_speedup, "speed-up", "{}"),
        (copies_pct, "copies (% of total)", "{:.1f}"),
        ("gpu_gflops", "GPU Gflops", "{:.1f}"),
        (orig("input_ms", "{:.2f}"), "GTX 970 input (ms)", "{}"),
        (orig("processing_ms", "{:.3f}"), "GTX 970 processing (ms)", "{}"),
        (orig("output_ms", "{:.3f}"), "GTX 970 output (ms)", "{}"),
        (orig("total_gpu_ms", "{:.2f}"), "GTX 970 total (ms)", "{}"),
        (orig("cpu_ms", "{:.2f}"), "GTX 970 CPU (ms)", "{}"),
        (orig("speedup_gpu", "{:.3f}"), "GTX 970 speed-up", "{}"),
        (orig_copies_pct, "GTX 970 copies (%)", "{}"),
    ]
    text = md_table(rows, columns, bold=lambda r: key(r) in best_keys)
    if rows:
        r0 = rows[0]
        text += "\n\n" + wrap(("N = {n}, {device} (driver {driver}, runtime {runtime}), {host_memory} host memory, "
                 "median of {repeat} runs after {warmup} warm-ups; bold: our three best speed-ups. "
                 "Every row: result_ok = {ok}.").format(
            n=r0["n"], device=r0["device"], driver=r0["driver"], runtime=r0["runtime"],
            host_memory=r0["host_memory"], repeat=r0["repeat"], warmup=r0["warmup"],
            ok="1" if all(r["result_ok"] == "1" for r in rows) else "NOT ALL 1"))
    readme.block("sweep-table", text)


def copies_table(readme):
    rows = read_csv(result("copies.csv"))
    columns = [
        ("host_memory", "host memory", "{}"),
        "version",
        "threads",
        "blocks",
        *time_split_columns(("h2d_GBps", "host-to-device (GB/s)", "{:.1f}")),
        ("speedup_gpu", "speed-up", "{:.3f}"),
        ("result_ok", "ok", "{}"),
    ]
    readme.block("copies-table", md_table(rows, columns))


def target_word(x, op, threshold):
    """"met" / "MISSED" for a measured speed ratio (a CSV cell); an empty or missing one is
    no measurement and meets nothing (compare() keeps None)."""
    held = compare(ratio(x, 1.0), op, threshold)
    return "not measurable (empty cell)" if held is None else ("met" if held else "MISSED")


def bench_table(readme):
    rows = read_csv(result("bench.csv"))
    targets = {40960000: ("single_pass kernel <= cub / 1.05", 1.05), 268435456: ("single_pass >= 0.97 x cub", 0.97)}

    def target(r):
        if r["version"] != "single_pass":
            return ""
        t = targets.get(int(float(r["n"])))
        if t is None:
            return ""
        return "{}: {}".format(t[0], target_word(r["speedup_vs_baseline"], ">=", t[1]))

    columns = [
        ("n", "N", "{}"),
        "version",
        "threads",
        "blocks",
        ("kernel_ms", "kernel (ms), L2 flushed", "{:.4f}"),
        ("kernel_ms_no_flush", "kernel (ms), no flush", "{:.4f}"),
        ("bandwidth_GBps", "GB/s", "{:.0f}"),
        ("pct_of_copy_bw", "% of copy bw", "{:.1f}"),
        ("copy_bw_GBps", "copy bw (GB/s)", "{:.0f}"),
        ("baseline_ms", "cub (ms)", "{:.4f}"),
        ("speedup_vs_baseline", "speed vs cub", "{:.3f}"),
        (target, "target", "{}"),
        ("result_ok", "ok", "{}"),
    ]
    text = md_table(rows, columns)
    if rows:
        text += "\n\n" + wrap("{} (driver {}, runtime {}); median of {} runs after {} warm-ups.".format(
            rows[0]["device"], rows[0]["driver"], rows[0]["runtime"], rows[0]["repeat"], rows[0]["warmup"]))
    readme.block("bench-table", text)


# ---- numbers of the README's prose (value markers) ---------------------------------------

def f(x):
    return float(x)


def median(xs):
    xs = sorted(xs)
    k = len(xs)
    return (xs[(k - 1) // 2] + xs[k // 2]) / 2.0


def shape(r):
    return "{} × {}".format(int(f(r["threads"])), int(f(r["blocks"])))


def span(xs, fmt="{:.2f}", sep="–"):
    lo, hi = min(xs), max(xs)
    return fmt.format(lo) if fmt.format(lo) == fmt.format(hi) else fmt.format(lo) + sep + fmt.format(hi)


def copies_share(r):
    return 100.0 * (f(r["input_ms"]) + f(r["output_ms"])) / f(r["total_gpu_ms"])


BIG_GRID = 16384  # "configurations having more threads and blocks": at least 16k threads in the grid

SWEEP_VALUES = ("results-device", "gtx-input", "report-graphs", "c1-sweep", "c1-output", "c2", "c3", "saturation",
                "linear-threads", "linear-blocks", "top3-verdict", "top3", "sweep-ok")

# The report's "three parameter settings of the greatest speed up ... processing time ... only
# less than 1.5 milliseconds and the IO has occupy about 96% of the total time for GPU":
# "about 96%" is read as within one percentage point of 96.
TOP3_MS, TOP3_IO_PCT, TOP3_ABOUT = 1.5, 96.0, 1.0


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
        span([f(r["speedup_gpu"]) for r in big]), span(cpus, "{:.1f}"), span(inputs, "{:.1f}"),
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
        return len(sel), span(sp), median(sp), median(ceiling), kshare

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


COPIES_VALUES = ("c1-pinned",)


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


BENCH_VALUES = ("bench-small", "bench-large", "bench-fit", "no-flush")


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


def tuning_table(readme, rows):
    def rng(variant, n):
        xs = [f(r["speedup_vs_cub"]) for r in rows if r["variant"] == variant and int(f(r["n"])) == n]
        return span(xs, "{:.3f}") + "×" if xs else "—"

    lines = ["| variant | speed vs CUB at 40,960,000 | at 2²⁸ |", "| --- | --- | --- |"]
    for variant, what in TUNING_VARIANTS:
        lines.append("| {} | {} | {} |".format(what, rng(variant, 40960000), rng(variant, 268435456)))
    readme.block("tuning-table", "\n".join(lines))

    def at(pattern, n=40960000):
        xs = [f(r["speedup_vs_cub"]) for r in rows if r["variant"] in pattern and int(f(r["n"])) == n]
        return span(xs, "{:.3f}") + "×"

    readme.value("tuning-rest", (
        "128 or 512 threads ({}), 2 or 8 float4 loads in flight per thread instead of 4 ({}, against {} for 4), "
        "a contiguous chunk per block instead of the grid-stride loop ({} with 1024 threads), loads with an L2 "
        "256-byte prefetch hint or evict-first ({}), half the resident blocks ({})").format(
        at(("128x4 split0 load0 finish0 occ100", "512x4 split0 load0 finish0 occ100", "512x4 split0 load0 finish2 occ100")),
        at(("1024x2 split0 load0 finish2 occ100", "1024x8 split0 load0 finish2 occ100")),
        at(("1024x4 split0 load0 finish2 occ100",)),
        at(("1024x4 split1 load0 finish2 occ100",)),
        at(("1024x4 split0 load1 finish2 occ100", "1024x4 split0 load2 finish2 occ100")),
        at(("256x4 split0 load0 finish0 occ50",))))


# ---- Nsight Compute counters (make profile) --------------------------------------------------

PROFILE_VERSIONS = ("report", "single_pass", "cub")
PROFILE_SIZES = (40960000, 268435456)
DRAM_PCT = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
TIME_TO_US = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3, "second": 1e6,
              "s": 1e6}
BYTES = {"byte": 1.0, "B": 1.0, "Kbyte": 1e3, "KB": 1e3, "Mbyte": 1e6, "MB": 1e6, "Gbyte": 1e9, "GB": 1e9}
PROFILE_VALUES = ("prof-dram", "prof-report")


def profile_summary(rows):
    """{(version, n): {...}} with the kernels' summed time (us), DRAM bytes, the time-weighted DRAM
    throughput (% of peak) and the counters of the longest kernel; None where a value is missing."""
    out = {}
    for v in PROFILE_VERSIONS:
        for n in PROFILE_SIZES:
            sel = [r for r in rows if r["version"] == v and r["n"] and int(f(r["n"])) == n]
            kernels = []
            for k in dict.fromkeys(r["kernel"] for r in sel):
                m = {r["metric"]: r for r in sel if r["kernel"] == k}
                t = m.get("gpu__time_duration.sum")
                if t is None or t["unit"] not in TIME_TO_US:
                    continue
                us = f(t["value"]) * TIME_TO_US[t["unit"]]

                def get(name, scale=None):
                    r = m.get(name)
                    if r is None:
                        return None
                    if scale is not None:
                        return f(r["value"]) * scale.get(r["unit"], float("nan"))
                    return f(r["value"])

                kernels.append({"kernel": k, "us": us, "dram_pct": get(DRAM_PCT),
                                "read": get("dram__bytes_read.sum", BYTES), "write": get("dram__bytes_write.sum", BYTES),
                                "sm_pct": get("sm__throughput.avg.pct_of_peak_sustained_elapsed"),
                                "occ": get("sm__warps_active.avg.pct_of_peak_sustained_active"),
                                "grid": get("launch__grid_size"), "block": get("launch__block_size"),
                                "regs": get("launch__registers_per_thread"),
                                "waves": get("launch__waves_per_multiprocessor")})
            if not kernels:
                continue
            total = sum(k["us"] for k in kernels)
            main_k = max(kernels, key=lambda k: k["us"])
            weighted = (sum(k["dram_pct"] * k["us"] for k in kernels) / total
                        if all(k["dram_pct"] is not None for k in kernels) and total > 0 else None)
            read = sum(k["read"] for k in kernels) if all(k["read"] is not None for k in kernels) else None
            write = sum(k["write"] for k in kernels) if all(k["write"] is not None for k in kernels) else None
            out[(v, n)] = {"kernels": kernels, "us": total, "dram_pct": weighted, "read": read, "write": write,
                           "main": main_k, "device": sel[0]["device"], "ncu": sel[0]["ncu_version"]}
    return out


def profile_section(readme, rows):
    summary = profile_summary(rows)

    def o(x, fmt):
        return "" if x is None else fmt.format(x)

    lines = ["| N | version | kernels | time (µs) | DRAM read (MB) | DRAM written (MB) | GB/s (ncu) | DRAM throughput (% of peak) | main kernel: grid × block | registers | waves per SM | achieved occupancy (%) | SM throughput (%) |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for n in PROFILE_SIZES:
        for v in PROFILE_VERSIONS:
            s = summary.get((v, n))
            if s is None:
                lines.append("| {:,} | {} | not in profile.csv {} |  |  |  |  |  |  |  |  |  |  |".format(n, v, PROFILE))
                continue
            m = s["main"]
            gbps = ((s["read"] or 0) + (s["write"] or 0)) / (s["us"] * 1e3) if s["read"] is not None else None
            lines.append("| {:,} | {} | {} | {:.1f} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                n, v, len(s["kernels"]), s["us"], o(s["read"] and s["read"] / 1e6, "{:.1f}"),
                o(s["write"] and s["write"] / 1e6, "{:.2f}"), o(gbps, "{:.0f}"), o(s["dram_pct"], "{:.1f}"),
                "{} × {}".format(int(m["grid"]), int(m["block"])) if m["grid"] and m["block"] else "",
                o(m["regs"], "{:.0f}"), o(m["waves"], "{:.2f}"), o(m["occ"], "{:.1f}"), o(m["sm_pct"], "{:.1f}")))
    any_s = next(iter(summary.values()), None)
    if any_s:
        lines.append("")
        lines.append(wrap(("Nsight Compute {} on {}, `ncu --clock-control none`, caches flushed before each profiled "
                           "kernel; one launch per version (CUB: its two kernels). DRAM throughput of a version with "
                           "several kernels: their values weighted by their times. GB/s (ncu): DRAM bytes read + "
                           "written / summed kernel time. Main kernel: the longest.").format(any_s["ncu"],
                                                                                             any_s["device"])))
    readme.block("profile-table", "\n".join(lines))

    def pct(v, n):
        s = summary.get((v, n))
        return "{:.1f}%".format(s["dram_pct"]) if s and s["dram_pct"] is not None else PROFILE

    def launch(v, n):
        s = summary.get((v, n))
        if not s or not s["main"]["grid"] or not s["main"]["block"]:
            return ""
        return " ({} × {})".format(int(s["main"]["block"]), int(s["main"]["grid"]))

    readme.value("prof-dram", (
        "Nsight Compute measures the achieved DRAM throughput, as % of the device's peak: at N = 40,960,000 "
        "`report`{} {}, `single_pass` {}, CUB {}; at N = 2²⁸ {}, {} and {}").format(
        launch("report", 40960000), pct("report", 40960000), pct("single_pass", 40960000), pct("cub", 40960000),
        pct("report", 268435456), pct("single_pass", 268435456), pct("cub", 268435456)))
    def threads(s):
        return int((s["main"]["grid"] or 0) * (s["main"]["block"] or 0))

    r = summary.get(("report", 40960000))
    sp = summary.get(("single_pass", 40960000))
    if r and r["read"] is not None and r["main"]["occ"] is not None and r["dram_pct"] is not None:
        low = bool(sp and sp["dram_pct"] and r["dram_pct"] < 0.75 * sp["dram_pct"])
        readme.value("prof-report", (
            "The report's kernel reads {:.1f} MB from DRAM for the {:.1f} MB vector (each element once), with "
            "an achieved occupancy of {:.1f}% of the warp slots, and reaches {} of the DRAM peak").format(
            r["read"] / 1e6, 4.0 * 40960000 / 1e6, r["main"]["occ"], pct("report", 40960000))
            + ((": the sweep's best kernel time is not the GPU's limit. The counters do not say why by "
                "themselves; the likely cause is the bytes in flight: as written, each of its {:,} threads has "
                "one 4-byte load outstanding per iteration of its loop ({:.0f} KiB for the whole GPU), where "
                "each of `single_pass`'s {:,} threads has four 16-byte loads outstanding ({:.0f} KiB)").format(
                threads(r), threads(r) * 4 / 1024.0, threads(sp), threads(sp) * 64 / 1024.0)
               if low else ", close to `single_pass`'s {}".format(pct("single_pass", 40960000))))
    else:
        readme.value("prof-report", "The counters of the report's kernel are not measured yet " + PROFILE)


# ---- the README's generated prose: whole paragraphs and list items ------------------------

class Prose:
    """Collects the values the functions above compute (value(name, text), as Readme.value
    would set a marker); prose_blocks() then writes them into the README as whole generated
    paragraphs (blocks), wrapped at 100 characters, rather than as markers inside sentences."""

    def __init__(self, readme):
        self.readme = readme
        self.values = {}
        self.set_values = set()

    def value(self, name, text):
        self.values[name] = str(text)
        self.set_values.add(name)

    def block(self, name, text):
        self.readme.block(name, text)


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


def prose_blocks(prose):
    import re

    def sub(text):  # {name}: the value computed for name
        return re.sub(r"\{([\w-]+)\}", lambda m: prose.values[m.group(1)], text)

    r = prose.readme
    r.block("results-device", wrap(sub(
        "The committed CSVs come from one run on {results-device}; the figures and the tables below were "
        "regenerated from them (device, driver and runtime are in every CSV row).")))
    r.block("report-graphs", wrap(sub("The report's own numbers, as its graphs would draw them: {report-graphs}.")))
    r.block("gtx-input", wrap(sub(
        "The GTX 970's input time was {gtx-input} (pageable, and most likely with the allocation, see the "
        "bugs above).")))
    items = [wrap(sub("All numbers below are generated from the committed CSVs by `tables.py` (N = 40,960,000 "
                      "unless stated; the GTX 970's from the report's table); ratios are taken within one run; "
                      "{sweep-ok}."))]
    for i, (claim, word, body) in enumerate(CONCLUSIONS, 1):
        items.append(wrap(sub("**{}: {}.** {}".format(claim, word, body)), "{}. ".format(i)))
    items.append(wrap(sub(
        "**What the counters say (Nsight Compute, `make profile`).** {prof-dram}. {prof-report}. Figure and "
        "table: [Counters](#counters-nsight-compute)."), "{}. ".format(len(CONCLUSIONS) + 1)))
    r.block("conclusions", "\n".join(items[:1]) + "\n\n" + "\n".join(items[1:]))
    r.block("bench-targets", "\n".join([
        wrap(sub("**Targets of `single_pass`** (`bench.csv`, median of 20 runs, L2 flushed), on the GPU of "
                 "the committed run:")),
        "",
        wrap(sub("N = 40,960,000, `single_pass` kernel ≤ CUB's / 1.05: {bench-small}. A two-point fit of "
                 "time = fixed + bytes / rate over the two sizes (two medians only) gives {bench-fit}: the "
                 "lead is fixed cost (one launch, no second pass), so it shrinks as N grows."), "- "),
        wrap(sub("N = 2²⁸, `single_pass` ≥ 0.97 × CUB's speed: {bench-large}."), "- ")]))
    r.block("tuning-rest", wrap(sub(
        "What did not help, at 40,960,000 (speed vs CUB over the two rounds): {tuning-rest}.")))
    r.block("no-flush", wrap(sub(
        "**`kernel_ms` (L2 flushed) vs `kernel_ms_no_flush`.** Without the flush the kernels are not faster "
        "but slower (no flush vs flushed): {no-flush}.")))

def placeholders(readme, names, text):
    for name in names:
        readme.value(name, text)


def guarded(readme, names, source, fn, *args):
    """fn(readme, *args) sets the value markers `names`; a CSV whose numbers cannot give them (an
    empty or zero cell, a missing row) leaves a placeholder naming the CSV and the problem
    for the markers not set yet, rather than failing."""
    try:
        fn(readme, *args)
    except (ArithmeticError, ValueError, KeyError, IndexError, TypeError) as e:
        text = "(not computable from {}: {} {})".format(source, type(e).__name__, e)
        print("tables.py: " + text)
        placeholders(readme, [n for n in names if n not in readme.set_values], text)


def main(argv):
    global RESULTS
    if len(argv) > 1:
        RESULTS = os.path.abspath(argv[1])
    readme = Prose(Readme(os.path.abspath(argv[2]) if len(argv) > 2 else README))
    original = read_commented_csv(path("original", "report_000_gtx970.csv"))
    done = []

    def have(name):
        return os.path.exists(result(name))

    def section(csv_name, block, values, fill, missing, empty_table):
        """The block and value markers fed by results/<csv_name>: fill() where the CSV exists,
        else `empty_table` (its header and one row) and `missing` in every marker."""
        if have(csv_name):
            fill()
            done.append(block)
        else:
            readme.block(block, empty_table)
            placeholders(readme, values, missing)

    def sweep():
        sweep_table(readme)
        rows = [r for r in read_csv(result("sweep.csv")) if r["version"] == "report"]
        guarded(readme, SWEEP_VALUES, "results/sweep.csv", sweep_values, rows, original)

    def copies():
        copies_table(readme)
        guarded(readme, COPIES_VALUES, "results/copies.csv", copies_values, read_csv(result("copies.csv")))

    def bench():
        bench_table(readme)
        guarded(readme, BENCH_VALUES, "results/bench.csv", bench_values, read_csv(result("bench.csv")),
                read_csv(result("copies.csv")) if have("copies.csv") else [])

    tuning_missing = "(run bash experiments/run.sh on a GPU)"
    section("sweep.csv", "sweep-table", SWEEP_VALUES, sweep, RUN,
            "| threads/block | blocks/grid |\n| ---: | ---: |\n| " + RUN + " |  |")
    section("copies.csv", "copies-table", COPIES_VALUES, copies, RUN,
            "| host memory | version |\n| ---: | ---: |\n| " + RUN + " |  |")
    section("bench.csv", "bench-table", BENCH_VALUES, bench, RUN,
            "| N | version |\n| ---: | ---: |\n| " + RUN + " |  |")
    section("single_pass_tuning.csv", "tuning-table", ("tuning-rest",),
            lambda: guarded(readme, ("tuning-rest",), "results/single_pass_tuning.csv", tuning_table,
                            read_csv(result("single_pass_tuning.csv"))),
            tuning_missing,
            "| variant | speed vs CUB at 40,960,000 | at 2²⁸ |\n| --- | --- | --- |\n| " + tuning_missing + " |  |  |")
    section("profile.csv", "profile-table", PROFILE_VALUES,
            lambda: guarded(readme, PROFILE_VALUES, "results/profile.csv", profile_section,
                            read_csv(result("profile.csv"))),
            PROFILE, "| N | version | DRAM throughput (% of peak) |\n| ---: | ---: | ---: |\n| " + PROFILE + " |  |  |")
    prose_blocks(readme)
    readme.readme.save()  # one atomic write, whatever was regenerated
    print("tables.py: updated " + (", ".join(done) if done else "nothing") + " in " + readme.readme.path
          + "; placeholders for the rest")


if __name__ == "__main__":
    main(sys.argv)
