"""vecmax's tables (README.md, DETAILS.md): results/ (H100), results/h200/, original/ (the report's); and the
lab's (experiments/README.md), from experiments/results/<gpu>/. `python3 tables.py` fills all three;
`python3 tables.py RESULTS_DIR --out FILE.md` writes the report's tables of one run."""
import os
import sys
from statistics import median
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from mdtables import Col, Row, Table, fill_docs, load, pivot, run  # noqa: E402

N1, N2, BIG = 40960000, 268435456, 16384  # the report's N, 2^28, "more threads and blocks" (grid)
F1, F2, F3, F4 = "{:.1f}", "{:.2f}", "{:.3f}", "{:.4f}"  # formats
M = dict(time="gpu__time_duration.sum", dram="dram__throughput.avg.pct_of_peak_sustained_elapsed",
         read="dram__bytes_read.sum", write="dram__bytes_write.sum")  # Nsight Compute's counters


def gtx(_):  # the report's table, its processing time under our column name
    return [Row(r, kernel_ms=r["processing_ms"]) for r in load(f"{HERE}/original", "report_000_gtx970.csv")]


def gpus(d):  # (GPU, its sweep rows): the report's, then ours (results/), then the H200's (results/h200/)
    ours = [load(d, "sweep.csv"), load(d, "h200/sweep.csv")]
    return [("GTX 970", gtx(d))] + [(r[0]["device"].replace("NVIDIA ", "").split()[0], r) for r in ours if r]


def copies(r):  # (input + output) as % of the total GPU time
    return 100 * (r.f("input_ms") + r.f("output_ms")) / r.f("total_gpu_ms")


def grid(r):  # threads in the grid
    return r.f("threads") * r.f("blocks")


def big(rows):  # the report's "configuration having more threads and blocks"
    return [r for r in rows if grid(r) >= BIG]


def spread(xs):  # (max - min) / min, in %
    return F1.format(100 * (max(xs) - min(xs)) / min(xs))


def over(value, fmt, pick=list, how="span"):  # a column (or function) over the rows: its range or median
    def f(rows):
        xs = [value(r) if callable(value) else r.f(value) for r in pick(rows)]
        return fmt.format(median(xs)) if how == "median" else fmt.format(min(xs)) + "–" + fmt.format(max(xs))
    return f


def by_gpu(quantities):  # one row per quantity, one column per GPU
    return lambda d: [Row({"quantity": q, **{g: f(rows) for g, rows in gpus(d)}}) for q, f in quantities.items()]


EVIDENCE = {
    "input (ms)": over("input_ms", F2), "output (ms)": over("output_ms", F4), "CPU (ms)": over("cpu_ms", F1),
    "copies (% of total GPU time)": over(copies, F1),
    "configurations with copies > 50 %": lambda rows: sum(copies(r) > 50 for r in rows),
    "one grid size: largest spread of processing (%)": lambda rows: max(
        spread([r.f("kernel_ms") for r in rows if grid(r) == g]) for g in map(grid, rows)),
    f"configurations of ≥ {BIG:,} threads": lambda rows: len(big(rows)),
    "their speed-ups": over("speedup_gpu", F2, big),
    "their median speed-up": over("speedup_gpu", F2, big, "median"),
    "their processing, at most (% of total)": lambda rows: F1.format(max(
        100 * r.f("kernel_ms") / r.f("total_gpu_ms") for r in big(rows))),
    "their CPU / (input + output), median": over(lambda r: r.f("cpu_ms") / (r.f("input_ms") + r.f("output_ms")),
                                                 F2, big, "median")}


def scaling(d):  # speed-up gained at each step along the report's two graphs; processing x grid
    out = []
    for fixed, value, vary in [("blocks", 4, "threads"), ("threads", 32, "blocks")]:
        per = {g: sorted([r for r in rows if r.f(fixed) == value], key=lambda r: r.f(vary)) for g, rows in gpus(d)}
        s0 = next(iter(per.values()))
        out += [Row({"step": f"{fixed} = {value}: {vary} {s0[i - 1][vary]} → {s0[i][vary]}", **{
            g: "{:+.2f}".format(s[i].f("speedup_gpu") - s[i - 1].f("speedup_gpu")) for g, s in per.items()}})
            for i in range(1, len(s0))]
        out.append(Row({"step": f"{fixed} = {value}: spread of processing × {vary} (%)",
                        **{g: spread([r.f("kernel_ms") * grid(r) for r in s]) for g, s in per.items()}}))
    return out


SIDE = [("processing (ms)", lambda r: r.f("kernel_ms"), "{:.3g}"), ("speed-up", lambda r: r.f("speedup_gpu"), F2),
        ("copies (%)", copies, F1)]


def side(d):  # the report's 30 configurations, one row each, with every GPU's numbers side by side
    runs = {(g, r["threads"], r["blocks"]): r for g, rows in gpus(d) for r in rows}
    keys = sorted({k[1:] for k in runs}, key=lambda k: (int(k[1]), int(k[0])))
    return [Row(threads=t, blocks=b, **{f"{k[0]} {h}": f(runs[k]) for h, f, _ in SIDE for k in runs
                                        if k[1:] == (t, b)}) for t, b in keys]


def profile(d):  # per (version, N): time and bytes summed over its kernels, DRAM % weighted by time
    rows, out = load(d, "profile.csv"), []
    for v, n in dict.fromkeys((r["version"], r["n"]) for r in rows):
        ks = pivot([r for r in rows if (r["version"], r["n"]) == (v, n)], "kernel", "metric", "value")
        t = sum(k.f(M["time"]) for k in ks)
        out.append(Row(max(ks, key=lambda k: k.f(M["time"])), version=v, n=n, kernels=len(ks), us=t / 1e3,
                       dram=sum(k.f(M["dram"]) * k.f(M["time"]) for k in ks) / t,
                       **{x: sum(k.f(M[x]) for k in ks) / 1e6 for x in ("read", "write")}))
    return sorted(out, key=lambda r: r.f("n"))


