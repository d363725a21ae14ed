#!/usr/bin/env python3
"""The tables of pi/README.md and pi/DETAILS.md, from results/ (the H100) and results/h200/.
`python3 tables.py` fills both documents; `python3 tables.py DIR --out FILE.md` writes one
run's tables into FILE.md (common/py/mdtables.py)."""
import csv
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from mdtables import Col, Row, Table, load, run  # noqa: E402

REPORT = {(r["table"], r["n"], r["version"]): r["time_us"] for r in csv.DictReader(
    line for line in open(os.path.join(HERE, "original", "report_001.csv")) if not line.startswith("#"))}
# Instructions per 64-term tile of single's inner loop (cuobjdump -sass, sm_90, CUDA 13.0; see
# DETAILS.md): on its busiest pipe, in all; lanes per SM and clock of that pipe and of issue.
SASS = {"float": (163, 192, 128), "double": (214, 254, 64)}
CHIP = {"H100": (132, 1.98), "H200": (132, 1.98)}  # GH100 datasheet: SMs, boost GHz
PAIRS = ("1:float", "2:float", "single:float", "thrust:float", "cpu:float", "cpu_omp:float",
         "cpu_report:float", "2:double", "single:double", "thrust:double", "cpu:double")


def us(x):
    return f"{x:,.1f}" if x < 1000 else f"{x:,.0f}"


def by_n(*names, cols=("kernel_us", "total_us", "abs_error", "estimate")):
    """One Row per size: `version:precision:column` cells of every named CSV, the report's times."""
    def rows(d):
        out = {}
        for r in [r for name in names for r in load(d, name)]:
            row = out.setdefault(r["n"], Row(n=r["n"], **{f"report:{t}:{v}": REPORT.get((t, r["n"], v), "")
                                                          for t in "12" for v in ("1", "2", "cpu")}))
            row.update({f"{r['version']}:{r['precision']}:{c}": r.get(c, "") for c in cols})
        return sorted(out.values(), key=lambda r: r.f("n"))
    return rows


def size(r):
    k = int(math.log2(r.f("n")))
    return f"2^{k - 6}·64 = {r['n']}" if 2 ** k == r.f("n") and k >= 6 else r["n"]


def t(key, head):
    return Col(key, head, lambda v: us(float(v)))


def over(a, b, head, fmt="{:.3f}"):
    return Col(lambda r: r.f(a) / r.f(b), head, fmt)


def pct(key, head, fmt="{:.1f} %"):
    return Col(key, head, fmt)


IT = Col(size, "iterations")
T1 = [IT, t("report:1:2", "report: kernel 2 (us)"), t("report:1:cpu", "report: CPU (us)"),
      t("2:float:kernel_us", "kernel 2 (us)"), t("2:float:total_us", "kernel 2 + copy + host sum (us)"),
      t("cpu:float:kernel_us", "CPU 1 thread (us)"), t("cpu_omp:float:kernel_us", "CPU OpenMP (us)"),
      t("single:float:kernel_us", "single (us)"),
      over("cpu:float:kernel_us", "2:float:kernel_us", "CPU 1 thread / kernel 2", "{:.1f}"),
      over("cpu:float:kernel_us", "2:float:total_us", "CPU 1 thread / kernel 2 + copy", "{:.1f}"),
      over("cpu_omp:float:kernel_us", "2:float:total_us", "OpenMP / kernel 2 + copy", "{:.2f}")]
T2 = [IT, t("report:2:1", "report: kernel 1 (us)"), t("report:2:2", "report: kernel 2 (us)"),
      over("report:2:1", "report:2:2", "report: kernel 1 / kernel 2"),
      t("1:float:kernel_us", "kernel 1 (us)"), t("2:float:kernel_us", "kernel 2 (us)"),
      over("1:float:kernel_us", "2:float:kernel_us", "kernel 1 / kernel 2"),
      t("1:float:total_us", "kernel 1 + copy + host sum (us)"),
      t("2:float:total_us", "kernel 2 + copy + host sum (us)"),
      over("1:float:total_us", "2:float:total_us", "ratio with copy")]
T2X = [IT, t("1:double:kernel_us", "kernel 1, double (us)"), t("2:double:kernel_us", "kernel 2, double (us)"),
       over("1:double:kernel_us", "2:double:kernel_us", "kernel 1 / kernel 2, double"),
       over("1:double:total_us", "2:double:total_us", "the same with copy"),
       t("single:float:kernel_us", "single, float (us)"), t("single:double:kernel_us", "single, double (us)"),
       t("thrust:float:kernel_us", "Thrust, float (us)"), t("thrust:double:kernel_us", "Thrust, double (us)")]
E = "{:.1e}"
ERR = [Col(lambda r: r["n"], "iterations"), Col(lambda r: 1 / (12 * r.f("n") ** 2), "h²/12", E)] + [
    Col(f"{p}:abs_error", p.replace(":float", " f").replace(":double", " d"), E) for p in PAIRS]
