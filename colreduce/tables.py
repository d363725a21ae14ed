#!/usr/bin/env python3
"""Fills colreduce/README.md's generated blocks from results/colreduce.csv and, beside it,
block_per_column.csv, context.csv (make report-run) and profile.csv (make profile); a missing one
leaves a placeholder. The words are prose.md's.      python3 tables.py [results/colreduce.csv [README.md]]"""
import os
import statistics
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from readme_tables import (Pivot, Readme, Table, all_hold, compare, fill, fill_blocks, headings,  # noqa: E402
                           joined_values, load, main_kernel, md_table, ncu_kernels, num, pivot,
                           placeholder_table, ratio, read_csv, read_templates, sci, span, verdict)

csv_path = sys.argv[1] if len(sys.argv) > 1 else "results/colreduce.csv"
readme = sys.argv[2] if len(sys.argv) > 2 else "README.md"
results_dir = os.path.dirname(os.path.abspath(csv_path))
RUN, PROFILE = "not measured yet: run make report-run", "not measured yet: run make profile"
if not os.path.exists(csv_path):
    sys.exit(f"{csv_path} not found: run `make report` on a GPU machine first")
rows = read_csv(csv_path)
if not rows:
    sys.exit(f"{csv_path} has no rows")
doc, T = Readme(readme), read_templates(os.path.join(HERE, "prose.md"))
PART = {name[5:]: T.pop(name) for name in list(T) if name.startswith("part.")}  # phrases, not blocks
KERNEL, TOTAL, BPC = "kernel_ms", "gpu_total_ms", "block_per_column"
REPORT, OURS = ["original", "high1", "high2"], ["tall", "tall_det", "cublas"]
# The claims' thresholds (prose.md quotes each as {limit.NAME}).
LIMIT = {"idle-threads": 16, "idle-active": 10, "atomic-share": 1, "sectors": 28, "const-change": 10,
         "target-n8": 1.2}
# One entry per size (config_index, m, n), in the order of the run, with each version's row.
P = Pivot(rows, lambda r: (int(r["config_index"]), int(r["m"]), int(r["n"])))
sizes, order, cell, col, ratio_of, at = P.by_key, P.keys, P.cell, P.col, P.ratio, P.over


# ---- generic helpers, not colreduce's own (candidates for common/py/readme_tables.py) -------------
def pct(a, b):
    return None if ratio(a, b) is None else 100 * ratio(a, b)


def top(values):
    return max([x for x in values if x is not None], default=None)


def summed(c, *names):  # the sum of c's counters `names`, a missing one counting 0; None if all are
    return None if all(c.get(m) is None for m in names) else sum(c.get(m) or 0 for m in names)


def passed(rows):
    return f"{sum(r['result_ok'] == '1' for r in rows)} of {len(rows)}"


def from_to(pairs, show):  # 'show(smallest) to show(largest)' of the (value, ...) tuples with a value
    known = [p for p in pairs if p[0] is not None]
    return f"{show(*min(known))} to {show(*max(known))}" if known else "n/a"


# ---- colreduce's own: sizes, times, columns of the main run, counters of the profile ------------
def dims(s):
    return f"{s[-2]:,} × {s[-1]}"


def ms(x):  # milliseconds with 3 significant digits or 3 decimals, whichever says more
    return "" if x is None else (f"{x:.4f}" if x < 1 else (f"{x:.3f}" if x < 100 else f"{x:.1f}"))


def shared(s, column):  # a value that every version's row at the size holds (cpu_ms, context_ms)
    return cell(s, next(iter(sizes[s])), column)


def share(column):  # fn(size, version): the part of the version's GPU total that `column` takes, in %
    return lambda s, v: pct(cell(s, v, column), cell(s, v, TOTAL))


def timed(v, missing=None):  # column: v's kernel time, '(FAIL)' where it did not pass; `missing` if none
    return lambda s: missing if missing is not None and cell(s, v) is None else (
        ms(cell(s, v)) + ("" if sizes[s].get(v, {"result_ok": "1"})["result_ok"] == "1" else " (FAIL)"))


def with_context(s, column=None):  # context creation (+ original's `column`, if given) in ms, or RUN
    c, t = shared(s, "context_ms"), cell(s, "original", column) if column else 0
    return RUN if c is None or t is None else ms(c + t)


def of_bpc(column):  # column of block_per_column (the report's unlisted idea): empty where it did not run
    return lambda s: None if cell(s, BPC) is None else cell(s, BPC, column)


