#!/usr/bin/python3
"""The bad-input probe: every program of the repository (common/scripts/assignments.sh; the binary
is <folder>/bin/<folder>) run on generated bad command lines, each judged against the contract of
README.md, "One command line" and "Exit status". No GPU is needed: every case is refused before
any GPU work, or (where a case's right answer is not a refusal) asks for --list-versions or --help.

    /usr/bin/python3 common/scripts/probe_bad_input.py [--programs=a,b] [--sample=N --seed=S] [--jobs=N]

A program's options, their kinds (flag, N, a|b|c, VALUE) and its positional arguments come from
its --help; its version labels and tags from --list-versions; an integer option's range from the
program's own refusal of 2^63 ("... is out of range [lo, hi]"), which is also how a VALUE option
is found to hold integers (--sizes, reduction_versions' --threads). The kinds of case (KINDS) are
generated per option; each case runs in a scratch folder of its own (fixtures: a folder, a FIFO,
empty, truncated and 1 TiB sparse files, a CSV of other columns, ...) with a 10 s timeout.

The contract of a refusal (expect "usage"): exit status 2; exactly one line on standard error,
"<program>: error: ...", naming the offending option or file; nothing on standard output; no
file created or changed in the scratch folder; no signal, no hang. In every case's output no raw
C0 control (but the newline), DEL, C1 control (U+0080 to U+009F) or byte that is not UTF-8.
Cases whose right answer is not exit 2 say so by their `expect` (see judge()).

Prints one line per finding, then `probe: N cases, M findings`; exit status 1 with a finding, 0
without, 2 on bad usage of this script."""
import argparse
import concurrent.futures
import hashlib
import os
import random
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 10
NOBODY = 65534  # the user of the unwritable-file cases when the probe runs as root (root writes anything)
ENV_READ = ("OMP_NUM_THREADS", "SLURM_CPUS_PER_TASK")  # removed from every case's environment but its own


@dataclass
class Case:
    program: str
    kind: str                 # what is bad (the counts are per kind)
    args: list                # bytes, after the program's name; relative paths lie in the scratch folder
    expect: str = "usage"     # usage | help | list | stdout_error | exit2_quiet | same
    names: tuple = ()         # the message names one of these (the option or the file, as typed)
    contains: bytes = b""     # the message also holds this (the one out-of-range message)
    env: dict = field(default_factory=dict)
    stdout: str = "pipe"      # pipe | closed | full | broken_pipe | broken_pipe_ignored | stderr_closed
    same_as: list = None      # expect "same": the case's result is that of these arguments
    same_env: dict = None     # ... in this environment (None: the case's own)
    as_nobody: bool = False   # run as an unprivileged user (an unwritable file is unwritable to it)


# ---- A program as its --help and --list-versions describe it ---------------------------------

@dataclass
class Program:
    name: str
    binary: Path
    help: bytes = b""
    listing: bytes = b""
    header: bytes = b""                            # its CSV header line (--print-csv-header)
    options: dict = field(default_factory=dict)   # name -> value word: "" (flag), N, X, a|b, VALUE
    positional: list = field(default_factory=list)
    labels: list = field(default_factory=list)
    host_labels: list = field(default_factory=list)
    tags: list = field(default_factory=list)
    ranges: dict = field(default_factory=dict)    # integer option (or integer-list item) -> (lo, hi)
    shapes: set = field(default_factory=set)      # VALUE options of MxN items
    small: list = field(default_factory=list)     # the Makefile's SMALL_ARGS: a tiny valid run
    input_needs: list = field(default_factory=list)  # what --input must come with (colreduce's --n)


