# Tier 1: every name a README gives a reader to type or open exists. Sourced by
# common/tests/run_tests.sh from common/. For each README (the top one, common/, slurm/ and every
# assignment's), in inline code, code blocks and links:
#   make targets   `make [-C DIR] [VAR=value] TARGET...`: TARGET is a target of DIR's Makefile
#                  (make -pq's database; in an assignment's README, its own Makefile or the top one)
#   options        `--name` where the command is one of ours (the five programs, devinfo, a
#                  script of slurm/ or common/), or standing alone: declared in the programs'
#                  option sources (add_int("name", ...) and the like) or in a script's case labels;
#                  options of other tools (sbatch, ncu, nvcc, ...) are checked only where listed
#                  below as theirs
#   paths          a token with a '/' or a known file extension, and every relative link:
#                  exists relative to the README's folder, the repository root or an assignment
#                  folder (a glob must match something; a build output under bin/ or build/ is
#                  checked up to that folder)
# Names in angle brackets (<folder>), with '$' or '{', absolute paths and URLs are placeholders
# or the machine's own, not the repository's: not checked. The checker is tried first on a
# fixture README with one bogus name of each kind, which it must flag.
rn_root=$(cd .. && pwd)
rn_py=$CW_TEST_TMP/readme_names.py
cat >"$rn_py" <<'PY'
import glob, os, re, subprocess, sys

root = os.path.abspath(sys.argv[1])
readmes = sys.argv[2:]
assignments = subprocess.run(["bash", os.path.join(root, "common/scripts/assignments.sh")], cwd=root,
                             capture_output=True, text=True).stdout.split()

# The other tools' options that READMEs quote (checked nowhere else: not ours to declare), and
# the files of the original reports that READMEs name without having them.
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
OUR_PROGRAMS = set(assignments) | {"devinfo"}

def program_options():
    names = {"help"}
    for pattern in ("common/*.h", "common/*.cuh", "common/*.cu", "*/*.cu", "*/*.h", "*/*.cuh", "*/experiments/*.cu"):
        for f in glob.glob(os.path.join(root, pattern)):
            names |= set(re.findall(r'add_[a-z_]+\("([a-z0-9-]+)"', open(f, errors="replace").read()))
    return names

def script_options(path):
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return set()
    labels = re.findall(r'(?:^|[\s|(])--([a-z][a-z0-9-]*)(?:=\??\*?)?\)', text, re.M)
    compared = re.findall(r'(?:==?|!=)\s*"?--([a-z][a-z0-9-]*)', text)
    return set(labels) | set(compared)

PROG_OPTS = program_options()
SCRIPT_OPTS = {}
for f in glob.glob(os.path.join(root, "slurm/*.sh")) + glob.glob(os.path.join(root, "common/*.sh")) \
        + glob.glob(os.path.join(root, "*/*.sh")):
    SCRIPT_OPTS[os.path.relpath(f, root)] = script_options(f)
ALL_SCRIPT_OPTS = set().union(*SCRIPT_OPTS.values()) if SCRIPT_OPTS else set()

_targets = {}
def make_targets(folder):
    if folder not in _targets:
        names = set()
        if os.path.isfile(os.path.join(folder, "Makefile")):
            out = subprocess.run(["make", "-pq", "--no-print-directory", "-C", folder, "cw-no-such-target-xyz"],
                                 capture_output=True, text=True, timeout=120, env=dict(os.environ, MAKEFLAGS="")).stdout
            skip = False
            for line in out.split("\n"):
                if line.startswith("# Not a target"):
                    skip = True
                    continue
                m = re.match(r"^([A-Za-z0-9_.%/-]+):(?!=)", line)
                if m and not skip:
                    names.add(m.group(1))
                skip = False
            names.discard("cw-no-such-target-xyz")
        _targets[folder] = names
    return _targets[folder]

def placeholder(tok):
    """<folder>, $VAR, {a,b}, a URL, an absolute or home path, or a component in capitals (F, FILE)."""
    if any(c in tok for c in "<>${}") or tok.startswith(("http:", "https:", "/", "~")):
        return True
    return any(re.match(r"^[A-Z][A-Z0-9_]*(\.\w+)?$", part) for part in tok.split("/"))

