"""Every name a README gives a reader to type or open exists. For each README (the top one,
common/, slurm/ and every assignment's), in inline code, code blocks and links:
  make targets  `make [-C DIR] [VAR=value] TARGET...`: TARGET is a target of DIR's Makefile (make
                -pq's database; in an assignment's README, its own Makefile or the top one)
  options       `--name` where the command is one of ours (the five programs, devinfo, a script of
                slurm/ or common/), or standing alone: declared in the programs' option sources
                (add_int("name", ...) and the like) or in a script's case labels; options of other
                tools (sbatch, ncu, nvcc, ...) only where EXTERNAL_OPTIONS lists them
  paths         a token with a '/' or a known file extension, and every relative link: exists
                relative to the README's folder, the root or an assignment folder (a glob must
                match; a build output under bin/ or build/ is checked up to that folder)
Names in angle brackets (<folder>), with '$' or '{', absolute paths and URLs are placeholders or
the machine's own: not checked. The checker is first tried on a fixture with one bogus name of
each kind, which it must flag."""
import functools
import glob
import os
import re
import subprocess

from cwtest import ASSIGNMENTS, ROOT

root = str(ROOT)
# The other tools' options that READMEs quote, and the files of the original reports that READMEs
# name without having them.
EXTERNAL_OPTIONS = {
    "sbatch": "gres array dependency output partition time parsable kill-on-invalid-dep test-only export wait "
              "job-name nodes ntasks-per-node cpus-per-task account qos chdir",
    "ncu": "clock-control cache-control kernel-name launch-count metrics csv page print-units section set",
    "nvcc": "list-gpu-arch version",
    "make": "no-print-directory",
    "compute-sanitizer": "tool leak-check racecheck-report",
    "git": "stat porcelain format",
    "module": "ignore_cache",
}
EXTERNAL = {o for opts in EXTERNAL_OPTIONS.values() for o in opts.split()}
REPORT_FILES = {"test_params.py", "gather_results.py", "run.slurm"}
EXTENSIONS = (".sh", ".py", ".cu", ".cuh", ".h", ".cpp", ".md", ".csv", ".png", ".pdf", ".gp", ".txt",
              ".sbatch", ".mk", ".out", ".log", ".tgz", ".stamp", ".lua")
OUR_PROGRAMS = set(ASSIGNMENTS) | {"devinfo"}
BASES = [root] + [os.path.join(root, a) for a in ASSIGNMENTS]


@functools.lru_cache(maxsize=None)
def program_options():
    names = {"help"}
    for pattern in ("common/*.h", "common/*.cuh", "common/*.cu", "*/*.cu", "*/*.h", "*/*.cuh", "*/experiments/*.cu"):
        for f in glob.glob(os.path.join(root, pattern)):
            names |= set(re.findall(r'add_[a-z_]+\("([a-z0-9-]+)"', open(f, errors="replace").read()))
    return names


@functools.lru_cache(maxsize=None)
def script_options():
    """Each script's options: its case labels (--name) | and comparisons with "--name"."""
    found = {}
    for f in glob.glob(os.path.join(root, "slurm/*.sh")) + glob.glob(os.path.join(root, "common/*.sh")) + glob.glob(os.path.join(root, "*/*.sh")):
        text = open(f, errors="replace").read()
        found[os.path.relpath(f, root)] = (set(re.findall(r'(?:^|[\s|(])--([a-z][a-z0-9-]*)(?:=\??\*?)?\)', text, re.M))
                                           | set(re.findall(r'(?:==?|!=)\s*"?--([a-z][a-z0-9-]*)', text)))
    return found


@functools.lru_cache(maxsize=None)
def make_targets(folder):
    names, skip = set(), False
    if os.path.isfile(os.path.join(folder, "Makefile")):
        out = subprocess.run(["make", "-pq", "--no-print-directory", "-C", folder, "cw-no-such-target-xyz"],
                             capture_output=True, text=True, timeout=120, env=dict(os.environ, MAKEFLAGS="")).stdout
        for line in out.split("\n"):
            m = re.match(r"^([A-Za-z0-9_.%/-]+):(?!=)", line)
            if m and not skip:
                names.add(m.group(1))
            skip = line.startswith("# Not a target")
        names.discard("cw-no-such-target-xyz")
    return names


def placeholder(tok):
    """<folder>, $VAR, {a,b}, a URL, an absolute or home path, or a component in capitals (F, FILE)."""
    if any(c in tok for c in "<>${}") or tok.startswith(("http:", "https:", "/", "~")):
        return True
    return any(re.match(r"^[A-Z][A-Z0-9_]*(\.\w+)?$", part) for part in tok.split("/"))


def path_exists(tok, here):
    tok = re.sub(r"(\.\w+)/\.\w+$", r"\1", tok.split("#")[0].rstrip(".,;:)"))  # name.cu/.cuh: name.cu
    if not tok or placeholder(tok) or os.path.basename(tok.rstrip("/")) in REPORT_FILES:
        return True
    parts = tok.split("/")
    for cut in ("bin", "build", "logs"):
        if cut in parts[:-1] or (cut in parts and parts[-1] != cut):
            tok = "/".join(parts[:parts.index(cut)]) or "."
            break
    for base in [here] + BASES:
        p = os.path.join(base, tok)
        if glob.glob(p) if any(c in tok for c in "*?[") else os.path.exists(p):
            return True
    return False


def code_pieces(text):
    """Inline code spans and code-block lines (what a reader types)."""
    pieces, block = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            block = not block
        elif block:
            pieces.append(line.split(" #")[0] if not line.startswith("#") else "")
        else:
            pieces += re.findall(r"`([^`]+)`", line)
    return pieces