def run_plain(argv, env=None, cwd=None):
    p = subprocess.run([bytes(a) if isinstance(a, bytes) else os.fsencode(str(a)) for a in argv],
                       capture_output=True, timeout=TIMEOUT, env=env, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def parse_help(prog):
    text = prog.help.decode("utf-8", "replace")
    body = text.split("\nOptions:\n", 1)[-1].split("\n\n", 1)[0]
    for m in re.finditer(r"^  --([a-z0-9-]+)(?:=(\S+))?", body, re.M):
        if m[1] != "help":
            prog.options[m[1]] = m[2] or ""
    pos = re.search(r"^Positional arguments, in order:(.*)$", text, re.M)
    prog.positional = re.findall(r"\(= --([a-z0-9-]+)\)", pos[1]) if pos else []
    if re.search(r"--n=N .*with --input: required", text):
        prog.input_needs = ["--n=3"]


def parse_listing(prog):
    for line in prog.listing.decode("utf-8", "replace").splitlines():
        words = line.split()
        prog.labels.append(words[0])
        if "host" in words[1:5]:
            prog.host_labels.append(words[0])
        if len(words) > 5 and words[5] != "-":
            prog.tags += [t for t in words[5].split(",") if t not in prog.tags]


def learn_ranges(prog):
    """An integer option's range, from the program's refusal of 2^63 (the one message of a value
    outside the range); a VALUE option refused so holds integers (a list of them), one refused
    with 'MxN' holds shapes."""
    for name, word in prog.options.items():
        if word not in ("N", "VALUE") or name in ("csv", "input", "output", "only"):
            continue
        _, _, err = run_plain([prog.binary, f"--{name}=2^63"])
        m = re.search(rb"out of range \[(-?[0-9]+), (-?[0-9]+)\]", err)
        if m:
            prog.ranges[name] = (int(m[1]), int(m[2]))
        elif word == "VALUE" and b"MxN" in err:
            prog.shapes.add(name)


def small_args(folder):
    r = subprocess.run(["make", "--no-print-directory", "-s", "-C", str(ROOT / folder), "print-SMALL_ARGS"],
                       capture_output=True, text=True)
    return [os.fsencode(a) for a in r.stdout.split()] if r.returncode == 0 else []


def describe(name, binary):
    prog = Program(name, Path(binary))
    rc, prog.help, _ = run_plain([prog.binary, "--help"])
    rc2, prog.listing, _ = run_plain([prog.binary, "--list-versions"])
    rc3, header, _ = run_plain([prog.binary, "--print-csv-header"])
    if rc != 0 or rc2 != 0 or rc3 != 0:
        raise SystemExit(f"probe: {prog.binary} --help, --list-versions or --print-csv-header failed")
    prog.header = header.rstrip(b"\n")
    parse_help(prog)
    parse_listing(prog)
    learn_ranges(prog)
    prog.small = small_args(name) if (ROOT / name / "Makefile").is_file() else []
    return prog


# ---- What a message must look like -------------------------------------------------------------

def printable(value: bytes) -> bytes:
    """cw::printable (common/options.h): C0, DEL, C1 and bytes that are not UTF-8 escaped."""
    out, i = bytearray(), 0
    while i < len(value):
        c, length = value[i], 1
        if c >= 0x80:
            length = next((k for k in (2, 3, 4) if _utf8(value[i:i + k])), 0)
        c1 = length == 2 and c == 0xC2 and value[i + 1] < 0xA0
        if c in (0x0A, 0x09, 0x0D):
            out += {0x0A: b"\\n", 0x09: b"\\t", 0x0D: b"\\r"}[c]
        elif c < 0x20 or c == 0x7F or length == 0 or c1:
            out += b"".join(b"\\x%02x" % b for b in value[i:i + (2 if c1 else 1)])
        else:
            out += value[i:i + length]
        i += length or 1
    return bytes(out)


def _utf8(chunk):
    try:
        return len(chunk.decode("utf-8")) == 1
    except UnicodeDecodeError:
        return False


def raw_bytes(out: bytes):
    """What in a program's output a terminal would take raw: a C0 control but the newline, DEL, a
    C1 control or a byte that is not UTF-8. None when there is none."""
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"a byte that is not UTF-8 ({out[e.start:e.start + 1]!r} at {e.start})"
    m = re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", text)
    return f"a raw control character U+{ord(m[0]):04X}" if m else None


# ---- The cases ---------------------------------------------------------------------------------

def b(text):
    return text if isinstance(text, bytes) else text.encode("utf-8")


# Values with controls and bytes that are not UTF-8, around a good value V: each must be refused
# (no grammar takes them) with the value shown escaped.
CONTROL = ["{v}\x01", "\x1b[2J{v}", "{v}\x7f", "{v}\r", "\u0085{v}", "{v}\u009b2J", "\u009f{v}"]
NOT_UTF8 = [b"{v}\xff", b"\xc3", b"{v}\xc0\xaf", b"\xed\xa0\x80{v}", b"\xf4\x90\x80\x80", b"{v}\x80"]
# Integer spellings the grammar refuses (README, "Integers": digits, 2^k, MeE; a leading '-' alone).
GRAMMAR = [" {v}", "{v} ", "\t{v}", "{v}\n", "\u00a0{v}", "+{v}", "--{v}", "0x10", "0X1f", "0b11", "0o17",
           "1.5", "1.0", ".5", "5.", "1e-3", "1e+3", "1.5e3", "1e3.0", "e3", "1e", "2^", "^2", "2^-1", "2^1.5",
           "2**10", "inf", "nan", "-inf", "one", "5k", "5K", "1_000", "1'000", "\u0665", "\uff15", "0x", "-", "--",
           "{v}{v}x", "-{v}x"]
# Past 64 bits, in each spelling (one message: out of range).
PAST_64 = ["18446744073709551616", "9" * 30, "2^64", "2^63", "1e19", "1e20", "10^100", "-9223372036854775809",
           "-2^63", "2^" + "9" * 25, "1e" + "9" * 25, "0" * 40 + "9" * 25]


def good_value(lo, hi):
    return max(lo, min(hi, 1 if lo <= 1 else lo))


def expand(template, v):
    return b(template).replace(b"{v}", b(str(v)))


def range_values(lo, hi):
    """(kind, value) past the option's range: one above, one below, the powers around it, a negative
    value where none is allowed, zero where one is the minimum."""
    out = [("past_bound", str(hi + 1)), ("past_bound", "2^%d" % hi.bit_length()),
           ("past_bound", "1e%d" % len(str(hi)))]
    if lo > -(1 << 63):
        out.append(("past_bound", str(lo - 1)))
    if lo >= 0:
        out.append(("signed_unsigned", "-%d" % max(1, lo)))
    if lo == 1:
        out.append(("zero_min_one", "0"))
    return out + [("past_64_bit", v) for v in PAST_64]


def accepted_spellings(lo, hi):
    """Other spellings of a value in range (leading zeros, 1eK, 2^K, -0), each with the decimal it
    means: the right answer is what the decimal gets (README, "Integers")."""
    pairs = [("0" * 5 + "7", "7"), ("010", "10"), ("1e3", "1000"), ("1E3", "1000"), ("2^10", "1024"),
             ("-0", "0"), ("1e0", "1"), ("2^0", "1")]
    return [(s, d) for s, d in pairs if lo <= int(d) <= hi]


def bad_integer_values(lo, hi):
    v = good_value(lo, hi)
    out = [("grammar", expand(t, v)) for t in GRAMMAR]
    out += [("out_of_range", b(x)) for k, x in range_values(lo, hi) if k == "past_64_bit"]
    out += [(k, b(x)) for k, x in range_values(lo, hi) if k != "past_64_bit"]
    return out + [("control", expand(t, v)) for t in CONTROL] + [("not_utf8", expand(t, v)) for t in NOT_UTF8]


def out_of_range_text(lo, hi):
    return b"out of range [%d, %d]" % (lo, hi)


def int_cases(prog, name):
    lo, hi = prog.ranges[name]
    opt = "--" + name
    cases = [Case(prog.name, "empty_value", [b(opt + "=")], names=(opt,)),
             Case(prog.name, "no_value", [b(opt)], names=(opt,)),
             Case(prog.name, "duplicate", [b(f"{opt}={good_value(lo, hi)}")] * 2, names=(opt,))]
    for kind, value in bad_integer_values(lo, hi):
        ranged = kind in ("past_bound", "out_of_range", "signed_unsigned", "zero_min_one") and value != b"-"
        cases.append(Case(prog.name, kind, [b(opt + "=") + value], names=(opt,),
                          contains=out_of_range_text(lo, hi) if ranged else b""))
        if name in prog.positional:
            cases.append(positional_case(prog, name, kind, value, out_of_range_text(lo, hi) if ranged else b""))
    for spelled, decimal in accepted_spellings(lo, hi):
        # Accepted: the spelling means its decimal (--list-versions: no run, no GPU needed).
        cases.append(Case(prog.name, "accepted_spelling", [b(f"{opt}={spelled}"), b"--list-versions"],
                          expect="same", same_as=[b(f"{opt}={decimal}"), b"--list-versions"]))
    return cases


def positional_case(prog, name, kind, value, contains):
    """The same value given positionally (the report's command lines): the earlier positional
    arguments get good values."""
    before = []
    for p in prog.positional[:prog.positional.index(name)]:
        lo, hi = prog.ranges.get(p, (1, 1))
        before.append(b(str(good_value(lo, hi))))
    if value.startswith(b"-") and value[1:2] and not value[1:2].isdigit():
        # '-x' is an option, not a value; '--5' a long option named 5: unknown either way.
        return Case(prog.name, "positional_" + kind, before + [value], names=(value,))
    return Case(prog.name, "positional_" + kind, before + [value], names=("--" + name, value), contains=contains)


LIST_ITEMS = [",", "{v},", ",{v}", "{v},,{v}", "{v}, {v}", "{v}..", "..{v}", "{v}...{v}", "{v}..x", "1..2..3",
              "{v};{v}", "{v} {v}", "{v}-{v}", "[{v}]"]
SHAPE_ITEMS = ["10", "10x", "x3", "10x3x2", "10*3", "10 x 3", "0x3", "10x0", "1e40x3", "10x1e40", "10x3,", ",10x3",
               "10x3,,10x3", "10xx3", "axb", "-1x3", "10x-3", "10x 3", "3..1x3", "2^64x3", "10x3\x1b[2J",
               "\u009b10x3", b"10x3\xff"]


def list_cases(prog, name):
    """An option that holds a list of integers (--sizes, --threads=LIST): every bad integer as an
    item, and the list's own faults (empty items, ranges the wrong way round or too long)."""
    lo, hi = prog.ranges[name]
    opt, v = "--" + name, good_value(lo, hi)
    cases = [Case(prog.name, "empty_value", [b(opt + "=")], names=(opt,)),
             Case(prog.name, "no_value", [b(opt)], names=(opt,)),
             Case(prog.name, "duplicate", [b(f"{opt}={v}")] * 2, names=(opt,))]
    for kind, value in bad_integer_values(lo, hi):
        cases.append(Case(prog.name, "list_item_" + kind, [b(opt + "=") + value], names=(opt,)))
        cases.append(Case(prog.name, "list_item_" + kind, [b(f"{opt}={v},") + value], names=(opt,)))
    cases += [Case(prog.name, "list_grammar", [b(opt + "=") + expand(t, v)], names=(opt,)) for t in LIST_ITEMS]
    cases.append(Case(prog.name, "list_empty_range", [b(f"{opt}={v + 1}..{v}")], names=(opt,)))
    if hi >= 200001:
        cases.append(Case(prog.name, "list_too_long", [b(f"{opt}=1..200001")], names=(opt,)))
    return cases


def shape_cases(prog, name):
    opt = "--" + name
    cases = [Case(prog.name, "empty_value", [b(opt + "=")], names=(opt,)),
             Case(prog.name, "no_value", [b(opt)], names=(opt,)),
             Case(prog.name, "duplicate", [b(opt + "=10x3")] * 2, names=(opt,))]
    cases += [Case(prog.name, "shape_grammar", [b(opt + "=") + b(t)], names=(opt,)) for t in SHAPE_ITEMS]
    # Accepted: the x in either case (parse_shape_list).
    cases.append(Case(prog.name, "accepted_spelling", [b(opt + "=10X3"), b"--list-versions"], expect="same",
                      same_as=[b(opt + "=10x3"), b"--list-versions"]))
    return cases


def choice_cases(prog, name):
    opt, choices = "--" + name, prog.options[name].split("|")
    c = choices[0]
    values = ["", " " + c, c + " ", c.upper(), c[:-1], c + "x", f"{c},{c}", c + "\x1b[2J", "\u009b" + c,
              b(c) + b"\xff", "*", c + "=" + c]
    cases = [Case(prog.name, "choice_value", [b(opt + "=") + b(v)], names=(opt,)) for v in values
             if b(v) not in map(b, choices)]
    return cases + [Case(prog.name, "no_value", [b(opt)], names=(opt,)),
                    Case(prog.name, "duplicate", [b(f"{opt}={c}")] * 2, names=(opt,))]


def flag_cases(prog, name):
    opt = "--" + name
    cases = [Case(prog.name, "flag_with_value", [b(f"{opt}={v}")], names=(opt,)) for v in ("1", "", "yes", "0", "on")]
    cases.append(Case(prog.name, "flag_with_value", [b(opt + "=\x1b[2J")], names=(opt,)))
    cases.append(Case(prog.name, "duplicate", [b(opt)] * 2, names=(opt,)))
    return cases + [Case(prog.name, "unknown_option", [b("--no-" + name)], names=("--no-" + name,))]


UNKNOWN = ["--bogus", "--bogus=1", "-x", "-n", "-n=5", "---repeat=3", "--REPEAT=3", "--Repeat=3", "--rep=3",
           "--repeat_=3", "--repeat-=3", "--=3", "--", "-repeat=3", "--5", "--bogus\x1b[2J", "--\u009b2J",
           b"--\xff", "--repeat =3", "-\u0085", "—repeat=3", "-h=1", "--help=", "--help=1", "--hel", "--HELP",
           "-H", "-help"]


def unknown_cases(prog):
    cases = []
    for arg in UNKNOWN:
        a = b(arg)
        name = a.split(b"=")[0]
        if a.startswith(b"\xe2\x80\x94") and prog.positional:  # an em dash: a value, not an option
            name = b"--" + b(prog.positional[0])
        cases.append(Case(prog.name, "unknown_option", [a], names=(name, a)))
        cases.append(Case(prog.name, "unknown_option", prog.small + [a], names=(name, a)))
    # --help with an option that is not one: a bad option is exit 2 whatever else is asked.
    cases.append(Case(prog.name, "help_with_unknown", [b"--help", b"--bogus"], names=("--bogus",)))
    cases.append(Case(prog.name, "help_with_unknown", [b"--bogus", b"--help"], names=("--bogus",)))
    extra = [b"1"] * (len(prog.positional) + 1)
    cases.append(Case(prog.name, "extra_positional", extra, names=("'1'",)))
    if prog.positional:
        p = prog.positional[0]
        lo, hi = prog.ranges.get(p, (1, 1))
        v = b(str(good_value(lo, hi)))
        cases.append(Case(prog.name, "duplicate", [b(f"--{p}=") + v, v], names=("--" + p,)))
    return cases


def only_cases(prog):
    label = prog.labels[0]
    values = ["nosuch", label.upper(), " " + label, label + " ", label + ",", "," + label, f"{label},{label}",
              "@", "@nosuch_tag", "@ " + (prog.tags[0] if prog.tags else "x"), label + "\x1b[2J", "\u0085" + label,
              b(label) + b"\xff", "*", "all", label + "=1", label + ";" + label, "@" + label + "\u009b"]
    if prog.tags:
        values += ["@" + prog.tags[0].upper(), "@%s,@%s" % (prog.tags[0], prog.tags[0])]
    cases = [Case(prog.name, "only_label", [b"--only=" + b(v)], names=("--only",)) for v in values
             if b(v) not in map(b, prog.labels)]
    return cases + [Case(prog.name, "empty_value", [b"--only="], names=("--only",)),
                    Case(prog.name, "no_value", [b"--only"], names=("--only",)),
                    Case(prog.name, "duplicate", [b"--only=" + b(label)] * 2, names=("--only",))]


# ---- Files: the fixtures of every scratch folder and the cases that name them -----------------

def make_fixtures(d: Path, prog):
    """What a case may name, relative to its scratch folder (its working directory)."""
    (d / "folder").mkdir()
    os.mkfifo(d / "fifo")
    for name, data in (("empty.bin", b""), ("three.bin", b"abc"), ("odd.bin", b"\x01" * 4099),
                       ("file.bin", bytes(range(16))), ("other.csv", b"a,b\n1,2\n"),
                       ("partial.csv", prog.header[:len(prog.header) // 2]), ("binary.csv", b"\xff\x00\x1b[2J\n"),
                       ("ro.csv", prog.header + b"\n"), ("unreadable.bin", bytes(range(16)))):
        (d / name).write_bytes(data)
    with open(d / "huge.bin", "wb") as f:
        f.truncate(1 << 40)
    os.chmod(d / "ro.csv", 0o444)
    os.chmod(d / "unreadable.bin", 0)
    (d / "rodir").mkdir(mode=0o555)
    os.chmod(d / "rodir", 0o555)
    os.symlink("loop", d / "loop")


# (kind, path, needs an unprivileged user) for --csv and --output: none of them can be written.
OUTPUT_PATHS = [("directory", "folder"), ("directory", "."), ("directory", "folder/"), ("directory", "/"),
                ("missing_folder", "nofolder/x"), ("missing_folder", "no\x1b[2Jfolder/x"),
                ("missing_folder", b"no\xfffolder/x"), ("missing_folder", "no\u0085folder/x"),
                ("not_a_folder", "file.bin/x"), ("device", "/dev/full"), ("fifo", "fifo"),
                ("symlink_loop", "loop"), ("pseudo_file", "/proc/x"), ("pseudo_file", "/sys/x"),
                ("long_path", "a/" * 2100 + "x"), ("long_name", "n" * 300)]
UNWRITABLE = [("unwritable_file", "ro.csv"), ("unwritable_folder", "rodir/x")]
INPUT_PATHS = [("directory", "folder"), ("directory", "."), ("fifo", "fifo"), ("missing_file", "missing.bin"),
               ("missing_folder", "nofolder/x.bin"), ("device", "/dev/zero"), ("device", "/dev/full"),
               ("device", "/dev/null"), ("empty_file", "empty.bin"), ("truncated_file", "three.bin"),
               ("truncated_file", "odd.bin"), ("sparse_1_TiB", "huge.bin"), ("symlink_loop", "loop"),
               ("pseudo_file", "/proc/self/status"), ("not_a_folder", "file.bin/"),
               ("missing_file", "mis\x1b[2Jsing.bin"), ("missing_file", b"mis\xffsing.bin"),
               ("missing_file", "mis\u009bsing.bin")]


def file_case(prog, kind, option, path, base, nobody=False):
    opt = "--" + option
    return Case(prog.name, kind, base + [b(f"{opt}=") + b(path)], names=(opt, b(path)), as_nobody=nobody)


def output_cases(prog):
    """--csv and --output naming what cannot be written, alone and beside a good one of the other
    (the two are committed together or not at all: the good one must not be written either)."""
    cases, base = [], prog.small
    for option in ("csv", "output"):
        if option not in prog.options:
            continue
        other = "--output=out.bin" if option == "csv" else "--csv=rows.csv"
        for kind, path in OUTPUT_PATHS:
            cases.append(file_case(prog, kind, option, path, base))
            cases.append(file_case(prog, kind + "_with_other_output", option, path, base + [b(other)]))
        for kind, path in UNWRITABLE:
            cases.append(file_case(prog, kind, option, path, base, nobody=True))
        cases.append(Case(prog.name, "empty_value", base + [b(f"--{option}=")], names=("--" + option,)))
        cases.append(Case(prog.name, "duplicate", base + [b(f"--{option}=a.x"), b(f"--{option}=b.x")],
                          names=("--" + option,)))
    if "csv" in prog.options:
        for path in ("other.csv", "partial.csv", "binary.csv", "huge.bin"):  # huge.bin: 1 TiB of zeros, no newline
            cases.append(file_case(prog, "csv_other_columns", "csv", path, base))
            cases.append(file_case(prog, "csv_other_columns", "csv", path, base + [b"--output=out.bin"]))
        for o in ("out.bin", "./out.bin", "folder/../out.bin"):
            cases.append(Case(prog.name, "csv_output_same_file", base + [b"--csv=out.bin", b("--output=" + o)],
                              names=("out.bin",)))
    return cases


def input_cases(prog):
    if "input" not in prog.options:
        return []
    cases = []
    for kind, path in INPUT_PATHS:
        cases.append(file_case(prog, kind, "input", path, prog.input_needs))
    cases.append(file_case(prog, "unreadable_file", "input", "unreadable.bin", prog.input_needs, nobody=True))
    cases.append(Case(prog.name, "empty_value", [b"--input="], names=("--input",)))
    cases.append(Case(prog.name, "duplicate", prog.input_needs + [b"--input=file.bin"] * 2, names=("--input",)))
    # The file gives the size: an option that also gives it is refused (README, "--input").
    for name in ("n", "m", "sizes", "data"):
        if name in prog.options and f"--{name}=3" not in map(os.fsdecode, prog.input_needs):
            value = prog.options[name].split("|")[0] if "|" in prog.options[name] else "3"
            cases.append(Case(prog.name, "input_with_size", prog.input_needs + [b"--input=file.bin", b(f"--{name}={value}")],
                              names=("--input", "--" + name)))
    return cases


# ---- The environment a program reads ------------------------------------------------------------

ENV_BAD = ["100000", "40000", "4097", "0", "-1", "abc", "1e3", "2^3", "0x10", " ", "8x", "99999999999999999999999",
           "\x1b[2J", "\u009b", b"\xff", "8,", ",8", "+8"]


def env_cases(prog):
    """The CPU versions' thread count from the environment (pi: OMP_NUM_THREADS, else Slurm's
    SLURM_CPUS_PER_TASK) is bounded like --cpu-threads: past it, one line naming the variable."""
    if not prog.host_labels or "OMP_NUM_THREADS" not in prog.help.decode("utf-8", "replace"):
        return []
    base = prog.small + [b"--only=" + b(",".join(prog.host_labels)), b"--repeat=1", b"--warmup=0"]
    cases = []
    for var in ENV_READ:
        for value in ENV_BAD:
            cases.append(Case(prog.name, "environment", list(base), names=(var,), env={var: b(value)}))
        # Accepted: blanks around the count and OMP_NUM_THREADS's list of levels (libgomp takes both).
        for value in (" 2 ", "2,1", "\t2"):
            if var == "OMP_NUM_THREADS" or value == " 2 ":
                cases.append(Case(prog.name, "environment_accepted", base + [b"--list-versions"], expect="same",
                                  env={var: b(value)}, same_as=base + [b"--list-versions"], same_env={var: b"2"}))
    return cases


# ---- Standard output and error that cannot be written; --help; sizes of the command line -------

STDOUT_MODES = ("closed", "full", "broken_pipe", "broken_pipe_ignored")


def special_cases(prog):
    """README, "Exit status": a standard output that cannot be written (closed, /dev/full, a pipe
    whose reader has gone, with SIGPIPE at its default or ignored) is exit 2 and one line, never a
    death by SIGPIPE; a refusal's line goes to standard error whatever standard output is."""
    cases = []
    for opt in ("--help", "--list-versions", "--print-csv-header"):
        for mode in STDOUT_MODES:
            cases.append(Case(prog.name, "stdout_" + mode, [b(opt)], expect="stdout_error", stdout=mode))
    for mode in STDOUT_MODES:
        cases.append(Case(prog.name, "refusal_stdout_" + mode, [b"--bogus"], names=("--bogus",), stdout=mode))
        cases.append(Case(prog.name, "refusal_stdout_" + mode, [b"--repeat=0"], names=("--repeat",), stdout=mode))
    for args in ([b"--bogus"], [b"--repeat=0"], prog.small + [b"--csv=folder"]):
        cases.append(Case(prog.name, "stderr_closed", args, expect="exit2_quiet", stdout="stderr_closed"))
    # --help (or -h) prints the help on standard output and exits 0, given alone, twice or after
    # good options: the answer is the help text, byte for byte.
    for args in ([b"--help"], [b"-h"], [b"--help", b"--help"], [b"-h", b"--help"], prog.small + [b"--help"],
                 [b"--help"] + prog.small):
        cases.append(Case(prog.name, "help", args, expect="help"))
    cases.append(Case(prog.name, "list_versions", prog.small + [b"--list-versions"], expect="list"))
    # Sizes: a 100,000-character value or name, 10,000 arguments.
    cases += [Case(prog.name, "huge_argument", [b"--repeat=" + b"9" * 100000], names=("--repeat",),
                   contains=b"out of range"),
              Case(prog.name, "huge_argument", [b"--" + b"a" * 100000], names=(b"--" + b"a" * 100000,)),
              Case(prog.name, "huge_argument", [b"--only=" + b"x" * 100000], names=("--only",)),
              Case(prog.name, "many_arguments", [b"--pinned"] * 10000, names=("--pinned",))]
    return cases


def generate(prog):
    cases = unknown_cases(prog) + only_cases(prog) + output_cases(prog) + input_cases(prog) + env_cases(prog)
    for name, word in prog.options.items():
        if word == "":
            cases += flag_cases(prog, name)
        elif "|" in word:
            cases += choice_cases(prog, name)
        elif name in prog.shapes:
            cases += shape_cases(prog, name)
        elif name in prog.ranges:
            cases += int_cases(prog, name) if word == "N" else list_cases(prog, name)
    return cases + special_cases(prog)


# ---- Running a case ---------------------------------------------------------------------------

@dataclass
class Result:
    rc: int
    out: bytes
    err: bytes
    hung: bool
    changed: list


def snapshot(d: Path):
    """Every entry under d: its type, mode, size, time and (regular files up to 1 MiB) content.
    A folder's time is left out (a temporary made and removed is no file changed)."""
    state = {}
    for top, dirs, files in os.walk(d):
        for name in dirs + files:
            p = os.path.join(top, name)
            st = os.lstat(p)
            digest = None
            if stat.S_ISREG(st.st_mode) and st.st_size <= 1 << 20:
                try:
                    with open(p, "rb") as f:
                        digest = hashlib.sha1(f.read()).hexdigest()
                except OSError:
                    digest = "unreadable"
            when = None if stat.S_ISDIR(st.st_mode) else st.st_mtime_ns
            state[os.path.relpath(p, d)] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), st.st_size, when, digest)
    return state


def changes(before, after):
    return ([f"created {p!r}" for p in sorted(after.keys() - before.keys())] +
            [f"removed {p!r}" for p in sorted(before.keys() - after.keys())] +
            [f"changed {p!r}" for p in sorted(before.keys() & after.keys()) if before[p] != after[p]])


def command(case, prog, args):
    argv = [bytes(prog.binary)] + args
    wrappers = {"closed": b'exec "$0" "$@" >&-', "stderr_closed": b'exec "$0" "$@" 2>&-',
                "broken_pipe_ignored": b'trap "" PIPE; exec "$0" "$@"'}
    return [b"/bin/sh", b"-c", wrappers[case.stdout]] + argv if case.stdout in wrappers else argv


def environment(overrides):
    env = dict(os.environb)
    for name in ENV_READ:
        env.pop(b(name), None)
    env.update({b(k): v for k, v in overrides.items()})
    return env


def execute(case, prog, args, env, d):
    """One run in the scratch folder d; its standard output as the case says."""
    stdout, w, full = subprocess.PIPE, None, None
    if case.stdout.startswith("broken_pipe"):
        r, w = os.pipe()
        os.close(r)
        stdout = w
    elif case.stdout == "full":
        full = open("/dev/full", "wb")
        stdout = full
    stderr = subprocess.DEVNULL if case.stdout == "stderr_closed" else subprocess.PIPE
    user = dict(user=NOBODY, group=NOBODY, extra_groups=[]) if case.as_nobody and os.geteuid() == 0 else {}
    before = snapshot(d)
    p = subprocess.Popen(command(case, prog, args), cwd=d, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                         env=environment(env), start_new_session=True, **user)
    for fd in (w,):
        if fd is not None:
            os.close(fd)
    if full is not None:
        full.close()
    try:
        out, err = p.communicate(timeout=TIMEOUT)
        hung = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        hung = True
    return Result(p.returncode, out or b"", err or b"", hung, changes(before, snapshot(d)))


def scratch(root, prog, case):
    d = Path(tempfile.mkdtemp(dir=root))
    make_fixtures(d, prog)
    if case.as_nobody:
        os.chmod(d, 0o777)
    return d


def run_case(root, prog, case):
    d = scratch(root, prog, case)
    try:
        result = execute(case, prog, case.args, case.env, d)
        reference = None
        if case.expect == "same":
            env = case.env if case.same_env is None else case.same_env
            reference = execute(case, prog, case.same_as, env, d)
        return judge(case, prog, result, reference)
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ---- Judging ----------------------------------------------------------------------------------

def one_line_refusal(prog, err):
    """The shape of every refusal: one line, '<program>: error: ...'."""
    lines = err.count(b"\n") + (0 if err.endswith(b"\n") or not err else 1)
    if lines != 1 or not err.endswith(b"\n"):
        return f"{lines} lines on standard error, not one line: {shown(err)}"
    if not err.startswith(b(prog.name) + b": error: "):
        return f"standard error does not start with '{prog.name}: error: ': {shown(err)}"
    return None


def judge_usage(case, prog, r):
    problems = []
    if r.rc != 2:
        problems.append(f"exit {r.rc}, not 2")
    if case.stdout != "stderr_closed":
        line = one_line_refusal(prog, r.err)
        if line:
            problems.append(line)
        elif case.names and not any(printable(b(n)) in r.err for n in case.names):
            problems.append(f"the message names none of {[shown(b(n), 60) for n in case.names]}: {shown(r.err)}")
        if case.contains and case.contains not in r.err:
            problems.append(f"the message lacks '{shown(case.contains)}': {shown(r.err)}")
    if r.out:
        problems.append(f"standard output is not empty: {shown(r.out)}")
    return problems


def judge_answer(case, prog, r, reference):
    """The cases whose right answer is not a refusal: --help's text (exit 0), --list-versions' lines
    (exit 0), a standard output that cannot be written (exit 2, 'cannot write standard output'), a
    value spelled another way (what its plain spelling gets)."""
    if case.expect == "help" and (r.rc, r.out, r.err) != (0, prog.help, b""):
        return [f"exit {r.rc}, {len(r.out)} bytes on standard output (--help: exit 0, the help): {shown(r.err)}"]
    if case.expect == "list" and (r.rc, r.out, r.err) != (0, prog.listing, b""):
        return [f"exit {r.rc}, not --list-versions' lines: {shown(r.out + r.err)}"]
    if case.expect == "stdout_error":
        line = one_line_refusal(prog, r.err)
        if r.rc != 2 or line or b"cannot write standard output" not in r.err:
            return [f"exit {r.rc} (2 and one line 'cannot write standard output' expected): {shown(r.err)}"]
    if case.expect == "same" and (r.rc, r.out) != (reference.rc, reference.out):
        return [f"exit {r.rc} where its plain spelling {fmt(case.same_as)} gets exit {reference.rc}: {shown(r.err)}"]
    if case.expect == "same" and r.rc == 2 and one_line_refusal(prog, r.err):
        return [one_line_refusal(prog, r.err)]
    return []


def judge(case, prog, r, reference=None):
    if r.hung:
        return [f"no answer within {TIMEOUT} s (killed)"]
    problems = [f"killed by signal {-r.rc} ({signal.Signals(-r.rc).name})"] if r.rc < 0 else []
    if case.expect in ("usage", "exit2_quiet"):
        problems += judge_usage(case, prog, r)
    else:
        problems += judge_answer(case, prog, r, reference)
    for what, data in (("standard output", r.out), ("standard error", r.err)):
        raw = raw_bytes(data)
        if raw:
            problems.append(f"{raw} on {what}")
    if r.changed:
        problems.append("files touched: " + ", ".join(r.changed[:4]))
    return problems


def shown(data: bytes, limit=200):
    text = printable(data).decode("utf-8", "replace").rstrip("\\n")
    return text if len(text) <= limit else text[:limit] + f"... ({len(data)} bytes)"


def quote(arg: bytes):
    if len(arg) > 120:
        return quote(arg[:60]) + f"...({len(arg)} bytes)"
    text = arg.decode("utf-8", "replace")
    if printable(arg) == arg and "\ufffd" not in text:
        return shlex.quote(text)
    return "$'" + "".join(chr(c) if 0x20 <= c < 0x7F and chr(c) not in "'\\" else "\\x%02x" % c for c in arg) + "'"


def fmt(args):
    if len(args) > 12:
        return " ".join(quote(a) for a in args[:3]) + f" ... ({len(args)} arguments)"
    return " ".join(quote(a) for a in args)


def describe_case(case):
    env = " ".join(f"{k}={quote(v)}" for k, v in case.env.items())
    redirect = {"pipe": "", "closed": " >&-", "stderr_closed": " 2>&-", "full": " >/dev/full",
                "broken_pipe": " | (reader gone)", "broken_pipe_ignored": " | (reader gone, SIGPIPE ignored)"}
    who = " (as nobody)" if case.as_nobody and os.geteuid() == 0 else ""
    return f"{(env + ' ') if env else ''}{case.program} {fmt(case.args)}{redirect[case.stdout]}{who}"


# ---- The command line of this script ----------------------------------------------------------

def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Bad command lines for every program; one line per finding.")
    parser.add_argument("--programs", help="comma-separated folders (default: every assignment)")
    parser.add_argument("--sample", type=int, help="run a random subset of N cases")
    parser.add_argument("--seed", type=int, default=1, help="seed of --sample (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cases run at once (default: cores)")
    parser.add_argument("--counts", action="store_true", help="print the number of cases of each kind, run none")
    parser.add_argument("--binary", action="append", default=[],
                        help="probe this executable instead (its name is its file's; for the probe's own test)")
    args = parser.parse_args(argv)
    if (args.sample is not None and args.sample < 1) or args.jobs < 1:
        parser.error("--sample and --jobs take a positive count")
    return args


def programs(selection, binaries):
    """{name: binary} of the programs to probe; exit 2 for one unknown or not built."""
    if binaries:
        return {Path(p).name: Path(p).resolve() for p in binaries}
    every = subprocess.run(["bash", str(ROOT / "common/scripts/assignments.sh")], capture_output=True,
                           text=True).stdout.split()
    chosen = selection.split(",") if selection else every
    unknown = [n for n in chosen if n not in every]
    missing = [n for n in chosen if not (ROOT / n / "bin" / n).is_file()]
    if unknown or missing:
        print(f"probe: error: {'unknown program ' + ','.join(unknown) if unknown else ''}"
              f"{'; ' if unknown and missing else ''}{'not built (make): ' + ','.join(missing) if missing else ''}",
              file=sys.stderr)
        sys.exit(2)
    return {n: ROOT / n / "bin" / n for n in chosen}


def main(argv):
    args = parse_arguments(argv)
    described = {n: describe(n, path) for n, path in programs(args.programs, args.binary).items()}
    cases = [c for prog in described.values() for c in generate(prog)]
    if args.sample is not None:
        keep = set(random.Random(args.seed).sample(range(len(cases)), min(args.sample, len(cases))))
        cases = [c for i, c in enumerate(cases) if i in keep]
    if args.counts:
        kinds = {}
        for c in cases:
            kinds[c.kind] = kinds.get(c.kind, 0) + 1
        for kind, n in sorted(kinds.items()):
            print(f"{n:6d} {kind}")
        print(f"probe: {len(cases)} cases")
        return 0
    started, findings = time.monotonic(), 0
    with tempfile.TemporaryDirectory(prefix="probe_bad_input.") as root:
        os.chmod(root, 0o755)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for case, problems in zip(cases, pool.map(lambda c: run_case(root, described[c.program], c), cases)):
                if problems:  # one finding per case, its problems together
                    findings += 1
                    print(f"probe: {case.kind}: {describe_case(case)}: {'; '.join(problems)}", flush=True)
    print(f"probe: {len(cases)} cases, {findings} findings ({time.monotonic() - started:.0f} s)")
    return 1 if findings else 0


if __name__ == "__main__":
    import resource
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a signal death is a finding, not a core file
    sys.exit(main(sys.argv[1:]))
