#!/usr/bin/env python3
"""Fills the generated blocks of reduction_versions/README.md from results/*.csv (make tables):
the tables (versions, targets, sweep, threads, unfixed, iota, latency, profile), the claims
table with its verdicts, and the conclusions. The version labels and the library baseline come
from the CSVs (version, is_baseline), in CSV order; a CSV not there yet gives a placeholder.
    python3 tables.py [RESULTS_DIR [README]]"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from readme_tables import (Readme, Table, compare, in_base_unit, load, md_table, num, numbered,  # noqa: E402
                           placeholder_table, pow2, ratio, verdict, wrap)

RESULTS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results")
README = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "README.md")
RUN_REPORT, RUN_PROFILE = "(run make report-run)", "(run make profile)"
NOT_PROFILED = "not measured yet (run make profile)"
VERSIONS, BASELINES = [], set()  # from the CSVs (set_versions)
TARGET = "8"  # the version the targets are set for (ours, against the library baseline)
# M. Harris, "Optimizing Parallel Reduction in CUDA" (2007): 2^22 ints, 128 threads per block,
# GeForce 8800 GTX (G80). (time ms, bandwidth GB/s, step speed-up, cumulative speed-up)
HARRIS = {"1": (8.054, 2.083, None, None), "2": (3.456, 4.854, 2.33, 2.33), "3": (1.722, 9.741, 2.01, 4.68),
          "4": (0.965, 17.377, 1.78, 8.34), "5": (0.536, 31.289, 1.80, 15.01), "6": (0.381, 43.996, 1.41, 21.16),
          "7": (0.268, 62.671, 1.42, 30.04)}
# The occupancy claim holds unless a higher achieved occupancy goes with a shorter time, strongly:
# a rank correlation of the time with occupancy at or below this.
OCCUPANCY_RULE = -0.5


def set_versions(*tables):
    """Every validated label in order of first appearance; the baseline by is_baseline = 1."""
    for rows in tables:
        for r in rows or []:
            if r.get("validated", "1") != "0" and r["version"] not in VERSIONS:
                VERSIONS.append(r["version"])
            if r.get("validated", "1") != "0" and r.get("is_baseline") == "1":
                BASELINES.add(r["version"])


def chain():
    """The versions without the baseline, in order: the steps of the speed-up tables."""
    return [v for v in VERSIONS if v not in BASELINES]


def missing(name):
    return f"(no `results/{name}` yet: run `make report` on a GPU)"


def random_rows(rows):
    """The rows on random data (data = full; the committed CSVs may predate the data column)."""
    return [r for r in rows if r.get("data", "full") != "iota"] if rows else rows


def f(x):
    return float(x)


def opt(spec):
    return lambda x: "" if x is None or x == "" else spec.format(x)


def device_line(rows):
    r = rows[0]
    return (f"Device: {r['device']} (compute capability {r['compute_capability']}, driver {r['driver']}, "
            f"runtime {r['runtime']}); device-to-device copy {f(r['copy_bw_GBps']):.0f} GB/s in the same run.")


def versions_rows(rows):
    """Each version with its step and cumulative speed-up and Harris's G80 figures, then the CPU."""
    by = {r["version"]: r for r in rows if r["version"] in VERSIONS}
    first = f(by["1"]["kernel_ms"]) if "1" in by else None
    out, prev = [], None
    for v in [v for v in VERSIONS if v in by]:
        r, lib, ms = by[v], v in BASELINES, f(by[v]["kernel_ms"])
        h = HARRIS.get(v, (None,) * 4)
        out.append({"version": v, "kernel": f"`{r['kernel']}`", "threads": "(library)" if lib else r["threads"],
                    "blocks": "" if lib else r["blocks"], "ms": ms, "gbps": f(r["bandwidth_GBps"]),
                    "launches": "" if lib else r["launches"] + (" + memset" if r["memsets"] not in ("", "0") else ""),
                    "pct": f(r["pct_of_copy_bw"]), "vs_cub": f(r["speedup_vs_baseline"]),
                    "step": prev / ms if prev and not lib else None, "cum": first / ms if first else None,
                    "h_ms": h[0], "h_gbps": h[1], "h_step": h[2], "h_cum": h[3]})
        prev = prev if lib else ms
    cpu = f(rows[0]["cpu_ms"])
    return out + [{"version": "CPU", "kernel": "serial loop (`rv::sum_wrap`), one thread", "ms": cpu,
                   "gbps": 4.0 * int(rows[0]["n"]) / (cpu * 1e6), "cum": first / cpu if first else None}]


