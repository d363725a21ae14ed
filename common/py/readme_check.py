"""A README (or DETAILS.md) as its reader meets it: prose lines of at most 100 characters
(tables and code excepted), no issue numbers, generated blocks that hold a table and at most a
two-line caption, and every number in prose backed: it is printed in a table of the same
document, or its paragraph names the CSV it comes from. Prints one line per problem, exit 1
when there is one.

A generated stale line under a table ("stale: made by <commit> (<date>); ...", from
common/py/mdtables.py for a table drawn from a CSV whose code changed since: common/py/provenance.py)
is none of the caption's lines, no prose (its commit and date are no numbers to back) and, with the
blank line above it, does not count towards --max-lines: whether a table is stale is not the
writer's to shorten.

    python3 common/py/readme_check.py [--max-lines N] [--no-numbers] FILE.md...

--no-numbers leaves the numbers in prose unchecked (READMEs that are not reports: the top one,
common/ and slurm/).

A README (any file named README.md, or checked with --max-lines) holds no table row wider than 9
columns: a wider table goes to DETAILS.md, whose tables and the lab's (experiments/README.md) may
be as wide as they need.

Not checked: inline `code`, link targets, text in "quotation marks" (the report's words),
headings, integers below 100, powers written 2^28, numbers right after a letter, a digit, '_',
'^', '+', '.', '/', '#' or '-', and numbers after the words section, §, table, figure, version,
line, CUDA, GTX, Tesla, sm, step, kernel, item, report, RTX, Quadro.
"""
import re
import sys

WIDTH = 100
MAX_COLUMNS = 9  # the widest table a README may hold
ISSUE = re.compile(r"\bissues? #?\d+\b(?![.,·]\d)(?!\s*%)")
NUMBER = re.compile(r"(?<![\w.^+/#-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w^]|\.\d|,\d{3})")
EXEMPT_BEFORE = re.compile(r"(?:\b(?:section|table|figure|version|versions|line|lines|cuda|gtx|tesla|sm|"
                           r"step|steps|kernel|item|report|rtx|quadro)|§)\s*$", re.I)
BLOCK = re.compile(r"<!-- BEGIN ([\w.-]+) -->\n(.*?)<!-- END \1 -->", re.S)
STALE = re.compile(r"^stale: (?:\S+ )?made by [0-9a-f]{7}(?:\+dirty)? \(\d{4}-\d\d-\d\d\)(?: and [0-9a-f]{7}(?:\+dirty)? "
                   r"\(\d{4}-\d\d-\d\d\))*; ")


def is_stale_line(line):
    """A stale line that common/py/provenance.py's note() generates under a table."""
    return STALE.match(line) is not None


def generated_stale_lines(lines):
    """How many lines the stale notes add: each stale line, and the blank line that sets a group
    of them apart from the table above."""
    return sum(is_stale_line(line) or (not line.strip() and i + 1 < len(lines) and is_stale_line(lines[i + 1]))
               for i, line in enumerate(lines))


def columns(row):
    """The cells of a Markdown table row: split at every '|' that is not escaped as '\\|'."""
    return len(re.split(r"(?<!\\)\|", row.strip().strip("|")))


def holds_narrow_tables(path, max_lines):
    """A README.md, or a file checked with --max-lines; never a DETAILS.md or the lab's
    experiments/README.md."""
    parts = str(path).replace("\\", "/").split("/")
    return (parts[-1] == "README.md" or bool(max_lines)) and parts[-1] != "DETAILS.md" and "experiments" not in parts[:-1]


def clean(line):
    """A prose line without code spans, link targets and quotations."""
    line = re.sub(r"`[^`]*`", " ", line)
    line = re.sub(r"\]\([^)]*\)", "]", line)
    return re.sub(r"\"[^\"]*\"|“[^”]*”", " ", line)


def numbers(text):
    """The numbers of a text that need backing, normalised (no thousands separators)."""
    found = []
    for m in NUMBER.finditer(text):
        whole, frac = m.group(1).replace(",", ""), m.group(2) or ""
        if not frac and int(whole) < 100:
            continue
        if EXEMPT_BEFORE.search(text[:m.start()]):
            continue
        found.append(whole + frac)
    return found


def table_numbers(lines):
    cells = set()
    for line in lines:
        if line.startswith("|"):
            for m in NUMBER.finditer(line):
                cells.add(m.group(1).replace(",", "") + (m.group(2) or ""))
            for m in re.finditer(r"\d[\d,]*(?:\.\d+)?", line):  # also numbers glued to units
                cells.add(m.group(0).replace(",", ""))
    return cells


def paragraphs(lines):
    """(first line number, [lines]) of each prose paragraph."""
    para, start, code, comment = [], 0, False, False
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            code = not code
            continue
        if "<!--" in line:
            comment = "-->" not in line
            continue
        if comment:
            comment = "-->" not in line
            continue
        if code or not line.strip() or line.startswith(("|", "#")) or is_stale_line(line):
            if para:
                yield start, para
            para = []
            continue
        if not para:
            start = n
        para.append(line)
    if para:
        yield start, para


def line_problems(lines, max_columns=None):
    """Per line outside code blocks: prose wider than WIDTH, a table row of more than max_columns
    cells, an issue number."""
    found, code = [], False
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            code = not code
        elif not code and not line.startswith("|") and len(line) > WIDTH:
            found.append(f"line {n}: {len(line)} characters")
        elif not code and max_columns and line.startswith("|") and columns(line) > max_columns:
            found.append(f"line {n}: a table row of {columns(line)} columns (at most {max_columns} in a README;"
                         " the full table goes to DETAILS.md)")
        if not code and ISSUE.search(line):
            found.append(f"line {n}: issue number")
    return found


def problems(text, max_lines=None, check_numbers=True, max_columns=None):
    lines = text.split("\n")
    found = []
    counted = len(lines) - 1 - generated_stale_lines(lines)
    if max_lines and counted > max_lines:
        found.append(f"{counted} lines (at most {max_lines}; generated stale lines not counted)")
    found += line_problems(lines, max_columns)
    for m in BLOCK.finditer(text):
        other = [x for x in m.group(2).split("\n") if x.strip() and not x.startswith("|") and not is_stale_line(x)]
        if len(other) > 2 and not other[0].startswith("(no data"):
            found.append(f"block {m.group(1)}: {len(other)} lines besides its table (a caption has at most 2)")
    backed = table_numbers(lines)
    for start, para in paragraphs(lines) if check_numbers else ():
        joined = " ".join(para)
        if ".csv" in joined:
            continue
        for num in numbers(clean(joined)):
            if num not in backed:
                found.append(f"line {start}: {num} in prose is in no table of this document, "
                             f"and the paragraph names no CSV")
    return found


def main(argv):
    max_lines, check_numbers = None, True
    while argv[:1] in (["--max-lines"], ["--no-numbers"]):
        if argv[0] == "--no-numbers":
            check_numbers, argv = False, argv[1:]
        else:
            max_lines, argv = int(argv[1]), argv[2:]
    if not argv:
        sys.exit("usage: readme_check.py [--max-lines N] [--no-numbers] FILE.md...")
    bad = 0
    for path in argv:
        with open(path) as f:
            wide = MAX_COLUMNS if holds_narrow_tables(path, max_lines) else None
            for p in problems(f.read(), max_lines, check_numbers, wide):
                print(f"{path}: {p}")
                bad += 1
    print("ok" if not bad else f"{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
