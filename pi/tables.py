#!/usr/bin/env python3
"""README.md's and DETAILS.md's tables from results/ (H100), results/h200/ (H200); see common/py/mdtables.py."""
import csv
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from mdtables import Col, Row, Table, load, run  # noqa: E402

REPORT = {(r["table"], r["n"], r["version"]): r["time_us"] for r in csv.DictReader(
    line for line in open(os.path.join(HERE, "original", "report_001.csv")) if not line.startswith("#"))}
# single's inner loop per 64-term tile (cuobjdump -sass, sm_90, CUDA 13.0; DETAILS.md): instructions
# on its busiest pipe, all instructions, that pipe's lanes per SM and clock. CHIP: datasheet SMs, GHz.
SASS = {"float": (163, 192, 128), "double": (214, 254, 64)}
CHIP = {"H100": (132, 1.98), "H200": (132, 1.98)}
PAIRS = ("1:float", "2:float", "single:float", "thrust:float", "cpu:float", "cpu_omp:float",
         "cpu_report:float", "2:double", "single:double", "thrust:double", "cpu:double")


def by_n(*names, cols=("kernel_us", "total_us", "abs_error", "estimate")):
    def rows(d):
        out = {}
        for r in [r for name in names for r in load(d, name)]:
            row = out.setdefault(r["n"], Row(n=r["n"], **{f"report:{t}:{v}": REPORT.get((t, r["n"], v), "")
                                                          for t in "12" for v in ("1", "2", "cpu")}))
            row.update({f"{r['version']}:{r['precision']}:{c}": r.get(c, "") for c in cols})
        return sorted(out.values(), key=lambda r: r.f("n"))
    return rows


def t(key, head):
    return Col(key, head, lambda v: f"{float(v):,.{1 if float(v) < 1000 else 0}f}")


def over(a, b, head, fmt="{:.3f}"):
    return Col(lambda r: r.f(a) / r.f(b), head, fmt)


IT = Col(lambda r: f"2^{int(math.log2(r.f('n'))) - 6}·64 = {r['n']}", "iterations")
K1, K2, T1_, T2_ = "1:float:kernel_us", "2:float:kernel_us", "1:float:total_us", "2:float:total_us"
T1 = [IT, t("report:1:2", "report: kernel 2 (us)"), t("report:1:cpu", "report: CPU (us)"), t(K2, "kernel 2 (us)"),
      t(T2_, "kernel 2 + copy + host sum (us)"), t("cpu:float:kernel_us", "CPU 1 thread (us)"),
      t("cpu_omp:float:kernel_us", "CPU OpenMP (us)"), t("single:float:kernel_us", "single (us)"),
      over("cpu:float:kernel_us", K2, "CPU 1 thread / kernel 2", "{:.1f}"),
      over("cpu:float:kernel_us", T2_, "CPU 1 thread / kernel 2 + copy", "{:.1f}"),
      over("cpu_omp:float:kernel_us", T2_, "OpenMP / kernel 2 + copy", "{:.2f}")]
T2 = [IT, t("report:2:1", "report: kernel 1 (us)"), t("report:2:2", "report: kernel 2 (us)"),
      over("report:2:1", "report:2:2", "report: kernel 1 / kernel 2"), t(K1, "kernel 1 (us)"), t(K2, "kernel 2 (us)"),
      over(K1, K2, "kernel 1 / kernel 2"), t(T1_, "kernel 1 + copy + host sum (us)"),
      t(T2_, "kernel 2 + copy + host sum (us)"), over(T1_, T2_, "ratio with copy")]
T2X = [IT, t("1:double:kernel_us", "kernel 1, double (us)"), t("2:double:kernel_us", "kernel 2, double (us)"),
       over("1:double:kernel_us", "2:double:kernel_us", "kernel 1 / kernel 2, double"),
       over("1:double:total_us", "2:double:total_us", "the same with copy")] + [
    t(f"{v}:{p}:kernel_us", f"{v.replace('t', 'T', 1) if v == 'thrust' else v}, {p} (us)")
    for v in ("single", "thrust") for p in ("float", "double")]
E, E2, PCT = "{:.1e}", "{:.2e}", lambda x: f"{100 * x:.0f} %"
ERR = [Col("n", "iterations"), Col(lambda r: 1 / (12 * r.f("n") ** 2), "h²/12", E)] + [
    Col(f"{p}:abs_error", p.replace(":float", " f").replace(":double", " d"), E) for p in PAIRS]
