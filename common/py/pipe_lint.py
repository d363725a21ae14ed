#!/usr/bin/env python3
"""Early-exit readers at the end of a pipeline, in shell scripts that set pipefail.

    python3 common/py/pipe_lint.py FILE...     (exit 1 and one line per finding, else exit 0)

Under `set -o pipefail`, `producer | grep -q PATTERN` (or `| head`, `| grep -m N`) fails
whenever the reader stops at its first match before the producer has written its last line:
the producer dies of SIGPIPE (status 141) and the pipeline reports that failure, not grep's
success. Whether it happens depends on how the producer buffers its output, so the check
passes or fails by chance (CI's smoke test of the CUDA 12 prefix, `cuobjdump -lelf | grep -q`,
failed in about half the runs). Capture the producer first: `grep -q P <<<"$(producer)"`.

A file is checked only if it turns pipefail on (`set -o pipefail`, `set -euo pipefail`, ...).
A line that is fine on purpose carries the comment `# pipe-ok: <why>`.
"""
import re
import sys

# `set -o pipefail`, `set -euo pipefail`, `set -e -o pipefail`, ...
PIPEFAIL = re.compile(r"^\s*set\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*o\s+pipefail\b", re.M)
# A `|` (not `||`) followed by a reader that may exit before reading all of its input.
EARLY_READER = re.compile(
    r"(?<![|])\|(?![|])\s*(?:"
    r"head\b"
    r"|grep\s+(?:-[a-zA-Z]*\s+)*-[a-zA-Z]*[qm]"
    r"|grep\s+(?:[^|;&]*\s)?--(?:quiet|silent|max-count)\b"
    r")"
)


def findings(path):
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError as e:
        return [f"{path}: cannot read: {e.strerror}"]
    if not PIPEFAIL.search(text):
        return []
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split(" #", 1)[0] if not line.lstrip().startswith("#") else ""
        if not code or "# pipe-ok:" in line:
            continue
        if EARLY_READER.search(code):
            out.append(f"{path}:{number}: a pipeline ends in an early-exit reader under pipefail "
                       f"(SIGPIPE makes it fail at random; capture the producer first): {line.strip()}")
    return out


def main(argv):
    if len(argv) < 2:
        print("usage: pipe_lint.py FILE...", file=sys.stderr)
        return 2
    found = [f for path in argv[1:] for f in findings(path)]
    for f in found:
        print(f)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