def versions_head(rows):
    r, n = rows[0], int(rows[0]["n"])
    return (f"{n:,} ints ({4 * n / 2**20:.0f} MiB), median of {r['repeat']} timed runs after {r['warmup']} warm-ups, "
            f"L2 {'flushed' if r['l2'] == 'flush' else 'kept'} before each. " + device_line(rows))


def targets_table(vrows, srows):
    out = []
    for rows, n, target in ((vrows, 8388608, 1.0), (srows, 1 << 28, 0.97)):
        for r in [r for r in rows or [] if int(r["n"]) == n and r["version"] == TARGET][-1:]:
            x = f(r["speedup_vs_baseline"])
            out.append({"n": f"{n:,}", "v8": r["kernel_ms"], "cub": r["baseline_ms"], "v8bw": r["bandwidth_GBps"],
                        "cubbw": 4.0 * n / (f(r["baseline_ms"]) * 1e6), "ratio": x, "target": f">= {target:.2f}x",
                        "met": "yes" if x >= target else f"**no** ({100 * (target - x) / target:.1f}% short)"})
    return md_table(out, [("n", "ints"), ("v8", "version 8 (ms)", "{:.4f}"), ("cub", "CUB (ms)", "{:.4f}"),
                          ("v8bw", "version 8 GB/s", "{:.0f}"), ("cubbw", "CUB GB/s", "{:.0f}"),
                          ("ratio", "CUB time / version 8 time", "{:.3f}x"), "target", "met"]) \
        if out else missing("versions.csv")


def sweep_rows(rows):
    sizes = sorted({int(r["n"]) for r in rows})
    out = []
    for n in [n for n in sizes if n & (n - 1) == 0 and (n.bit_length() - 1) % 2 == 0 or n in (1 << 23, 1 << 27)]:
        by = {r["version"]: r for r in rows if int(r["n"]) == n}
        any_row = next(iter(by.values()))
        out.append(dict({v: by[v]["bandwidth_GBps"] for v in by}, n=f"2^{n.bit_length() - 1}" if n & (n - 1) == 0
                        else str(n), cpu=any_row["cpu_bandwidth_GBps"], cpu_ms=any_row["cpu_ms"]))
    return out


def threads_rows(rows):
    """Time per version and block size (the library's own launch has no block size)."""
    out = []
    for v in chain():
        times = {int(r["threads"]): f(r["kernel_ms"]) for r in rows if r["version"] == v}
        if times:
            best = min(times, key=times.get)
            out.append(dict({t: (f"**{x:.4f}**" if t == best else f"{x:.4f}") for t, x in times.items()}, version=v))
    return out


def threads_of(rows):
    return sorted({int(r["threads"]) for r in rows or [] if r["version"] not in BASELINES and r["threads"] != ""})


def unfixed_rows(rows):
    out = []
    for n, t in dict.fromkeys((int(r["n"]), int(r["threads"])) for r in rows):
        by = {r["version"]: r for r in rows if int(r["n"]) == n and int(r["threads"]) == t}
        row = {"n": f"{n:,}", "threads": t}
        if "5" in by:
            row["fixed"] = f"{by['5']['wrong_checks']} of {by['5']['checks']}"
        if "5-unfixed" in by:
            u = by["5-unfixed"]
            row.update(unfixed=f"{u['wrong_checks']} of {u['checks']}", cpu=u["cpu_sum"],
                       example=u["gpu_sum"] if u["wrong_checks"] != "0" else "")
        out.append(row)
    return out


def iota_head(rows):
    r0, n = rows[0], int(rows[0]["n"])
    exact = n * (n + 1) // 2
    wrapped = exact % (1 << 32)
    wrapped = wrapped - (1 << 32) if wrapped >= 1 << 31 else wrapped
    return (f"n = {n:,}: the exact sum n(n+1)/2 = {exact:,} does not fit in int32; modulo 2^32, read as int32, it is "
            f"{wrapped:,}, and the CPU sum in the CSV is {int(r0['cpu_sum']):,} "
            f"({'the same' if int(r0['cpu_sum']) == wrapped else '**not the same**'}). "
            f"Serial CPU: {f(r0['cpu_ms']):.3f} ms on 1, 2, ..., n.")


