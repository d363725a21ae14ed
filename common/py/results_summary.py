"""The results summary of the top README.md, regenerated from every assignment's results/*.csv.

    python3 common/py/results_summary.py README.md vecmax pi scan colreduce reduction_versions

(`make summary`, run by `make plots` and `make report`.) It rewrites what stands between
`<!-- BEGIN results-summary -->` and `<!-- END results-summary -->` with one row per
assignment: at the largest problem size of its CSVs, its fastest version that passed
validation, against the library baseline timed in the same run (the speedup_vs_baseline
column: baseline_ms / kernel_ms of the same run), its bandwidth and the percentage of the
device-to-device copy bandwidth measured in that run (pct_of_copy_bw), the device, the date
(a date column if the CSV has one, else the date of the commit that last changed the file
when it is unmodified, else the file's modification time) and a link to the README.
An assignment with no results yet gets a row that says so. Every device name comes from the
CSVs' device column (the side-by-side table's columns are named by it): after a student's run on
another GPU, the regenerated text names that GPU.
"""
import csv
import datetime
import glob
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in common/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from readme_tables import md_table, replace_block, wrap  # noqa: E402

BLOCK = "results-summary"
# The core columns every program writes (common/README.md, "CSV"): which rows are library
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


def result_sets(folder):
    """The folders of one assignment's results: results/ (the first GPU) and each results/TAG/
    that holds CSVs (another GPU's run, CW_RESULTS_SUBDIR=TAG), as (tag, path); tag "" first."""
    base = os.path.join(folder, "results")
    sets = [("", base)]
    for sub in sorted(glob.glob(os.path.join(base, "*", ""))):
        if glob.glob(os.path.join(sub, "*.csv")):
            sets.append((os.path.basename(os.path.normpath(sub)), os.path.normpath(sub)))
    return sets


def short_device(name):
    """'NVIDIA H100 80GB HBM3' -> 'H100': the first word after the vendor."""
    words = [w for w in str(name).split() if w.upper() not in ("NVIDIA", "TESLA", "GEFORCE")]
    return words[0] if words else str(name)


def set_device(entries, tag):
    """The short name of the device most rows of one results set name (e.g. 'H100'), else the
    folder's name: the CSVs say which GPU ran, never this script."""
    devices = [e.get("device", "") for e in entries.values() if e.get("device")]
    return short_device(max(set(devices), key=devices.count)) if devices else (tag or "results")


def full_device(entries):
    devices = [e.get("device", "") for e in entries.values() if e.get("device")]
    return max(set(devices), key=devices.count) if devices else "device not named in the CSVs"


def behind(rows, best):
    """Sizes at which the best version is slower than its baseline in the same file (same
    size, same mode): [(size label, ratio, version ms, baseline ms, scopes)]."""
    out = []
    for r in rows:
        if r["_file"] != best["_file"] or r["version"] != best["version"] or not passed(r):
            continue
        ratio = number(r.get("speedup_vs_baseline"))
        if ratio is None or ratio >= 1.0:
            continue
        base = [b for b in rows if flag(b, "is_baseline") and b["_file"] == r["_file"] and size_of(b)[0] == size_of(r)[0]
                and b.get("mode", "") == r.get("mode", "")]
        scope = r.get("kernel_ms_scope", "kernels") or "kernels"
        base_scope = (base[0].get("kernel_ms_scope", "kernels") or "kernels") if base else "kernels"
        out.append((size_of(r)[0], size_of(r)[1] + (f" ({r['mode']})" if r.get("mode") else ""), ratio,
                    number(r.get("kernel_ms")), number(r.get("baseline_ms")),
                    scope if scope != base_scope else ""))
    return sorted(out)


def summarize(folder, readme_dir, results=None):
    """One summary row (a dict) for an assignment folder, from results/ or another set."""
    name = os.path.basename(os.path.normpath(folder))
    link = os.path.relpath(os.path.join(folder, "README.md"), readme_dir)
    entry = {"assignment": f"[{name}]({link})", "name": name}
    rows = []
    for path in sorted(glob.glob(os.path.join(results or os.path.join(folder, "results"), "*.csv"))):
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
        "behind": behind(rows, best),
    })
    return entry


