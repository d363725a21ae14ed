"""The results summary of the top README.md, regenerated from every assignment's results/*.csv.

    python3 common/results_summary.py README.md vecmax pi scan colreduce reduction_versions

(`make summary`, run by `make plots` and `make report`.) It rewrites what stands between
`<!-- BEGIN results-summary -->` and `<!-- END results-summary -->` with one row per
assignment: at the largest problem size of its CSVs, its fastest version that passed
validation, against the library baseline timed in the same run (the speedup_vs_baseline
column: baseline_ms / kernel_ms of the same run), its bandwidth and the percentage of the
device-to-device copy bandwidth measured in that run (pct_of_copy_bw), the device, the date
(a date column if the CSV has one, else the date of the commit that last changed the file
when it is unmodified, else the file's modification time) and a link to the README.
An assignment with no results yet gets a row that says so.
"""
import csv
import datetime
import glob
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in common/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from readme_tables import md_table, replace_block  # noqa: E402

BLOCK = "results-summary"
# The core columns every program writes (README.md, "CSV"): which rows are library
# baselines and which are demonstrations comes from them, never from a version's name.
REQUIRED = {"version", "validated", "is_baseline", "kernel_ms", "speedup_vs_baseline", "result_ok"}
DATE_COLUMNS = ("date", "timestamp", "run_date")


def number(value):
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if x == x else None  # NaN is no number


def flag(row, column):
    return str(row.get(column, "")).strip() == "1"


def passed(row):
    return str(row.get("result_ok", "")).strip().lower() in ("1", "true", "pass", "yes", "ok")


def size_of(row):
    """(elements, label): n, or m x n where the CSV has both."""
    m, n = number(row.get("m")), number(row.get("n"))
    if m is not None and n is not None:
        return m * n, f"{int(m):,} × {int(n):,}"
    if n is not None:
        return n, f"n = {int(n):,}"
    return 0, ""


