#!/usr/bin/env python3
"""Regenerates the tables of vecmax/README.md from results/*.csv (make tables / make plots).

    sweep-table   results/sweep.csv (version=report rows) beside the report's GTX 970 numbers
                  (original/report_000_gtx970.csv); the three best speed-ups in bold
    copies-table  results/copies.csv: pageable vs pinned host memory
    bench-table   results/bench.csv: single_pass vs cub at N = 40,960,000 and 2^28, with the targets
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
from readme_tables import Readme, md_table, read_csv  # noqa: E402

README = os.path.join(HERE, "README.md")


def path(*parts):
    return os.path.join(HERE, *parts)


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


def sweep_table(readme):
    rows = [r for r in read_csv(path("results", "sweep.csv")) if r["version"] == "report"]
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
        ("input_ms", "input (ms)", "{:.3f}"),
        ("kernel_ms", "processing (ms)", "{:.4f}"),
        ("output_ms", "output (ms)", "{:.4f}"),
        ("total_gpu_ms", "total GPU (ms)", "{:.3f}"),
        ("cpu_ms", "CPU (ms)", "{:.3f}"),
        (ours_speedup, "speed-up", "{}"),
        (copies_pct, "copies (% of total)", "{:.1f}"),
        ("gpu_gflops", "GPU Gflops", "{:.1f}"),
        (orig("processing_ms", "{:.3f}"), "GTX 970 processing (ms)", "{}"),
        (orig("total_gpu_ms", "{:.2f}"), "GTX 970 total (ms)", "{}"),
        (orig("speedup_gpu", "{:.3f}"), "GTX 970 speed-up", "{}"),
        (orig_copies_pct, "GTX 970 copies (%)", "{}"),
    ]
    text = md_table(rows, columns, bold=lambda r: key(r) in best_keys)
    if rows:
        r0 = rows[0]
        text += ("\n\nN = {n}, {device} (driver {driver}, runtime {runtime}), {host_memory} host memory, "
                 "median of {repeat} runs after {warmup} warm-ups; bold: our three best speed-ups. "
                 "Every row: result_ok = {ok}.").format(
            n=r0["n"], device=r0["device"], driver=r0["driver"], runtime=r0["runtime"],
            host_memory=r0["host_memory"], repeat=r0["repeat"], warmup=r0["warmup"],
            ok="1" if all(r["result_ok"] == "1" for r in rows) else "NOT ALL 1")
    readme.block("sweep-table", text)


def copies_table(readme):
    rows = read_csv(path("results", "copies.csv"))
    columns = [
        ("host_memory", "host memory", "{}"),
        ("version", "version", "{}"),
        ("threads", "threads", "{}"),
        ("blocks", "blocks", "{}"),
        ("input_ms", "input (ms)", "{:.3f}"),
        ("h2d_GBps", "host-to-device (GB/s)", "{:.1f}"),
        ("kernel_ms", "processing (ms)", "{:.4f}"),
        ("output_ms", "output (ms)", "{:.4f}"),
        ("total_gpu_ms", "total GPU (ms)", "{:.3f}"),
        ("cpu_ms", "CPU (ms)", "{:.3f}"),
        ("speedup_gpu", "speed-up", "{:.3f}"),
        ("result_ok", "ok", "{}"),
    ]
    readme.block("copies-table", md_table(rows, columns))


def bench_table(readme):
    rows = read_csv(path("results", "bench.csv"))
    targets = {40960000: ("single_pass kernel <= cub / 1.05", 1.05), 268435456: ("single_pass >= 0.97 x cub", 0.97)}

    def target(r):
        if r["version"] != "single_pass":
            return ""
        t = targets.get(int(float(r["n"])))
        if t is None:
            return ""
        met = float(r["speedup_vs_baseline"]) >= t[1]
        return "{}: {}".format(t[0], "met" if met else "MISSED")

    columns = [
        ("n", "N", "{}"),
        ("version", "version", "{}"),
        ("threads", "threads", "{}"),
        ("blocks", "blocks", "{}"),
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
        text += "\n\n{} (driver {}, runtime {}); median of {} runs after {} warm-ups.".format(
            rows[0]["device"], rows[0]["driver"], rows[0]["runtime"], rows[0]["repeat"], rows[0]["warmup"])
    readme.block("bench-table", text)


def main():
    readme = Readme(README)
    done = []
    for name, csv_name, fn in (("sweep-table", "sweep.csv", sweep_table),
                               ("copies-table", "copies.csv", copies_table),
                               ("bench-table", "bench.csv", bench_table)):
        if os.path.exists(path("results", csv_name)):
            fn(readme)
            done.append(name)
        else:
            print("tables.py: results/{} not found, {} left as it is".format(csv_name, name))
    readme.save()  # one atomic write, whatever was regenerated
    print("tables.py: updated " + (", ".join(done) if done else "nothing") + " in README.md")


if __name__ == "__main__":
    main()
