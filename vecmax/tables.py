#!/usr/bin/env python3
"""Fills vecmax/README.md's generated blocks from results/*.csv (make tables): the tables (the sweep
beside the report's GTX 970 numbers of original/report_000_gtx970.csv, the copies, the bench and its
targets, the single-pass tuning, the Nsight Compute counters) and prose.md's sentences, whose numbers
are computed here. A CSV not there yet leaves a placeholder ("(run make report-run)").
    python3 tables.py [RESULTS_DIR [README]]"""
import os
import sys
from statistics import median
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common", "py"))
from readme_tables import (TIME, fill as fill_template, names_used, NumRow, Readme, Table, all_hold, compare,  # noqa: E402
                           fill_blocks, joined_values, load, md_table, met, ncu_kernels, placeholder_table,
                           ratio, read_csv, read_templates, section_values, span, verdict, wrap)

RUN, PROFILE = "(run make report-run)", "(run make profile)"
TUNING_MISSING = "(run bash experiments/run.sh on a GPU)"
N1, N2 = 40960000, 268435456  # the report's N and 2^28
BIG_GRID = 16384  # "configurations having more threads and blocks": at least 16k threads in the grid
# The report's "three parameter settings of the greatest speed up ... processing time ... only
# less than 1.5 milliseconds and the IO has occupy about 96% of the total time for GPU":
# "about 96%" is read as within one percentage point of 96.
TOP3_MS, TOP3_IO_PCT, TOP3_ABOUT = 1.5, 96.0, 1.0
TARGETS = {N1: ("single_pass kernel <= cub / 1.05", 1.05), N2: ("single_pass >= 0.97 x cub", 0.97)}
PROSE = read_templates(os.path.join(HERE, "prose.md"))


# ---- prose.md's parts (helpers that could move to common/py/readme_tables.py) -----------------
def fill(part, numbers):
    """prose.md's part filled from numbers ({n:,}, {top.kernel_ms:.3f}: readme_tables.fill); a
    part that is not there stops the run."""
    if part not in PROSE:
        sys.exit(f"tables.py: prose.md has no template '{part}'")
    return fill_template(PROSE[part], numbers, f"prose.md's {part}")


def part_sections(csvs, sections):
    """section_values()'s sections of the parts that the blocks name, {CSV.part}: each filled from
    numbers(rows, csvs) of results/CSV.csv, or reading `missing` while it is not there (sections:
    {CSV: (numbers, missing, ...)}). The numbers are values too; a part they set is not filled again."""
    used = names_used(PROSE)

    def section(name, numbers, missing):
        def values():
            if csvs[name] is None:
                raise LookupError(name)
            N = numbers(csvs[name], csvs)
            return dict(N, **{p: fill(p, N) for p in parts if p not in N})
        parts = [p for p in used if p.startswith(name + ".")]
        return parts, values, missing
    return [section(name, numbers, missing) for name, (numbers, missing, *_) in sections.items()]


# ---- the report's configurations -------------------------------------------------------------
class Config(NumRow):
    """A row of sweep.csv or of the report's table: its numbers as attributes, and its configuration:
    key (threads per block, blocks), shape ("1024 × 128") and grid (the threads in the grid)."""

    def __init__(self, row, **columns):
        super().__init__(row, **columns)
        self.key = (int(float(self["threads"])), int(float(self["blocks"])))
        self.shape, self.grid = "{} × {}".format(*self.key), self.key[0] * self.key[1]


# The report's table (its processing time is our kernel time) and its configurations in its order.
ORIGINAL = [Config(r, kernel_ms=r["processing_ms"])
            for r in read_csv(os.path.join(HERE, "original", "report_000_gtx970.csv"), comments=True)]
with open(os.path.join(HERE, "sweep_configs.txt")) as fh:
    CONFIGS = [tuple(map(int, x)) for x in (text.split("#", 1)[0].split() for text in fh) if len(x) == 2]


def col(rows, name):
    return [float(r[name]) for r in rows]


def copies_share(r):
    return 100.0 * (float(r["input_ms"]) + float(r["output_ms"])) / float(r["total_gpu_ms"])


def top3(rows):
    return sorted(rows, key=lambda r: float(r["speedup_gpu"]), reverse=True)[:3]


