#!/usr/bin/env python3
"""Regenerates every table of pi/README.md from results/*.csv (run by `make tables`).

    python3 tables.py [RESULTS_DIR [README]]

Columns are read by name, so both CSV layouts work: the earlier one (assignment, version,
kernel, precision, ...) and the current one (the core columns first, then precision,
abs_error and pi's own). The README is written once, atomically, with every table.
"""
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in common/
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from readme_tables import Readme, md_table, read_csv  # noqa: E402

RESULTS = sys.argv[1] if len(sys.argv) > 1 else "results"
README = sys.argv[2] if len(sys.argv) > 2 else "README.md"

# The report's numbers (report 001, OpenCL GPU with 8 multiprocessors, its CPU), in us.
REPORT_T1 = {32768: (169, 539), 65536: (147, 1118), 262144: (151, 4316), 524288: (217, 8944), 1048576: (304, 17723)}
REPORT_T2 = {134217728: (28219, 26252), 268435456: (56479, 51758), 536870912: (112669, 103251),
             1073741824: (225098, 206182)}

# Per 64 terms (one tile) in the inner loop of version single, counted in `cuobjdump -sass`
# of the sm_90 build (CUDA 13.0; see the README, "How close to the chip's limit"):
#   float:  97 FFMA + 65 FMUL + 1 FADD = 163 FP32, 16 MUFU.RCP, 13 others (I2F.F64, 2 F2F,
#           2 DFMA, 1 DMUL, 2 IADD3, 2 ISETP, MOV, IMAD, BRA): 192 instructions
#   double: 147 DFMA + 66 DMUL + 1 DADD = 214 FP64, 16 MUFU.RCP64H, 24 others: 254 instructions
SASS = {
    "float": {"pipe": "FP32", "pipe_per_tile": 163, "all_per_tile": 192, "lanes": 128},
    "double": {"pipe": "FP64", "pipe_per_tile": 214, "all_per_tile": 254, "lanes": 64},
}
H100 = {"sms": 132, "ghz": 1.98}  # H100 SXM5: 132 SMs, 1.98 GHz boost
ISSUE_LANES = 128  # 4 schedulers x 1 warp instruction (32 lanes) per clock per SM


def load(name):
    path = os.path.join(RESULTS, name)
    return read_csv(path) if os.path.exists(path) else None


def pick(rows, version, precision, n):
    for r in rows:
        if r["version"] == version and r["precision"] == precision and int(r["n"]) == n:
            return r
    return None


def num(row, key):
    if row is None or row.get(key, "") in ("", "nan"):
        return float("nan")
    return float(row[key])


def fmt_us(v):
    return "" if math.isnan(v) else ("{:.1f}".format(v) if v < 1000 else "{:,.0f}".format(v))


def pow2_label(n):
    k = int(round(math.log2(n)))
    if 2 ** k == n and k >= 6:
        return "2^{}·64 = {}".format(k - 6, n)
    return str(n)


def missing(name):
    return "_No results yet: run `make report` (writes results/{})._".format(name)


def table1():
    rows = load("table1.csv")
    if rows is None:
        return missing("table1.csv")
    sizes = sorted({int(r["n"]) for r in rows})
    out = []
    for n in sizes:
        k2, cpu, omp, single = (pick(rows, v, "float", n) for v in ("2", "cpu", "cpu_omp", "single"))
        rep = REPORT_T1.get(n, (float("nan"), float("nan")))
        out.append({
            "n": pow2_label(n),
            "rk2": fmt_us(rep[0]), "rcpu": fmt_us(rep[1]),
            "k2": fmt_us(num(k2, "kernel_us")), "k2t": fmt_us(num(k2, "total_us")),
            "cpu": fmt_us(num(cpu, "kernel_us")), "omp": fmt_us(num(omp, "kernel_us")),
            "single": fmt_us(num(single, "kernel_us")),
            "sp": "{:.0f}".format(num(cpu, "kernel_us") / num(k2, "total_us")) if k2 and cpu else "",
        })
    return md_table(out, [
        ("n", "iterations (chunk 64)", "{}"),
        ("rk2", "report: kernel 2 (us)", "{}"), ("rcpu", "report: CPU (us)", "{}"),
        ("k2", "kernel 2, kernel only (us)", "{}"), ("k2t", "kernel 2 + copy + host sum (us)", "{}"),
        ("cpu", "CPU 1 thread (us)", "{}"), ("omp", "CPU OpenMP (us)", "{}"),
        ("single", "single launch (us)", "{}"),
        ("sp", "CPU 1 thread / kernel 2 total", "{}"),
    ])


