#!/usr/bin/env python3
"""Fills the generated blocks of reduction_versions/README.md from results/*.csv (make tables): the
tables, the claims table and the conclusions, in the words of prose.md; here, the values they name,
the claims' rules and verdicts. The version labels and the library baseline come from the CSVs
(version, is_baseline), in CSV order; a CSV not there yet gives a placeholder.
    python3 tables.py [RESULTS_DIR [README]]"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from readme_tables import (TIME, Readme, Table, arrows, compare, names_used, part as fill_part, prefixed,  # noqa: E402
                           fill_blocks, headings, load, main_kernel, md_table, ncu_kernels, num, pivot,
                           placeholder_table, pow2, ratio, ratio_claim, read_templates, section_values,
                           spearman, speedups, verdict, versions_of, blocks)

RESULTS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results")
README = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "README.md")
PROSE = read_templates(os.path.join(HERE, "prose.md"))  # NAME: README block NAME; NAME.part: put in here
NAMES = names_used(PROSE)  # every {name} of prose.md's blocks
RUN_REPORT, RUN_PROFILE = "(run make report-run)", "(run make profile)"
NOT_PROFILED = "not measured yet (run make profile)"
VERSIONS, BASELINES, CHAIN = [], set(), []  # from the CSVs (main); CHAIN: the versions without the baseline
TARGET, X = "8", "{:.2f}x"  # TARGET: the version the targets are set for (ours, against the library's)
# M. Harris, "Optimizing Parallel Reduction in CUDA" (2007): 2^22 ints, 128 threads per block,
# GeForce 8800 GTX (G80). (time ms, bandwidth GB/s, step speed-up, cumulative speed-up)
HARRIS = {"1": (8.054, 2.083, None, None), "2": (3.456, 4.854, 2.33, 2.33), "3": (1.722, 9.741, 2.01, 4.68),
          "4": (0.965, 17.377, 1.78, 8.34), "5": (0.536, 31.289, 1.80, 15.01),
          "6": (0.381, 43.996, 1.41, 21.16), "7": (0.268, 62.671, 1.42, 30.04)}
HARRIS_COLUMNS = [("Harris G80 time (ms)", "{:.3f}"), ("Harris GB/s", "{:.3f}"), ("Harris step", X),
                  ("Harris cumulative", X)]
# The occupancy claim holds unless a higher achieved occupancy goes with a shorter time, strongly:
# a rank correlation of the time with occupancy at or below this.
OCCUPANCY_RULE = -0.5
LATENCY_RULE = (50, 200)  # "roughly 100x": a DRAM / shared memory latency within 2x of 100


def part(name, values=(), **more):
    """prose.md's part `name` (a table's head or note, a sentence the data call for), filled from a
    row's values and more."""
    return fill_part(PROSE, name, dict(values, **more))


def missing(csv):
    return part("table.missing", csv=csv)


def random_data(r):  # a row on random data (data = full; the committed CSVs may predate the data column)
    return r.get("data", "full") != "iota"


def versions_rows(rows):
    """Each version with its step and cumulative speed-up (Harris's beside them), then the CPU."""
    by = {r["version"]: r for r in rows if r["version"] in VERSIONS}
    ms = {v: num(r["kernel_ms"]) for v, r in by.items()}
    step = {b: x for _, b, x in speedups(ms.get, [v for v in CHAIN if v in by])}
    out, cpu, n = [], num(rows[0]["cpu_ms"]), int(rows[0]["n"])
    for v, r in [(v, by[v]) for v in VERSIONS if v in by]:
        memset = " + memset" if r["memsets"] not in ("", "0") else ""
        out.append(dict(r, kernel=f"`{r['kernel']}`", launches=r["launches"] + memset, step=step.get(v),
                        cum=ratio(ms.get("1"), ms[v])))
        if v in BASELINES:  # the library's own launch
            out[-1].update(threads="(library)", blocks="", launches="")
    return out + [{"version": "CPU", "kernel": "serial loop (`rv::sum_wrap`), one thread", "kernel_ms": cpu,
                   "bandwidth_GBps": 4.0 * n / (cpu * 1e6), "cum": ratio(ms.get("1"), cpu)}]