# ---- the tables ------------------------------------------------------------------------------
def sweep_rows(rows):
    """Ours, each beside the report's row of the same configuration (its columns: "GTX 970 " + name),
    with the copies' share, and the speed-up marked "(top 3)" for the three best of each."""
    def marked(rows):
        best = {r.key for r in top3(rows)}
        return [dict(r, copies=copies_share(r) if float(r["total_gpu_ms"]) > 0 else float("nan"),
                     top=r.key in best, speedup="{:.3f}".format(r.speedup_gpu) + " (top 3)" * (r.key in best))
                for r in rows]
    ours = [Config(r) for r in rows]
    orig = {r.key: {"GTX 970 " + k: v for k, v in m.items()} for r, m in zip(ORIGINAL, marked(ORIGINAL))}
    return [dict(m, **orig.get(r.key, {})) for r, m in zip(ours, marked(ours))]


def bench_target(r):
    """The bench table's target cell: the target of `single_pass` at this N, and met or MISSED."""
    t = TARGETS.get(int(float(r["n"])))
    if r["version"] != "single_pass" or t is None:
        return ""
    return f"{t[0]}: {met(r['speedup_vs_baseline'], '>=', t[1])}"


# The report's time split (sweep and copies tables), and its own numbers beside ours in the sweep's.
TIME_SPLIT = [("input_ms", "input (ms)", "{:.3f}"), ("kernel_ms", "processing (ms)", "{:.4f}"),
              ("output_ms", "output (ms)", "{:.4f}"), ("total_gpu_ms", "total GPU (ms)", "{:.3f}"),
              ("cpu_ms", "CPU (ms)", "{:.3f}")]
GTX = (("input_ms", "input (ms)", "{:.2f}"), ("processing_ms", "processing (ms)", "{:.3f}"),
       ("output_ms", "output (ms)", "{:.3f}"), ("total_gpu_ms", "total (ms)", "{:.2f}"),
       ("cpu_ms", "CPU (ms)", "{:.2f}"), ("speedup", "speed-up"), ("copies", "copies (%)", "{:.1f}"))
TABLES = [
    Table("sweep-table", "sweep.csv", [
        ("threads", "threads/block"), ("blocks", "blocks/grid"), *TIME_SPLIT, ("speedup", "speed-up"),
        ("copies", "copies (% of total)", "{:.1f}"), ("gpu_gflops", "GPU Gflops", "{:.1f}"),
        *[("GTX 970 " + k, "GTX 970 " + heading, *spec) for k, heading, *spec in GTX]],
        where={"version": "report"}, rows=sweep_rows, bold=lambda r: r["top"],
        order=lambda r: CONFIGS.index(Config(r).key) if Config(r).key in CONFIGS else len(CONFIGS),
        missing=placeholder_table(["threads/block", "blocks/grid"], RUN),
        note=lambda rows: fill("sweep.note", dict(rows[0], ok="1" if all(r["result_ok"] == "1" for r in rows)
                                                  else "NOT ALL 1"))),
    Table("copies-table", "copies.csv", [
        ("host_memory", "host memory"), "version", "threads", "blocks",
        TIME_SPLIT[0], ("h2d_GBps", "host-to-device (GB/s)", "{:.1f}"), *TIME_SPLIT[1:],
        ("speedup_gpu", "speed-up", "{:.3f}"),
        ("result_ok", "ok")], missing=placeholder_table(["host memory", "version"], RUN)),
    Table("bench-table", "bench.csv", [
        ("n", "N"), "version", "threads", "blocks", ("kernel_ms", "kernel (ms), L2 flushed", "{:.4f}"),
        ("kernel_ms_no_flush", "kernel (ms), no flush", "{:.4f}"), ("bandwidth_GBps", "GB/s", "{:.0f}"),
        ("pct_of_copy_bw", "% of copy bw", "{:.1f}"), ("copy_bw_GBps", "copy bw (GB/s)", "{:.0f}"),
        ("baseline_ms", "cub (ms)", "{:.4f}"), ("speedup_vs_baseline", "speed vs cub", "{:.3f}"),
        (bench_target, "target"), ("result_ok", "ok")], missing=placeholder_table(["N", "version"], RUN),
        note=lambda rows: fill("bench.note", rows[0])),
]