def file_date(path):
    """The last commit's date when the file is committed and unmodified, else its mtime."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        dirty = subprocess.run(["git", "status", "--porcelain", "--", os.path.basename(path)], cwd=folder,
                               capture_output=True, text=True, timeout=10)
        if dirty.returncode == 0 and not dirty.stdout.strip():
            log = subprocess.run(["git", "log", "-1", "--format=%cs", "--", os.path.basename(path)], cwd=folder,
                                 capture_output=True, text=True, timeout=10)
            if log.returncode == 0 and log.stdout.strip():
                return log.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return datetime.date.fromtimestamp(os.path.getmtime(path)).isoformat()


def read_rows(path):
    """Rows of one CSV that has the required columns, each with its file; [] otherwise."""
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            if not reader.fieldnames or not REQUIRED.issubset(reader.fieldnames):
                return []
            rows = list(reader)
    except (OSError, csv.Error, UnicodeDecodeError) as e:
        print(f"results_summary: skipping {path}: {e}", file=sys.stderr)
        return []
    for row in rows:
        row["_file"] = path
    return rows


def summarize(folder, readme_dir):
    """One summary row (a dict) for an assignment folder."""
    name = os.path.basename(os.path.normpath(folder))
    link = os.path.relpath(os.path.join(folder, "README.md"), readme_dir)
    entry = {"assignment": f"[{name}]({link})"}
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, "results", "*.csv"))):
        rows += read_rows(path)
    # Rows marked validated = 0 are demonstrations that are wrong by design (a racy kernel):
    # they are counted apart, never as PASS or FAIL, and never picked as the best version.
    demos = [r for r in rows if not flag(r, "validated")]
    checked = [r for r in rows if flag(r, "validated")]
    ours = [r for r in checked if not flag(r, "is_baseline")]
    if not ours:
        entry["version"] = "no results yet"
        return entry
    failed = [r for r in checked if not passed(r)]
    entry["checks"] = f"all {len(checked)} rows PASS"
    if failed:
        names = ", ".join(sorted({r["version"].strip() for r in failed}))
        entry["checks"] = f"{len(failed)} of {len(checked)} rows FAIL ({names})"
    if demos:
        names = ", ".join(sorted({r["version"].strip() for r in demos}))
        entry["checks"] += f"; {len(demos)} rows of demonstrations, not validated ({names})"
    candidates = [r for r in ours if passed(r) and number(r["speedup_vs_baseline"]) is not None]
    if not candidates:
        entry["version"] = "no version passed with a baseline ratio"
        return entry
    largest = max(size_of(r)[0] for r in candidates)
    at_size = [r for r in candidates if size_of(r)[0] == largest]
    best = max(at_size, key=lambda r: number(r["speedup_vs_baseline"]))
    # The baseline of the same file and size, with what its kernel_ms covers where that is
    # more than the kernels (kernel_ms_scope: pi's Thrust call includes its allocation, say).
    baseline_names = sorted({r["version"].strip() + (f" ({r['kernel_ms_scope']})"
                                                     if r.get("kernel_ms_scope", "kernels") not in ("", "kernels") else "")
                             for r in rows
                             if flag(r, "is_baseline") and r["_file"] == best["_file"] and size_of(r)[0] == largest})
    date = next((best[c] for c in DATE_COLUMNS if best.get(c)), None) or file_date(best["_file"])
    entry.update({
        "version": best["version"],
        "size": size_of(best)[1],
        "kernel_ms": best.get("kernel_ms", ""),
        "baseline": "/".join(baseline_names) or "library",
        "baseline_ms": best.get("baseline_ms", ""),
        "speedup": best["speedup_vs_baseline"],
        # An empty cell means "not applicable" (pi moves no data worth counting).
        "bandwidth": best.get("bandwidth_GBps", ""),
        "pct": best.get("pct_of_copy_bw", ""),
        "device": best.get("device", ""),
        "date": date,
        "source": os.path.relpath(best["_file"], readme_dir),
    })
    return entry


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: results_summary.py README.md [ASSIGNMENT_FOLDER ...]")
    readme, folders = argv[1], argv[2:]
    try:
        with open(readme) as f:
            content = f.read()
    except OSError as e:
        sys.exit(f"results_summary: cannot read {readme}: {e.strerror}")
    begin, end = f"<!-- BEGIN {BLOCK} -->", f"<!-- END {BLOCK} -->"
    if begin not in content or end not in content or content.find(end) < content.find(begin):
        sys.exit(f"results_summary: {readme} has no '{begin}' ... '{end}' block; "
                 f"add the two marker lines where the summary belongs")
    readme_dir = os.path.dirname(os.path.abspath(readme))
    entries = [summarize(folder, readme_dir) for folder in folders]
    columns = [
        ("assignment", "assignment", "{}"),
        ("version", "best version", "{}"),
        ("size", "size", "{}"),
        ("kernel_ms", "kernel (ms)", "{:.4g}"),
        ("baseline", "library baseline", "{}"),
        ("baseline_ms", "baseline (ms)", "{:.4g}"),
        ("speedup", "speed-up vs baseline", "{:.2f}×"),
        ("bandwidth", "bandwidth (GB/s)", "{:.1f}"),
        ("pct", "% of copy bandwidth", "{:.1f} %"),
        ("device", "device", "{}"),
        ("date", "date", "{}"),
        ("checks", "validation", "{}"),
    ]
    if entries:
        text = md_table(entries, columns)
        text += ("\n\nBest version: the fastest one that passed validation at the largest size in the "
                 "assignment's `results/*.csv`; speed-up = baseline time / kernel time, both measured in "
                 "the same run; % of copy bandwidth: of the device-to-device copy measured in that run "
                 "(empty where bandwidth means nothing, as for pi). Validation counts every row of the CSVs; "
                 "a version listed there failed somewhere; rows marked `validated = 0` are demonstrations "
                 "(a report's racy or buggy original, wrong by design), counted apart. The baseline is the row "
                 "marked `is_baseline = 1`; where its time covers more than its kernels, the parentheses say "
                 "what (`kernel_ms_scope`).")
    else:
        text = "(no assignment folders given)"
    replace_block(readme, BLOCK, text)
    done = sum(1 for e in entries if "speedup" in e)
    print(f"results_summary: {readme}: {done} of {len(entries)} assignments with results")


if __name__ == "__main__":
    main(sys.argv)
