"""README tables and generated prose, from the results CSVs (each assignment's tables.py).

A README's generated parts stand between `<!-- BEGIN name -->` and `<!-- END name -->`. A
table is declared, not programmed: a Table names its block, its CSV, which rows (where), their
order, the columns (a CSV header name, or a small function of the row; a heading; a format),
the bold rows and a note; Readme.tables() reads the CSVs and renders them all:

    Table("sweep-table", "sweep.csv", [("threads", "threads/block"), ("kernel_ms", "kernel (ms)", "{:.3f}")],
          where={"version": "report"}, bold=lambda r: r["version"] == "report", missing=RUN)

What is an assignment's own (a claim computed from the numbers, and its verdict) stays in its
tables.py, built from ratio / compare / verdict and written as prose blocks with fill / wrap.
"""
import csv
import math
import os
import re
import sys
import tempfile
import textwrap

sys.dont_write_bytecode = True


def read_csv(path, comments=False):
    """Rows of a CSV with a header, as dicts of strings; comments: skip leading '#' lines."""
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not (comments and line.startswith("#"))))


def load(folder, name, comments=False):
    """Rows of folder/name, or None when the file does not exist (yet)."""
    path = os.path.join(folder, name)
    return read_csv(path, comments) if os.path.exists(path) else None


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