FORMULA = [Col("n", "iterations"), Col("cpu_report:float:estimate", "report's code, x = h(i − 0.5)"),
           Col("cpu_report:float:abs_error", "its error", "{:.2e}"), Col(lambda r: 2 / r.f("n"), "2h", "{:.2e}"),
           Col("cpu:float:estimate", "fixed, x = h(i + 0.5), float"), Col("cpu:float:abs_error", "its error", "{:.2e}"),
           Col("cpu:double:abs_error", "fixed, double: error", "{:.2e}")]


def result(r):
    return "FAIL" if r["result_ok"] != "1" else "PASS" if r.f("tolerance") != math.inf else "no bound"


BENCH = [Col("version"), Col("precision"), Col("kernel_us", "kernel (us)", "{:.1f}"),
         Col("total_us", "+ copy + finish (us)", "{:.1f}"), Col("gterms_per_s", "Gterms/s", "{:.1f}"),
         Col("speedup_vs_baseline", "× Thrust", "{:.2f}"), Col("speedup_vs_cpu", "× CPU 1 thread", "{:.0f}"),
         Col("speedup_vs_cpu_omp", "× CPU OpenMP", "{:.1f}"), Col("estimate"),
         Col("abs_error", "abs error", "{:.2e}"), Col("tolerance", "bound", "{:.1e}"), Col(result, "result")]


def limits(r, p):
    """single's Gterms/s at the chip's limit (its busiest pipe, the issue slots) from the SASS
    counts; (None, None) on a GPU whose datasheet figures are not in CHIP."""
    chip = next((v for k, v in CHIP.items() if k in r.get("device", "")), None)
    if chip is None:
        return None, None
    pipe, total, lanes = SASS[p]
    return chip[0] * chip[1] * 64 * lanes / pipe, chip[0] * chip[1] * 64 * 128 / total


def per_gpu(name, make):
    """make(gpu, rows of name, precision) for the H100 (results/) and the H200 (results/h200/)."""
    return lambda d: [x for gpu, sub in (("H100", ""), ("H200", "h200/")) for p in ("float", "double")
                      for x in make(gpu, load(d, sub + name), p)]


def target(gpu, rows, p):
    at = {r["version"]: r for r in rows if r["precision"] == p}
    s, th, (x, e) = at.get("single"), at.get("thrust"), {"float": (2.5, 1e-6), "double": (1.2, 1e-12)}[p]
    if not (s and th):
        return []
    met = s.f("gterms_per_s") >= x * th.f("gterms_per_s") and s.f("abs_error") <= e
    pipe, issue = limits(s, p)
    return [Row(s, gpu=gpu, thrust=th["gterms_per_s"], pipe=pipe, issue=issue, target=f"≥ {x}× Thrust, "
                f"error ≤ {e:g}", met="met" if met else "not met")]


def frac(lim, head):
    return Col(lambda r: 100 * r.f("gterms_per_s") / r[lim], head, "{:.0f} %")


TARGETS = [Col("gpu", "GPU"), Col("precision"), Col("gterms_per_s", "single Gterms/s", "{:.0f}"),
           Col("thrust", "Thrust Gterms/s", "{:.0f}"), over("gterms_per_s", "thrust", "× Thrust", "{:.2f}"),
           Col("abs_error", "abs error", "{:.2e}"), Col("target"), Col("met"),
           Col("pipe", "pipe limit (Gterms/s)", "{:.0f}"), frac("pipe", "of pipe limit"),
           Col("issue", "issue limit (Gterms/s)", "{:.0f}"), frac("issue", "of issue limit")]


def fit(gpu, rows, p):
    """Least-squares line time = fixed + n / rate through single's sizes in table2.csv."""
    pts = [(r.f("n"), r.f("kernel_us")) for r in rows if r["version"] == "single" and r["precision"] == p]
    if len(pts) < 2:
        return []
    mn, mt = (sum(x) / len(pts) for x in zip(*pts))
    slope = sum((n - mn) * (y - mt) for n, y in pts) / sum((n - mn) ** 2 for n, _ in pts)
    worst = max(pts, key=lambda q: abs(q[1] - mt - slope * (q[0] - mn)))
    pipe, issue = limits(next(r for r in rows if r["version"] == "single"), p)
    return [Row(gpu=gpu, precision=p, fixed=mt - slope * mn, rate=1e-3 / slope, n=f"{worst[0]:.0f}",
                t=worst[1], off=worst[1] - mt - slope * (worst[0] - mn), limit=pipe and min(pipe, issue))]


FIT = [Col("gpu", "GPU"), Col("precision"), Col("fixed", "fixed cost (us)", "{:.1f}"),
       Col("rate", "rate (Gterms/s)", "{:.0f}"), Col(lambda r: 100 * r["rate"] / r["limit"], "of limit", "{:.0f} %"),
       Col("n", "farthest point: n"), Col("t", "its time (us)", "{:.1f}"), Col("off", "above the line (us)", "{:+.1f}")]