# ---- the numbers of the prose: each CSV's function gives those of its parts ------------------
def line(rows, i, value):
    """The configurations whose threads (i = 0) or blocks (i = 1) are `value`, along the other: the
    first and last (speed-up, kernel time), the speed-ups and each step's gain, how far kernel time ×
    threads in the grid strays from constant (%), and the copies' share at the last (%)."""
    rows = sorted((r for r in rows if r.key[i] == value), key=lambda r: r.key[1 - i])
    sp, prod = col(rows, "speedup_gpu"), [r.kernel_ms * r.grid for r in rows]
    return SimpleNamespace(
        first=rows[0], last=rows[-1], time_ratio=rows[0].kernel_ms / rows[-1].kernel_ms,
        speedups=joined_values(sp, "{:.2f}", ", "), last_copies=copies_share(rows[-1]),
        gains=joined_values([b - a for a, b in zip(sp, sp[1:])], "{:+.2f}", ", "),
        per_thread=100.0 * (max(prod) / min(prod) - 1.0))


def plateau(rows):
    """The configurations of at least BIG_GRID threads: the kernel's largest share of the total (%),
    count, speed-ups (range, median), median ceiling CPU time / copy time, kernel times, copies (%)."""
    sel = [r for r in rows if r.grid >= BIG_GRID]
    sp = col(sel, "speedup_gpu")
    return SimpleNamespace(
        kernel_share=max(100.0 * r.kernel_ms / r.total_gpu_ms for r in sel), count=len(sel),
        speedups=span(sp, "{:.2f}"), median=median(sp),
        ceiling=median([r.cpu_ms / (r.input_ms + r.output_ms) for r in sel]),
        times=span(col(sel, "kernel_ms"), "{:.1f}"), copies=span([copies_share(r) for r in sel], "{:.0f}"))


def top3_claim(rows):
    """The verdict on "processing under 1.5 ms, I/O about 96% of the GPU time" for the three best
    speed-ups, and their numbers."""
    best3 = top3(rows)
    io = [ratio(100.0 * (r.input_ms + r.output_ms), r["total_gpu_ms"]) for r in best3]
    holds = all_hold([compare(max(r.kernel_ms for r in best3), "<", TOP3_MS)] + [
        compare(None if x is None else abs(x - TOP3_IO_PCT), "<=", TOP3_ABOUT) for x in io])
    return verdict(holds, "a total GPU time is zero or missing"), "; ".join(
        fill("sweep.top3-config", dict(r=r, io="?" if x is None else f"{x:.1f}%")) for r, x in zip(best3, io))


def sweep_numbers(rows, csvs):
    """The conclusions' numbers from sweep.csv (ours) and the report's table (GTX 970), computed in
    the conclusions' order: what cannot be computed first is what the README names."""
    rows, orig = [Config(r) for r in rows if r["version"] == "report"], {r.key: r for r in ORIGINAL}
    r0 = rows[0]
    mb = 4.0 * r0.n / 1e6
    N = dict(device=r0["device"], driver=r0["driver"], runtime=r0["runtime"], mb=mb, n=int(r0.n),
             big_grid=BIG_GRID, o_32x4=orig[(32, 4)], o_big=plateau(ORIGINAL), o4=line(ORIGINAL, 1, 4),
             o32=line(ORIGINAL, 0, 32), o_inputs=span(col(ORIGINAL, "input_ms"), "{:.1f}"),
             o_outputs=span(col(ORIGINAL, "output_ms"), "{:.2f}"),
             o_input_GBps=span([mb / r.input_ms for r in ORIGINAL], "{:.1f}"))
    shares, inputs = {r.key: copies_share(r) for r in rows}, col(rows, "input_ms")
    top = max(rows, key=lambda r: r.grid)
    minority = sorted((k for k, v in shares.items() if v <= 50.0), key=lambda k: k[0] * k[1])
    N.update(configs=len(shares), majority=len(shares) - len(minority), top=top, top_copies=shares[top.key],
             minority=", ".join("{} × {}".format(*k) for k in minority),
             minority_copies=span([shares[k] for k in minority], "{:.1f}"),
             top_gtx_copies=copies_share(orig[top.key]) if top.key in orig else float("nan"),
             inputs=span(inputs, "{:.1f}"), input_median=median(inputs), input_GBps=mb / median(inputs),
             blocks=max(r.key[1] for r in rows), outputs=span(col(rows, "output_ms"), "{:.4f}"),
             output_share=max(100.0 * r.output_ms / r.total_gpu_ms for r in rows), l4=line(rows, 1, 4))
    by_grid = {g: [r.kernel_ms for r in rows if r.grid == g] for g in (r.grid for r in rows)}
    N.update(same_grid_pct=100.0 * max(max(v) / min(v) - 1.0 for v in by_grid.values()),
             top_GBps=4.0 * top.n / (top.kernel_ms * 1e6))
    N["first"], N["second"] = top3(rows)[:2]
    N.update(l32=line(rows, 0, 32), top_pct_of_copy=100.0 * N["top_GBps"] / top.copy_bw_GBps,
             big=plateau(rows), cpu_times=span(col(rows, "cpu_ms"), "{:.1f}"), top3_io_pct=TOP3_IO_PCT,
             top3_about=TOP3_ABOUT, block_bytes=4 * N["blocks"],
             exceptions=" " + fill("sweep.exceptions", N) if minority else "")
    (N["gtx"], N["gtx_top3"]), (N["ours"], N["ours_top3"]) = top3_claim(ORIGINAL), top3_claim(rows)
    N["every"] = "every" if all(r["result_ok"] == "1" and r.rel_error == 0.0 for r in rows) else "NOT every"
    return N


