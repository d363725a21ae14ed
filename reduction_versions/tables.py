#!/usr/bin/env python3
"""Regenerates every table of README.md from results/*.csv (run by `make tables` / `make plots`).

versions-table  Harris-style step and cumulative speed-up at 8,388,608 ints (results/versions.csv),
                beside Harris's 2007 G80 figures
targets-table   version 8 against the library baseline at 8,388,608 and 2^28 ints, and the sentence
                under it (versions.csv, size_sweep.csv)
sweep-table     bandwidth against size for every version and the serial CPU (size_sweep.csv)
threads-table   time per version and block size at 8,388,608 ints (threads.csv)
unfixed-table   the report's version 5 as printed against the fixed one (unfixed_v5.csv)
iota-table      random data against the report's 1, 2, ..., n at 8,388,608 ints (versions.csv, data=iota)
latency-table   dependent-load latency: shared memory, L1, L2, DRAM (latency.csv)
profile-table   Nsight Compute counters of each version's first pass (profile.csv, `make profile`)
claims-table    the report's claims about each version, each against the counter that tests it,
                with the verdict rule written in claims() below, then what the counters say about
                versions 1 and 2 (profile.csv)
conclusions     which of the report's conclusions hold: a generated list, every number from the
                CSVs (values(), conclusions_text())
The versions and the library baseline are read from the CSVs (set_versions), never listed here;
the README holds no value markers inside sentences, only whole generated blocks. A CSV that is
not there yet gives a placeholder ("(run make report-run)", "(run make profile)") instead of a
table or a number.
"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from readme_tables import Readme, compare, md_table, ratio, read_csv, verdict, wrap  # noqa: E402

# Optional arguments (used by the tier-1 test): tables.py [RESULTS_DIR [README]]
RESULTS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results")
README = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "README.md")
# The versions, in the order the program wrote them (its registry's order), and the library
# baseline's label(s): both read from the CSVs by main() (set_versions), never listed here.
VERSIONS = []
BASELINES = set()
# The version the targets are set for (ours, against the library baseline).
TARGET = "8"


def set_versions(*tables):
    """VERSIONS and BASELINES from the rows of the CSVs: every validated label in order of first
    appearance (a demonstration, validated = 0, is left out), the baseline by is_baseline = 1."""
    VERSIONS.clear()
    BASELINES.clear()
    for rows in tables:
        for r in rows or []:
            if r.get("validated", "1") == "0":
                continue
            if r["version"] not in VERSIONS:
                VERSIONS.append(r["version"])
            if r.get("is_baseline") == "1":
                BASELINES.add(r["version"])


def chain():
    """The versions without the baseline, in order: the steps of the speed-up tables."""
    return [v for v in VERSIONS if v not in BASELINES]


def heading(v):
    return v if v in BASELINES else f"v{v}"

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


RUN_REPORT = "(run make report-run)"
RUN_PROFILE = "(run make profile)"
NOT_PROFILED = "not measured yet (run make profile)"


def placeholder(columns, text):
    """A one-row table saying what to run: the table's columns, the first cell `text`."""
    return md_table([{"x": text}], [("x", columns[0], "{}")] + [((lambda r: ""), c, "{}") for c in columns[1:]])


def random_rows(rows):
    """The rows on random data (data = full; the committed CSVs may predate the data column)."""
    return [r for r in rows if r.get("data", "full") != "iota"] if rows else rows


def iota_rows(rows):
    return [r for r in rows if r.get("data") == "iota"] if rows else []


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
            "threads": r["threads"] if v not in BASELINES else "(library)",
            "blocks": r["blocks"] if v not in BASELINES else "",
            "launches": (r["launches"] + (" + memset" if r["memsets"] not in ("", "0") else "")) if v not in BASELINES else "",
            "ms": ms,
            "gbps": f(r["bandwidth_GBps"]),
            "pct": f(r["pct_of_copy_bw"]),
            "vs_cub": f(r["speedup_vs_baseline"]),
            "step": (prev / ms) if (prev and v not in BASELINES) else None,
            "cum": (first / ms) if first else None,
            "h_ms": h[0] if h else None,
            "h_gbps": h[1] if h else None,
            "h_step": h[2] if h else None,
            "h_cum": h[3] if h else None,
        }
        if v not in BASELINES:
            prev = ms
        out.append(row)
    cpu = f(rows[0]["cpu_ms"])
    out.append({"version": "CPU", "kernel": "serial loop (`rv::sum_wrap`), one thread", "ms": cpu,
                "gbps": 4.0 * n / (cpu * 1e6), "cum": (first / cpu) if first else None})
    num = lambda spec: (lambda x: "" if x is None or x == "" else spec.format(x))  # noqa: E731
    cols = [
        "version",
        "kernel",
        "threads",
        ("blocks", "blocks (1st launch)", "{}"),
        "launches",
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
    text = md_table(out, cols, bold=lambda r: r["version"] == TARGET)
    return wrap(f"{n:,} ints ({4 * n / 2**20:.0f} MiB), median of {rows[0]['repeat']} timed runs after "
                f"{rows[0]['warmup']} warm-ups, L2 {'flushed' if rows[0]['l2'] == 'flush' else 'kept'} before each. "
                + device_line(rows)) + "\n\n" + text


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
                          ("ratio", "CUB time / version 8 time", "{:.3f}x"), "target",
                          "met"])


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
    cols += [((lambda r, v=v: r[v]), heading(v), num("{:.0f}")) for v in VERSIONS]
    cols += [((lambda r: r["cpu"]), "CPU serial", num("{:.1f}")), ((lambda r: r["cpu_ms"]), "CPU (ms)", num("{:.3g}"))]
    return "Bandwidth in GB/s (4 bytes per int read once / median time).\n\n" + md_table(out, cols)


