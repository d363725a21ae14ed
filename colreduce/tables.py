#!/usr/bin/env python3
"""colreduce's tables: declarations over common/py/mdtables.py (python3 tables.py [RESULTS_DIR])."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common", "py"))
from mdtables import Col, Row, Table, load, run  # noqa: E402

GPUS = ["", "h200"]  # the reference runs: results/ (H100) and results/h200/


def ms(x):  # 4 decimals below 1 ms, 3 below 100 ms, 1 above
    x = float(x)
    return f"{x:.4f}" if x < 1 else (f"{x:.3f}" if x < 100 else f"{x:.1f}")


def by_size(sub=""):  # one Row per size: m, n, cpu_ms, context_ms and "version:column" of every row
    def rows(d):
        out = {}
        for r in load(os.path.join(d, sub), "colreduce.csv"):
            row = out.setdefault(r["config_index"], Row(m=r["m"], n=r["n"], cpu_ms=r["cpu_ms"],
                                                        context_ms=r["context_ms"]))
            row.update({f"{r['version']}:{k}": v for k, v in r.items()})
        return list(out.values())
    return rows


def first_rows(name):  # every reference run's rows of one CSV, each with a `gpu` column
    def rows(d):
        return [Row(r, gpu=r.get("device", "")) for sub in GPUS for r in load(os.path.join(d, sub), name)]
    return rows


def run_info(d):  # one row per reference run: its first row, rows passed, the series of each kind
    out = []
    for sub in GPUS:
        rows = [r for r in load(os.path.join(d, sub), "colreduce.csv") if r["validated"] == "1"]
        if rows:
            series = sorted({f"{r['repeat']} after {r['warmup']}" for r in rows}, key=lambda x: -int(x.split()[0]))
            out.append(Row(rows[0], passed=f"{sum(r['result_ok'] == '1' for r in rows)} of {len(rows)}",
                           series=" / ".join(series)))
    return out


def profile(per_size):  # profile.csv: one Row per version (per_size False) or per (version, size)
    def rows(d):
        out = {}
        for r in load(d, "profile.csv"):
            size = f"{int(r['m']):,} × {r['n']}"
            row = out.setdefault((r["version"],) + ((size,) if per_size else ()), Row(version=r["version"], size=size))
            row[r["metric"] + ("" if per_size else "@" + size)] = r["value"]
        return list(out.values())
    return rows


q = lambda a, b, col="kernel_ms": lambda r: r.f(f"{a}:{col}") / r.f(f"{b}:{col}")  # noqa: E731 (b over a)
add = lambda r, *metrics: sum(r.f(m) or 0 for m in metrics)  # noqa: E731 (a missing counter counts 0)
M, N = Col(lambda r: int(r["m"]), "m", "{:,}"), Col("n")
K = lambda v: Col(f"{v}:kernel_ms", f"{v} kernel (ms)", ms)  # noqa: E731
TOTAL = lambda v: Col(f"{v}:gpu_total_ms", f"{v} GPU total (ms)", ms)  # noqa: E731
VER, ATOMICS = Col(lambda r: f"`{r['version']}`", "version"), ("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
                                                               "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum")
DRAM, SM = "dram__throughput.avg.pct_of_peak_sustained_elapsed", "sm__throughput.avg.pct_of_peak_sustained_elapsed"
LOADS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"


def sol_columns(rows):  # profile-dram: four counters per profiled size, sizes from the CSV
    sizes = list(dict.fromkeys(k.split("@")[1] for r in rows for k in r if "@" in k))
    return [VER] + [c for s in sizes for c in (
        Col(f"{DRAM}@{s}", f"DRAM % of peak, {s}", "{:.1f}"),
        Col(lambda r, s=s: r.f(f"dram__bytes_read.sum@{s}") / 1e6, f"DRAM read (MB), {s}", "{:.0f}"),
        Col(f"{SM}@{s}", f"SM % of peak, {s}", "{:.1f}"),
        Col(lambda r, s=s: r.f(f"gpu__time_duration.sum@{s}") / 1e3, f"kernel (µs, under ncu), {s}", "{:.1f}"))]


def versions_columns(rows):  # h200-kernel: one column per version of the run
    vs = list(dict.fromkeys(k.split(":")[0] for r in rows for k in r if k.endswith(":kernel_ms")))
    return [M, N] + [Col(f"{v}:kernel_ms", v, ms) for v in vs if v != "tall_det"]  # at most 9 columns


TABLES = [
    Table("run-info", run_info, [
        Col("device", "GPU"), Col("compute_capability", "compute capability"),
        Col("driver"), Col("runtime"), Col("copy_bw_GBps", "copy bandwidth (GB/s, read + write)", "{:.0f}"),
        Col("data"), Col("seed"), Col("series", "timed runs after warm-ups (fast / slow versions)"),
        Col("passed", "rows passed")]),
    Table("report-kernel", by_size(), [
        M, N, Col("cpu_ms", "CPU (ms)", ms), K("original"), K("high1"), K("high2"),
        Col(q("original", "high1"), "ratio1 (kernel)", "{:.1f}"),
        Col(q("original", "high2"), "ratio2 (kernel)", "{:.1f}"),
        Col(q("high2", "high2_const"), "high2 / high2_const", "{:.3f}")]),
    Table("report-total", by_size(), [
        M, N, TOTAL("original"), TOTAL("high1"), TOTAL("high2"),
        Col(q("original", "high1", "gpu_total_ms"), "ratio1 (total)", "{:.2f}"),
        Col(q("original", "high2", "gpu_total_ms"), "ratio2 (total)", "{:.2f}"),
        Col("context_ms", "context creation (ms, once per process)", ms),
        Col(lambda r: r.f("context_ms") + r.f("original:gpu_total_ms"),
            "original GPU total + context (ms, as the report timed it)", ms)]),
    Table("context", first_rows("context.csv"), [Col("gpu", "GPU"), Col("context_ms", "context creation (ms)", ms)],
          caption="One row per fresh process (`context.csv`)."),
    Table("block-per-column", by_size(), [
        M, N, K("block_per_column"),
        Col("block_per_column:bandwidth_GBps", "GB/s", "{:.0f}"),
        Col("block_per_column:pct_of_copy_bw", "% of copy bw", "{:.1f}"),
        Col(q("original", "block_per_column"), "speed-up over original", "{:.1f}"),
        Col(q("high2", "block_per_column"), "speed-up over high2", "{:.2f}"),
        Col(q("block_per_column", "tall"), "times slower than tall", "{:.0f}"),
        TOTAL("block_per_column")]),
    Table("block-per-column-demo", first_rows("block_per_column.csv"), [
        Col("gpu", "GPU"), VER, M, N, Col("max_threads_per_block", "device limit (threads per block)"),
        Col(lambda r: f"`{r['launch_error']}`", "launch error (not checked)"),
        Col(lambda r: "yes" if r["result_ok"] == "1" else "**no**", "right result"),
        Col(lambda r: f"{r['wrong_columns']} of {r['n']}", "wrong columns"), Col("max_abs_err", "largest error")]),
    Table("tall-table", by_size(), [
        M, N, K("tall"), K("tall_det"), Col("cublas:kernel_ms", "cuBLAS (ms)", ms),
        Col("tall:bandwidth_GBps", "tall GB/s", "{:.0f}"), Col("tall:pct_of_copy_bw", "tall % of copy bw", "{:.0f}"),
        Col("cublas:pct_of_copy_bw", "cuBLAS % of copy bw", "{:.0f}"),
        Col(q("cublas", "tall"), "tall speed-up vs cuBLAS", "{:.2f}"),
]),
    Table("h200-kernel", by_size("h200"), versions_columns),
    Table("profile-dram", profile(False), sol_columns),
    Table("profile-counters", profile(True), [
        VER, Col("size", "m × n"),
        Col("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy (%)", "{:.1f}"),
        Col("sm__maximum_warps_per_active_cycle_pct", "theoretical occupancy (%)", "{:.0f}"),
        Col("smsp__thread_inst_executed_per_inst_executed.ratio", "threads per warp instruction", "{:.1f}"),
        Col(lambda r: 100 * r.f("sm__cycles_active.avg") / r.f("sm__cycles_elapsed.avg"),
            "SM cycles active (% of elapsed)", "{:.1f}"),
        Col(lambda r: r.f("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") / r.f(LOADS),
            "sectors per load request", "{:.1f}"),
        Col(lambda r: add(r, *ATOMICS), "atomic requests (L1)", "{:.0f}"),
        Col(lambda r: 100 * add(r, *ATOMICS) / r.f(LOADS), "atomic requests per 100 load requests", "{:.3f}")]),
    Table("cpu-traffic", by_size(), [
        M, N, Col(lambda r: 8 * int(r["n"]), "stride between two reads (bytes)"),
        Col(lambda r: int(r["m"]) * int(r["n"]) * 8 / 1e9, "matrix (GB)", "{:.2f}"),
        Col(lambda r: int(r["n"]) * int(r["m"]) * min(8 * int(r["n"]), 64) / 1e9,
            "column-wise loop: n · m · min(8n, 64) bytes (GB)", "{:.2f}"),
        Col(lambda r: min(8 * int(r["n"]), 64) // 8, "times the matrix")]),
]

if __name__ == "__main__":
    run(TABLES)
