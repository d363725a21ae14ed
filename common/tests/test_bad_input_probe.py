"""The bad-input probe (common/scripts/probe_bad_input.py): a fixed sample of its generated bad
command lines finds nothing wrong in the five programs, and the probe reports a program that
breaks the contract (a stand-in that accepts bad input, one that prints a value's control
characters raw). No GPU needed: every case is refused before any GPU work, or asks for --help or
--list-versions. The whole probe (every case, a few minutes): /usr/bin/python3 <that script>."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cwtest import ROOT, UNDER_TEST, program

PROBE = ROOT / "common/scripts/probe_bad_input.py"
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
SUMMARY = re.compile(r"^probe: ([0-9]+) cases, ([0-9]+) findings", re.M)


def probe(*args, timeout=600):
    p = subprocess.run([PYTHON, str(PROBE), *map(str, args)], capture_output=True, text=True, errors="replace",
                       timeout=timeout, cwd=ROOT)
    summary = SUMMARY.search(p.stdout)
    return p, (int(summary[1]), int(summary[2])) if summary else None


def test_a_sample_of_the_probe_finds_nothing():
    missing = [n for n in UNDER_TEST if not program(n).exists()]
    if missing:
        pytest.skip(f"not built (make): {', '.join(str(program(n).relative_to(ROOT)) for n in missing)}")
    p, summary = probe("--programs", ",".join(UNDER_TEST), "--sample", 400, "--seed", 1)
    assert summary and summary[0] == 400, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode == 0 and summary[1] == 0, p.stdout[-4000:] + p.stderr[-2000:]


# A stand-in program: --help, --list-versions and --print-csv-header as the programs print them,
# --repeat's range in the one out-of-range message; everything else answered by BODY.
STANDIN = r"""#!/bin/bash
case "$1" in
  --help) printf 'Usage: standin [options]\nA stand-in.\n\nOptions:\n  --repeat=N              timed runs (default: 20)\n  --only=VALUE            versions (default: none)\n  --help                  print this help and exit\n'; exit 0;;
  --list-versions) echo "one validated kernel default gpu - k"; exit 0;;
  --print-csv-header) echo "assignment,version"; exit 0;;
  --repeat=2^63) echo "standin: error: option --repeat=2^63 is out of range [1, 100]" >&2; exit 2;;
esac
"""


@pytest.mark.parametrize("body,finding", [
    ("exit 0", r"probe: grammar: standin '--repeat= 1': exit 0, not 2"),
    ('echo "standin: error: option --repeat: bad value $*" >&2; exit 2', r"\[2J.*a raw control character U\+001B on standard error"),
    ('echo "standin: error: option --only: bad value $*" >&2; exit 2', r"only_label: standin \$'--only=\\xc2\\x85one'.*raw control character U\+0085"),
], ids=["accepts_bad_input", "prints_escape_raw", "prints_c1_raw"])
def test_the_probe_reports_a_program_that_breaks_the_contract(tmp_path, body, finding):
    standin = tmp_path / "standin"
    standin.write_text(STANDIN + body + "\n")
    standin.chmod(0o755)
    p, summary = probe("--binary", standin, timeout=300)
    assert p.returncode == 1 and summary and summary[1] > 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert re.search(finding, p.stdout), p.stdout[-3000:]


def test_the_probe_refuses_bad_usage():
    p, _ = probe("--sample", 0, timeout=60)
    assert p.returncode == 2 and "--sample" in p.stderr, p.stderr
    p, _ = probe("--programs", "no_such_program", timeout=60)
    assert p.returncode == 2 and "no_such_program" in p.stderr, p.stderr
