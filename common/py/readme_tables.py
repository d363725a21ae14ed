"""Markdown tables for the READMEs, regenerated from results CSVs by `make plots`.

An assignment's tables.py builds its tables with these helpers and replaces the text
between `<!-- BEGIN name -->` and `<!-- END name -->` in its README.md:

    import sys, os; sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "common", "py"))
    from readme_tables import read_csv, md_table, replace_block
    rows = read_csv("results/sweep.csv")
    text = md_table(rows, ["version", ("threads", "threads/block", "{}"), ("kernel_ms", "kernel (ms)", "{:.3f}")])
    replace_block("README.md", "sweep-table", text)
"""
import csv
import math
import os
import re
import sys
import tempfile
import textwrap

sys.dont_write_bytecode = True


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
    """columns: (key, heading, format) triples; key may be a function of the row. A column
    given as a key alone ("version") is shown as it is under its own name: (key, key, "{}").
    bold(row) -> True marks the whole row in bold."""
    columns = [(c, c, "{}") if isinstance(c, str) else c for c in columns]
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


def num(value):
    """A CSV cell as a float; None for an empty (not applicable) or non-numeric cell."""
    if value is None or value == "":
        return None
    try:
        x = float(value)
    except ValueError:
        return None
    return None if math.isnan(x) else x


def ratio(a, b):
    """a / b for two CSV cells or numbers; None when either is missing or not a number, or
    when b is zero: a ratio of counters that were not counted (0 / 0, x / 0) is no
    measurement, and a verdict must not be drawn from it (see verdict())."""
    a = num(a) if isinstance(a, str) or a is None else float(a)
    b = num(b) if isinstance(b, str) or b is None else float(b)
    if a is None or b is None or b == 0:
        return None
    return a / b


def verdict(holds, why_not_judged="the counters it rests on are zero or missing here"):
    """The verdict word of a claims table: holds is True, False or None (not measurable:
    a ratio() that gave None, a counter the GPU does not report). None never passes."""
    if holds is None:
        return f"cannot be judged here ({why_not_judged})"
    return "holds" if holds else "does not hold"


def compare(x, op, threshold):
    """x op threshold for a measured x that may be None (not measurable): None stays None,
    so that `verdict(compare(ratio(a, b), ">", 2))` cannot turn 0 / 0 into "holds"."""
    if x is None:
        return None
    return {">": x > threshold, ">=": x >= threshold, "<": x < threshold, "<=": x <= threshold}[op]


WIDTH = 100  # README prose columns: readable in `less` on a login node (py/readme_lint.py checks)


def wrap(text, first="", rest=None):
    """Generated Markdown prose wrapped at WIDTH: `first` indents the first line, `rest` the
    others (default: as wide as `first`). No continuation line may start like a list item, a
    heading, a quote or a table row (Markdown would make it one), so such a break is moved by
    narrowing the width."""
    rest = " " * len(first) if rest is None else rest
    for width in range(WIDTH, WIDTH - 20, -1):
        lines = textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest,
                              break_long_words=False, break_on_hyphens=False)
        if not any(re.match(r"\s*([-+*] |\d+[.)] |#|>|\|)", line) for line in lines[1:]):
            break
    return "\n".join(lines)


def rows_where(rows, **conditions):
    """The rows whose columns equal the given strings (version="8", n="8388608")."""
    return [r for r in rows if all(r.get(k) == str(v) for k, v in conditions.items())]


def one_row(rows, **conditions):
    """The single row matching; an error naming the conditions when there is none or several."""
    found = rows_where(rows, **conditions)
    if len(found) != 1:
        sys.exit(f"expected one row with {conditions}, found {len(found)}")
    return found[0]


def write_atomically(path, content):
    """Replaces `path` with `content` through a temporary file in the same folder: an
    interrupted run never leaves a truncated README."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp.", suffix=os.path.basename(path))
    try:
        with os.fdopen(fd, "w") as f:
            f.write(content)
        os.chmod(tmp, os.stat(path).st_mode & 0o7777 if os.path.exists(path) else 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class Readme:
    """A README whose generated parts are replaced in memory and written once (save()):
      blocks  <!-- BEGIN name --> ... <!-- END name -->      (tables)
      values  <!-- v:name -->text<!-- /v -->                 (numbers in prose)
    A missing marker is an error; so is a value marker left unset by the script (check())."""

    def __init__(self, path):
        self.path = path
        with open(path) as f:
            self.content = f.read()
        self.set_values = set()

    def block(self, name, text):
        begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
        i, j = self.content.find(begin), self.content.find(end)
        if i < 0 or j < i:
            sys.exit(f"{self.path}: markers for '{name}' not found")
        self.content = self.content[: i + len(begin)] + "\n" + text.rstrip() + "\n" + self.content[j:]

    def value(self, name, text):
        begin, end = f"<!-- v:{name} -->", "<!-- /v -->"
        start, count = 0, 0
        while True:
            i = self.content.find(begin, start)
            if i < 0:
                break
            j = self.content.find(end, i)
            if j < 0:
                sys.exit(f"{self.path}: value '{name}' has no end marker")
            self.content = self.content[: i + len(begin)] + str(text) + self.content[j:]
            start = i + len(begin) + len(str(text)) + len(end)
            count += 1
        if count == 0:
            sys.exit(f"{self.path}: value marker '{name}' not found")
        self.set_values.add(name)

    def unset_values(self):
        import re
        return sorted(set(re.findall(r"<!-- v:([\w.-]+) -->", self.content)) - self.set_values)

    def save(self):
        missing = self.unset_values()
        if missing:
            sys.exit(f"{self.path}: value markers not generated by the tables script: {', '.join(missing)}")
        write_atomically(self.path, self.content)


def replace_block(readme, name, text):
    """Replaces what stands between the BEGIN/END markers of `name` (one block, written at
    once); a missing marker is an error."""
    r = Readme(readme)
    r.block(name, text)
    write_atomically(readme, r.content)