def target_met(s):  # our target: the better of tall/tall_det at least as fast as cuBLAS, >= 1.2x at n = 8
    best = min([x for x in (cell(s, "tall"), cell(s, "tall_det")) if x is not None], default=None)
    x, need = ratio(cell(s, "cublas"), best), LIMIT["target-n8"] if s[2] == 8 else 1.0
    return "" if x is None else (f"yes (≥ {need:g})" if x >= need else f"**no** (< {need:g})")


def counter(v, sz, metric):  # an Nsight Compute counter of version v at size sz; None where not there
    return prof.get((v, sz), {}).get(metric)


def measured(v, metric, spec="{:.1f}"):  # the counter at the profiled sizes, 'a / b'
    return joined_values([counter(v, sz, metric) for sz in prof_sizes], spec, none="–")


def holds(v, metric, op, limit):
    return all_hold([compare(counter(v, sz, metric), op, LIMIT[limit]) for sz in prof_sizes])


# The tables of the main run, a row per size: after m and n, their columns. cpu-traffic: the report's
# CPU loop walks column i down all m rows, n passes with a stride of 8n bytes; with 8n >= 64 every
# access reads a cache line of its own: traffic = n * m * min(8n, 64) bytes.
MAIN_TABLES = {
    "report-kernel": [(lambda s: ms(shared(s, "cpu_ms")), "CPU (ms)")] + [
        (timed(v), f"{v} kernel (ms)") for v in REPORT] + [
        (ratio_of("original", "high1"), "ratio1 (kernel)", "{:.1f}"),
        (ratio_of("original", "high2"), "ratio2 (kernel)", "{:.1f}"),
        (timed("high2_const", RUN), "high2_const kernel (ms)"),
        (ratio_of("high2", "high2_const"), "high2 / high2_const", "{:.3f}")],
    "report-total": [(col("original", "alloc_ms"), "allocation (ms, original)", ms),
                     (col("original", "copy_ms"), "copies (ms, original)", ms)] + [
        (col(v, TOTAL), f"{v} GPU total (ms)", ms) for v in REPORT] + [
        (ratio_of("original", "high1", TOTAL), "ratio1 (total)", "{:.2f}"),
        (ratio_of("original", "high2", TOTAL), "ratio2 (total)", "{:.2f}"),
        (with_context, "context creation (ms, once per process)"),
        (lambda s: with_context(s, TOTAL), "original GPU total + context (ms, as the report timed it)")],
    "block-per-column": [
        (timed(BPC, RUN), "block_per_column kernel (ms)"), (of_bpc("bandwidth_GBps"), "GB/s", "{:.0f}"),
        (of_bpc("pct_of_copy_bw"), "% of copy bw", "{:.1f}"),
        (ratio_of("original", BPC), "speed-up over original", "{:.1f}"),
        (ratio_of("high2", BPC), "speed-up over high2", "{:.2f}"),
        (ratio_of(BPC, "tall"), "times slower than tall", "{:.0f}"), (of_bpc(TOTAL), "GPU total (ms)", ms)],
    "tall-table": [
        (timed("tall"), "tall (ms)"), (timed("tall_det"), "tall_det (ms)"), (timed("cublas"), "cuBLAS (ms)"),
        (col("tall", "bandwidth_GBps"), "tall GB/s", "{:.0f}"),
        (col("tall", "pct_of_copy_bw"), "tall % of copy bw", "{:.0f}"),
        (col("cublas", "bandwidth_GBps"), "cuBLAS GB/s", "{:.0f}"),
        (ratio_of("cublas", "tall"), "tall speed-up vs cuBLAS", "{:.2f}"),
        (ratio_of("cublas", "tall_det"), "tall_det speed-up vs cuBLAS", "{:.2f}"),
        (target_met, "target met (best of ours)")],
    "cpu-traffic": [
        (lambda s: str(8 * s[2]), "stride between two reads (bytes)"),
        (lambda s: f"{s[1] * s[2] * 8 / 1e9:.2f}", "matrix (GB)"),
        (lambda s: f"{s[2] * s[1] * min(8 * s[2], 64) / 1e9:.2f}",
         "column-wise loop: n · m · min(8n, 64) bytes (GB)"),
        (lambda s: f"{s[2] * s[1] * min(8 * s[2], 64) / (s[1] * s[2] * 8):.0f}", "times the matrix")]}
for block, columns in MAIN_TABLES.items():
    doc.block(block, md_table(order, [(lambda s: f"{s[1]:,}", "m"), (lambda s: str(s[2]), "n")] + columns))

