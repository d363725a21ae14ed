#!/usr/bin/env python3
"""Regenerates every table and number-carrying sentence of pi/README.md from results/*.csv
(`make tables`); columns are read by name, so earlier CSV layouts work too.

    python3 tables.py [RESULTS_DIR [README]]"""
import math
import os
import re
import sys
from itertools import takewhile

sys.dont_write_bytecode = True  # no __pycache__ left in common/
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from readme_tables import (TEMPLATE_NAME, TIME, Readme, Table, fill, join_words,  # noqa: E402
                           load as load_csv, main_kernel, md_table, ncu_kernels, numbered, pivot,
                           placeholder_table, pow2 as p2, read_csv, sci, section_values, span, text_block,
                           wrap)

RESULTS = sys.argv[1] if len(sys.argv) > 1 else "results"
README = sys.argv[2] if len(sys.argv) > 2 else "README.md"
RUN_PLACEHOLDER, PROFILE_PLACEHOLDER = "(run make report)", "(run make profile)"
NAN = float("nan")
PRECISIONS = ("float", "double")
# The README's own names of the versions (the report's "kernel 1"/"kernel 2"); others go by label.
NAME = {"1": "kernel 1", "2": "kernel 2", "thrust": "Thrust", "cpu": "CPU", "cpu_omp": "CPU OMP",
        "cpu_report": "report's CPU"}
# The errors table leaves out two double columns (kernel 1 and OpenMP), keeping it 13 columns wide.
ERRORS_OMIT = {("1", "double"), ("cpu_omp", "double")}
CSV = {name: load_csv(RESULTS, name)
       for name in ("table1.csv", "table2.csv", "error.csv", "bench.csv", "profile.csv")}

# The report's numbers (original/report_001.csv, its two tables) in us: {table: {n: {version: us}}}.
REPORT = {"1": {}, "2": {}}
for _r in read_csv(os.path.join(HERE, "original", "report_001.csv"), comments=True):
    REPORT[_r["table"]].setdefault(int(_r["n"]), {})[_r["version"]] = float(_r["time_us"])

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


def num(row, key="kernel_us"):
    return NAN if row is None or row.get(key, "") in ("", "nan") else float(row[key])


def tus(row):
    return num(row, "total_us")


def need(*names):
    """The rows of these CSVs, one list; KeyError (the prose group reads the placeholder) where
    one is missing."""
    if any(CSV[name] is None for name in names):
        raise KeyError(names)
    return [r for name in names for r in CSV[name]]


def by_key(rows):
    """The rows by (version, precision, n), the first of each: a missing row raises KeyError."""
    return pivot(rows, lambda r: (r["version"], r["precision"], int(r["n"])))


def by_size(rows):
    """One row per size, ascending: {"n": n, (version, precision): the first such CSV row}."""
    sizes = pivot(rows, lambda r: int(r["n"]), ("version", "precision"))
    return [dict(sizes[n], n=n) for n in sorted(sizes)]


def gpu(r):
    return not r["version"].startswith("cpu")


def us(x):
    return "{:,.1f}".format(x) if x < 1000 else "{:,.0f}".format(x)


def fmt_us(v):
    return "" if math.isnan(v) else us(v)


def p64(n):
    """2^k·64 (the report's way of writing its sizes) for a power of two ≥ 64."""
    k = int(round(math.log2(n)))
    return "2^{}·64".format(k - 6) if 2 ** k == n and k >= 6 else "{:,}".format(n)


def pct(x, digits=0):
    return "" if x is None or math.isnan(x) else "{:.{}f} %".format(x, digits)


def missing(name):
    return "_No results yet: run `make report` (writes results/{})._".format(name)


def limit_terms_per_s(precision, which, device):
    """Terms/s at the chip's limit for version single: `which` is "pipe" or "issue"."""
    if "H100" not in device:
        return NAN
    s = SASS[precision]
    per_term, lanes = ((s["pipe_per_tile"], s["lanes"]) if which == "pipe" else
                       (s["all_per_tile"], ISSUE_LANES))
    return H100["sms"] * lanes * H100["ghz"] * 1e9 / (per_term / 64.0)


# ---- tables ---------------------------------------------------------------------------------

def cell(v, p="float", key="kernel_us"):
    """A time (us) of a size's row (by_size()) as a column: (version, precision, CSV column)."""
    return lambda g: num(g.get((v, p)), key)


def report(table, v):
    return lambda g: REPORT[table].get(g["n"], {}).get(v, NAN)


def over(a, b, spec):
    """The ratio of two cells (version, precision, CSV column) of a size's row, formatted; empty
    when either row is missing."""
    return lambda g: spec.format(cell(*a)(g) / cell(*b)(g)) if g.get(a[:2]) and g.get(b[:2]) else ""


def iterations(g):
    return p64(g["n"]) + " = {}".format(g["n"]) if "·" in p64(g["n"]) else str(g["n"])


def us_table(name, columns):
    """Table 1 or 2: iterations, then columns of times in us (or of a ratio, given its format)."""
    columns = [(iterations, "iterations (chunk 64)")] + [(c[0], c[1], c[2] if len(c) > 2 else fmt_us)
                                                         for c in columns]
    return Table(name, name + ".csv", columns, rows=by_size, missing=missing(name + ".csv"), empty=True)


def targets_data(rows):
    """Targets of version single at bench.csv's size: one record per precision."""
    out = []
    for prec, factor, err_limit in (("float", 2.5, 1e-6), ("double", 1.2, 1e-12)):
        s = next((r for r in rows if r["version"] == "single" and r["precision"] == prec), None)
        th = next((r for r in rows if r["version"] == "thrust" and r["precision"] == prec), None)
        if s is None:
            continue
        g, gt = num(s, "gterms_per_s"), num(th, "gterms_per_s")
        out.append({"prec": prec, "factor": factor, "err_limit": err_limit, "row": s, "thrust": th, "g": g,
                    "gt": gt, "x": g / gt if gt else NAN, "err": num(s, "abs_error"),
                    "met": (g >= factor * gt) and (num(s, "abs_error") <= err_limit),
                    "pipe": limit_terms_per_s(prec, "pipe", s["device"]) / 1e9,
                    "issue": limit_terms_per_s(prec, "issue", s["device"]) / 1e9})
    return out


