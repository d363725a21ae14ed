"""Markdown tables for the READMEs, regenerated from results CSVs by `make plots`.

An assignment's tables.py builds its tables with these helpers and replaces the text
between `<!-- BEGIN name -->` and `<!-- END name -->` in its README.md:

    import sys, os; sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "common"))
    from readme_tables import read_csv, md_table, replace_block
    rows = read_csv("results/sweep.csv")
    text = md_table(rows, [("threads", "threads/block", "{}"), ("kernel_ms", "kernel (ms)", "{:.3f}")])
    replace_block("README.md", "sweep-table", text)
"""
import csv
import sys


def read_csv(path):
    """Rows of a CSV with a header, as dicts of strings."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def fmt(value, spec):
    """Formats a CSV cell: numeric specs ({:.3f}) convert to float, empty cells stay empty."""
    if value is None or value == "":
        return ""
    if callable(spec):
        return spec(value)
    if any(c in spec for c in "efgd%"):
        try:
            number = float(value)
        except ValueError:
            return value
        if "d" in spec:
            number = int(number)
        return spec.format(number)
    return spec.format(value)


def md_table(rows, columns, bold=None):
    """columns: (key, heading, format) triples; key may be a function of the row.
    bold(row) -> True marks the whole row in bold."""
    head = "| " + " | ".join(c[1] for c in columns) + " |"
    rule = "| " + " | ".join("---:" for _ in columns) + " |"
    lines = [head, rule]
    for row in rows:
        cells = []
        for key, _, spec in columns:
            value = key(row) if callable(key) else row.get(key, "")
            text = fmt(value, spec)
            cells.append(f"**{text}**" if bold and bold(row) and text else text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def replace_block(readme, name, text):
    """Replaces what stands between the BEGIN/END markers of `name`; a missing marker is an error."""
    begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
    with open(readme) as f:
        content = f.read()
    i, j = content.find(begin), content.find(end)
    if i < 0 or j < i:
        sys.exit(f"{readme}: markers for '{name}' not found")
    content = content[: i + len(begin)] + "\n" + text.rstrip() + "\n" + content[j:]
    with open(readme, "w") as f:
        f.write(content)