# block_per_column beside its demonstration (block over the limit, launch unchecked).
DEMO = [(lambda r: f"`{r['version']}`", "version"), (lambda r: f"{int(r['m']):,}", "m"), "n", "block",
        (lambda r: r.get("max_threads_per_block", ""), "device limit (threads per block)"),
        (lambda r: f"`{r.get('launch_error', '')}`", "launch error (not checked)"),
        (lambda r: "yes" if r["result_ok"] == "1" else "**no**", "right result"),
        (lambda r: f"{r.get('wrong_columns', '')} of {r['n']}", "wrong columns"),
        ("max_abs_err", "largest error")]
doc.tables([Table("block-per-column-demo", "block_per_column.csv", DEMO,
                  missing=placeholder_table(headings(DEMO), RUN))], results_dir)

# Nsight Compute (make profile): per version and size, the longest kernel's counters, and those
# computed from them (named without dots).
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
OCC = "sm__warps_active.avg.pct_of_peak_sustained_active"
TPI = "smsp__thread_inst_executed_per_inst_executed.ratio"
LOADS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
prof = {k: main_kernel(kernels) for k, kernels in ncu_kernels(
    load(results_dir, "profile.csv"), lambda r: (r["version"], (int(r["m"]), int(r["n"])))).items()}
PROFILE_VERSIONS = list(dict.fromkeys(v for v, _ in prof))
prof_sizes = list(dict.fromkeys(sz for _, sz in prof))[:2]
for c in prof.values():
    c["atomics"] = summed(c, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
                          "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum")
    c["atomics_l2"] = summed(c, "lts__t_sectors_op_red.sum", "lts__t_sectors_op_atom.sum")
    c["active"] = pct(c.get("sm__cycles_active.avg"), c.get("sm__cycles_elapsed.avg"))
    c["sectors"] = ratio(c.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), c.get(LOADS))
    c["atomic_share"] = pct(c["atomics"], c.get(LOADS))
PER_SIZE = [(DRAM, "DRAM % of peak", "{:.1f}"),
            ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM % of peak", "{:.1f}"),
            ("gpu__time_duration.sum", "kernel (µs, under ncu)", lambda ns: f"{ns * 1e-3:.1f}")]
doc.block("profile-dram", md_table(PROFILE_VERSIONS, [(lambda v: f"`{v}`", "version")] + [
    (lambda v, sz=sz, m=m: counter(v, sz, m), f"{head}, {dims(sz)}", spec)
    for sz in prof_sizes for m, head, spec in PER_SIZE]) if prof else placeholder_table(["version"], PROFILE))

# Counters behind the report's explanations (a row per version and size), and the claims they check.
have_new = any(counter(v, sz, TPI) is not None for v in PROFILE_VERSIONS for sz in prof_sizes)
COUNTERS = [(OCC, "achieved occupancy (%)", "{:.1f}"),
            ("sm__maximum_warps_per_active_cycle_pct", "theoretical occupancy (%)", "{:.0f}"),
            (TPI, "threads per warp instruction", "{:.1f}"),
            ("active", "SM cycles active (% of elapsed)", "{:.1f}"),
            ("sectors", "sectors per load request", "{:.1f}"),
            ("atomics", "atomic requests (L1)", "{:.0f}"), ("atomics_l2", "atomic sectors (L2)", "{:.0f}"),
            ("atomic_share", "atomic requests per 100 load requests", "{:.3f}")]
doc.block("profile-counters", md_table([dict(prof.get((v, sz), {}), version=f"`{v}`", size=dims(sz))
                                        for v in PROFILE_VERSIONS for sz in prof_sizes],
                                       [("version",), ("size", "m × n")] + COUNTERS)
          if have_new else placeholder_table(["version"], PROFILE))
V = {"run": RUN, "prof-at": " / ".join(dims(sz) for sz in prof_sizes),
     "idle-threads": measured("original", TPI), "idle-active": measured("original", "active"),
     "idle-occupancy": measured("original", OCC), "idle-verdict": verdict(all_hold([
         holds("original", TPI, "<", "idle-threads"), holds("original", "active", "<", "idle-active")])),
     "bpc-sectors": measured(BPC, "sectors"), "bpc-verdict": verdict(holds(BPC, "sectors", ">=", "sectors"))}
for v in ("high1", "high2"):
    V.update({f"{v}-atomics": measured(v, "atomics", "{:.0f}"),
              f"{v}-share": measured(v, "atomic_share", "{:.3f}"),
              f"{v}-verdict": verdict(holds(v, "atomic_share", "<", "atomic-share"))})
