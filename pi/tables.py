#!/usr/bin/env python3
"""Regenerates every table and number-carrying sentence of pi/README.md from results/*.csv
(`make tables`); columns are read by name, so earlier CSV layouts work too. The README's words
are prose.md's templates; this file declares the tables and computes the values they name.

    python3 tables.py [RESULTS_DIR [README]]"""
import math
import os
import sys
from functools import partial
from itertools import takewhile

sys.dont_write_bytecode = True  # no __pycache__ left in common/
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from readme_tables import (TIME, Readme, Table, join_words, joined_values, load as load_csv,  # noqa: E402
                           main_kernel, md_table, ncu_kernels, pivot, placeholder_table, pow2 as p2,
                           read_csv, read_templates, sci, section_values, span, text_block,
                           fill_blocks, part, blocks, names_used, prefixed)

RESULTS = sys.argv[1] if len(sys.argv) > 1 else "results"
README = sys.argv[2] if len(sys.argv) > 2 else "README.md"
PROSE = read_templates(os.path.join(HERE, "prose.md"))
RUN, PROFILE = PROSE["missing.report"], PROSE["missing.profile"]
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


def frag(name, **values):
    """prose.md's part `name` filled from values."""
    return part(PROSE, name, values)


def num(row, key="kernel_us"):
    """A number of a CSV row (kernel_us unless told); nan where the row or the cell is missing."""
    return NAN if row is None or row.get(key, "") in ("", "nan") else float(row[key])


tus, err = partial(num, key="total_us"), partial(num, key="abs_error")


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


def series(index, v, p, key=num):
    """key(row) of version v in precision p at each size of a by_key() index, ascending."""
    return [key(index[v, p, n]) for n in sorted({n for _, _, n in index})]


def gpu(r):
    return not r["version"].startswith("cpu")


def us(x):
    return "{:,.1f}".format(x) if x < 1000 else "{:,.0f}".format(x)


def fmt_us(v):
    return "" if math.isnan(v) else us(v)


def times(x):
    """A speed-up: one decimal below 10, none above."""
    return "{:.1f}".format(x) if x < 10 else "{:,.0f}".format(x)


def percent(x):
    return "{:.0%}".format(x).replace("%", " %")


def pct(x, digits=0):
    return "" if math.isnan(x) else "{:.{}f} %".format(x, digits)


def p64(n):
    """2^k·64 (the report's way of writing its sizes) for a power of two ≥ 64."""
    k = int(round(math.log2(n)))
    return "2^{}·64".format(k - 6) if 2 ** k == n and k >= 6 else "{:,}".format(n)


def limit(precision, which, device):
    """Gterms/s of version single at the chip's limit: `which` is "pipe" or "issue"; nan on a GPU
    other than the H100 whose SASS is counted above."""
    if "H100" not in device:
        return NAN
    s = SASS[precision]
    per_term, lanes = ((s["pipe_per_tile"], s["lanes"]) if which == "pipe" else
                       (s["all_per_tile"], ISSUE_LANES))
    return H100["sms"] * lanes * H100["ghz"] * 1e9 / (per_term / 64.0) / 1e9


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


def size_table(block, csv, columns, spec=fmt_us):
    """A table of one row per size (by_size()); a column that gives no format of its own has spec."""
    columns = [c if len(c) > 2 else (*c, spec) for c in columns]
    return Table(block, csv, columns, rows=by_size, missing=frag("missing.table", csv=csv), empty=True)


