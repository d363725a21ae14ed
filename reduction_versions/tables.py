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
from readme_tables import (Readme, Table, arrows, compare, fill, headings, load, main_kernel,  # noqa: E402
                           md_table, ncu_kernels, num, numbered, pivot, placeholder_table, pow2, ratio,
                           ratio_claim, spearman, speedups, verdict, versions_of, wrap)

RESULTS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "results")
README = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "README.md")
RUN_REPORT, RUN_PROFILE = "(run make report-run)", "(run make profile)"
NOT_PROFILED = "not measured yet (run make profile)"
VERSIONS, BASELINES, CHAIN = [], set(), []  # from the CSVs (main); CHAIN: the versions without the baseline
TARGET = "8"  # the version the targets are set for (ours, against the library baseline)
X = "{:.2f}x"
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


def missing(name):
    return f"(no `results/{name}` yet: run `make report` on a GPU)"


def random_data(r):
    """A row on random data (data = full; the committed CSVs may predate the data column)."""
    return r.get("data", "full") != "iota"


def versions_rows(rows):
    """Each version with its step and cumulative speed-up (Harris's beside them), then the CPU."""
    by = {r["version"]: r for r in rows if r["version"] in VERSIONS}
    first, prev, out = num(by["1"]["kernel_ms"]) if "1" in by else None, None, []
    for v in [v for v in VERSIONS if v in by]:
        r, lib, ms = by[v], v in BASELINES, num(by[v]["kernel_ms"])
        memset = " + memset" if r["memsets"] not in ("", "0") else ""
        out.append(dict(r, kernel=f"`{r['kernel']}`", launches=r["launches"] + memset,
                        step=prev / ms if prev and not lib else None, cum=first / ms if first else None))
        if lib:
            out[-1].update(threads="(library)", blocks="", launches="")
        prev = prev if lib else ms
    cpu, n = num(rows[0]["cpu_ms"]), int(rows[0]["n"])
    return out + [{"version": "CPU", "kernel": "serial loop (`rv::sum_wrap`), one thread", "kernel_ms": cpu,
                   "bandwidth_GBps": 4.0 * n / (cpu * 1e6), "cum": first / cpu if first else None}]


def versions_head(rows):
    r, n = rows[0], int(rows[0]["n"])
    return fill("{n} ints ({mib} MiB), median of {repeat} timed runs after {warmup} warm-ups, L2 {l2} before "
                "each. Device: {device} (compute capability {compute_capability}, driver {driver}, runtime "
                "{runtime}); device-to-device copy {copy} GB/s in the same run.",
                dict(r, n=f"{n:,}", mib=f"{4 * n / 2**20:.0f}", copy=f"{num(r['copy_bw_GBps']):.0f}",
                     l2="flushed" if r["l2"] == "flush" else "kept"))


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
        out.append(dict({t: (f"**{x:.4f}**" if t == best else f"{x:.4f}") for t, x in times.items()},
                        version=v))
    return out


def unfixed_rows(rows):
    """Per size and block size: the wrong runs of version 5 (fixed) and of the report's as printed."""
    def wrong(r):
        return f"{r['wrong_checks']} of {r['checks']}" if r else None
    out, configs = [], pivot(rows, lambda r: (int(r["n"]), int(r["threads"])), "version")
    for (n, t), by in configs.items():
        u = by.get("5-unfixed", {})
        example = u.get("gpu_sum") if u.get("wrong_checks") != "0" else ""
        out.append({"n": f"{n:,}", "threads": t, "fixed": wrong(by.get("5")), "unfixed": wrong(u),
                    "cpu": u.get("cpu_sum"), "example": example})
    return out


def iota_head(rows):
    r, n = rows[0], int(rows[0]["n"])
    exact, cpu = n * (n + 1) // 2, int(r["cpu_sum"])
    wrapped = (exact + (1 << 31)) % (1 << 32) - (1 << 31)  # modulo 2^32, read as int32
    return (f"n = {n:,}: the exact sum n(n+1)/2 = {exact:,} does not fit in int32; modulo 2^32, read as "
            f"int32, it is {wrapped:,}, and the CPU sum in the CSV is {cpu:,} "
            f"({'the same' if cpu == wrapped else '**not the same**'}). "
            f"Serial CPU: {num(r['cpu_ms']):.3f} ms on 1, 2, ..., n.")