# --- Nsight Compute counters (results/profile.csv, `make profile`) -------------------------
M_TIME, M_GRID = "gpu__time_duration.sum", "launch__grid_size"
M_DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
M_OCC = "sm__warps_active.avg.pct_of_peak_sustained_active"
M_INST, M_THREADS = "smsp__inst_executed.sum", "smsp__thread_inst_executed_per_inst_executed.ratio"
M_DIV = "smsp__sass_branch_targets_threads_divergent.sum"
M_LD = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
M_ST = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
M_BAR = "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"


def first_pass(prows):
    """{version: {metric: value in base units, "kernel": name}} of each version's first pass: of
    its kernels, the one with the largest grid (the launch that reads the input)."""
    by = {}
    for r in prows or []:
        if num(r["value"]) is not None:
            by.setdefault(r["version"], {}).setdefault(r["kernel"], {})[r["metric"]] = \
                in_base_unit(num(r["value"]), r["unit"])
    return {v: dict(ks[max(ks, key=lambda k: ks[k].get(M_GRID, 0.0))], kernel=max(ks, key=lambda k: ks[k].get(
        M_GRID, 0.0))) for v, ks in by.items()}


PROFILE_COLS = [  # metric, heading, scale, format
    (M_GRID, "grid", 1.0, "{:.0f}"), (M_TIME, "time (us)", 1e3, "{:.1f}"), (M_DRAM, "DRAM % of peak", 1.0, "{:.0f}"),
    (M_OCC, "achieved occupancy %", 1.0, "{:.0f}"),
    ("sm__maximum_warps_per_active_cycle_pct", "theoretical occupancy %", 1.0, "{:.0f}"),
    (M_INST, "warp instructions (M)", 1e6, "{:.2f}"), (M_THREADS, "threads per warp instruction", 1.0, "{:.1f}"),
    (M_DIV, "divergent branch targets", 1.0, "{:,.0f}"), (M_LD, "shared ld bank conflicts", 1.0, "{:,.0f}"),
    (M_ST, "shared st bank conflicts", 1.0, "{:,.0f}")]


def profile_table(prows):
    fp = first_pass(prows)
    cols = [(lambda v: v, "version"), (lambda v: f"`{fp[v]['kernel']}`", "kernel (first pass)")]
    cols += [(lambda v, m=m, s=s: fp[v][m] / s if m in fp[v] else None, h, opt(spec)) for m, h, s, spec in PROFILE_COLS]
    cols += [(lambda v: f"{fp[v][M_BAR]:.3f}" if M_BAR in fp[v] else RUN_PROFILE,
              "barrier stall (cycles per issued instruction)")]
    if not fp:
        return placeholder_table([c[1] for c in cols], RUN_PROFILE)
    r0 = prows[0]
    return wrap(f"{int(r0['n']):,} ints, 256 threads per block; Nsight Compute {r0['ncu_version']} on {r0['device']} "
                "(`--clock-control none`, caches flushed before each profiled kernel). First pass of each version "
                "only (the kernel launch with the largest grid, the one that reads the input); the library "
                "baseline: its first kernel.") + "\n\n" + md_table([v for v in VERSIONS if v in fp], cols)


def spearman(xs, ys):
    """Spearman's rank correlation (Pearson's on the ranks, ties averaged); None when undefined."""
    def ranks(xs):
        s = sorted(xs)
        return [(s.index(x) + len(s) - 1 - s[::-1].index(x)) / 2.0 for x in xs]
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxx, syy = math.sqrt(sum((a - mx) ** 2 for a in rx)), math.sqrt(sum((b - my) ** 2 for b in ry))
    return sum((a - mx) * (b - my) for a, b in zip(rx, ry)) / (sxx * syy) if sxx > 0 and syy > 0 else None


def occupancy_vs_memory(fp):
    vs = [v for v in chain() if v in fp and all(m in fp[v] for m in (M_TIME, M_DRAM, M_OCC))]
    t = [fp[v][M_TIME] for v in vs]
    return spearman(t, [fp[v][M_DRAM] for v in vs]), spearman(t, [fp[v][M_OCC] for v in vs])