def threads_table(rows):
    # CUB's rows have no block size (the library's own launch: an empty cell; older CSVs
    # repeated its row for every block size).
    threads = sorted({int(r["threads"]) for r in rows if r["version"] not in BASELINES and r["threads"] != ""})
    out = []
    for v in chain():
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
    cub = [f(r["kernel_ms"]) for r in rows if r["version"] in BASELINES]
    cols = ["version"] + [((lambda r, t=t: r[t]), f"{t} threads", "{}") for t in threads]
    text = md_table(out, cols)
    if cub:
        text += "\n\n" + wrap(f"The library baseline in the same run: {cub[0]:.4f} ms. Time in ms, median; the best "
                             "block size of each version in bold.")
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
    return md_table(out, [("n", "ints", "{}"), "threads",
                          ("fixed", "version 5 (fixed): wrong runs", "{}"),
                          ("unfixed", "as printed: wrong runs", "{}"),
                          ("example", "a wrong sum (as printed)", "{}"), ("cpu", "CPU sum", "{}")])


def iota_table(vrows):
    full = {r["version"]: r for r in random_rows(vrows) if r["version"] in VERSIONS}
    iota = {r["version"]: r for r in iota_rows(vrows) if r["version"] in VERSIONS}
    cols = ["version", "random ints: time (ms)", "1, 2, ..., n: time (ms)", "1, 2, ..., n / random",
            "1, 2, ..., n: GB/s", "GPU sum = CPU sum"]
    if not iota:
        return placeholder(cols, RUN_REPORT)
    out = []
    for v in VERSIONS:
        if v not in iota:
            continue
        r = iota[v]
        out.append({"version": v, "full": f(full[v]["kernel_ms"]) if v in full else None,
                    "iota": f(r["kernel_ms"]), "ratio": f(r["kernel_ms"]) / f(full[v]["kernel_ms"]) if v in full else None,
                    "gbps": f(r["bandwidth_GBps"]), "ok": "yes" if r["result_ok"] in ("1", "true") else "**no**"})
    num = lambda spec: (lambda x: "" if x is None else spec.format(x))  # noqa: E731
    r0 = next(iter(iota.values()))
    n = int(r0["n"])
    exact = n * (n + 1) // 2
    wrapped = exact % (1 << 32)
    wrapped = wrapped - (1 << 32) if wrapped >= 1 << 31 else wrapped
    note = (f"n = {n:,}: the exact sum n(n+1)/2 = {exact:,} does not fit in int32; modulo 2^32, read as int32, it is "
            f"{wrapped:,}, and the CPU sum in the CSV is {int(r0['cpu_sum']):,} "
            f"({'the same' if int(r0['cpu_sum']) == wrapped else '**not the same**'}). "
            f"Serial CPU: {f(r0['cpu_ms']):.3f} ms on 1, 2, ..., n.")
    return wrap(note) + "\n\n" + md_table(out, [("version", cols[0], "{}"), ("full", cols[1], num("{:.4f}")),
                                          ("iota", cols[2], num("{:.4f}")), ("ratio", cols[3], num("{:.3f}x")),
                                          ("gbps", cols[4], num("{:.0f}")), ("ok", cols[5], "{}")])


def latency_by_memory(lrows):
    return {r["memory"]: f(r["cycles_per_load"]) for r in lrows} if lrows else {}


def latency_table(lrows):
    cols = ["memory", "footprint", "stride (bytes)", "cycles per dependent load", "relative to shared memory"]
    lat = latency_by_memory(lrows)
    if "shared" not in lat:
        return placeholder(cols, RUN_REPORT)
    def size(b):
        return f"{b / 1048576:,.0f} MiB" if b >= 1048576 else f"{b / 1024:,.0f} KiB"
    out = [{"memory": r["memory"], "foot": size(int(r["footprint_bytes"])), "stride": r["stride_bytes"],
            "cyc": f(r["cycles_per_load"]), "rel": f(r["cycles_per_load"]) / lat["shared"]} for r in lrows]
    return (wrap(f"Device: {lrows[0]['device']}; pointer chasing with one thread (`experiments/memory_latency.cu`), "
                 "median of 3 runs.") + "\n\n" +
            md_table(out, [("memory", cols[0], "{}"), ("foot", cols[1], "{}"), ("stride", cols[2], "{}"),
                           ("cyc", cols[3], "{:.0f}"), ("rel", cols[4], "{:.1f}x")]))


