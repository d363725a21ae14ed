"""Tier 1: common/README.md's "Adding a version" worked example, applied as written to a copy of the
repository (its kernel block before the comment of version 5's warp helper, its launcher line and
declaration before version 5's, its registry entry before version 5's): the copy builds warning-free, and the new version is in --help and --list-versions (with
make profile's kernel filter), in the tests pytest collects in the copy, in a CSV, in the tables
(tables.py RUN --out F, the step tables unchanged) and in every figure drawn from its CSVs, with no file
of the copy changed but the kernel and registry files. The CSVs: the copy's own run on a GPU; else the
committed ones, with the rows of the version before the new one relabelled (no nvcc needed)."""
import csv
import filecmp
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from cwtest import ROOT, built_warning_free, figure, gpu_case, gpu_reason, labels, need_built, program, reuse_builds, run, need_nvcc

NAME = "reduction_versions"
FAST = ["--repeat=1", "--warmup=0", "--l2=keep"]
ANCHORS = {"kernel": ("reduction_versions_kernels.cu", "// The last six steps of the tree inside one warp"),
           "launcher": ("reduction_versions_kernels.cu", "const PassKernel kUnrolledLastWarp{"),
           "declaration": ("reduction_versions_kernels.cuh", "extern const PassKernel kUnrolledLastWarp;"),
           "registry": ("reduction_versions_versions.cu", '        Version("5", kUnrolledLastWarp.name,')}


def example(marker):
    m = re.search(r"<!-- example: " + marker + r" -->\s*```[a-z+]*\n(.*?)```", (ROOT / "common/README.md").read_text(), re.S)
    assert m, f"common/README.md has no '{marker}' example block"
    return m.group(1)


LABEL, SUMMARY = re.search(r'Version\("([^"]+)", \w+\.name, "([^"]+)"', example("registry")).groups()
KERNEL = re.search(r'\{"([^"]+)", ', example("launcher")).group(1)


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """The copy (reduction_versions/ beside copies of common/, conftest.py, pytest.ini, and the
    checkout's build outputs), the example applied, built: what the example touches is rebuilt, and
    its compilers print no warning."""
    need_nvcc()
    tmp = tmp_path_factory.mktemp("adding-a-version")
    for d in (NAME, "common"):
        shutil.copytree(ROOT / d, tmp / d, ignore=shutil.ignore_patterns("build", "bin", "runs", "__pycache__"))
    reuse_builds(tmp, (NAME, "common"))
    for f in ("conftest.py", "pytest.ini"):
        shutil.copy(ROOT / f, tmp)
    for marker, (name, anchor) in ANCHORS.items():
        src = (tmp / NAME / name).read_text()
        assert src.count(anchor) == 1, f"the anchor of the {marker} example is not once in {name}"
        (tmp / NAME / name).write_text(src.replace(anchor, example(marker) + "\n" * (marker == "kernel") + anchor))
    built_warning_free(run(["make", "-C", tmp / NAME, "-j8", "all"], timeout=1200))
    return tmp / NAME


def listed(copy):
    return [line.split() for line in run([copy / "bin" / NAME, "--list-versions"]).out.splitlines()]


def test_new_version_in_help_and_list_versions(copy):
    r = run([copy / "bin" / NAME, "--help"])
    assert re.search(rf"^\s+\* {re.escape(LABEL)}\s+{re.escape(SUMMARY)}$", r.out, re.M), r.tail(30)
    assert [LABEL, "validated", "kernel", "default", "gpu", "-", KERNEL] in listed(copy)