def claims(fp):
    """[(claim, counter, measured, verdict)]: each of the report's claims about a version against
    the counter that tests it (first passes); the rule of each verdict is the compare() in it."""
    c = lambda v, m: fp.get(v, {}).get(m)  # noqa: E731
    fx = lambda x: "n/a" if x is None else f"{x:.3g}x"  # noqa: E731

    def conflicts(v):
        return None if c(v, M_LD) is None or c(v, M_ST) is None else c(v, M_LD) + c(v, M_ST)

    def counts(a, b):
        return NOT_PROFILED if a is None or b is None else f"{a:,.0f} / {b:,.0f}" + (
            "" if ratio(a, b) is None else f" = {fx(ratio(a, b))}")

    d1, d2, t1, t2 = c("1", M_DIV), c("2", M_DIV), c("1", M_THREADS), c("2", M_THREADS)
    c1, c2, c3 = conflicts("1"), conflicts("2"), conflicts("3")
    i3, i4, i5, i6, i7 = (c(v, M_INST) for v in "34567")
    b4, b5 = c("4", M_BAR), c("5", M_BAR)
    no_bar = b4 is None or b5 is None
    rho_dram, rho_occ = occupancy_vs_memory(fp)
    inst = "warp instructions executed, "
    out = [
        ("version 1: the `tid % (2*stride)` branch makes warps diverge", "divergent branch targets, v1 / v2",
         counts(d1, d2), verdict(compare(ratio(d1, d2), ">", 2), "both counts are 0: no branch diverges on this GPU, "
                                 "see below") if d1 == 0 and d2 == 0 else verdict(compare(ratio(d1, d2), ">", 2))),
        ("version 2: the strided index keeps the active threads of a warp together",
         "active threads per warp instruction, v2 / v1",
         f"{t2:.1f} / {t1:.1f} of 32 = {fx(ratio(t2, t1))}" if ratio(t2, t1) is not None else NOT_PROFILED,
         verdict(None, "version 1 does not diverge here either: there is nothing to remove, see below") if d1 == 0
         else verdict(compare(ratio(t2, t1), ">=", 1.1))),
        ("version 2 has shared-memory bank conflicts", "bank conflicts (loads + stores), v2 / v1", counts(c2, c1),
         verdict(compare(ratio(c2, c1), ">", 2))),
        ("version 3 (sequential addressing) removes them", "bank conflicts (loads + stores), v3 / v2", counts(c3, c2),
         verdict(compare(ratio(c3, c2), "<=", 0.1))),
        ("version 4 puts the idle half of the threads to work (first add during the load)", inst + "v4 / v3",
         fx(ratio(i4, i3)), verdict(compare(ratio(i4, i3), "<=", 0.75))),
        ("version 5: unrolling the last warp executes fewer instructions", inst + "v5 / v4", fx(ratio(i5, i4)),
         verdict(compare(ratio(i5, i4), "<", 0.95))),
        ("version 5: ... and waits less at `__syncthreads`", "barrier stall cycles per issued instruction, v5 / v4",
         f"{b5:.3g} / {b4:.3g} = {fx(ratio(b5, b4))}" if ratio(b5, b4) is not None else
         (NOT_PROFILED if no_bar else "n/a"),
         verdict(compare(ratio(b5, b4), "<", 0.9), "the counter is not in results/profile.csv yet: run make profile")
         if no_bar else verdict(compare(ratio(b5, b4), "<", 0.9))),
        ("version 6 (Harris): complete unrolling executes fewer instructions", inst + "v6 / v5", fx(ratio(i6, i5)),
         verdict(compare(ratio(i6, i5), "<", 0.95))),
        ("version 7 (Harris): many elements per thread executes fewer instructions", inst + "v7 / v6",
         fx(ratio(i7, i6)), verdict(compare(ratio(i7, i6), "<", 0.95))),
        ("memory usage, not occupancy, is the major determinant of performance",
         "Spearman rank correlation over the versions (not the baseline) of the time with achieved occupancy "
         "(and, for comparison, with DRAM throughput, which is bytes / time here and so near -1 by construction)",
         "n/a" if rho_occ is None else f"{rho_occ:+.2f} (DRAM: {rho_dram:+.2f})",
         verdict(None, "fewer than 3 versions with time and occupancy counters") if rho_occ is None
         else verdict(compare(rho_occ, ">", OCCUPANCY_RULE)))]
    return md_table(out, [(lambda r, i=i: r[i], h) for i, h in enumerate(
        ["the report's claim", "counter (first pass)", "measured", "verdict"])])


