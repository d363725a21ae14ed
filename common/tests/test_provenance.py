"""Provenance of the reference runs (common/py/provenance.py; no GPU): every CSV of every reference
folder has its manifest row (commit, fingerprint of the code that decides it, command, GPU,
driver, date); stale data are allowed, but a table or figure drawn from a stale CSV says so
(mdtables.py's caption line, render_figures.sh's gnuplot variable `stale`); the fingerprint moves
with a line of code and not with a comment; a backfilled row names the commit that made the data;
a staged run records its own rows."""
import os
import re
import shutil
import subprocess
import sys

import pytest
from cwtest import ASSIGNMENTS, ROOT, run

sys.path.insert(0, str(ROOT / "common/py"))
import provenance  # noqa: E402

PROVENANCE = ROOT / "common/py/provenance.py"
STALE = re.compile(r"^stale: made by [0-9a-f]{7}(\+dirty)? \(\d{4}-\d\d-\d\d\); the code that decides it has changed since$", re.M)


def test_every_reference_csv_has_its_manifest_row():
    """results/, results/<gpu>/ and experiments/results/<gpu>/ of every assignment: a MANIFEST.tsv
    with one complete row per CSV and no row without its CSV (python3 common/py/provenance.py
    backfill writes the missing ones from git history; a staged run writes its own)."""
    folders = provenance.reference_folders(str(ROOT), ASSIGNMENTS)
    assert folders, "no reference folder found"
    bad = provenance.manifest_problems(str(ROOT), folders)
    assert not bad, "\n".join(bad)


def test_every_manifest_row_is_well_formed():
    """Its origin is run or backfilled, its commit a commit of this repository where it is one
    that git knows (a shallow clone may not), its scope names files of its assignment."""
    bad = []
    for folder in provenance.reference_folders(str(ROOT), ASSIGNMENTS):
        for name, row in provenance.read_manifest(str(ROOT / folder)).items():
            if row["origin"] not in ("run", "backfilled") or not re.fullmatch(r"[0-9a-f]{40}(\+dirty)?|unknown", row["commit"]):
                bad.append(f"{folder}/{name}: origin {row['origin']!r}, commit {row['commit']!r}")
            files = provenance.scope_files(provenance.WorkTree(str(ROOT)), folder.split("/")[0], row["scope"])
            if not files:
                bad.append(f"{folder}/{name}: scope {row['scope']!r} covers no file")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("before,after,same", [
    ("int a = 1;\n", "int a = 1;  // why: the width of a warp\n\n", True),
    ("int a = 1;\n", "/* a block\n   comment */\n    int   a = 1;\n", True),
    ("int a = 1;\n", "int a = 2;\n", False),
    ('const char* s = "// kept";\n', 'const char* s = "// changed";\n', False),
    ("int n = 1'000; char c = '/';\n", "int n = 1'000; char c = '/'; // c\n", True),
    ('auto r = R"(a // b)";\n', 'auto r = R"(a // c)";\n', False),
    ("x = 1\n", "# a comment\nx = 1\n", True),
])
def test_the_fingerprint_moves_with_code_not_with_comments(before, after, same):
    for ext in (".cu",) if "x = 1" not in before else (".py",):
        assert (provenance.normalise("a" + ext, before) == provenance.normalise("a" + ext, after)) == same


def git(repo, *args):
    r = run(["git", "-C", repo, *args], 60)
    assert r.rc == 0, r.tail()
    return r.out.strip()


def init_repo(path):
    git(path, "init", "-q")
    git(path, "config", "user.email", "test@example.com")
    git(path, "config", "user.name", "test")
    git(path, "config", "commit.gpgsign", "false")


