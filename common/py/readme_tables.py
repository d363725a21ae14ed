"""README tables and generated prose from the results CSVs, shared by every assignment's tables.py.

A README's generated parts stand between `<!-- BEGIN name -->` and `<!-- END name -->`; Readme
replaces them in memory and writes the file once, atomically. What this module offers, by section:

  Reading CSVs      read_csv, load (None for a CSV not there yet), num (a cell as a float or None),
                    NumRow (a row whose numbers read as attributes)
  Tables            md_table (rows and columns: a CSV column or a function of the row, a heading, a
                    format), placeholder_table, headings, and Table: a README table as a
                    specification, rendered by Readme.tables():

    Table("sweep-table", "sweep.csv", [("threads", "threads/block"), ("kernel_ms", "kernel (ms)", "{:.3f}")],
          where={"version": "report"}, bold=lambda r: r["version"] == "report", missing=RUN)

  Pivots            pivot (rows grouped by a key, then by version or another column), Pivot (a
                    pivot by size and version whose cells, columns and ratios feed md_table)
  Nsight Compute    ncu_kernels (a profile.csv as {key: {kernel: counters in base units}}),
                    main_kernel (the longest kernel, or the one largest by another counter)
  Claims            ratio, compare, verdict, all_hold, met, ratio_claim: a claim on numbers that were
                    not measured (0 / 0, an empty cell) is never judged "holds"; spearman,
                    speedups, arrows, versions_of
  Numbers in prose  span ('a–b'), joined_values ('a / b'), sci (6.7·10⁻⁹), pow2 (2^28), join_words
  Prose             wrap, rewrap, numbered, bulleted, text_block; read_templates (prose.md:
                    blocks, and parts, whose names have a dot), blocks, part, names_used,
                    fill ({name} and {name:format} templates), prefixed,
                    section_values (the values of the templates, section by section, with a
                    placeholder for those whose CSV or row is missing), fill_blocks
  README            Readme (block, tables, save), replace_block, write_atomically

What is an assignment's own (which numbers a claim rests on, its threshold, the words of its
verdict) stays in its tables.py.
"""
import csv
import math
import os
import re
import sys
import tempfile
import textwrap

sys.dont_write_bytecode = True


# ---- Reading CSVs ---------------------------------------------------------------------------

def read_csv(path, comments=False):
    """Rows of a CSV with a header, as dicts of strings; comments: skip leading '#' lines."""
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not (comments and line.startswith("#"))))


def load(folder, name, comments=False):
    """Rows of folder/name, or None when the file does not exist (yet)."""
    path = os.path.join(folder, name)
    return read_csv(path, comments) if os.path.exists(path) else None


def num(value):
    """A CSV cell as a float; None for an empty (not applicable) or non-numeric cell."""
    if value is None or value == "":
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


class NumRow(dict):
    """A CSV row whose numbers read as attributes: row.kernel_ms is float(row["kernel_ms"]) (an
    empty or non-numeric cell raises ValueError, a missing column KeyError)."""

    def __getattr__(self, name):
        return float(self[name])


# ---- Tables ---------------------------------------------------------------------------------

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


def headings(columns):
    """The headings of md_table's columns, e.g. for placeholder_table(headings(columns), text)."""
    return [c if isinstance(c, str) else (c[1] if len(c) > 1 else c[0]) for c in columns]


def placeholder_table(headings, text, rule="---:"):
    """A one-row table of these headings whose first cell says what to run."""
    columns = [((lambda r, i=i: r.get(i, "")), h) for i, h in enumerate(headings)]
    return md_table([{0: text}], columns, rule=rule)


class Table:
    """A README table as a specification, rendered by Readme.tables():
      block    the README block it fills          csv      the results file it reads
      columns  md_table's columns                 where    {column: value} or a predicate of the row
      order    key of a row to sort by            rows     f(rows) -> the table's rows (pivots, sums)
      bold     predicate: the row in bold         head, note  f(rows) -> a paragraph above / below
      missing  the block's text when the CSV is not there or selects no row (None: left as it is)
      empty    True: a CSV that is there but selects no row gives the headings alone, not `missing`"""

    def __init__(self, block, csv, columns, where=None, order=None, rows=None, bold=None, head=None,
                 note=None, missing=None, comments=False, rule="---:", empty=False):
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
        head = selected and self.head and self.head(selected)
        note = selected and self.note and self.note(selected)
        table = md_table(table_rows, self.columns, self.bold, self.rule)
        return ((wrap(head) + "\n\n" if head else "") + table
                + ("\n\n" + wrap(note) if note else ""))


