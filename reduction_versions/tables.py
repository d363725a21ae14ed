#!/usr/bin/env python3
"""Regenerates every table of README.md from results/*.csv (run by `make tables` / `make plots`).

versions-table  Harris-style step and cumulative speed-up at 8,388,608 ints (results/versions.csv),
                beside Harris's 2007 G80 figures
targets-table   version 8 against CUB at 8,388,608 and 2^28 ints (versions.csv, size_sweep.csv)
sweep-table     bandwidth against size for every version and the serial CPU (size_sweep.csv)
threads-table   time per version and block size at 8,388,608 ints (threads.csv)
unfixed-table   the report's version 5 as printed against the fixed one (unfixed_v5.csv)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
from readme_tables import Readme, md_table, read_csv  # noqa: E402

# Optional arguments (used by the tier-1 test): tables.py [RESULTS_DIR [README]]
RESULTS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results")
README = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "README.md")
VERSIONS = ["1", "2", "3", "4", "5", "6", "7", "8", "cub"]

# M. Harris, "Optimizing Parallel Reduction in CUDA" (2007): 2^22 ints, 128 threads per
# block, GeForce 8800 GTX (G80). (time ms, bandwidth GB/s, step speed-up, cumulative speed-up)
HARRIS = {
    "1": (8.054, 2.083, None, None),
    "2": (3.456, 4.854, 2.33, 2.33),
    "3": (1.722, 9.741, 2.01, 4.68),
    "4": (0.965, 17.377, 1.78, 8.34),
    "5": (0.536, 31.289, 1.80, 15.01),
    "6": (0.381, 43.996, 1.41, 21.16),
    "7": (0.268, 62.671, 1.42, 30.04),
}


def path(name):
    return os.path.join(RESULTS, name)


def load(name):
    p = path(name)
    return read_csv(p) if os.path.exists(p) else None


def missing(name):
    return f"(no `results/{name}` yet: run `make report` on a GPU)"


def f(x):
    return float(x)


def device_line(rows):
    r = rows[0]
    return (f"Device: {r['device']} (compute capability {r['compute_capability']}, driver {r['driver']}, "
            f"runtime {r['runtime']}); device-to-device copy {f(r['copy_bw_GBps']):.0f} GB/s in the same run.")


def versions_table(rows):
    by = {r["version"]: r for r in rows if r["version"] in VERSIONS}
    n = int(rows[0]["n"])
    out = []
    prev = None
    first = f(by["1"]["kernel_ms"]) if "1" in by else None
    for v in VERSIONS:
        if v not in by:
            continue
        r = by[v]
        ms = f(r["kernel_ms"])
        h = HARRIS.get(v)
        row = {
            "version": v,
            "kernel": f"`{r['kernel']}`",
            "threads": r["threads"] if v != "cub" else "(CUB)",
            "blocks": r["blocks"] if v != "cub" else "",
            "launches": (r["launches"] + (" + memset" if r["memsets"] not in ("", "0") else "")) if v != "cub" else "",
            "ms": ms,
            "gbps": f(r["bandwidth_GBps"]),
            "pct": f(r["pct_of_copy_bw"]),
            "vs_cub": f(r["speedup_vs_baseline"]),
            "step": (prev / ms) if (prev and v != "cub") else None,
            "cum": (first / ms) if first else None,
            "h_ms": h[0] if h else None,
            "h_gbps": h[1] if h else None,
            "h_step": h[2] if h else None,
            "h_cum": h[3] if h else None,
        }
        if v != "cub":
            prev = ms
        out.append(row)
    cpu = f(rows[0]["cpu_ms"])
    out.append({"version": "CPU", "kernel": "serial loop (`rv::sum_wrap`), one thread", "ms": cpu,
                "gbps": 4.0 * n / (cpu * 1e6), "cum": (first / cpu) if first else None})
    num = lambda spec: (lambda x: "" if x is None or x == "" else spec.format(x))  # noqa: E731
    cols = [
        ("version", "version", "{}"),
        ("kernel", "kernel", "{}"),
        ("threads", "threads", "{}"),
        ("blocks", "blocks (1st launch)", "{}"),
        ("launches", "launches", "{}"),
        (lambda r: r.get("ms"), "time (ms)", num("{:.4f}")),
        (lambda r: r.get("gbps"), "GB/s", num("{:.0f}")),
        (lambda r: r.get("pct"), "% of copy", num("{:.0f}")),
        (lambda r: r.get("vs_cub"), "speed vs CUB", num("{:.2f}x")),
        (lambda r: r.get("step"), "step speed-up", num("{:.2f}x")),
        (lambda r: r.get("cum"), "cumulative speed-up", num("{:.2f}x")),
        (lambda r: r.get("h_ms"), "Harris G80 time (ms)", num("{:.3f}")),
        (lambda r: r.get("h_gbps"), "Harris GB/s", num("{:.3f}")),
        (lambda r: r.get("h_step"), "Harris step", num("{:.2f}x")),
        (lambda r: r.get("h_cum"), "Harris cumulative", num("{:.2f}x")),
    ]
    text = md_table(out, cols, bold=lambda r: r["version"] == "8")
    return (f"{n:,} ints ({4 * n / 2**20:.0f} MiB), median of {rows[0]['repeat']} timed runs after "
            f"{rows[0]['warmup']} warm-ups, L2 {'flushed' if rows[0]['l2'] == 'flush' else 'kept'} before each. "
            + device_line(rows) + "\n\n" + text)


def targets_table(vrows, srows):
    out = []
    for rows, n, target in ((vrows, 8388608, 1.0), (srows, 1 << 28, 0.97)):
        if rows is None:
            continue
        by = {r["version"]: r for r in rows if int(r["n"]) == n}
        if "8" not in by:
            continue
        r = by["8"]
        ratio = f(r["speedup_vs_baseline"])
        out.append({"n": f"{n:,}", "v8": f(r["kernel_ms"]), "cub": f(r["baseline_ms"]),
                    "v8bw": f(r["bandwidth_GBps"]), "cubbw": 4.0 * n / (f(r["baseline_ms"]) * 1e6),
                    "ratio": ratio, "target": f">= {target:.2f}x", "met": "yes" if ratio >= target else
                    f"**no** ({100 * (target - ratio) / target:.1f}% short)"})
    if not out:
        return missing("versions.csv")
    return md_table(out, [("n", "ints", "{}"), ("v8", "version 8 (ms)", "{:.4f}"), ("cub", "CUB (ms)", "{:.4f}"),
                          ("v8bw", "version 8 GB/s", "{:.0f}"), ("cubbw", "CUB GB/s", "{:.0f}"),
                          ("ratio", "CUB time / version 8 time", "{:.3f}x"), ("target", "target", "{}"),
                          ("met", "met", "{}")])


def sweep_table(rows):
    sizes = sorted({int(r["n"]) for r in rows})
    show = [n for n in sizes if (n & (n - 1)) == 0 and (n.bit_length() - 1) % 2 == 0 or n in (1 << 23, 1 << 27)]
    out = []
    for n in show:
        by = {r["version"]: r for r in rows if int(r["n"]) == n}
        row = {"n": f"2^{n.bit_length() - 1}" if (n & (n - 1)) == 0 else str(n)}
        for v in VERSIONS:
            row[v] = f(by[v]["bandwidth_GBps"]) if v in by else None
        any_row = next(iter(by.values()))
        row["cpu"] = f(any_row["cpu_bandwidth_GBps"])
        row["cpu_ms"] = f(any_row["cpu_ms"])
        out.append(row)
    num = lambda spec: (lambda x: "" if x is None else spec.format(x))  # noqa: E731
    cols = [("n", "ints", "{}")]
    cols += [((lambda r, v=v: r[v]), ("CUB" if v == "cub" else f"v{v}"), num("{:.0f}")) for v in VERSIONS]
    cols += [((lambda r: r["cpu"]), "CPU serial", num("{:.1f}")), ((lambda r: r["cpu_ms"]), "CPU (ms)", num("{:.3g}"))]
    return "Bandwidth in GB/s (4 bytes per int read once / median time).\n\n" + md_table(out, cols)


def threads_table(rows):
    # CUB's rows have no block size (the library's own launch: an empty cell; older CSVs
    # repeated its row for every block size).
    threads = sorted({int(r["threads"]) for r in rows if r["version"] != "cub" and r["threads"] != ""})
    out = []
    for v in VERSIONS:
        if v == "cub":
            continue
        row = {"version": v}
        times = {}
        for r in rows:
            if r["version"] == v:
                times[int(r["threads"])] = f(r["kernel_ms"])
        if not times:
            continue
        best = min(times, key=times.get)
        for t in threads:
            row[t] = (f"**{times[t]:.4f}**" if t == best else f"{times[t]:.4f}") if t in times else ""
        out.append(row)
    cub = [f(r["kernel_ms"]) for r in rows if r["version"] == "cub"]
    cols = [("version", "version", "{}")] + [((lambda r, t=t: r[t]), f"{t} threads", "{}") for t in threads]
    text = md_table(out, cols)
    if cub:
        text += f"\n\nCUB in the same run: {cub[0]:.4f} ms. Time in ms, median; the best block size of each version in bold."
    return text


def unfixed_table(rows):
    keys = []
    for r in rows:
        k = (int(r["n"]), int(r["threads"]))
        if k not in keys:
            keys.append(k)
    out = []
    for n, t in keys:
        by = {r["version"]: r for r in rows if int(r["n"]) == n and int(r["threads"]) == t}
        row = {"n": f"{n:,}", "threads": t}
        if "5" in by:
            row["fixed"] = f"{by['5']['wrong_checks']} of {by['5']['checks']}"
        if "5-unfixed" in by:
            u = by["5-unfixed"]
            row["unfixed"] = f"{u['wrong_checks']} of {u['checks']}"
            row["example"] = u["gpu_sum"] if u["wrong_checks"] != "0" else ""
            row["cpu"] = u["cpu_sum"]
        out.append(row)
    return md_table(out, [("n", "ints", "{}"), ("threads", "threads", "{}"),
                          ("fixed", "version 5 (fixed): wrong runs", "{}"),
                          ("unfixed", "as printed: wrong runs", "{}"),
                          ("example", "a wrong sum (as printed)", "{}"), ("cpu", "CPU sum", "{}")])


def main():
    vrows, srows, trows, urows = (load(n) for n in ("versions.csv", "size_sweep.csv", "threads.csv", "unfixed_v5.csv"))
    readme = Readme(README)
    readme.block("versions-table", versions_table(vrows) if vrows else missing("versions.csv"))
    readme.block("targets-table", targets_table(vrows, srows))
    readme.block("sweep-table", sweep_table(srows) if srows else missing("size_sweep.csv"))
    readme.block("threads-table", threads_table(trows) if trows else missing("threads.csv"))
    readme.block("unfixed-table", unfixed_table(urows) if urows else missing("unfixed_v5.csv"))
    readme.save()


if __name__ == "__main__":
    main()