def tuning(d):  # one row per variant, its speed vs CUB over the rounds at each N (d: the lab's results)
    out = {}
    for r in load(d, "h100/single_pass_tuning.csv"):
        out.setdefault(r["variant"], Row(r)).setdefault(r["n"], []).append(r.f("speedup_vs_cub"))
    return list(out.values())


SWEEP = [Col("threads", "threads/block"), Col("blocks", "blocks/grid"), Col("input_ms", "input (ms)", F3),
         Col("kernel_ms", "processing (ms)", F4), Col("output_ms", "output (ms)", F4),
         Col("total_gpu_ms", "total GPU (ms)", F3), Col("cpu_ms", "CPU (ms)", F3),
         Col("speedup_gpu", "speed-up", F3), Col(copies, "copies (% of total)", F1)]
COPIES = [Col("n", "N", "{:,}"), Col("host_memory", "host memory"), Col("version"), *SWEEP[:3],
          Col("h2d_GBps", "host-to-device (GB/s)", F1), *SWEEP[3:]]
COPIES_README = [c for c in COPIES if c.heading not in ("N", "threads/block", "blocks/grid", "output (ms)")]
COPIES_CAPTION = "N, the launch and the output copy: `{}` (every column: DETAILS.md)."
BENCH = [Col("n", "N", "{:,}"), Col("version"), Col("blocks"), Col("kernel_ms", "kernel (ms), L2 flushed", F4),
         Col("kernel_ms_no_flush", "kernel (ms), no flush", F4), Col("bandwidth_GBps", "GB/s", "{:.0f}"),
         Col("copy_bw_GBps", "copy bw (GB/s)", "{:.0f}"), Col("pct_of_copy_bw", "% of copy bw", F1),
         Col("speedup_vs_baseline", "speed vs cub", F3), Col("result_ok", "ok")]
PROFILE = [Col("n", "N", "{:,}"), Col("version"), Col("kernels"), Col("us", "time (µs)", F1),
           Col("read", "DRAM read (MB)", F1), Col("write", "DRAM written (MB)", F2),
           Col("dram", "DRAM throughput (% of peak)", F1),
           Col(lambda r: f"{r['launch__grid_size']} × {r['launch__block_size']}", "grid × block"),
           Col("launch__registers_per_thread", "registers"), Col("launch__waves_per_multiprocessor", "waves", F2),
           Col("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy (%)", F1),
           Col("sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM throughput (%)", F1)]
TUNING = [Col("threads"), Col("unroll", "float4 in flight"),
          Col("split", "split", {"0": "grid-stride", "1": "chunk"}.get),
          Col("load", "load", {"0": "`__ldg`", "1": "L2 256 B prefetch", "2": "evict-first"}.get),
          Col("finish", "finish", {"0": "last block", "1": "none (host)", "2": "`atomicMax` key"}.get),
          Col("occupancy_pct", "blocks (% of resident)"), Col("grid"),
          *[Col(str(n), f"speed vs CUB, N = {n:,}", lambda xs: over(float, F3)(xs)) for n in (N1, N2)]]
TABLES = [
    Table("sweep-h100", "sweep.csv", SWEEP),
    Table("side", side, lambda rows: [Col("threads"), Col("blocks")] + [
        Col(k, k, fmt) for h, _, fmt in SIDE[:2] for k in rows[0] if k.endswith(h)],
          caption="Copies (% of total GPU time) per GPU: `results/sweep.csv`, `results/h200/sweep.csv`,\n"
                  "the report's table `original/report_000_gtx970.csv`."),
    Table("evidence", by_gpu(EVIDENCE), lambda rows: [Col(k) for k in rows[0]]),
    Table("top3", lambda d: [Row(r, gpu=g, rank=i + 1) for g, rows in gpus(d)
                             for i, r in enumerate(sorted(rows, key=lambda r: -r.f("speedup_gpu"))[:3])],
          [Col("gpu", "GPU"), Col("rank"), *SWEEP[:2], Col("kernel_ms", "processing (ms)", F2), SWEEP[-1], SWEEP[-2]]),
    Table("scaling", scaling, lambda rows: [Col(k) for k in rows[0]]),
    Table("copies-h100", "copies.csv", COPIES_README, caption=COPIES_CAPTION.format("results/copies.csv")),
    Table("copies-h200", "h200/copies.csv", COPIES_README, caption=COPIES_CAPTION.format("results/h200/copies.csv")),
    Table("copies-h100-full", "copies.csv", COPIES, caption="Every column of `results/copies.csv`."),
    Table("copies-h200-full", "h200/copies.csv", COPIES, caption="Every column of `results/h200/copies.csv`."),
    Table("sweep-h200", "h200/sweep.csv", SWEEP),
    Table("sweep-gtx970", gtx, SWEEP),
    Table("bench-h100", "bench.csv", BENCH),
    Table("bench-h200", "h200/bench.csv", BENCH),
    Table("profile", profile, PROFILE),
]
LAB_TABLES = [Table("tuning", tuning, TUNING)]  # experiments/README.md, from experiments/results/
if __name__ == "__main__":
    run(TABLES)
    if len(sys.argv) == 1:  # the committed documents: the lab's too
        fill_docs(LAB_TABLES, os.path.join(HERE, "experiments", "results"), os.path.join(HERE, "experiments"))