# ---- Pivots ---------------------------------------------------------------------------------

def pivot(rows, key, by=None):
    """Rows grouped by key(row), in the order the keys first appear: {key: {by: row}}, `by` a
    column or a tuple of columns (one entry per size, say, holding each version's row there);
    by=None: {key: row}. The first row of each counts; rows None gives {}."""
    out = {}
    for row in rows or []:
        if by is None:
            out.setdefault(key(row), row)
        else:
            column = row[by] if isinstance(by, str) else tuple(row[c] for c in by)
            out.setdefault(key(row), {}).setdefault(column, row)
    return out


class Pivot:
    """A results CSV by key and version (pivot()), keys in sorted order. Functions of a key, for
    md_table's columns: col(version, column) and ratio(a, b, column) (a's value / b's; for times,
    b's speed-up); over(fn) lists fn(key) at every key, over(fn, versions) fn(key, version) for
    each version."""

    def __init__(self, rows, key, by="version", column="kernel_ms"):
        self.by_key, self.column = pivot(rows, key, by), column
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


# ---- Nsight Compute (a profile.csv of common/py/ncu_tidy.py) --------------------------------

# Nsight Compute prints a metric in an auto-scaled unit (usecond, Kbyte, Mcycle): factors to
# the base unit (time in ns, bytes, cycles, instructions, sectors, Hz).
UNITS = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6,
         "second": 1e9, "s": 1e9}
UNITS.update({p + base: k for base in ("byte", "cycle", "inst", "sector", "request", "hz")
              for p, k in (("", 1.0), ("K", 1e3), ("k", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12))})
UNITS.update({"cycle/nsecond": 1e9, "cycle/usecond": 1e6, "cycle/msecond": 1e3, "cycle/second": 1.0,
              "ghz": 1e9, "mhz": 1e6, "khz": 1e3})
TIME = "gpu__time_duration.sum"


def in_base_unit(value, unit):
    """A counter's value in its base unit; units of no scale (%, ratios, counts) unchanged."""
    return value * UNITS.get((unit or "").strip(), 1.0)


def ncu_kernels(rows, key=lambda r: r["version"]):
    """Nsight Compute rows (kernel, metric, unit, value) as {key(row): {kernel: counters}}, in the
    CSV's order: a kernel's counters are its first row's other columns (kernel, n, device,
    ncu_version, ...) and every metric with a numeric value, in its base unit. rows None: {}."""
    out = {}
    for r in rows or []:
        kernel = out.setdefault(key(r), {}).setdefault(r["kernel"], {
            c: v for c, v in r.items() if c not in ("metric", "unit", "value")})
        if num(r["value"]) is not None:
            kernel[r["metric"]] = in_base_unit(num(r["value"]), r["unit"])
    return out


def main_kernel(kernels, metric=TIME):
    """Of {kernel: counters} (ncu_kernels), the counters of the kernel with the largest `metric`:
    by default the longest; "launch__grid_size" gives the largest launch. Lacking it counts as 0."""
    return max(kernels.values(), key=lambda c: c.get(metric, 0))


# ---- Claims: ratios and verdicts that never judge what was not measured ---------------------

def ratio(a, b):
    """a / b for two CSV cells or numbers; None when either is missing or not a number, or
    when b is zero: a ratio of counters that were not counted (0 / 0, x / 0) is no
    measurement, and a verdict must not be drawn from it (see verdict())."""
    a = num(a) if isinstance(a, str) or a is None else float(a)
    b = num(b) if isinstance(b, str) or b is None else float(b)
    if a is None or b is None or b == 0:
        return None
    return a / b


def compare(x, op, threshold):
    """x op threshold for a measured x that may be None (not measurable): None stays None,
    so that `verdict(compare(ratio(a, b), ">", 2))` cannot turn 0 / 0 into "holds"."""
    if x is None:
        return None
    return {">": x > threshold, ">=": x >= threshold, "<": x < threshold, "<=": x <= threshold}[op]