def targets_data(rows):
    """Version single against Thrust at bench.csv's size, and the chip's limits: one record per
    precision that has a row of single."""
    out = []
    for prec, factor, err_limit in (("float", 2.5, 1e-6), ("double", 1.2, 1e-12)):
        s = next((r for r in rows if r["version"] == "single" and r["precision"] == prec), None)
        th = next((r for r in rows if r["version"] == "thrust" and r["precision"] == prec), None)
        if s is not None:
            g, gt = num(s, "gterms_per_s"), num(th, "gterms_per_s")
            out.append({"prec": prec, "factor": factor, "err_limit": err_limit, "row": s, "thrust": th,
                        "g": g, "gt": gt, "x": g / gt if gt else NAN, "err": err(s),
                        "met": g >= factor * gt and err(s) <= err_limit,
                        "pipe": limit(prec, "pipe", s["device"]), "issue": limit(prec, "issue", s["device"])})
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
        (lambda g, v=v, p=p: "{:.1e}".format(err(g[v, p])) if (v, p) in g else "",
         "{} {}".format(NAME.get(v, v).replace("kernel ", "k"), p[0])) for v, p in pairs]


def pipe_cell(name):
    return lambda r: pct(r[name], 1) + ("" if math.isnan(r[name + "_cycles"]) else
                                        " ({:.1f})".format(r[name + "_cycles"]))


def tables(prof):
    k1, k2 = ("1", "float", "kernel_us"), ("2", "float", "kernel_us")
    k1t, k2t = ("1", "float", "total_us"), ("2", "float", "total_us")
    it = (iterations, "iterations (chunk 64)", "{}")
    return [
        size_table("table1", "table1.csv", [
            it, (report("1", "2"), "report: kernel 2 (us)"), (report("1", "cpu"), "report: CPU (us)"),
            (cell(*k2), "kernel 2, kernel only (us)"), (cell(*k2t), "kernel 2 + copy + host sum (us)"),
            (cell("cpu"), "CPU 1 thread (us)"), (cell("cpu_omp"), "CPU OpenMP (us)"),
            (cell("single"), "single launch (us)"),
            (over(("cpu", "float", "kernel_us"), k2t, "{:.0f}"), "CPU 1 thread / kernel 2 total", "{}")]),
        size_table("table2", "table2.csv", [
            it, (report("2", "1"), "report: kernel 1 (us)"), (report("2", "2"), "report: kernel 2 (us)"),
            (cell(*k1), "kernel 1 (us)"), (cell(*k2), "kernel 2 (us)"),
            (over(k1, k2, "{:.2f}"), "kernel 1 / kernel 2", "{}"),
            (cell(*k1t), "kernel 1 + copy + host sum (us)"), (cell(*k2t), "kernel 2 + copy + host sum (us)"),
            (cell("1", "double"), "kernel 1, double (us)"), (cell("2", "double"), "kernel 2, double (us)"),
            (cell("single"), "single, float (us)"), (cell("thrust"), "Thrust, float (us)")]),
        size_table("errors", "error.csv", error_columns(CSV["error.csv"]), "{}"),
        Table("bench", "bench.csv", [
            "version", "precision", ("kernel_us", "kernel (us)", "{:.1f}"),
            ("total_us", "+ copy + finish (us)", "{:.1f}"),
            ("gterms_per_s", "Gterms/s", "{:.1f}"), ("speedup_vs_baseline", "× Thrust", "{:.2f}"),
            ("speedup_vs_cpu", "× CPU 1 thread", "{:.0f}"), ("speedup_vs_cpu_omp", "× CPU OpenMP", "{:.1f}"),
            ("estimate", "estimate"), ("abs_error", "abs error", "{:.2e}"), ("tolerance", "bound", "{:.1e}"),
            (lambda r: "PASS" if r["result_ok"] == "1" else "FAIL", "result")],
            missing=frag("missing.table", csv="bench.csv"), bold=lambda r: r["version"] == "single",
            empty=True),
        Table("targets", "bench.csv", [
            ("prec", "single, precision"), ("g", "Gterms/s", "{:.0f}"), ("gt", "Thrust Gterms/s", "{:.0f}"),
            ("x", "× Thrust", "{:.2f}"), ("err", "abs error", "{:.2e}"),
            (lambda x: "≥ {}× Thrust, error ≤ {:g}".format(x["factor"], x["err_limit"]), "target"),
            (lambda x: "met" if x["met"] else "NOT met", ""),
            (limit_cell("pipe"), "pipe limit, Gterms/s (fraction)"),
            (limit_cell("issue"), "issue limit, Gterms/s (fraction)")],
            rows=targets_data, missing=frag("missing.table", csv="bench.csv"), empty=True),
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
            missing=placeholder_table(["version"], PROFILE), empty=True),
    ]