def versions_head(rows):
    r, n = rows[0], int(rows[0]["n"])
    return part("versions-table.head", r, n=f"{n:,}", mib=f"{4 * n / 2**20:.0f}",
                copy=f"{num(r['copy_bw_GBps']):.0f}", l2="flushed" if r["l2"] == "flush" else "kept")


def targets_table(vfull, srows):
    """Version 8 against the library baseline at the two sizes its targets are set for."""
    out = []
    for rows, n, target in ((vfull, 8388608, 1.0), (srows, 1 << 28, 0.97)):
        for r in [r for r in rows or [] if int(r["n"]) == n and r["version"] == TARGET][-1:]:
            x = num(r["speedup_vs_baseline"])
            short = f"**no** ({100 * (target - x) / target:.1f}% short)"
            out.append(dict(r, n=f"{n:,}", cub_bw=4.0 * n / (num(r["baseline_ms"]) * 1e6), x=x,
                            target=f">= {target:.2f}x", met="yes" if x >= target else short))
    return md_table(out, [
        ("n", "ints"), ("kernel_ms", "version 8 (ms)", "{:.4f}"), ("baseline_ms", "CUB (ms)", "{:.4f}"),
        ("bandwidth_GBps", "version 8 GB/s", "{:.0f}"), ("cub_bw", "CUB GB/s", "{:.0f}"),
        ("x", "CUB time / version 8 time", "{:.3f}x"), "target", "met"]) if out else missing("versions.csv")


def sweep_rows(rows):
    """The bandwidth of every version and of the CPU at 4^k ints, 2^23 and 2^27."""
    out = []
    for n, by in sorted(pivot(rows, lambda r: int(r["n"]), "version").items()):
        if n & (n - 1) == 0 and (n.bit_length() - 1) % 2 == 0 or n in (1 << 23, 1 << 27):
            cpu = next(iter(by.values()))
            out.append(dict({v: r["bandwidth_GBps"] for v, r in by.items()}, n=pow2(n),
                            cpu=cpu["cpu_bandwidth_GBps"], cpu_ms=cpu["cpu_ms"]))
    return out


def threads_rows(rows):
    """Time per version and block size, the best in bold (the library's own launch has no block size)."""
    out, by = [], pivot(rows, lambda r: r["version"], "threads")
    for v in [v for v in CHAIN if v in by]:
        times = {int(t): num(r["kernel_ms"]) for t, r in by[v].items()}
        best = min(times, key=times.get)
        out.append(dict({t: f"**{x:.4f}**" if t == best else f"{x:.4f}" for t, x in times.items()},
                        version=v))
    return out


def unfixed_rows(rows):
    """Per size and block size: the wrong runs of version 5 (fixed) and of the report's as printed."""
    def wrong(r):
        return f"{r['wrong_checks']} of {r['checks']}" if r else None
    out = []
    for (n, t), by in pivot(rows, lambda r: (int(r["n"]), int(r["threads"])), "version").items():
        u = by.get("5-unfixed", {})
        example = u.get("gpu_sum") if u.get("wrong_checks") != "0" else ""
        out.append({"n": f"{n:,}", "threads": t, "fixed": wrong(by.get("5")), "unfixed": wrong(u),
                    "cpu": u.get("cpu_sum"), "example": example})
    return out


def iota_head(rows):
    r, n = rows[0], int(rows[0]["n"])
    exact, cpu = n * (n + 1) // 2, int(r["cpu_sum"])
    wrapped = (exact + (1 << 31)) % (1 << 32) - (1 << 31)  # modulo 2^32, read as int32
    return part("iota-table.head", n=f"{n:,}", exact=f"{exact:,}", wrapped=f"{wrapped:,}", cpu=f"{cpu:,}",
                same="the same" if cpu == wrapped else "**not the same**", cpu_ms=f"{num(r['cpu_ms']):.3f}")