def copies_numbers(rows, csvs):
    by = {(r["host_memory"], r["version"]): NumRow(r) for r in rows}
    pg, pn, rp = by[("pageable", "single_pass")], by[("pinned", "single_pass")], by[("pinned", "report")]
    pinned = col([r for r in rows if r["host_memory"] == "pinned"], "speedup_gpu")
    N = dict(pg=pg, pn=pn, input_ratio=pg.input_ms / pn.input_ms, pn_copies=copies_share(pn),
             rp_copies=copies_share(rp), pn_input_per_kernel=pn.input_ms / pn.kernel_ms,
             pg_input_per_kernel=pg.input_ms / pg.kernel_ms, pinned_speedups=span(pinned, "{:.1f}"),
             cpu_change=100.0 * abs(pn.cpu_ms / pg.cpu_ms - 1.0),
             cpu_faster=100.0 * (1.0 - pn.cpu_ms / pg.cpu_ms))
    return dict(N, cpu=fill("copies.cpu-part" if pn.cpu_ms >= pg.cpu_ms else "copies.cpu-none", N))


def bench_numbers(rows, csvs):
    by = {(int(float(r["n"])), r["version"]): NumRow(r) for r in rows}
    s, c, s2, c2 = by[(N1, "single_pass")], by[(N1, "cub")], by[(N2, "single_pass")], by[(N2, "cub")]
    others = col([r for r in csvs["copies"] or [] if r["version"] == s["version"]], "speedup_vs_baseline")

    def fit(v):  # time = fixed + bytes / rate through both sizes: fixed (µs), rate (GB/s)
        t1, t2 = by[(N1, v)].kernel_ms, by[(N2, v)].kernel_ms
        rate = 4.0 * (N2 - N1) / ((t2 - t1) * 1e-3) / 1e9
        return SimpleNamespace(fixed=t1 * 1e3 - 4.0 * N1 / (rate * 1e9) * 1e6, rate=rate)

    def no_flush(r):
        a, b = r.kernel_ms, r.kernel_ms_no_flush
        return fill("bench.no-flush-pair", dict(r=r, extra_us=(b - a) * 1e3, extra_pct=100.0 * (b / a - 1.0)))
    speeds = joined_values(others, "{:.3f}×", " and ")
    return dict(s=s, c=c, s2=s2, c2=c2, needed_ms=c.kernel_ms / TARGETS[N1][1],
                small_met=met(s["speedup_vs_baseline"], ">=", TARGETS[N1][1]),
                large_met=met(s2["speedup_vs_baseline"], ">=", TARGETS[N2][1]),
                others=fill("bench.others", dict(speeds=speeds)) if others else "", fit_s=fit("single_pass"),
                fit_c=fit("cub"), nf_s=no_flush(s), nf_c=no_flush(c), nf_s2=no_flush(s2), nf_c2=no_flush(c2),
                nf_ratio=c.kernel_ms_no_flush / s.kernel_ms_no_flush,
                nf_ratio2=c2.kernel_ms_no_flush / s2.kernel_ms_no_flush)