def report_formula():
    rows = (CSV["table1.csv"] or []) + (CSV["error.csv"] or [])
    cpu = by_key(rows)
    rep = pivot([r for r in rows if r["version"] == "cpu_report"], lambda r: int(r["n"]))
    out = [{"n": n, "rep": r["estimate"], "rerr": err(r), "two_h": 2.0 / n,
            "f": cpu.get(("cpu", "float", n), {}).get("estimate", ""),
            "ferr": err(cpu.get(("cpu", "float", n))), "derr": err(cpu.get(("cpu", "double", n)))}
           for n, r in sorted(rep.items())]
    if not out:
        return frag("missing.table", csv="table1.csv / error.csv")
    return md_table(out, [
        ("n", "iterations"), ("rep", "report's code, x = h(i − 0.5)"), ("rerr", "its error", "{:.2e}"),
        ("two_h", "2h", "{:.2e}"), ("f", "fixed, x = h(i + 0.5), float"), ("ferr", "its error", "{:.2e}"),
        ("derr", "fixed, double: error", "{:.2e}")])


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

        def get(metric, scale=1.0):
            return m[metric] * scale if metric in m else NAN
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


def compare_item(prof, prec, pn):
    """profile-compare's item for version single in precision prec (pn: its pipe): the SASS-based
    fractions of the targets table (bench.csv) against the counters, and the factors between."""
    r, s = prof.get(("single", prec)), SASS[prec]
    t = next((t for t in targets_data(CSV["bench.csv"] or []) if t["prec"] == prec), None)
    if r is None or t is None or "H100" not in t["row"]["device"]:
        return frag("pc.no-limits", p=prec)
    if r["n"] != int(t["row"]["n"]):
        return frag("pc.other-n", p=prec, n=r["n"], bench_n=t["row"]["n"])
    v = dict(p=prec, pn=pn, sp=s["pipe"], a=H100["ghz"], tn=fmt_us(r["t_us"]), tb=fmt_us(num(t["row"])),
             spt=s["pipe_per_tile"] / 64.0, sat=s["all_per_tile"] / 64.0, cp=r[pn], ci=r["issue"],
             ghz=r["ghz"], act=100 * r["active"], pipt=r[pn + "_ipt"], ipt=r["ipt"],
             fp=100 * t["g"] / t["pipe"], fi=100 * t["g"] / t["issue"],
             imad=", and IMADs on the FMA pipe" if prec == "float" else "")
    v.update(fc=H100["ghz"] / r["ghz"], ft=num(t["row"]) / r["t_us"], fa=1.0 / r["active"],
             fpp=v["pipt"] / v["spt"], fal=v["ipt"] / v["sat"])
    v["pp"] = v["fp"] * v["fc"] * v["ft"] * v["fa"] * v["fpp"]
    v["pi"] = v["fi"] * v["fc"] * v["ft"] * v["fa"] * v["fal"]
    if any(math.isnan(v[k]) for k in ("pp", "pi", "cp", "ci")):
        return frag("pc.no-counter", p=prec)
    for what, pred, meas in (("pipe", v["pp"], r[pn]), ("issue", v["pi"], r["issue"])):
        x = pred / meas - 1
        v[what + "_off"] = "{:+.1f}".format(100 * x) if round(100 * x, 1) != 0 else "0.0"
        v[what + "_word"] = "explained" if abs(x) <= 0.05 else "not fully explained by these factors"
    return frag("pc.compared", **v)