def divergence_note(prows, fp):
    """Below the claims table: whether version 1's `%` branch diverges here, and what the 1 -> 2 step changes."""
    if "1" not in fp or "2" not in fp:
        return f"The counters of versions 1 and 2: {RUN_PROFILE}."
    (d1, t1, i1), (d2, t2, i2) = ([fp[v].get(m) for m in (M_DIV, M_THREADS, M_INST)] for v in "12")
    dev, text = prows[0]["device"], ""
    if d1 == 0 and d2 == 0 and t1 is not None and t2 is not None:
        text = (f"On the {dev} neither version 1 nor version 2 diverges: both have 0 divergent branch targets, and "
                f"their warp instructions run with {t1:.1f} and {t2:.1f} of 32 threads active. The compiler turns "
                "version 1's test `(tid % (2 * stride)) == 0` into predicated instructions (every thread steps "
                "through the add, and the threads whose condition is false do not write), so there is no branch "
                "left to diverge. The report's explanation of the 1 → 2 step (divergent warps) cannot be seen here.")
    elif d1 is not None and d2 is not None:
        text = f"On the {dev} version 1 has {d1:,.0f} divergent branch targets and version 2 {d2:,.0f}."
    if ratio(i2, i1) is not None:
        text += (" " if text else "") + (
            f"What the 1 → 2 step does coincide with: the warp instructions executed by the first pass fall from "
            f"{i1 / 1e6:.1f} M to {i2 / 1e6:.1f} M ({ratio(i2, i1):.2f}x). In version 2 the threads with work in a step "
            "are contiguous, so whole warps skip the steps in which they have nothing to add; in version 1 every "
            "warp holds a few threads with work and issues every step's instructions (predicated off for the "
            "others), and computes an integer `%` in every step.")
    return wrap(text)


class Values(dict):
    """The numbers of the prose; what to run in place of one whose CSV is not there yet."""
    def __missing__(self, name):
        return RUN_PROFILE if name.startswith(("occ-", "dram-", "div-")) else RUN_REPORT