# --- Nsight Compute counters (results/profile.csv, `make profile`) -------------------------
M_GRID, M_DRAM = "launch__grid_size", "dram__throughput.avg.pct_of_peak_sustained_elapsed"
M_OCC = "sm__warps_active.avg.pct_of_peak_sustained_active"
M_INST, M_THREADS = "smsp__inst_executed.sum", "smsp__thread_inst_executed_per_inst_executed.ratio"
M_DIV = "smsp__sass_branch_targets_threads_divergent.sum"
M_LD = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
M_ST = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
M_BAR = "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"
PROFILE_COLUMNS = [
    "version", ("kernel", "kernel (first pass)", "`{}`"), (M_GRID, "grid", "{:.0f}"),
    (TIME, "time (us)", lambda x: f"{x / 1e3:.1f}"), (M_DRAM, "DRAM % of peak", "{:.0f}"),
    (M_OCC, "achieved occupancy %", "{:.0f}"),
    ("sm__maximum_warps_per_active_cycle_pct", "theoretical occupancy %", "{:.0f}"),
    (M_INST, "warp instructions (M)", lambda x: f"{x / 1e6:.2f}"),
    (M_THREADS, "threads per warp instruction", "{:.1f}"), (M_DIV, "divergent branch targets", "{:,.0f}"),
    (M_LD, "shared ld bank conflicts", "{:,.0f}"), (M_ST, "shared st bank conflicts", "{:,.0f}"),
    (lambda r: r.get(M_BAR, RUN_PROFILE), "barrier stall (cycles per issued instruction)", "{:.3f}")]


def occupancy_vs_memory(fp):
    """Rank correlations over the versions of the time with DRAM throughput, and with occupancy."""
    vs = [v for v in CHAIN if v in fp and all(m in fp[v] for m in (TIME, M_DRAM, M_OCC))]
    t = [fp[v][TIME] for v in vs]
    return spearman(t, [fp[v][M_DRAM] for v in vs]), spearman(t, [fp[v][M_OCC] for v in vs])


def claims(fp):
    """The report's claims (prose.md's claims table), each judged by its rule on the ratio of version
    a's counters to version b's in the first passes (readme_tables.ratio_claim): {name: measured,
    name-verdict: verdict}."""
    def counter(v, metrics):  # the sum of these counters of version v; None if one was not measured
        values = [fp.get(v, {}).get(m) for m in metrics]
        return None if None in values else sum(values)

    def claim(a, b, metrics, *judged):
        return ratio_claim(counter(a, metrics), counter(b, metrics), *judged, not_measured=NOT_PROFILED)
    d1, d2 = counter("1", [M_DIV]), counter("2", [M_DIV])
    bar = None not in (counter("4", [M_BAR]), counter("5", [M_BAR]))
    counts, (rho_dram, rho_occ) = "{:,.0f} / {:,.0f}", occupancy_vs_memory(fp)
    judged = {
        "diverge": claim("1", "2", [M_DIV], (">", 2), counts,
                         PROSE["claims-table.both-zero"] if d1 == 0 == d2 else None),
        "together": claim("2", "1", [M_THREADS], None if d1 == 0 else (">=", 1.1), "{:.1f} / {:.1f} of 32",
                          None if d1 != 0 else PROSE["claims-table.nothing-to-remove"], NOT_PROFILED),
        "conflicts": claim("2", "1", [M_LD, M_ST], (">", 2), counts),
        "no-conflicts": claim("3", "2", [M_LD, M_ST], ("<=", 0.1), counts),
        "idle-half": claim("4", "3", [M_INST], ("<=", 0.75)),
        "unroll-warp": claim("5", "4", [M_INST], ("<", 0.95)),
        "barrier": claim("5", "4", [M_BAR], ("<", 0.9), "{:.3g} / {:.3g}",
                         None if bar else PROSE["claims-table.no-barrier-counter"], "n/a"),
        "unroll-all": claim("6", "5", [M_INST], ("<", 0.95)),
        "per-thread": claim("7", "6", [M_INST], ("<", 0.95)),
        "occupancy": ("n/a" if rho_occ is None else f"{rho_occ:+.2f} (DRAM: {rho_dram:+.2f})",
                      verdict(compare(rho_occ, ">", OCCUPANCY_RULE), PROSE["claims-table.few-versions"]))}
    values = {name: measured for name, (measured, _) in judged.items()}
    return dict(values, **{name + "-verdict": word for name, (_, word) in judged.items()})