def prof_groups(prof):
    """The prose groups of the counters: prof-<tag><f|d>- per version and precision (placeholders
    where profile.csv or the version is missing), and prof-k12- (kernels 1 and 2, float)."""
    def counters(v, p):
        r = (prof or {})[v, p]
        return {"ipt": r["ipt"], "busiest": "{} ({})".format(r["busiest"], pct(r.get(r["busiest"], NAN))),
                "issue": pct(r["issue"]), "fma": pct(r["FMA"]), "fp64": pct(r["FP64"])}

    def k12():
        d = (prof or {})["1", "float"]["ipt"] - prof["2", "float"]["ipt"]
        return {"diff": frag("prof-k12-diff.more", x=abs(d), k="1" if d > 0 else "2")}
    return [("prof-k12-", k12)] + [("prof-{}{}-".format(tag, p[0]), partial(counters, v, p))
                                   for tag, v in (("k1", "1"), ("k2", "2"), ("th", "thrust"), ("s", "single"))
                                   for p in PRECISIONS]


# ---- Numbers in the README's prose, from the same CSVs (a missing CSV or row: KeyError) ----

def v_intro():
    """The introduction: where the rule's error stops mattering (error.csv, table1.csv)."""
    rows = need("error.csv")
    ratios = [err(r) / (1.0 / (12.0 * int(r["n"]) ** 2)) for r in need("error.csv", "table1.csv")
              if r["precision"] == "float" and gpu(r) and int(r["n"]) >= 2 ** 15]
    if not ratios:
        raise KeyError("float rows at n >= 2^15")

    def near_rule(n):  # every GPU version's error in double within a factor of 2 of h²/12
        h2 = 1.0 / (12.0 * n * n)
        d = [err(r) for r in rows if int(r["n"]) == n and r["precision"] == "double" and gpu(r)]
        return d and all(0.5 * h2 <= e <= 2 * h2 for e in d)
    last = max(takewhile(near_rule, sorted({int(r["n"]) for r in rows})), default=None)
    return {"float": frag("intro-float." + ("arithmetic" if min(ratios) > 10 else "rule"), x=min(ratios)),
            "double": frag("intro-double.up-to", n=p2(last)) if last else frag("intro-double.none")}


