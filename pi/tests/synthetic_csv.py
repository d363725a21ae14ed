# Writes synthetic results CSVs (made-up numbers) into the folder given as the first argument,
# for the tier-1 test of the plot scripts and tables.py. The columns are the program's own,
# given as the second argument (the output of `bin/pi --print-csv-header`); a column this
# script does not fill stays empty. Never used for the committed results.
import math
import os
import random
import sys

sys.dont_write_bytecode = True
rng = random.Random(1)
out, header = sys.argv[1], sys.argv[2].strip()
cols = header.split(",")
SPEED = {"1": 500, "2": 600, "thrust": 1100, "cpu": 0.7, "cpu_omp": 10, "cpu_report": 0.7}


def row(v, prec, n):
    speed = SPEED.get(v, 9000 if prec == "float" else 4000)
    kms = n / (speed * 1e6) + (0.004 if not v.startswith("cpu") else 0)
    est = math.pi + 1 / (12 * n * n) + (rng.random() * 1e-7 if prec == "float" else rng.random() * 1e-15)
    if v == "cpu_report":
        est = math.pi + 2.0 / n
    if v == "single" and n == 1:
        est = 3.2
    gpu = not v.startswith("cpu")
    return dict(assignment="pi", version=v, validated=1, is_baseline=int(v == "thrust"),
                device="NVIDIA H100 80GB HBM3", compute_capability="9.0", driver="13.0", runtime="13.0", n=n,
                threads=256 if gpu and v != "thrust" else "", blocks=100 if gpu and v != "thrust" else "",
                kernel_ms=kms, kernel_ms_scope="kernels" if gpu else "cpu: whole function",
                result_ok=1, precision=prec, abs_error=abs(est - math.pi), kernel="k",
                chunk=64 if v in ("1", "2", "single") else "", cpu_threads="" if gpu else 16, repeat=20,
                total_ms=kms * 1.2, kernel_us=kms * 1e3, total_us=kms * 1.2e3, gterms_per_s=n / (kms * 1e6),
                estimate="%.17g" % est, reference=math.pi, ref_error=1e-9, tolerance=1e-5,
                truncation_error=1 / (12 * n * n))


def gen(path, sizes, versions):
    with open(path, "w") as f:
        f.write(header + "\n")
        for n in sizes:
            for prec in ("float", "double"):
                rows = [row(v, prec, n) for v in versions if not (v == "cpu_report" and prec == "double")]
                ref = {r["version"]: r["kernel_ms"] for r in rows}
                for r in rows:
                    for name, col, speed in (("thrust", "baseline_ms", "speedup_vs_baseline"),
                                             ("cpu", "cpu_ms", "speedup_vs_cpu"),
                                             ("cpu_omp", "cpu_omp_ms", "speedup_vs_cpu_omp")):
                        if name in ref:
                            r[col], r[speed] = ref[name], ref[name] / r["kernel_ms"]
                    f.write(",".join(str(r.get(k, "")) for k in cols) + "\n")


allv = ["1", "2", "single", "thrust", "cpu", "cpu_omp", "cpu_report"]
gen(os.path.join(out, "table1.csv"), [2 ** k for k in range(15, 21)], allv)
gen(os.path.join(out, "table2.csv"), [2 ** k for k in range(27, 31)], ["1", "2", "single", "thrust"])
gen(os.path.join(out, "error.csv"), [4 ** k for k in range(0, 16)], allv)
gen(os.path.join(out, "bench.csv"), [2 ** 30], ["1", "2", "single", "thrust", "cpu", "cpu_omp"])

# A profile.csv as `make profile` writes it (common/py/ncu_tidy.py's columns; version
# "<label>:<precision>"; Thrust with its two kernels), made-up values, units as ncu prints them.
PROFILE = {  # version: (time_us, FMA %, FP64 %, XU %, issue %, warp instructions per 64 terms)
    "1:float": (900, 35, 1, 60, 55, 38), "2:float": (910, 34, 1, 60, 54, 37.5),
    "single:float": (129, 80, 3, 12, 82, 6.1), "thrust:float": (1000, 30, 1, 55, 50, 40),
    "1:double": (1110, 10, 85, 30, 40, 60), "2:double": (1105, 10, 85, 30, 40, 59),
    "single:double": (250, 20, 88, 8, 45, 8.1), "thrust:double": (1300, 9, 80, 28, 38, 62),
}
NITER = 2 ** 30
with open(os.path.join(out, "profile.csv"), "w") as f:
    f.write("assignment,version,kernel,m,n,metric,unit,value,launches,device,ncu_version\n")
    for version, (t, fma, fp64, xu, issue, warp_per_64) in PROFILE.items():
        kernels = [("cub::DeviceReduceKernel<float>", 1.0), ("cub::DeviceReduceSingleTileKernel<float>", 0.004)] \
            if version.startswith("thrust") else [("pi::kernel<float>", 1.0)]
        for kernel, share in kernels:
            metrics = [
                ("gpu__time_duration.sum", "usecond", t * share),
                ("sm__cycles_elapsed.avg.per_second", "cycle/nsecond", 1.755),
                ("sm__cycles_active.avg", "cycle", t * share * 1755 * 0.95),
                ("sm__cycles_elapsed.avg", "cycle", t * share * 1755),
                ("sm__inst_executed.sum", "inst", NITER / 64 * warp_per_64 * share),
                ("smsp__issue_active.avg.pct_of_peak_sustained_active", "%", issue * share),
                ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", max(fma, fp64) * share),
                ("sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active", "%", fma * share),
                ("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "%", fma * share),
                ("sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active", "%", fp64 * share),
                ("sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", "%", fp64 * share),
                ("sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", "%", xu * share),
            ]
            active = t * share * 1755 * 0.95 * 132  # SM-active cycles of all SMs
            metrics += [("sm__inst_executed_pipe_fma.sum", "inst", fma / 100 * 4 * active),
                        ("sm__inst_executed_pipe_fp64.sum", "inst", fp64 / 100 * 2 * active),
                        ("sm__inst_executed_pipe_xu.sum", "inst", xu / 100 * 0.5 * active)]
            for metric, unit, value in metrics:
                f.write("pi,%s,%s,,%d,%s,%s,%.6g,3,NVIDIA H100 80GB HBM3,2025.3.0\n" % (version, kernel, NITER, metric, unit,
                                                                                     value))
