"""A clone in a folder whose absolute path is long (README: the tests pass on a fresh clone,
wherever it is): every figure renders from the committed CSV of a copy whose path has 100
characters or more, gnuplot started from another folder. A plot script that builds a shell
command with gnuplot's sprintf fails there if the command holds "%%" (gnuplot 5.4.4 repeats the
text after it when its buffer grows, so that awk is given a printf with more formats than
arguments). .ci/run runs the whole suite from such a path too."""
import shutil
from pathlib import Path

import pytest
from cwtest import ROOT, UNDER_TEST, figure, run

# 100 characters of folder name below pytest's temporary folder.
LONG_NAME = "a-clone-in-a-folder-whose-absolute-path-is-long-as-under-home-user-courses-gpu-programming-2025-xyz"
assert len(LONG_NAME) >= 100 - 2


def figures(name):
    """(figure, its CSV) of an assignment, from its Makefile (print-figures)."""
    out = run(["make", "--no-print-directory", "-s", "-C", ROOT / name, "print-figures"], 60).out
    return [tuple(line.split()) for line in out.splitlines() if line.strip()]


FIGURES = [(a, fig, csv) for a in UNDER_TEST for fig, csv in figures(a)]


@pytest.fixture(scope="module")
def long_clone(tmp_path_factory):
    """common/ and every assignment under test, without build outputs or runs, in a folder whose
    absolute path has at least 100 characters."""
    dst = tmp_path_factory.mktemp("long") / LONG_NAME
    for folder in ("common", *UNDER_TEST):
        shutil.copytree(ROOT / folder, dst / folder, symlinks=True,
                        ignore=shutil.ignore_patterns("build", "bin", "runs", "__pycache__"))
    assert len(str(dst)) >= 100, dst
    return dst


@pytest.mark.parametrize("name,fig,csv", [pytest.param(*f, id=f"{f[0]}-{f[1]}") for f in FIGURES])
def test_figure_renders_in_a_clone_at_a_long_path(name, fig, csv, long_clone, tmp_path, monkeypatch):
    if not (long_clone / name / csv).is_file():
        pytest.skip(f"no committed {name}/{csv}")
    monkeypatch.chdir(tmp_path)
    figure(long_clone / name / "plots" / f"{fig}.gp", long_clone / name / csv, Path(tmp_path) / f"{fig}.png")