def v_bounds():
    """Tolerances at bench.csv's size (the Validation section and the single-launch section)."""
    b = need("bench.csv")
    n, at = int(b[0]["n"]), by_key(b)
    used = [err(r) / num(r, "tolerance") for r in b
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
    rerun = [t2.get(("thrust", p, n)) for p in PRECISIONS]  # Thrust's second run: table2.csv at n
    out["thrust-rerun"] = frag("tg-thrust-rerun.none", n=p2(n)) if not all(rerun) else frag(
        "tg-thrust-rerun.differs", n=p2(n), float2=us(num(rerun[0])), double2=us(num(rerun[1])),
        float=us(num(f["thrust"])), double=us(num(d["thrust"])),
        float_x=min(num(rerun[0]), num(f["thrust"])) / num(f["row"]),
        double_x=min(num(rerun[1]), num(d["thrust"])) / num(d["row"]))
    # Fraction of the chip's limit, and the marginal rate between table2.csv's two largest sizes.
    sizes = sorted({n for v, _, n in t2 if v == "single"})
    if len(sizes) < 2:
        raise KeyError("two sizes of single in table2.csv")
    n1, n2 = sizes[-2:]
    shares = []
    for t, lim, other in ((f, "issue", "pipe"), (d, "pipe", "issue")):
        p, g = t["prec"][0], t["g"]
        a, c = num(t2["single", t["prec"], n1]), num(t2["single", t["prec"], n2])
        rate = (n2 - n1) / ((c - a) * 1e-6) / 1e9
        measured = g / t[lim]
        shares.append(((rate / t[lim]) - measured) / (1 - measured) if measured < 1 else NAN)
        out.update({p + "-t": num(t["row"]), p + "-g": g, p + "-gt": t["gt"], p + "-grow": c - a,
                    p + "-x": "{:.2f}×".format(t["x"]),
                    p + "-err": sci(t["err"]) if t["err"] > 0 else frag("tg-err.zero", precision=t["prec"]),
                    p + "-bind": percent(g / t[lim]), p + "-other": percent(g / t[other]),
                    p + "-bind-of": frag("tg-bind-of.of", g=g, limit=t[lim]),
                    p + "-rate": "{:.2f}·10¹² terms/s".format(rate / 1e3),
                    p + "-rate-pct": percent(rate / t[lim]),
                    p + "-fixed": c - (c - a) * n2 / (n2 - n1)})
    out.update({"sizes": frag("tg-sizes.between", a=p2(n1), b=p2(n2)), "per": p2(n2 - n1) + " terms",
                "gap-word": "Most of the gap" if min(shares) > 0.5 else
                            "Part of the gap" if min(shares) > 0.05 else "Little of the gap",
                "gap-share": frag("tg-gap-share.of", float=100 * shares[0], double=100 * shares[1])})
    return out


def v_c1():
    """Conclusion 1: kernel 2 against the CPU, one thread and OpenMP (table1.csv, bench.csv)."""
    t1, b = by_key(need("table1.csv")), need("bench.csv")
    sizes, nb = sorted({n for _, _, n in t1}), int(b[0]["n"])
    k2 = {p: series(t1, "2", p, tus) for p in PRECISIONS}
    omp = {p: series(t1, "cpu_omp", p) for p in PRECISIONS}
    cpu = series(t1, "cpu", "float")
    one_total = [c / k for c, k in zip(cpu, k2["float"])]
    b2f, b2d = by_key(b)["2", "float", nb], by_key(b)["2", "double", nb]
    out = {"one-kernel": span([c / k for c, k in zip(cpu, series(t1, "2", "float"))], times),
           "one-total": span(one_total, times), "range": "{} … {}".format(p64(sizes[0]), p64(sizes[-1])),
           "one-big": frag("c1-one-big.at", x=num(b2f, "speedup_vs_cpu"), n=p2(nb)),
           "threads": str(int(float(t1["cpu_omp", "float", sizes[0]]["cpu_threads"] or 0))),
           "omp-big": frag("c1-omp-big.at", float=num(b2f, "speedup_vs_cpu_omp"),
                           double=num(b2d, "speedup_vs_cpu_omp"), n=p2(nb))}
    parts, erratic = [], []
    for p in PRECISIONS:
        gain = [o / k for o, k in zip(omp[p], k2[p])]  # OpenMP's time / kernel 2's (with copy and host sum)
        slow, fast = [i for i, x in enumerate(gain) if x < 1], [x for x in gain if x >= 1]
        parts.append(frag("c1-omp.faster", precision=p, x=span(fast, times)) if not slow else frag(
            "c1-omp.slower", precision=p, sizes=join_words(p64(sizes[i]) for i in slow),
            x=span([gain[i] for i in slow], "{:.2f}"), omp=us(omp[p][slow[0]]), k2=us(k2[p][slow[0]]),
            size=p64(sizes[slow[0]]),
            faster=frag("c1-omp.faster-elsewhere", x=span(fast, times)) if fast else ""))
        bumps = [i for i in range(len(sizes) - 1) if omp[p][i] > omp[p][i + 1]]
        if bumps:
            erratic.append(frag("c1-omp-erratic.times", precision=p,
                                us=join_words(us(omp[p][i]) for i in bumps),
                                sizes=join_words(p64(sizes[i]) for i in bumps)))
    out["omp"] = "; ".join(parts)
    out["omp-erratic"] = (" " + frag("c1-omp-erratic.not-monotonic", times="; ".join(erratic))
                          if erratic else "")
    any_slow = any(o < k for p in PRECISIONS for o, k in zip(omp[p], k2[p]))
    out["verdict"] = ("holds against one CPU thread" if min(one_total) > 1 else
                      "does not always hold even against one CPU thread") + (
        ", not always against all cores" if any_slow else ", and against all cores at table 1's sizes")
    return out


def v_c2():
    """Conclusion 2: kernel 2 flat, the CPU growing (table1.csv; the report's table 1)."""
    t1 = by_key(need("table1.csv"))
    sizes = sorted({n for _, _, n in t1})
    k, c = series(t1, "2", "float"), series(t1, "cpu", "float")
    rep = [REPORT["1"][n].get("2", NAN) for n in sorted(REPORT["1"])]
    flat, grows = max(k) / min(k) < 1.5, c[-1] / c[0] > 4
    growth = "{}×".format(sizes[-1] // sizes[0])
    return {"verdict": ("holds" if flat and grows else "does not hold" if not flat and not grows else
                        "holds only in part"),
            "range": growth, "k2-kernel": span(k, "{:.1f}"),
            "k2-total": span(series(t1, "2", "float", tus), "{:.1f}"),
            "flat": "i.e. launch and fixed costs" if flat else "not flat",
            "cpu": frag("c2-cpu.grows", first=us(c[0]), last=us(c[-1]), x=c[-1] / c[0], range=growth),
            "report": frag("c2-report.went", first=rep[0], last=rep[-1], x=rep[-1] / rep[0])}


def v_c3():
    """Conclusion 3: kernel 1 against kernel 2 (table2.csv, table1.csv; the report's table 2)."""
    t1, t2 = by_key(need("table1.csv")), by_key(need("table2.csv"))
    rep = [REPORT["2"][n].get("1", NAN) / REPORT["2"][n].get("2", NAN) for n in sorted(REPORT["2"])]

    def ratios(index, p, key=num):  # kernel 1 / kernel 2 at each size
        return [a / b for a, b in zip(series(index, "1", p, key), series(index, "2", p, key))]
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
    blocks = series(t1, "2", "float", lambda r: int(float(r["blocks"])))
    r1f, r1d = ratios(t1, "float"), ratios(t1, "double")
    diff = [a - b for p in PRECISIONS for a, b in zip(series(t1, "1", p), series(t1, "2", p))]
    return {"verdict": verdict, "report": span(rep, "{:.3f}"), "same": same,
            "float": span(kf, "{:.3f}"), "double": span(kd, "{:.3f}"),
            "total": span(tot, "{:.2f}"),
            "small": frag("c3-small.blocks", blocks=span(blocks, str, " to "), sizes=len(blocks),
                          float_n=sum(x > 1 for x in r1f), double_n=sum(x > 1 for x in r1d),
                          float=span(r1f, "{:.2f}"), double=span(r1d, "{:.2f}"),
                          low="{:.2f}".format(min(diff)).replace("-", "−"), high="{:.2f}".format(max(diff)),
                          total=span(ratios(t1, "float", tus) + ratios(t1, "double", tus), "{:.2f}"))}


def v_c4():
    """Conclusion 4: the reduction against the term evaluation (bench.csv, table2.csv)."""
    b, t2 = need("bench.csv"), by_key(need("table2.csv"))
    nb, n2, at = int(b[0]["n"]), max(n for _, _, n in t2), by_key(b)
    red = max(abs(num(at["1", p, nb]) / num(at["2", p, nb]) - 1) for p in PRECISIONS)
    out = {"n": p2(nb), "reduction": "{:.1f} %".format(100 * red), "t2-n": p2(n2)}
    gains = []
    for p, fragment in (("float", "c4-f-t2.faster"), ("double", "c4-d-t2.times")):
        a, s = num(t2["2", p, n2]), num(t2["single", p, n2])
        gains.append(a / s)
        out[p[0] + "-t2"] = frag(fragment, x=a / s, a=us(a), b=us(s))
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
    close = [n for n in ns if abs(err(rep[n]) / (2.0 / n) - 1) <= 0.1]
    if not close:
        raise KeyError("a size where the report's error is 2h")
    best, cur = [], []  # the longest run of consecutive sizes within 10 % of 2h
    for n in ns:
        cur = cur + [n] if n in close else []
        best = cur if len(cur) > len(best) else best
    a, z = best[0], best[-1]
    out = {"range": frag("c5-range.from", a=a, z=z, error_a=sci(err(rep[a]), 3), two_h_a=sci(2.0 / a, 3),
                         error_z=sci(err(rep[z]), 3), two_h_z=sci(2.0 / z, 3)),
           "double": joined_values((err(fixd[a]), err(fixd[z])), sci, " … "),
           "float": joined_values((min(err(fixf[n]) for n in best), max(err(fixf[n]) for n in best)), sci,
                                  " … ")}
    big = 2 ** 20 if 2 ** 20 in rep and 2 ** 20 in fixf else ns[-1]
    out["acc"] = frag("c5-acc.at", n=p2(big),
                      errors=" and ".join(sorted({sci(err(rep[big])), sci(err(fixf[big]))})))
    stall = [n for n in ns if err(rep[n]) > 0.1 and n > z]
    out["stall"] = frag("c5-stall.never") if not stall else frag(
        "c5-stall.from", n=p2(stall[0]), estimates=", ".join(rep[n]["estimate"] for n in stall),
        error=err(rep[ns[-1]]), last=p2(ns[-1]))
    at, nb = by_key(b), int(b[0]["n"])
    for p in PRECISIONS:
        groups = {}  # the GPU versions by their error, as the README prints it
        for v in dict.fromkeys(r["version"] for r in b if gpu(r)):
            if (v, p, nb) in at:
                groups.setdefault(sci(err(at[v, p, nb])), []).append(NAME.get(v, "`{}`".format(v)))
        out["gpu-" + p] = ", ".join("{} ({})".format(x, join_words(names)) for x, names in groups.items())
    out["n"] = p2(nb)
    return out


def main():
    readme, prof = Readme(README), load_profile(CSV["profile.csv"])
    readme.tables(tables(prof), RESULTS)
    readme.block("report-formula", report_formula())
    readme.block("sample-output", text_block(os.path.join(RESULTS, "sample_output.txt"),
                                             PROSE["sample-output.command"], PROSE["sample-output.missing"]))
    # The GPU of the committed run, from bench.csv's device column (else table1.csv's).
    device = next((CSV[name][0]["device"] for name in ("bench.csv", "table1.csv", "table2.csv")
                   if CSV[name] and CSV[name][0].get("device")), None)
    slots = names_used(PROSE)
    groups = [("intro-", v_intro), ("bound-", v_bounds), ("tg-", v_targets), ("c1-", v_c1), ("c2-", v_c2),
              ("c3-", v_c3), ("c4-", v_c4), ("c5-", v_c5)]
    values = section_values([prefixed(slots, *g, RUN) for g in groups]
                            + [prefixed(slots, *g, PROFILE) for g in prof_groups(prof)])
    values.update(device=device or RUN, gpu=device or PROSE["gpu.unknown"], sms=H100["sms"], ghz=H100["ghz"],
                  lanes=ISSUE_LANES)
    if prof is not None:
        values.update({"pc-float": compare_item(prof, "float", "FMA"),
                       "pc-double": compare_item(prof, "double", "FP64")})
    # A block's other text where the data call for it: no profile.csv; a GPU whose limits are not known here.
    other_gpu = device is None or math.isnan(limit("float", "pipe", device))
    chosen = blocks(PROSE)
    for variant, used in (("profile-figure.missing", prof is None), ("profile-compare.missing", prof is None),
                          ("limits-intro.other-gpu", other_gpu)):
        if used:
            chosen[variant.partition(".")[0]] = PROSE[variant]
    fill_blocks(readme, chosen, values, "prose.md")
    readme.save()
    print("tables.py: README tables regenerated from {}/".format(RESULTS))


if __name__ == "__main__":
    main()
