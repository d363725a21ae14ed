#!/usr/bin/env python3
"""Regenerates the tables and the numbers quoted in the text of colreduce/README.md from
results/colreduce.csv (make tables). Columns are read by name, so a CSV of the older layout
(before the core columns) works as well as the current one.

    python3 tables.py [results/colreduce.csv] [README.md]

The other results are read from the same folder as the CSV: block_per_column.csv and
context.csv (make report-run), profile.csv (make profile); a missing one gives a placeholder
("(run make report-run)", "(run make profile)") in its table and values, never an error.

Blocks replaced (between <!-- BEGIN x --> and <!-- END x -->):
  run-info         device, driver, runtime, copy bandwidth, repeats of the run
  report-kernel    the report's table, kernel time: CPU, original, high1, high2, ratio1, ratio2
  report-total     the report's table, GPU total time (allocation + copies + kernel + free),
                   with the context creation the report's "GPU" time also held
  block-per-column the report's unlisted idea (one block per column, 1024 threads) in the main run
  block-per-column-demo  block_per_column beside its over-the-limit demonstration
  tall-table       our versions against cuBLAS: time, bandwidth, % of copy bandwidth, speed-up
  profile-dram     Nsight Compute: DRAM and SM throughput (% of peak) per version and size
Values replaced (<!-- v:name -->...<!-- /v -->): every number of the prose that comes from
the results (the conclusions, the benchmark target, the context creation).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common", "py"))
from readme_tables import Readme, md_table, num, read_csv  # noqa: E402

csv_path = sys.argv[1] if len(sys.argv) > 1 else "results/colreduce.csv"
readme = sys.argv[2] if len(sys.argv) > 2 else "README.md"
results_dir = os.path.dirname(os.path.abspath(csv_path))
RUN = "(run make report-run)"
PROFILE = "(run make profile)"


def optional_csv(name):
    """Rows of results/<name> next to the main CSV; None when it does not exist yet."""
    path = os.path.join(results_dir, name)
    return read_csv(path) if os.path.exists(path) else None

if not os.path.exists(csv_path):
    sys.exit(f"{csv_path} not found: run `make report` on a GPU machine first")
rows = read_csv(csv_path)
if not rows:
    sys.exit(f"{csv_path} has no rows")
doc = Readme(readme)


# One entry per size, in the order of the run (config_index), with each version's row.
sizes = {}
for r in rows:
    key = (int(r["config_index"]), int(r["m"]), int(r["n"]))
    sizes.setdefault(key, {})[r["version"]] = r
order = sorted(sizes)


def cell(size, version, column):
    r = sizes[size].get(version)
    return num(r[column]) if r else None


def ratio(a, b):
    return a / b if a is not None and b not in (None, 0) else None


def f(x, spec="{:.3f}"):
    return "" if x is None else spec.format(x)


def ms(x):
    """Milliseconds with 3 significant digits or 3 decimals, whichever says more."""
    if x is None:
        return ""
    if x < 1:
        return f"{x:.4f}"
    return f"{x:.3f}" if x < 100 else f"{x:.1f}"


def mark(size, version):
    r = sizes[size].get(version)
    return "" if r is None or r["result_ok"] == "1" else " (FAIL)"


def size_cells(size):
    return {"m": f"{size[1]:,}", "n": str(size[2])}


# Run information. Rows of a demonstration (validated = 0) are never counted as passed or failed.
checked = [r for r in rows if r.get("validated", "1") != "0"]
first = rows[0]
runs = {}
for r in rows:
    runs.setdefault((r["repeat"], r["warmup"]), set()).add(r["version"])
runs_text = "; ".join(f"{rep} timed runs after {warm} warm-up(s) for {', '.join(sorted(v))}"
                      for (rep, warm), v in sorted(runs.items()))
info = (f"Device: **{first['device']}** (compute capability {first['compute_capability']}), "
        f"driver {first['driver']}, runtime {first['runtime']}; device-to-device copy bandwidth measured "
        f"in the same run: {float(first['copy_bw_GBps']):.0f} GB/s (read + write). "
        f"Data: `{first['data']}`, seed {first['seed']}. Kernel times are medians ({runs_text}); "
        f"the L2 cache is flushed before every timed run. "
        f"{sum(r['result_ok'] == '1' for r in checked)} of {len(checked)} rows passed validation.")
doc.block("run-info", info)

# The report's table, kernel time and GPU total, with ratio = original / highX (speed-up).
table = []
for s in order:
    o, h1, h2 = (cell(s, v, "kernel_ms") for v in ("original", "high1", "high2"))
    row = size_cells(s)
    row.update({
        "cpu": ms(cell(s, next(iter(sizes[s])), "cpu_ms")),
        "original": ms(o) + mark(s, "original"), "high1": ms(h1) + mark(s, "high1"),
        "high2": ms(h2) + mark(s, "high2"),
        "ratio1": f(ratio(o, h1), "{:.1f}"), "ratio2": f(ratio(o, h2), "{:.1f}"),
    })
    table.append(row)
doc.block("report-kernel", md_table(table, [
    "m", "n", ("cpu", "CPU (ms)", "{}"),
    ("original", "original kernel (ms)", "{}"), ("high1", "high1 kernel (ms)", "{}"),
    ("high2", "high2 kernel (ms)", "{}"), ("ratio1", "ratio1 (kernel)", "{}"), ("ratio2", "ratio2 (kernel)", "{}")]))

has_context = "context_ms" in first


def context_of(size):
    """The context creation of the run's process (the same on every row of a run)."""
    return cell(size, next(iter(sizes[size])), "context_ms") if has_context else None


