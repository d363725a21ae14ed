"""Every command in the documents runs (no GPU): every shell block of every tracked Markdown file
parses (`bash -n`), every command it names exists, and its lines that need no GPU, no Slurm and no
build run in a scratch clone of the repository.

Shell blocks: fenced blocks tagged sh, bash, shell, zsh or console (a console block's commands are
its "$ " lines), and untagged blocks whose first command is one (output shown in an untagged block
is left alone). A block preceded by `<!-- no-run: why -->` is checked but never run.

A command exists when it is a shell builtin or keyword, a program on PATH, one of the tools a GPU
cluster or a Debian machine provides (STANDARD: module, sbatch, nvcc, apt-get ...), or a file of
the repository, relative to the document's folder or to the root (the first of the two under which
every path of the block resolves, following its `cd`s); a file run as a command must be executable;
a program the Makefiles build (NAME/bin/NAME, common/bin/devinfo, NAME/build/experiments/X) counts
as a file. The scripts given to bash, sh, source, python3, sbatch and gnuplot -c, and make's -C
folder, must exist too.

What runs: the lines of a block whose every command is cheap and local (CHEAP: cd, export, echo,
read-only git, `make plots|tables|summary|print-*|help`, python3 on a script of the repository
that is not pytest; a line that reads a file, such as a job's log, is not run: what it reads
comes from a GPU or Slurm run), in the block's order, in a clone of the repository made once per session (the
working tree's uncommitted and new files copied over it), each block under `bash -e` within
RUN_TIMEOUT seconds. A block whose lines form a loop or a condition runs whole or not at all.
Budget: on the committed documents this is `make plots` once at the top and once per assignment,
about 30 s on two cores when the figures are up to date; the build, the tests and anything on a GPU
or Slurm are left to their own tests.
"""
import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field

import pytest
from cwtest import ROOT, run

SHELL_LANGS = {"sh", "bash", "shell", "zsh", "console"}
FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)")
NO_RUN = re.compile(r"<!--\s*no-run:\s*(.+?)\s*-->")
STANDARD = set("""module ml sbatch srun squeue sacct scontrol sinfo scancel salloc sudo apt-get apt dpkg
    nvidia-smi nvcc ncu nsys compute-sanitizer cuobjdump gnuplot make git python3 pytest ssh scp""".split())
KEYWORDS = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"}
ENDS = {"fi", "done", "esac", "}", "then", "else", "do"}
PREFIX_COMMANDS = {"sudo", "exec", "nohup", "command", "time", "env", "nice"}
SEPARATORS = {";", "&&", "||", "|", "&", "(", ")", ";;", "|&"}
REDIRECTS = {">", ">>", "<", ">&", "&>", "<<", "<<<", ">|", "&>>"}
SCRIPT_TAKERS = {"bash", "sh", "source", ".", "python3", "python", "sbatch"}
CHEAP = {"cd", "export", "echo", "printf", "true", "unset", "set", "pwd"}
CHEAP_MAKE_GOALS = re.compile(r"^(plots|tables|summary|print-[\w.-]+|help)$")
RUN_TIMEOUT = 300


@dataclass
class Block:
    doc: str          # repository-relative path of the document
    line: int         # line of the opening fence
    lang: str
    lines: list       # the block's text, line by line
    no_run: str = ""  # the reason of a preceding <!-- no-run: ... -->
    commands: list = field(default_factory=list)  # (logical line, [command words]) after parsing

    @property
    def id(self):
        return f"{self.doc}:{self.line}"

    def text(self):
        if self.lang == "console":
            return "\n".join(x.strip()[2:] for x in self.lines if x.strip().startswith("$ "))
        return "\n".join(re.sub(r"^(\s*)\$ ", r"\1", x) for x in self.lines)


def fenced_blocks(doc, text):
    """Every fenced block of a Markdown text: Block(doc, line, lang, lines, no_run)."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, start, body = m.group(1), i + 1, []
        before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence[:3]):
            body.append(lines[i])
            i += 1
        reason = NO_RUN.search(before)
        out.append(Block(doc, start, m.group(2).lower(), body, reason.group(1) if reason else ""))
        i += 1
    return out


def logical_lines(text):
    """The block's lines with backslash continuations joined, comments and blank lines left out."""
    out, cur = [], ""
    for raw in text.split("\n"):
        cur += raw
        if cur.endswith("\\"):
            cur = cur[:-1] + " "
            continue
        if cur.strip() and not cur.strip().startswith("#"):
            out.append(cur.strip())
        cur = ""
    if cur.strip():
        out.append(cur.strip())
    return out


