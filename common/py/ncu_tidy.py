"""Nsight Compute's CSV output, made tidy: one row per (version, kernel, size, metric).

    python3 common/py/ncu_tidy.py NCU.csv OUT.csv --assignment A --version V --n N
                               [--m M] [--device NAME] [--ncu-version VER] [--exclude REGEX]

NCU.csv is what `ncu --csv --log-file NCU.csv --metrics ...` wrote: the "details" layout,
one line per (kernel launch, metric) with the columns "ID", "Kernel Name", "Metric Name",
"Metric Unit", "Metric Value" (among others), or the "raw" layout (--page raw: one line per
launch, one column per metric, a second line of units). Lines before the header (ncu's
==PROF== messages) are skipped. Several launches of one kernel (a version's timing loop)
are reduced to their median, metric by metric; the `launches` column says how many. Launches
of one kernel that do different work (a recursive scan's levels, a reduction's later passes
launching the same kernel on fewer elements) are mixed by that median: restrict what ncu
profiles (--launch-count, --kernel-name) where the first pass alone is meant.
Kernels whose name matches --exclude (default: the L2 flush between timed runs) are left out.

OUT.csv gets the rows appended (header written when new):
    assignment,version,kernel,m,n,metric,unit,value,launches,device,ncu_version
(`m` is empty where the assignment has no rows dimension). Exit status 2 with one line for
a file that holds no ncu metrics.
"""
import argparse
import csv
import io
import os
import re
import statistics
import sys

sys.dont_write_bytecode = True

COLUMNS = ["assignment", "version", "kernel", "m", "n", "metric", "unit", "value", "launches", "device", "ncu_version"]


def number(text):
    """ncu prints numbers with thousands separators in some versions ("2,356,300")."""
    t = (text or "").strip().replace(",", "")
    if t in ("", "n/a", "N/A"):
        return None
    try:
        return float(t)
    except ValueError:
        return None


def short_kernel_name(name):
    """`void ns::kernel<256>(const int *, int)` -> `ns::kernel<256>`: the function with its
    template arguments, without return type, parameters or anonymous-namespace prefix. A
    template argument list with a comma (a library's policy types) becomes `<...>`, so that
    the name has no comma: gnuplot reads CSV cells without honouring quotes."""
    n = name.strip()
    if n.startswith("void "):
        n = n[5:]
    if n.endswith(")"):  # the parameter list: from the last ')' back to its matching '('
        depth = 0
        for i in range(len(n) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(n[i], 0)
            if depth == 0:
                n = n[:i].rstrip()
                break
    for prefix in ("(anonymous namespace)::", "<unnamed>::", "unnamed>::"):
        n = n.replace(prefix, "")
    return elide_template_lists_with_commas(n)


def elide_template_lists_with_commas(name):
    out, i = [], 0
    while i < len(name):
        c = name[i]
        if c == "<" and not name.startswith("<unnamed>", i):
            depth, j = 0, i
            while j < len(name):  # the matching '>'
                depth += {"<": 1, ">": -1}.get(name[j], 0)
                if depth == 0:
                    break
                j += 1
            inner = name[i:j + 1]
            out.append("<...>" if "," in inner else inner)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def parse(text):
    """[(launch id, kernel, metric, unit, value)] from ncu's CSV in either layout."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return []
    rows = list(csv.reader(io.StringIO("\n".join(lines[start:]))))
    header = rows[0]
    out = []
    if "Metric Name" in header:
        idx = {name: header.index(name) for name in ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value")}
        for r in rows[1:]:
            if len(r) < len(header):
                continue
            value = number(r[idx["Metric Value"]])
            if value is None:
                continue
            out.append((r[idx["ID"]], short_kernel_name(r[idx["Kernel Name"]]), r[idx["Metric Name"]],
                        r[idx["Metric Unit"]], value))
        return out
    # Raw layout: metric columns follow the fixed ones; the next line holds their units.
    fixed = {"ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
             "Grid Size", "Device", "CC", "Section Name"}
    metric_cols = [i for i, h in enumerate(header) if h not in fixed]
    units = rows[1] if len(rows) > 1 else []
    units_row = bool(units) and units[header.index("ID")] == ""
    for r in rows[2 if units_row else 1:]:
        if len(r) < len(header):
            continue
        for i in metric_cols:
            value = number(r[i])
            if value is not None:
                out.append((r[header.index("ID")], short_kernel_name(r[header.index("Kernel Name")]), header[i],
                            units[i] if units_row else "", value))
    return out


def tidy(records, exclude):
    """Median over the launches of each (kernel, metric), in first-seen order."""
    groups, order = {}, []
    for launch, kernel, metric, unit, value in records:
        if exclude and re.search(exclude, kernel):
            continue
        key = (kernel, metric)
        if key not in groups:
            groups[key] = {"unit": unit, "values": [], "launches": set()}
            order.append(key)
        groups[key]["values"].append(value)
        groups[key]["launches"].add(launch)
    return [(k, m, groups[(k, m)]["unit"], statistics.median(groups[(k, m)]["values"]), len(groups[(k, m)]["launches"]))
            for k, m in order]


def fmt(value):
    return str(int(value)) if value == int(value) and abs(value) < 1e15 else f"{value:.6g}"


def reshorten(path):
    """Rewrites the kernel column of an existing tidy CSV with today's short names."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            r["kernel"] = short_kernel_name(r["kernel"])
            w.writerow(r)
    os.replace(path + ".tmp", path)


def main(argv):
    if len(argv) == 3 and argv[1] == "--reshorten":
        reshorten(argv[2])
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("ncu_csv")
    p.add_argument("out_csv")
    p.add_argument("--assignment", required=True)
    p.add_argument("--version", required=True)
    p.add_argument("--n", required=True)
    p.add_argument("--m", default="")
    p.add_argument("--device", default="")
    p.add_argument("--ncu-version", default="")
    p.add_argument("--exclude", default=r"l2_flush")
    a = p.parse_args(argv[1:])
    try:
        with open(a.ncu_csv, newline="") as f:
            text = f.read()
    except OSError as e:
        sys.exit(f"ncu_tidy: cannot read {a.ncu_csv}: {e.strerror}")
    rows = tidy(parse(text), a.exclude)
    if not rows:
        print(f"ncu_tidy: {a.ncu_csv} holds no metric values of a profiled kernel", file=sys.stderr)
        return 2
    new = not os.path.exists(a.out_csv) or os.path.getsize(a.out_csv) == 0
    with open(a.out_csv, "a", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        if new:
            w.writerow(COLUMNS)
        for kernel, metric, unit, value, launches in rows:
            w.writerow([a.assignment, a.version, kernel, a.m, a.n, metric, unit, fmt(value), launches, a.device,
                        a.ncu_version])
    print(f"ncu_tidy: {len(rows)} rows for version {a.version} ({len({r[0] for r in rows})} kernel(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
