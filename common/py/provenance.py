"""Provenance of the reference CSVs: one manifest per results folder, and which CSVs are stale.

A reference folder is an assignment's `results/`, `results/<gpu>/` (results/h200/) or its lab's
`experiments/results/<gpu>/`; a user's run folder `runs/<gpu>/` gets a manifest too. The manifest
is `MANIFEST.tsv` in that folder (tab-separated, not *.csv: the tools that read every CSV of a
folder leave it alone), one row per CSV of the folder:

    file         the CSV's name in the folder
    commit       the commit the run was made from (`git rev-parse HEAD`, "+dirty" when a file of
                 its scope differed from that commit); backfilled: the commit that last changed
                 the CSV's data (below)
    fingerprint  16 hex digits: the code that decides the CSV's numbers (below)
    scope        which code that is (below)
    command      the command line that wrote the CSV ("unknown (backfilled)" where not found)
    gpu, driver  from the CSV's `device` and `driver` columns, else nvidia-smi's, else "unknown"
    date         when the run ended (UTC); backfilled: the date of the commit
    origin       `run` (written by the run: common/scripts/staged_run.sh, or a lab command's rule:
                 common/lab.mk's lab_write and lab_record) or `backfilled`

Scope, a list of words, each naming files of the CSV's assignment folder A:
    program             the program's own sources: A/*.cu *.cuh *.h *.cpp (not tests/, not
                        experiments/) and the shared layer's headers common/*.h *.cuh (what every
                        program includes; common's one .cu is devinfo, a program of its own)
    experiments/X.cu    one lab program: that file and the lab's headers A/experiments/*.cuh *.h
    experiments/*       every lab source A/experiments/*.cu *.cuh *.h *.cpp (the producer is not
                        known: any lab program may have made it)
    PATH                any other file of A (plots/hillis_steele_steps.py for the CSV it computes)
How a CSV's scope is found, first rule that applies (in the tree the CSV was made from):
 1. A's Makefile has a rule whose target is the CSV (results/x.csv: plots/x.py): its prerequisites.
 2. A's report-experiments or profile-experiments recipe (or a script that recipe runs with
    `bash`) names the CSV: `program`, and each lab program the lines naming it run
    (experiments/X, directly or through a make variable); command: `make -C A report-run` or
    `make -C A profile` (with CW_REFERENCE=1, or CW_RESULTS_SUBDIR=<gpu> for results/<gpu>/).
 3. A lab script or source (A/experiments/*.sh, *.cu) names the CSV: `program` and the lab
    programs it names; command: `bash A/experiments/<script> [<gpu>]`.
 4. A lab program's name begins the CSV's name (ws_scan_mid.csv: experiments/ws_scan.cu): that.
 5. Otherwise `program`, plus `experiments/*` where A has a lab.

Fingerprint: SHA-256 over the scope's files in path order, each as its path (relative to the
repository) and its normalised text; the first 16 hex digits. Normalised: C and C++ sources
(.cu .cuh .h .hpp .c .cpp) lose their // and /* */ comments (string, character and raw string
literals are kept as written, a digit separator 1'000 is no character literal); other files lose
their whole-line # comments; then every line is stripped, runs of spaces and tabs become one
space, and empty lines go. So a kernel, the timing or a check that changes changes it; a comment,
a blank line, indentation or a document does not. A file of the scope that no longer exists
counts as changed.

Stale: the fingerprint of the CSV's scope in the working tree differs from its manifest row's.
Stale data are allowed; what must not exist is stale data that do not say so: every table that
common/py/mdtables.py generates from a stale CSV ends with a line
    stale: made by <short commit> (<date>); the code that decides it has changed since
(naming the CSV where the table reads more than one), and every figure that
common/scripts/render_figures.sh (or a lab's `make figures`) draws from one gets that line in
gnuplot's variable `stale`, which common/plot_style.gp's titled() puts under the figure's title.

Backfilled rows: the commit is the last one that changed the CSV's data, found by following the
file's history (renames included) back past commits that left every cell of the columns both
versions share unchanged (a column added or removed, a comment line, a move); the fingerprint is
computed from that commit's tree by the same rules.

    python3 common/py/provenance.py status [FOLDER...]   every stale CSV, with the files changed since
    python3 common/py/provenance.py check [FOLDER...]    exit 1 where a CSV has no row (or a row no CSV)
    python3 common/py/provenance.py backfill [FOLDER...] rows from git history for CSVs without one
    python3 common/py/provenance.py record FOLDER CSV... [--command CMD]   rows for a run's CSVs
    python3 common/py/provenance.py note CSV...          the stale lines of a table drawn from these CSVs
    python3 common/py/provenance.py figure-notes FIG=CSV[,CSV]...   "FIG<tab>line" per stale figure
FOLDER: reference folders or assignment folders (default: every reference folder).
"""
import csv
import datetime
import hashlib
import io
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MANIFEST = "MANIFEST.tsv"
COLUMNS = ["file", "commit", "fingerprint", "scope", "command", "gpu", "driver", "date", "origin"]
C_FAMILY = (".cu", ".cuh", ".h", ".hpp", ".c", ".cpp")
PROGRAM_EXT = (".cu", ".cuh", ".h", ".cpp")
LAB_HEADER_EXT = (".cuh", ".h")
COMMON_EXT = (".h", ".cuh")
UNKNOWN_COMMAND = "unknown (backfilled)"
STALE_WORDS = "the code that decides it has changed since"