# --- Nsight Compute counters (results/profile.csv, `make profile`) -------------------------
UNIT_SCALE = {"nsecond": 1.0, "usecond": 1e3, "msecond": 1e6, "second": 1e9,  # -> ns
              "byte": 1.0, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}          # -> bytes
M_TIME = "gpu__time_duration.sum"
M_DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
M_OCC = "sm__warps_active.avg.pct_of_peak_sustained_active"
M_OCC_MAX = "sm__maximum_warps_per_active_cycle_pct"
M_INST = "smsp__inst_executed.sum"
M_THREADS = "smsp__thread_inst_executed_per_inst_executed.ratio"
M_DIV = "smsp__sass_branch_targets_threads_divergent.sum"
M_LD = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
M_ST = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
M_BAR = "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"
M_GRID = "launch__grid_size"


def first_pass(prows):
    """{version: {metric: value in base units, "kernel": name, "kernels": count}} of each
    version's FIRST PASS: of the kernels profiled for a version, the one with the largest grid
    (launch__grid_size), i.e. the launch that reads the input. Versions 1-7 are profiled with
    their first launch only (their later passes run the same kernel on the partials); CUB's
    second kernel (the single tile that sums its partials) is left out by this rule."""
    by = {}
    for r in prows or []:
        v = num(r["value"])
        if v is None:
            continue
        by.setdefault(r["version"], {}).setdefault(r["kernel"], {})[r["metric"]] = v * UNIT_SCALE.get(r["unit"], 1.0)
    out = {}
    for v, kernels in by.items():
        k = max(kernels, key=lambda name: kernels[name].get(M_GRID, 0.0))
        out[v] = dict(kernels[k], kernel=k, kernels=len(kernels))
    return out


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def profile_table(prows):
    cols = ["version", "kernel (first pass)", "grid", "time (us)", "DRAM % of peak", "achieved occupancy %",
            "theoretical occupancy %", "warp instructions (M)", "threads per warp instruction",
            "divergent branch targets", "shared ld bank conflicts", "shared st bank conflicts",
            "barrier stall (cycles per issued instruction)"]
    fp = first_pass(prows)
    if not fp:
        return placeholder(cols, RUN_PROFILE)
    g = lambda d, m, scale=1.0: (d[m] / scale) if m in d else None  # noqa: E731
    out = []
    for v in VERSIONS:
        if v not in fp:
            continue
        d = fp[v]
        out.append({"version": v, "kernel": f"`{d['kernel']}`", "grid": g(d, M_GRID),
                    "t": g(d, M_TIME, 1e3), "dram": g(d, M_DRAM), "occ": g(d, M_OCC), "occmax": g(d, M_OCC_MAX),
                    "inst": g(d, M_INST, 1e6), "thr": g(d, M_THREADS), "div": g(d, M_DIV), "ld": g(d, M_LD),
                    "st": g(d, M_ST), "bar": g(d, M_BAR)})
    n1 = lambda spec: (lambda x: "" if x is None else spec.format(x))  # noqa: E731
    r0 = prows[0]
    head = (f"{int(r0['n']):,} ints, 256 threads per block; Nsight Compute {r0['ncu_version']} on {r0['device']} "
            f"(`--clock-control none`, caches flushed before each profiled kernel). First pass of each version only "
            f"(the kernel launch with the largest grid, the one that reads the input); the library baseline: its first kernel.")
    return wrap(head) + "\n\n" + md_table(out, [
        ("version", cols[0], "{}"), ("kernel", cols[1], "{}"), ("grid", cols[2], n1("{:.0f}")),
        ("t", cols[3], n1("{:.1f}")), ("dram", cols[4], n1("{:.0f}")), ("occ", cols[5], n1("{:.0f}")),
        ("occmax", cols[6], n1("{:.0f}")), ("inst", cols[7], n1("{:.2f}")), ("thr", cols[8], n1("{:.1f}")),
        ("div", cols[9], n1("{:,.0f}")), ("ld", cols[10], n1("{:,.0f}")), ("st", cols[11], n1("{:,.0f}")),
        ((lambda r: RUN_PROFILE if r["bar"] is None else f"{r['bar']:.3f}"), cols[12], "{}")])


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):  # average ranks for ties
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(xs, ys):
    """Spearman's rank correlation (Pearson's on the ranks); None when undefined."""
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    syy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return sxy / (sxx * syy) if sxx > 0 and syy > 0 else None