def command_tokens(command):
    """The words of a command without VAR=value before it and a wrapper (sudo, env, bash ...)."""
    tokens = command.split()
    while tokens and re.match(r"^[A-Z_][A-Z0-9_]*=", tokens[0]):
        tokens = tokens[1:]
    if tokens and tokens[0] in ("sudo", "env", "bash", "sh", "time", "timeout", "srun"):
        tokens = [t for t in tokens[1:] if not re.match(r"^[A-Z_][A-Z0-9_]*=", t)]
        if tokens and re.match(r"^\d+$", tokens[0]):
            tokens = tokens[1:]
    return tokens


def make_problems(tokens, here, in_assignment, rel, command):
    folder, i, targets = (here if in_assignment else root), 1, []
    while i < len(tokens):
        t = tokens[i]
        if t == "-C" and i + 1 < len(tokens):
            if placeholder(tokens[i + 1]):
                return []
            d = tokens[i + 1]
            folder = os.path.join(root, d) if os.path.isdir(os.path.join(root, d)) else os.path.join(here, d)
            i += 2
            continue
        if not (t.startswith("-") or "=" in t or placeholder(t) or not re.match(r"^[a-z][a-z0-9_.-]*$", t)):
            targets.append(t)
        i += 1
    return [f"{rel}: make target '{t}' not in {os.path.relpath(folder, root)}/Makefile: {command.strip()}" for t in targets
            if t not in make_targets(folder) and not (in_assignment and folder == here and t in make_targets(root))]


def option_ok(cmd, opt):
    name = os.path.basename(cmd)
    ours_script = next((k for k in script_options() if cmd.endswith(k) or k.endswith("/" + cmd)), None)
    if name in OUR_PROGRAMS:
        return opt in program_options()
    if ours_script:
        return opt in script_options()[ours_script] or opt == "help"
    if cmd.startswith("-"):
        return opt in program_options() or opt in set().union(*script_options().values()) or opt in EXTERNAL
    return True  # another tool's option on its own command line, or a command we do not own (sinfo, squeue, ...)


def problems(readmes):
    found = []
    for readme in map(str, readmes):
        here = os.path.dirname(os.path.abspath(readme))
        rel = os.path.relpath(os.path.abspath(readme), root) if os.path.abspath(readme).startswith(root) else readme
        text = re.sub(r"<!--.*?-->", "", open(readme, errors="replace").read(), flags=re.S)
        in_assignment = os.path.basename(here) in ASSIGNMENTS
        found += [f"{rel}: link to a path that does not exist: {t}" for t in re.findall(r"\]\(([^)\s]+)\)", text) if not path_exists(t, here)]
        for piece in code_pieces(text):
            for command in re.split(r"&&|\|\||;|\|", piece):
                tokens = command_tokens(command)
                if not tokens:
                    continue
                cmd = tokens[0]
                if cmd == "make":
                    found += make_problems(tokens, here, in_assignment, rel, command)
                for opt in re.findall(r"(?:^|\s)--([a-z][a-z0-9-]*)", " " + " ".join(tokens)):
                    if opt not in ("name", "xyz", "option") and not option_ok(cmd, opt):  # not the syntax itself (--name=value)
                        found.append(f"{rel}: option --{opt} is not one of {cmd}'s: {command.strip()}")
                # paths: tokens with a '/' whose first folder exists or that end in a file extension (a bare
                # file name, `sweep.csv`, is a file of some run or of the report; an option's value, a file
                # the user names: not checked)
                for t in (t.strip("'\"") for t in tokens):
                    if (t.startswith("-") or "/" not in t or placeholder(t) or "::" in t or re.match(r"^[A-Z_]+=", t)
                            or not re.match(r"^[\w.*?/-]+$", t) or re.match(r"^[\d\[]", t)):
                        continue
                    t = re.sub(r"(\.\w+)/\.\w+$", r"\1", t)
                    first = t.split("/")[0]
                    if not (t.endswith(EXTENSIONS) or any(os.path.isdir(os.path.join(b, first)) for b in [here] + BASES)):
                        continue  # a fraction (tx/2), a module (cuda/12.2), a metric (min/avg/max)
                    if not path_exists(t, here):
                        found.append(f"{rel}: path that does not exist: {t}")
    return list(dict.fromkeys(found))


def test_the_checker_flags_a_bogus_target_option_script_option_path_and_link(tmp_path):
    """One bogus name of each kind, and good ones it must not flag."""
    (tmp_path / "README.md").write_text(
        "Good: `make plots`, `make -C scan report`, `vecmax --threads=128`, `slurm/submit_all.sh --check`,\n"
        "[the slurm README](slurm/README.md), `common/scripts/select_arch.sh`, `make -C <assignment> report-run`.\n"
        "Bad: `make cw-bogus-target`, `vecmax --cw-bogus-option=1`, `slurm/submit_all.sh --cw-bogus-flag`,\n"
        "`common/cw_bogus_script.sh`, [a bogus link](cw/bogus.md).\n")
    found = problems([tmp_path / "README.md"])
    wanted = ["make target 'cw-bogus-target'", "option --cw-bogus-option is not one of vecmax", "option --cw-bogus-flag",
              "path that does not exist: common/cw_bogus_script.sh", "link to a path that does not exist: cw/bogus.md"]
    assert len(found) == 5 and all(any(w in f for f in found) for w in wanted), found


def test_every_make_target_option_and_path_the_readmes_name_exists():
    readmes = [ROOT / r for r in ("README.md", "common/README.md", "slurm/README.md", *(f"{a}/README.md" for a in ASSIGNMENTS))]
    found = problems([r for r in readmes if r.is_file()])
    assert not found, f"{len(found)} names do not exist:\n" + "\n".join(found)