# ---------------------------------------------------------------------------------------------
# Normalised sources and fingerprints

C_TOKENS = re.compile(r"""
    (?P<raw>(?<![\w])(?:u8|[uUL])?R"(?P<delim>[^()\\\s"]{0,16})\(.*?\)(?P=delim)")
  | (?P<str>(?<![\w])(?:u8|[uUL])?"(?:\\.|[^"\\\n])*")
  | (?P<num>(?<![\w.])\.?\d(?:[\w.]|'(?=\w)|[eEpP][+-])*)
  | (?P<chr>(?<![\w])(?:u8|[uUL])?'(?:\\.|[^'\\\n])*')
  | (?P<line>//[^\n]*)
  | (?P<block>/\*.*?\*/)
""", re.S | re.X)


def strip_c_comments(text):
    """C/C++/CUDA text without its comments (a block comment becomes one space)."""
    def repl(m):
        if m.group("line") is not None:
            return ""
        if m.group("block") is not None:
            return " "
        return m.group(0)
    return C_TOKENS.sub(repl, text)


def normalise(path, text):
    """The text of a source as the fingerprint sees it (see the module's docstring)."""
    if path.endswith(C_FAMILY):
        text = strip_c_comments(text)
    else:
        text = "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))
    lines = (line.strip() for line in re.sub(r"[ \t\f\v\r]+", " ", text).split("\n"))
    return "\n".join(line for line in lines if line)