def values(vfull, srows, urows, lrows, fp):
    """Every number of the README's prose that comes from results, by name."""
    V, ch = Values(), chain()
    steps = lambda t, n=None: [(a, b, t(a, n) / t(b, n)) for a, b in zip(ch, ch[1:])  # noqa: E731
                               if t(a, n) is not None and t(b, n) is not None]
    arrows = lambda s: ", ".join(f"{a}→{b} {x:.2f}x" for a, b, x in s)  # noqa: E731
    if vfull:
        by, r0 = {r["version"]: r for r in vfull}, vfull[0]
        ms = {v: f(by[v]["kernel_ms"]) for v in VERSIONS if v in by}
        s8 = steps(lambda v, n: ms.get(v))
        cpu = f(r0["cpu_ms"])
        V.update({"device": f"{r0['device']} (driver {r0['driver']}, CUDA {r0['runtime']})", "device-name": r0["device"],
                  "steps-8m": arrows(s8), "cum5-8m": f"{ms['1'] / ms['5']:.2f}x", "cum8-8m": f"{ms['1'] / ms['8']:.2f}x",
                  "all-steps-8m": "every step is faster" if all(x > 1 for _, _, x in s8) else
                  "not every step is faster (" + arrows([s for s in s8 if s[2] <= 1]) + ")",
                  "cpu-ms-8m": f"{cpu:.3f} ms", "v1-ms-8m": f"{ms['1']:.4f} ms", "v1-vs-cpu-8m": f"{cpu / ms['1']:.0f}x",
                  "v8-ms-8m": f"{ms['8']:.4f} ms", "v8-vs-cpu-8m": f"{cpu / ms['8']:.0f}x",
                  "copy-in-8m": f"{f(r0['copy_in_ms']):.2f} ms", "v7-blocks-8m": f"{int(by['7']['blocks']):,}",
                  "v6-blocks-8m": f"{int(by['6']['blocks']):,}",
                  "v8-vs-cub-8m": f"{f(by['8']['speedup_vs_baseline']):.3f}x", "v8-ms-target": f"{ms['8']:.4f} ms",
                  "cub-ms-target": f"{f(by['8']['baseline_ms']):.4f} ms"})
        V.update({f"s{a}{b}-8m": f"{x:.2f}x" for a, b, x in s8})
    if srows:
        sizes = sorted({int(r["n"]) for r in srows})
        t = {(int(r["n"]), r["version"]): f(r["kernel_ms"]) for r in srows}
        at = lambda v, n: t.get((n, v))  # noqa: E731
        big = sizes[-1]
        good = [n for n in sizes if all(x > 1 for _, _, x in steps(at, n))]
        first_good = next((n for n in sizes if all(m in good for m in sizes if m >= n)), None)
        st = [t[(n, v)] for n in sizes if n <= 1 << 16 for v in ch if (n, v) in t]
        r67 = [t[(n, "6")] / t[(n, "7")] for n in sizes if n <= 1 << 18 and (n, "6") in t and (n, "7") in t]
        cpu = {int(r["n"]): f(r["cpu_ms"]) for r in srows}
        cpu_wins = [n for n in sizes if all(cpu[n] < t[(n, v)] for v in VERSIONS if (n, v) in t)]
        last = max(cpu_wins) if cpu_wins else None
        V.update({"steps-max": arrows(steps(at, big)), "max-size": pow2(big), "smallest-size": pow2(sizes[0]),
                  "all-faster-from": pow2(first_good) if first_good else "no size",
                  "small-range": f"{1000 * min(st):.0f}-{1000 * max(st):.0f} µs" if st else "n/a",
                  "steps-smallest": arrows(steps(at, sizes[0])),
                  "s67-small-range": f"{min(r67):.2f}x to {max(r67):.2f}x" if r67 else "n/a",
                  "cpu-wins-upto": pow2(last) if last else "no size",
                  "cpu-ms-wins": f"{cpu[last]:.4f} ms against ≥ {min(t[(last, v)] for v in VERSIONS if (last, v) in t):.4f}"
                  " ms" if last else "n/a"})
        V.update({f"s{a}{b}-max": f"{x:.2f}x" for a, b, x in steps(at, big)})
        # O(log N): passes of a tree version, tree steps per pass, and time against size.
        launches = {int(r["n"]): int(r["launches"]) for r in srows if r["version"] == "3" and r["launches"]}
        lg = int(math.log2(next((int(r["threads"]) for r in srows if r["version"] == "3" and r["threads"]), 256)))
        V["logn-steps"] = "; ".join(f"{pow2(n)}: {launches[n]} × {lg} = {launches[n] * lg} (log2 n = "
                                    f"{n.bit_length() - 1})" for n in (sizes[0], 1 << 20, big) if n in launches)
        lo = big >> 4
        V["logn-time"] = (f"{t[(big, '8')] / t[(lo, '8')]:.1f}x for version 8 and {t[(big, '3')] / t[(lo, '3')]:.1f}x "
                          f"for version 3 from {pow2(lo)} to {pow2(big)} ints (16x the data)"
                          if (lo, "8") in t and (big, "8") in t else "n/a")
        r8 = next((r for r in srows if int(r["n"]) == big and r["version"] == "8"), None)
        if r8:
            speed = f(r8["speedup_vs_baseline"])
            V.update({"v8-ms-big": f"{f(r8['kernel_ms']):.4f} ms", "cub-ms-big": f"{f(r8['baseline_ms']):.4f} ms",
                      "v8-vs-cub-big": f"{speed:.3f}x", "copy-bw-big": f"{f(r8['copy_bw_GBps']):,.0f} GB/s",
                      "v8-big-note": "faster than CUB" if speed >= 1 else f"{100 * (1 / speed - 1):.1f}% slower than CUB",
                      "bw-big": f"{f(r8['bandwidth_GBps']):,.0f} GB/s (CUB "
                                f"{4.0 * big / (f(r8['baseline_ms']) * 1e6):,.0f} GB/s)"})
    if urows:
        u, fx = [r for r in urows if r["version"] == "5-unfixed"], [r for r in urows if r["version"] == "5"]
        wrong, checks = sum(int(r["wrong_checks"]) for r in u), sum(int(r["checks"]) for r in u)
        ex = next((r for r in u if r["n"] == "8388608" and r["threads"] == "256"), u[0] if u else None)
        V.update({"unfixed-wrong": f"{wrong} of {checks} checked runs in {len(u)} configurations",
                  "unfixed-configs": f"{', '.join(f'{n:,}' for n in sorted({int(r['n']) for r in u}))} ints × "
                                     f"{', '.join(f'{t:,}' for t in sorted({int(r['threads']) for r in u}))} threads",
                  "unfixed-kind": "a systematic error, not an occasional race" if wrong == checks else
                  "wrong in some runs only, as a race is",
                  "unfixed-always": "every time" if wrong == checks else "not every time",
                  "unfixed-example": f"{ex['gpu_sum']} instead of {ex['cpu_sum']} at {int(ex['n']):,} ints with "
                                     f"{ex['threads']} threads" if ex else "n/a",
                  "fixed-wrong": f"{sum(int(r['wrong_checks']) for r in fx)} wrong in "
                                 f"{sum(int(r['checks']) for r in fx)} checks"})
    lat = {r["memory"]: f(r["cycles_per_load"]) for r in lrows or []}
    if "shared" in lat and "DRAM" in lat:
        r = ratio(lat["DRAM"], lat["shared"])  # rule: "roughly 100x" holds within 2x of 100 (50x to 200x)
        V.update({"lat-shared": f"{lat['shared']:.0f} cycles", "lat-dram": f"{lat['DRAM']:.0f} cycles",
                  "lat-l2": f"{lat.get('L2', float('nan')):.0f} cycles", "lat-ratio": f"{lat['DRAM'] / lat['shared']:.0f}x",
                  "lat-ratio-l2": f"{lat.get('L2', float('nan')) / lat['shared']:.0f}x",
                  "lat-verdict": verdict(None if r is None else 50 <= r <= 200)})
    vs = [v for v in ch if v in fp and M_OCC in fp[v] and M_TIME in fp[v]]
    if vs:
        occ, tm = [fp[v][M_OCC] for v in vs], [fp[v][M_TIME] for v in vs]
        rho_occ = occupancy_vs_memory(fp)[1]
        d = [fp[v][M_DRAM] for v in vs if M_DRAM in fp[v]]
        V.update({"occ-range": f"{min(occ):.0f}% to {max(occ):.0f}%", "occ-time-range": f"{max(tm) / min(tm):.1f}x",
                  "occ-rho": "n/a" if rho_occ is None else f"{rho_occ:+.2f}",
                  "occ-verdict": verdict(compare(rho_occ, ">", OCCUPANCY_RULE)),
                  "dram-range": f"{min(d):.0f}% to {max(d):.0f}%" if d else "n/a"})
    return V


