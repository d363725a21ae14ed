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

HERE = os.path.dirname(os.path.abspath(__file__))


def read_commented_csv(path):
    """A CSV whose first lines may be '#' comments (original/*.csv say where each number is)."""
    import csv
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def report_tables():
    """The report's numbers (original/report_001.csv, transcribed from its two tables), in us:
    {1: {n: (kernel 2, CPU)}, 2: {n: (kernel 1, kernel 2)}}."""
    rows = read_commented_csv(os.path.join(HERE, "original", "report_001.csv"))
    t = {"1": {}, "2": {}}
    for r in rows:
        t[r["table"]].setdefault(int(r["n"]), {})[r["version"]] = float(r["time_us"])
    return ({n: (v.get("2", float("nan")), v.get("cpu", float("nan"))) for n, v in t["1"].items()},
            {n: (v.get("1", float("nan")), v.get("2", float("nan"))) for n, v in t["2"].items()})


REPORT_T1, REPORT_T2 = report_tables()

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


# ---- Nsight Compute counters (results/profile.csv, `make profile`) -----------------------

PROFILE_PLACEHOLDER = "(run make profile)"
M_TIME, M_CLOCK = "gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second"
M_ACTIVE, M_ELAPSED, M_INST = "sm__cycles_active.avg", "sm__cycles_elapsed.avg", "sm__inst_executed.sum"
M_ISSUE = "smsp__issue_active.avg.pct_of_peak_sustained_active"
M_SM = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
PIPES = [  # name, % of peak (instructions), % of peak (cycles busy, where there is one), instructions
    ("FMA", "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active",
     "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "sm__inst_executed_pipe_fma.sum"),
    ("FP64", "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active",
     "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", "sm__inst_executed_pipe_fp64.sum"),
    ("XU", "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", None, "sm__inst_executed_pipe_xu.sum"),
]
PROFILED = [(v, p) for p in ("float", "double") for v in ("1", "2", "single", "thrust")]
NAMES = {"1": "kernel 1", "2": "kernel 2", "single": "single", "thrust": "Thrust"}
SCALE = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def in_unit(value, unit, base):
    """value (ncu prints it in an auto-scaled unit: Kinst, Mcycle) in the plain `base` unit."""
    u = (unit or "").strip()
    if u == base or u == "":
        return value
    if u.endswith(base) and u[: -len(base)] in SCALE:
        return value * SCALE[u[: -len(base)]]
    return float("nan")


def to_us(value, unit):
    return value * {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3,
                    "second": 1e6, "s": 1e6}.get((unit or "").strip().lower(), float("nan"))


def to_ghz(value, unit):
    return value * {"cycle/nsecond": 1.0, "ghz": 1.0, "cycle/usecond": 1e-3, "mhz": 1e-3, "cycle/msecond": 1e-6,
                    "khz": 1e-6, "cycle/second": 1e-9, "hz": 1e-9}.get((unit or "").strip().lower(), float("nan"))


def kernel_short(name):
    """pi::pi_chunks_tree_block_sum<float> -> pi_chunks_tree_block_sum<float>; CUB's
    cub::CUB_300000_SM_900::DeviceReduceKernel<long arguments> -> DeviceReduceKernel."""
    base, sep, args = name.partition("<")
    return base.split("::")[-1] + (sep + args if sep and len(args) <= 16 else "")


def load_profile():
    """{(label, precision): record of the version's main kernel (the longest), None if absent}, n;
    None when results/profile.csv does not exist yet."""
    rows = load("profile.csv")
    if rows is None:
        return None
    by_version = {}
    for r in rows:
        label, _, prec = r["version"].partition(":")
        k = by_version.setdefault((label, prec), {}).setdefault(r["kernel"], {})
        k[r["metric"]] = (float(r["value"]), r["unit"], int(float(r["n"])), r.get("device", ""))
    out = {}
    for key, kernels in by_version.items():
        def time_of(k):
            m = kernels[k].get(M_TIME)
            return to_us(m[0], m[1]) if m else float("nan")
        main_kernel = max(kernels, key=lambda k: (time_of(k) if not math.isnan(time_of(k)) else -1))
        m = kernels[main_kernel]

        def get(metric, conv=None, base=None):
            if metric not in m:
                return float("nan")
            value, unit = m[metric][0], m[metric][1]
            return conv(value, unit) if conv else (in_unit(value, unit, base) if base else value)
        n = next(iter(m.values()))[2]
        rec = {
            "kernel": kernel_short(main_kernel), "kernels": len(kernels), "n": n,
            "device": next(iter(m.values()))[3],
            "t_us": get(M_TIME, to_us), "t_all_us": sum(time_of(k) for k in kernels),
            "ghz": get(M_CLOCK, to_ghz),
            "active": get(M_ACTIVE, base="cycle") / get(M_ELAPSED, base="cycle"),
            "issue": get(M_ISSUE), "sm": get(M_SM),
            "ipt": get(M_INST, base="inst") * 32.0 / n,
        }
        for name, pct_metric, cycles, count in PIPES:
            rec[name] = get(pct_metric)
            rec[name + "_cycles"] = get(cycles) if cycles else float("nan")
            rec[name + "_ipt"] = get(count, base="inst") * 32.0 / n
        busy = [(rec[name], name) for name, _, _, _ in PIPES if not math.isnan(rec[name])]
        rec["busiest"] = max(busy)[1] if busy else ""
        out[key] = rec
    return out


def pct(x, digits=0):
    return "" if x is None or math.isnan(x) else "{:.{}f} %".format(x, digits)


def profile_table(prof):
    if prof is None:
        return md_table([{"v": PROFILE_PLACEHOLDER}], [("v", "version", "{}")])
    out = []
    for v, p in PROFILED:
        r = prof.get((v, p))
        if r is None:
            out.append({"v": NAMES[v], "p": p, "k": "(not in profile.csv)"})
            continue

        def pipe(name):
            both = pct(r[name], 1)
            if not math.isnan(r[name + "_cycles"]):
                both += " ({:.1f})".format(r[name + "_cycles"])
            return both
        out.append({
            "v": NAMES[v], "p": p, "k": r["kernel"] + (" (+{} more)".format(r["kernels"] - 1) if r["kernels"] > 1 else ""),
            "t": fmt_us(r["t_us"]), "ghz": "" if math.isnan(r["ghz"]) else "{:.3f}".format(r["ghz"]),
            "act": pct(100 * r["active"], 1), "fma": pipe("FMA"), "fp64": pipe("FP64"), "xu": pipe("XU"),
            "issue": pct(r["issue"], 1), "busiest": r["busiest"],
            "ipt": "" if math.isnan(r["ipt"]) else "{:.2f}".format(r["ipt"]),
        })
    return md_table(out, [
        ("v", "version", "{}"), ("p", "precision", "{}"), ("k", "kernel (longest)", "{}"),
        ("t", "time under ncu (us)", "{}"), ("ghz", "SM clock (GHz)", "{}"), ("act", "SMs active", "{}"),
        ("fma", "FMA pipe (cycles busy)", "{}"), ("fp64", "FP64 pipe (cycles busy)", "{}"), ("xu", "XU pipe", "{}"),
        ("issue", "issue slots", "{}"), ("busiest", "busiest pipe", "{}"),
        ("ipt", "instructions per term", "{}"),
    ])


def profile_compare(prof):
    """The SASS-based fractions of the targets table (bench.csv) against the counters, for
    version single, with the factors that separate them."""
    if prof is None:
        return "_" + PROFILE_PLACEHOLDER + ": the comparison needs results/profile.csv._"
    rows = load("bench.csv") or []
    lines = []
    for prec in ("float", "double"):
        r = prof.get(("single", prec))
        b = next((x for x in rows if x["version"] == "single" and x["precision"] == prec), None)
        s = SASS[prec]
        pipe_name = "FMA" if prec == "float" else "FP64"
        if r is None or b is None or "H100" not in b["device"]:
            lines.append("- single, {}: _no profile or bench row on an H100 to compare_".format(prec))
            continue
        if r["n"] != int(b["n"]):
            lines.append("- single, {}: _profiled at niter = {}, bench.csv at {}: not compared_".format(prec, r["n"], b["n"]))
            continue
        g = num(b, "gterms_per_s")
        t_bench = num(b, "kernel_us")
        sass_pipe_pt, sass_all_pt = s["pipe_per_tile"] / 64.0, s["all_per_tile"] / 64.0
        frac_pipe = 100 * g / (limit_terms_per_s(prec, "pipe", b["device"]) / 1e9)
        frac_issue = 100 * g / (limit_terms_per_s(prec, "issue", b["device"]) / 1e9)
        f_clock = H100["ghz"] / r["ghz"]
        f_time = t_bench / r["t_us"]
        f_active = 1.0 / r["active"]
        f_pipe = r[pipe_name + "_ipt"] / sass_pipe_pt
        f_all = r["ipt"] / sass_all_pt
        pred_pipe = frac_pipe * f_clock * f_time * f_active * f_pipe
        pred_issue = frac_issue * f_clock * f_time * f_active * f_all
        if any(math.isnan(x) for x in (pred_pipe, pred_issue, r[pipe_name], r["issue"])):
            lines.append("- single, {}: _a counter is missing from results/profile.csv_".format(prec))
            continue
        extra = "the tile set-up, the remainder, the reduction" + (", and IMADs on the FMA pipe" if prec == "float" else "")
        lines.append(
            "- **single, {p}**: the counters read the {pn} pipe at **{cp}** of its peak and the issue slots at "
            "**{ci}**, where the targets table's SASS-based fractions are {fp} ({sp} pipe) and {fi} (issue). "
            "Four factors separate them: the SM clock under ncu was {ghz:.3f} GHz, not the assumed {a:.2f} "
            "(×{fc:.3f}); the profiled launch took {tn} us against bench.csv's {tb} us (×{ft:.3f}); the counters "
            "divide by SM-active cycles, {act} of the elapsed ones (×{fa:.3f}: the tail, the last block's "
            "reduction); and the whole kernel executes {pipt:.2f} {pn}-pipe and {ipt:.2f} instructions per term "
            "against the inner loop's {spt:.2f} and {sat:.2f} in the SASS count (×{fpp:.3f} and ×{fal:.3f}: "
            "{extra}). Together they predict "
            "{pp} and {pi}: {verdict}.".format(
                p=prec, pn=pipe_name, cp=pct(r[pipe_name], 1), ci=pct(r["issue"], 1), fp=pct(frac_pipe),
                sp=s["pipe"], fi=pct(frac_issue), ghz=r["ghz"], a=H100["ghz"], fc=f_clock, tn=fmt_us(r["t_us"]),
                tb=fmt_us(t_bench), ft=f_time, act=pct(100 * r["active"], 1), fa=f_active, pipt=r[pipe_name + "_ipt"],
                ipt=r["ipt"], spt=sass_pipe_pt, sat=sass_all_pt, fpp=f_pipe, fal=f_all, pp=pct(pred_pipe, 1),
                pi=pct(pred_issue, 1), extra=extra,
                verdict=agreement(pred_pipe, r[pipe_name], pred_issue, r["issue"])))
    return "\n".join(lines)


def agreement(pred_pipe, meas_pipe, pred_issue, meas_issue):
    """How well the factors explain the counters, in words."""
    parts = []
    for what, pred, meas in (("the pipe", pred_pipe, meas_pipe), ("the issue slots", pred_issue, meas_issue)):
        off = pred / meas - 1
        parts.append("{} {} % off the counter ({})".format(
            what, "{:+.1f}".format(100 * off) if round(100 * off, 1) != 0 else "0.0", "explained" if abs(off) <= 0.05 else "not fully explained by these factors"))
    return "; ".join(parts)


def profile_values(readme, prof):
    """Numbers from the counters cited in the README's prose (placeholders until profile.csv exists)."""
    def rec(v, p):
        return None if prof is None else prof.get((v, p))

    def put(name, r, text):
        readme.value(name, text(r) if r is not None else PROFILE_PLACEHOLDER)
    put("prof-k1f-ipt", rec("1", "float"), lambda r: "{:.2f}".format(r["ipt"]))
    put("prof-k2f-ipt", rec("2", "float"), lambda r: "{:.2f}".format(r["ipt"]))
    put("prof-k1d-ipt", rec("1", "double"), lambda r: "{:.2f}".format(r["ipt"]))
    put("prof-k2d-ipt", rec("2", "double"), lambda r: "{:.2f}".format(r["ipt"]))
    k1, k2 = rec("1", "float"), rec("2", "float")
    if k1 and k2:
        d = k1["ipt"] - k2["ipt"]
        readme.value("prof-k12-diff", "{:.2f} instructions per term (kernel {} executes more)".format(abs(d), "1" if d > 0 else "2"))
    else:
        readme.value("prof-k12-diff", PROFILE_PLACEHOLDER)
    for v, p, tag in (("2", "float", "k2f"), ("2", "double", "k2d"), ("thrust", "float", "thf"),
                      ("thrust", "double", "thd")):
        put("prof-{}-busiest".format(tag), rec(v, p), lambda r: "{} ({})".format(r["busiest"], pct(r[r["busiest"]])))
        put("prof-{}-issue".format(tag), rec(v, p), lambda r: pct(r["issue"]))
    put("prof-sf-fma", rec("single", "float"), lambda r: pct(r["FMA"]))
    put("prof-sf-issue", rec("single", "float"), lambda r: pct(r["issue"]))
    put("prof-sd-fp64", rec("single", "double"), lambda r: pct(r["FP64"]))
    put("prof-sd-issue", rec("single", "double"), lambda r: pct(r["issue"]))


def sample_output():
    path = os.path.join(RESULTS, "sample_output.txt")
    if not os.path.exists(path):
        return "_(run make report-run: it writes results/sample_output.txt, shown here)_"
    with open(path) as f:
        text = f.read().rstrip("\n")
    return "```text\n$ bin/pi 1048576 64 --precision=float --repeat=10 --warmup=2 --cpu-repeat=3\n" + text + "\n```"


def main():
    readme = Readme(README)
    readme.block("table1", table1())
    readme.block("table2", table2())
    b, targets = bench()
    readme.block("bench", b)
    readme.block("targets", targets)
    readme.block("errors", errors())
    readme.block("report-formula", report_formula())
    readme.block("sample-output", sample_output())
    prof = load_profile()
    readme.block("profile", profile_table(prof))
    readme.block("profile-figure", "![pipe utilisation](figures/pipe_utilisation.png)" if prof is not None
                 else "_(run make profile: figures/pipe_utilisation.png is drawn from results/profile.csv)_")
    readme.block("profile-compare", profile_compare(prof))
    profile_values(readme, prof)
    readme.save()
    print("tables.py: README tables regenerated from {}/".format(RESULTS))


if __name__ == "__main__":
    main()