table = []
for s in order:
    o, h1, h2 = (cell(s, v, "gpu_total_ms") for v in ("original", "high1", "high2"))
    ctx = context_of(s)
    row = size_cells(s)
    row.update({
        "copy": ms(cell(s, "original", "copy_ms")), "alloc": ms(cell(s, "original", "alloc_ms")),
        "original": ms(o), "high1": ms(h1), "high2": ms(h2),
        "ratio1": f(ratio(o, h1), "{:.2f}"), "ratio2": f(ratio(o, h2), "{:.2f}"),
        "ctx": ms(ctx) if ctx is not None else RUN,
        "report": ms(o + ctx) if (o is not None and ctx is not None) else RUN,
    })
    table.append(row)
doc.block("report-total", md_table(table, [
    "m", "n", ("alloc", "allocation (ms, original)", "{}"),
    ("copy", "copies (ms, original)", "{}"), ("original", "original GPU total (ms)", "{}"),
    ("high1", "high1 GPU total (ms)", "{}"), ("high2", "high2 GPU total (ms)", "{}"),
    ("ratio1", "ratio1 (total)", "{}"), ("ratio2", "ratio2 (total)", "{}"),
    ("ctx", "context creation (ms, once per process)", "{}"),
    ("report", "original GPU total + context (ms, as the report timed it)", "{}")]))

# The report's unlisted idea in the main run: one block per column, 1024 threads.
has_bpc = any("block_per_column" in sizes[s] for s in order)
table = []
for s in order:
    b = cell(s, "block_per_column", "kernel_ms")
    row = size_cells(s)
    if b is None:
        row.update({"bpc": RUN})
    else:
        row.update({
            "bpc": ms(b) + mark(s, "block_per_column"),
            "bw": f(cell(s, "block_per_column", "bandwidth_GBps"), "{:.0f}"),
            "pct": f(cell(s, "block_per_column", "pct_of_copy_bw"), "{:.1f}"),
            "vs_o": f(ratio(cell(s, "original", "kernel_ms"), b), "{:.1f}"),
            "vs_h2": f(ratio(cell(s, "high2", "kernel_ms"), b), "{:.2f}"),
            "vs_t": f(ratio(b, cell(s, "tall", "kernel_ms")), "{:.0f}"),
            "total": ms(cell(s, "block_per_column", "gpu_total_ms")),
        })
    table.append(row)
doc.block("block-per-column", md_table(table, [
    "m", "n", ("bpc", "block_per_column kernel (ms)", "{}"), ("bw", "GB/s", "{}"),
    ("pct", "% of copy bw", "{}"), ("vs_o", "speed-up over original", "{}"),
    ("vs_h2", "speed-up over high2", "{}"), ("vs_t", "times slower than tall", "{}"),
    ("total", "GPU total (ms)", "{}")]))