def tokens(line):
    lex = shlex.shlex(line, posix=True, punctuation_chars=";&|()<>")
    lex.whitespace_split, lex.commenters = True, "#"
    try:
        return list(lex)
    except ValueError:  # an unclosed quote: bash -n reports it
        return line.split()


def simple_commands(line):
    """[[word, args...]] of a logical line: each command with its arguments (assignments before a
    command and redirections left out; the words after for/case/select not taken as commands)."""
    out, cur, expect, skip_next, skip_to_sep = [], None, True, False, False
    for tok in tokens(line):
        if skip_next:
            skip_next = False
            continue
        if tok in SEPARATORS:
            cur, expect, skip_to_sep = None, True, False
            continue
        if skip_to_sep:
            if tok == "do":
                skip_to_sep, expect = False, True
            continue
        if tok in REDIRECTS:
            skip_next = True
            continue
        if expect:
            if re.match(r"^[A-Za-z_]\w*=", tok) or tok in ENDS:
                continue
            if tok in ("for", "case", "select", "function"):
                skip_to_sep = True
                continue
            if tok in KEYWORDS:
                continue
            cur, expect = [tok], tok in PREFIX_COMMANDS
            out.append(cur)
            continue
        if cur is not None:
            cur.append(tok)
    return out


def built_product(root, path):
    """True for what a Makefile builds: F/bin/N (N = F's name, or F/N.cu), F/build/experiments/X."""
    parts = path.split("/")
    if len(parts) >= 3 and parts[-2] == "bin":
        folder = "/".join(parts[:-2])
        return os.path.isfile(os.path.join(root, folder, "Makefile")) and (
            parts[-1] == os.path.basename(folder) or os.path.isfile(os.path.join(root, folder, parts[-1] + ".cu")))
    if len(parts) >= 4 and parts[-3:-1] == ["build", "experiments"]:
        return os.path.isfile(os.path.join(root, *parts[:-3], "experiments", parts[-1] + ".cu"))
    return False


def type_of(word):
    r = subprocess.run(["bash", "-c", 'type -t -- "$1"', "_", word], capture_output=True, text=True)
    return r.stdout.strip()


class Checker:
    """Follows a block's commands from the folders it may start in (repository-relative, '' = the
    root); a path is right when it resolves from one of them (a block may say "from the root")."""

    def __init__(self, root, starts):
        self.root, self.cwds, self.problems = root, list(dict.fromkeys(starts)), []

    def where(self):
        return " or ".join(f"{c or '.'}/" for c in self.cwds)

    def resolves(self, path, test):
        if re.search(r"[$~*]", path) or path.startswith("/"):
            return True  # a variable, the home folder, a glob or a system path: not the repository's
        return any(test(os.path.normpath(os.path.join(c, path))) for c in self.cwds)

    def is_file(self, rel):
        return os.path.isfile(os.path.join(self.root, rel)) or built_product(self.root, rel)

    def is_dir(self, rel):
        return os.path.isdir(os.path.join(self.root, rel))

    def command(self, words, line):
        word = words[0]
        if word.startswith("-"):
            self.problems.append(f"'{word}' is no command (an option where a command should be): {line}")
        elif "/" in word:
            self.program(word, line)
        elif word not in STANDARD and not type_of(word) and "$" not in word:
            self.problems.append(f"'{word}' is no command: {line}")
        else:
            self.arguments(word, words[1:], line)

    def program(self, word, line):
        if not self.resolves(word, self.is_file):
            self.problems.append(f"'{word}' is no file of the repository (from {self.where()}): {line}")
        elif not self.resolves(word, lambda rel: built_product(self.root, rel) or os.access(os.path.join(self.root, rel), os.X_OK)):
            self.problems.append(f"'{word}' is not executable (run it with bash, or chmod +x): {line}")

    def arguments(self, word, args, line):
        if word == "cd" and args and not re.search(r"[$~]", args[0]) and args[0] != "-":
            moved = [os.path.normpath(os.path.join(c, args[0])) for c in self.cwds]
            moved = ["" if m == "." else m for m in moved if self.is_dir(m)]
            if moved:
                self.cwds = list(dict.fromkeys(moved))
            else:
                self.problems.append(f"cd {args[0]}: no such folder (from {self.where()}): {line}")
        elif word == "make" and "-C" in args[:-1]:
            folder = args[args.index("-C") + 1]
            if not self.resolves(folder, self.is_dir):
                self.problems.append(f"make -C {folder}: no such folder (from {self.where()}): {line}")
        elif word in SCRIPT_TAKERS or (word == "gnuplot" and "-c" in args):
            rest = args[args.index("-c") + 1:] if word == "gnuplot" else args
            script = next((a for a in rest if not a.startswith("-")), None)
            if script and ("/" in script or script.endswith((".sh", ".py", ".sbatch", ".gp"))) \
                    and not self.resolves(script, self.is_file):
                self.problems.append(f"{word} {script}: no such file (from {self.where()}): {line}")


