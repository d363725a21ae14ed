"""What `make plots` says about its figures (common/scripts/render_figures.sh; no GPU): one closing
line that counts the figures drawn and those up to date, true in a copy where nothing changed;
without gnuplot one line naming the package, no "command not found" and no "old figure" that never
existed; the top Makefile's one line from the tallies of every folder."""
import os
import shutil

import pytest
from cwtest import ROOT, run

RENDER = ROOT / "common/scripts/render_figures.sh"


@pytest.fixture
def copy(tmp_path):
    """common/ and vecmax/ without builds, runs or figures (as before the first `make plots`)."""
    for folder in ("common", "vecmax"):
        shutil.copytree(ROOT / folder, tmp_path / folder, symlinks=True,
                        ignore=shutil.ignore_patterns("build", "bin", "runs", "figures", "__pycache__"))
    return tmp_path / "vecmax"


def figures_of(folder):
    return [line.split()[0] for line in run(["make", "--no-print-directory", "-s", "-C", folder, "print-figures"], 60).out.splitlines()]


@pytest.fixture(scope="module")
def no_gnuplot(tmp_path_factory):
    """A folder of links to every program on PATH but gnuplot: PATH of a machine without it."""
    farm = tmp_path_factory.mktemp("path")
    for d in os.environ["PATH"].split(os.pathsep):
        if os.path.isdir(d):
            for name in os.listdir(d):
                if name != "gnuplot" and not (farm / name).exists() and os.access(os.path.join(d, name), os.X_OK):
                    (farm / name).symlink_to(os.path.join(d, name))
    return str(farm)


def path_with(tmp_path, farm, gnuplot=None):
    """farm (PATH without gnuplot), behind a gnuplot script of ours where given (its body: what it
    does with "$@"; the figure is the last argument)."""
    if not gnuplot:
        return farm
    d = tmp_path / f"gnuplot-{abs(hash(gnuplot))}"
    d.mkdir(exist_ok=True)
    (d / "gnuplot").write_text("#!/bin/bash\n" + gnuplot + "\n")
    (d / "gnuplot").chmod(0o755)
    return f"{d}{os.pathsep}{farm}"


DRAWS = 'out=${@: -1}; echo png >"$out"'


def render(folder, path, **env):
    return run(["bash", RENDER, "results", "figures"], 300, cwd=folder, env=dict(os.environ, PATH=path, **env))


def test_the_closing_line_counts_what_was_drawn_and_what_was_up_to_date(copy, tmp_path, no_gnuplot):
    n = len(figures_of(copy))
    path = path_with(tmp_path, no_gnuplot, DRAWS)
    r = render(copy, path)
    assert r.rc == 0 and r.out.splitlines()[-1] == f"vecmax/figures: {n} figure(s) drawn, 0 up to date", r.tail()
    r = render(copy, path)
    assert r.rc == 0 and r.out.splitlines() == [f"vecmax/figures: 0 figure(s) drawn, {n} up to date"], r.tail()
    os.remove(copy / "figures" / f"{figures_of(copy)[0]}.png")
    r = render(copy, path)
    assert r.rc == 0 and r.out.splitlines()[-1] == f"vecmax/figures: 1 figure(s) drawn, {n - 1} up to date", r.tail()


def test_without_gnuplot_one_line_names_the_package(copy, tmp_path, no_gnuplot):
    """Nothing drawn yet: exit 1 and one line, naming gnuplot-nox; once the figures are up to date
    gnuplot is not needed: exit 0 and the closing line."""
    n = len(figures_of(copy))
    r = render(copy, path_with(tmp_path, no_gnuplot))
    lines = (r.out + r.err).splitlines()
    assert r.rc == 1 and len(lines) == 1 and "gnuplot-nox" in lines[0] and f"{n} not drawn" in lines[0], r.tail()
    assert "command not found" not in r.out + r.err and "old figure" not in r.out + r.err
    assert render(copy, path_with(tmp_path, no_gnuplot, DRAWS)).rc == 0
    r = render(copy, path_with(tmp_path, no_gnuplot))
    assert r.rc == 0 and (r.out + r.err).splitlines() == [f"vecmax/figures: 0 figure(s) drawn, {n} up to date"], r.tail()


def test_a_failed_render_says_whether_an_old_figure_is_kept(copy, tmp_path, no_gnuplot):
    first = figures_of(copy)[0]
    r = render(copy, path_with(tmp_path, no_gnuplot, "exit 1"))
    assert r.rc == 1 and f"figure {first}: gnuplot failed on results/" in r.err and "(no figure written)" in r.err, r.tail()
    assert "old figure" not in r.err
    assert render(copy, path_with(tmp_path, no_gnuplot, DRAWS)).rc == 0
    os.remove(copy / "figures/SOURCES.sha256")
    r = render(copy, path_with(tmp_path, no_gnuplot, "exit 1"))
    assert r.rc == 1 and "(the old figure is kept)" in r.err and (copy / "figures" / f"{first}.png").exists(), r.tail()


def test_the_top_make_plots_line_sums_every_folder(copy, tmp_path, no_gnuplot):
    """With CW_PLOTS_TALLY each folder adds its counts and prints no closing line of its own;
    --summary prints their sum in one line."""
    n = len(figures_of(copy))
    tally = tmp_path / "tally"
    path = path_with(tmp_path, no_gnuplot, DRAWS)
    r = render(copy, path, CW_PLOTS_TALLY=str(tally))
    assert r.rc == 0 and "up to date" not in r.out, r.tail()
    r = render(copy, path, CW_PLOTS_TALLY=str(tally))
    assert r.rc == 0 and not r.out, r.tail()
    r = run(["bash", RENDER, "--summary", tally], 30)
    assert r.rc == 0 and r.out == f"make plots: {n} figure(s) drawn, {n} up to date (2 folder(s) of figures)\n", r.tail()


def test_a_script_that_another_figure_calls_is_one_of_that_figure_s_sources(copy, tmp_path, no_gnuplot):
    """scan's bandwidth_h200.gp is bandwidth.gp on another CSV: a change of the called script redraws
    both figures, and only them."""
    figs = figures_of(copy)
    n, base = len(figs), figs[0]
    (copy / "plots/caller.gp").write_text(f'# calls {base}.gp on its input\n'
                                          f'call system("dirname ".ARG0)."/{base}.gp" ARG1 ARG2\n')
    usage = next(line for line in (copy / f"plots/{base}.gp").read_text().splitlines() if "gnuplot -c" in line)
    (copy / "plots/caller.gp").write_text((copy / "plots/caller.gp").read_text() + usage.replace(f"{base}.gp", "caller.gp")
                                          .replace(f"{base}.png", "caller.png") + "\n")
    path = path_with(tmp_path, no_gnuplot, DRAWS)
    assert render(copy, path).rc == 0
    with open(copy / f"plots/{base}.gp", "a") as f:
        f.write("# changed\n")
    r = render(copy, path)
    assert r.rc == 0 and r.out.splitlines()[-1] == f"vecmax/figures: 2 figure(s) drawn, {n - 1} up to date", r.tail()