FORMULA = [Col("n", "iterations"), Col("cpu_report:float:estimate", "report's code, x = h(i − 0.5)"),
           Col("cpu_report:float:abs_error", "its error", E2), Col(lambda r: 2 / r.f("n"), "2h", E2),
           Col("cpu:float:estimate", "fixed, x = h(i + 0.5), float"), Col("cpu:float:abs_error", "its error", E2),
           Col("cpu:double:abs_error", "fixed, double: error", E2)]
BENCH = [Col("version"), Col("precision"), Col("kernel_us", "kernel (us)", "{:.1f}"),
         Col("total_us", "+ copy + finish (us)", "{:.1f}"), Col("gterms_per_s", "Gterms/s", "{:.1f}"),
         Col("speedup_vs_baseline", "× Thrust", "{:.2f}"), Col("speedup_vs_cpu", "× CPU 1 thread", "{:.0f}"),
         Col("speedup_vs_cpu_omp", "× CPU OpenMP", "{:.1f}"), Col("estimate"), Col("abs_error", "abs error", E2),
         Col("tolerance", "bound", E), Col(lambda r: "FAIL" if r["result_ok"] != "1" else "no bound" if
                                            r.f("tolerance") == math.inf else "PASS", "result")]


def limits(r, p):  # single's Gterms/s at the limit of its busiest pipe and of issue; None, None off CHIP
    sms, ghz = next((v for k, v in CHIP.items() if k in r.get("device", "")), (None, None))
    return (sms * ghz * 64 * SASS[p][2] / SASS[p][0], sms * ghz * 64 * 128 / SASS[p][1]) if sms else (None, None)


def per_gpu(name, make):  # make(GPU name, rows, precision) for results/ and results/h200/
    return lambda d: [x for sub in ("", "h200/") for rows in [load(d, sub + name)] for p in ("float", "double")
                      for x in make(rows[0]["device"].replace("NVIDIA ", "") if rows else "", rows, p)]


def target(gpu, rows, p):
    at = {r["version"]: r for r in rows if r["precision"] == p}
    s, th, (x, e) = at.get("single"), at.get("thrust"), {"float": (2.5, 1e-6), "double": (1.2, 1e-12)}[p]
    met = s and th and s.f("gterms_per_s") >= x * th.f("gterms_per_s") and s.f("abs_error") <= e
    return [Row(s, gpu=gpu, thrust=th["gterms_per_s"], **dict(zip(("pipe", "issue"), limits(s, p))),
                target=f"≥ {x}× Thrust, error ≤ {e:g}", met="met" if met else "not met")] if s and th else []


TARGETS = [Col("gpu", "GPU"), Col("precision"), Col("gterms_per_s", "single Gterms/s", "{:.0f}"),
           Col("thrust", "Thrust Gterms/s", "{:.0f}"), over("gterms_per_s", "thrust", "× Thrust", "{:.2f}"),
           Col("abs_error", "abs error", E2), Col("target"), Col("met"),
           Col("pipe", "pipe limit (Gterms/s)", "{:.0f}"), over("gterms_per_s", "pipe", "of pipe limit", PCT),
           Col("issue", "issue limit (Gterms/s)", "{:.0f}"), over("gterms_per_s", "issue", "of issue limit", PCT)]


def fit(gpu, rows, p):  # least-squares line time = fixed + n / rate through single's sizes
    pts = [(r.f("n"), r.f("kernel_us")) for r in rows if r["version"] == "single" and r["precision"] == p]
    if len(pts) < 2: return []  # noqa: E701
    mn, mt = (sum(x) / len(pts) for x in zip(*pts))
    slope = sum((n - mn) * (y - mt) for n, y in pts) / sum((n - mn) ** 2 for n, _ in pts)
    n, y = max(pts, key=lambda q: abs(q[1] - mt - slope * (q[0] - mn)))
    lim = limits(next(r for r in rows if r["version"] == "single"), p)
    return [Row(gpu=gpu, precision=p, fixed=mt - slope * mn, rate=1e-3 / slope, n=f"{n:.0f}", t=y,
                off=y - mt - slope * (n - mn), limit=lim[0] and min(lim))]


FIT = [Col("gpu", "GPU"), Col("precision"), Col("fixed", "fixed cost (us)", "{:.1f}"), Col("rate", "rate (Gterms/s)",
       "{:.0f}"), Col(lambda r: r["rate"] / r["limit"], "of limit", PCT), Col("n", "farthest point: n"),
       Col("t", "its time (us)", "{:.1f}"), Col("off", "above the line (us)", "{:+.1f}")]