def limit_cell(which):
    def text(x):
        lim = x[which]
        return "n/a" if math.isnan(lim) else "{}{:.0f} ({:.0%})".format(
            SASS[x["prec"]]["pipe"] + " " if which == "pipe" else "", lim, x["g"] / lim)
    return text


def error_columns(rows):
    pairs = [p for p in dict.fromkeys((r["version"], r["precision"]) for r in rows or [])
             if p not in ERRORS_OMIT]
    return [("n", "iterations"), (lambda g: "{:.1e}".format(1.0 / (12.0 * g["n"] ** 2)), "h²/12")] + [
        (lambda g, v=v, p=p: "{:.1e}".format(num(g[v, p], "abs_error")) if (v, p) in g else "",
         "{} {}".format(NAME.get(v, v).replace("kernel ", "k"), p[0])) for v, p in pairs]


def pipe_cell(name):
    return lambda r: pct(r[name], 1) + ("" if math.isnan(r[name + "_cycles"]) else
                                        " ({:.1f})".format(r[name + "_cycles"]))


def tables(prof):
    k1, k2 = ("1", "float", "kernel_us"), ("2", "float", "kernel_us")
    k1t, k2t = ("1", "float", "total_us"), ("2", "float", "total_us")
    return [
        us_table("table1", [
            (report("1", "2"), "report: kernel 2 (us)"), (report("1", "cpu"), "report: CPU (us)"),
            (cell(*k2), "kernel 2, kernel only (us)"), (cell(*k2t), "kernel 2 + copy + host sum (us)"),
            (cell("cpu"), "CPU 1 thread (us)"), (cell("cpu_omp"), "CPU OpenMP (us)"),
            (cell("single"), "single launch (us)"),
            (over(("cpu", "float", "kernel_us"), k2t, "{:.0f}"), "CPU 1 thread / kernel 2 total", "{}")]),
        us_table("table2", [
            (report("2", "1"), "report: kernel 1 (us)"), (report("2", "2"), "report: kernel 2 (us)"),
            (cell(*k1), "kernel 1 (us)"), (cell(*k2), "kernel 2 (us)"),
            (over(k1, k2, "{:.2f}"), "kernel 1 / kernel 2", "{}"),
            (cell(*k1t), "kernel 1 + copy + host sum (us)"), (cell(*k2t), "kernel 2 + copy + host sum (us)"),
            (cell("1", "double"), "kernel 1, double (us)"), (cell("2", "double"), "kernel 2, double (us)"),
            (cell("single"), "single, float (us)"), (cell("thrust"), "Thrust, float (us)")]),
        Table("errors", "error.csv", error_columns(CSV["error.csv"]), rows=by_size,
              missing=missing("error.csv"), empty=True),
        Table("bench", "bench.csv", [
            "version", "precision", ("kernel_us", "kernel (us)", "{:.1f}"),
            ("total_us", "+ copy + finish (us)", "{:.1f}"),
            ("gterms_per_s", "Gterms/s", "{:.1f}"), ("speedup_vs_baseline", "× Thrust", "{:.2f}"),
            ("speedup_vs_cpu", "× CPU 1 thread", "{:.0f}"), ("speedup_vs_cpu_omp", "× CPU OpenMP", "{:.1f}"),
            ("estimate", "estimate"), ("abs_error", "abs error", "{:.2e}"), ("tolerance", "bound", "{:.1e}"),
            (lambda r: "PASS" if r["result_ok"] == "1" else "FAIL", "result")],
            bold=lambda r: r["version"] == "single", missing=missing("bench.csv"), empty=True),
        Table("targets", "bench.csv", [
            ("prec", "single, precision"), ("g", "Gterms/s", "{:.0f}"), ("gt", "Thrust Gterms/s", "{:.0f}"),
            ("x", "× Thrust", "{:.2f}"), ("err", "abs error", "{:.2e}"),
            (lambda x: "≥ {}× Thrust, error ≤ {:g}".format(x["factor"], x["err_limit"]), "target"),
            (lambda x: "met" if x["met"] else "NOT met", ""),
            (limit_cell("pipe"), "pipe limit, Gterms/s (fraction)"),
            (limit_cell("issue"), "issue limit, Gterms/s (fraction)")],
            rows=targets_data, missing=missing("bench.csv"), empty=True),
        Table("profile", "profile.csv", [
            ("v", "version"), ("p", "precision"), ("k", "kernel (longest)"),
            (lambda r: r["t_us"], "time under ncu (us)", fmt_us),
            ("ghz", "SM clock (GHz)", "{:.3f}"), (lambda r: pct(100 * r["active"], 1), "SMs active"),
            (pipe_cell("FMA"), "FMA pipe (cycles busy)"), (pipe_cell("FP64"), "FP64 pipe (cycles busy)"),
            (pipe_cell("XU"), "XU pipe"), (lambda r: pct(r["issue"], 1), "issue slots"),
            ("busiest", "busiest pipe"), ("ipt", "instructions per term", "{:.2f}")],
            rows=lambda rows: [dict(r, v=NAME.get(v, v), p=p, k=r["kernel"] + (
                " (+{} more)".format(r["kernels"] - 1) if r["kernels"] > 1 else ""))
                for (v, p), r in prof.items()],
            missing=placeholder_table(["version"], PROFILE_PLACEHOLDER), empty=True),
    ]


