"""A README as a student reads it in a terminal (less on a login node): prose lines of at most
100 characters (tables and code blocks excepted), no value markers inside sentences (numbers
are whole generated blocks or tables), no issue numbers. Prints one line per problem; exit 1
when there is one.

    python3 common/py/readme_lint.py README.md
"""
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from readme_tables import WIDTH  # noqa: E402  (the width generated prose is wrapped at)
# "issue 3" or "issue #3", not the issue slots' "issue 67 %" or "issue 8.4·10¹²"
ISSUE = re.compile(r"\bissues? #?\d+\b(?![.,·]\d)(?!\s*%)")  # lower case: a journal's "Issue 04" is not ours


def problems(lines):
    found, code = [], False
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if line.startswith("```"):
            code = not code
        elif not code and not line.startswith("|") and len(line) > WIDTH:
            found.append(f"line {n}: {len(line)} characters")
        if "<!-- v:" in line:
            found.append(f"line {n}: inline value marker")
        if ISSUE.search(line):
            found.append(f"line {n}: issue number")
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: readme_lint.py README.md")
    with open(sys.argv[1]) as f:
        found = problems(f)
    print("\n".join(found) or "ok")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