M = {"t": "gpu__time_duration.sum", "ghz": "sm__cycles_elapsed.avg.per_second", "act": "sm__cycles_active.avg",
     "el": "sm__cycles_elapsed.avg", "inst": "sm__inst_executed.sum",
     "issue": "smsp__issue_active.avg.pct_of_peak_sustained_active"}
for _p in ("fma", "fp64", "xu"):
    M.update({_p: f"sm__inst_executed_pipe_{_p}.avg.pct_of_peak_sustained_active",
              _p + "_n": f"sm__inst_executed_pipe_{_p}.sum",
              _p + "_c": f"sm__pipe_{_p}_cycles_active.avg.pct_of_peak_sustained_active"})
NAME = {"1": "kernel 1", "2": "kernel 2", "thrust": "Thrust"}


def profile(d):
    """One Row per version: the counters of its longest kernel (results/profile.csv)."""
    kernels = {}
    for r in load(d, "profile.csv"):
        kernels.setdefault((r["version"], r["kernel"]), Row(version=r["version"], kernel=r["kernel"],
                                                             n=r["n"]))[r["metric"]] = r["value"]
    out = {}
    for (v, _), k in kernels.items():
        if v not in out or k.f(M["t"]) > out[v].f(M["t"]):
            out[v] = k
    return [Row({key: k.get(m, "") for key, m in M.items()}, label=NAME.get(v.split(":")[0], v.split(":")[0]),
                precision=v.split(":")[1], kernel=k["kernel"], n=k["n"]) for v, k in out.items()]


def per_term(key, head):
    return Col(lambda r: 32 * r.f(key) / r.f("n"), head, "{:.2f}")


PROFILE = [Col("label", "version"), Col("precision"), Col("kernel", "kernel (longest)"),
           Col(lambda r: r.f("t") / 1e3, "time under ncu (us)", "{:.1f}"),
           Col(lambda r: r.f("ghz") / 1e9, "SM clock (GHz)", "{:.3f}"),
           Col(lambda r: 100 * r.f("act") / r.f("el"), "SMs active", "{:.1f} %"),
           pct("fma", "FMA pipe"), pct("fp64", "FP64 pipe"), pct("xu", "XU pipe"), pct("issue", "issue slots"),
           per_term("inst", "instructions per term"), per_term("xu_n", "XU per term"),
           per_term("fma_n", "FMA per term"), per_term("fp64_n", "FP64 per term")]


def compare(d):
    """single's SASS-based fractions (bench.csv) against its counters, and the factors between."""
    prof = {(r["label"], r["precision"]): r for r in profile(d)}
    out = []
    for s in [r for p in ("float", "double") for r in target("H100", load(d, "bench.csv"), p)]:
        c, p = prof.get(("single", s["precision"])), s["precision"]
        pipe = "fma" if p == "float" else "fp64"
        if not c or s["pipe"] is None:
            continue
        f = 1.98e9 / c.f("ghz") * s.f("kernel_us") * 1e3 / c.f("t") * c.f("el") / c.f("act")
        for what, lim, n, per_tile, meas in (("pipe", "pipe", pipe + "_n", SASS[p][0], pipe),
                                             ("issue", "issue", "inst", SASS[p][1], "issue")):
            x = 32 * c.f(n) / c.f("n") / (per_tile / 64)
            sass = 100 * s.f("gterms_per_s") / s[lim]
            out.append(Row(precision=p, what=what, sass=sass, f=f, x=x, pred=sass * f * x, meas=c[meas]))
    return out


COMPARE = [Col("precision"), Col("what", "limit"), Col("sass", "SASS-based fraction", "{:.1f} %"),
           Col("f", "× clock × time × active", "{:.3f}"), Col("x", "× whole kernel / loop", "{:.3f}"),
           Col("pred", "predicted counter", "{:.1f} %"), Col("meas", "counter", "{:.1f} %")]
TABLES = [Table("table1", by_n("table1.csv"), T1), Table("table1-h200", by_n("h200/table1.csv"), T1),
          Table("table2", by_n("table2.csv"), T2), Table("table2-h200", by_n("h200/table2.csv"), T2),
          Table("table2-more", by_n("table2.csv"), T2X), Table("errors", by_n("error.csv"), ERR),
          Table("report-formula", by_n("table1.csv", "error.csv"), FORMULA,
                where=lambda r: r.get("cpu_report:float:estimate")),
          Table("bench", "bench.csv", BENCH), Table("bench-h200", "h200/bench.csv", BENCH),
          Table("targets", per_gpu("bench.csv", target), TARGETS), Table("fit", per_gpu("table2.csv", fit), FIT),
          Table("profile", profile, PROFILE), Table("profile-compare", compare, COMPARE)]
if __name__ == "__main__":
    run(TABLES)