def test_new_version_in_the_collected_tests(copy):
    r = run([sys.executable, "-m", "pytest", "--collect-only", "-q", f"{NAME}/tests"], cwd=copy.parent,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert r.rc == 0 and re.search(rf"\[(.*-)?{re.escape(LABEL)}(-.*)?\]$", r.out, re.M), r.tail(20)


@pytest.fixture(scope="module")
def results(request, tmp_path_factory):
    """A run's folder with rows of the new version: on a GPU the copy's own (report-experiments' shapes,
    small); else the committed results/*.csv, the rows of the version before the anchor's (in the
    registry's order) followed by the same rows under the new label."""
    out = tmp_path_factory.mktemp("run")
    if not gpu_reason():
        prog = request.getfixturevalue("copy") / "bin" / NAME
        for name, args in (("versions", "--n=100003"), ("size_sweep", "--sizes=2^10,2^12,2^14"),
                           ("threads", "--n=4097 --threads=64,256")):
            gpu_case([prog, *args.split(), *FAST, f"--csv={out}/{name}.csv"])
        return out
    need_built(program(NAME))
    anchor = re.search(r'"(.*?)"', ANCHORS["registry"][1])[1]  # the version whose row the example goes before
    before = labels(NAME)[labels(NAME).index(anchor) - 1]
    for path in (ROOT / NAME / "results").glob("*.csv"):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        with open(out / path.name, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            for r in rows:
                w.writerows([r, {**r, "version": LABEL}] if r.get("version") == before else [r])
    return out


@pytest.mark.gpu
def test_new_version_passes_at_awkward_sizes_and_its_csv_rows(copy, tmp_path):
    baseline = next(v[0] for v in listed(copy) if v[2] == "baseline")
    gpu_case([copy / "bin" / NAME, f"--only={LABEL},{baseline}", "--sizes=1,33,1025,100003", *FAST, f"--csv={tmp_path}/r.csv"])
    rows = [r for r in csv.DictReader(open(tmp_path / "r.csv")) if r["version"] == LABEL]
    assert len(rows) == 4 and all(r["kernel"] == KERNEL and r["validated"] == r["result_ok"] == "1" for r in rows), rows


def tables(folder):
    r = run(["python3", ROOT / NAME / "tables.py", folder, "--out", folder / "tables.md"])
    assert r.rc == 0, r.tail()
    return (folder / "tables.md").read_text()


def test_new_version_in_the_tables_and_the_steps_unchanged(results, tmp_path):
    text = tables(results)
    assert re.search(rf"^\| {re.escape(LABEL)} \| `", text, re.M), f"no versions-table row for {LABEL}"
    assert re.search(rf"^\| ints \|.* v{re.escape(LABEL)} \|", text, re.M), f"no size-table column for {LABEL}"
    assert re.search(rf"^\| {re.escape(LABEL)} \| \**\d", text, re.M), f"no block-size table row for {LABEL}"
    for path in results.glob("*.csv"):  # the same CSVs without the new version: the same chain of steps
        (tmp_path / path.name).write_text("".join(x for x in path.read_text().splitlines(True) if f",{LABEL}," not in x))
    steps = [[line for line in t.splitlines() if "→" in line] for t in (text, tables(tmp_path))]
    assert steps[0] and steps[0] == steps[1], "the new version changed the step tables"


def test_new_version_in_every_figure_of_its_csvs(results, tmp_path):
    drawn = []
    for line in run(["make", "-s", "-C", ROOT / NAME, "print-figures"]).out.splitlines():
        name, source = line.split()
        data = results / Path(source).name
        if data.exists() and f",{LABEL}," in data.read_text():
            figure(ROOT / NAME / "plots" / f"{name}.gp", data, tmp_path / f"{name}.svg")
            assert re.search(rf">([^<]* )?{re.escape(LABEL)}( [^<]*)?<", (tmp_path / f"{name}.svg").read_text()), name
            drawn.append(name)
    assert drawn, "no figure is drawn from a CSV with the new version"


def test_no_file_changed_but_the_kernel_and_registry_files(copy):
    def files(top):
        return {p.relative_to(top) for p in top.rglob("*") if p.is_file() and not
                {"build", "bin", "runs", "__pycache__"} & set(p.relative_to(top).parts)}
    assert files(copy) == files(ROOT / NAME), "the copy has other files than the repository's"
    changed = {str(f) for f in files(copy) if not filecmp.cmp(copy / f, ROOT / NAME / f, shallow=False)}
    assert changed == {name for name, _ in ANCHORS.values()}, f"changed: {sorted(changed)}"