def commit_all(repo, message):
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def vecmax_copy(tmp_path):
    """common/ and vecmax/ (no builds, no runs), committed in a repository of their own, with rows
    made now for every reference folder of vecmax (results/, results/h200/, the lab's
    experiments/results/<gpu>/), so that none is stale yet."""
    repo = tmp_path / "repo"
    for folder in ("common", "vecmax"):
        shutil.copytree(ROOT / folder, repo / folder, symlinks=True,
                        ignore=shutil.ignore_patterns("build", "bin", "runs", "__pycache__"))
    init_repo(repo)
    commit_all(repo, "copy")
    for folder in (repo / f for f in provenance.reference_folders(str(repo), ["vecmax"])):
        csvs = sorted(p.name for p in folder.glob("*.csv"))
        r = run([sys.executable, repo / "common/py/provenance.py", "record", folder, *csvs,
                 "--command", "make -C vecmax report-run (test)"], 120)
        assert r.rc == 0, r.tail()
    commit_all(repo, "rows")
    return repo


def change(repo, path, old, new):
    text = (repo / path).read_text()
    assert old in text, f"{path} does not hold {old!r}"
    (repo / path).write_text(text.replace(old, new, 1))


def change_a_code_line(repo):
    """A statement added after the first line of vecmax's kernels that ends a statement."""
    path = "vecmax/vecmax_kernels.cuh"
    line = next(x for x in (repo / path).read_text().split("\n")
                if x.rstrip().endswith(";") and not x.lstrip().startswith(("//", "*", "#")))
    change(repo, path, line, line + " (void)0;")


ANY_STALE = re.compile(r"^stale: ", re.M)


def tables(repo):
    r = run([sys.executable, "tables.py"], 300, cwd=repo / "vecmax")
    assert r.rc == 0, r.tail()
    return (repo / "vecmax/README.md").read_text()


def test_a_stale_csv_is_marked_in_its_tables_and_by_status(vecmax_copy):
    """A fresh row: no table says stale. A comment changed: still none. A line of a kernel
    changed: every table drawn from vecmax/results/ says when and by which commit it was made, and
    `provenance.py status` lists the CSVs with the file that changed."""
    repo = vecmax_copy
    made = git(repo, "rev-parse", "HEAD~1")[:7]
    assert not ANY_STALE.search(tables(repo))
    change(repo, "vecmax/vecmax_kernels.cuh", "\n", "\n// a comment only: the numbers cannot change\n")
    assert not ANY_STALE.search(tables(repo))
    status = run([sys.executable, repo / "common/py/provenance.py", "status", repo / "vecmax"], 120)
    assert status.rc == 0 and "0 of" in status.out.splitlines()[-1], status.tail()
    change_a_code_line(repo)
    readme = tables(repo)
    marks = STALE.findall(readme)
    assert marks and f"stale: made by {made} (" in readme, readme[:2000]
    status = run([sys.executable, repo / "common/py/provenance.py", "status", repo / "vecmax"], 120)
    assert status.rc == 0 and "vecmax/results/sweep.csv: stale: made by " + made in status.out, status.tail()
    assert "vecmax/vecmax_kernels.cuh" in status.out, status.tail()


def fake_gnuplot(bin_dir, log):
    """A gnuplot that writes its arguments to log and a non-empty file where the figure goes."""
    bin_dir.mkdir()
    script = bin_dir / "gnuplot"
    script.write_text(f'#!/bin/bash\nprintf "%s\\n" "$*" >>"{log}"\nout=${{@: -1}}\necho png >"$out"\n')
    script.chmod(0o755)
    return f"{bin_dir}:{os.environ['PATH']}"