def path_exists(tok, here):
    tok = tok.split("#")[0].rstrip(".,;:)")
    tok = re.sub(r"(\.\w+)/\.\w+$", r"\1", tok)  # name.cu/.cuh: name.cu
    if not tok or placeholder(tok):
        return True
    if os.path.basename(tok.rstrip("/")) in REPORT_FILES:
        return True
    parts = tok.split("/")
    for cut in ("bin", "build", "logs"):
        if cut in parts[:-1] or (cut in parts and parts[-1] != cut):
            tok = "/".join(parts[:parts.index(cut)]) or "."
            break
    bases = [here, root] + [os.path.join(root, a) for a in assignments]
    for base in bases:
        p = os.path.join(base, tok)
        if any(c in tok for c in "*?["):
            if glob.glob(p):
                return True
        elif os.path.exists(p):
            return True
    return False

def code_pieces(text):
    """Inline code spans and code-block lines (what a reader types)."""
    pieces, block = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            block = not block
            continue
        if block:
            pieces.append(line.split(" #")[0] if not line.startswith("#") else "")
        else:
            pieces += re.findall(r"`([^`]+)`", line)
    return pieces

problems = []
for readme in readmes:
    here = os.path.dirname(os.path.abspath(readme))
    rel = os.path.relpath(os.path.abspath(readme), root) if os.path.abspath(readme).startswith(root) else readme
    text = open(readme, errors="replace").read()
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    in_assignment = os.path.basename(here) in assignments
    # links
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if not path_exists(target, here):
            problems.append(f"{rel}: link to a path that does not exist: {target}")
    for piece in code_pieces(text):
        for command in re.split(r"&&|\|\||;|\|", piece):
            tokens = command.split()
            while tokens and re.match(r"^[A-Z_][A-Z0-9_]*=", tokens[0]):
                tokens = tokens[1:]  # VAR=value before the command
            if tokens and tokens[0] in ("sudo", "env", "bash", "sh", "time", "timeout", "srun"):
                tokens = [t for t in tokens[1:] if not re.match(r"^[A-Z_][A-Z0-9_]*=", t)]
                if tokens and re.match(r"^\d+$", tokens[0]):
                    tokens = tokens[1:]
            if not tokens:
                continue
            cmd = tokens[0]
            # make targets
            if cmd == "make":
                folder, i, targets = (here if in_assignment else root), 1, []
                while i < len(tokens):
                    t = tokens[i]
                    if t == "-C" and i + 1 < len(tokens):
                        d = tokens[i + 1]
                        if placeholder(d):
                            folder, targets = None, []
                            break
                        folder = os.path.join(root, d) if os.path.isdir(os.path.join(root, d)) else os.path.join(here, d)
                        i += 2
                        continue
                    if t.startswith("-") or "=" in t or placeholder(t) or not re.match(r"^[a-z][a-z0-9_.-]*$", t):
                        i += 1
                        continue
                    targets.append(t)
                    i += 1
                for t in (targets if folder else []):
                    ok = t in make_targets(folder) or (in_assignment and folder == here and t in make_targets(root))
                    if not ok:
                        problems.append(f"{rel}: make target '{t}' not in {os.path.relpath(folder, root)}/Makefile: {command.strip()}")
            # options
            name = os.path.basename(cmd)
            ours_script = next((k for k in SCRIPT_OPTS if cmd.endswith(k) or k.endswith("/" + cmd)), None)
            for opt in re.findall(r"(?:^|\s)--([a-z][a-z0-9-]*)", " " + " ".join(tokens)):
                if opt in ("name", "xyz", "option"):
                    continue  # the syntax itself (--name=value), not an option
                if name in OUR_PROGRAMS or cmd.endswith("/" + name) and name in OUR_PROGRAMS:
                    ok = opt in PROG_OPTS
                elif ours_script:
                    ok = opt in SCRIPT_OPTS[ours_script] or opt == "help"
                elif name in EXTERNAL_OPTIONS or name in ("make",):
                    ok = True  # another tool's option on its own command line
                elif cmd.startswith("--") or cmd.startswith("-"):
                    ok = opt in PROG_OPTS or opt in ALL_SCRIPT_OPTS or opt in EXTERNAL
                else:
                    ok = True  # a command we do not own (sinfo, squeue, ...)
                if not ok:
                    problems.append(f"{rel}: option --{opt} is not one of {cmd}'s: {command.strip()}")
            # paths: tokens with a '/' whose first folder exists or that end in a file extension
            # (a bare file name, `sweep.csv`, is a file of some run or of the report: not checked;
            # nor an option's value, a file the user names)
            for t in tokens:
                t = t.strip("'\"")
                if t.startswith("-") or "/" not in t or placeholder(t) or "::" in t or re.match(r"^[A-Z_]+=", t):
                    continue
                if not re.match(r"^[\w.*?/-]+$", t) or re.match(r"^[\d\[]", t):
                    continue
                t = re.sub(r"(\.\w+)/\.\w+$", r"\1", t)
                first = t.split("/")[0]
                bases = [here, root] + [os.path.join(root, a) for a in assignments]
                if not (t.endswith(EXTENSIONS) or
                        any(os.path.isdir(os.path.join(b, first)) for b in bases)):
                    continue  # a fraction (tx/2), a module (cuda/12.2), a metric (min/avg/max)
                if not path_exists(t, here):
                    problems.append(f"{rel}: path that does not exist: {t}")