TUNING = {  # a name in prose.md: the variants of results/single_pass_tuning.csv it spans
    "first": "256x4 split0 load0 finish0 occ100", "load_only": "256x4 split0 load0 finish1 occ100",
    "last_block": "1024x4 split0 load0 finish0 occ100", "committed": "1024x4 split0 load0 finish2 occ100",
    "threads": "128x4 split0 load0 finish0 occ100, 512x4 split0 load0 finish0 occ100, "
               "512x4 split0 load0 finish2 occ100",
    "loads": "1024x2 split0 load0 finish2 occ100, 1024x8 split0 load0 finish2 occ100",
    "chunk": "1024x4 split1 load0 finish2 occ100", "half_occupancy": "256x4 split0 load0 finish0 occ50",
    "hints": "1024x4 split0 load1 finish2 occ100, 1024x4 split0 load2 finish2 occ100"}


def tuning_numbers(rows, csvs):
    """Each name's speed vs CUB over the rounds: n1, n2 in the table ("—": none), at_n1 in the prose."""
    def speeds(variants, n, none):
        return span(col([r for r in rows if r["variant"] in variants.split(", ") and int(float(r["n"])) == n],
                        "speedup_vs_cub"), "{:.3f}", unit="×", empty=none)
    N = {name: SimpleNamespace(n1=speeds(v, N1, "—"), n2=speeds(v, N2, "—"), at_n1=speeds(v, N1, "n/a×"))
         for name, v in TUNING.items()}
    return dict(N, **{"tuning-table": fill("single_pass_tuning.table", N)})


# ---- Nsight Compute counters (make profile) --------------------------------------------------
MAIN_KERNEL = {"sm_pct": "sm__throughput.avg.pct_of_peak_sustained_elapsed", "grid": "launch__grid_size",
               "occ": "sm__warps_active.avg.pct_of_peak_sustained_active", "block": "launch__block_size",
               "regs": "launch__registers_per_thread", "waves": "launch__waves_per_multiprocessor",
               "dram_pct": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
               "read": "dram__bytes_read.sum", "write": "dram__bytes_write.sum"}
PROFILE_COLUMNS = [
    ("n", "N", "{:,}"), ("v", "version"), "kernels", ("us", "time (µs)", "{:.1f}"),
    ("read", "DRAM read (MB)", lambda x: f"{x / 1e6:.1f}"),
    ("write", "DRAM written (MB)", lambda x: f"{x / 1e6:.2f}"),
    (lambda s: (s["read"] + (s["write"] or 0)) / (s["us"] * 1e3) if s.get("read") is not None else None,
     "GB/s (ncu)", "{:.0f}"), ("dram_pct", "DRAM throughput (% of peak)", "{:.1f}"),
    (lambda s: "{} × {}".format(int(s["grid"]), int(s["block"])) if s.get("grid") and s.get("block") else "",
     "main kernel: grid × block"), ("regs", "registers", "{:.0f}"), ("waves", "waves per SM", "{:.2f}"),
    ("occ", "achieved occupancy (%)", "{:.1f}"), ("sm_pct", "SM throughput (%)", "{:.1f}")]


def profile_summary(rows):
    """{(version, n): summary} at N1 and N2 of the versions with a timed kernel: MAIN_KERNEL's counters
    (None: not measured) of the longest, with `kernels` (how many have a time), `us` (their summed time,
    µs), `device` and `ncu`; the DRAM bytes summed over them, the DRAM throughput weighted by time."""
    by, out = ncu_kernels(rows, lambda r: (r["version"], r["n"] and int(float(r["n"])))), {}
    for v, n in [(v, n) for v in dict.fromkeys(r["version"] for r in rows) for n in (N1, N2)]:
        ks = [dict({x: k.get(metric) for x, metric in MAIN_KERNEL.items()}, us=k[TIME] * 1e-3)
              for k in by.get((v, n), {}).values() if TIME in k]
        if ks:
            us, first = sum(k["us"] for k in ks), next(iter(by[v, n].values()))
            known = us > 0 and all(k["dram_pct"] is not None for k in ks)
            out[v, n] = dict(max(ks, key=lambda k: k["us"]), kernels=len(ks), us=us, device=first["device"],
                             ncu=first["ncu_version"], **{x: None if any(k[x] is None for k in ks) else
                                                           sum(k[x] for k in ks) for x in ("read", "write")},
                             dram_pct=sum(k["dram_pct"] * k["us"] for k in ks) / us if known else None)
    return out