def table2():
    rows = load("table2.csv")
    if rows is None:
        return missing("table2.csv")
    sizes = sorted({int(r["n"]) for r in rows})
    out = []
    for n in sizes:
        rep = REPORT_T2.get(n, (float("nan"), float("nan")))
        k1, k2, s, t = (pick(rows, v, "float", n) for v in ("1", "2", "single", "thrust"))
        k1d, k2d = (pick(rows, v, "double", n) for v in ("1", "2"))
        out.append({
            "n": pow2_label(n), "r1": fmt_us(rep[0]), "r2": fmt_us(rep[1]),
            "k1": fmt_us(num(k1, "kernel_us")), "k1t": fmt_us(num(k1, "total_us")),
            "k2": fmt_us(num(k2, "kernel_us")), "k2t": fmt_us(num(k2, "total_us")),
            "ratio": "{:.2f}".format(num(k1, "kernel_us") / num(k2, "kernel_us")) if k1 and k2 else "",
            "k1d": fmt_us(num(k1d, "kernel_us")), "k2d": fmt_us(num(k2d, "kernel_us")),
            "s": fmt_us(num(s, "kernel_us")), "t": fmt_us(num(t, "kernel_us")),
        })
    return md_table(out, [
        ("n", "iterations (chunk 64)", "{}"),
        ("r1", "report: kernel 1 (us)", "{}"), ("r2", "report: kernel 2 (us)", "{}"),
        ("k1", "kernel 1 (us)", "{}"), ("k2", "kernel 2 (us)", "{}"), ("ratio", "kernel 1 / kernel 2", "{}"),
        ("k1t", "kernel 1 + copy + host sum (us)", "{}"), ("k2t", "kernel 2 + copy + host sum (us)", "{}"),
        ("k1d", "kernel 1, double (us)", "{}"), ("k2d", "kernel 2, double (us)", "{}"),
        ("s", "single, float (us)", "{}"), ("t", "Thrust, float (us)", "{}"),
    ])


def limit_terms_per_s(precision, which, device):
    """Terms/s at the chip's limit for version single: `which` is "pipe" or "issue"."""
    if "H100" not in device:
        return float("nan")
    s = SASS[precision]
    if which == "pipe":
        per_term = s["pipe_per_tile"] / 64.0
        lanes = s["lanes"]
    else:
        per_term = s["all_per_tile"] / 64.0
        lanes = ISSUE_LANES
    return H100["sms"] * lanes * H100["ghz"] * 1e9 / per_term


def bench():
    rows = load("bench.csv")
    if rows is None:
        return missing("bench.csv"), missing("bench.csv")
    out = []
    for r in rows:
        out.append({
            "version": r["version"], "precision": r["precision"],
            "kernel_us": num(r, "kernel_us"), "total_us": num(r, "total_us"),
            "g": num(r, "gterms_per_s"), "vs_thrust": num(r, "speedup_vs_baseline"),
            "vs_cpu": num(r, "speedup_vs_cpu"), "vs_omp": num(r, "speedup_vs_cpu_omp"),
            "est": r["estimate"], "err": num(r, "abs_error"), "tol": num(r, "tolerance"),
            "ok": "PASS" if r["result_ok"] == "1" else "FAIL",
        })
    t = md_table(out, [
        ("version", "version", "{}"), ("precision", "precision", "{}"),
        ("kernel_us", "kernel (us)", "{:.1f}"), ("total_us", "+ copy + finish (us)", "{:.1f}"),
        ("g", "Gterms/s", "{:.1f}"), ("vs_thrust", "× Thrust", "{:.2f}"),
        ("vs_cpu", "× CPU 1 thread", "{:.0f}"), ("vs_omp", "× CPU OpenMP", "{:.1f}"),
        ("est", "estimate", "{}"), ("err", "abs error", "{:.2e}"), ("tol", "bound", "{:.1e}"),
        ("ok", "result", "{}"),
    ], bold=lambda row: row["version"] == "single")
    # Targets and fraction of the chip's limit for the single-launch versions.
    tg = []
    for prec, factor, err_limit in (("float", 2.5, 1e-6), ("double", 1.2, 1e-12)):
        s = next((r for r in rows if r["version"] == "single" and r["precision"] == prec), None)
        th = next((r for r in rows if r["version"] == "thrust" and r["precision"] == prec), None)
        if s is None:
            continue
        g = num(s, "gterms_per_s")
        gt = num(th, "gterms_per_s")
        pipe = limit_terms_per_s(prec, "pipe", s["device"]) / 1e9
        issue = limit_terms_per_s(prec, "issue", s["device"]) / 1e9
        met = (g >= factor * gt) and (num(s, "abs_error") <= err_limit)
        tg.append({
            "prec": prec, "g": g, "gt": gt, "x": g / gt if gt else float("nan"),
            "target": "≥ {}× Thrust, error ≤ {:g}".format(factor, err_limit),
            "err": num(s, "abs_error"), "met": "met" if met else "NOT met",
            "pipe": "{} {:.0f} ({:.0%})".format(SASS[prec]["pipe"], pipe, g / pipe) if not math.isnan(pipe) else "n/a",
            "issue": "{:.0f} ({:.0%})".format(issue, g / issue) if not math.isnan(issue) else "n/a",
        })
    t2 = md_table(tg, [
        ("prec", "single, precision", "{}"), ("g", "Gterms/s", "{:.0f}"), ("gt", "Thrust Gterms/s", "{:.0f}"),
        ("x", "× Thrust", "{:.2f}"), ("err", "abs error", "{:.2e}"), ("target", "target", "{}"),
        ("met", "", "{}"), ("pipe", "pipe limit, Gterms/s (fraction)", "{}"),
        ("issue", "issue limit, Gterms/s (fraction)", "{}"),
    ])
    return t, t2