for p in dict.fromkeys(problems):
    print(p)
sys.exit(1 if problems else 0)
PY

# The checker must be able to fail: a fixture README beside the real tree, one bogus name of
# each kind, and one good name of each kind that it must not flag.
rn_fix=$CW_TEST_TMP/readme-fixture
mkdir -p "$rn_fix"
cat >"$rn_fix/README.md" <<'MD'
Good: `make plots`, `make -C scan report`, `vecmax --threads=128`, `slurm/submit_all.sh --check`,
[the slurm README](slurm/README.md), `common/scripts/select_arch.sh`, `make -C <assignment> report-run`.
Bad: `make cw-bogus-target`, `vecmax --cw-bogus-option=1`, `slurm/submit_all.sh --cw-bogus-flag`,
`common/cw_bogus_script.sh`, [a bogus link](cw/bogus.md).
MD
t_run python3 "$rn_py" "$rn_root" "$rn_fix/README.md"
rn_flags=$(grep -c . "$T_OUT")
if [ "$T_STATUS" -eq 1 ] && [ "$rn_flags" -eq 5 ] && grep -q "make target 'cw-bogus-target'" "$T_OUT" &&
   grep -q 'option --cw-bogus-option is not one of vecmax' "$T_OUT" && grep -q 'option --cw-bogus-flag' "$T_OUT" &&
   grep -q 'path that does not exist: common/cw_bogus_script.sh' "$T_OUT" && grep -q 'link to a path that does not exist: cw/bogus.md' "$T_OUT"; then
  t_pass "README names: the checker flags a bogus target, option, script option, path and link (and nothing good)"
else
  t_fail "README names: the checker flags a bogus target, option, script option, path and link (and nothing good)" \
    "exit $T_STATUS, $rn_flags findings"; t_show_failure
fi

# The READMEs themselves.
rn_readmes=("$rn_root/README.md" "$rn_root/common/README.md" "$rn_root/slurm/README.md")
for rn_a in $(cd "$rn_root" && bash common/scripts/assignments.sh); do rn_readmes+=("$rn_root/$rn_a/README.md"); done
rn_present=()
for rn_f in "${rn_readmes[@]}"; do [ -f "$rn_f" ] && rn_present+=("$rn_f"); done
t_run python3 "$rn_py" "$rn_root" "${rn_present[@]}"
if [ "$T_STATUS" -eq 0 ]; then
  t_pass "README names: every make target, option and path the ${#rn_present[@]} READMEs name exists"
else
  t_fail "README names: every make target, option and path the ${#rn_present[@]} READMEs name exists" \
    "$(grep -c . "$T_OUT") names do not exist: $(head -n 5 "$T_OUT" | tr '\n' ';')"
  sed 's/^/     /' "$T_OUT"
fi