# block_per_column beside its demonstration (block over the limit, launch unchecked).
demo_rows = optional_csv("block_per_column.csv")
if demo_rows:
    table = [{
        "version": f"`{r['version']}`", "m": f"{int(r['m']):,}", "n": r["n"], "block": r["block"],
        "limit": r.get("max_threads_per_block", ""), "launch": f"`{r.get('launch_error', '')}`",
        "ok": "yes" if r["result_ok"] == "1" else "**no**",
        "wrong": f"{r.get('wrong_columns', '')} of {r['n']}", "err": r["max_abs_err"],
    } for r in demo_rows]
else:
    table = [{"version": RUN}]
doc.block("block-per-column-demo", md_table(table, [
    "version", "m", "n", "block",
    ("limit", "device limit (threads per block)", "{}"), ("launch", "launch error (not checked)", "{}"),
    ("ok", "right result", "{}"), ("wrong", "wrong columns", "{}"), ("err", "largest error", "{}")]))

# Ours against cuBLAS (speed-up = cuBLAS time / our time, same run, same data).
table = []
for s in order:
    t, d, c = (cell(s, v, "kernel_ms") for v in ("tall", "tall_det", "cublas"))
    best = min(x for x in (t, d) if x is not None) if (t or d) else None
    need = 1.2 if s[2] == 8 else 1.0
    met = ratio(c, best)
    row = size_cells(s)
    row.update({
        "tall": ms(t) + mark(s, "tall"), "tall_det": ms(d) + mark(s, "tall_det"), "cublas": ms(c) + mark(s, "cublas"),
        "bw": f(cell(s, "tall", "bandwidth_GBps"), "{:.0f}"), "pct": f(cell(s, "tall", "pct_of_copy_bw"), "{:.0f}"),
        "bw_c": f(cell(s, "cublas", "bandwidth_GBps"), "{:.0f}"),
        "sp_t": f(ratio(c, t), "{:.2f}"), "sp_d": f(ratio(c, d), "{:.2f}"),
        "target": "" if met is None else (f"yes (≥ {need:g})" if met >= need else f"**no** (< {need:g})"),
    })
    table.append(row)
doc.block("tall-table", md_table(table, [
    "m", "n", ("tall", "tall (ms)", "{}"), ("tall_det", "tall_det (ms)", "{}"),
    ("cublas", "cuBLAS (ms)", "{}"), ("bw", "tall GB/s", "{}"), ("pct", "tall % of copy bw", "{}"),
    ("bw_c", "cuBLAS GB/s", "{}"), ("sp_t", "tall speed-up vs cuBLAS", "{}"),
    ("sp_d", "tall_det speed-up vs cuBLAS", "{}"), ("target", "target met (best of ours)", "{}")]))


# Nsight Compute (make profile): DRAM and SM throughput, % of peak, per version and size.
profile = optional_csv("profile.csv")
PROFILE_VERSIONS = ["original", "high1", "high2", "block_per_column", "tall", "tall_det", "cublas"]
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
SM = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
TIME = "gpu__time_duration.sum"
prof = {}     # (version, (m, n)) -> {metric: value}; several kernels of one version: the longest
prof_sizes = []
if profile:
    by_kernel = {}
    for r in profile:
        key = (r["version"], (int(r["m"]), int(r["n"])))
        if key[1] not in prof_sizes:
            prof_sizes.append(key[1])
        by_kernel.setdefault(key, {}).setdefault(r["kernel"], {})[r["metric"]] = (num(r["value"]), r["unit"])
    for key, kernels in by_kernel.items():
        longest = max(kernels.values(), key=lambda k: (k.get(TIME, (0, ""))[0] or 0))
        prof[key] = longest


def prof_value(version, size, metric):
    v = prof.get((version, size), {}).get(metric)
    return v[0] if v else None


def time_us(version, size):
    v = prof.get((version, size), {}).get(TIME)
    if not v or v[0] is None:
        return None
    scale = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3, "second": 1e6}
    return v[0] * scale.get(v[1], 1e-3)