# --- Nsight Compute counters (results/profile.csv, `make profile`) -------------------------
M_TIME, M_GRID = "gpu__time_duration.sum", "launch__grid_size"
M_DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
M_OCC = "sm__warps_active.avg.pct_of_peak_sustained_active"
M_INST, M_THREADS = "smsp__inst_executed.sum", "smsp__thread_inst_executed_per_inst_executed.ratio"
M_DIV = "smsp__sass_branch_targets_threads_divergent.sum"
M_LD = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
M_ST = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
M_BAR = "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"
PROFILE_COLUMNS = [
    "version", ("kernel", "kernel (first pass)", "`{}`"), (M_GRID, "grid", "{:.0f}"),
    (M_TIME, "time (us)", lambda x: f"{x / 1e3:.1f}"), (M_DRAM, "DRAM % of peak", "{:.0f}"),
    (M_OCC, "achieved occupancy %", "{:.0f}"),
    ("sm__maximum_warps_per_active_cycle_pct", "theoretical occupancy %", "{:.0f}"),
    (M_INST, "warp instructions (M)", lambda x: f"{x / 1e6:.2f}"),
    (M_THREADS, "threads per warp instruction", "{:.1f}"), (M_DIV, "divergent branch targets", "{:,.0f}"),
    (M_LD, "shared ld bank conflicts", "{:,.0f}"), (M_ST, "shared st bank conflicts", "{:,.0f}"),
    (lambda r: r.get(M_BAR, RUN_PROFILE), "barrier stall (cycles per issued instruction)", "{:.3f}")]
CLAIMS = ["the report's claim", "counter (first pass)", "measured", "verdict"]


def profile_head(rows):
    r = rows[0]
    return (f"{int(r['n']):,} ints, 256 threads per block; Nsight Compute {r['ncu_version']} on "
            f"{r['device']} (`--clock-control none`, caches flushed before each profiled kernel). First pass "
            "of each version only (the kernel launch with the largest grid, the one that reads the input); "
            "the library baseline: its first kernel.")


def occupancy_vs_memory(fp):
    """Rank correlations over the versions of the time with DRAM throughput, and with occupancy."""
    vs = [v for v in CHAIN if v in fp and all(m in fp[v] for m in (M_TIME, M_DRAM, M_OCC))]
    t = [fp[v][M_TIME] for v in vs]
    return spearman(t, [fp[v][M_DRAM] for v in vs]), spearman(t, [fp[v][M_OCC] for v in vs])