class WorkTree:
    """The files of a checkout as they are on disk."""

    def __init__(self, root):
        self.root = root

    def listdir(self, folder):
        path = os.path.join(self.root, folder)
        try:
            return sorted(f for f in os.listdir(path) if os.path.isfile(os.path.join(path, f)))
        except OSError:
            return []

    def read(self, path):
        try:
            with open(os.path.join(self.root, path), encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return None


def git(root, *args, check=True):
    r = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True, errors="replace")
    if check and r.returncode:
        raise RuntimeError(f"git {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout if r.returncode == 0 else None


class GitTree:
    """The files of one commit (git ls-tree; blobs read through one `git cat-file --batch`)."""
    _batch = {}

    def __init__(self, root, commit):
        self.root, self.commit, self.cache, self.dirs = root, commit, {}, {}

    def listdir(self, folder):
        if folder not in self.dirs:
            entries = git(self.root, "ls-tree", self.commit, folder.rstrip("/") + "/", check=False) or ""
            self.dirs[folder] = sorted(os.path.basename(line.split("\t", 1)[1])
                                       for line in entries.splitlines() if " blob " in line)
        return self.dirs[folder]

    def read(self, path):
        if path not in self.cache:
            self.cache[path] = self.cat(f"{self.commit}:{path}")
        return self.cache[path]

    def cat(self, spec):
        proc = GitTree._batch.get(self.root)
        if proc is None or proc.poll() is not None:
            proc = subprocess.Popen(["git", "-C", self.root, "cat-file", "--batch"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE)
            GitTree._batch[self.root] = proc
        proc.stdin.write(spec.encode() + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) != 3:
            return None  # "<spec> missing"
        data = proc.stdout.read(int(header[2]) + 1)[:-1]
        return data.decode("utf-8", errors="replace") if header[1] == b"blob" else None


def files_with(tree, folder, extensions):
    return [f"{folder}/{name}" for name in tree.listdir(folder) if name.endswith(extensions)]


def scope_files(tree, assignment, scope):
    """The repository paths a scope (a string of words) covers, sorted and each once."""
    paths = set()
    for word in scope.split():
        if word == "program":
            paths.update(files_with(tree, assignment, PROGRAM_EXT))
            paths.update(files_with(tree, "common", COMMON_EXT))
        elif word == "experiments/*":
            paths.update(files_with(tree, f"{assignment}/experiments", PROGRAM_EXT))
        else:
            paths.add(f"{assignment}/{word}")
            if word.startswith("experiments/"):
                paths.update(files_with(tree, f"{assignment}/experiments", LAB_HEADER_EXT))
    return sorted(paths)


_DIGESTS = {}


def file_digest(tree, path):
    """SHA-256 of a file's path and normalised text (memoised by its raw text)."""
    text = tree.read(path)
    key = (path, None if text is None else hashlib.sha1(text.encode()).digest())
    if key not in _DIGESTS:
        body = "(missing)" if text is None else normalise(path, text)
        _DIGESTS[key] = hashlib.sha256(f"{path}\n{body}\n".encode()).hexdigest()
    return _DIGESTS[key]


def fingerprint(tree, assignment, scope):
    """16 hex digits over the normalised files of the scope."""
    h = hashlib.sha256()
    for path in scope_files(tree, assignment, scope):
        h.update(file_digest(tree, path).encode())
    return h.hexdigest()[:16]


# ---------------------------------------------------------------------------------------------
# What made a CSV: its scope and command (the rules of the docstring)

def makefile_parts(text):
    """(variables, rules) of a Makefile: {name: value}, [(targets, prerequisites, recipe lines)]."""
    lines = re.sub(r"\\\n", " ", text or "").split("\n")
    variables, rules = {}, []
    for line in lines:
        if line.startswith("\t"):
            if rules:
                rules[-1][2].append(line.strip())
            continue
        m = re.match(r"^([A-Za-z_][\w.-]*)\s*(?::=|\?=|\+=|=)\s*(.*)$", line)
        if m:
            variables[m.group(1)] = m.group(2)
            continue
        m = re.match(r"^([^\s#:=][^:=]*):(?!=)\s*([^;#]*)", line)
        if m:
            rules.append((m.group(1).split(), m.group(2).split(), []))
    return variables, rules


def names(text, name):
    return re.search(r"(?<![\w.-])" + re.escape(name) + r"(?![\w-])", text or "") is not None


def lab_programs(tree, assignment):
    return [n[:-3] for n in tree.listdir(f"{assignment}/experiments") if n.endswith(".cu")]


def lab_programs_in(text, programs):
    """The lab programs a text names (ws_scan, build/experiments/ws_scan, ws_scan.cu)."""
    return sorted(p for p in programs if re.search(r"\b" + re.escape(p) + r"\b", text))


def expand(text, variables, depth=4):
    """A recipe line with the Makefile's $(VARIABLES) replaced by their values (4 levels deep)."""
    for _ in range(depth):
        text = re.sub(r"\$[({]([A-Za-z_][\w.-]*)[)}]", lambda m: variables.get(m.group(1), m.group(0)), text)
    return text


def destination_env(location):
    """The variables that make staged_run.sh write into a reference folder."""
    parts = location.split("/")
    if parts == ["results"]:
        return "CW_REFERENCE=1 "
    if len(parts) == 2 and parts[0] == "results":
        return f"CW_RESULTS_SUBDIR={parts[1]} "
    return ""


def by_make_rule(tree, assignment, location, name):
    variables, rules = makefile_parts(tree.read(f"{assignment}/Makefile"))
    target = f"{location}/{name}"
    for targets, prereqs, _ in rules:
        if target in targets:
            scope = " ".join(p for p in prereqs if tree.read(f"{assignment}/{p}") is not None)
            return scope or "program", f"make -C {assignment} {target}"
    programs = lab_programs(tree, assignment)
    for recipe, goal in (("report-experiments", "report-run"), ("profile-experiments", "profile")):
        text = "\n".join(expand(line, variables) for targets, _, body in rules if recipe in targets for line in body)
        for script in re.findall(r"\bbash\s+(\S+\.sh)", text):
            text += "\n" + (tree.read(f"{assignment}/{script}") or "")
        hits = [line for line in text.split("\n") if names(line, name)]
        if hits:
            lab = lab_programs_in("\n".join(hits), programs)
            scope = " ".join(["program"] + [f"experiments/{p}.cu" for p in lab])
            return scope, f"{destination_env(location)}make -C {assignment} {goal}"
    return None


def by_lab_file(tree, assignment, location, name):
    programs = lab_programs(tree, assignment)
    lab = f"{assignment}/experiments"
    for fname in sorted(tree.listdir(lab), key=lambda f: not f.endswith(".sh")):  # scripts first
        text = tree.read(f"{lab}/{fname}")
        if not fname.endswith((".sh", ".cu")) or not names(text, name):
            continue
        used = [fname[:-3]] if fname.endswith(".cu") else lab_programs_in(text, programs)
        scope = " ".join(["program"] + [f"experiments/{p}.cu" for p in used])
        parts = location.split("/")
        tag = f" {parts[-1]}" if len(parts) == 2 and parts[0] == "results" else ""
        return scope, f"bash {lab}/{fname}{tag}" if fname.endswith(".sh") else UNKNOWN_COMMAND
    stem = name[:-4]
    for p in sorted(programs, key=len, reverse=True):
        if stem == p or stem.startswith(p + "_"):
            return f"program experiments/{p}.cu", UNKNOWN_COMMAND
    return None


def infer(tree, csv_path):
    """(scope, command) of a CSV given by its repository path, from the tree it was made in."""
    assignment, location, name = split_csv_path(csv_path)
    found = by_make_rule(tree, assignment, location, name) or by_lab_file(tree, assignment, location, name)
    if found:
        return found
    return ("program experiments/*" if lab_programs(tree, assignment) else "program"), UNKNOWN_COMMAND


def split_csv_path(csv_path):
    """'scan/results/h200/x.csv' -> ('scan', 'results/h200', 'x.csv')."""
    parts = csv_path.split("/")
    return parts[0], "/".join(parts[1:-1]), parts[-1]


# ---------------------------------------------------------------------------------------------
# Manifests

def read_manifest(folder):
    """{file: row} of folder's manifest ({} without one)."""
    path = os.path.join(folder, MANIFEST)
    if not os.path.exists(path):
        return {}
    with open(path, newline="") as f:
        return {r["file"]: r for r in csv.DictReader(f, delimiter="\t")}


def write_manifest(folder, rows):
    """Every row, sorted by file, atomically; rewritten only when it changes."""
    out = io.StringIO()
    w = csv.DictWriter(out, COLUMNS, delimiter="\t", lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for name in sorted(rows):
        w.writerow({k: re.sub(r"[\t\r\n]+", " ", str(rows[name].get(k, ""))) for k in COLUMNS})
    path = os.path.join(folder, MANIFEST)
    _MANIFESTS.pop(os.path.abspath(folder), None)
    if os.path.exists(path) and open(path).read() == out.getvalue():
        return False
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(out.getvalue())
    os.replace(tmp, path)
    return True


def reference_folders(root, assignments=None):
    """Every reference folder of the assignments (repository-relative), existing ones only."""
    found = []
    for a in assignments if assignments is not None else list_assignments(root):
        candidates = [f"{a}/results"]
        for base in (f"{a}/results", f"{a}/experiments/results"):
            if os.path.isdir(os.path.join(root, base)):
                candidates += [f"{base}/{d}" for d in sorted(os.listdir(os.path.join(root, base)))]
        found += [c for c in candidates if os.path.isdir(os.path.join(root, c)) and not c.endswith("/figures")]
    return found


def list_assignments(root):
    out = []
    for d in sorted(os.listdir(root)):
        mk = os.path.join(root, d, "Makefile")
        if os.path.isfile(mk) and re.search(r"^include \.\./common/assignment\.mk", open(mk).read(), re.M):
            out.append(d)
    return out


def csvs_of(root, folder):
    return sorted(f for f in os.listdir(os.path.join(root, folder)) if f.endswith(".csv")
                  and os.path.isfile(os.path.join(root, folder, f)))


def manifest_problems(root, folders):
    """Lines naming each CSV without a row, each row without a CSV, each row with an empty field."""
    bad = []
    for folder in folders:
        rows, files = read_manifest(os.path.join(root, folder)), csvs_of(root, folder)
        if files and not rows:
            bad.append(f"{folder}/: no {MANIFEST} for its {len(files)} CSV(s) (python3 common/py/provenance.py backfill)")
            continue
        bad += [f"{folder}/{f}: no row in {folder}/{MANIFEST}" for f in files if f not in rows]
        bad += [f"{folder}/{MANIFEST}: a row for {f}, which is not there" for f in rows if f not in files]
        for f, r in rows.items():
            empty = [c for c in COLUMNS if not (r.get(c) or "").strip()]
            if empty or not re.fullmatch(r"[0-9a-f]{16}", r.get("fingerprint") or ""):
                bad.append(f"{folder}/{MANIFEST}: the row of {f} has no valid {', '.join(empty) or 'fingerprint'}")
    return bad


# ---------------------------------------------------------------------------------------------
# Staleness

_HEAD = {}


def head_fingerprint(root, assignment, scope):
    key = (root, assignment, scope)
    if key not in _HEAD:
        _HEAD[key] = fingerprint(WorkTree(root), assignment, scope)
    return _HEAD[key]


def locate(csv_file):
    """(root, repository path) of a CSV file: the root is the nearest folder above it holding
    common/py/provenance.py; None where there is none."""
    path = os.path.abspath(csv_file)
    d = os.path.dirname(path)
    while d != os.path.dirname(d):
        d = os.path.dirname(d)
        if os.path.isfile(os.path.join(d, "common", "py", "provenance.py")):
            return d, os.path.relpath(path, d).replace(os.sep, "/")
    return None


_MANIFESTS = {}


def manifest_row(csv_file):
    """The manifest row of a CSV (None without one), each manifest read once."""
    folder = os.path.dirname(os.path.abspath(csv_file))
    if folder not in _MANIFESTS:
        _MANIFESTS[folder] = read_manifest(folder)
    return _MANIFESTS[folder].get(os.path.basename(csv_file))


def stale_row(csv_file, code_root=None, assignment=None):
    """The manifest row of a CSV whose code changed since it was made, else None (also for a CSV
    without a manifest row: a folder without a manifest is no reference). The code is that of the
    checkout the CSV lies in, or, for a copy of an assignment's results outside any checkout,
    code_root's (with the CSV's assignment named)."""
    where = locate(csv_file) if code_root is None else (code_root, f"{assignment}/")
    row = manifest_row(csv_file)
    if not where or not row or not row.get("scope"):
        return None
    root, rel = where
    return row if head_fingerprint(root, rel.split("/")[0], row["scope"]) != row["fingerprint"] else None


def made_by(row):
    commit = row["commit"]
    short = commit[:7] + ("+dirty" if commit.endswith("+dirty") else "")
    return f"made by {short} ({row['date'][:10]})"


def note(csv_files, base=None, compact=False):
    """The stale lines of a table or figure drawn from these CSVs ('' when none is stale): one line
    when every CSV is stale and all were made by one commit, else one line per stale CSV, named
    relative to base (the results folder). compact (a figure's title): one line, no names."""
    files = [f for f in dict.fromkeys(os.path.abspath(f) for f in csv_files) if manifest_row(f)]
    stale = [(f, r) for f in files for r in [stale_row(f)] if r]
    if not stale:
        return ""
    if compact:
        made = list(dict.fromkeys(made_by(r) for _, r in stale))
        return "stale: made by " + " and ".join(m[len("made by "):] for m in made) + f"; {STALE_WORDS}"
    if len(stale) == len(files) and len({made_by(r) for _, r in stale}) == 1:
        return f"stale: {made_by(stale[0][1])}; {STALE_WORDS}"
    base = os.path.abspath(base) if base else os.path.dirname(files[0])
    lines = [f"stale: {os.path.relpath(f, base)} {made_by(r)}; {STALE_WORDS}" for f, r in stale]
    return "\n".join(x if len(x) <= 100 else x.replace(STALE_WORDS, "its code has changed since") for x in lines)


# ---------------------------------------------------------------------------------------------
# Rows: from a run (record) or from git history (backfill)

def first_cell(csv_file, column):
    """The first non-empty cell of a column of a CSV ('#' lines are comments), else None."""
    try:
        with open(csv_file, newline="", errors="replace") as f:
            for row in csv.DictReader(line for line in f if not line.startswith("#")):
                if (row.get(column) or "").strip():
                    return row[column].strip()
    except OSError:
        pass
    return None


def nvidia_smi(field):
    try:
        r = subprocess.run(["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=30)
        return r.stdout.splitlines()[0].strip() if r.returncode == 0 and r.stdout.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


def run_commit(root, assignment, scope):
    """HEAD, '+dirty' when a file of the scope differs from it; 'unknown' outside git."""
    head = git(root, "rev-parse", "HEAD", check=False)
    if not head:
        return "unknown"
    paths = scope_files(WorkTree(root), assignment, scope)
    dirty = git(root, "status", "--porcelain", "--", *paths, check=False) if paths else ""
    return head.strip() + ("+dirty" if dirty and dirty.strip() else "")


def record(root, folder, names, command=None):
    """Rows for CSVs a run has just written into folder (repository-relative or absolute)."""
    folder = os.path.relpath(os.path.abspath(os.path.join(root, folder)), root).replace(os.sep, "/")
    rows = read_manifest(os.path.join(root, folder))
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    tree = WorkTree(root)
    for name in names:
        path = os.path.join(root, folder, name)
        scope, found = infer(tree, f"{folder}/{name}")
        assignment = folder.split("/")[0]
        rows[name] = dict(file=name, commit=run_commit(root, assignment, scope),
                          fingerprint=fingerprint(tree, assignment, scope), scope=scope,
                          command=command or found,
                          gpu=first_cell(path, "device") or nvidia_smi("name") or "unknown",
                          driver=first_cell(path, "driver") or nvidia_smi("driver_version") or "unknown",
                          date=now, origin="run")
    write_manifest(os.path.join(root, folder), rows)


def table_of(text):
    """(header, rows) of a CSV's text ('#' lines skipped)."""
    lines = [line for line in (text or "").split("\n") if line and not line.startswith("#")]
    rows = list(csv.reader(lines))
    return (rows[0], rows[1:]) if rows else ([], [])


def same_data(old, new):
    """True when every cell of the columns both versions have is the same, row by row."""
    (h1, r1), (h2, r2) = table_of(old), table_of(new)
    common = [c for c in h1 if c in h2]
    if not common or len(r1) != len(r2):
        return False
    i1, i2 = [h1.index(c) for c in common], [h2.index(c) for c in common]
    cell = lambda row, i: row[i] if i < len(row) else ""  # noqa: E731
    return all([cell(a, i) for i in i1] == [cell(b, i) for i in i2] for a, b in zip(r1, r2))


def history(root, path):
    """[(commit, path in that commit)] of the commits that changed a file, newest first."""
    out = git(root, "log", "--follow", "--format=%x01%H", "--name-only", "--", path)
    versions = []
    for entry in out.split("\x01")[1:]:
        lines = [x for x in entry.split("\n") if x.strip()]
        if len(lines) >= 2:
            versions.append((lines[0], lines[-1]))
    return versions


def data_commit(root, path):
    """The commit that made a committed CSV's data (see the module's docstring)."""
    versions = history(root, path)
    if not versions:
        return None
    best, reader = 0, GitTree(root, "HEAD")
    while best + 1 < len(versions):
        newer = reader.cat(f"{versions[best][0]}:{versions[best][1]}")
        older = reader.cat(f"{versions[best + 1][0]}:{versions[best + 1][1]}")
        if older is None or not same_data(older, newer):
            break
        best += 1
    return versions[best][0]


def backfill_row(root, csv_path, trees):
    commit = data_commit(root, csv_path)
    if not commit:
        return None
    tree = trees.setdefault(commit, GitTree(root, commit))
    scope, command = infer(tree, csv_path)
    assignment = csv_path.split("/")[0]
    date = git(root, "show", "-s", "--format=%cd", "--date=format-local:%Y-%m-%dT%H:%M:%SZ", commit,
               check=False) or "unknown"
    path = os.path.join(root, csv_path)
    return dict(file=os.path.basename(csv_path), commit=commit, fingerprint=fingerprint(tree, assignment, scope),
                scope=scope, command=command, gpu=first_cell(path, "device") or "unknown",
                driver=first_cell(path, "driver") or "unknown", date=date.strip(), origin="backfilled")


def backfill(root, folders, redo=False):
    """Rows from git history for every committed CSV of the folders that has none (all: redo)."""
    os.environ["TZ"] = "UTC"
    trees, done = {}, []
    for folder in folders:
        rows = read_manifest(os.path.join(root, folder))
        rows = {} if redo else {f: r for f, r in rows.items() if os.path.exists(os.path.join(root, folder, f))}
        for name in csvs_of(root, folder):
            if name in rows:
                continue
            row = backfill_row(root, f"{folder}/{name}", trees)
            if row:
                rows[name] = row
                done.append(f"{folder}/{name}")
            else:
                print(f"provenance: {folder}/{name} is not committed: no row (a run records its own)")
        if rows:
            write_manifest(os.path.join(root, folder), rows)
    return done


# ---------------------------------------------------------------------------------------------
# status

def changed_files(root, row, assignment):
    """The files of the row's scope whose normalised text differs between its commit and now."""
    commit = row["commit"].replace("+dirty", "")
    if git(root, "cat-file", "-e", commit + "^{commit}", check=False) is None:
        return None
    old, new = GitTree(root, commit), WorkTree(root)
    paths = sorted(set(scope_files(old, assignment, row["scope"])) | set(scope_files(new, assignment, row["scope"])))
    return [p for p in paths if file_digest(old, p) != file_digest(new, p)]


def status(root, folders):
    """One line per stale CSV and per missing row; a closing count."""
    total = stale = 0
    for folder in folders:
        rows = read_manifest(os.path.join(root, folder))
        for name in csvs_of(root, folder):
            total += 1
            row = rows.get(name)
            if not row:
                print(f"{folder}/{name}: no manifest row (python3 common/py/provenance.py backfill)")
                continue
            if not stale_row(os.path.join(root, folder, name)):
                continue
            stale += 1
            changed = changed_files(root, row, folder.split("/")[0])
            why = f"; changed since: {', '.join(changed[:4])}" if changed else ""
            why += f" and {len(changed) - 4} more" if changed and len(changed) > 4 else ""
            print(f"{folder}/{name}: stale: {made_by(row)}, {row['gpu']}, {row['origin']}{why}")
    print(f"provenance: {stale} of {total} reference CSVs stale (their code changed since the run)")


def folders_of(root, args):
    """Reference folders named (an assignment folder: each of its own), or every one."""
    if not args:
        return reference_folders(root)
    out = []
    for a in args:
        rel = os.path.relpath(os.path.abspath(a), root).replace(os.sep, "/")
        out += reference_folders(root, [rel]) if "/" not in rel else [rel]
    return out


USAGE = ("usage: provenance.py status|check|backfill [--redo] [FOLDER...] | record FOLDER CSV... [--command CMD]"
         " | note CSV... | figure-notes FIG=CSV[,CSV]...")


def option(args, name, takes_value):
    """(value or True/None, the other arguments)."""
    if name not in args:
        return None, args
    i = args.index(name)
    if not takes_value:
        return True, args[:i] + args[i + 1:]
    if i + 1 >= len(args):
        sys.exit(USAGE)
    return args[i + 1], args[:i] + args[i + 2:]


def main(argv):
    if argv[:1] in (["--help"], ["-h"]):
        print(__doc__)
        return 0
    if not argv or argv[0] not in ("status", "check", "backfill", "record", "note", "figure-notes"):
        print(USAGE, file=sys.stderr)
        return 2
    cmd, args = argv[0], argv[1:]
    if cmd == "note":
        text = note(args)
        print(text) if text else None
        return 0
    if cmd == "figure-notes":
        for fig, _, files in (a.partition("=") for a in args):
            text = note([f for f in files.split(",") if os.path.isfile(f)], compact=True)
            print(f"{fig}\t{text}") if text else None
        return 0
    if cmd == "record":
        command, args = option(args, "--command", True)
        if len(args) < 2:
            sys.exit(USAGE)
        record(ROOT, os.path.abspath(args[0]), [os.path.basename(a) for a in args[1:]], command)
        return 0
    redo, args = option(args, "--redo", False)
    folders = folders_of(ROOT, args)
    if cmd == "backfill":
        print(f"provenance: {len(backfill(ROOT, folders, bool(redo)))} row(s) backfilled")
        return 0
    if cmd == "status":
        status(ROOT, folders)
        return 0
    bad = manifest_problems(ROOT, folders)
    print("\n".join(bad) if bad else f"provenance: every CSV of {len(folders)} reference folders has its row")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