def divergence(fp, device):
    """Below the claims table: whether version 1's `%` branch diverges here, what the 1 -> 2 step changes."""
    if "1" not in fp or "2" not in fp:
        return PROSE["claims-table.no-counters"]
    (d1, t1, i1), (d2, t2, i2) = ([fp[v].get(m) for m in (M_DIV, M_THREADS, M_INST)] for v in "12")
    text = []
    if d1 == 0 and d2 == 0 and t1 is not None and t2 is not None:
        text.append(part("claims-table.no-divergence", device=device, t1=f"{t1:.1f}", t2=f"{t2:.1f}"))
    elif d1 is not None and d2 is not None:
        text.append(part("claims-table.divergence", device=device, d1=f"{d1:,.0f}", d2=f"{d2:,.0f}"))
    if ratio(i2, i1) is not None:
        text.append(part("claims-table.instructions", i1=f"{i1 / 1e6:.1f}", i2=f"{i2 / 1e6:.1f}",
                         x=f"{ratio(i2, i1):.2f}x"))
    return " ".join(text)


# --- The values of prose.md's {versions-...}, {sweep-...}, ... (the prefix: the CSV they come from)
def at_8m(rows):
    """versions.csv: the times at 8,388,608 random ints."""
    by, r0 = {r["version"]: r for r in rows}, rows[0]
    ms = {v: num(by[v]["kernel_ms"]) for v in VERSIONS if v in by}
    steps, cpu = speedups(ms.get, CHAIN), num(r0["cpu_ms"])
    slower = arrows([s for s in steps if s[2] <= 1])
    return dict({f"s{a}{b}": X.format(x) for a, b, x in steps}, **{
        "device": f"{r0['device']} (driver {r0['driver']}, CUDA {r0['runtime']})",
        "device-name": r0["device"], "steps": arrows(steps),
        "cum5": X.format(ms["1"] / ms["5"]), "cum8": X.format(ms["1"] / ms["8"]),
        "all-steps": f"not every step is faster ({slower})" if slower else "every step is faster",
        "cpu-ms": f"{cpu:.3f} ms", "v1-ms": f"{ms['1']:.4f} ms", "v8-ms": f"{ms['8']:.4f} ms",
        "v1-vs-cpu": f"{cpu / ms['1']:.0f}x", "v8-vs-cpu": f"{cpu / ms['8']:.0f}x",
        "copy-in": f"{num(r0['copy_in_ms']):.2f} ms", "v7-blocks": f"{int(by['7']['blocks']):,}",
        "v6-blocks": f"{int(by['6']['blocks']):,}", "cub-ms": f"{num(by['8']['baseline_ms']):.4f} ms",
        "v8-vs-cub": f"{num(by['8']['speedup_vs_baseline']):.3f}x"})