def claims(fp):
    """The report's claims about the versions, each against the counters (first passes) that test it."""
    def counter(v, metrics):  # the sum of these counters of version v; None if one was not measured
        values = [fp.get(v, {}).get(m) for m in metrics]
        return None if None in values else sum(values)

    def claim(text, name, a, b, metrics, *judged):
        """The claim against the ratio of version a's counter to version b's (readme_tables.ratio_claim)."""
        judged = ratio_claim(counter(a, metrics), counter(b, metrics), *judged, not_measured=NOT_PROFILED)
        return dict(zip(CLAIMS, (text, f"{name}, v{a} / v{b}") + judged))
    d1, d2 = counter("1", [M_DIV]), counter("2", [M_DIV])
    bar = None not in (counter("4", [M_BAR]), counter("5", [M_BAR]))
    counts, inst = "{:,.0f} / {:,.0f}", "warp instructions executed"
    conflicts = "bank conflicts (loads + stores)"
    rho_dram, rho_occ = occupancy_vs_memory(fp)
    return md_table([
        claim("version 1: the `tid % (2*stride)` branch makes warps diverge", "divergent branch targets",
              "1", "2", [M_DIV], (">", 2), counts,
              "both counts are 0: no branch diverges on this GPU, see below" if d1 == 0 == d2 else None),
        claim("version 2: the strided index keeps the active threads of a warp together",
              "active threads per warp instruction", "2", "1", [M_THREADS], None if d1 == 0 else (">=", 1.1),
              "{:.1f} / {:.1f} of 32", None if d1 != 0 else
              "version 1 does not diverge here either: there is nothing to remove, see below", NOT_PROFILED),
        claim("version 2 has shared-memory bank conflicts", conflicts, "2", "1", [M_LD, M_ST], (">", 2),
              counts),
        claim("version 3 (sequential addressing) removes them", conflicts, "3", "2", [M_LD, M_ST],
              ("<=", 0.1), counts),
        claim("version 4 puts the idle half of the threads to work (first add during the load)", inst,
              "4", "3", [M_INST], ("<=", 0.75)),
        claim("version 5: unrolling the last warp executes fewer instructions", inst, "5", "4", [M_INST],
              ("<", 0.95)),
        claim("version 5: ... and waits less at `__syncthreads`",
              "barrier stall cycles per issued instruction", "5", "4", [M_BAR], ("<", 0.9), "{:.3g} / {:.3g}",
              None if bar else "the counter is not in results/profile.csv yet: run make profile", "n/a"),
        claim("version 6 (Harris): complete unrolling executes fewer instructions", inst, "6", "5", [M_INST],
              ("<", 0.95)),
        claim("version 7 (Harris): many elements per thread executes fewer instructions", inst, "7", "6",
              [M_INST], ("<", 0.95)),
        dict(zip(CLAIMS, (
            "memory usage, not occupancy, is the major determinant of performance",
            "Spearman rank correlation over the versions (not the baseline) of the time with achieved "
            "occupancy (and, for comparison, with DRAM throughput, which is bytes / time here and so near -1 "
            "by construction)", "n/a" if rho_occ is None else f"{rho_occ:+.2f} (DRAM: {rho_dram:+.2f})",
            verdict(compare(rho_occ, ">", OCCUPANCY_RULE),
                    "fewer than 3 versions with time and occupancy counters"))))], CLAIMS)


def divergence_note(prows, fp):
    """Below the claims table: whether version 1's `%` branch diverges here, and what the 1 -> 2 step
    changes."""
    if "1" not in fp or "2" not in fp:
        return f"The counters of versions 1 and 2: {RUN_PROFILE}."
    (d1, t1, i1), (d2, t2, i2) = ([fp[v].get(m) for m in (M_DIV, M_THREADS, M_INST)] for v in "12")
    dev, text = prows[0]["device"], ""
    if d1 == 0 and d2 == 0 and t1 is not None and t2 is not None:
        text = (f"On the {dev} neither version 1 nor version 2 diverges: both have 0 divergent branch "
                f"targets, and their warp instructions run with {t1:.1f} and {t2:.1f} of 32 threads active. "
                "The compiler turns version 1's test `(tid % (2 * stride)) == 0` into predicated "
                "instructions (every thread steps through the add, and the threads whose condition is false "
                "do not write), so there is no branch left to diverge. The report's explanation of the 1 → 2 "
                "step (divergent warps) cannot be seen here.")
    elif d1 is not None and d2 is not None:
        text = f"On the {dev} version 1 has {d1:,.0f} divergent branch targets and version 2 {d2:,.0f}."
    if ratio(i2, i1) is not None:
        text += (" " if text else "") + (
            "What the 1 → 2 step does coincide with: the warp instructions executed by the first pass fall "
            f"from {i1 / 1e6:.1f} M to {i2 / 1e6:.1f} M ({ratio(i2, i1):.2f}x). In version 2 the threads "
            "with work in a step are contiguous, so whole warps skip the steps in which they have nothing to "
            "add; in version 1 every warp holds a few threads with work and issues every step's instructions "
            "(predicated off for the others), and computes an integer `%` in every step.")
    return wrap(text)


class Values(dict):
    """The numbers of the prose; what to run in place of one whose CSV is not there yet."""
    def __missing__(self, name):
        return RUN_PROFILE if name.startswith(("occ-", "dram-")) else RUN_REPORT


