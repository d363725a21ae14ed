"""The documents of every assignment and what makes them (no GPU): every figure renders from the
committed CSVs; `make plots` on the committed CSVs changes no file, in a copy (README, DETAILS.md,
figures and their SOURCES.sha256 byte-identical on any machine's fonts, no table without data);
a run relabelled as another GPU, put where staged_run.sh puts a user's run (runs/<gpu>/), gets
its own figures and tables.md while the reference stays byte-identical; every committed CSV has
its program's current columns; the top README's results tables are what the committed CSVs
make; every README reads in a terminal (readme_check.py)."""
import shutil
import subprocess
import sys

import pytest
import ncu_tidy
import provenance
from cwtest import UNDER_TEST, ASSIGNMENTS, ROOT, figure, need_built, program, run

FIGURES = [(a, *line.split()) for a in UNDER_TEST
           for line in run(["make", "--no-print-directory", "-s", "-C", ROOT / a, "print-figures"], 60).out.splitlines() if line.strip()]


@pytest.mark.parametrize("name,fig,csv", [pytest.param(*f, id=f"{f[0]}-{f[1]}") for f in FIGURES])
def test_figure_renders_from_the_committed_csv(name, fig, csv, tmp_path):
    if not (ROOT / name / csv).is_file():
        pytest.skip(f"no committed {name}/{csv} yet")
    figure(ROOT / name / "plots" / f"{fig}.gp", ROOT / name / csv, tmp_path / f"{fig}.png")


def need_gnuplot():
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot not installed")


def copy_assignment(name, dst):
    """common/ and the assignment, without build outputs or runs (mtimes kept, as tar keeps them)."""
    for folder in ("common", name):
        shutil.copytree(ROOT / folder, dst / folder, symlinks=True, ignore=shutil.ignore_patterns("build", "bin", "runs"))
    return dst / name


def plots_keep_the_reference(name, copy):
    """make plots in the copy exits 0 and leaves every file of the reference as the repository has it."""
    r = run(["make", "--no-print-directory", "-C", copy, "plots"], 600)
    assert r.rc == 0, r.tail()
    diff = subprocess.run(["diff", "-r", "-x", "runs", "-x", "build", "-x", "bin", ROOT / name, copy], capture_output=True, text=True)
    assert not diff.stdout + diff.stderr, "make plots changed the reference:\n" + (diff.stdout + diff.stderr)[:3000]


def no_table_without_data(text):
    return not any(line.startswith("(no data") for line in text.splitlines())


@pytest.mark.parametrize("name", UNDER_TEST)
def test_make_plots_on_the_committed_csvs_changes_no_file(name, tmp_path):
    need_gnuplot()
    plots_keep_the_reference(name, copy_assignment(name, tmp_path))
    assert all(no_table_without_data(md.read_text()) for md in (ROOT / name).glob("*.md")), f"{name}: a table without data"


def relabel(text):
    """A CSV with every row's device column set to another GPU (comment lines kept)."""
    out, col = [], None
    for line in text.splitlines():
        fields = line.split(",")
        if not line.startswith("#") and col is not None and col < len(fields):
            fields[col] = "Relabelled GPU"
        elif not line.startswith("#") and col is None and "device" in fields:
            col = fields.index("device")
        out.append(",".join(fields))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", UNDER_TEST)
def test_a_run_relabelled_as_another_gpu_gets_its_own_figures_and_tables(name, tmp_path):
    """Every reference CSV (results/ and results/h200/), relabelled, in runs/relabelled-gpu/: its own
    figures and tables.md, every table with data naming that GPU and never a reference GPU."""
    need_gnuplot()
    copy = copy_assignment(name, tmp_path)
    run_dir = copy / "runs/relabelled-gpu"
    for csv in [*copy.glob("results/*.csv"), *copy.glob("results/*/*.csv")]:
        out = run_dir / csv.relative_to(copy / "results")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(relabel(csv.read_text()))
    plots_keep_the_reference(name, copy)
    figs = [line.split()[0] for line in run(["make", "--no-print-directory", "-s", "-C", copy, "print-figures"], 60).out.splitlines() if line]
    missing = [f for f in figs if not (run_dir / "figures" / f"{f}.png").is_file() or not (run_dir / "figures" / f"{f}.png").stat().st_size]
    assert not missing, f"missing figures: {missing}"
    tables = (run_dir / "tables.md").read_text() if (run_dir / "tables.md").exists() else ""
    assert tables and no_table_without_data(tables), "tables.md missing, or a table without data"
    assert "Relabelled" in tables and "H100" not in tables and "H200" not in tables, "tables.md does not name the run's GPU alone"


def is_subsequence(part, whole):
    it = iter(whole)
    return all(c in it for c in part)


@pytest.mark.parametrize("name", UNDER_TEST)
def test_every_committed_csv_has_the_current_columns(name):
    """Of its program (its core columns first) or ncu_tidy.py's: the figures and tables are tested on
    these CSVs, so a column renamed in a program must come with a new reference run. One exception,
    visible in every table and figure made from it: a CSV that provenance marks stale (its code
    changed since the run) may lack columns added since, its own columns still the program's, in
    order (the tables and figures read such a column as absent)."""
    need_built(program(name))
    header = run([program(name), "--print-csv-header"], 10).out.strip()
    bad = []
    for csv in [*(ROOT / name).glob("results/*.csv"), *(ROOT / name).glob("results/*/*.csv")]:
        first = next((line.rstrip("\n") for line in open(csv) if not line.startswith("#")), "")
        if not first.startswith("assignment,version,") or first in (header, ",".join(ncu_tidy.COLUMNS)):
            continue
        older = provenance.stale_row(str(csv)) and is_subsequence(first.split(","), header.split(","))
        if not older:
            bad.append(str(csv.relative_to(ROOT)))
    assert not bad, f"not the program's columns (nor an older run's, marked stale): {bad}"


def test_the_top_readme_results_tables_are_what_the_committed_csvs_make(tmp_path):
    """In a copy of README.md and every assignment's results/ (run make summary where this fails)."""
    shutil.copy(ROOT / "README.md", tmp_path)
    for a in ASSIGNMENTS:
        shutil.copytree(ROOT / a / "results", tmp_path / a / "results")
    r = run([sys.executable, ROOT / "common/py/results_summary.py", "--root", tmp_path, *ASSIGNMENTS], 120)
    assert r.rc == 0 and not r.out, r.tail()
    assert (tmp_path / "README.md").read_bytes() == (ROOT / "README.md").read_bytes(), "README.md's results tables are stale: make summary"


def readme_check(*args):
    return run([sys.executable, ROOT / "common/py/readme_check.py", *args], 60)


@pytest.mark.parametrize("readme", ["README.md", "common/README.md", "slurm/README.md"])
def test_readme_reads_in_a_terminal(readme):
    """100 columns, no issue numbers, generated blocks holding tables only."""
    r = readme_check("--no-numbers", ROOT / readme)
    assert r.rc == 0, r.tail(20)


@pytest.mark.parametrize("name", UNDER_TEST)
def test_report_numbers_in_prose_are_in_a_table_or_name_their_csv(name):
    """README.md (at most 400 lines) and DETAILS.md."""
    r = readme_check("--max-lines", "400", ROOT / name / "README.md")
    assert r.rc == 0, r.tail(20)
    if (ROOT / name / "DETAILS.md").exists():
        r = readme_check(ROOT / name / "DETAILS.md")
        assert r.rc == 0, r.tail(20)