def report_formula():
    rows = (CSV["table1.csv"] or []) + (CSV["error.csv"] or [])
    cpu = by_key(rows)
    rep = pivot([r for r in rows if r["version"] == "cpu_report"], lambda r: int(r["n"]))
    out = [{"n": n, "rep": r["estimate"], "rerr": num(r, "abs_error"), "two_h": 2.0 / n,
            "f": cpu.get(("cpu", "float", n), {}).get("estimate", ""),
            "ferr": num(cpu.get(("cpu", "float", n)), "abs_error"),
            "derr": num(cpu.get(("cpu", "double", n)), "abs_error")} for n, r in sorted(rep.items())]
    return md_table(out, [
        ("n", "iterations"), ("rep", "report's code, x = h(i − 0.5)"), ("rerr", "its error", "{:.2e}"),
        ("two_h", "2h", "{:.2e}"), ("f", "fixed, x = h(i + 0.5), float"), ("ferr", "its error", "{:.2e}"),
        ("derr", "fixed, double: error", "{:.2e}")]) if out else missing("table1.csv / error.csv")


# ---- Nsight Compute counters (results/profile.csv, `make profile`) -----------------------

M_TIME, M_CLOCK = TIME, "sm__cycles_elapsed.avg.per_second"
M_ACTIVE, M_ELAPSED, M_INST = "sm__cycles_active.avg", "sm__cycles_elapsed.avg", "sm__inst_executed.sum"
M_ISSUE = "smsp__issue_active.avg.pct_of_peak_sustained_active"
PIPES = [  # name, % of peak (instructions), % of peak (cycles busy, where there is one), instructions
    ("FMA", "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active",
     "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "sm__inst_executed_pipe_fma.sum"),
    ("FP64", "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active",
     "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", "sm__inst_executed_pipe_fp64.sum"),
    ("XU", "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", None,
     "sm__inst_executed_pipe_xu.sum"),
]


def kernel_short(name):
    """pi::pi_chunks_tree_block_sum<float> -> pi_chunks_tree_block_sum<float>; CUB's
    cub::CUB_300000_SM_900::DeviceReduceKernel<long arguments> -> DeviceReduceKernel."""
    base, sep, args = name.partition("<")
    return base.split("::")[-1] + (sep + args if sep and len(args) <= 16 else "")


def load_profile(rows):
    """{(label, precision): the counters of the version's main (longest) kernel}, in the CSV's
    order; None without results/profile.csv."""
    if rows is None:
        return None
    out = {}
    for version, kernels in ncu_kernels(rows).items():
        m = main_kernel(kernels)
        n = int(float(m["n"]))
        get = lambda metric, scale=1.0: m[metric] * scale if metric in m else NAN  # noqa: E731
        rec = {"kernel": kernel_short(m["kernel"]), "kernels": len(kernels), "n": n,
               "t_us": get(M_TIME, 1e-3), "ghz": get(M_CLOCK, 1e-9), "active": get(M_ACTIVE) / get(M_ELAPSED),
               "issue": get(M_ISSUE), "ipt": get(M_INST) * 32.0 / n}
        for name, pct_metric, cycles, count in PIPES:
            rec[name], rec[name + "_cycles"] = get(pct_metric), get(cycles) if cycles else NAN
            rec[name + "_ipt"] = get(count) * 32.0 / n
        busy = [(rec[name], name) for name, _, _, _ in PIPES if not math.isnan(rec[name])]
        rec["busiest"] = max(busy)[1] if busy else ""
        label, _, prec = version.partition(":")
        out[label, prec] = rec
    return out


def profile_compare(prof):
    """The SASS-based fractions of the targets table (bench.csv) against the counters, for
    version single, with the factors that separate them."""
    if prof is None:
        return "_" + PROFILE_PLACEHOLDER + ": the comparison needs results/profile.csv._"
    rows, lines = CSV["bench.csv"] or [], []
    for prec, pn in (("float", "FMA"), ("double", "FP64")):
        r = prof.get(("single", prec))
        b = next((x for x in rows if x["version"] == "single" and x["precision"] == prec), None)
        s = SASS[prec]
        if r is None or b is None or "H100" not in b["device"]:
            lines.append("single, {}: _no profile or bench row of a GPU whose limits are known here, to "
                         "compare_".format(prec))
            continue
        if r["n"] != int(b["n"]):
            lines.append("single, {}: _profiled at niter = {}, bench.csv at {}: not compared_".format(
                prec, r["n"], b["n"]))
            continue
        g, t_bench = num(b, "gterms_per_s"), num(b, "kernel_us")
        spt, sat = s["pipe_per_tile"] / 64.0, s["all_per_tile"] / 64.0
        fp, fi = (100 * g / (limit_terms_per_s(prec, w, b["device"]) / 1e9) for w in ("pipe", "issue"))
        fc, ft, fa = H100["ghz"] / r["ghz"], t_bench / r["t_us"], 1.0 / r["active"]
        fpp, fal = r[pn + "_ipt"] / spt, r["ipt"] / sat
        pp, pi = fp * fc * ft * fa * fpp, fi * fc * ft * fa * fal
        if any(math.isnan(x) for x in (pp, pi, r[pn], r["issue"])):
            lines.append("single, {}: _a counter is missing from results/profile.csv_".format(prec))
            continue
        lines.append(
            "**single, {p}**: the counters read the {pn} pipe at **{cp}** of its peak and the issue slots at "
            "**{ci}**, where the targets table's SASS-based fractions are {fp} ({sp} pipe) and {fi} "
            "(issue). Four factors separate them: the SM clock under ncu was {ghz:.3f} GHz, not the assumed "
            "{a:.2f} (×{fc:.3f}); the profiled launch took {tn} us against bench.csv's {tb} us (×{ft:.3f}); "
            "the counters divide by SM-active cycles, {act} of the elapsed ones (×{fa:.3f}: the tail, the "
            "last block's reduction); and the whole kernel executes {pipt:.2f} {pn}-pipe and {ipt:.2f} "
            "instructions per term against the inner loop's {spt:.2f} and {sat:.2f} in the SASS count "
            "(×{fpp:.3f} and ×{fal:.3f}: {extra}). Together they predict {pp} and {pi}: {verdict}.".format(
                p=prec, pn=pn, cp=pct(r[pn], 1), ci=pct(r["issue"], 1), fp=pct(fp), sp=s["pipe"], fi=pct(fi),
                ghz=r["ghz"], a=H100["ghz"], fc=fc, tn=fmt_us(r["t_us"]), tb=fmt_us(t_bench), ft=ft,
                act=pct(100 * r["active"], 1), fa=fa, pipt=r[pn + "_ipt"], ipt=r["ipt"], spt=spt, sat=sat,
                fpp=fpp, fal=fal, pp=pct(pp, 1), pi=pct(pi, 1), verdict="; ".join(
                    agreement(what, pred, meas) for what, pred, meas in (
                        ("the pipe", pp, r[pn]), ("the issue slots", pi, r["issue"]))),
                extra="the tile set-up, the remainder, the reduction" + (
                    ", and IMADs on the FMA pipe" if prec == "float" else "")))
    return "\n".join(wrap(line, "- ") for line in lines)


def agreement(what, pred, meas):
    """How well the factors explain a counter, in words."""
    off = pred / meas - 1
    return "{} {} % off the counter ({})".format(
        what, "{:+.1f}".format(100 * off) if round(100 * off, 1) != 0 else "0.0",
        "explained" if abs(off) <= 0.05 else "not fully explained by these factors")


def prof_groups(prof):
    """The prose groups of the counters: prof-<tag><f|d>- per version and precision (placeholders
    where profile.csv or the version is missing), and prof-k12- (kernels 1 and 2, float)."""
    def counters(v, p):
        r = (prof or {})[v, p]
        busiest = "{} ({})".format(r["busiest"], pct(r.get(r["busiest"], NAN)))
        return {"ipt": "{:.2f}".format(r["ipt"]), "busiest": busiest, "issue": pct(r["issue"]),
                "fma": pct(r["FMA"]), "fp64": pct(r["FP64"])}

    def k12():
        d = (prof or {})["1", "float"]["ipt"] - prof["2", "float"]["ipt"]
        return {"diff": "{:.2f} instructions per term (kernel {} executes more)".format(
            abs(d), "1" if d > 0 else "2")}
    return [("prof-k12-", k12)] + [("prof-{}{}-".format(tag, p[0]), lambda v=v, p=p: counters(v, p))
                                   for tag, v in (("k1", "1"), ("k2", "2"), ("th", "thrust"), ("s", "single"))
                                   for p in PRECISIONS]


# ---- Numbers in the README's prose, from the same CSVs (a missing CSV or row: KeyError) ----

def ratio(x):
    """A speed-up: one decimal below 10, none above."""
    return "{:.1f}".format(x) if x < 10 else "{:,.0f}".format(x)


def sizes_of(index):
    return sorted({n for _, _, n in index})


def v_intro():
    """The introduction: where the rule's error stops mattering (error.csv, table1.csv)."""
    err = need("error.csv")
    ratios = [num(r, "abs_error") / (1.0 / (12.0 * int(r["n"]) ** 2)) for r in need("error.csv", "table1.csv")
              if r["precision"] == "float" and gpu(r) and int(r["n"]) >= 2 ** 15]
    if not ratios:
        raise KeyError("float rows at n >= 2^15")

    def near_rule(n):
        h2 = 1.0 / (12.0 * n * n)
        d = [num(r, "abs_error") for r in err if int(r["n"]) == n and r["precision"] == "double" and gpu(r)]
        return d and all(0.5 * h2 <= e <= 2 * h2 for e in d)
    last = max(takewhile(near_rule, sorted({int(r["n"]) for r in err})), default=None)
    return {
        "float": ("made by the arithmetic, not by the rule (error.csv and table1.csv: every GPU version's "
                  "error there is at least {:.0f}× h²/12)".format(min(ratios)) if min(ratios) > 10 else
                  "not always larger than the rule's own (error.csv and table1.csv: down to {:.1f}× "
                  "h²/12)".format(min(ratios))),
        "double": ("the GPU versions' errors stay within a factor of 2 of the rule's h²/12 up to n = {} "
                   "(error.csv)".format(p2(last)) if last else
                   "the GPU versions' errors already differ from the rule's h²/12 at n = 1 (error.csv)"),
    }


def v_bounds():
    """Tolerances at bench.csv's size (the Validation section and the single-launch section)."""
    b = need("bench.csv")
    n, at = int(b[0]["n"]), by_key(b)
    used = [num(r, "abs_error") / num(r, "tolerance") for r in b
            if not math.isinf(num(r, "tolerance")) and num(r, "tolerance") > 0]
    return {"n": p2(n), "used": "{:.2g} %".format(100 * max(used)),
            "single-double": sci(num(at["single", "double", n], "tolerance"), 1),
            "single-float": sci(num(at["single", "float", n], "tolerance"), 1),
            "k2-float": sci(num(at["2", "float", n], "tolerance"), 1)}


def v_targets():
    """The paragraphs under the targets table (bench.csv; table2.csv for the second run of Thrust
    and for the marginal rate between its two largest sizes)."""
    b, t2 = need("bench.csv"), by_key(need("table2.csv"))
    tg = {t["prec"]: t for t in targets_data(b)}
    if set(tg) != set(PRECISIONS) or any(t["thrust"] is None for t in tg.values()):
        raise KeyError("single and thrust rows in bench.csv")
    f, d = tg["float"], tg["double"]
    n = int(f["row"]["n"])
    out = {"n": p2(n), "verdict": "Both targets are met" if f["met"] and d["met"] else
           "Neither target is met" if not f["met"] and not d["met"] else
           "The {} target is met, the {} one is not".format(*(PRECISIONS if f["met"] else PRECISIONS[::-1]))}
    # Thrust in a second run (table2.csv at the same size, if it has it).
    rerun = {p: t2.get(("thrust", p, n)) for p in PRECISIONS}
    if all(rerun.values()):
        fast = {p: min(num(rerun[p]), num(tg[p]["thrust"])) / num(tg[p]["row"]) for p in rerun}
        out["thrust-rerun"] = (
            "Thrust's time differs between runs: at {} table2.csv (another invocation in the same "
            "`make report-run`) has {} and {} us, bench.csv {} and {} us; with the faster Thrust time "
            "of each pair the ratios would be {:.2f}× and {:.2f}×".format(
                p2(n), us(num(rerun["float"])), us(num(rerun["double"])), us(num(f["thrust"])),
                us(num(d["thrust"])), fast["float"], fast["double"]))
    else:
        out["thrust-rerun"] = "table2.csv has no Thrust row at {} to compare another run with".format(p2(n))
    # Fraction of the chip's limit, and the marginal rate between table2.csv's two largest sizes.
    sizes = sorted({n for v, _, n in t2 if v == "single"})
    if len(sizes) < 2:
        raise KeyError("two sizes of single in table2.csv")
    n1, n2 = sizes[-2], sizes[-1]
    shares = []
    for t, lim, other in ((f, "issue", "pipe"), (d, "pipe", "issue")):
        p = t["prec"][0]
        out[p + "-t"] = "{:.1f}".format(num(t["row"]))
        out[p + "-g"], out[p + "-gt"] = "{:.0f}".format(t["g"]), "{:.0f}".format(t["gt"])
        out[p + "-x"] = "{:.2f}×".format(t["x"])
        out[p + "-err"] = (sci(t["err"]) if t["err"] > 0 else
                           "0 (the estimate is π rounded to {})".format(t["prec"]))
        out[p + "-bind"] = "{:.0%}".format(t["g"] / t[lim]).replace("%", " %")
        out[p + "-bind-of"] = "{:.0f} of {:.0f}".format(t["g"], t[lim])
        out[p + "-other"] = "{:.0%}".format(t["g"] / t[other]).replace("%", " %")
        a, c = num(t2["single", t["prec"], n1]), num(t2["single", t["prec"], n2])
        rate = (n2 - n1) / ((c - a) * 1e-6) / 1e9
        measured = t["g"] / t[lim]
        shares.append(((rate / t[lim]) - measured) / (1 - measured) if measured < 1 else float("nan"))
        out[p + "-grow"] = "{:.1f}".format(c - a)
        out[p + "-rate"] = "{}·10¹² terms/s".format("{:.2f}".format(rate / 1e3))
        out[p + "-rate-pct"] = "{:.0%}".format(rate / t[lim]).replace("%", " %")
        out[p + "-fixed"] = "{:.1f}".format(c - (c - a) * n2 / (n2 - n1))
    out["sizes"] = "between {} and {}".format(p2(n1), p2(n2))
    out["per"] = p2(n2 - n1) + " terms"
    out["gap-word"] = ("Most of the gap" if min(shares) > 0.5 else
                       "Part of the gap" if min(shares) > 0.05 else "Little of the gap")
    out["gap-share"] = ("{:.0f} % (float) and {:.0f} % (double) of the distance from the measured rate to "
                        "the limit".format(100 * shares[0], 100 * shares[1]))
    return out


def v_c1():
    """Conclusion 1: kernel 2 against the CPU, one thread and OpenMP (table1.csv, bench.csv)."""
    t1, b = by_key(need("table1.csv")), need("bench.csv")
    sizes, nb = sizes_of(t1), int(b[0]["n"])
    k2 = {(p, n): t1["2", p, n] for p in PRECISIONS for n in sizes}
    omp = {(p, n): num(t1["cpu_omp", p, n]) for p in PRECISIONS for n in sizes}
    cpu = {n: num(t1["cpu", "float", n]) for n in sizes}
    one_total = [cpu[n] / tus(k2["float", n]) for n in sizes]
    b2f, b2d = by_key(b)["2", "float", nb], by_key(b)["2", "double", nb]
    out = {
        "one-kernel": span([cpu[n] / num(k2["float", n]) for n in sizes], ratio),
        "one-total": span(one_total, ratio),
        "range": "{} … {}".format(p64(sizes[0]), p64(sizes[-1])),
        "one-big": "{:.0f}× (kernel only) at {}".format(num(b2f, "speedup_vs_cpu"), p2(nb)),
        "threads": str(int(float(t1["cpu_omp", "float", sizes[0]]["cpu_threads"] or 0))) or "K",
        "omp-big": "{:.0f}× (float) and {:.0f}× (double) as fast as OpenMP at {}".format(
            num(b2f, "speedup_vs_cpu_omp"), num(b2d, "speedup_vs_cpu_omp"), p2(nb)),
    }
    parts, erratic = [], []
    for p in PRECISIONS:
        gain = {n: omp[p, n] / tus(k2[p, n]) for n in sizes}
        slow, fast = [n for n in sizes if gain[n] < 1], [n for n in sizes if gain[n] >= 1]
        faster = "faster at {} ({}×)".format("the other sizes" if slow else "every size",
                                             span([gain[n] for n in fast], ratio))
        if slow:
            parts.append("in {}, slower at {} ({}×; OpenMP {} us against kernel 2's {} us at {}){}".format(
                p, join_words(map(p64, slow)), span([gain[n] for n in slow], "{:.2f}"), us(omp[p, slow[0]]),
                us(tus(k2[p, slow[0]])), p64(slow[0]), ", " + faster if fast else ""))
        else:
            parts.append("in {}, {}".format(p, faster))
        bumps = [n for n, m in zip(sizes, sizes[1:]) if omp[p, n] > omp[p, m]]
        if bumps:
            erratic.append("{} {} us at {}".format(p, join_words(us(omp[p, n]) for n in bumps),
                                                  join_words(map(p64, bumps))))
    out["omp"] = "; ".join(parts)
    out["omp-erratic"] = (
        " OpenMP's times in table1.csv are not monotonic in n ({}, each more than the next larger size "
        "took), so the ratios at those sizes measure OpenMP's outliers rather than the GPU.".format(
            "; ".join(erratic))
        if erratic else "")
    any_slow = any(omp[p, n] < tus(k2[p, n]) for p in PRECISIONS for n in sizes)
    out["verdict"] = ("holds against one CPU thread" if min(one_total) > 1 else
                      "does not always hold even against one CPU thread") + (
        ", not always against all cores" if any_slow else ", and against all cores at table 1's sizes")
    return out


def v_c2():
    """Conclusion 2: kernel 2 flat, the CPU growing (table1.csv; the report's table 1)."""
    t1 = by_key(need("table1.csv"))
    sizes = sizes_of(t1)
    k = [num(t1["2", "float", n]) for n in sizes]
    t = [tus(t1["2", "float", n]) for n in sizes]
    c = [num(t1["cpu", "float", n]) for n in sizes]
    rep = [REPORT["1"][n].get("2", NAN) for n in sorted(REPORT["1"])]
    flat, grows = max(k) / min(k) < 1.5, c[-1] / c[0] > 4
    return {
        "verdict": ("holds" if flat and grows else "does not hold" if not flat and not grows else
                    "holds only in part"),
        "range": "{}×".format(sizes[-1] // sizes[0]),
        "k2-kernel": span(k, "{:.1f}"), "k2-total": span(t, "{:.1f}"),
        "flat": "i.e. launch and fixed costs" if flat else "not flat",
        "cpu": "from {} to {} us ({:.1f}× for {}× the terms)".format(us(c[0]), us(c[-1]), c[-1] / c[0],
                                                                    sizes[-1] // sizes[0]),
        "report": "went from {:.0f} to {:.0f} us ({:.1f}×) over the same range".format(
            rep[0], rep[-1], rep[-1] / rep[0]),
    }


def v_c3():
    """Conclusion 3: kernel 1 against kernel 2 (table2.csv, table1.csv; the report's table 2)."""
    t1, t2 = by_key(need("table1.csv")), by_key(need("table2.csv"))
    rep = [REPORT["2"][n].get("1", NAN) / REPORT["2"][n].get("2", NAN) for n in sorted(REPORT["2"])]

    def ratios(rows, p, key=num):
        return [key(rows["1", p, n]) / key(rows["2", p, n]) for n in sizes_of(rows)]
    kf, kd = ratios(t2, "float"), ratios(t2, "double")
    tot = ratios(t2, "float", tus) + ratios(t2, "double", tus)
    dev = max(abs(x - 1) for x in kf + kd)
    if all(x > 1.02 for x in kf + kd):
        verdict, same = "holds at table 2's sizes", "kernel 2 is faster by more than 2 % at every size"
    elif dev <= 0.02:
        verdict = "does not hold at table 2's sizes"
        same = "within ±{} %, i.e. no measurable difference".format(max(2, math.ceil(100 * dev)))
    else:
        verdict = "does not hold at every one of table 2's sizes"
        same = "kernel 2 is not faster at every size"
    sizes1 = sizes_of(t1)
    blocks = [int(float(t1["2", "float", n]["blocks"])) for n in sizes1]
    r1f, r1d = ratios(t1, "float"), ratios(t1, "double")
    diff = [num(t1["1", p, n]) - num(t1["2", p, n]) for p in PRECISIONS for n in sizes1]
    return {
        "verdict": verdict, "report": span(rep, "{:.3f}"),
        "float": span(kf, "{:.3f}"), "double": span(kd, "{:.3f}"), "total": span(tot, "{:.2f}"), "same": same,
        "small": ("Kernel 2 is faster (kernel only) where the grid is small (table 1: {} blocks) at {} of {} "
                  "sizes in float and {} of {} in double: kernel 1 / kernel 2 = {} in float, {} in double "
                  "(kernel 1 − kernel 2: {} to {} us); with the copy and host sum the ratio is {}".format(
                      span(blocks, str, " to "), sum(x > 1 for x in r1f), len(sizes1),
                      sum(x > 1 for x in r1d), len(sizes1), span(r1f, "{:.2f}"), span(r1d, "{:.2f}"),
                      "{:.2f}".format(min(diff)).replace("-", "−"), "{:.2f}".format(max(diff)),
                      span(ratios(t1, "float", tus) + ratios(t1, "double", tus), "{:.2f}"))),
    }


def v_c4():
    """Conclusion 4: the reduction against the term evaluation (bench.csv, table2.csv)."""
    b, t2 = need("bench.csv"), by_key(need("table2.csv"))
    nb, n2, at = int(b[0]["n"]), max(n for _, _, n in t2), by_key(b)
    red = max(abs(num(at["1", p, nb]) / num(at["2", p, nb]) - 1) for p in PRECISIONS)
    out = {"n": p2(nb), "reduction": "{:.1f} %".format(100 * red), "t2-n": p2(n2)}
    gains = []
    for p in PRECISIONS:
        a, s = num(t2["2", p, n2]), num(t2["single", p, n2])
        gains.append(a / s)
        out[p[0] + "-t2"] = "{:.2f}× {}({} → {} us)".format(a / s, "faster " if p == "float" else "",
                                                            us(a), us(s))
        out[p[0] + "-bench"] = "{:.2f}×".format(num(at["2", p, nb]) / num(at["single", p, nb]))
    out["verdict"] = ("the reduction is not where the time goes here" if red < 0.1 and min(gains) > 2 else
                      "the reduction matters less than the term evaluation here" if min(gains) > 1 + red else
                      "the reduction matters here")
    return out


def v_c5():
    """Conclusion 5: the report's formula (table1.csv + error.csv) and the GPU errors at bench.csv's size."""
    rows, b = need("table1.csv", "error.csv"), need("bench.csv")
    rep = {int(r["n"]): r for r in rows if r["version"] == "cpu_report"}
    fixf, fixd = ({int(r["n"]): r for r in rows if r["version"] == "cpu" and r["precision"] == p}
                  for p in PRECISIONS)
    ns = sorted(n for n in rep if n in fixf and n in fixd)
    e = lambda r: num(r, "abs_error")  # noqa: E731
    close = [n for n in ns if abs(e(rep[n]) / (2.0 / n) - 1) <= 0.1]
    if not close:
        raise KeyError("a size where the report's error is 2h")
    # The longest run of consecutive sizes within 10 % of 2h.
    best, cur = [], []
    for n in ns:
        cur = cur + [n] if n in close else []
        best = cur if len(cur) > len(best) else best
    a, z = best[0], best[-1]
    out = {
        "range": "from {:,} to {:,} iterations ({} against {} … {} against {})".format(
            a, z, sci(e(rep[a]), 3), sci(2.0 / a, 3), sci(e(rep[z]), 3), sci(2.0 / z, 3)),
        "double": "{} … {}".format(sci(e(fixd[a])), sci(e(fixd[z]))),
        "float": " … ".join(sci(x) for x in (min(e(fixf[n]) for n in best), max(e(fixf[n]) for n in best))),
    }
    big = 2 ** 20 if 2 ** 20 in rep and 2 ** 20 in fixf else ns[-1]
    out["acc"] = "{} at {}".format(" and ".join(sorted({sci(e(rep[big])), sci(e(fixf[big]))})), p2(big))
    stall = [n for n in ns if e(rep[n]) > 0.1 and n > z]
    out["stall"] = ("from {} the sum stalls (estimates {}; error {:.2f} at {})".format(
        p2(stall[0]), ", ".join(rep[n]["estimate"] for n in stall), e(rep[ns[-1]]), p2(ns[-1])) if stall else
        "the sum never stalls in these sizes")
    at, nb = by_key(b), int(b[0]["n"])
    for p in PRECISIONS:
        groups = {}
        for v in dict.fromkeys(r["version"] for r in b if gpu(r)):
            if (v, p, nb) in at:
                groups.setdefault(sci(e(at[v, p, nb])), []).append(NAME.get(v, "`{}`".format(v)))
        out["gpu-" + p] = ", ".join("{} ({})".format(x, join_words(names)) for x, names in groups.items())
    out["n"] = p2(nb)
    return out


# ---- the README's generated prose: whole paragraphs and list items -----------------------

# The sentences of the README that carry numbers, with {name} where a value goes; each key is
# a generated block (paragraphs; "conclusions": a numbered list).
PROSE = {
    'intro': [
        ("π ≈ h · Σ_{i=0}^{n−1} 4/(1 + x_i²), x_i = (i + ½) h, h = 1/n, n = `niter`. The midpoint rule "
         "itself is off by about h²/12 (the sum is larger than π), so in float, at the sizes of the "
         "report's tables (n ≥ 2^15), the estimate's error is {intro-float}; in double {intro-double}."),
    ],
    'bounds': [
        ("A chain's bound grows linearly with its length, so naive float summation of 2^30 terms on one "
         "thread has no guarantee at all (the bound is then infinite and the version is reported, not "
         "failed: its error is in the figure). For `single` at {bound-n} (bench.csv) the bound is "
         "{bound-single-float} (float) and {bound-single-double} (double); for kernel 2 {bound-k2-float} "
         "(float). The measured errors are far smaller (at {bound-n} no version uses more than "
         "{bound-used} of a finite bound): see the figure and tables."),
    ],
    'targets-prose': [
        ("**{tg-verdict}** (bench.csv, {tg-n}, same run). float: `single` {tg-f-t} us, {tg-f-g} Gterms/s, "
         "**{tg-f-x}** Thrust float ({tg-f-gt} Gterms/s; target 2.5×), |π_est − π| = {tg-f-err} (target "
         "10⁻⁶). double: {tg-d-t} us, {tg-d-g} Gterms/s, **{tg-d-x}** Thrust double ({tg-d-gt} Gterms/s; "
         "target 1.2×), error {tg-d-err}; target 10⁻¹². {tg-thrust-rerun}."),
        ("Fraction of the chip's limit: float reaches **{tg-f-bind} of the issue limit** ({tg-f-bind-of} "
         "Gterms/s; the binding one) and {tg-f-other} of the FP32-pipe limit; double reaches "
         "**{tg-d-bind} of the FP64-pipe limit** ({tg-d-bind-of} Gterms/s; the binding one) and "
         "{tg-d-other} of the issue limit. {tg-gap-word} is a fixed cost per launch: {tg-sizes} in "
         "table2.csv the time of `single` grows by {tg-f-grow} us (float) and {tg-d-grow} us (double) per "
         "{tg-per}, i.e. {tg-f-rate} ({tg-f-rate-pct} of the issue limit) and {tg-d-rate} "
         "({tg-d-rate-pct} of the FP64 limit), with about {tg-f-fixed} us (float) and {tg-d-fixed} us "
         "(double) per launch that do not scale with n (likely the launch, the last block's reduction and "
         "the tail); that fixed cost accounts for {tg-gap-share}. The limits assume the 1.98 GHz boost "
         "clock; bench.csv does not record the SM clock during the run (profile.csv does, under ncu: see "
         "the comparison below), so a lower sustained clock would make these fractions higher."),
    ],
    'conclusions': [
        ("**\"Heterogeneous computing wins\": {c1-verdict}.** Kernel 2 (float) against the single-threaded "
         "CPU: {c1-one-kernel}× kernel only, {c1-one-total}× with the copy and the host finish, over "
         "{c1-range}; {c1-one-big}. Against OpenMP on {c1-threads} threads, with the copy and host finish "
         "counted, the GPU is, {c1-omp}.{c1-omp-erratic} Kernel only, kernel 2 is {c1-omp-big} "
         "(bench.csv)."),
        ("**The GPU time is nearly flat, the CPU time grows: {c2-verdict}.** Over the {c2-range} range of "
         "table 1, kernel 2 takes {c2-k2-kernel} us (kernel only) and {c2-k2-total} us (with copy and "
         "host sum), {c2-flat}; the one-thread CPU grows {c2-cpu}. The report's GPU {c2-report} on its "
         "8-multiprocessor device (the report's numbers, original/report_001.csv)."),
        ("**Kernel 2 faster than kernel 1: {c3-verdict}.** The report measured kernel 1 / kernel 2 = "
         "{c3-report} (original/report_001.csv); on {device} it is {c3-float} in float and {c3-double} in "
         "double (kernel only), {c3-total} with copy and host sum: {c3-same}. With our 256 threads per "
         "block (the report's work-group size is not known), each block's reduction adds 256 values after "
         "16,384 terms of ~19 instructions each, so the term evaluation dominates. {c3-small}."),
        ("**\"Improving the reduction operations\" as the way to tune: {c4-verdict}.** Changing the "
         "reduction (kernel 1 → 2) moves the {c4-n} time by at most {c4-reduction} (bench.csv); changing "
         "the term evaluation (kernel 2 → `single`: symmetric pairs, one approximate reciprocal per 4 "
         "terms, no index conversion) makes it {c4-f-t2} in float and {c4-d-t2} in double at {c4-t2-n} in "
         "table2.csv ({c4-f-bench} and {c4-d-bench} in bench.csv). The counters say the same "
         "(results/profile.csv, 2^30): kernel 1 executes {prof-k1f-ipt} instructions per term and kernel "
         "2 {prof-k2f-ipt} in float ({prof-k1d-ipt} and {prof-k2d-ipt} in double): the two reductions "
         "differ by {prof-k12-diff} in float. The busiest pipe of kernel 2 is {prof-k2f-busiest} in float "
         "and {prof-k2d-busiest} in double, with the issue slots at {prof-k2f-issue} and "
         "{prof-k2d-issue}; Thrust's, doing the same per-term work, is {prof-thf-busiest} and "
         "{prof-thd-busiest} (issue {prof-thf-issue} and {prof-thd-issue}). What bounds them is the "
         "evaluation of each term (the index conversion and the division), which the reduction does not "
         "touch; `single` removes that work and runs the FMA pipe at {prof-sf-fma} with the issue slots "
         "at {prof-sf-issue} in float, and the FP64 pipe at {prof-sd-fp64} (issue {prof-sd-issue}) in "
         "double."),
        ("**The report's printed accuracy: its CPU code computes π + 2h, not π.** The report-formula "
         "table shows the error within 10 % of 2h {c5-range}, where the fixed formula's error is h²/12 in "
         "double ({c5-double}) and {c5-float} in float. Beyond that the float accumulation of its "
         "one-float loop dominates for both formulas ({c5-acc}) and {c5-stall}. At {c5-n} (bench.csv) the "
         "GPU versions' errors are, in float, {c5-gpu-float}; in double {c5-gpu-double}."),
    ],
}



def device_of_run():
    """The GPU of the committed run, from bench.csv's device column (else table1.csv's)."""
    return next((CSV[name][0]["device"] for name in ("bench.csv", "table1.csv", "table2.csv")
                 if CSV[name] and CSV[name][0].get("device")), None)


def limits_intro(device):
    """The datasheet figures the limits below are computed from, for the GPU they describe
    (the committed run's); another GPU's run gets no limits (its rows say nan)."""
    figures = ("{} SMs at {:.2f} GHz boost; per SM and clock 4 warp instructions issued ({} lanes), "
               "128 FP32 lanes, 64 FP64 lanes, 16 MUFU lanes").format(H100["sms"], H100["ghz"], ISSUE_LANES)
    if device is not None and not math.isnan(limit_terms_per_s("float", "pipe", device)):
        return wrap("{} (datasheet figures, not measured): {}. Limits in terms per second (computed from "
                    "these figures and the SASS counts above, not measured):".format(device, figures))
    return wrap("The limits below are computed from the datasheet of the GPU of the committed run ({}) and "
                "the SASS counts above; they do not apply to {}, whose limit columns below are therefore "
                "left at nan:".format(figures, device or "this run's GPU"))


def main():
    readme = Readme(README)
    prof = load_profile(CSV["profile.csv"])
    readme.tables(tables(prof), RESULTS)
    readme.block("report-formula", report_formula())
    readme.block("sample-output", text_block(
        os.path.join(RESULTS, "sample_output.txt"),
        "$ bin/pi 1048576 64 --precision=float --repeat=10 --warmup=2 --cpu-repeat=3",
        "_(run make report-run: it writes results/sample_output.txt, shown here)_"))
    readme.block("profile-figure", "![pipe utilisation](figures/pipe_utilisation.png)" if prof is not None
                 else "_(run make profile: figures/pipe_utilisation.png is drawn from results/profile.csv)_")
    readme.block("profile-compare", profile_compare(prof))
    device = device_of_run()
    groups = [("intro-", v_intro), ("bound-", v_bounds), ("tg-", v_targets), ("c1-", v_c1), ("c2-", v_c2),
              ("c3-", v_c3), ("c4-", v_c4), ("c5-", v_c5)]
    templates = [p for ps in PROSE.values() for p in ps]
    slots = set(re.findall(TEMPLATE_NAME, "\n".join(templates)))

    def section(prefix, fn, placeholder):  # the slots that start with prefix: fn() names them less it
        return (sorted(n for n in slots if n.startswith(prefix)),
                lambda: {prefix + k: v for k, v in fn().items()}, placeholder)
    values = section_values([section(*g, RUN_PLACEHOLDER) for g in groups]
                            + [section(*g, PROFILE_PLACEHOLDER) for g in prof_groups(prof)])
    values["device"] = device or RUN_PLACEHOLDER
    sub = lambda text: fill(text, values)  # noqa: E731
    for name, paragraphs in PROSE.items():
        readme.block(name, numbered(map(sub, paragraphs), sub(
            "All ratios below come from one run on {device} (results/*.csv); table 1's sizes are in "
            "table1.csv, table 2's in table2.csv, 2^30 in bench.csv.")) if name == "conclusions" else
            "\n\n".join(wrap(sub(p)) for p in paragraphs))
    readme.block("limits-intro", limits_intro(device))
    readme.save()
    print("tables.py: README tables regenerated from {}/".format(RESULTS))


if __name__ == "__main__":
    main()