def follow(block, starts, root):
    c = Checker(str(root), starts)
    for line in logical_lines(block.text()):
        for words in simple_commands(line):
            c.command(words, line)
    return c.problems


def check_block(block, root=ROOT):
    """(problems, the folder to run it from): bash -n, then every command, each path resolving from
    the document's folder or the root (after the block's cd's); it runs from the first of the two
    from which all of them resolve."""
    r = subprocess.run(["bash", "-n"], input=block.text(), capture_output=True, text=True)
    syntax = [f"does not parse: {(r.stderr.strip().splitlines() or ['?'])[0]}"] if r.returncode else []
    docdir = os.path.dirname(block.doc)
    start = next((s for s in (docdir, "") if not follow(block, [s], root)), docdir)
    return syntax + follow(block, [docdir, ""], root), start


def is_shell(block):
    if block.lang in SHELL_LANGS:
        return True
    if block.lang:
        return False
    first = next(iter(logical_lines(block.text())), "")
    cmds = simple_commands(first)
    word = cmds[0][0] if cmds else ""
    return bool(word) and (word in STANDARD or "/" in word or type_of(word) in ("builtin", "file", "keyword"))


def cheap(words):
    word, args = words[0], words[1:]
    if word in CHEAP:
        return True
    if word == "make":
        goals, skip = [], False
        for a in args:
            if skip:
                skip = False
            elif a in ("-C", "-f"):
                skip = True
            elif not a.startswith("-") and "=" not in a:
                goals.append(a)
        return bool(goals) and all(CHEAP_MAKE_GOALS.match(g) for g in goals)
    if word in ("python3", "python"):
        return bool(args) and args[0].endswith(".py") and "pytest" not in " ".join(args)
    if word == "git":
        return bool(args) and args[0] in ("log", "status", "show", "diff", "ls-files", "rev-parse")
    return False


def runnable(block):
    """The lines of a block that run (see the module's docstring), '' when none but cd/export."""
    if block.no_run:
        return ""
    lines = logical_lines(block.text())
    compound = any(re.match(r"^(for|while|until|if|case|select)\b", x) or x.endswith(("{", "do", "then")) for x in lines)
    kept = [x for x in lines if simple_commands(x) and all(cheap(w) for w in simple_commands(x))]
    if compound and len(kept) != len(lines):
        return ""
    real = [x for x in kept if any(w[0] not in ("cd", "export", "unset", "set") for w in simple_commands(x))]
    return "\n".join(kept) if real else ""


def documents(root=ROOT):
    out = subprocess.run(["git", "-C", str(root), "ls-files", "*.md"], capture_output=True, text=True).stdout.split()
    return [d for d in out if os.path.isfile(os.path.join(root, d))]


def shell_blocks(root=ROOT):
    found = []
    for doc in documents(root):
        with open(os.path.join(root, doc), encoding="utf-8") as f:
            found += [b for b in fenced_blocks(doc, f.read()) if is_shell(b)]
    return found


BLOCKS = shell_blocks()


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_a_shell_block_parses_and_names_real_commands(block):
    problems, _ = check_block(block)
    assert not problems, f"{block.id}:\n" + "\n".join(problems)


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """A clone of the repository at HEAD with the working tree's changed and new files over it."""
    dst = tmp_path_factory.mktemp("clone") / "repo"
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    r = run(["git", "clone", "-q", "--shared", "--no-checkout", ROOT, dst], 120)
    assert r.rc == 0, r.tail()
    assert run(["git", "-C", dst, "checkout", "-q", head], 120).rc == 0
    changed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-m", "-o", "--exclude-standard"],
                             capture_output=True, text=True).stdout.split()
    for path in changed:
        if os.path.isfile(ROOT / path):
            os.makedirs(os.path.dirname(dst / path) or dst, exist_ok=True)
            shutil.copy2(ROOT / path, dst / path)
    return dst