def verdict(holds, why_not_judged="the counters it rests on are zero or missing here"):
    """The verdict word of a claims table: holds is True, False or None (not measurable:
    a ratio() that gave None, a counter the GPU does not report). None never passes."""
    if holds is None:
        return f"cannot be judged here ({why_not_judged})"
    return "holds" if holds else "does not hold"


def all_hold(checks):
    """The verdict of several checks (True / False / None, as from compare()): None when there
    is none or one cannot be judged, else whether every one holds."""
    return None if not checks or any(c is None for c in checks) else all(checks)


def met(x, op, threshold):
    """A target's word for a measured x (a CSV cell or a number): "met" or "MISSED"; an empty
    cell, or a ratio of counters not counted, meets nothing (see compare())."""
    held = compare(ratio(x, 1.0), op, threshold)
    return "not measurable (empty cell)" if held is None else ("met" if held else "MISSED")


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


# ---- Numbers in prose ------------------------------------------------------------------------

def span(values, spec="{}", sep="–", unit="", empty="n/a"):
    """'a–b' of the values (None skipped) as formatted by spec (a format or a function), 'a'
    when both ends read the same; `empty` when there is none."""
    values = [v for v in values if v is not None]
    if not values:
        return empty
    show = spec if callable(spec) else spec.format
    lo, hi = show(min(values)), show(max(values))
    return f"{lo}{unit}" if lo == hi else f"{lo}{sep}{hi}{unit}"


def joined_values(values, spec="{}", sep=" / ", none=""):
    """The values formatted by spec (a format or a function) and joined; `none` for a None."""
    show = spec if callable(spec) else spec.format
    return sep.join(none if v is None else show(v) for v in values)


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


# ---- Prose: wrapped Markdown, templates and their values -------------------------------------

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


LIST_ITEM = re.compile(r"(- |\d+\. )")


def rewrap(text):
    """Markdown bullets, numbered items and paragraphs joined and wrapped by wrap() (an item's
    continuation lines indented as far as its text: two spaces under "- ", three under "1. ");
    table rows, fenced code (``` to ```) and blank lines kept as they are."""
    out, item, code = [], [], False

    def flush():
        if item:
            joined = " ".join(part.strip() for part in item)
            marker = LIST_ITEM.match(joined)
            out.append(wrap(joined, "", " " * len(marker.group(1)) if marker else ""))
            item.clear()
    for line in text.split("\n"):
        fence = line.startswith("```")
        if code or fence or line.startswith("|") or LIST_ITEM.match(line) or not line.strip():
            flush()
        if code or fence:
            out.append(line)
            code = code != fence
        elif line.startswith("|"):
            out.append(line)
        elif not line.strip():
            out.append("")
        else:
            item.append(line)
    flush()
    return "\n".join(out)


def numbered(items, head=None):
    """A numbered list of wrapped items, under a wrapped head paragraph if given."""
    body = "\n".join(wrap(t, f"{k}. ") for k, t in enumerate(items, 1))
    return wrap(head) + "\n\n" + body if head else body


def bulleted(items, head=None):
    """A bulleted list of wrapped items, under a wrapped head paragraph if given."""
    body = "\n".join(wrap(t, "- ") for t in items)
    return wrap(head) + "\n\n" + body if head else body


def text_block(path, head, missing):
    """The text file at path as a ```text block under the line `head` (the command that wrote it);
    `missing` where there is no such file."""
    if not os.path.exists(path):
        return missing
    with open(path) as f:
        return "```text\n" + head + "\n" + f.read().rstrip("\n") + "\n```"


def fill(template, values, where="the template"):
    """The template with each {name} replaced by its value and each {name:spec} by
    format(value, spec) (a text value, such as a placeholder, stands as it is). A name is letters,
    digits, '_', '-' and '.'; one that values lacks but whose part before the first dot it has is
    looked up through that value ({top.kernel_ms}: attribute kernel_ms, or key, of values["top"]).
    Other braces, such as Σ_{i=0}, are left as they are. A name that nothing set is an error naming
    `where`."""
    missing = [name for name, _ in FIELD.findall(template)
               if not (has(values, name) or has(values, name.partition(".")[0]))]
    if missing:
        sys.exit(f"tables.py: {where} needs the value '{missing[0]}', which nothing set")

    def value(m):
        v = lookup(values, m[1])
        return v if isinstance(v, str) else format(v, m[2] or "")
    return FIELD.sub(value, template)