def values(vfull, srows, urows, lrows, fp):
    """Every number of the README's prose that comes from results, by name (the {name} of fill())."""
    no_divergence = fp.get("1", {}).get(M_DIV) == 0 and fp.get("2", {}).get(M_DIV) == 0
    V = Values({f"harris-{v}": f"{h[2]:.2f}x" for v, h in HARRIS.items() if h[2]}, rule=OCCUPANCY_RULE)
    V["div-reason"] = ", though not for the report's reason in the first step" if no_divergence else ""
    V["div-note"] = ("Version 1 does not diverge on this GPU (the compiler predicates its branch: see below "
                     "the claims table); the 1→2 gain goes with fewer instructions executed. "
                     if no_divergence else "")
    if vfull:
        by, r0 = {r["version"]: r for r in vfull}, vfull[0]
        ms = {v: num(by[v]["kernel_ms"]) for v in VERSIONS if v in by}
        s8, cpu = speedups(ms.get, CHAIN), num(r0["cpu_ms"])
        slower = arrows([s for s in s8 if s[2] <= 1])
        V.update({f"s{a}{b}-8m": f"{x:.2f}x" for a, b, x in s8})
        V.update({
            "device": f"{r0['device']} (driver {r0['driver']}, CUDA {r0['runtime']})",
            "device-name": r0["device"], "steps-8m": arrows(s8),
            "cum5-8m": f"{ms['1'] / ms['5']:.2f}x", "cum8-8m": f"{ms['1'] / ms['8']:.2f}x",
            "all-steps-8m": f"not every step is faster ({slower})" if slower else "every step is faster",
            "cpu-ms-8m": f"{cpu:.3f} ms", "v1-ms-8m": f"{ms['1']:.4f} ms", "v8-ms-8m": f"{ms['8']:.4f} ms",
            "v1-vs-cpu-8m": f"{cpu / ms['1']:.0f}x", "v8-vs-cpu-8m": f"{cpu / ms['8']:.0f}x",
            "copy-in-8m": f"{num(r0['copy_in_ms']):.2f} ms",
            "v7-blocks-8m": f"{int(by['7']['blocks']):,}", "v6-blocks-8m": f"{int(by['6']['blocks']):,}",
            "cub-ms-8m": f"{num(by['8']['baseline_ms']):.4f} ms",
            "v8-vs-cub-8m": f"{num(by['8']['speedup_vs_baseline']):.3f}x"})
    if srows:
        sizes = sorted({int(r["n"]) for r in srows})
        t = {(int(r["n"]), r["version"]): num(r["kernel_ms"]) for r in srows}
        cpu = {int(r["n"]): num(r["cpu_ms"]) for r in srows}
        big, lo = sizes[-1], sizes[-1] >> 4
        at = {n: speedups(lambda v, n=n: t.get((n, v)), CHAIN) for n in sizes}
        good = next((n for n in sizes if all(x > 1 for m in sizes if m >= n for _, _, x in at[m])), None)
        small = [t[(n, v)] for n in sizes if n <= 1 << 16 for v in CHAIN if (n, v) in t]
        r67 = [t[(n, "6")] / t[(n, "7")] for n in sizes if n <= 1 << 18 and (n, "6") in t and (n, "7") in t]
        gpu = {n: min((t[(n, v)] for v in VERSIONS if (n, v) in t), default=math.inf) for n in sizes}
        last = max((n for n in sizes if cpu[n] < gpu[n]), default=None)
        V.update({f"s{a}{b}-max": f"{x:.2f}x" for a, b, x in at[big]})
        V.update({
            "steps-max": arrows(at[big]), "max-size": pow2(big), "smallest-size": pow2(sizes[0]),
            "steps-smallest": arrows(at[sizes[0]]), "all-faster-from": pow2(good) if good else "no size",
            "small-range": f"{1000 * min(small):.0f}-{1000 * max(small):.0f} µs" if small else "n/a",
            "s67-small-range": f"{min(r67):.2f}x to {max(r67):.2f}x" if r67 else "n/a",
            "cpu-wins-upto": pow2(last) if last else "no size",
            "cpu-ms-wins": f"{cpu[last]:.4f} ms against ≥ {gpu[last]:.4f} ms" if last else "n/a",
            "logn-time": f"{t[(big, '8')] / t[(lo, '8')]:.1f}x for version 8 and "
                         f"{t[(big, '3')] / t[(lo, '3')]:.1f}x for version 3 from {pow2(lo)} to {pow2(big)} "
                         "ints (16x the data)" if (lo, "8") in t and (big, "8") in t else "n/a"})
        # O(log N): the passes of a tree version times the tree steps of each pass.
        launches = {int(r["n"]): int(r["launches"]) for r in srows if r["version"] == "3" and r["launches"]}
        threads = next((int(r["threads"]) for r in srows if r["version"] == "3" and r["threads"]), 256)
        lg = int(math.log2(threads))
        V["logn-steps"] = "; ".join(
            f"{pow2(n)}: {launches[n]} × {lg} = {launches[n] * lg} (log2 n = {n.bit_length() - 1})"
            for n in (sizes[0], 1 << 20, big) if n in launches)
        r8 = next((r for r in srows if int(r["n"]) == big and r["version"] == TARGET), None)
        if r8:
            speed, cub_ms = num(r8["speedup_vs_baseline"]), num(r8["baseline_ms"])
            cub_bw, slower = 4.0 * big / (cub_ms * 1e6), 100 * (1 / speed - 1)
            V.update({
                "v8-ms-big": f"{num(r8['kernel_ms']):.4f} ms", "cub-ms-big": f"{cub_ms:.4f} ms",
                "v8-vs-cub-big": f"{speed:.3f}x", "copy-bw-big": f"{num(r8['copy_bw_GBps']):,.0f} GB/s",
                "v8-big-note": "faster than CUB" if speed >= 1 else f"{slower:.1f}% slower than CUB",
                "bw-big": f"{num(r8['bandwidth_GBps']):,.0f} GB/s (CUB {cub_bw:,.0f} GB/s)"})
    if urows:
        u = [r for r in urows if r["version"] == "5-unfixed"]
        fixed = [r for r in urows if r["version"] == "5"]
        wrong, checks = sum(int(r["wrong_checks"]) for r in u), sum(int(r["checks"]) for r in u)
        ex = next((r for r in u if r["n"] == "8388608" and r["threads"] == "256"), u[0] if u else None)
        V.update({
            "unfixed-wrong": f"{wrong} of {checks} checked runs in {len(u)} configurations",
            "unfixed-configs": " ints × ".join(", ".join(f"{x:,}" for x in sorted({int(r[c]) for r in u}))
                                               for c in ("n", "threads")) + " threads",
            "unfixed-kind": "a systematic error, not an occasional race" if wrong == checks else
                            "wrong in some runs only, as a race is",
            "unfixed-always": "every time" if wrong == checks else "not every time",
            "unfixed-example": f"{ex['gpu_sum']} instead of {ex['cpu_sum']} at {int(ex['n']):,} ints with "
                               f"{ex['threads']} threads" if ex else "n/a",
            "fixed-wrong": f"{sum(int(r['wrong_checks']) for r in fixed)} wrong in "
                           f"{sum(int(r['checks']) for r in fixed)} checks"})
    lat = {r["memory"]: num(r["cycles_per_load"]) for r in lrows or []}
    if "shared" in lat and "DRAM" in lat:
        r, l2 = ratio(lat["DRAM"], lat["shared"]), lat.get("L2", math.nan)
        V.update({  # rule: "roughly 100x" holds within 2x of 100 (50x to 200x)
            "lat-shared": f"{lat['shared']:.0f} cycles", "lat-dram": f"{lat['DRAM']:.0f} cycles",
            "lat-l2": f"{l2:.0f} cycles", "lat-ratio": f"{lat['DRAM'] / lat['shared']:.0f}x",
            "lat-ratio-l2": f"{l2 / lat['shared']:.0f}x",
            "lat-verdict": verdict(None if r is None else 50 <= r <= 200)})
    vs = [v for v in CHAIN if v in fp and M_OCC in fp[v] and M_TIME in fp[v]]
    if vs:
        occ, tm = [fp[v][M_OCC] for v in vs], [fp[v][M_TIME] for v in vs]
        rho_occ = occupancy_vs_memory(fp)[1]
        d = [fp[v][M_DRAM] for v in vs if M_DRAM in fp[v]]
        V.update({
            "occ-range": f"{min(occ):.0f}% to {max(occ):.0f}%", "occ-time-range": f"{max(tm) / min(tm):.1f}x",
            "occ-rho": "n/a" if rho_occ is None else f"{rho_occ:+.2f}",
            "occ-verdict": verdict(compare(rho_occ, ">", OCCUPANCY_RULE)),
            "dram-range": f"{min(d):.0f}% to {max(d):.0f}%" if d else "n/a"})
    return V