def claims(prows):
    """[(claim, counter, measured, verdict)]: each of the report's claims about a version against
    the counter that tests it, first passes only. Every verdict goes through readme_tables'
    ratio / compare / verdict: a ratio with a zero or missing denominator, or a counter missing
    from profile.csv, gives "cannot be judged here (why)", never "holds". The rule of each
    verdict is the compare() beside it."""
    fp = first_pass(prows)

    def c(v, m):
        return fp.get(v, {}).get(m)

    def conflicts(v):
        a, b = c(v, M_LD), c(v, M_ST)
        return None if a is None or b is None else a + b

    def fx(x):
        return "n/a" if x is None else f"{x:.3g}x"

    def counts(a, b, r):
        if a is None or b is None:
            return NOT_PROFILED
        return f"{a:,.0f} / {b:,.0f}" + ("" if r is None else f" = {fx(r)}")

    out = []

    def add(claim, counter, measured, holds, why=None):
        out.append({"claim": claim, "counter": counter, "measured": measured,
                    "verdict": verdict(holds, why) if why else verdict(holds)})

    d1, d2 = c("1", M_DIV), c("2", M_DIV)
    r = ratio(d1, d2)
    add("version 1: the `tid % (2*stride)` branch makes warps diverge", "divergent branch targets, v1 / v2",
        counts(d1, d2, r), compare(r, ">", 2),  # rule: more than 2x version 2's
        "both counts are 0: no branch diverges on this GPU, see below" if d1 == 0 and d2 == 0 else None)
    t1, t2 = c("1", M_THREADS), c("2", M_THREADS)
    r = ratio(t2, t1)
    add("version 2: the strided index keeps the active threads of a warp together",
        "active threads per warp instruction, v2 / v1",
        f"{t2:.1f} / {t1:.1f} of 32 = {fx(r)}" if r is not None else NOT_PROFILED,
        None if d1 == 0 else compare(r, ">=", 1.1),  # rule: at least 10% more active threads per instruction
        "version 1 does not diverge here either: there is nothing to remove, see below" if d1 == 0 else None)
    c1, c2, c3 = conflicts("1"), conflicts("2"), conflicts("3")
    r = ratio(c2, c1)
    add("version 2 has shared-memory bank conflicts", "bank conflicts (loads + stores), v2 / v1",
        counts(c2, c1, r), compare(r, ">", 2))  # rule: more than 2x version 1's
    r = ratio(c3, c2)
    add("version 3 (sequential addressing) removes them", "bank conflicts (loads + stores), v3 / v2",
        counts(c3, c2, r), compare(r, "<=", 0.1))  # rule: at most 10% of version 2's
    i3, i4, i5, i6, i7 = (c(v, M_INST) for v in "34567")
    r = ratio(i4, i3)
    add("version 4 puts the idle half of the threads to work (first add during the load)",
        "warp instructions executed, v4 / v3", fx(r), compare(r, "<=", 0.75))  # rule: at most 0.75x
    r = ratio(i5, i4)
    add("version 5: unrolling the last warp executes fewer instructions", "warp instructions executed, v5 / v4",
        fx(r), compare(r, "<", 0.95))  # rule: at least 5% fewer
    b4, b5 = c("4", M_BAR), c("5", M_BAR)
    r = ratio(b5, b4)
    add("version 5: ... and waits less at `__syncthreads`",
        "barrier stall cycles per issued instruction, v5 / v4",
        f"{b5:.3g} / {b4:.3g} = {fx(r)}" if r is not None else (NOT_PROFILED if b4 is None or b5 is None else "n/a"),
        compare(r, "<", 0.9),  # rule: at least 10% less
        "the counter is not in results/profile.csv yet: run make profile" if b4 is None or b5 is None else None)
    r = ratio(i6, i5)
    add("version 6 (Harris): complete unrolling executes fewer instructions", "warp instructions executed, v6 / v5",
        fx(r), compare(r, "<", 0.95))  # rule: at least 5% fewer
    r = ratio(i7, i6)
    add("version 7 (Harris): many elements per thread executes fewer instructions",
        "warp instructions executed, v7 / v6", fx(r), compare(r, "<", 0.95))  # rule: at least 5% fewer
    rho_dram, rho_occ = occupancy_vs_memory(fp)
    add("memory usage, not occupancy, is the major determinant of performance",
        "Spearman rank correlation over the versions (not the baseline) of the time with achieved occupancy "
        "(and, for comparison, with DRAM throughput, which is bytes / time here and so near -1 by construction)",
        "n/a" if rho_occ is None else f"{rho_occ:+.2f} (DRAM: {rho_dram:+.2f})",
        compare(rho_occ, ">", OCCUPANCY_RULE),
        "fewer than 3 versions with time and occupancy counters" if rho_occ is None else None)
    return out


# The occupancy claim holds unless a higher achieved occupancy goes with a shorter time,
# strongly: a rank correlation of the time with occupancy at or below this would make occupancy
# a major determinant.
OCCUPANCY_RULE = -0.5