def md_table(rows, columns, bold=None, rule="---:"):
    """columns: (key, heading, format) with heading and format optional ("version" alone is
    shown as it is under its own name); key is a CSV column or a function of the row.
    bold(row) -> True marks the whole row in bold."""
    columns = [((c,) if isinstance(c, str) else tuple(c)) for c in columns]
    columns = [(c[0], c[1] if len(c) > 1 else c[0], c[2] if len(c) > 2 else "{}") for c in columns]
    lines = ["| " + " | ".join(c[1] for c in columns) + " |", "| " + " | ".join(rule for _ in columns) + " |"]
    for row in rows:
        cells = []
        for key, _, spec in columns:
            text = fmt(key(row) if callable(key) else row.get(key, ""), spec)
            cells.append(f"**{text}**" if bold and bold(row) and text else text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def placeholder_table(headings, text, rule="---:"):
    """A one-row table of these headings whose first cell says what to run."""
    return md_table([{0: text}], [((lambda r, i=i: r.get(i, "")), h) for i, h in enumerate(headings)], rule=rule)


class Table:
    """A README table as a specification, rendered by Readme.tables():
      block    the README block it fills          csv      the results file it reads
      columns  md_table's columns                 where    {column: value} or a predicate of the row
      order    key of a row to sort by            rows     f(rows) -> the table's rows (pivots, sums)
      bold     predicate: the row in bold         head, note  f(rows) -> a paragraph above / below
      missing  the block's text when the CSV is not there or selects no row (None: left as it is)
      empty    True: a CSV that is there but selects no row gives the headings alone, not `missing`"""

    def __init__(self, block, csv, columns, where=None, order=None, rows=None, bold=None, head=None, note=None,
                 missing=None, comments=False, rule="---:", empty=False):
        self.block, self.csv, self.columns, self.where, self.order = block, csv, columns, where, order
        self.rows, self.bold, self.head, self.note, self.missing = rows, bold, head, note, missing
        self.comments, self.rule, self.empty = comments, rule, empty

    def select(self, rows):
        if isinstance(self.where, dict):
            rows = [r for r in rows if all(r.get(k) == str(v) for k, v in self.where.items())]
        elif self.where:
            rows = [r for r in rows if self.where(r)]
        return sorted(rows, key=self.order) if self.order else rows

    def render(self, rows):
        """The block's text from the CSV's rows (None: no CSV), or None to leave it as it is;
        head and note are functions of the selected CSV rows (None or "": no paragraph)."""
        selected = self.select(rows) if rows else []
        table_rows = self.rows(selected) if self.rows and selected else selected
        if not table_rows and (rows is None or not self.empty):
            return self.missing
        head, note = selected and self.head and self.head(selected), selected and self.note and self.note(selected)
        return ((wrap(head) + "\n\n" if head else "") + md_table(table_rows, self.columns, self.bold, self.rule)
                + ("\n\n" + wrap(note) if note else ""))


def num(value):
    """A CSV cell as a float; None for an empty (not applicable) or non-numeric cell."""
    if value is None or value == "":
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
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


# ---- numbers in prose ---------------------------------------------------------------------

def span(values, spec="{}", sep="–", unit="", empty="n/a"):
    """'a–b' of the values (None skipped) as formatted by spec (a format or a function), 'a'
    when both ends read the same; `empty` when there is none."""
    values = [v for v in values if v is not None]
    if not values:
        return empty
    show = spec if callable(spec) else spec.format
    lo, hi = show(min(values)), show(max(values))
    return f"{lo}{unit}" if lo == hi else f"{lo}{sep}{hi}{unit}"


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def sci(x, sig=2):
    """6.7·10⁻⁹ (sig significant digits); 0 stays 0, None is n/a."""
    if x is None:
        return "n/a"
    if x == 0:
        return "0"
    m, e = "{:.{}e}".format(x, sig - 1).split("e")
    return "{}·10{}".format(m, str(int(e)).translate(SUPERSCRIPT))


def pow2(n, sup=False):
    """2^28 (sup: 2²⁸) for a power of two, the number with thousands separators otherwise."""
    if n > 0 and n & (n - 1) == 0:
        k = str(n.bit_length() - 1)
        return "2" + k.translate(SUPERSCRIPT) if sup else "2^" + k
    return f"{n:,}"


def join_words(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def fill(template, values, pattern=r"\{([\w.-]+)\}"):
    """The template with each {name} (or what `pattern` matches) replaced by values[name]."""
    return re.sub(pattern, lambda m: str(values[m.group(1)]), template)


# Nsight Compute prints a metric in an auto-scaled unit (usecond, Kbyte, Mcycle): factors to
# the base unit (time in ns, bytes, cycles, instructions, sectors, Hz).
UNITS = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6, "second": 1e9, "s": 1e9}
UNITS.update({p + base: k for base in ("byte", "cycle", "inst", "sector", "request", "hz")
              for p, k in (("", 1.0), ("K", 1e3), ("k", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12))})
UNITS.update({"cycle/nsecond": 1e9, "cycle/usecond": 1e6, "cycle/msecond": 1e3, "cycle/second": 1.0,
              "ghz": 1e9, "mhz": 1e6, "khz": 1e3})


def in_base_unit(value, unit):
    """A counter's value in its base unit; units of no scale (%, ratios, counts) unchanged."""
    return value * UNITS.get((unit or "").strip(), 1.0)


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


def numbered(items, head=None):
    """A numbered list of wrapped items, under a wrapped head paragraph if given."""
    body = "\n".join(wrap(t, f"{k}. ") for k, t in enumerate(items, 1))
    return wrap(head) + "\n\n" + body if head else body


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
    """A README whose generated blocks are replaced in memory and written once (save()).
    A missing marker is an error."""

    def __init__(self, path):
        self.path = path
        with open(path) as f:
            self.content = f.read()

    def block(self, name, text):
        """Replaces block `name` with text; None leaves it as it is."""
        if text is None:
            return
        begin, end = f"<!-- BEGIN {name} -->", f"<!-- END {name} -->"
        i, j = self.content.find(begin), self.content.find(end)
        if i < 0 or j < i:
            sys.exit(f"{self.path}: markers for '{name}' not found")
        self.content = self.content[: i + len(begin)] + "\n" + text.rstrip() + "\n" + self.content[j:]

    def tables(self, specs, folder):
        """Renders every Table of specs from the CSVs in folder; the names of those it found."""
        found = []
        for spec in specs:
            rows = load(folder, spec.csv, spec.comments)
            self.block(spec.block, spec.render(rows))
            if rows:
                found.append(spec.csv)
        return found

    def save(self):
        write_atomically(self.path, self.content)


def replace_block(readme, name, text):
    """Replaces what stands between the BEGIN/END markers of `name` (one block, written at
    once); a missing marker is an error."""
    r = Readme(readme)
    r.block(name, text)
    r.save()


# ---- Pivots of a results CSV (rows by size and version), Nsight Compute counters, claims over sizes

def pivot_rows(rows, key, by="version"):
    """{key(row): {row[by]: row}} in the order the keys first appear (one entry per size, say,
    holding each version's row at that size)."""
    out = {}
    for r in rows:
        out.setdefault(key(r), {})[r[by]] = r
    return out


class Pivot:
    """A results CSV by key and version: one entry per key(row) (a size, say), holding each
    version's row; keys in sorted order. Functions of a key, for md_table's columns:
    col(version, column) and ratio(a, b, column) (a's value / b's; for times, b's speed-up);
    over(fn) lists fn(key) at every key, over(fn, versions) fn(key, version) for each version."""

    def __init__(self, rows, key, by="version", column="kernel_ms"):
        self.by_key, self.column = pivot_rows(rows, key, by), column
        self.keys = sorted(self.by_key)

    def cell(self, k, version, column=None):
        """The number in `column` (default: the pivot's) of version's row at key k; None if none."""
        r = self.by_key[k].get(version)
        return num(r.get(column or self.column)) if r else None

    def col(self, version, column=None):
        return lambda k: self.cell(k, version, column)

    def ratio(self, a, b, column=None):
        return lambda k: ratio(self.cell(k, a, column), self.cell(k, b, column))

    def over(self, fn, versions=None):
        if versions is None:
            return [fn(k) for k in self.keys]
        return [fn(k, v) for k in self.keys for v in versions]


def longest_kernel_counters(rows, key, time_metric="gpu__time_duration.sum"):
    """Nsight Compute rows (kernel, metric, unit, value) grouped by key(row), in the order the
    keys first appear: {key: {metric: value in its base unit}} of the group's longest kernel
    (by time_metric; a kernel without it counts as 0). Non-numeric values are left out."""
    kernels = {}
    for r in rows or []:
        counters = kernels.setdefault(key(r), {}).setdefault(r["kernel"], {})
        if num(r["value"]) is not None:
            counters[r["metric"]] = in_base_unit(num(r["value"]), r["unit"])
    return {k: max(ks.values(), key=lambda c: c.get(time_metric, 0)) for k, ks in kernels.items()}


def all_hold(checks):
    """The verdict of several checks (True / False / None, as from compare()): None when there
    is none or one cannot be judged, else whether every one holds."""
    return None if not checks or any(c is None for c in checks) else all(checks)


def joined_values(values, spec="{}", sep=" / ", none=""):
    """The values formatted by spec (a format or a function) and joined; `none` for a None."""
    show = spec if callable(spec) else spec.format
    return sep.join(none if v is None else show(v) for v in values)


# ---- Row lookups, pivots, text blocks, Nsight Compute kernels, prose with slots

def first_by(rows, key):
    """{key(row): the first row with that key}, e.g. key (version, precision, n); {} for None."""
    out = {}
    for row in rows or []:
        out.setdefault(key(row), row)
    return out


def pivot(rows, key="n", by=("version", "precision"), cast=int):
    """One row per value of `key` (cast, ascending): {key: value, (row[b] for b in by): the first
    such CSV row}; the rows= of a Table with a column per version."""
    out = {}
    for row in rows:
        k = cast(row[key])
        out.setdefault(k, {key: k}).setdefault(tuple(row[b] for b in by), row)
    return [out[k] for k in sorted(out)]


def text_block(path, head, missing):
    """The text file at path as a ```text block under the line `head` (the command that wrote it);
    `missing` where there is no such file."""
    if not os.path.exists(path):
        return missing
    with open(path) as f:
        return "```text\n" + head + "\n" + f.read().rstrip("\n") + "\n```"


def headings(columns):
    """The headings of md_table's columns, e.g. for placeholder_table(headings(columns), text)."""
    return [c if isinstance(c, str) else (c[1] if len(c) > 1 else c[0]) for c in columns]


def ncu_kernels(rows, key=lambda r: r["version"]):
    """Tidy Nsight Compute rows (ncu_tidy.py) as {key(row): {kernel: counters}}, in the CSV's order;
    a kernel's counters are its first row's columns (n, device, ...) and every metric's value in its
    base unit (in_base_unit)."""
    out = {}
    for r in rows:
        kernel = out.setdefault(key(r), {}).setdefault(r["kernel"], {
            c: v for c, v in r.items() if c not in ("metric", "unit", "value")})
        kernel[r["metric"]] = in_base_unit(float(r["value"]), r["unit"])
    return out


def slot_values(templates, groups, placeholder, pattern=r"«([\w.-]+)»"):
    """The values of the «slots» of prose templates, group by group: groups are (prefix, fn), fn()
    giving {slot name less the prefix: value}, or raising LookupError where a CSV or a row it needs
    is missing (every slot of that prefix then reads `placeholder`). A slot left without a value
    is an error."""
    slots = set(re.findall(pattern, "\n".join(templates)))
    values = {}
    for prefix, fn in groups:
        names = sorted(n for n in slots if n.startswith(prefix))
        try:
            got = {prefix + k: v for k, v in fn().items()}
        except LookupError:
            got = dict.fromkeys(names, placeholder)
        for name in names:
            if name not in got:
                sys.exit(f"tables.py: no value for README marker '{name}'")
            values[name] = str(got[name])
    return values


# ---- Prose: re-wrapping generated Markdown, filling several blocks from templates

def rewrap(text):
    """Markdown bullets and paragraphs joined and wrapped by wrap() (a bullet's continuation
    lines indented two spaces); table rows and blank lines kept as they are."""
    out, item = [], []

    def flush():
        if item:
            joined = " ".join(part.strip() for part in item)
            out.append(wrap(joined, "", "  " if joined.startswith("- ") else ""))
            item.clear()
    for line in text.split("\n"):
        if line.startswith(("|", "- ")) or not line.strip():
            flush()
        if line.startswith("|"):
            out.append(line)
        elif not line.strip():
            out.append("")
        else:
            item.append(line)
    flush()
    return "\n".join(out)


def fill_blocks(readme, templates, values, source="the templates"):
    """Writes each of templates ({block: text with {name}s}) as its block of readme, filled from
    values and rewrapped; a name that values lacks is an error naming the block, not an empty cell."""
    for block, template in templates.items():
        missing = [name for name in re.findall(r"\{(\w+)\}", template) if name not in values]
        if missing:
            sys.exit(f"tables.py: {source}'s {block} needs the value '{missing[0]}', which nothing set")
        readme.block(block, rewrap(fill(template, values)))


# ---- Prose values computed section by section (a missing CSV gives its placeholder)

class NumRow(dict):
    """A CSV row whose numbers read as attributes: row.kernel_ms is float(row["kernel_ms"]) (an
    empty or non-numeric cell raises ValueError, a missing column KeyError)."""

    def __getattr__(self, name):
        return float(self[name])


def guarded(values, names, source, fn, *args):
    """fn(*args) sets the values `names`; numbers that cannot give them (an empty or zero cell, a
    missing row) leave a placeholder naming the CSV and the problem, rather than failing."""
    try:
        fn(*args)
    except (ArithmeticError, ValueError, KeyError, IndexError, TypeError) as e:
        text = "(not computable from {}: {} {})".format(source, type(e).__name__, e)
        print("tables.py: " + text)
        values.update({n: text for n in names if n not in values})


def section_values(sections, csvs, values=None, folder="results/"):
    """The named values of a README's prose, by sections (csv, names, fn, missing): fn(values, rows,
    csvs) sets `names` from the CSV's rows; a CSV not there (csvs[csv] is None) gives them `missing`,
    numbers that cannot give them guarded()'s placeholder. values: those set beforehand (defaults)."""
    values = {} if values is None else values
    for name, names, fn, missing in sections:
        if csvs.get(name) is None:
            values.update({n: missing for n in names})
        else:
            guarded(values, names, folder + name, fn, values, csvs[name], csvs)
    return values


def fill_paragraphs(readme, templates, values):
    """Fills each block of templates ({block: text naming {values}}) from values, wrapped."""
    for name, template in templates.items():
        readme.block(name, wrap(fill(template, values)))


def met(x, op, threshold):
    """A target's word for a measured x (a CSV cell or a number): "met" or "MISSED"; an empty
    cell, or a ratio of counters not counted, meets nothing (see compare())."""
    held = compare(ratio(x, 1.0), op, threshold)
    return "not measurable (empty cell)" if held is None else ("met" if held else "MISSED")


def bulleted(items, head=None):
    """A bulleted list of wrapped items, under a wrapped head paragraph if given."""
    body = "\n".join(wrap(t, "- ") for t in items)
    return wrap(head) + "\n\n" + body if head else body


def ncu_summary(rows, counters, sizes, summed=(), weighted=(), time="gpu__time_duration.sum"):
    """An Nsight Compute profile.csv (common/scripts/ncu_profile.sh: one row per version, size,
    kernel and metric) as {(version, n): summary} for the versions in the CSV's order and n in
    sizes: the counters ({name: metric}, in base units, None where not measured) of the longest
    kernel, with `kernels` (how many have a time), `us` (their summed time, µs), `device`, `ncu`;
    the names in `summed` are summed over the kernels, those in `weighted` weighted by their
    times (None where a kernel lacks one). A (version, n) without a timed kernel is left out."""
    out = {}
    for v in dict.fromkeys(r["version"] for r in rows):
        for n in sizes:
            sel = [r for r in rows if r["version"] == v and r["n"] and int(float(r["n"])) == n]
            metrics = {}
            for r in sel:
                metrics.setdefault(r["kernel"], {})[r["metric"]] = in_base_unit(float(r["value"]), r["unit"])
            ks = [dict({x: m.get(name) for x, name in counters.items()}, us=m[time] * 1e-3)
                  for m in metrics.values() if time in m]
            if not ks:
                continue
            us = sum(k["us"] for k in ks)
            s = dict(max(ks, key=lambda k: k["us"]), kernels=len(ks), us=us, device=sel[0]["device"],
                     ncu=sel[0]["ncu_version"])
            for x in summed + weighted:
                known = all(k[x] is not None for k in ks)
                s[x] = (None if not known else sum(k[x] for k in ks) if x in summed
                        else sum(k[x] * k["us"] for k in ks) / us if us > 0 else None)
            out[(v, n)] = s
    return out


def largest_launch(kernels, grid="launch__grid_size"):
    """Of {kernel: counters} (ncu_kernels), the counters of the kernel launched with the largest
    grid, with its name under "kernel"."""
    name = max(kernels, key=lambda k: kernels[k].get(grid, 0.0))
    return dict(kernels[name], kernel=name)


def spearman(xs, ys):
    """Spearman's rank correlation (Pearson's on the ranks, ties averaged); None when undefined."""
    def ranks(xs):
        s = sorted(xs)
        return [(s.index(x) + len(s) - 1 - s[::-1].index(x)) / 2.0 for x in xs]
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxx, syy = math.sqrt(sum((a - mx) ** 2 for a in rx)), math.sqrt(sum((b - my) ** 2 for b in ry))
    return sum((a - mx) * (b - my) for a, b in zip(rx, ry)) / (sxx * syy) if sxx > 0 and syy > 0 else None


def speedups(time, versions):
    """[(a, b, time(a) / time(b))] for each two successive versions that both have a time (time(v):
    a number, or None where v was not measured): the steps of a chain of versions."""
    return [(a, b, time(a) / time(b)) for a, b in zip(versions, versions[1:])
            if time(a) is not None and time(b) is not None]


def arrows(steps, spec="{:.2f}x"):
    """Steps of speedups() as prose: '1→2 1.52x, 2→3 1.25x'."""
    return ", ".join(f"{a}→{b} {spec.format(x)}" for a, b, x in steps)


def ratio_claim(a, b, rule, show=None, why=None, undefined=None, not_measured="not measured"):
    """(measured, verdict) of a claims-table row that rests on the ratio a / b of two measured numbers
    (None: not measured), judged by rule, the (op, threshold) of compare() (None: not judged).
    measured is the ratio alone ("0.533x", "n/a"), or with show (a format of a and b) the two before
    it ("3,530,886 / 49,429 = 71.4x"): not_measured where a or b is missing, undefined (if given)
    where both are there but the ratio is not defined. why: verdict()'s reason where not judged."""
    x = ratio(a, b)
    fx = "n/a" if x is None else f"{x:.3g}x"
    if show is None:
        measured = fx
    elif a is None or b is None:
        measured = not_measured
    elif x is None and undefined:
        measured = undefined
    else:
        measured = show.format(a, b) + ("" if x is None else f" = {fx}")
    holds = compare(x, *rule) if rule else None
    return measured, verdict(holds) if why is None else verdict(holds, why)


def versions_of(*tables):
    """The version labels of these CSVs' validated rows (validated != 0) in order of first
    appearance, and the set of those that are a library baseline (is_baseline = 1)."""
    labels, baselines = [], set()
    for r in (r for rows in tables for r in rows or [] if r.get("validated", "1") != "0"):
        if r["version"] not in labels:
            labels.append(r["version"])
        if r.get("is_baseline") == "1":
            baselines.add(r["version"])
    return labels, baselines