def test_a_stale_csv_is_marked_in_its_figures(vecmax_copy, tmp_path):
    """render_figures.sh passes gnuplot stale='' for a fresh CSV, and the stale line once the code
    changed; the figure is drawn again then (its stale line is part of what it is made from)."""
    repo, log = vecmax_copy, tmp_path / "gnuplot.log"
    env = dict(os.environ, PATH=fake_gnuplot(tmp_path / "bin", log))
    shutil.rmtree(repo / "vecmax/figures")
    render = ["bash", repo / "common/scripts/render_figures.sh", "results", "figures"]
    r = run(render, 300, cwd=repo / "vecmax", env=env)
    assert r.rc == 0 and "stale=''" in log.read_text() and "stale='stale" not in log.read_text(), r.tail()
    log.unlink()
    r = run(render, 300, cwd=repo / "vecmax", env=env)
    assert r.rc == 0 and not log.exists() and " 0 figure(s) drawn" in r.out, r.tail()
    change_a_code_line(repo)
    r = run(render, 300, cwd=repo / "vecmax", env=env)
    made = git(repo, "rev-parse", "HEAD~1")[:7]
    calls = log.read_text().splitlines()
    assert r.rc == 0 and calls and all(f"stale='stale: made by {made} (" in c for c in calls), (calls, r.tail())


def need_titled():
    if "titled(" not in (ROOT / "common/plot_style.gp").read_text():
        pytest.skip("common/plot_style.gp defines no titled() yet: no figure can show its stale line")


def test_plot_style_puts_the_stale_line_under_the_title(tmp_path):
    """A figure rendered with stale='...' shows the line (pi's table 1, as an SVG)."""
    need_titled()
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot not installed")
    svg = tmp_path / "table1.svg"
    r = run(["gnuplot", "-e", "stale='stale: made by 0123456 (2026-01-01); the code that decides it has changed since'",
             "-c", ROOT / "pi/plots/table1.gp", ROOT / "pi/results/table1.csv", svg], 120)
    assert r.rc == 0 and "made by 0123456" in svg.read_text(), r.tail()