def side_by_side(folders, by_tag):
    """With more than one results set: the best versions of every set in one row per
    assignment (each at its own largest size)."""
    tags = sorted(by_tag, key=lambda t: (t != "", t))
    if len(tags) < 2:
        return ""
    rows, columns = [], ["assignment"]
    names = {}
    for tag in tags:
        names[tag] = set_device(by_tag[tag], tag)
    for tag in tags:
        # Columns named by the device the CSVs name (the folder only where two sets share one).
        label = names[tag]
        if list(names.values()).count(label) > 1:
            label += f" (`results/{tag}/`)" if tag else " (`results/`)"
            names[tag] = label
        columns += [(f"version_{tag}", f"{label}: best version, size", "{}"),
                    (f"speedup_{tag}", f"{label}: speed-up", "{:.2f}×"),
                    (f"pct_{tag}", f"{label}: % of copy", "{:.1f} %")]
    for folder in folders:
        name = os.path.basename(os.path.normpath(folder))
        first = next((by_tag[t][name] for t in tags if name in by_tag[t]), None)
        if first is None:
            continue
        row = {"assignment": first["assignment"]}
        for tag in tags:
            e = by_tag[tag].get(name, {})
            if "speedup" in e:
                row[f"version_{tag}"] = f"{e['version']}, {e['size']}"
                row[f"speedup_{tag}"] = e["speedup"]
                row[f"pct_{tag}"] = e["pct"]
            else:
                row[f"version_{tag}"] = "no results"
        rows.append(row)
    return ("\n\n" + wrap("**" + " and ".join(names[t] for t in tags) + " side by side** (the same programs and "
                          "sizes on each GPU; % of copy: of that GPU's own device-to-device copy, measured in the "
                          "same run):") + "\n\n" + md_table(rows, columns))


def behind_text(entries):
    """Where a best version is slower than its library at some size of its file, per GPU."""
    items = []
    for e in entries:
        for _, size, ratio, ms, base_ms, scope in e.get("behind", []):
            what = f"{ms * 1000:.1f} µs against {base_ms * 1000:.1f} µs" if ms and base_ms else ""
            if scope:
                what += f"; its time includes {scope}, the library's only its kernels"
            items.append(f"{e['name']} `{e['version']}` on {short_device(e.get('device', ''))}: "
                         f"{ratio:.3f}× at {size} ({what})")
    if not items:
        return "\n\nAt every size of its file, each best version is at least as fast as its library on every GPU."
    return ("\n\n" + wrap("Where a best version is slower than its library at another size of the same file "
                          "(generated from the CSVs):") + "\n\n" + "\n".join(wrap(f"- {i}", "", "  ") for i in items))


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
    # One row per assignment and results set (GPU): the sets of one assignment adjacent.
    entries, by_tag = [], {}
    for folder in folders:
        for tag, path in result_sets(folder):
            entry = summarize(folder, readme_dir, path)
            if tag and "speedup" not in entry:
                continue
            entries.append(entry)
            by_tag.setdefault(tag, {})[entry["name"]] = entry
    columns = [
        "assignment",
        ("version", "best version", "{}"),
        "size",
        ("kernel_ms", "kernel (ms)", "{:.4g}"),
        ("baseline", "library baseline", "{}"),
        ("baseline_ms", "baseline (ms)", "{:.4g}"),
        ("speedup", "speed-up vs baseline", "{:.2f}×"),
        ("bandwidth", "bandwidth (GB/s)", "{:.1f}"),
        ("pct", "% of copy bandwidth", "{:.1f} %"),
        "device",
        "date",
        ("checks", "validation", "{}"),
    ]
    tags = sorted(by_tag, key=lambda t: (t != "", t))
    where = [f"`{t and 'results/' + t + '/' or 'results/'}` ({full_device(by_tag[t])})" for t in tags
             if any("speedup" in e for e in by_tag[t].values())]
    if entries:
        text = wrap("Generated from the CSVs of " + (" and ".join(where) if where else "no run yet")
                    + " of each assignment: after your own run, this table names your GPU.") + "\n\n"
        text += md_table(entries, columns)
        text += "\n\n" + wrap("Best version: the fastest one that passed validation at the largest size in the "
                 "assignment's `results/*.csv`; speed-up = baseline time / kernel time, both measured in "
                 "the same run; % of copy bandwidth: of the device-to-device copy measured in that run "
                 "(empty where bandwidth means nothing, as for pi; above 100 % for a kernel that only reads, since the "
                 "copy's reads and writes share the memory bus). Validation counts every row of the CSVs; "
                 "a version listed there failed somewhere; rows marked `validated = 0` are demonstrations "
                 "(a report's racy or buggy original, wrong by design), counted apart. The baseline is the row "
                 "marked `is_baseline = 1`; where its time covers more than its kernels, the parentheses say "
                 "what (`kernel_ms_scope`).")
        text += side_by_side(folders, by_tag)
        text += behind_text(entries)
    else:
        text = "(no assignment folders given)"
    replace_block(readme, BLOCK, text)
    # One line: assignments (not rows: an assignment has one row per GPU) and the GPUs' folders.
    with_results = [os.path.basename(os.path.normpath(f)) for f in folders
                    if any("speedup" in by_tag[t].get(os.path.basename(os.path.normpath(f)), {}) for t in by_tag)]
    missing = [os.path.basename(os.path.normpath(f)) for f in folders
               if os.path.basename(os.path.normpath(f)) not in with_results]
    gpus = len(where)
    print(f"results_summary: {readme}: {len(with_results)} of {len(folders)} assignments with results, "
          f"{gpus} GPU{'s' if gpus != 1 else ''}" + (": " + " and ".join(where).replace("`", "") if where else "")
          + (f"; no results yet: {', '.join(missing)}" if missing else ""))


if __name__ == "__main__":
    main(sys.argv)
