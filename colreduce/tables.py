#!/usr/bin/env python3
"""Regenerates the tables of colreduce/README.md from results/colreduce.csv (make tables).

    python3 tables.py [results/colreduce.csv] [README.md]

Blocks replaced (between <!-- BEGIN x --> and <!-- END x -->):
  run-info       device, driver, runtime, copy bandwidth, repeats of the run
  report-kernel  the report's table, kernel time: CPU, original, high1, high2, ratio1, ratio2
  report-total   the report's table, GPU total time (allocation + copies + kernel + free)
  tall-table     our versions against cuBLAS: time, bandwidth, % of copy bandwidth, speed-up
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from readme_tables import md_table, read_csv, replace_block  # noqa: E402

csv_path = sys.argv[1] if len(sys.argv) > 1 else "results/colreduce.csv"
readme = sys.argv[2] if len(sys.argv) > 2 else "README.md"
if not os.path.exists(csv_path):
    sys.exit(f"{csv_path} not found: run `make report` on a GPU machine first")
rows = read_csv(csv_path)


def num(value):
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if x == x else None


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
replace_block(readme, "run-info", info)

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
replace_block(readme, "report-kernel", md_table(table, [
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
replace_block(readme, "report-total", md_table(table, [
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
replace_block(readme, "tall-table", md_table(table, [
    ("m", "m", "{}"), ("n", "n", "{}"), ("tall", "tall (ms)", "{}"), ("tall_det", "tall_det (ms)", "{}"),
    ("cublas", "cuBLAS (ms)", "{}"), ("bw", "tall GB/s", "{}"), ("pct", "tall % of copy bw", "{}"),
    ("bw_c", "cuBLAS GB/s", "{}"), ("sp_t", "tall speed-up vs cuBLAS", "{}"),
    ("sp_d", "tall_det speed-up vs cuBLAS", "{}"), ("target", "target met (best of ours)", "{}")]))
print(f"tables of {readme} regenerated from {csv_path}")