M = {"t": "gpu__time_duration.sum", "ghz": "sm__cycles_elapsed.avg.per_second", "act": "sm__cycles_active.avg",
     "el": "sm__cycles_elapsed.avg", "inst": "sm__inst_executed.sum", "issue": "smsp__issue_active.avg.pct_of_peak_sustained_active"}
M.update({k: f"sm__inst_executed_pipe_{p}.{m}" for p in ("fma", "fp64", "xu") for k, m in
          ((p, "avg.pct_of_peak_sustained_active"), (p + "_n", "sum"))})


def profile(d):  # one Row per version: the counters of its longest kernel
    kernels, out = {}, {}
    for r in load(d, "profile.csv"):
        kernels.setdefault((r["version"], r["kernel"]), Row(kernel=r["kernel"], n=r["n"]))[r["metric"]] = r["value"]
    for (v, _), k in kernels.items():
        if v not in out or k.f(M["t"]) > out[v].f(M["t"]):
            out[v] = k
    name = {"1": "kernel 1", "2": "kernel 2", "thrust": "Thrust"}
    return [Row({key: k.get(m, "") for key, m in M.items()}, label=name.get(v.split(":")[0], v.split(":")[0]),
                precision=v.split(":")[1], kernel=k["kernel"], n=k["n"]) for v, k in out.items()]


PROFILE = [Col("label", "version"), Col("precision"), Col("kernel", "kernel (longest)"),
           Col(lambda r: r.f("t") / 1e3, "time under ncu (us)", "{:.1f}"),
           Col(lambda r: r.f("ghz") / 1e9, "SM clock (GHz)", "{:.3f}"),
           Col(lambda r: 100 * r.f("act") / r.f("el"), "SMs active", "{:.1f} %")] + [
    Col(k, h, "{:.1f} %") for k, h in (("fma", "FMA pipe"), ("fp64", "FP64 pipe"), ("xu", "XU pipe"),
                                      ("issue", "issue slots"))] + [
    Col(lambda r, k=k: 32 * r.f(k) / r.f("n"), h, "{:.2f}") for k, h in (
        ("inst", "instructions per term"), ("xu_n", "XU per term"), ("fma_n", "FMA per term"),
        ("fp64_n", "FP64 per term"))]




def narrow(cols, *drop):  # a README table's columns: cols without the headings dropped (at most 9)
    return [c for c in cols if c.heading not in drop]


def more(csv):  # the caption of a README pair of tables narrowed from wider ones
    return f"Every column: `results/{csv.replace('h200/', '')}` and `results/{csv}`."


T1N = narrow(T1, "CPU 1 thread / kernel 2 + copy", "OpenMP / kernel 2 + copy")
T2N = narrow(T2, "ratio with copy")
ERRN = narrow(ERR, "1 f", "cpu f", "cpu_omp f", "cpu d")
BENCHN = narrow(BENCH, "estimate", "+ copy + finish (us)", "× CPU OpenMP")
PROFILEN = narrow(PROFILE, "kernel (longest)", "SM clock (GHz)", "SMs active", "FMA per term", "FP64 per term")
TABLES = [Table("table1", by_n("table1.csv"), T1N),
          Table("table1-h200", by_n("h200/table1.csv"), T1N, caption=more("h200/table1.csv")),
          Table("table2", by_n("table2.csv"), T2N),
          Table("table2-h200", by_n("h200/table2.csv"), T2N, caption=more("h200/table2.csv")),
          Table("table2-more", by_n("table2.csv"), T2X),
          Table("errors", by_n("error.csv"), ERRN),
          Table("errors-full", by_n("error.csv"), ERR, caption="Every version of `results/error.csv`."),
          Table("report-formula", by_n("table1.csv", "error.csv"), FORMULA,
                where=lambda r: r.get("cpu_report:float:estimate")),
          Table("bench", "bench.csv", BENCHN),
          Table("bench-h200", "h200/bench.csv", BENCHN, caption=more("h200/bench.csv")),
          Table("targets", per_gpu("bench.csv", target), TARGETS), Table("fit", per_gpu("table2.csv", fit), FIT),
          Table("profile", profile, PROFILEN),
          Table("profile-full", profile, PROFILE, caption="Every column, from `results/profile.csv`.")]
if __name__ == "__main__":
    run(TABLES)