if not have_new:
    T["profile-claims"] = placeholder_table(["statement"], PROFILE)

# ---- values the prose quotes: spans over the sizes ('a–b'), then values at some sizes -------------
checked = [r for r in rows if r.get("validated", "1") != "0"]  # a demonstration is never counted
large, small = [s for s in order if s[1] >= 1000000], [s for s in order if s[1] < 1000000]
n8 = [s for s in order if s[2] == 8]
ratio1, ratio2 = at(ratio_of("original", "high1")), at(ratio_of("original", "high2"))
SPANS = {  # name: (the values, format, unit)
    "ratio1-kernel": (ratio1, "{:.1f}", ""), "ratio2-kernel": (ratio2, "{:.1f}", ""),
    "ratio-kernel-both": (ratio1 + ratio2, "{:.0f}", "×"),
    "ratio1-total": (at(ratio_of("original", "high1", TOTAL)), "{:.1f}", "×"),
    "ratio2-total": (at(ratio_of("original", "high2", TOTAL)), "{:.1f}", "×"),
    "orig-kernel-share": (at(share(KERNEL), ["original"]), "{:.0f}", " %"),
    "copy-share-ours": (at(share("copy_ms"), OURS), "{:.0f}", " %"),
    "kernel-share-high2": ([top(at(share(KERNEL), ["high2"]))], "{:.1f}", " %"),
    "kernel-share-ours": ([top(at(share(KERNEL), OURS))], "{:.1f}", " %"),
    "tall-over-high2-kernel": (at(ratio_of("high2", "tall")), "{:.0f}", "×"),
    "tall-over-high2-total": (at(ratio_of("high2", "tall", TOTAL)), "{:.2f}", "×"),
    "tall-bw-large": ([cell(s, "tall", "bandwidth_GBps") for s in large], "{:.0f}", " GB/s"),
    "tall-pct-large": ([cell(s, "tall", "pct_of_copy_bw") for s in large], "{:.0f}", " %"),
    "tall-us-small": ([cell(s, "tall") for s in small], lambda x: f"{1000 * x:.0f}", " µs"),
    "bpc-vs-original": (at(ratio_of("original", BPC)), "{:.0f}", "×"),
    "bpc-vs-high2": (at(ratio_of("high2", BPC)), "{:.2f}", "×"),
    "bpc-vs-tall": (at(ratio_of(BPC, "tall")), "{:.0f}", "×"),
    "bpc-pct": (at(col(BPC, "pct_of_copy_bw")), "{:.1f}", " %"),
    "cpu-ms": (at(lambda s: shared(s, "cpu_ms")), lambda x: f"{x:.2g}" if x < 10 else f"{x:.0f}", " ms"),
    "cpu-over-original-total": (at(lambda s: ratio(cell(s, "original", "cpu_ms"),
                                                   cell(s, "original", TOTAL))), "{:.2f}", ""),
    "tall-vs-cublas": (at(ratio_of("cublas", "tall")), "{:.2f}", "×"),
    "tall_det-vs-cublas": (at(ratio_of("cublas", "tall_det")), "{:.2f}", "×"),
    "tall_det-minus-tall": (at(lambda s: None if None in (cell(s, "tall_det"), cell(s, "tall"))
                               else cell(s, "tall_det") - cell(s, "tall")),
                            lambda x: f"{1000 * x:.1f}", " µs")}
for v in ("high1", "high2"):
    SPANS.update({f"bw-{v}": (at(col(v, "bandwidth_GBps")), "{:.0f}", " GB/s"),
                  f"bw-pct-{v}": (at(col(v, "pct_of_copy_bw")), "{:.1f}", " %"),
                  f"copy-share-{v}": (at(share("copy_ms"), [v]), "{:.0f}", " %")})
