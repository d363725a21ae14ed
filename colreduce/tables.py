#!/usr/bin/env python3
"""Regenerates the tables and the numbers quoted in the text of colreduce/README.md from
results/colreduce.csv (make tables). Columns are read by name, so a CSV of the older layout
(before the core columns) works as well as the current one.

    python3 tables.py [results/colreduce.csv] [README.md]

Blocks replaced (between <!-- BEGIN x --> and <!-- END x -->):
  run-info       device, driver, runtime, copy bandwidth, repeats of the run
  report-kernel  the report's table, kernel time: CPU, original, high1, high2, ratio1, ratio2
  report-total   the report's table, GPU total time (allocation + copies + kernel + free)
  tall-table     our versions against cuBLAS: time, bandwidth, % of copy bandwidth, speed-up
Values replaced (<!-- v:name -->...<!-- /v -->): the numbers of "Which of the report's
conclusions hold" that are read straight off the CSV (see values() below).
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from readme_tables import Readme, md_table, num, read_csv  # noqa: E402

csv_path = sys.argv[1] if len(sys.argv) > 1 else "results/colreduce.csv"
readme = sys.argv[2] if len(sys.argv) > 2 else "README.md"
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


# Run information.
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
        f"{sum(r['result_ok'] == '1' for r in rows)} of {len(rows)} rows passed validation.")
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
    ("m", "m", "{}"), ("n", "n", "{}"), ("cpu", "CPU (ms)", "{}"),
    ("original", "original kernel (ms)", "{}"), ("high1", "high1 kernel (ms)", "{}"),
    ("high2", "high2 kernel (ms)", "{}"), ("ratio1", "ratio1 (kernel)", "{}"), ("ratio2", "ratio2 (kernel)", "{}")]))

table = []
for s in order:
    o, h1, h2 = (cell(s, v, "gpu_total_ms") for v in ("original", "high1", "high2"))
    row = size_cells(s)
    row.update({
        "copy": ms(cell(s, "original", "copy_ms")), "alloc": ms(cell(s, "original", "alloc_ms")),
        "original": ms(o), "high1": ms(h1), "high2": ms(h2),
        "ratio1": f(ratio(o, h1), "{:.2f}"), "ratio2": f(ratio(o, h2), "{:.2f}"),
    })
    table.append(row)
doc.block("report-total", md_table(table, [
    ("m", "m", "{}"), ("n", "n", "{}"), ("alloc", "allocation (ms, original)", "{}"),
    ("copy", "copies (ms, original)", "{}"), ("original", "original GPU total (ms)", "{}"),
    ("high1", "high1 GPU total (ms)", "{}"), ("high2", "high2 GPU total (ms)", "{}"),
    ("ratio1", "ratio1 (total)", "{}"), ("ratio2", "ratio2 (total)", "{}")]))

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
    ("m", "m", "{}"), ("n", "n", "{}"), ("tall", "tall (ms)", "{}"), ("tall_det", "tall_det (ms)", "{}"),
    ("cublas", "cuBLAS (ms)", "{}"), ("bw", "tall GB/s", "{}"), ("pct", "tall % of copy bw", "{}"),
    ("bw_c", "cuBLAS GB/s", "{}"), ("sp_t", "tall speed-up vs cuBLAS", "{}"),
    ("sp_d", "tall_det speed-up vs cuBLAS", "{}"), ("target", "target met (best of ours)", "{}")]))


# Numbers quoted in the conclusions.
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
    """'a–b' (en dash) of the known values; 'n/a' when there are none."""
    e = extremes(values)
    show = spec if callable(spec) else spec.format
    return "n/a" if e is None else f"{show(e[0])}–{show(e[2])}{unit}"


def sci(x):
    """2.6·10⁻⁶ (two significant digits, Unicode superscript exponent)."""
    if x is None:
        return "n/a"
    if x == 0:
        return "0"
    mantissa, exponent = f"{x:.1e}".split("e")
    sup = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
    return f"{mantissa}·10{str(int(exponent)).translate(sup)}"


errors = [num(r.get("err_over_bound")) for r in rows]
errors = [e for e in errors if e is not None]
doc.value("rows-passed", f"{sum(r['result_ok'] == '1' for r in rows)} of {len(rows)}")
doc.value("largest-error", sci(max(errors) if errors else None))
doc.value("ratio1-kernel", span([(ratio(cell(s, "original", "kernel_ms"), cell(s, "high1", "kernel_ms")), s)
                                 for s in order], "{:.1f}"))
doc.value("ratio2-kernel", span([(ratio(cell(s, "original", "kernel_ms"), cell(s, "high2", "kernel_ms")), s)
                                 for s in order], "{:.1f}"))
doc.value("cpu-ms", span([(cell(s, next(iter(sizes[s])), "cpu_ms"), s) for s in order],
                        lambda x: f"{x:.2g}" if x < 10 else f"{x:.0f}", " ms"))
doc.value("cpu-over-original-total", span([(ratio(cell(s, "original", "cpu_ms"), cell(s, "original", "gpu_total_ms")), s)
                                           for s in order], "{:.2f}"))
e = extremes([(ratio(cell(s, "tall", "cpu_ms"), cell(s, "tall", "kernel_ms")), s) for s in order])
doc.value("tall-over-cpu", "n/a" if e is None else
          f"{e[0]:.0f}× ({thousands(e[1])}) to {e[2]:.0f}× ({thousands(e[3])})")
doc.value("tall-vs-cublas", span([(ratio(cell(s, "cublas", "kernel_ms"), cell(s, "tall", "kernel_ms")), s)
                                  for s in order], "{:.2f}", "×"))
doc.save()
print(f"tables and values of {readme} regenerated from {csv_path}")