def errors():
    rows = load("error.csv")
    if rows is None:
        return missing("error.csv")
    sizes = sorted({int(r["n"]) for r in rows})
    cols = [("1", "float"), ("2", "float"), ("single", "float"), ("thrust", "float"), ("cpu", "float"),
            ("cpu_omp", "float"), ("cpu_report", "float"), ("2", "double"), ("single", "double"),
            ("thrust", "double"), ("cpu", "double")]
    out = []
    for n in sizes:
        row = {"n": str(n), "h2": "{:.1e}".format(1.0 / (12.0 * n * n))}
        for v, p in cols:
            r = pick(rows, v, p, n)
            row[v + p] = "" if r is None else "{:.1e}".format(num(r, "abs_error"))
        out.append(row)
    names = {"1": "k1", "2": "k2", "single": "single", "thrust": "Thrust", "cpu": "CPU",
             "cpu_omp": "CPU OMP", "cpu_report": "report's CPU"}
    spec = [("n", "iterations", "{}"), ("h2", "h²/12", "{}")]
    spec += [(v + p, "{} {}".format(names[v], "f" if p == "float" else "d"), "{}") for v, p in cols]
    return md_table(out, spec)


def report_formula():
    rows = (load("table1.csv") or []) + (load("error.csv") or [])
    rep = sorted({int(r["n"]) for r in rows if r["version"] == "cpu_report"})
    if not rep:
        return missing("table1.csv / error.csv")
    out = []
    for n in rep:
        r = next(r for r in rows if r["version"] == "cpu_report" and int(r["n"]) == n)
        f = next((x for x in rows if x["version"] == "cpu" and x["precision"] == "float" and int(x["n"]) == n), None)
        d = next((x for x in rows if x["version"] == "cpu" and x["precision"] == "double" and int(x["n"]) == n), None)
        out.append({"n": str(n), "rep": r["estimate"], "rerr": num(r, "abs_error"), "two_h": 2.0 / n,
                    "f": f["estimate"] if f else "", "ferr": num(f, "abs_error"),
                    "derr": num(d, "abs_error")})
    return md_table(out, [
        ("n", "iterations", "{}"), ("rep", "report's code, x = h(i − 0.5)", "{}"),
        ("rerr", "its error", "{:.2e}"), ("two_h", "2h", "{:.2e}"),
        ("f", "fixed, x = h(i + 0.5), float", "{}"), ("ferr", "its error", "{:.2e}"),
        ("derr", "fixed, double: error", "{:.2e}"),
    ])


def main():
    readme = Readme(README)
    readme.block("table1", table1())
    readme.block("table2", table2())
    b, targets = bench()
    readme.block("bench", b)
    readme.block("targets", targets)
    readme.block("errors", errors())
    readme.block("report-formula", report_formula())
    readme.save()
    print("tables.py: README tables regenerated from {}/".format(RESULTS))


if __name__ == "__main__":
    main()