def has(values, name):
    """Whether values gives name (a mapping with a default, such as a defaultdict, gives every one)."""
    try:
        values[name]
    except KeyError:
        return False
    return True


def lookup(values, name):
    """values[name], or for a.b.c the attribute (else key) b of values["a"], then c."""
    if name in values:
        return values[name]
    head, *path = name.split(".")
    v = values[head]
    for attr in path:
        try:
            v = getattr(v, attr)
        except AttributeError:
            v = v[attr]
    return v


FIELD = re.compile(r"\{([\w.-]+)(?::([^{}]+))?\}")  # {name} or {name:format}


def blocks(templates):
    """The templates that are README blocks: those whose name has no dot (a.b is a part, filled
    into a value by part())."""
    return {name: text for name, text in templates.items() if "." not in name}


def part(templates, name, values):
    """The part `name` of templates filled from values, its lines joined into one."""
    if name not in templates:
        sys.exit(f"tables.py: the templates have no part '{name}'")
    return fill(" ".join(templates[name].split("\n")), values, name)


def names_used(templates):
    """Every {name} that the blocks of templates use."""
    return {name for name, _ in FIELD.findall("\n".join(blocks(templates).values()))}


def prefixed(names, prefix, fn, missing, lenient=False):
    """section_values' section of those of names that start with prefix: fn() gives their values
    keyed without the prefix. lenient: a name that fn() does not give reads `missing` (a name that
    depends on the data, such as a version's); otherwise it is an error."""
    mine = sorted(n for n in names if n.startswith(prefix))

    def values():
        got = {prefix + k: v for k, v in fn().items()}
        return {n: got.get(n, missing) for n in mine} if lenient else got
    return mine, values, missing


def section_values(sections, values=None):
    """The named values of a README's prose, section by section: a section is (names, fn,
    missing), fn() returning {name: value} for its names. Where a CSV or a row it needs is not
    there (fn raises LookupError), each of the names reads `missing`; where its numbers cannot
    give them (an empty or zero cell: ArithmeticError, ValueError, TypeError), a placeholder that
    names the problem, printed too. A name left without a value is an error. values: those set
    beforehand (defaults), updated and returned."""
    values = {} if values is None else values
    for names, fn, missing in sections:
        try:
            got = fn()
        except LookupError:
            got = dict.fromkeys(names, missing)
        except (ArithmeticError, ValueError, TypeError) as e:
            text = "(not computable: {} {})".format(type(e).__name__, e)
            print("tables.py: " + text)
            got = dict.fromkeys(names, text)
        for name in names:
            if name not in got:
                sys.exit(f"tables.py: no value for README marker '{name}'")
        values.update(got)
    return values


def read_templates(path):
    """The templates of a README's generated prose, kept as Markdown in one file (an
    assignment's prose.md): each block's text follows a line `<!-- template NAME -->` and runs
    to the next such line; {name}s are filled by fill_blocks. Lines before the first template
    (the file's own heading) are not part of any."""
    templates, name = {}, None
    with open(path) as f:
        for line in f.read().split("\n"):
            m = re.fullmatch(r"<!-- template ([\w.-]+) -->", line)
            if m:
                name = m.group(1)
                if name in templates:
                    sys.exit(f"{path}: template '{name}' twice")
                templates[name] = []
            elif name is not None:
                templates[name].append(line)
    return {k: "\n".join(v).strip("\n") for k, v in templates.items()}


def fill_blocks(readme, templates, values, source="the templates"):
    """Writes each block of templates (blocks()) into readme, filled from values and rewrapped; a
    name that values lacks is an error naming the block, not an empty cell."""
    for block, template in blocks(templates).items():
        readme.block(block, rewrap(fill(template, values, f"{source}'s {block}")))


# ---- README files -----------------------------------------------------------------------------

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