def divergence_note(prows):
    """What the counters say about versions 1 and 2, below the claims table: whether version
    1's `%` branch diverges here at all, and what the 1 -> 2 step does change."""
    fp = first_pass(prows)
    if not fp or "1" not in fp or "2" not in fp:
        return f"The counters of versions 1 and 2: {RUN_PROFILE}."
    d1, d2 = fp["1"].get(M_DIV), fp["2"].get(M_DIV)
    t1, t2 = fp["1"].get(M_THREADS), fp["2"].get(M_THREADS)
    i1, i2 = fp["1"].get(M_INST), fp["2"].get(M_INST)
    dev = prows[0]["device"]
    lines = []
    if d1 == 0 and d2 == 0 and t1 is not None and t2 is not None:
        lines.append(
            f"On the {dev} neither version 1 nor version 2 diverges: both have 0 divergent branch targets, "
            f"and their warp instructions run with {t1:.1f} and {t2:.1f} of 32 threads active. The compiler "
            "turns version 1's test `(tid % (2 * stride)) == 0` into predicated instructions (every thread "
            "steps through the add, and the threads whose condition is false do not write), so there is no "
            "branch left to diverge. The report's explanation of the 1 → 2 step (divergent warps) cannot "
            "be seen here.")
    elif d1 is not None and d2 is not None:
        lines.append(f"On the {dev} version 1 has {d1:,.0f} divergent branch targets and version 2 {d2:,.0f}.")
    r = ratio(i2, i1)
    if r is not None:
        lines.append(
            f"What the 1 → 2 step does coincide with: the warp instructions executed by the first pass fall "
            f"from {i1 / 1e6:.1f} M to {i2 / 1e6:.1f} M ({r:.2f}x). In version 2 the threads with work "
            "in a step are contiguous, so whole warps skip the steps in which they have nothing to add; in "
            "version 1 every warp holds a few threads with work and issues every step's instructions "
            "(predicated off for the others), and computes an integer `%` in every step.")
    return wrap(" ".join(lines))


def occupancy_vs_memory(fp):
    vs = [v for v in chain() if v in fp and all(m in fp[v] for m in (M_TIME, M_DRAM, M_OCC))]
    t = [fp[v][M_TIME] for v in vs]
    return spearman(t, [fp[v][M_DRAM] for v in vs]), spearman(t, [fp[v][M_OCC] for v in vs])


def claims_table(prows):
    cols = ["the report's claim", "counter (first pass)", "measured", "verdict"]
    if not first_pass(prows):
        return placeholder(cols, RUN_PROFILE)
    return md_table(claims(prows), [("claim", cols[0], "{}"), ("counter", cols[1], "{}"),
                                    ("measured", cols[2], "{}"), ("verdict", cols[3], "{}")])


def pow2(n):
    return f"2^{n.bit_length() - 1}" if n > 0 and (n & (n - 1)) == 0 else f"{n:,}"