def sweep(rows):
    """size_sweep.csv: the steps at every size, the CPU against the GPU, the growth with n."""
    t = {(int(r["n"]), r["version"]): num(r["kernel_ms"]) for r in rows}
    cpu = {int(r["n"]): num(r["cpu_ms"]) for r in rows}
    sizes = sorted(cpu)
    big, lo = sizes[-1], sizes[-1] >> 4
    at = {n: speedups(lambda v, n=n: t.get((n, v)), CHAIN) for n in sizes}
    good = next((n for n in sizes if all(x > 1 for m in sizes if m >= n for _, _, x in at[m])), None)
    small = [t[(n, v)] for n in sizes if n <= 1 << 16 for v in CHAIN if (n, v) in t]
    r67 = [t[(n, "6")] / t[(n, "7")] for n in sizes if n <= 1 << 18 and (n, "6") in t and (n, "7") in t]
    gpu = {n: min((t[(n, v)] for v in VERSIONS if (n, v) in t), default=math.inf) for n in sizes}
    last = max((n for n in sizes if cpu[n] < gpu[n]), default=None)
    # O(log N): the passes of a tree version times the tree steps of each pass.
    launches = {int(r["n"]): int(r["launches"]) for r in rows if r["version"] == "3" and r["launches"]}
    lg = int(math.log2(next((int(r["threads"]) for r in rows if r["version"] == "3" and r["threads"]), 256)))
    V = dict({f"s{a}{b}-max": X.format(x) for a, b, x in at[big]}, **{
        "steps-max": arrows(at[big]), "max-size": pow2(big), "smallest-size": pow2(sizes[0]),
        "steps-smallest": arrows(at[sizes[0]]), "all-faster-from": pow2(good) if good else "no size",
        "small-range": f"{1000 * min(small):.0f}-{1000 * max(small):.0f} µs" if small else "n/a",
        "s67-small-range": f"{min(r67):.2f}x to {max(r67):.2f}x" if r67 else "n/a",
        "cpu-wins-upto": pow2(last) if last else "no size",
        "cpu-ms-wins": f"{cpu[last]:.4f} ms against ≥ {gpu[last]:.4f} ms" if last else "n/a",
        "logn-time": part("conclusions.logn-time", v8=f"{t[(big, '8')] / t[(lo, '8')]:.1f}", lo=pow2(lo),
                          v3=f"{t[(big, '3')] / t[(lo, '3')]:.1f}", big=pow2(big))
        if (lo, "8") in t and (big, "8") in t else "n/a",
        "logn-steps": "; ".join(f"{pow2(n)}: {launches[n]} × {lg} = {launches[n] * lg} (log2 n = "
                                f"{n.bit_length() - 1})" for n in (sizes[0], 1 << 20, big) if n in launches)})
    for r in [r for r in rows if int(r["n"]) == big and r["version"] == TARGET][:1]:  # version 8 at big
        speed, cub_ms = num(r["speedup_vs_baseline"]), num(r["baseline_ms"])
        slower = f"{100 * (1 / speed - 1):.1f}% slower than CUB"
        V.update({
            "v8-ms-big": f"{num(r['kernel_ms']):.4f} ms", "cub-ms-big": f"{cub_ms:.4f} ms",
            "v8-vs-cub-big": f"{speed:.3f}x", "copy-bw-big": f"{num(r['copy_bw_GBps']):,.0f} GB/s",
            "v8-big-note": "faster than CUB" if speed >= 1 else slower,
            "bw-big": f"{num(r['bandwidth_GBps']):,.0f} GB/s (CUB {4.0 * big / (cub_ms * 1e6):,.0f} GB/s)"})
    return V


def unfixed(rows):
    """unfixed_v5.csv: how often the report's version 5 as printed was wrong."""
    u, fixed = ([r for r in rows if r["version"] == v] for v in ("5-unfixed", "5"))
    wrong, checks = sum(int(r["wrong_checks"]) for r in u), sum(int(r["checks"]) for r in u)
    ex = next((r for r in u if r["n"] == "8388608" and r["threads"] == "256"), u[0] if u else None)
    return {"wrong": f"{wrong} of {checks} checked runs in {len(u)} configurations",
            "configs": " ints × ".join(", ".join(f"{x:,}" for x in sorted({int(r[c]) for r in u}))
                                       for c in ("n", "threads")) + " threads",
            "kind": "a systematic error, not an occasional race" if wrong == checks else
                    "wrong in some runs only, as a race is",
            "always": "every time" if wrong == checks else "not every time",
            "example": f"{ex['gpu_sum']} instead of {ex['cpu_sum']} at {int(ex['n']):,} ints with "
                       f"{ex['threads']} threads" if ex else "n/a",
            "fixed": f"{sum(int(r['wrong_checks']) for r in fixed)} wrong in "
                     f"{sum(int(r['checks']) for r in fixed)} checks"}