V.update({name: span(values, spec, unit=unit) for name, (values, spec, unit) in SPANS.items()})
V.update({f"limit.{name}": f"{x:g}" for name, x in LIMIT.items()})
V.update({f"first.{k}": v for k, v in rows[0].items()})  # the device, driver, data, ... of the run
runs = pivot(rows, lambda r: (r["repeat"], r["warmup"]), "version")  # {(repeat, warmup): {version: row}}
V.update({
    "passed": passed(checked), "largest-error": sci(top(num(r.get("err_over_bound")) for r in checked)),
    "copy-bw": f"{float(rows[0]['copy_bw_GBps']):.0f}",
    "runs": "; ".join(fill(PART["runs"], {"repeat": rep, "warmup": warm, "versions": ", ".join(sorted(vs))})
                      for (rep, warm), vs in sorted(runs.items())),
    "ratio2-by-n": ", ".join(f"{span([r for r, s in zip(ratio2, order) if s[2] == n], '{:.0f}')} at n = {n}"
                             for n in sorted({s[2] for s in order})),
    "tall-pct-small": joined_values([cell(s, "tall", "pct_of_copy_bw") for s in small], "{:.0f}"),
    "small-n": joined_values([s[2] for s in small]), "n8-m": joined_values([s[1] for s in n8], "{:,}"),
    "tall-n8": joined_values([ratio_of("cublas", "tall")(s) for s in n8], "{:.2f}"),
    "cublas-pct-n8": joined_values([cell(s, "cublas", "pct_of_copy_bw") for s in n8], "{:.0f}"),
    "tall-pct-n8": joined_values([cell(s, "tall", "pct_of_copy_bw") for s in n8], "{:.0f}")})

# Examples: where original's kernel takes the largest share; 1,600,000 x 32; the largest matrix.
shares = [(x, s) for x, s in zip(at(share(KERNEL), ["original"]), order) if x is not None]
e = max(shares)[1] if shares else None
V["orig-example"] = "n/a" if e is None else fill(PART["orig-example"], {
    "kernel": f"{cell(e, 'original'):.0f}", "total": f"{cell(e, 'original', TOTAL):.0f}", "size": dims(e)})