RUNNABLE = [b for b in BLOCKS if runnable(b)]


def run_block(block, clone):
    """Runs the runnable lines of a block in the clone, from the folder its paths resolve from."""
    _, start = check_block(block)
    script = runnable(block)
    r = run(["bash", "-e", "-c", script], RUN_TIMEOUT, cwd=clone / start)
    return r, f"{block.id} (run from {start or '.'}/):\n{script}\n{r.tail(15)}"


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.id for b in RUNNABLE])
def test_a_shell_block_runs_in_a_clone(block, clone):
    r, what = run_block(block, clone)
    assert r.rc == 0, what


# The checker itself: what it must catch, and what it must let through.

def blocks_of(text, doc="x/README.md"):
    return [b for b in fenced_blocks(doc, text) if is_shell(b)]


def test_a_block_rewrapped_like_prose_is_caught():
    """The shape of the breakage of slurm/README.md at 4f8b2c7 (a code block re-wrapped as prose)."""
    text = ("```sh\nslurm/submit_all.sh --check               # on the login node, seconds: module, nvcc, Slurm,\n"
            "partition, GPUs slurm/submit_all.sh                       # every experiment once\n"
            "tables PLOTS_PARTITION=cpu slurm/submit_all.sh   # the same\n```\n")
    [block] = blocks_of(text, "slurm/README.md")
    problems, _ = check_block(block)
    assert any("'partition,' is no command" in p for p in problems), problems
    assert any("'tables' is no command" in p for p in problems), problems


def test_a_block_that_does_not_parse_is_caught():
    [block] = blocks_of("```bash\nslurm/wait.sh    # until the jobs end (the\n(exit 1) make plots\n```\n", "slurm/README.md")
    problems, _ = check_block(block)
    assert problems and problems[0].startswith("does not parse"), problems


@pytest.mark.parametrize("body,expected", [
    ("bash slurm/no_such_script.sh", "no such file"),
    ("cd no_such_folder\nmake plots", "no such folder"),
    ("make -C no_such_folder plots", "no such folder"),
    ("common/py/mdtables.py", "not executable"),
    ("no_such_command_xyz --help", "is no command"),
    ("python3 common/py/no_such.py status", "no such file"),
])
def test_a_missing_or_unrunnable_command_is_caught(body, expected):
    [block] = blocks_of(f"```sh\n{body}\n```\n", "README.md")
    problems, _ = check_block(block)
    assert any(expected in p for p in problems), problems


def test_programs_the_makefiles_build_and_the_folder_of_the_document_count():
    """bin/scan from scan/ (the document's folder), cd pi from the root, then pi's program and
    common's devinfo (built by make, not committed)."""
    text = "```sh\nmake\nbin/scan --help\n```\n```sh\ncd pi\n./bin/pi --help\n../common/bin/devinfo\n```\n"
    first, second = blocks_of(text, "scan/README.md")
    assert check_block(first) == ([], "scan")
    assert check_block(second) == ([], "")


def test_which_lines_run():
    text = ("```sh\nmodule load cuda\nexport X=1\nslurm/submit_all.sh\nmake plots\n```\n"
            "```sh\nmake -C vecmax\ncd vecmax\n./bin/vecmax\nmake report\n```\n"
            "<!-- no-run: it rewrites the READMEs -->\n```sh\nmake -C vecmax tables\n```\n"
            "```sh\nfor d in pi scan; do make -C $d plots; done\n```\n"
            "```\nmake plots     # untagged, still shell\n```\n```\narch: building sm_90\n```\n")
    blocks = blocks_of(text, "README.md")
    assert [runnable(b) for b in blocks] == ["export X=1\nmake plots", "", "",
                                             "for d in pi scan; do make -C $d plots; done",
                                             "make plots     # untagged, still shell"]


def test_a_block_whose_line_fails_fails(clone):
    """A cheap line that fails in the clone fails its block (bash -e: the lines after it do not run)."""
    [block] = blocks_of("```sh\ncd vecmax\npython3 no_such_script.py\nmake plots\n```\n", "README.md")
    assert "no_such_script" in runnable(block)
    r, what = run_block(block, clone)
    assert r.rc != 0, what