def latency(lat):
    """latency.csv: DRAM against shared memory (a KeyError, without either: placeholders)."""
    shared, dram, l2 = lat["shared"], lat["DRAM"], lat.get("L2", math.nan)
    x = ratio(dram, shared)
    return {"shared": f"{shared:.0f} cycles", "dram": f"{dram:.0f} cycles", "l2": f"{l2:.0f} cycles",
            "ratio": f"{dram / shared:.0f}x", "ratio-l2": f"{l2 / shared:.0f}x",
            "verdict": verdict(None if x is None else LATENCY_RULE[0] <= x <= LATENCY_RULE[1])}


def occupancy(fp):
    """profile.csv: the first passes' occupancy and DRAM throughput against their time."""
    vs = [v for v in CHAIN if v in fp and M_OCC in fp[v] and TIME in fp[v]]
    if not vs:
        return {}
    occ, tm, rho = [fp[v][M_OCC] for v in vs], [fp[v][TIME] for v in vs], occupancy_vs_memory(fp)[1]
    d = [fp[v][M_DRAM] for v in vs if M_DRAM in fp[v]]
    return {"range": f"{min(occ):.0f}% to {max(occ):.0f}%", "time-range": f"{max(tm) / min(tm):.1f}x",
            "dram-range": f"{min(d):.0f}% to {max(d):.0f}%" if d else "n/a",
            "rho": "n/a" if rho is None else f"{rho:+.2f}",
            "verdict": verdict(compare(rho, ">", OCCUPANCY_RULE))}


def section(prefix, fn, rows, placeholder=RUN_REPORT):
    """The names that start with prefix, from fn(rows) (the placeholder for those it does not give,
    such as a version's that is not there, and for all without rows)."""
    return prefixed(NAMES, prefix, lambda: fn(rows) if rows else {}, placeholder, lenient=True)


