# Writes synthetic results CSVs (same columns as bin/pi --csv, made-up numbers) into the
# folder given as argument, for the tier-1 test of the plot scripts and tables.py.
# Never used for the committed results.
import math, random
rng = random.Random(1)
cols = "assignment,version,kernel,precision,device,compute_capability,driver,runtime,n,chunk,threads,blocks,cpu_threads,repeat,kernel_ms,total_ms,kernel_us,total_us,gterms_per_s,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,cpu_ms,speedup_vs_cpu,cpu_omp_ms,speedup_vs_cpu_omp,estimate,abs_error,reference,ref_error,tolerance,truncation_error,result_ok".split(",")
def gen(path, sizes, versions):
    with open(path, "w") as f:
        f.write(",".join(cols) + "\n")
        for n in sizes:
            for prec in ("float", "double"):
                rows = []
                for v in versions:
                    if v == "cpu_report" and prec == "double": continue
                    speed = {"1": 500, "2": 600, "single": 9000 if prec=="float" else 4000, "thrust": 1100 if prec=="float" else 900, "cpu": 0.7, "cpu_omp": 10, "cpu_report": 0.7}[v]
                    kms = n / (speed * 1e6) + (0.004 if not v.startswith("cpu") else 0)
                    est = math.pi + 1/(12*n*n) + (rng.random()*1e-7 if prec=="float" else rng.random()*1e-15)
                    if v == "cpu_report": est = math.pi + 2.0/n
                    if v == "single" and n in (1,): est = 3.2
                    r = dict(assignment="pi", version=v, kernel="k", precision=prec, device="NVIDIA H100 80GB HBM3", compute_capability="9.0", driver="13.0", runtime="13.0", n=n, chunk=64, threads=256, blocks=100, cpu_threads=16, repeat=20, kernel_ms=kms, total_ms=kms*1.2, kernel_us=kms*1e3, total_us=kms*1.2e3, gterms_per_s=n/(kms*1e6), bandwidth_GBps=0, pct_of_copy_bw=0, baseline_ms="", speedup_vs_baseline="", cpu_ms="", speedup_vs_cpu="", cpu_omp_ms="", speedup_vs_cpu_omp="", estimate="%.17g"%est, abs_error=abs(est-math.pi), reference=math.pi, ref_error=1e-9, tolerance=1e-5, truncation_error=1/(12*n*n), result_ok=1)
                    rows.append(r)
                b = [r for r in rows if r["version"]=="thrust"]
                c = [r for r in rows if r["version"]=="cpu"]
                o = [r for r in rows if r["version"]=="cpu_omp"]
                for r in rows:
                    if b: r["baseline_ms"] = b[0]["kernel_ms"]; r["speedup_vs_baseline"] = b[0]["kernel_ms"]/r["kernel_ms"]
                    if c: r["cpu_ms"] = c[0]["kernel_ms"]; r["speedup_vs_cpu"] = c[0]["kernel_ms"]/r["kernel_ms"]
                    if o: r["cpu_omp_ms"] = o[0]["kernel_ms"]; r["speedup_vs_cpu_omp"] = o[0]["kernel_ms"]/r["kernel_ms"]
                    f.write(",".join(str(r[k]) for k in cols) + "\n")
allv = ["1","2","single","thrust","cpu","cpu_omp","cpu_report"]
import os, sys
out = sys.argv[1]
gen(os.path.join(out, "table1.csv"), [2**k for k in range(15,21)], allv)
gen(os.path.join(out, "table2.csv"), [2**k for k in range(27,31)], ["1","2","single","thrust"])
gen(os.path.join(out, "error.csv"), [4**k for k in range(0,16)], allv)
gen(os.path.join(out, "bench.csv"), [2**30], ["1","2","single","thrust","cpu","cpu_omp"])
