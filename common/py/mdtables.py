"""Markdown tables from results CSVs: the only generated part of a README.

An assignment's tables.py declares its tables and calls run():

    TABLES = [Table("sweep", "sweep.csv", [Col("threads", "threads/block"),
                    Col("kernel_ms", "kernel (ms)", "{:.3f}")], where={"version": "report"})]
    if __name__ == "__main__":
        run(TABLES)

    python3 tables.py                          fill README.md (and DETAILS.md) from results/
    python3 tables.py RESULTS_DIR --out F.md   every table of a run into F.md (a user's own run)

In a document, a table stands between `<!-- BEGIN name -->` and `<!-- END name -->`; it is
replaced whole, with at most a two-line caption of fixed words. A table drawn from a CSV whose
code changed since it was made (stale: common/py/provenance.py) ends with a generated line
"stale: made by <commit> (<date>); the code that decides it has changed since" (one per stale
CSV, naming it, where the table reads more than one). A block without a declared table, or a
declared table without a block, stops the run. Files are written atomically and only when
their content changes.
"""
import csv
import math
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import provenance  # noqa: E402

DOCS = ("README.md", "DETAILS.md")
BLOCK = re.compile(r"(<!-- BEGIN ([\w.-]+) -->\n)(.*?)(<!-- END \2 -->)", re.S)


class Row(dict):
    """A CSV row (strings by column); f(column) is the cell as a float, None when it is empty,
    missing or not a number."""

    def f(self, column):
        try:
            x = float(self.get(column, ""))
        except (TypeError, ValueError):
            return None
        return None if math.isnan(x) else x


LOADED = []  # every CSV load() has read since Table.render began: the table's sources


def load(results_dir, name):
    """The rows of results_dir/name ([] when the file is not there); '#' lines are comments."""
    path = os.path.join(results_dir, name)
    if not os.path.exists(path):
        return []
    LOADED.append(path)
    with open(path, newline="") as f:
        return [Row(r) for r in csv.DictReader(line for line in f if not line.startswith("#"))]


def value_of(source, row):
    """A column's cell, or a function of the row (None when it cannot be computed)."""
    if callable(source):
        try:
            return source(row)
        except (TypeError, ZeroDivisionError, ValueError, KeyError):
            return None
    return row.get(source)


def series_of(rows, column):
    """The distinct values of a column, in the order they first appear."""
    return list(dict.fromkeys(value_of(column, r) for r in rows))


def pivot(rows, key, series, value):
    """One Row per distinct key (first-seen order), with the key column and one column per
    distinct series value holding value (a column or a function of the row)."""
    out = {}
    for r in rows:
        k = value_of(key, r)
        row = out.setdefault(k, Row({key if isinstance(key, str) else "key": k}))
        row[value_of(series, r)] = value_of(value, r)
    return list(out.values())


class Col:
    """A table column: source (a CSV column or a function of the row), heading, format (a
    format string such as "{:.3f}" or a function of the value)."""

    def __init__(self, source, heading=None, fmt="{}"):
        self.source, self.fmt = source, fmt
        self.heading = heading if heading is not None else str(source)

    def cell(self, row):
        v = value_of(self.source, row)
        if v is None or v == "":
            return "–"
        if callable(self.fmt):
            return str(self.fmt(v))
        if isinstance(v, str) and ":" in self.fmt:  # a numeric format: the cell as a number
            try:
                v = float(v)
            except ValueError:
                return v
        if isinstance(v, float):
            if math.isnan(v):
                return "–"
            if v.is_integer() and "." not in self.fmt and not re.search(r"[eEfFgG%]\}", self.fmt):
                v = int(v)
        return self.fmt.format(v)