SCRIPTS = sorted(ROOT.glob("*/plots/*.gp")) + sorted(ROOT.glob("*/experiments/plots/*.gp"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[str(p.relative_to(ROOT)).replace("/plots/", "-")[:-3] for p in SCRIPTS])
def test_every_figure_titles_through_titled(script):
    """Its main title is titled("...") (common/plot_style.gp), in it or in a script it calls."""
    need_titled()
    text = script.read_text()
    called = [script.parent / m for m in re.findall(r'"/([\w.-]+\.gp)"', text)]
    assert any("titled(" in p.read_text() for p in [script, *called] if p.exists()), f"{script.relative_to(ROOT)}: no titled()"


def test_a_backfilled_row_names_the_commit_that_made_the_data(tmp_path):
    """A repository of one assignment: data made at c1, code changed at c2, a column added to the
    CSV at c3 (same data), the CSV moved to experiments/results/h200/ at c4. The backfilled row
    names c1, its fingerprint is c1's code's, the command is the Makefile's, and the CSV is stale."""
    repo = tmp_path / "repo"
    (repo / "common/py").mkdir(parents=True)
    shutil.copy(PROVENANCE, repo / "common/py")
    (repo / "common/shared.h").write_text("inline int twice(int x) { return 2 * x; }\n")
    (repo / "a/results").mkdir(parents=True)
    (repo / "a/Makefile").write_text("include ../common/assignment.mk\nreport-experiments:\n\t$(BIN) --csv=$(RESULTS_DIR)/x.csv\n")
    (repo / "a/a_kernels.cu").write_text("__global__ void k(int* p) { *p = 1; }\n")
    (repo / "a/results/x.csv").write_text("device,driver,ms\nGPU A,555.5,1.0\n")
    init_repo(repo)
    c1 = commit_all(repo, "data")
    (repo / "a/a_kernels.cu").write_text("__global__ void k(int* p) { *p = 2; }\n")
    commit_all(repo, "code")
    (repo / "a/results/x.csv").write_text("device,driver,ms,new\nGPU A,555.5,1.0,\n")
    commit_all(repo, "a column")
    (repo / "a/experiments/results/h200").mkdir(parents=True)
    git(repo, "mv", "a/results/x.csv", "a/experiments/results/h200/x.csv")
    commit_all(repo, "move")
    r = run([sys.executable, repo / "common/py/provenance.py", "backfill"], 120)
    assert r.rc == 0, r.tail()
    row = provenance.read_manifest(str(repo / "a/experiments/results/h200"))["x.csv"]
    assert row["commit"] == c1 and row["origin"] == "backfilled" and row["gpu"] == "GPU A" and row["driver"] == "555.5", row
    assert row["fingerprint"] == provenance.fingerprint(provenance.GitTree(str(repo), c1), "a", row["scope"]), row
    r = run([sys.executable, repo / "common/py/provenance.py", "status"], 120)
    assert "a/experiments/results/h200/x.csv: stale: made by " + c1[:7] in r.out and "a/a_kernels.cu" in r.out, r.tail()
    r = run([sys.executable, repo / "common/py/provenance.py", "check"], 120)
    assert r.rc == 0, r.tail()


def test_check_fails_on_a_csv_without_its_row_and_a_row_without_its_csv(tmp_path):
    repo = tmp_path / "repo"
    (repo / "common/py").mkdir(parents=True)
    shutil.copy(PROVENANCE, repo / "common/py")
    (repo / "a/results/h200").mkdir(parents=True)
    (repo / "a/Makefile").write_text("include ../common/assignment.mk\n")
    (repo / "a/results/h200/y.csv").write_text("x\n1\n")
    check = [sys.executable, repo / "common/py/provenance.py", "check"]
    r = run(check, 60)
    assert r.rc == 1 and "a/results/h200/: no MANIFEST.tsv" in r.out, r.tail()
    provenance.record(str(repo), "a/results/h200", ["y.csv"], "by hand")
    assert run(check, 60).rc == 0
    (repo / "a/results/h200/z.csv").write_text("x\n2\n")
    os.remove(repo / "a/results/h200/y.csv")
    r = run(check, 60)
    assert r.rc == 1 and "z.csv: no row" in r.out and "a row for y.csv, which is not there" in r.out, r.tail()


def staged(repo, *command, env=None):
    return run(["bash", repo / "common/scripts/staged_run.sh", "a", *command], 120, cwd=repo / "a",
               env=dict(os.environ, CW_REFERENCE="1", **(env or {})))


def test_a_staged_run_records_the_rows_of_what_it_moved(tmp_path):
    """CW_REFERENCE=1 staged_run.sh: results/MANIFEST.tsv gets a row per CSV moved, with the command
    line, the CSV's GPU and driver, the commit and the fingerprint of now; a failed run changes it
    not at all."""
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "common/scripts", repo / "common/scripts")
    (repo / "common/py").mkdir(parents=True)
    shutil.copy(PROVENANCE, repo / "common/py")
    (repo / "a").mkdir()
    (repo / "a/Makefile").write_text("include ../common/assignment.mk\n")
    (repo / "a/a_kernels.cu").write_text("__global__ void k() {}\n")
    init_repo(repo)
    head = commit_all(repo, "start")
    write = 'printf "assignment,device,driver\\na,GPU B,580.1\\n" >"$RESULTS_DIR/t.csv"'
    r = staged(repo, "bash", "-c", write)
    assert r.rc == 0, r.tail()
    row = provenance.read_manifest(str(repo / "a/results"))["t.csv"]
    assert row["commit"] == head and row["origin"] == "run" and row["gpu"] == "GPU B" and row["driver"] == "580.1", row
    assert "CW_REFERENCE=1 bash ../common/scripts/staged_run.sh a bash -c" in row["command"], row
    assert row["fingerprint"] == provenance.fingerprint(provenance.WorkTree(str(repo)), "a", row["scope"]), row
    before = (repo / "a/results/MANIFEST.tsv").read_bytes()
    r = staged(repo, "bash", "-c", write + "; exit 3")
    assert r.rc == 3 and (repo / "a/results/MANIFEST.tsv").read_bytes() == before, r.tail()
