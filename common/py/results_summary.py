"""The top README's results tables, from every assignment's reference CSVs (results/ and each
results/TAG/, one GPU each): the best version of each, the GPUs side by side, and every size at
which a best version is slower than its library.

    python3 common/py/results_summary.py [--root DIR] vecmax pi scan colreduce reduction_versions

(`make summary`; --root: the folder that holds the README.md and the assignments, default the
repository's).
The best version is the fastest validated one that passed at the largest size of its
assignment's CSVs; its speed-up is the CSV's speedup_vs_baseline (baseline and version timed in
the same run). Only the core columns every program writes are read, never a version's name.
"""
import glob
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mdtables import Col, Row, Table, fill_docs, load  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CORE = {"version", "validated", "is_baseline", "kernel_ms", "speedup_vs_baseline", "result_ok"}


def passed(r):
    return r.get("result_ok", "").strip().lower() in ("1", "true", "pass", "yes", "ok")


def size(r):
    m, n = r.f("m"), r.f("n")
    return (m * n, f"{m:,.0f} × {n:,.0f}") if m and n else (n or 0, f"n = {n:,.0f}" if n else "")


def sets(name):
    """(folder, rows) of each reference set of an assignment: results/, then results/TAG/."""
    for folder in [os.path.join(ROOT, name, "results")] + sorted(glob.glob(os.path.join(ROOT, name, "results", "*/"))):
        rows = []
        for path in sorted(glob.glob(os.path.join(folder, "*.csv"))):
            part = load(folder, os.path.basename(path))
            if part and CORE <= set(part[0]):
                rows += [Row(r, file=path) for r in part]
        if rows:
            yield os.path.normpath(folder), rows


def best_rows(names):
    """One Row per (assignment, reference set): its best version and its validation count."""
    out = []
    for name in names:
        for folder, rows in sets(name):
            checked = [r for r in rows if r["validated"] == "1"]
            ours = [r for r in checked if r["is_baseline"] != "1" and passed(r) and r.f("speedup_vs_baseline")]
            failed = sorted({r["version"] for r in checked if not passed(r)})
            nfailed = sum(not passed(r) for r in checked)
            if not ours:
                continue
            largest = max(size(r)[0] for r in ours)
            best = max((r for r in ours if size(r)[0] == largest), key=lambda r: r.f("speedup_vs_baseline"))
            base = next((r for r in rows if r["is_baseline"] == "1" and r["file"] == best["file"]
                         and size(r)[0] == largest), Row())
            scope = base.get("kernel_ms_scope", "kernels") or "kernels"
            out.append(Row(best, assignment=f"[{name}]({name}/README.md)", name=name, size_label=size(best)[1],
                           results=os.path.relpath(folder, ROOT), slower=slower(rows, best),
                           baseline=base.get("version", "") + ("" if scope == "kernels" else f" ({scope})"),
                           checks=f"{len(checked) - nfailed} of {len(checked)} PASS"
                           + (f" (FAIL: {', '.join(failed)})" if failed else "")
                           + (f", {len(rows) - len(checked)} demonstration rows" if len(rows) > len(checked) else "")))
    return out


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
    return [
        Table("results-summary", lambda d: best, [
            Col("assignment"), Col("device", "GPU"), Col("version", "best version"), Col("size_label", "size"),
            Col("kernel_ms", "kernel (ms)", "{:.4f}"), Col("baseline", "library"),
            Col("baseline_ms", "library (ms)", "{:.4f}"), Col("speedup_vs_baseline", "× library", "{:.2f}"),
            Col("bandwidth_GBps", "GB/s", "{:.1f}"), Col("pct_of_copy_bw", "% of copy", "{:.1f}"),
            Col("checks", "validation"), Col("results", "CSVs")]),
        Table("side-by-side", lambda d: pairs, pair_cols),
        Table("slower-than-library", lambda d: behind, [
            Col("assignment"), Col("device", "GPU"), Col("version"), Col("size_label", "size"),
            Col(lambda r: 1000 * r.f("kernel_ms"), "version (µs)", "{:.2f}"),
            Col(lambda r: 1000 * r.f("baseline_ms"), "library (µs)", "{:.2f}"),
            Col("speedup_vs_baseline", "× library", "{:.3f}")],
            empty="(none: every best version is at least as fast as its library at every size of its CSVs)"),
    ]


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--root"] and len(args) > 1:
        ROOT, args = os.path.abspath(args[1]), args[2:]
    if not args:
        sys.exit("usage: results_summary.py [--root DIR] ASSIGNMENT...")
    fill_docs(tables(args), ROOT, ROOT)