def values(vrows, srows, urows, lrows, prows):
    """Every number of the README's prose that comes from results, by name (a CSV that is not
    there yet leaves its names out: texts() puts what to run in their place)."""
    vfull = random_rows(vrows)
    vals = {}

    def V(name, text):
        vals[name] = text
    chain = [v for v in VERSIONS if v not in BASELINES]
    if vfull:
        by = {r["version"]: r for r in vfull}
        r0 = vfull[0]
        ms = {v: f(by[v]["kernel_ms"]) for v in VERSIONS if v in by}
        V("device", f"{r0['device']} (driver {r0['driver']}, CUDA {r0['runtime']})")
        V("device-name", r0["device"])
        steps = [(a, b, ms[a] / ms[b]) for a, b in zip(chain, chain[1:]) if a in ms and b in ms]
        V("steps-8m", ", ".join(f"{a}→{b} {x:.2f}x" for a, b, x in steps))
        V("all-steps-8m", "every step is faster" if all(x > 1 for _, _, x in steps) else
          "not every step is faster (" + ", ".join(f"{a}→{b} {x:.2f}x" for a, b, x in steps if x <= 1) + ")")
        V("cum5-8m", f"{ms['1'] / ms['5']:.2f}x")
        V("cum8-8m", f"{ms['1'] / ms['8']:.2f}x")
        for a, b in (("1", "2"), ("2", "3"), ("3", "4"), ("4", "5"), ("5", "6"), ("6", "7")):
            V(f"s{a}{b}-8m", f"{ms[a] / ms[b]:.2f}x")
        V("cpu-ms-8m", f"{f(r0['cpu_ms']):.3f} ms")
        V("v1-ms-8m", f"{ms['1']:.4f} ms")
        V("v1-vs-cpu-8m", f"{f(r0['cpu_ms']) / ms['1']:.0f}x")
        V("v8-ms-8m", f"{ms['8']:.4f} ms")
        V("v8-vs-cpu-8m", f"{f(r0['cpu_ms']) / ms['8']:.0f}x")
        V("copy-in-8m", f"{f(r0['copy_in_ms']):.2f} ms")
        V("v7-blocks-8m", f"{int(by['7']['blocks']):,}")
        V("v6-blocks-8m", f"{int(by['6']['blocks']):,}")
        V("v8-vs-cub-8m", f"{f(by['8']['speedup_vs_baseline']):.3f}x")
        V("v8-ms-target", f"{ms['8']:.4f} ms")
        V("cub-ms-target", f"{f(by['8']['baseline_ms']):.4f} ms")
    if srows:
        sizes = sorted({int(r["n"]) for r in srows})
        t = {(int(r["n"]), r["version"]): f(r["kernel_ms"]) for r in srows}
        big = sizes[-1]
        def step_list(n):
            return [(a, b, t[(n, a)] / t[(n, b)]) for a, b in zip(chain, chain[1:]) if (n, a) in t and (n, b) in t]
        V("steps-max", ", ".join(f"{a}→{b} {x:.2f}x" for a, b, x in step_list(big)))
        V("max-size", pow2(big))
        good = [n for n in sizes if all(x > 1 for _, _, x in step_list(n))]
        first_good = next((n for n in sizes if all(m in good for m in sizes if m >= n)), None)
        V("all-faster-from", pow2(first_good) if first_good else "no size")
        small = [n for n in sizes if n <= 1 << 16]
        st = [t[(n, v)] for n in small for v in chain if (n, v) in t]
        V("small-range", f"{1000 * min(st):.0f}-{1000 * max(st):.0f} µs" if st else "n/a")
        slow = [f"{a}→{b} {x:.2f}x" for a, b, x in step_list(sizes[0])]
        V("steps-smallest", ", ".join(slow))
        V("smallest-size", pow2(sizes[0]))
        for a, b in (("1", "2"), ("2", "3"), ("3", "4"), ("4", "5"), ("5", "6"), ("6", "7")):
            V(f"s{a}{b}-max", f"{t[(big, a)] / t[(big, b)]:.2f}x")
        r67 = [t[(n, "6")] / t[(n, "7")] for n in sizes if n <= 1 << 18 and (n, "6") in t and (n, "7") in t]
        V("s67-small-range", f"{min(r67):.2f}x to {max(r67):.2f}x" if r67 else "n/a")
        cpu = {int(r["n"]): f(r["cpu_ms"]) for r in srows}
        cpu_wins = [n for n in sizes if all(cpu[n] < t[(n, v)] for v in VERSIONS if (n, v) in t)]
        last = max(cpu_wins) if cpu_wins else None
        V("cpu-wins-upto", pow2(last) if last else "no size")
        V("cpu-ms-wins", f"{cpu[last]:.4f} ms against ≥ {min(t[(last, v)] for v in VERSIONS if (last, v) in t):.4f} ms"
          if last else "n/a")
        # O(log N): passes of a tree version, tree steps per pass, and time against size.
        launches = {int(r["n"]): int(r["launches"]) for r in srows if r["version"] == "3" and r["launches"]}
        threads = next((int(r["threads"]) for r in srows if r["version"] == "3" and r["threads"]), 256)
        lg = int(math.log2(threads))
        V("logn-steps", "; ".join(f"{pow2(n)}: {launches[n]} × {lg} = {launches[n] * lg} (log2 n = {n.bit_length() - 1})"
                                  for n in (sizes[0], 1 << 20, big) if n in launches))
        n_lo = big >> 4
        if (n_lo, "8") in t and (big, "8") in t:
            V("logn-time", f"{t[(big, '8')] / t[(n_lo, '8')]:.1f}x for version 8 and "
              f"{t[(big, '3')] / t[(n_lo, '3')]:.1f}x for version 3 from {pow2(n_lo)} to {pow2(big)} ints (16x the data)")
        else:
            V("logn-time", "n/a")
        r8 = next((r for r in srows if int(r["n"]) == big and r["version"] == "8"), None)
        if r8:
            V("v8-ms-big", f"{f(r8['kernel_ms']):.4f} ms")
            V("cub-ms-big", f"{f(r8['baseline_ms']):.4f} ms")
            speed = f(r8["speedup_vs_baseline"])
            V("v8-vs-cub-big", f"{speed:.3f}x")
            V("v8-big-note", "faster than CUB" if speed >= 1 else f"{100 * (1 / speed - 1):.1f}% slower than CUB")
            V("bw-big", f"{f(r8['bandwidth_GBps']):,.0f} GB/s (CUB {4.0 * big / (f(r8['baseline_ms']) * 1e6):,.0f} GB/s)")
            V("copy-bw-big", f"{f(r8['copy_bw_GBps']):,.0f} GB/s")
    if urows:
        u = [r for r in urows if r["version"] == "5-unfixed"]
        fx = [r for r in urows if r["version"] == "5"]
        wrong = sum(int(r["wrong_checks"]) for r in u)
        checks = sum(int(r["checks"]) for r in u)
        V("unfixed-wrong", f"{wrong} of {checks} checked runs in {len(u)} configurations")
        V("unfixed-configs", f"{', '.join(f'{n:,}' for n in sorted({int(r['n']) for r in u}))} ints × "
          f"{', '.join(f'{t:,}' for t in sorted({int(r['threads']) for r in u}))} threads")
        V("unfixed-kind", "a systematic error, not an occasional race" if wrong == checks else
          "wrong in some runs only, as a race is")
        V("unfixed-always", "every time" if wrong == checks else "not every time")
        ex = next((r for r in u if r["n"] == "8388608" and r["threads"] == "256"), u[0] if u else None)
        V("unfixed-example", f"{ex['gpu_sum']} instead of {ex['cpu_sum']} at {int(ex['n']):,} ints with "
          f"{ex['threads']} threads" if ex else "n/a")
        fw = sum(int(r["wrong_checks"]) for r in fx)
        V("fixed-wrong", f"{fw} wrong in {sum(int(r['checks']) for r in fx)} checks")
    lat = latency_by_memory(lrows)
    if "shared" in lat and "DRAM" in lat:
        V("lat-shared", f"{lat['shared']:.0f} cycles")
        V("lat-dram", f"{lat['DRAM']:.0f} cycles")
        V("lat-l2", f"{lat.get('L2', float('nan')):.0f} cycles")
        V("lat-ratio", f"{lat['DRAM'] / lat['shared']:.0f}x")
        V("lat-ratio-l2", f"{lat.get('L2', float('nan')) / lat['shared']:.0f}x")
        # rule: "roughly 100x" holds when the measured factor is within 2x of 100 (50x to 200x)
        r = ratio(lat["DRAM"], lat["shared"])
        V("lat-verdict", verdict(None if r is None else 50 <= r <= 200))
    else:
        for k in ("lat-shared", "lat-dram", "lat-l2", "lat-ratio", "lat-ratio-l2", "lat-verdict"):
            V(k, RUN_REPORT)
    fp = first_pass(prows)
    vs = [v for v in chain if v in fp and M_OCC in fp[v] and M_TIME in fp[v]]
    if vs:
        occ = [fp[v][M_OCC] for v in vs]
        tm = [fp[v][M_TIME] for v in vs]
        rho_dram, rho_occ = occupancy_vs_memory(fp)
        V("occ-range", f"{min(occ):.0f}% to {max(occ):.0f}%")
        V("occ-time-range", f"{max(tm) / min(tm):.1f}x")
        V("occ-rho", "n/a" if rho_occ is None else f"{rho_occ:+.2f}")
        V("occ-verdict", verdict(compare(rho_occ, ">", OCCUPANCY_RULE)))
        d = [fp[v][M_DRAM] for v in vs if M_DRAM in fp[v]]
        V("dram-range", f"{min(d):.0f}% to {max(d):.0f}%" if d else "n/a")
    else:
        for k in ("occ-range", "occ-time-range", "occ-rho", "occ-verdict", "dram-range"):
            V(k, RUN_PROFILE)
    return vals