if prof:
    table = []
    for v in PROFILE_VERSIONS:
        row = {"version": f"`{v}`"}
        for k, sz in enumerate(prof_sizes[:2]):
            row[f"dram{k}"] = f(prof_value(v, sz, DRAM), "{:.1f}")
            row[f"sm{k}"] = f(prof_value(v, sz, SM), "{:.1f}")
            row[f"t{k}"] = f(time_us(v, sz), "{:.1f}")
        table.append(row)
    cols = ["version"]
    for k, sz in enumerate(prof_sizes[:2]):
        label = f"{sz[0]:,} × {sz[1]}"
        cols += [(f"dram{k}", f"DRAM % of peak, {label}", "{}"), (f"sm{k}", f"SM % of peak, {label}", "{}"),
                 (f"t{k}", f"kernel (µs, under ncu), {label}", "{}")]
    doc.block("profile-dram", md_table(table, cols))
else:
    doc.block("profile-dram", md_table([{"version": PROFILE}], ["version"]))


# Numbers quoted in the prose.
def thousands(size):
    return f"{size[1]:,} × {size[2]}"


def extremes(values):
    """(min, size of min, max, size of max) over (value, size) pairs with a value."""
    known = [(v, sz) for v, sz in values if v is not None]
    if not known:
        return None
    lo, hi = min(known), max(known)
    return lo[0], lo[1], hi[0], hi[1]


def span(values, spec, unit=""):
    """'a–b' (en dash) of the known values, 'a' when they are all the same; 'n/a' when none."""
    e = extremes(values)
    show = spec if callable(spec) else spec.format
    if e is None:
        return "n/a"
    a, b = show(e[0]), show(e[2])
    return f"{a}{unit}" if a == b else f"{a}–{b}{unit}"


def sci(x):
    """2.6·10⁻⁶ (two significant digits, Unicode superscript exponent)."""
    if x is None:
        return "n/a"
    if x == 0:
        return "0"
    mantissa, exponent = f"{x:.1e}".split("e")
    sup = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
    return f"{mantissa}·10{str(int(exponent)).translate(sup)}"


def pct(a, b):
    r = ratio(a, b)
    return None if r is None else 100 * r


def over(versions, fn):
    """(value, size) pairs of fn(size, version) over every size and the given versions."""
    return [(fn(s, v), s) for s in order for v in versions]


def per_n(fn, spec, unit=""):
    """'a–b at n = 8, c at n = 32, ...': fn(size) spanned per number of columns."""
    parts = []
    for n in sorted({s[2] for s in order}):
        parts.append(f"{span([(fn(s), s) for s in order if s[2] == n], spec, unit)} at n = {n}")
    return ", ".join(parts)


def kms(s, v):
    return cell(s, v, "kernel_ms")


def total(s, v):
    return cell(s, v, "gpu_total_ms")


errors = [num(r.get("err_over_bound")) for r in checked]
errors = [e for e in errors if e is not None]
doc.value("rows-passed", f"{sum(r['result_ok'] == '1' for r in checked)} of {len(checked)}")
doc.value("largest-error", sci(max(errors) if errors else None))

# 1. thread organisation
r1 = lambda s: ratio(kms(s, "original"), kms(s, "high1"))  # noqa: E731
r2 = lambda s: ratio(kms(s, "original"), kms(s, "high2"))  # noqa: E731
doc.value("ratio1-kernel", span([(r1(s), s) for s in order], "{:.1f}"))
doc.value("ratio2-kernel", span([(r2(s), s) for s in order], "{:.1f}"))
doc.value("ratio2-by-n", per_n(r2, "{:.0f}"))
for v in ("high1", "high2"):
    doc.value(f"bw-{v}", f"{span(over([v], lambda s, v: cell(s, v, 'bandwidth_GBps')), '{:.0f}', ' GB/s')} "
                         f"({span(over([v], lambda s, v: cell(s, v, 'pct_of_copy_bw')), '{:.1f}', ' %')} "
                         f"of the copy bandwidth)")