class Table:
    """A declared table: block name, source (a CSV name relative to the results folder, or a
    function of the results folder returning rows), columns (a list of Col, or a function of
    the rows returning one), where (a dict column -> value or set of values, or a function of
    the row), sort (a key function), caption (at most two lines of fixed words), empty (the
line printed instead of a table without rows; default: "(no data: ...)")."""

    def __init__(self, name, source, columns, where=None, sort=None, caption=None, empty=None):
        if caption and caption.count("\n") > 1:
            raise ValueError(f"table {name}: a caption has at most two lines")
        self.name, self.source, self.columns = name, source, columns
        self.where, self.sort, self.caption, self.empty = where, sort, caption, empty

    def rows(self, results_dir):
        rows = self.source(results_dir) if callable(self.source) else load(results_dir, self.source)
        if isinstance(self.where, dict):
            want = {k: v if isinstance(v, (set, frozenset, list, tuple)) else {v}
                    for k, v in self.where.items()}
            rows = [r for r in rows if all(r.get(k) in vs for k, vs in want.items())]
        elif self.where:
            rows = [r for r in rows if self.where(r)]
        return sorted(rows, key=self.sort) if self.sort else rows

    def render(self, results_dir):
        del LOADED[:]
        rows = self.rows(results_dir)
        if not rows and self.empty:
            return self.empty + "\n"
        if not rows:
            what = self.source if isinstance(self.source, str) else "its CSVs"
            return f"(no data: {what} has no rows for this table in this run)\n"
        cols = self.columns(rows) if callable(self.columns) else self.columns
        lines = ["| " + " | ".join(c.heading for c in cols) + " |",
                 "|" + "|".join(" --- " for _ in cols) + "|"]
        lines += ["| " + " | ".join(c.cell(r).replace("|", "\\|") for c in cols) + " |" for r in rows]
        text = "\n".join(lines) + "\n"
        stale = provenance.note(LOADED, results_dir)  # after the columns: they may read CSVs too
        return text + (f"\n{self.caption}\n" if self.caption else "") + (f"\n{stale}\n" if stale else "")


def write_if_changed(path, text):
    """Writes text to path atomically, and only when it differs (so mtimes and git stay quiet)."""
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return False
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".tmp.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return True


def fill(doc_text, tables, results_dir, doc_name):
    """doc_text with every block replaced by its table; the names of the blocks it holds."""
    found = []

    def repl(m):
        name = m.group(2)
        if name not in tables:
            sys.exit(f"tables.py: {doc_name} has a block '{name}' that no table declares")
        found.append(name)
        return m.group(1) + tables[name].render(results_dir) + m.group(4)
    return BLOCK.sub(repl, doc_text), found


def fill_docs(tables, results_dir, folder):
    """Fills README.md and DETAILS.md of folder; every declared table must have a block."""
    by_name, seen = {t.name: t for t in tables}, []
    for doc in DOCS:
        path = os.path.join(folder, doc)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            text, found = fill(f.read(), by_name, results_dir, doc)
        seen += found
        if write_if_changed(path, text):
            print(f"tables.py: updated {os.path.relpath(path)}")
    missing = [n for n in by_name if n not in seen]
    if missing:
        sys.exit(f"tables.py: no block in {' or '.join(DOCS)} for table(s) {', '.join(missing)}")


def write_run(tables, results_dir, out):
    """Every table of one run, each under its name, into a Markdown file of its own."""
    parts = [f"# Tables of the run in {os.path.relpath(results_dir)}\n"]
    parts += [f"\n## {t.name}\n\n{t.render(results_dir)}" for t in tables]
    if write_if_changed(out, "".join(parts)):
        print(f"tables.py: wrote {out}")


def run(tables, argv=None):
    """The command line of every tables.py (see the module's docstring)."""
    argv = sys.argv[1:] if argv is None else argv
    folder = os.path.dirname(os.path.abspath(sys.modules["__main__"].__file__))
    out = None
    if "--out" in argv:
        i = argv.index("--out")
        if i + 1 >= len(argv):
            sys.exit("usage: tables.py [RESULTS_DIR] [--out FILE.md]")
        out = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) > 1:
        sys.exit("usage: tables.py [RESULTS_DIR] [--out FILE.md]")
    results_dir = argv[0] if argv else os.path.join(folder, "results")
    if not os.path.isdir(results_dir):
        sys.exit(f"tables.py: no results folder {results_dir}")
    if out:
        write_run(tables, results_dir, out)
    else:
        fill_docs(tables, results_dir, folder)
