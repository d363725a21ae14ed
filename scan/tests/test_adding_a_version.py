"""common/README.md's "Adding a version", scan's worked example, tried as written: in a copy of the
repository, the README's two code blocks go into scan/scan_versions.cu (nothing else is edited),
scan is built, and the new version must show in --list-versions, in the tests pytest collects,
in a run's CSV (on a GPU; without one, committed rows relabelled as the new version stand in), in
tables.py's tables and in the figures drawn from that CSV; no other file may change. Needs nvcc."""
import csv
import os
import re
import shutil
import sys

import pytest
from cwtest import ROOT, built_warning_free, gpu_case, gpu_reason, reuse_builds, run, need_nvcc

README = ROOT / "common/README.md"
# Where each block goes: before its anchor, which must be in the file once.
ANCHORS = {"scan-entry": ("scan/scan_versions.cu", "LauncherPtr hs_cover_n(const Plan& p) {"),
           "scan-registry": ("scan/scan_versions.cu", '        Version("hs_multiblock_racy", "hillis_steele_in_place",\n')}


def block(marker):
    m = re.search(r"<!-- example: " + marker + r" -->\s*```[a-z+]*\n(.*?)```", README.read_text(), re.S)
    assert m, f"common/README.md has no '{marker}' example block"
    return m.group(1)


LABEL = re.search(r'Version\("(\w+)"', block("scan-registry")).group(1)


def git(repo, *args):
    r = run(["git", "-C", repo, "-c", "user.name=test", "-c", "user.email=test@example.com", *args])
    assert r.rc == 0, r.tail()
    return r.out


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A copy of the repository's files (git ls-files) with the example applied and scan built, from
    the checkout's build outputs (what the example touches is rebuilt, warning-free); a git
    repository of its own (build outputs ignored), so that what changed can be listed."""
    need_nvcc()
    files = run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    if files.rc != 0:
        pytest.skip("not a git checkout: " + files.err.strip())
    copy = tmp_path_factory.mktemp("adding_a_version") / "repo"
    for name in filter(None, files.out.split("\0")):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    git(copy, "init", "-q")
    git(copy, "add", "-A")
    git(copy, "commit", "-q", "-m", "the repository as it is")
    for marker, (name, anchor) in ANCHORS.items():
        text = (copy / name).read_text()
        assert text.count(anchor) == 1, f"anchor of the {marker} example not found once in {name}"
        (copy / name).write_text(text.replace(anchor, block(marker) + anchor, 1))
    reuse_builds(copy, ("scan", "common"))
    built_warning_free(run(["make", "-C", copy / "scan", "-j8"], timeout=1800))
    return copy


def test_new_version_builds_and_is_listed(repo):
    listed = run([repo / "scan/bin/scan", "--list-versions"]).out
    assert re.search(rf"^{LABEL} validated kernel default gpu ", listed, re.M), listed
    assert re.search(rf"^  \* {LABEL} ", run([repo / "scan/bin/scan", "--help"]).out, re.M)


def test_new_version_is_in_the_collected_tests(repo):
    r = run([sys.executable, "-m", "pytest", "--collect-only", "-q", "scan/tests"], cwd=repo,
            env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert r.rc == 0, r.tail()
    ids = [line for line in r.out.splitlines() if "test_gpu.py" in line and re.search(rf"[\[-]{LABEL}[\]-]", line)]
    assert len(ids) >= 5, f"{len(ids)} GPU test ids name {LABEL}\n" + r.tail()


def relabelled(results, out):
    """Committed CSVs with the rows of their first validated, non-baseline version copied under LABEL."""
    with open(results / "sweep.csv") as f:
        copied = next(r["version"] for r in csv.DictReader(f) if r["validated"] == "1" and r["is_baseline"] == "0")
    for path in results.glob("*.csv"):
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        if "version" in rows[0]:
            c = rows[0].index("version")
            rows = [rows[0]] + [x for r in rows[1:]
                                for x in ([r, r[:c] + [LABEL] + r[c + 1:]] if r[c] == copied else [r])]
        with open(out / path.name, "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(rows)


def test_new_version_in_a_runs_csv_tables_and_figures(repo, tmp_path):
    results = tmp_path / "run"
    results.mkdir()
    if gpu_reason():  # no GPU: the committed rows of one version under the new label, as a run would add
        relabelled(repo / "scan/results", results)
    else:  # a sweep.csv of the kind `make report` writes (its smallest sizes), with the baseline
        baseline = re.search(r"^(\S+) \S+ baseline ", run([repo / "scan/bin/scan", "--list-versions"]).out, re.M)
        gpu_case([repo / "scan/bin/scan", "--sizes=2^10,2^12", "--mode=inclusive", "--repeat=2", "--warmup=1",
                  f"--only={baseline.group(1)},{LABEL}", f"--csv={results}/sweep.csv"])
    with open(results / "sweep.csv") as f:
        assert any(r["version"] == LABEL for r in csv.DictReader(f)), "no CSV row of " + LABEL
    r = run(["python3", "tables.py", results, "--out", tmp_path / "tables.md"], cwd=repo / "scan")
    assert r.rc == 0, r.tail()
    assert re.search(rf"\| {LABEL}( \(ms\))? \|", (tmp_path / "tables.md").read_text()), "no table names " + LABEL
    if not shutil.which("gnuplot"):
        pytest.skip("gnuplot not installed: the figures are not drawn")
    drawn = []
    for line in run(["make", "-s", "--no-print-directory", "-C", repo / "scan", "print-figures"]).out.splitlines():
        name, csv_name = line.split()
        data = results / os.path.basename(csv_name)
        if data.exists() and f",{LABEL}," in data.read_text():
            svg = tmp_path / f"{name}.svg"
            g = run(["gnuplot", "-c", f"plots/{name}.gp", data, svg], cwd=repo / "scan")
            assert g.rc == 0 and re.search(rf">([^<]* )?{LABEL}(,[^<]*)?<", svg.read_text()), f"{name}: no {LABEL}"
            drawn.append(name)
    assert {"timing", "bandwidth"} <= set(drawn), drawn


def test_no_other_file_changed(repo):
    assert git(repo, "status", "--porcelain").splitlines() == [" M scan/scan_versions.cu"]