def conclusions(v, fp):
    """The README's list of the report's conclusions, every number from the CSVs (values())."""
    no_divergence = fp.get("1", {}).get(M_DIV) == 0 and fp.get("2", {}).get(M_DIV) == 0
    h = {k: HARRIS[k][2] for k in HARRIS if HARRIS[k][2] is not None}
    return wrap(
        f"Measured on the {v['device']} of `results/`; all ratios are within one run (times at 8,388,608 "
        "ints and 256 threads from `results/versions.csv`, other sizes from `results/size_sweep.csv`, "
        "counters from `results/profile.csv`). Every default version gave the exact CPU sum in every "
        "check of every CSV (a CSV is written only when every check passed).") + "\n\n" + numbered([
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
        f"{v['unfixed-kind']}."])


def main():
    names = ("versions.csv", "size_sweep.csv", "threads.csv", "unfixed_v5.csv", "latency.csv", "profile.csv")
    vrows, srows, trows, urows, lrows, prows = (load(RESULTS, n) for n in names)
    set_versions(vrows, srows, trows, prows)
    vfull, fp, x = random_rows(vrows), first_pass(prows), opt("{:.2f}x")
    v = values(vfull, srows, urows, lrows, fp)
    lat = {r["memory"]: f(r["cycles_per_load"]) for r in lrows or []}
    full = {r["version"]: f(r["kernel_ms"]) for r in vfull or []}
    IOTA = ["version", "random ints: time (ms)", "1, 2, ..., n: time (ms)", "1, 2, ..., n / random",
            "1, 2, ..., n: GB/s", "GPU sum = CPU sum"]
    LAT = ["memory", "footprint", "stride (bytes)", "cycles per dependent load", "relative to shared memory"]
    readme = Readme(README)
    readme.tables([
        Table("versions-table", "versions.csv", [
            "version", "kernel", "threads", ("blocks", "blocks (1st launch)"), "launches", ("ms", "time (ms)", "{:.4f}"),
            ("gbps", "GB/s", "{:.0f}"), ("pct", "% of copy", "{:.0f}"), ("vs_cub", "speed vs CUB", x),
            ("step", "step speed-up", x), ("cum", "cumulative speed-up", x), ("h_ms", "Harris G80 time (ms)", "{:.3f}"),
            ("h_gbps", "Harris GB/s", "{:.3f}"), ("h_step", "Harris step", x), ("h_cum", "Harris cumulative", x)],
            where=lambda r: r.get("data", "full") != "iota", rows=versions_rows, head=versions_head,
            bold=lambda r: r["version"] == TARGET, missing=missing("versions.csv")),
        Table("sweep-table", "size_sweep.csv", [("n", "ints")] + [
            (lambda r, v=v: r.get(v), v if v in BASELINES else f"v{v}", "{:.0f}") for v in VERSIONS] + [
            ("cpu", "CPU serial", "{:.1f}"), ("cpu_ms", "CPU (ms)", "{:.3g}")], rows=sweep_rows,
            head=lambda rows: "Bandwidth in GB/s (4 bytes per int read once / median time).",
            missing=missing("size_sweep.csv")),
        Table("threads-table", "threads.csv", ["version"] + [(t, f"{t} threads") for t in threads_of(trows)],
              rows=threads_rows, missing=missing("threads.csv"), note=lambda rows: next((
                  f"The library baseline in the same run: {f(r['kernel_ms']):.4f} ms. Time in ms, median; the best "
                  "block size of each version in bold." for r in rows if r["version"] in BASELINES), None)),
        Table("unfixed-table", "unfixed_v5.csv", [
            ("n", "ints"), "threads", ("fixed", "version 5 (fixed): wrong runs"), ("unfixed", "as printed: wrong runs"),
            ("example", "a wrong sum (as printed)"), ("cpu", "CPU sum")], rows=unfixed_rows,
            missing=missing("unfixed_v5.csv")),
        Table("iota-table", "versions.csv", [
            ("version", IOTA[0]), (lambda r: full.get(r["version"]), IOTA[1], opt("{:.4f}")),
            ("kernel_ms", IOTA[2], "{:.4f}"), (lambda r: ratio(r["kernel_ms"], full.get(r["version"])), IOTA[3],
                                               opt("{:.3f}x")),
            ("bandwidth_GBps", IOTA[4], "{:.0f}"),
            (lambda r: "yes" if r["result_ok"] in ("1", "true") else "**no**", IOTA[5])],
            where=lambda r: r.get("data") == "iota" and r["version"] in VERSIONS, head=iota_head,
            missing=placeholder_table(IOTA, RUN_REPORT)),
        Table("latency-table", "latency.csv", [
            ("memory", LAT[0]), (lambda r: f"{int(r['footprint_bytes']) / 1048576:,.0f} MiB" if int(
                r["footprint_bytes"]) >= 1048576 else f"{int(r['footprint_bytes']) / 1024:,.0f} KiB", LAT[1]),
            ("stride_bytes", LAT[2]), ("cycles_per_load", LAT[3], "{:.0f}"),
            (lambda r: f(r["cycles_per_load"]) / lat["shared"], LAT[4], "{:.1f}x")],
            rows=lambda rows: rows if "shared" in lat else [], missing=placeholder_table(LAT, RUN_REPORT),
            head=lambda rows: f"Device: {rows[0]['device']}; pointer chasing with one thread "
                              "(`experiments/memory_latency.cu`), median of 3 runs.")], RESULTS)
    readme.block("targets-table", targets_table(vfull, srows) + "\n\n" + wrap(
        f"At 8,388,608 ints version 8 takes {v['v8-ms-target']} against the baseline's "
        f"{v['cub-ms-target']} (**{v['v8-vs-cub-8m']}**). At {v['max-size']}: {v['v8-ms-big']} against "
        f"{v['cub-ms-big']} (**{v['v8-vs-cub-big']}**, version 8 {v['v8-big-note']}); they read at "
        f"{v['bw-big']}, against the same run's device-to-device copy at {v['copy-bw-big']} (bytes read + "
        "written)."))
    readme.block("profile-table", profile_table(prows))
    readme.block("claims-table", (claims(fp) if fp else placeholder_table(
        ["the report's claim", "counter (first pass)", "measured", "verdict"], RUN_PROFILE))
        + "\n\n" + divergence_note(prows, fp))
    readme.block("conclusions", conclusions(v, fp))
    readme.save()


if __name__ == "__main__":
    main()
