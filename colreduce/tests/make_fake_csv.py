#!/usr/bin/env python3
"""Writes a synthetic CSV with colreduce's real columns (the header line is read from stdin,
as printed by `colreduce --print-csv-header`) for the tier-1 test of the plot scripts and of
tables.py. The values are made up; the file is never a result.

    bin/colreduce --print-csv-header | python3 tests/make_fake_csv.py OUT.csv
"""
import sys

header = sys.stdin.readline().strip().split(",")
sizes = [(160000, 8), (1600000, 8), (6400000, 8), (160000, 32), (1600000, 32), (6400000, 32),
         (160000, 64), (1600000, 64)]
versions = ["original", "high1", "high2", "tall", "tall_det", "cublas"]
with open(sys.argv[1], "w") as out:
    out.write(",".join(header) + "\n")
    for k, (m, n) in enumerate(sizes):
        mb = m * n * 8 / 1e6
        for i, v in enumerate(versions):
            kernel = {"original": m * 1.7e-4, "high1": m * 1e-5, "high2": m * n * 3e-8,
                      "tall": mb / 2900 + 0.004, "tall_det": mb / 2850 + 0.006, "cublas": mb / 2300}[v]
            row = {c: "" for c in header}
            row.update(assignment="colreduce", version=v, validated=1, is_baseline=int(v == "cublas"),
                       kernel_ms_scope="kernels", kernel="fake", device="FAKE GPU", compute_capability="9.0",
                       driver="13.0", runtime="13.0", m=m, n=n, size_label=f"{m}x{n}", config_index=k,
                       data="random", seed=0, threads=1024, blocks=264, grid="264x1x1", block="1024x1x1",
                       kernel_ms=kernel, kernel_min_ms=kernel, bandwidth_GBps=mb / kernel, copy_bw_GBps=2900,
                       pct_of_copy_bw=mb / kernel / 29, baseline_ms=mb / 2300, speedup_vs_baseline=mb / 2300 / kernel,
                       cpu_ms=m * n * 2e-6, alloc_ms=0.3, h2d_ms=mb / 12, d2h_ms=0.02, free_ms=0.2,
                       copy_ms=mb / 12 + 0.02, gpu_total_ms=0.52 + mb / 12 + kernel,
                       repeat=5 if i < 3 else 20, warmup=1 if i < 3 else 3, l2_flushed=1, pinned=0,
                       max_abs_err=1e-13, err_over_bound=1e-3, repeatable=1, result_ok=1)
            out.write(",".join(str(row[c]) for c in header) + "\n")
