"""The top README's results tables, from every assignment's reference CSVs (results/ and each
results/TAG/, one GPU each): the best version of each, the GPUs side by side, and every size at
which a best version is slower than its library.

    python3 common/py/results_summary.py [--root DIR] vecmax pi scan colreduce reduction_versions

(`make summary`; --root: the folder that holds the README.md and the assignments, default the
repository's).
The best version comes from the assignment's benchmark CSV (BENCHMARK below: repeated timed runs,
never an accuracy sweep or a profile): the fastest validated version that passed at the largest
size of that CSV; its speed-up is the CSV's speedup_vs_baseline (baseline and version timed in the
same run). The validation count covers every CSV of the set that has the core columns every
program writes (CORE): the rows that could fail and how many passed; a row whose `tolerance` is not
finite has no error bound, cannot fail, and is counted apart, as are demonstration rows
(validated = 0). Only these columns are read, never a version's name.

Stale data (common/py/provenance.py): under each table, one generated line per reference set
whose CSVs the table read (the first table: every core CSV of the set; the others: its benchmark
CSV) and whose code changed since they were made,
    stale: scan/results/h200/ made by 2971763 (2026-11-29); the code that decides it has changed since
(the CSVs named after the folder where only some of those it read are stale, or several commits
made them), so that the summary says which rows rest on stale data. For a copy of the results
outside any checkout (--root), the code is this repository's.
"""
import glob
import math
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provenance  # noqa: E402
from mdtables import Col, Row, Table, fill_docs, load  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CORE = {"version", "validated", "is_baseline", "kernel_ms", "speedup_vs_baseline", "result_ok"}
# Each assignment's benchmark: the CSV of its reference sets whose rows are medians of repeated
# timed runs of every version at the assignment's largest size. An assignment not named here
# must have exactly one CSV with the core columns per set.
BENCHMARK = {
    "vecmax": "bench.csv",
    "pi": "bench.csv",
    "scan": "sweep.csv",
    "colreduce": "colreduce.csv",
    "reduction_versions": "size_sweep.csv",
}


def passed(r):
    return r.get("result_ok", "").strip().lower() in ("1", "true", "pass", "yes", "ok")


def bounded(r):
    """False for a row whose error bound is not finite (pi's `tolerance` inf): it cannot fail."""
    t = r.get("tolerance")
    if t is None or t.strip() == "":
        return True
    try:
        return math.isfinite(float(t))
    except ValueError:
        return True


def size(r):
    m, n = r.f("m"), r.f("n")
    return (m * n, f"{m:,.0f} × {n:,.0f}") if m and n else (n or 0, f"n = {n:,.0f}" if n else "")


def sets(name):
    """(folder, {csv name: rows}) of each reference set of an assignment: results/, then
    results/TAG/; only the CSVs with the core columns."""
    for folder in [os.path.join(ROOT, name, "results")] + sorted(glob.glob(os.path.join(ROOT, name, "results", "*/"))):
        csvs = {}
        for path in sorted(glob.glob(os.path.join(folder, "*.csv"))):
            part = load(folder, os.path.basename(path))
            if part and CORE <= set(part[0]):
                csvs[os.path.basename(path)] = [Row(r, file=path) for r in part]
        if csvs:
            yield os.path.normpath(folder), csvs


def benchmark(name, folder, csvs):
    """The rows of the set's benchmark CSV (BENCHMARK, or the set's only core CSV)."""
    want = BENCHMARK.get(name) or (next(iter(csvs)) if len(csvs) == 1 else None)
    if want not in csvs:
        sys.exit(f"results_summary.py: {os.path.relpath(folder, ROOT)} has no benchmark CSV "
                 f"({want or 'none declared in BENCHMARK, and more than one core CSV'})")
    return want, csvs[want]


def validation(rows):
    """How many of the rows that could fail passed, and what could not fail."""
    checked = [r for r in rows if r["validated"] == "1"]
    could_fail = [r for r in checked if bounded(r)]
    failed = sorted({r["version"] for r in could_fail if not passed(r)})
    nfailed = sum(not passed(r) for r in could_fail)
    unbounded, demos = len(checked) - len(could_fail), len(rows) - len(checked)
    return (f"{len(could_fail) - nfailed} of {len(could_fail)} PASS"
            + (f" (FAIL: {', '.join(failed)})" if failed else "")
            + (f", {unbounded} without a bound" if unbounded else "")
            + (f", {demos} demonstration rows" if demos else ""))