def main():
    names = ("versions", "size_sweep", "threads", "unfixed_v5", "latency", "profile")
    vrows, srows, trows, urows, lrows, prows = (load(RESULTS, n + ".csv") for n in names)
    versions, baselines = versions_of(vrows, srows, trows, prows)
    VERSIONS.extend(versions)
    BASELINES.update(baselines)
    CHAIN.extend(v for v in VERSIONS if v not in BASELINES)
    vfull = [r for r in vrows or [] if random_data(r)]
    # each version's first pass: of its kernels, the one with the largest grid (it reads the input)
    fp = {v: main_kernel(kernels, M_GRID) for v, kernels in ncu_kernels(prows).items()}
    lat = {r["memory"]: num(r["cycles_per_load"]) for r in lrows or []}
    full = {r["version"]: r["kernel_ms"] for r in vfull}
    threads = sorted({int(r["threads"]) for r in trows or []
                      if r["version"] not in BASELINES and r["threads"]})
    iota = [
        "version", (lambda r: full.get(r["version"]), "random ints: time (ms)", "{:.4f}"),
        ("kernel_ms", "1, 2, ..., n: time (ms)", "{:.4f}"),
        (lambda r: ratio(r["kernel_ms"], full.get(r["version"])), "1, 2, ..., n / random", "{:.3f}x"),
        ("bandwidth_GBps", "1, 2, ..., n: GB/s", "{:.0f}"),
        (lambda r: "yes" if r["result_ok"] in ("1", "true") else "**no**", "GPU sum = CPU sum")]
    latency_columns = [
        "memory", (lambda r: int(r["footprint_bytes"]), "footprint",
                   lambda b: f"{b / 1048576:,.0f} MiB" if b >= 1048576 else f"{b / 1024:,.0f} KiB"),
        ("stride_bytes", "stride (bytes)"), ("cycles_per_load", "cycles per dependent load", "{:.0f}"),
        (lambda r: num(r["cycles_per_load"]) / lat["shared"], "relative to shared memory", "{:.1f}x")]
    readme = Readme(README)
    readme.tables([
        Table("versions-table", "versions.csv", [
            "version", "kernel", "threads", ("blocks", "blocks (1st launch)"), "launches",
            ("kernel_ms", "time (ms)", "{:.4f}"), ("bandwidth_GBps", "GB/s", "{:.0f}"),
            ("pct_of_copy_bw", "% of copy", "{:.0f}"), ("speedup_vs_baseline", "speed vs CUB", X),
            ("step", "step speed-up", X), ("cum", "cumulative speed-up", X)] + [
            (lambda r, i=i: HARRIS.get(r["version"], [None] * 4)[i], heading, spec)
            for i, (heading, spec) in enumerate(HARRIS_COLUMNS)],
            where=random_data, rows=versions_rows, head=versions_head,
            bold=lambda r: r["version"] == TARGET, missing=missing("versions.csv")),
        Table("sweep-table", "size_sweep.csv", [("n", "ints")] + [
            (v, v if v in BASELINES else f"v{v}", "{:.0f}") for v in VERSIONS] + [
            ("cpu", "CPU serial", "{:.1f}"), ("cpu_ms", "CPU (ms)", "{:.3g}")], rows=sweep_rows,
            head=lambda rows: part("sweep-table.head"), missing=missing("size_sweep.csv")),
        Table("threads-table", "threads.csv", ["version"] + [(t, f"{t} threads") for t in threads],
              rows=threads_rows, missing=missing("threads.csv"), note=lambda rows: next((
                  part("threads-table.note", ms=f"{num(r['kernel_ms']):.4f}")
                  for r in rows if r["version"] in BASELINES), None)),
        Table("unfixed-table", "unfixed_v5.csv", [
            ("n", "ints"), "threads", ("fixed", "version 5 (fixed): wrong runs"),
            ("unfixed", "as printed: wrong runs"), ("example", "a wrong sum (as printed)"),
            ("cpu", "CPU sum")], rows=unfixed_rows, missing=missing("unfixed_v5.csv")),
        Table("iota-table", "versions.csv", iota, head=iota_head,
              where=lambda r: r.get("data") == "iota" and r["version"] in VERSIONS,
              missing=placeholder_table(headings(iota), RUN_REPORT)),
        Table("latency-table", "latency.csv", latency_columns,
              rows=lambda rows: rows if "shared" in lat else [],
              missing=placeholder_table(headings(latency_columns), RUN_REPORT),
              head=lambda rows: part("latency-table.head", rows[0])),
        Table("profile-table", "profile.csv", PROFILE_COLUMNS,
              rows=lambda rows: [dict(fp[v], version=v) for v in VERSIONS if v in fp],
              missing=placeholder_table(headings(PROFILE_COLUMNS), RUN_PROFILE),
              head=lambda rows: part("profile-table.head", rows[0], n=f"{int(rows[0]['n']):,}"))], RESULTS)
    no_divergence = fp.get("1", {}).get(M_DIV) == 0 and fp.get("2", {}).get(M_DIV) == 0
    V = section_values([section("versions-", at_8m, vfull), section("sweep-", sweep, srows),
                        section("unfixed-", unfixed, urows), section("lat-", latency, lat),
                        section("occ-", occupancy, fp, RUN_PROFILE)], {
        **{f"harris-{v}": X.format(h[2]) for v, h in HARRIS.items() if h[2]},
        "rule-occupancy": OCCUPANCY_RULE, "rule-latency-low": LATENCY_RULE[0],
        "rule-latency-high": LATENCY_RULE[1],
        "div-reason": PROSE["conclusions.div-reason"] if no_divergence else "",
        "div-note": part("conclusions.no-divergence") + " " if no_divergence else "",
        "targets": targets_table(vfull, srows), "divergence": divergence(fp, prows and prows[0]["device"]),
        **(claims(fp) if fp else {})})
    chosen = blocks(PROSE)
    chosen["claims-table"] = PROSE["claims-table" if fp else "claims-table.missing"]
    fill_blocks(readme, chosen, V, "prose.md")
    readme.save()


if __name__ == "__main__":
    main()
