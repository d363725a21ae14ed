#!/usr/bin/env python3
"""Writes synthetic CSVs with colreduce's real columns for the tier-1 tests of the plot
scripts and of tables.py. The values are made up; the files are never results.

    bin/colreduce --print-csv-header | python3 tests/make_fake_csv.py OUT.csv
        the main run (every default version at the report's eight sizes)
    bin/colreduce --print-csv-header | python3 tests/make_fake_csv.py OUT.csv --block-per-column
        block_per_column and its demonstration block_per_column_over_limit (launch error, zeros)
    bin/colreduce --print-csv-header | python3 tests/make_fake_csv.py OUT.csv --context
        three fresh processes of context creation
    python3 tests/make_fake_csv.py OUT.csv --profile
        results/profile.csv's tidy layout (common/py/ncu_tidy.py): every version at two sizes
"""
import sys

mode = sys.argv[2] if len(sys.argv) > 2 else "main"
versions = ["original", "high1", "high2", "high2_const", "block_per_column", "tall", "tall_det", "cublas"]

if mode == "--profile":
    cols = ["assignment", "version", "kernel", "m", "n", "metric", "unit", "value", "launches", "device", "ncu_version"]
    metrics = [("gpu__time_duration.sum", "nsecond"), ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "%"),
               ("dram__bytes_read.sum", "byte"), ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "%"),
               ("sm__warps_active.avg.pct_of_peak_sustained_active", "%"), ("launch__grid_size", ""),
               ("launch__block_size", ""), ("sm__maximum_warps_per_active_cycle_pct", "%"),
               ("smsp__thread_inst_executed_per_inst_executed.ratio", ""), ("sm__cycles_active.avg", "cycle"),
               ("sm__cycles_elapsed.avg", "cycle"), ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", ""),
               ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sector"),
               ("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", ""),
               ("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", ""), ("lts__t_sectors_op_red.sum", "sector"),
               ("lts__t_sectors_op_atom.sum", "sector")]
    with open(sys.argv[1], "w") as out:
        out.write(",".join(cols) + "\n")
        for (m, n) in [(160000, 8), (1600000, 32)]:
            for i, v in enumerate(versions):
                kernel = "gemv2T_kernel_val" if v == "cublas" else "colreduce::column_sum_" + v
                dram = [1.5, 8, 30, 31, 12, 60 if m < 1e6 else 92, 55 if m < 1e6 else 91, 50 if m < 1e6 else 88][i]
                loads = m * n / 32
                values = {"gpu__time_duration.sum": m * n * 8 / (dram * 33.5), "dram__bytes_read.sum": m * n * 8,
                          "dram__throughput.avg.pct_of_peak_sustained_elapsed": dram,
                          "sm__throughput.avg.pct_of_peak_sustained_elapsed": dram / 3,
                          "sm__warps_active.avg.pct_of_peak_sustained_active": 40, "launch__grid_size": 8,
                          "launch__block_size": 1024, "sm__maximum_warps_per_active_cycle_pct": 100,
                          "smsp__thread_inst_executed_per_inst_executed.ratio": 8 if v == "original" else 31.5,
                          "sm__cycles_active.avg": 5 if v == "original" else 90, "sm__cycles_elapsed.avg": 100,
                          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": loads,
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": loads * (32 if v == "block_per_column" else 8),
                          "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum": 16 * n,
                          "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum": 0,
                          "lts__t_sectors_op_red.sum": 16 * n, "lts__t_sectors_op_atom.sum": 0}
                for metric, unit in metrics:
                    out.write(",".join(str(x) for x in ["colreduce", v, kernel, m, n, metric, unit, values[metric], 1,
                                                        "FAKE GPU", "2025.3"]) + "\n")
    sys.exit(0)

header = sys.stdin.readline().strip().split(",")
if mode == "--block-per-column":
    plan = [(k, m, n, v) for k, (m, n) in enumerate([(160000, 8), (1600000, 64)])
            for v in ("block_per_column", "block_per_column_over_limit")]
elif mode == "--context":
    plan = [(0, 16000, 8, "original")] * 3
else:
    sizes = [(160000, 8), (1600000, 8), (6400000, 8), (160000, 32), (1600000, 32), (6400000, 32),
             (160000, 64), (1600000, 64)]
    plan = [(k, m, n, v) for k, (m, n) in enumerate(sizes) for v in versions]
with open(sys.argv[1], "w") as out:
    out.write(",".join(header) + "\n")
    for p, (k, m, n, v) in enumerate(plan):
        mb = m * n * 8 / 1e6
        demo = v == "block_per_column_over_limit"
        kernel = {"original": m * 1.7e-4, "high1": m * 1e-5, "high2": m * n * 3e-8, "high2_const": m * n * 2.95e-8,
                  "block_per_column": mb / 400,
                  "block_per_column_over_limit": 0.003, "tall": mb / 2900 + 0.004, "tall_det": mb / 2850 + 0.006,
                  "cublas": mb / 2300}[v]
        row = {c: "" for c in header}
        row.update(assignment="colreduce", version=v, validated=int(not demo), is_baseline=int(v == "cublas"),
                   kernel_ms_scope="kernels", kernel="fake", device="FAKE GPU", compute_capability="9.0",
                   driver="13.0", runtime="13.0", m=m, n=n, size_label=f"{m}x{n}", config_index=k,
                   data="random", seed=0, threads=2048 if demo else 1024, blocks=n, grid=f"{n}x1x1",
                   block="2048x1x1" if demo else "1024x1x1",
                   kernel_ms=kernel, kernel_min_ms=kernel, bandwidth_GBps=mb / kernel, copy_bw_GBps=2900,
                   pct_of_copy_bw=mb / kernel / 29, baseline_ms=mb / 2300, speedup_vs_baseline=mb / 2300 / kernel,
                   cpu_ms=m * n * 2e-6, alloc_ms=0.3, h2d_ms=mb / 12, d2h_ms=0.02, free_ms=0.2,
                   copy_ms=mb / 12 + 0.02, gpu_total_ms=0.52 + mb / 12 + kernel,
                   repeat=5 if v in versions[:4] else 20, warmup=1 if v in versions[:4] else 3, l2_flushed=1,
                   pinned=0, max_abs_err=412.5 if demo else 1e-13, err_over_bound=3e9 if demo else 1e-3,
                   repeatable=0, result_ok=int(not demo), wrong_columns=n if demo else 0,
                   launch_error="cudaErrorInvalidConfiguration" if demo else "cudaSuccess",
                   max_threads_per_block=1024, context_ms=[180.5, 175.2, 190.1][p % 3])
        out.write(",".join(str(row[c]) for c in header) + "\n")