def profile_numbers(rows, csvs):
    summary, missing = profile_summary(rows), {"kernels": f"not in profile.csv {PROFILE}"}
    table = md_table([dict(summary.get((v, n), missing), n=n, v=v) for n in (N1, N2)
                      for v in dict.fromkeys(r["version"] for r in rows)], PROFILE_COLUMNS)
    note = "\n\n" + wrap(fill("profile.note", next(iter(summary.values())))) if summary else ""
    dram = {k: "{:.1f}%".format(s["dram_pct"]) for k, s in summary.items() if s["dram_pct"] is not None}
    N = {v: SimpleNamespace(n1=dram.get((v, N1), PROFILE), n2=dram.get((v, N2), PROFILE))
         for v in ("report", "single_pass", "cub")}  # DRAM throughput (% of peak) at both sizes
    r, sp = summary.get(("report", N1)), summary.get(("single_pass", N1))
    N.update({"profile-table": table + note}, placeholder=PROFILE, launch=" ({} × {})".format(
        int(r["block"]), int(r["grid"])) if r and r["grid"] and r["block"] else "")
    if not (r and r["read"] is not None and r["occ"] is not None and r["dram_pct"] is not None):
        return dict(N, **{"profile.report": fill("profile.report-unmeasured", N)})
    N.update(read_MB=r["read"] / 1e6, vector_MB=4.0 * N1 / 1e6, occupancy=r["occ"])
    if sp and sp["dram_pct"] and r["dram_pct"] < 0.75 * sp["dram_pct"]:  # far below: the bytes in flight
        threads, sp_threads = (int((s["grid"] or 0) * (s["block"] or 0)) for s in (r, sp))
        N.update(threads=threads, kib=threads * 4 / 1024.0, sp_threads=sp_threads,
                 sp_kib=sp_threads * 64 / 1024.0)
        return dict(N, tail=fill("profile.report-low", N))
    return dict(N, tail=fill("profile.report-close", N))


SECTIONS = {  # results/NAME.csv: its numbers, its parts' text while it is missing, its table's block
    "sweep": (sweep_numbers, RUN, "sweep-table"), "copies": (copies_numbers, RUN, "copies-table"),
    "bench": (bench_numbers, RUN, "bench-table"),
    "single_pass_tuning": (tuning_numbers, TUNING_MISSING, "tuning-table"),
    "profile": (profile_numbers, PROFILE, "profile-table")}
TABLE_PLACEHOLDERS = {  # the two tables among the numbers (tuning, profile), until their CSV is there
    "tuning-table": placeholder_table(["variant", "speed vs CUB at 40,960,000", "at 2²⁸"], TUNING_MISSING,
                                      rule="---"),
    "profile-table": placeholder_table(["N", "version", "DRAM throughput (% of peak)"], PROFILE)}


def main(argv):
    results = os.path.abspath(argv[1]) if len(argv) > 1 else os.path.join(HERE, "results")
    readme = Readme(os.path.abspath(argv[2]) if len(argv) > 2 else os.path.join(HERE, "README.md"))
    readme.tables(TABLES, results)
    csvs = {name: load(results, name + ".csv") for name in SECTIONS}
    V = section_values(part_sections(csvs, SECTIONS), dict(TABLE_PLACEHOLDERS))
    fill_blocks(readme, PROSE, V, "prose.md")
    for block in TABLE_PLACEHOLDERS:
        readme.block(block, V[block])
    readme.save()  # one atomic write, whatever was regenerated
    found = ", ".join(table for name, (*_, table) in SECTIONS.items() if csvs[name] is not None)
    print(f"tables.py: updated {found or 'nothing'} in {readme.path}; placeholders for the rest")


if __name__ == "__main__":
    main(sys.argv)