class Values(dict):
    """values() with what to run in place of a value whose CSV is not there yet."""
    def __missing__(self, name):
        return RUN_PROFILE if name.startswith(("occ-", "dram-", "div-")) else RUN_REPORT


def item(number, text):
    return wrap(text, f"{number}. ")


def conclusions_text(v, prows):
    """The README's list of the report's conclusions, every number from the CSVs (values())."""
    fp = first_pass(prows)
    d1, d2 = fp.get("1", {}).get(M_DIV), fp.get("2", {}).get(M_DIV)
    no_divergence = d1 == 0 and d2 == 0
    h = {k: HARRIS[k][2] for k in HARRIS if HARRIS[k][2] is not None}
    out = [wrap(
        f"Measured on the {v['device']} of `results/`; all ratios are within one run (times at 8,388,608 "
        "ints and 256 threads from `results/versions.csv`, other sizes from `results/size_sweep.csv`, "
        "counters from `results/profile.csv`). Every default version gave the exact CPU sum in every "
        "check of every CSV (a CSV is written only when every check passed)."), ""]
    texts = [
        f"**\"Each version is a significant improvement\": at 8,388,608 ints {v['all-steps-8m']}.** "
        f"Step by step: {v['steps-8m']} (cumulative {v['cum5-8m']} for version 5 over version 1, "
        f"{v['cum8-8m']} for version 8). Every step is faster at every size from {v['all-faster-from']} up "
        f"(at {v['max-size']}: {v['steps-max']}). At small sizes every version takes {v['small-range']} "
        "(up to 2^16 ints): the time is that of launching the kernels, not of reading the data "
        f"(launch-bound), and the steps go both ways (at {v['smallest-size']}: {v['steps-smallest']}).",

        "**Removing divergence and bank conflicts pays"
        + (", though not for the report's reason in the first step" if no_divergence else "") + ".** "
        f"1→2 (no `%` branch) is {v['s12-8m']} at 8M and {v['s12-max']} at the largest size; 2→3 "
        f"(sequential, conflict-free addressing) {v['s23-8m']} and {v['s23-max']}, against Harris's "
        f"{h.get('2', 0):.2f}x and {h.get('3', 0):.2f}x on the G80. "
        + ("Version 1 does not diverge on this GPU (the compiler predicates its branch: see below the "
           "claims table); the 1→2 gain goes with fewer instructions executed. " if no_divergence else "")
        + f"The biggest single step here is 3→4 ({v['s34-8m']} at 8M, {v['s34-max']} at the largest "
        "size), which halves the blocks and the idle threads.",

        "**Loop unrolling is a good technique: for the last warp.** Unrolling the last warp (4→5, here "
        f"with `__syncwarp`) gives {v['s45-8m']} at 8M and {v['s45-max']} at the largest size; complete "
        f"unrolling with a template block size (5→6) {v['s56-8m']} and {v['s56-max']} (Harris: "
        f"{h.get('6', 0):.2f}x).",

        "**The parallel versions beat the serial loop, for the kernel time alone.** At 8M the serial CPU "
        f"sum takes {v['cpu-ms-8m']}, version 1 {v['v1-ms-8m']} ({v['v1-vs-cpu-8m']} faster), version 8 "
        f"{v['v8-ms-8m']} ({v['v8-vs-cpu-8m']}). The CPU is faster than every GPU version up to "
        f"{v['cpu-wins-upto']} ints (there: {v['cpu-ms-wins']}). The GPU times exclude copying the input "
        f"to the GPU, which alone (pageable memory) takes {v['copy-in-8m']} at 8M: the GPU wins only if "
        "the data are already on it.",

        "**\"Parallel implementation time complexity is O(log N)\": the depth is, the time is not.** The "
        "number of dependent steps is logarithmic: passes × log2(256) tree steps per block "
        f"({v['logn-steps']}). But every element is still read once, so once the GPU is full the time "
        f"grows linearly with n: {v['logn-time']}. The time is O(n/p + log n) for p parallel adders, and "
        "on a GPU the n/p term (memory bandwidth) dominates.",

        "**\"Grid-stride loop\": the report's kernels have none** (one or two elements per thread, the grid "
        "grows with n; in a grid-stride loop a fixed grid walks over the whole input, each thread "
        f"summing many elements). Where Harris put it, in version 7 ({v['v7-blocks-8m']} blocks at 8M "
        f"against version 6's {v['v6-blocks-8m']}), it pays {v['s67-8m']} over version 6 at 8M and "
        f"{v['s67-max']} at the largest size; up to 2^18 ints the step ranges over {v['s67-small-range']}.",

        "**\"Shared memory latency is roughly 100x lower than non-cached global memory\": "
        f"{v['lat-verdict']}.** A dependent load takes {v['lat-shared']} from shared memory and "
        f"{v['lat-dram']} from DRAM, a factor of {v['lat-ratio']}; from L2 {v['lat-l2']} "
        f"({v['lat-ratio-l2']}). (Rule: \"roughly 100x\" holds for a factor between 50x and 200x.) "
        "Latency is not what limits these kernels, though: many warps in flight hide it, and the "
        "counters above show throughput, not latency, deciding the time.",

        "**\"Memory usage, not occupancy, is the major determinant of performance\": "
        f"{v['occ-verdict']}.** Over the versions the achieved occupancy of the first pass stays within "
        f"{v['occ-range']} while the kernel time changes {v['occ-time-range']} and the DRAM throughput "
        f"goes from {v['dram-range']} of the peak. The rank correlation of the time with the achieved "
        f"occupancy is {v['occ-rho']} (rule: occupancy would be a major determinant if higher occupancy "
        f"went with shorter times, a correlation of {OCCUPANCY_RULE} or below). What the faster versions "
        "change is how much work and waiting stands between the loads and the sum (instructions, "
        "barriers, idle threads), which shows up as DRAM throughput, not as occupancy.",

        f"**The report's version 5 as printed gives wrong sums on the {v['device-name']}: "
        f"{v['unfixed-always']}.** In `results/unfixed_v5.csv` it was wrong in {v['unfixed-wrong']} "
        f"({v['unfixed-configs']}), e.g. {v['unfixed-example']}; the fixed version 5: {v['fixed-wrong']}. "
        "Compare with the PTX described above (values kept in registers without `volatile`): "
        f"{v['unfixed-kind']}.",
    ]
    for i, t in enumerate(texts, 1):
        out.append(item(i, t))
    return "\n".join(out)