def best_rows(names):
    """One Row per (assignment, reference set): its best version in its benchmark CSV, and the
    validation count of the set's core CSVs."""
    out = []
    for name in names:
        for folder, csvs in sets(name):
            bench_name, rows = benchmark(name, folder, csvs)
            ours = [r for r in rows if r["validated"] == "1" and r["is_baseline"] != "1" and passed(r)
                    and r.f("speedup_vs_baseline")]
            if not ours:
                continue
            largest = max(size(r)[0] for r in ours)
            best = max((r for r in ours if size(r)[0] == largest), key=lambda r: r.f("speedup_vs_baseline"))
            base = next((r for r in rows if r["is_baseline"] == "1" and size(r)[0] == largest), Row())
            scope = base.get("kernel_ms_scope", "kernels") or "kernels"
            library = base.get("version", "") + ("" if scope == "kernels" else f", {scope}")
            runs = best.get("repeat", "")
            out.append(Row(best, assignment=f"[{name}]({name}/README.md)", name=name, size_label=size(best)[1],
                           slower=slower(rows, best), library=library,
                           best_at=f"{best['version']}, {size(best)[1]}",
                           csv=os.path.relpath(os.path.join(folder, bench_name), ROOT)
                           + (f" ({runs} runs)" if runs else ""),
                           checks=validation([r for part in csvs.values() for r in part]),
                           bench_path=os.path.join(folder, bench_name),
                           core_paths=[os.path.join(folder, c) for c in csvs]))
    return out


def stale_row(path):
    """provenance.stale_row; for a copy of the results outside any checkout (--root DIR), against
    the code of the repository that holds this script."""
    if provenance.locate(path):
        return provenance.stale_row(path)
    return provenance.stale_row(path, provenance.ROOT, os.path.relpath(path, ROOT).split(os.sep)[0])


def stale_note(paths):
    """The stale lines of a table drawn from these CSV paths: one per folder and commit (see the
    module's docstring); '' when none is stale."""
    lines, folders = [], {}
    for path in dict.fromkeys(paths):
        if provenance.manifest_row(path):
            folders.setdefault(os.path.dirname(path), []).append(path)
    for folder, files in folders.items():
        made = {}
        for path in files:
            row = stale_row(path)
            if row:
                made.setdefault(provenance.made_by(row), []).append(os.path.basename(path))
        where = os.path.relpath(folder, ROOT).replace(os.sep, "/") + "/"
        for by, names in made.items():
            what = where if len(made) == 1 and len(names) == len(files) else where + " " + ", ".join(names)
            line = f"stale: {what} {by}; {provenance.STALE_WORDS}"
            lines.append(line if len(line) <= 100 else line.replace(provenance.STALE_WORDS, "its code has changed since"))
    return "\n".join(lines)


class NotedTable(Table):
    """A table of rows computed beforehand, followed by the stale lines of the CSVs they came from."""

    def __init__(self, name, rows, columns, sources, empty=None):
        super().__init__(name, lambda d: rows, columns, empty=empty)
        self.sources = sources

    def render(self, results_dir):
        note = stale_note(self.sources)
        return super().render(results_dir) + (f"\n{note}\n" if note else "")


def slower(rows, best):
    """The rows of the best version, in its file, that are slower than their baseline."""
    return [r for r in rows if r["file"] == best["file"] and r["version"] == best["version"] and passed(r)
            and r.f("speedup_vs_baseline") is not None and r.f("speedup_vs_baseline") < 1]


def side_by_side(best):
    """One row per assignment, a column group per GPU (named by the CSVs' device column)."""
    devices = list(dict.fromkeys(r["device"] for r in best))
    rows = {}
    for r in best:
        row = rows.setdefault(r["name"], Row(assignment=r["assignment"]))
        row[r["device"]] = f"{r['version']}, {r['size_label']}: {r.f('speedup_vs_baseline'):.2f}×"
    return list(rows.values()), [Col("assignment")] + [Col(d, f"{d}: best version, size: × library") for d in devices]


def tables(names):
    best = best_rows(names)
    pairs, pair_cols = side_by_side(best)
    behind = [Row(s, assignment=b["assignment"], size_label=size(s)[1]) for b in best for s in b["slower"]]
    benchmarks, core = [b["bench_path"] for b in best], [p for b in best for p in b["core_paths"]]
    return [
        NotedTable("results-summary", best, [
            Col("assignment"), Col("device", "GPU"), Col("best_at", "best version, size"),
            Col("kernel_ms", "kernel (ms)", "{:.4f}"),
            Col(lambda r: f"{r.f('baseline_ms'):.4f}" + (f" ({r['library']})" if r["library"] else ""), "library (ms)"),
            Col("speedup_vs_baseline", "× library", "{:.2f}"), Col("pct_of_copy_bw", "% of copy", "{:.1f}"),
            Col("checks", "validation (every core CSV of the set)"), Col("csv", "benchmark CSV")], core),
        NotedTable("side-by-side", pairs, pair_cols, benchmarks),
        NotedTable("slower-than-library", behind, [
            Col("assignment"), Col("device", "GPU"), Col("version"), Col("size_label", "size"),
            Col(lambda r: 1000 * r.f("kernel_ms"), "version (µs)", "{:.2f}"),
            Col(lambda r: 1000 * r.f("baseline_ms"), "library (µs)", "{:.2f}"),
            Col("speedup_vs_baseline", "× library", "{:.3f}")], benchmarks,
            empty="(none: every best version is at least as fast as its library at every size of its CSVs)"),
    ]


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--root"] and len(args) > 1:
        ROOT, args = os.path.abspath(args[1]), args[2:]
    if not args:
        sys.exit("usage: results_summary.py [--root DIR] ASSIGNMENT...")
    fill_docs(tables(args), ROOT, ROOT)