ex = next((s for s in order if (s[1], s[2]) == (1600000, 32)), order[len(order) // 2])
V["example-size"] = dims(ex)
for v in ("high2", "tall"):
    V.update({f"example-{v}": ms(cell(ex, v)), f"example-{v}-total": ms(cell(ex, v, TOTAL))})
big = max(order, key=lambda s: s[1] * s[2])
h2ds = [cell(big, v, "h2d_ms") for v in sizes[big]]
kernels = [cell(big, v) for v in OURS if cell(big, v) is not None]
V["h2d-spread"] = "n/a"
if top(h2ds) is not None and kernels:
    spread, between = top(h2ds) - min(x for x in h2ds if x is not None), max(kernels) - min(kernels)
    V["h2d-spread"] = fill(PART["h2d-spread"], {
        "size": dims(big), "gb": f"{big[1] * big[2] * 8 / 1e9:.1f}", "h2d": span(h2ds, ms, unit=" ms"),
        "spread": ms(spread), "between": ms(between),
        "more": "far more" if spread > 10 * between else ("more" if spread > between else "less")})

# block_per_column and its demonstration; context creation (make report-run).
bpc_rows = [sizes[s][BPC] for s in order if BPC in sizes[s]]
V.update({"bpc-passed": passed(bpc_rows)} if bpc_rows else
         dict.fromkeys(["bpc-passed", "bpc-vs-original", "bpc-vs-high2", "bpc-vs-tall", "bpc-pct"], RUN))
demo = load(results_dir, "block_per_column.csv")
bad = [r for r in demo or [] if r["version"] == "block_per_column_over_limit"]
V.update(dict.fromkeys(["demo-launch", "demo-wrong", "demo-limit", "demo-ok"], RUN) if not demo else {
    "demo-launch": " / ".join(f"`{x}`" for x in sorted({r.get("launch_error", "") for r in bad})) or "n/a",
    "demo-wrong": ", ".join(fill(PART["demo-wrong"], {"wrong": r.get("wrong_columns", "?"), "n": r["n"],
                                                      "size": dims((int(r["m"]), r["n"]))})
                            for r in bad) or "n/a",
    "demo-limit": bad[0].get("max_threads_per_block", "n/a") if bad else "n/a",
    "demo-ok": passed([r for r in demo if r["version"] == BPC])})
ctx = [x for x in (num(r.get("context_ms")) for r in load(results_dir, "context.csv") or []) if x is not None]
V["context-ms"] = RUN if not ctx else fill(PART["context-ms"], {
    "range": span(ctx, "{:.0f}", unit=" ms"), "median": f"{statistics.median(ctx):.0f}", "count": len(ctx)})
c0, s0 = shared(order[0], "context_ms"), order[0]
V["context-share"] = RUN if c0 is None else fill(PART["context-share"], {
    "context": ms(c0), "size": dims(s0), "tall": ms(cell(s0, "tall", TOTAL)),
    "tall-share": f"{pct(c0, c0 + cell(s0, 'tall', TOTAL)):.0f}",
    "original-share": f"{pct(c0, c0 + cell(s0, 'original', TOTAL)):.0f}"})

# CPU against GPU: per size, the best validated GPU total, and tall's kernel.
totals = {s: [(cell(s, v, TOTAL), v) for v in sizes[s]
              if cell(s, v, TOTAL) is not None and sizes[s][v].get("validated", "1") != "0"] for s in order}
V["best-total-vs-cpu"] = from_to([(ratio(cell(s, min(t)[1], "cpu_ms"), min(t)[0]), s, min(t)[1])
                                  for s, t in totals.items() if t],
                                 lambda x, s, v: f"{x:.2f}× (`{v}` at {dims(s)})")
V["tall-over-cpu"] = from_to([(ratio(cell(s, "tall", "cpu_ms"), cell(s, "tall")), s) for s in order],
                             lambda x, s: f"{x:.0f}× ({dims(s)})")

# The target (tall-table's last column) at every size; tall_det where it is slower than cuBLAS;
# which versions repeat bitwise; the DRAM throughput of the report's versions and of ours.
V["target-met"] = "met" if all(target_met(s).startswith("yes") for s in order) else "**not met**"
below = [(x, s) for x, s in zip(at(ratio_of("cublas", "tall_det")), order) if x is not None and x < 1]
V["tall_det-below"] = fill(PART["tall_det-slower"], {"where": ", ".join(
    f"{dims(s)} ({x:.2f}×: {ms(cell(s, 'tall_det'))} vs {ms(cell(s, 'cublas'))} ms)" for x, s in below)}
) if below else PART["tall_det-not-slower"]
rep = pivot([r for r in checked if r.get("repeatable", "") in ("0", "1")], lambda r: r["version"],
            "repeatable")  # {version: {"0" and/or "1": row}}
always, never = [f"`{v}`" for v in rep if set(rep[v]) == {"1"}], [f"`{v}`" for v in rep if "0" in rep[v]]
V["repeatable"] = (fill(PART["repeatable"], {"versions": ", ".join(always)}) if always
                   else PART["none-repeatable"])
V["repeatable"] += fill(PART["not-repeatable"], {"versions": ", ".join(never)}) if never else ""
V["dram-sizes"] = " / ".join(dims(sz) for sz in prof_sizes) if prof else PROFILE
for key, versions in (("report", REPORT + [BPC]), ("ours", OURS)):
    V["dram-" + key] = (", ".join(f"`{v}` {measured(v, DRAM, '{:.0f}')} %" for v in versions)
                        if prof else PROFILE)

# high2_const: the report's remark on high2's constants, measured beside high2.
gains = at(ratio_of("high2", "high2_const"))
worst = top(abs(g - 1) for g in gains if g is not None)
if worst is None:
    T["high2-const"] = PART["high2-const-unmeasured"]
else:
    V.update({"const-span": span(gains, "{:.3f}"), "const-sizes": sum(g is not None for g in gains),
              "const-change": f"{100 * worst:.1f}",
              "const-verdict": verdict(compare(worst, "<", LIMIT["const-change"] / 100))})

# What a run prints: the report's lines and ours, rebuilt from the rows of the first size.
lines = [fill(PART["sample-size"], {"m": s0[1], "n": s0[2], "cpu": f"{shared(s0, 'cpu_ms'):f}"})]
for v in [x for x in ("original", "tall") if x in sizes[s0]]:
    r, passes = sizes[s0][v], sizes[s0][v]["result_ok"] == "1"
    grid, block = ("{}, {}, {}".format(*([int(n) for n in r[k].split("x")] if r.get(k) else [0, 0, 0]))
                   for k in ("grid", "block"))
    lines.append(fill(PART["sample-version"], dict(
        {k: f"{num(r[k + '_ms']):.3f}" for k in ("alloc", "h2d", "kernel", "d2h", "free")}, version=v,
        function=r["kernel"], grid=grid, block=block, time=f"{num(r[KERNEL]):f}", total=f"{num(r[TOTAL]):f}",
        passes="Passed, GPU all values correct!" if passes else "GPU values incorrect", m=s0[1], n=s0[2],
        err=f"{num(r['max_abs_err']):.3g}", bound=f"{num(r['err_over_bound']):.3g}",
        result="PASS" if passes else "FAIL")))
V["lines"] = "\n".join(lines)
fill_blocks(doc, T, V, "prose.md")
doc.save()
print(f"tables and values of {readme} regenerated from {csv_path}")