# 2. kernel against GPU total
doc.value("orig-kernel-share", span(over(["original"], lambda s, v: pct(kms(s, v), total(s, v))), "{:.0f}", " %"))
e = extremes(over(["original"], lambda s, v: pct(kms(s, v), total(s, v))))
doc.value("orig-example", "n/a" if e is None else
          f"{kms(e[3], 'original'):.0f} of {total(e[3], 'original'):.0f} ms at {thousands(e[3])}")
doc.value("ratio1-total", span([(ratio(total(s, "original"), total(s, "high1")), s) for s in order], "{:.1f}", "×"))
doc.value("ratio2-total", span([(ratio(total(s, "original"), total(s, "high2")), s) for s in order], "{:.1f}", "×"))
doc.value("ratio-kernel-both", span([(r1(s), s) for s in order] + [(r2(s), s) for s in order], "{:.0f}", "×"))
copy_share = lambda s, v: pct(cell(s, v, "copy_ms"), total(s, v))  # noqa: E731
kernel_share = lambda s, v: pct(kms(s, v), total(s, v))  # noqa: E731
OURS = ["tall", "tall_det", "cublas"]
doc.value("copy-share-high1", span(over(["high1"], copy_share), "{:.0f}", " %"))
doc.value("copy-share-high2", span(over(["high2"], copy_share), "{:.0f}", " %"))
doc.value("copy-share-ours", span(over(OURS, copy_share), "{:.0f}", " %"))
e2, eo = extremes(over(["high2"], kernel_share)), extremes(over(OURS, kernel_share))
doc.value("kernel-share-high2", "n/a" if e2 is None else f"{e2[2]:.1f} %")
doc.value("kernel-share-ours", "n/a" if eo is None else f"{eo[2]:.1f} %")
doc.value("tall-over-high2-kernel", span([(ratio(kms(s, "high2"), kms(s, "tall")), s) for s in order], "{:.0f}", "×"))
doc.value("tall-over-high2-total", span([(ratio(total(s, "high2"), total(s, "tall")), s) for s in order], "{:.2f}", "×"))
ex = (1600000, 32)
ex_size = next((s for s in order if (s[1], s[2]) == ex), order[len(order) // 2])
doc.value("tall-high2-example", f"{thousands(ex_size)}: kernel {ms(kms(ex_size, 'high2'))} → {ms(kms(ex_size, 'tall'))} ms, "
                                f"total {ms(total(ex_size, 'high2'))} → {ms(total(ex_size, 'tall'))} ms")
big = max(order, key=lambda s: s[1] * s[2])
h2ds = [(cell(big, v, "h2d_ms"), big) for v in sizes[big]]
kern_ours = [kms(big, v) for v in OURS if kms(big, v) is not None]
e = extremes(h2ds)
if e is None or not kern_ours:
    doc.value("h2d-spread", "n/a")
else:
    spread, kdiff = e[2] - e[0], max(kern_ours) - min(kern_ours)
    doc.value("h2d-spread", f"at {thousands(big)} the same {big[1] * big[2] * 8 / 1e9:.1f} GB went to the device in "
                            f"{span(h2ds, ms, ' ms')} depending on the version's turn, a spread of {ms(spread)} ms, "
                            f"{'far more' if spread > 10 * kdiff else ('more' if spread > kdiff else 'less')} than "
                            f"the {ms(kdiff)} ms between the kernels of `tall`, `tall_det` and cuBLAS")

# 3. shared memory / tall's bandwidth
large = [s for s in order if s[1] >= 1000000]
small = [s for s in order if s[1] < 1000000]
doc.value("tall-bw-large", f"{span([(cell(s, 'tall', 'bandwidth_GBps'), s) for s in large], '{:.0f}', ' GB/s')}, "
                           f"{span([(cell(s, 'tall', 'pct_of_copy_bw'), s) for s in large], '{:.0f}', ' %')}")
doc.value("tall-pct-small", " / ".join(f(cell(s, "tall", "pct_of_copy_bw"), "{:.0f}") for s in small) +
          " % (n = " + " / ".join(str(s[2]) for s in small) + ")")
doc.value("tall-us-small", span([(None if kms(s, "tall") is None else 1000 * kms(s, "tall"), s) for s in small],
                                "{:.0f}", " µs"))

# 4. block_per_column and its demonstration
bpc_rows = [sizes[s]["block_per_column"] for s in order if "block_per_column" in sizes[s]]
if bpc_rows:
    doc.value("bpc-passed", f"{sum(r['result_ok'] == '1' for r in bpc_rows)} of {len(bpc_rows)}")
    doc.value("bpc-vs-original", span([(ratio(kms(s, "original"), kms(s, "block_per_column")), s) for s in order],
                                      "{:.0f}", "×"))
    doc.value("bpc-vs-high2", span([(ratio(kms(s, "high2"), kms(s, "block_per_column")), s) for s in order],
                                   "{:.2f}", "×"))
    doc.value("bpc-vs-tall", span([(ratio(kms(s, "block_per_column"), kms(s, "tall")), s) for s in order],
                                  "{:.0f}", "×"))
    doc.value("bpc-pct", span([(cell(s, "block_per_column", "pct_of_copy_bw"), s) for s in order], "{:.1f}", " %"))
else:
    for name in ("bpc-passed", "bpc-vs-original", "bpc-vs-high2", "bpc-vs-tall", "bpc-pct"):
        doc.value(name, RUN)
if demo_rows:
    ok = [r for r in demo_rows if r["version"] == "block_per_column"]
    bad = [r for r in demo_rows if r["version"] == "block_per_column_over_limit"]
    errors_seen = sorted({r.get("launch_error", "") for r in bad})
    doc.value("demo-launch", " / ".join(f"`{x}`" for x in errors_seen) if errors_seen else "n/a")
    doc.value("demo-wrong", ", ".join(f"{r.get('wrong_columns', '?')} of {r['n']} columns wrong at "
                                      f"{int(r['m']):,} × {r['n']}" for r in bad) or "n/a")
    doc.value("demo-limit", bad[0].get("max_threads_per_block", "n/a") if bad else "n/a")
    doc.value("demo-ok", f"{sum(r['result_ok'] == '1' for r in ok)} of {len(ok)}")
else:
    for name in ("demo-launch", "demo-wrong", "demo-limit", "demo-ok"):
        doc.value(name, RUN)

# Context creation: three fresh processes (context.csv), and the main run's own.
ctx_rows = optional_csv("context.csv")
ctx = sorted(num(r.get("context_ms")) for r in (ctx_rows or []) if num(r.get("context_ms")) is not None)
if ctx:
    med = ctx[len(ctx) // 2] if len(ctx) % 2 else (ctx[len(ctx) // 2 - 1] + ctx[len(ctx) // 2]) / 2
    doc.value("context-ms", f"{span([(x, k) for k, x in enumerate(ctx)], '{:.0f}', ' ms')} (median {med:.0f} ms) "
                            f"in {len(ctx)} fresh processes")
else:
    doc.value("context-ms", RUN)
if has_context and context_of(order[0]) is not None:
    s0 = order[0]
    c0 = context_of(s0)
    doc.value("context-share", f"{ms(c0)} ms in the main run's process; added to `tall`'s GPU total at "
                               f"{thousands(s0)} ({ms(total(s0, 'tall'))} ms) it would make "
                               f"{pct(c0, c0 + total(s0, 'tall')):.0f} % of it, and "
                               f"{pct(c0, c0 + total(s0, 'original')):.0f} % of `original`'s")
else:
    doc.value("context-share", RUN)

# 5. CPU against GPU
doc.value("cpu-ms", span([(cell(s, next(iter(sizes[s])), "cpu_ms"), s) for s in order],
                        lambda x: f"{x:.2g}" if x < 10 else f"{x:.0f}", " ms"))
doc.value("cpu-over-original-total", span([(ratio(cell(s, "original", "cpu_ms"), total(s, "original")), s)
                                           for s in order], "{:.2f}"))
best = []
for s in order:
    t = [(total(s, v), v) for v in sizes[s] if total(s, v) is not None and sizes[s][v].get("validated", "1") != "0"]
    if t:
        tb, vb = min(t)
        best.append((ratio(cell(s, vb, "cpu_ms"), tb), s, vb))
if best:
    lo, hi = min(best, key=lambda x: x[0]), max(best, key=lambda x: x[0])
    doc.value("best-total-vs-cpu", f"{lo[0]:.2f}× (`{lo[2]}` at {thousands(lo[1])}) to {hi[0]:.2f}× "
                                   f"(`{hi[2]}` at {thousands(hi[1])})")
else:
    doc.value("best-total-vs-cpu", "n/a")
e = extremes([(ratio(cell(s, "tall", "cpu_ms"), kms(s, "tall")), s) for s in order])
doc.value("tall-over-cpu", "n/a" if e is None else
          f"{e[0]:.0f}× ({thousands(e[1])}) to {e[2]:.0f}× ({thousands(e[3])})")

# Benchmark target: the better of tall/tall_det >= cuBLAS everywhere, >= 1.2x at n = 8.
met = True
for s in order:
    c = kms(s, "cublas")
    b = [x for x in (kms(s, "tall"), kms(s, "tall_det")) if x is not None]
    if c is None or not b or ratio(c, min(b)) < (1.2 if s[2] == 8 else 1.0):
        met = False
doc.value("target-met", "met" if met else "**not met**")
doc.value("tall-vs-cublas", span([(ratio(kms(s, "cublas"), kms(s, "tall")), s) for s in order], "{:.2f}", "×"))
n8 = [s for s in order if s[2] == 8]
doc.value("tall-n8", " / ".join(f(ratio(kms(s, "cublas"), kms(s, "tall")), "{:.2f}") for s in n8) + "× (m = " +
          " / ".join(f"{s[1]:,}" for s in n8) + ")")
doc.value("cublas-pct-n8", " / ".join(f(cell(s, "cublas", "pct_of_copy_bw"), "{:.0f}") for s in n8) + " %")
doc.value("tall-pct-n8", " / ".join(f(cell(s, "tall", "pct_of_copy_bw"), "{:.0f}") for s in n8) + " %")
det = [(ratio(kms(s, "cublas"), kms(s, "tall_det")), s) for s in order]
doc.value("tall_det-vs-cublas", span(det, "{:.2f}", "×"))
below = [(x, s) for x, s in det if x is not None and x < 1]
doc.value("tall_det-below", "it is at least as fast as cuBLAS at every size" if not below else
          "it is slower than cuBLAS at " + ", ".join(
              f"{thousands(s)} ({x:.2f}×: {ms(kms(s, 'tall_det'))} vs {ms(kms(s, 'cublas'))} ms)" for x, s in below))
doc.value("tall_det-minus-tall", span([(None if kms(s, "tall_det") is None or kms(s, "tall") is None else
                                        1000 * (kms(s, "tall_det") - kms(s, "tall")), s) for s in order],
                                      "{:.1f}", " µs"))
rep = {}
for r in checked:
    if r.get("repeatable", "") in ("0", "1"):
        rep.setdefault(r["version"], set()).add(r["repeatable"])
always = [v for v in rep if rep[v] == {"1"}]
never = [v for v in rep if "0" in rep[v]]
doc.value("repeatable", ("bitwise the same in the first and last timed run at every size: " +
                         ", ".join(f"`{v}`" for v in always) if always else "no version repeated bitwise") +
          ("; not always: " + ", ".join(f"`{v}`" for v in never) if never else ""))

# Counters (make profile)
if prof:
    labels = " / ".join(f"{sz[0]:,} × {sz[1]}" for sz in prof_sizes[:2])

    def dram_of(v):
        vals = [prof_value(v, sz, DRAM) for sz in prof_sizes[:2]]
        return " / ".join(f(x, "{:.0f}") if x is not None else "–" for x in vals) + " %"

    doc.value("dram-sizes", labels)
    doc.value("dram-report", ", ".join(f"`{v}` {dram_of(v)}" for v in ("original", "high1", "high2", "block_per_column")))
    doc.value("dram-ours", ", ".join(f"`{v}` {dram_of(v)}" for v in ("tall", "tall_det", "cublas")))
else:
    for name in ("dram-sizes", "dram-report", "dram-ours"):
        doc.value(name, PROFILE)
doc.save()
print(f"tables and values of {readme} regenerated from {csv_path}")