TARGETS = (
    "At 8,388,608 ints version 8 takes {v8-ms-8m} against the baseline's {cub-ms-8m} (**{v8-vs-cub-8m}**). "
    "At {max-size}: {v8-ms-big} against {cub-ms-big} (**{v8-vs-cub-big}**, version 8 {v8-big-note}); they "
    "read at {bw-big}, against the same run's device-to-device copy at {copy-bw-big} (bytes read + written).")
CONCLUSIONS_HEAD = (
    "Measured on the {device} of `results/`; all ratios are within one run (times at 8,388,608 ints and 256 "
    "threads from `results/versions.csv`, other sizes from `results/size_sweep.csv`, counters from "
    "`results/profile.csv`). Every default version gave the exact CPU sum in every check of every CSV (a CSV "
    "is written only when every check passed).")
CONCLUSIONS = [  # the report's conclusions, every number from the CSVs ({name}: values())
    "**\"Each version is a significant improvement\": at 8,388,608 ints {all-steps-8m}.** Step by step: "
    "{steps-8m} (cumulative {cum5-8m} for version 5 over version 1, {cum8-8m} for version 8). Every step is "
    "faster at every size from {all-faster-from} up (at {max-size}: {steps-max}). At small sizes every "
    "version takes {small-range} (up to 2^16 ints): the time is that of launching the kernels, not of "
    "reading the data (launch-bound), and the steps go both ways (at {smallest-size}: {steps-smallest}).",
    "**Removing divergence and bank conflicts pays{div-reason}.** 1→2 (no `%` branch) is {s12-8m} at 8M and "
    "{s12-max} at the largest size; 2→3 (sequential, conflict-free addressing) {s23-8m} and {s23-max}, "
    "against Harris's {harris-2} and {harris-3} on the G80. {div-note}The biggest single step here is 3→4 "
    "({s34-8m} at 8M, {s34-max} at the largest size), which halves the blocks and the idle threads.",
    "**Loop unrolling is a good technique: for the last warp.** Unrolling the last warp (4→5, here with "
    "`__syncwarp`) gives {s45-8m} at 8M and {s45-max} at the largest size; complete unrolling with a "
    "template block size (5→6) {s56-8m} and {s56-max} (Harris: {harris-6}).",
    "**The parallel versions beat the serial loop, for the kernel time alone.** At 8M the serial CPU sum "
    "takes {cpu-ms-8m}, version 1 {v1-ms-8m} ({v1-vs-cpu-8m} faster), version 8 {v8-ms-8m} ({v8-vs-cpu-8m}). "
    "The CPU is faster than every GPU version up to {cpu-wins-upto} ints (there: {cpu-ms-wins}). The GPU "
    "times exclude copying the input to the GPU, which alone (pageable memory) takes {copy-in-8m} at 8M: the "
    "GPU wins only if the data are already on it.",
    "**\"Parallel implementation time complexity is O(log N)\": the depth is, the time is not.** The number "
    "of dependent steps is logarithmic: passes × log2(256) tree steps per block ({logn-steps}). But every "
    "element is still read once, so once the GPU is full the time grows linearly with n: {logn-time}. The "
    "time is O(n/p + log n) for p parallel adders, and on a GPU the n/p term (memory bandwidth) dominates.",
    "**\"Grid-stride loop\": the report's kernels have none** (one or two elements per thread, the grid "
    "grows with n; in a grid-stride loop a fixed grid walks over the whole input, each thread summing many "
    "elements). Where Harris put it, in version 7 ({v7-blocks-8m} blocks at 8M against version 6's "
    "{v6-blocks-8m}), it pays {s67-8m} over version 6 at 8M and {s67-max} at the largest size; up to 2^18 "
    "ints the step ranges over {s67-small-range}.",
    "**\"Shared memory latency is roughly 100x lower than non-cached global memory\": {lat-verdict}.** A "
    "dependent load takes {lat-shared} from shared memory and {lat-dram} from DRAM, a factor of "
    "{lat-ratio}; from L2 {lat-l2} ({lat-ratio-l2}). (Rule: \"roughly 100x\" holds for a factor between 50x "
    "and 200x.) Latency is not what limits these kernels, though: many warps in flight hide it, and the "
    "counters above show throughput, not latency, deciding the time.",
    "**\"Memory usage, not occupancy, is the major determinant of performance\": {occ-verdict}.** Over the "
    "versions the achieved occupancy of the first pass stays within {occ-range} while the kernel time "
    "changes {occ-time-range} and the DRAM throughput goes from {dram-range} of the peak. The rank "
    "correlation of the time with the achieved occupancy is {occ-rho} (rule: occupancy would be a major "
    "determinant if higher occupancy went with shorter times, a correlation of {rule} or below). What the "
    "faster versions change is how much work and waiting stands between the loads and the sum "
    "(instructions, barriers, idle threads), which shows up as DRAM throughput, not as occupancy.",
    "**The report's version 5 as printed gives wrong sums on the {device-name}: {unfixed-always}.** In "
    "`results/unfixed_v5.csv` it was wrong in {unfixed-wrong} ({unfixed-configs}), e.g. {unfixed-example}; "
    "the fixed version 5: {fixed-wrong}. Compare with the PTX described above (values kept in registers "
    "without `volatile`): {unfixed-kind}."]


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
    v = values(vfull, srows, urows, lrows, fp)
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
    latency = [
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
            head=lambda rows: "Bandwidth in GB/s (4 bytes per int read once / median time).",
            missing=missing("size_sweep.csv")),
        Table("threads-table", "threads.csv", ["version"] + [(t, f"{t} threads") for t in threads],
              rows=threads_rows, missing=missing("threads.csv"), note=lambda rows: next((
                  f"The library baseline in the same run: {num(r['kernel_ms']):.4f} ms. Time in ms, median; "
                  "the best block size of each version in bold." for r in rows if r["version"] in BASELINES),
                  None)),
        Table("unfixed-table", "unfixed_v5.csv", [
            ("n", "ints"), "threads", ("fixed", "version 5 (fixed): wrong runs"),
            ("unfixed", "as printed: wrong runs"), ("example", "a wrong sum (as printed)"),
            ("cpu", "CPU sum")], rows=unfixed_rows, missing=missing("unfixed_v5.csv")),
        Table("iota-table", "versions.csv", iota, head=iota_head,
              where=lambda r: r.get("data") == "iota" and r["version"] in VERSIONS,
              missing=placeholder_table(headings(iota), RUN_REPORT)),
        Table("latency-table", "latency.csv", latency, rows=lambda rows: rows if "shared" in lat else [],
              missing=placeholder_table(headings(latency), RUN_REPORT),
              head=lambda rows: f"Device: {rows[0]['device']}; pointer chasing with one thread "
                                "(`experiments/memory_latency.cu`), median of 3 runs."),
        Table("profile-table", "profile.csv", PROFILE_COLUMNS, head=profile_head,
              rows=lambda rows: [dict(fp[v], version=v) for v in VERSIONS if v in fp],
              missing=placeholder_table(headings(PROFILE_COLUMNS), RUN_PROFILE))], RESULTS)
    readme.block("targets-table", targets_table(vfull, srows) + "\n\n" + wrap(fill(TARGETS, v)))
    readme.block("claims-table", (claims(fp) if fp else placeholder_table(CLAIMS, RUN_PROFILE))
                 + "\n\n" + divergence_note(prows, fp))
    readme.block("conclusions", wrap(fill(CONCLUSIONS_HEAD, v)) + "\n\n"
                 + numbered([fill(c, v) for c in CONCLUSIONS]))
    readme.save()


if __name__ == "__main__":
    main()