def targets_text(v):
    """The sentence under the targets table (numbers from the CSVs)."""
    return wrap(
        f"At 8,388,608 ints version 8 takes {v['v8-ms-target']} against the baseline's "
        f"{v['cub-ms-target']} (**{v['v8-vs-cub-8m']}**). At {v['max-size']}: {v['v8-ms-big']} against "
        f"{v['cub-ms-big']} (**{v['v8-vs-cub-big']}**, version 8 {v['v8-big-note']}); they read at "
        f"{v['bw-big']}, against the same run's device-to-device copy at {v['copy-bw-big']} (bytes read + "
        "written).")


def main():
    names = ("versions.csv", "size_sweep.csv", "threads.csv", "unfixed_v5.csv", "latency.csv", "profile.csv")
    vrows, srows, trows, urows, lrows, prows = (load(n) for n in names)
    set_versions(vrows, srows, trows, prows)
    readme = Readme(README)
    vfull = random_rows(vrows)
    v = Values(values(vrows, srows, urows, lrows, prows))
    readme.block("versions-table", versions_table(vfull) if vfull else missing("versions.csv"))
    readme.block("targets-table", targets_table(vfull, srows) + "\n\n" + targets_text(v))
    readme.block("sweep-table", sweep_table(srows) if srows else missing("size_sweep.csv"))
    readme.block("threads-table", threads_table(trows) if trows else missing("threads.csv"))
    readme.block("unfixed-table", unfixed_table(urows) if urows else missing("unfixed_v5.csv"))
    readme.block("iota-table", iota_table(vrows or []))
    readme.block("latency-table", latency_table(lrows))
    readme.block("profile-table", profile_table(prows))
    readme.block("claims-table", claims_table(prows) + "\n\n" + divergence_note(prows))
    readme.block("conclusions", conclusions_text(v, prows))
    readme.save()


if __name__ == "__main__":
    main()
