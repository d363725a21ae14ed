"""The shared scripts on fixtures: mdtables.py (README tables from CSVs), results_summary.py (the
top README's results tables), readme_check.py (a README read in a terminal), ncu_tidy.py (Nsight
Compute's CSV, on a committed sample of real output) and debian_mirror.sh (the Debian archive
of an apt configuration)."""
import csv
import os
import sys

import pytest
from cwtest import ROOT, run

PY = ROOT / "common/py"


def py(*args, **kwargs):
    return run([sys.executable, *args], 120, **kwargs)


# ---- mdtables.py ----

MD_TABLES = f'''import sys
sys.path.insert(0, "{PY}")
from mdtables import Col, Table, pivot, run
TABLES = [Table("x", "x.csv", [Col("version"), Col("n", "n", "{{:,}}"), Col("kernel_ms", "ms", "{{:.3f}}")], where={{"version": "A"}}),
          Table("p", lambda d: pivot(__import__("mdtables").load(d, "x.csv"), "n", "version", "kernel_ms"),
                lambda rows: [Col(c) for c in rows[0]]),
          Table("gone", "missing.csv", [Col("n")])]
run(TABLES)
'''


@pytest.fixture
def md(tmp_path):
    (tmp_path / "results").mkdir()
    (tmp_path / "results/x.csv").write_text("version,n,kernel_ms\nA,1000,0.5\nB,1000,0.25\nA,2000,1.0\n")
    (tmp_path / "tables.py").write_text(MD_TABLES)
    (tmp_path / "README.md").write_text("# t\n<!-- BEGIN x -->\n<!-- END x -->\n<!-- BEGIN p -->\nold\n<!-- END p -->\n"
                                        "<!-- BEGIN gone -->\n<!-- END gone -->\n")
    return tmp_path


def test_mdtables_fills_blocks(md):
    """where, formats, a pivot with series from the data, a missing CSV in one line."""
    r = py(md / "tables.py", cwd=md)
    lines = (md / "README.md").read_text().splitlines()
    for want in ("| A | 1,000 | 0.500 |", "| A | 2,000 | 1.000 |", "| 1000 | 0.5 | 0.25 |", "| 2000 | 1.0 | – |"):
        assert want in lines, r.tail() + "\n" + "\n".join(lines)
    assert not [x for x in lines if x.startswith("| B |") or x == "old"] and any(x.startswith("(no data: missing.csv") for x in lines)


def test_mdtables_block_without_a_declared_table_stops_the_run(md):
    with open(md / "README.md", "a") as f:
        f.write("<!-- BEGIN stray -->\n<!-- END stray -->\n")
    r = py(md / "tables.py", cwd=md)
    assert r.rc != 0 and "block 'stray' that no table declares" in r.err, r.tail()


def test_mdtables_declared_table_without_a_block_stops_the_run(md):
    (md / "README.md").write_text("# t\n<!-- BEGIN x -->\n<!-- END x -->\n")
    r = py(md / "tables.py", cwd=md)
    assert r.rc != 0 and "no block in README.md or DETAILS.md for table(s) p, gone" in r.err, r.tail()


def test_mdtables_out_writes_every_table_of_a_run(md):
    r = py(md / "tables.py", md / "results", "--out", md / "run.md", cwd=md)
    lines = (md / "run.md").read_text().splitlines()
    assert r.rc == 0 and sum(x.startswith("## ") for x in lines) == 3 and "| A | 1,000 | 0.500 |" in lines, r.tail()


# ---- results_summary.py ----

HEADER = "version,validated,is_baseline,device,n,kernel_ms,kernel_ms_scope,baseline_ms,speedup_vs_baseline,bandwidth_GBps,pct_of_copy_bw,result_ok"


@pytest.fixture
def summary(tmp_path):
    """Made-up results of two assignments, demo (a second reference set in results/h200/) and nobw."""
    (tmp_path / "demo/results/h200").mkdir(parents=True)
    (tmp_path / "nobw/results").mkdir(parents=True)
    (tmp_path / "README.md").write_text("# x\n" + "".join(f"<!-- BEGIN {b} -->\n<!-- END {b} -->\n" for b in
                                                ("results-summary", "side-by-side", "slower-than-library")))
    rows = {"demo/results/a.csv": ["lib,1,1,GPU A,1000,1.0,kernels,1.0,1.0,800,40,1", "fast,1,0,GPU A,1000,0.5,kernels,1.0,2.0,1600,80,1",
                                   "racy,0,0,GPU A,1000,0.1,kernels,1.0,10,8000,400,1", "slow,1,0,GPU A,1000,2.0,kernels,1.0,0.5,400,20,0",
                                   "fast,1,0,GPU A,10,0.02,kernels,0.01,0.5,1,1,1"],
            "demo/results/h200/a.csv": ["fast,1,0,GPU B,1000,0.25,kernels,1.0,4.0,3200,90,1"],
            "nobw/results/b.csv": ["other,1,1,GPU A,10,1.0,call: alloc+kernels,1.0,1.0,,,1", "single,1,0,GPU A,10,0.25,kernels,1.0,4.0,,,1"]}
    for f, lines in rows.items():
        (tmp_path / f).write_text("\n".join([HEADER, *lines]) + "\n")
    return tmp_path


def test_results_summary_on_made_up_results(summary):
    """The best version is the fastest validated one that passed at the largest size; demonstrations
    (validated = 0) are counted apart and never picked; failures are named; the baseline comes from
    is_baseline with its scope; a second reference set gets its own column named by its device; a
    version slower than its library at a size is listed."""
    r = py(PY / "results_summary.py", "--root", summary, "demo", "nobw")
    text = (summary / "README.md").read_text().splitlines()
    for want in ("| [demo](demo/README.md) | GPU A | fast, n = 1,000 | 0.5000 | 1.0000 (lib) | 2.00 | 80.0 | "
                 "3 of 4 PASS (FAIL: slow), 1 demonstration rows | demo/results/a.csv |",
                 "| [nobw](nobw/README.md) | GPU A | single, n = 10 | 0.2500 | 1.0000 (other, call: alloc+kernels) | 4.00 | – |",
                 "| assignment | GPU A: best version, size: × library | GPU B: best version, size: × library |",
                 "| [demo](demo/README.md) | fast, n = 1,000: 2.00× | fast, n = 1,000: 4.00× |",
                 "| [demo](demo/README.md) | GPU A | fast | n = 10 | 20.00 | 10.00 | 0.500 |"):
        assert any(want in line for line in text), f"no line {want!r}\n" + r.tail()
    assert any("| [demo](demo/README.md) | GPU B | fast, n = 1,000 |" in line for line in text), r.tail()


def test_results_summary_unchanged_results_leave_the_readme_untouched(summary):
    py(PY / "results_summary.py", "--root", summary, "demo", "nobw")
    before = (summary / "README.md").read_bytes()
    r = py(PY / "results_summary.py", "--root", summary, "demo", "nobw")
    assert (summary / "README.md").read_bytes() == before and not r.out, r.tail()


def manifest(folder, fingerprint):
    """A MANIFEST.tsv row for folder's a.csv, made by commit 0123456... on 2026-01-02."""
    (folder / "MANIFEST.tsv").write_text(
        "file\tcommit\tfingerprint\tscope\tcommand\tgpu\tdriver\tdate\torigin\n"
        f"a.csv\t{'0123456' + 'f' * 33}\t{fingerprint}\tprogram\tby hand\tGPU\t1.0\t2026-01-02T00:00:00Z\trun\n")


@pytest.mark.parametrize("checkout", [pytest.param(True, id="in_a_checkout"), pytest.param(False, id="a_copy_of_the_results")])
def test_results_summary_names_the_stale_sets_under_each_table(summary, checkout):
    """A reference set whose code changed since its CSV was made (its manifest's fingerprint is not
    the code's) gets a generated stale line, naming its folder, under every table drawn from it;
    a set made from the code as it is gets none. The code: that of the checkout the results lie
    in, or for a copy of them outside any (make summary's test), this repository's."""
    if checkout:
        (summary / "common/py").mkdir(parents=True)
        (summary / "common/py/provenance.py").write_bytes((PY / "provenance.py").read_bytes())
        (summary / "demo/demo.cu").write_text("__global__ void k() {}\n")
    sys.path.insert(0, str(PY))
    import provenance
    code = summary if checkout else ROOT
    manifest(summary / "demo/results", provenance.fingerprint(provenance.WorkTree(str(code)), "demo", "program"))
    manifest(summary / "demo/results/h200", "0" * 16)
    r = py(PY / "results_summary.py", "--root", summary, "demo", "nobw")
    text = (summary / "README.md").read_text()
    line = "stale: demo/results/h200/ made by 0123456 (2026-01-02); the code that decides it has changed since\n"
    assert r.rc == 0 and text.count(line) == 3 and "stale: demo/results/ " not in text, text
    assert "\n\n" + line + "<!-- END side-by-side -->" in text, text


# ---- readme_check.py ----

LONG = "x" * 101


def test_readme_check_finds_each_problem_and_nothing_else(tmp_path):
    """A long prose line, an issue number, a generated block with sentences besides its table and a
    number in prose that no table holds are found; a number in a table, one whose paragraph names
    its CSV, a quotation and code are not."""
    bad = tmp_path / "bad.md"
    bad.write_text("\n".join(["# Title", LONG, f"| {LONG} |", "```", LONG, "```", "See issue 5 for that.",
                              "<!-- BEGIN t -->", "| a |", "| --- |", "| 1.25 |", "", "One.", "Two.", "Three.", "<!-- END t -->", "",
                              "The kernel takes 3.75 ms.", "", "It takes 1.25 ms; \"took 9.5 s\" said the report; `--n=1000`.", "",
                              "Here 7.5 ms (results/x.csv)."]) + "\n")
    r = py(PY / "readme_check.py", bad)
    assert r.rc == 1 and r.out.splitlines() == [
        f"{bad}: line 2: 101 characters", f"{bad}: line 7: issue number",
        f"{bad}: block t: 3 lines besides its table (a caption has at most 2)",
        f"{bad}: line 18: 3.75 in prose is in no table of this document, and the paragraph names no CSV", "4 problem(s)"], r.tail()


@pytest.mark.parametrize("max_lines,rc", [pytest.param(3, 0, id="clean_readme_passes"), pytest.param(2, 1, id="over_its_line_limit_fails")])
def test_readme_check_line_limit(tmp_path, max_lines, rc):
    (tmp_path / "good.md").write_text(f"# Title\nShort prose, 12 words.\n| {LONG} |\n")
    r = py(PY / "readme_check.py", "--max-lines", max_lines, tmp_path / "good.md")
    assert r.rc == rc, r.tail()


def table(cells):  # a Markdown table of one row of `cells` columns
    return [f"| {' | '.join('h' * cells)} |", "|" + "|".join(" --- " for _ in range(cells)) + "|",
            f"| {' | '.join('1' * cells)} |"]


@pytest.mark.parametrize("name,cells,args,rc", [
    pytest.param("README.md", 9, (), 0, id="nine_columns_pass"),
    pytest.param("README.md", 10, (), 1, id="ten_columns_in_a_readme_fail"),
    pytest.param("doc.md", 10, ("--max-lines", "400"), 1, id="ten_columns_under_max_lines_fail"),
    pytest.param("DETAILS.md", 10, (), 0, id="details_may_be_wide"),
    pytest.param("experiments/README.md", 10, (), 0, id="the_lab_may_be_wide")])
def test_readme_check_table_width(tmp_path, name, cells, args, rc):
    """A README's table has at most 9 columns (an escaped \\| is no column border); DETAILS.md and the
    lab's README may be wider."""
    doc = tmp_path / name
    doc.parent.mkdir(exist_ok=True)
    doc.write_text("\n".join(["# Title", *table(cells), "", "| a \\| b | c |"]) + "\n")
    r = py(PY / "readme_check.py", *args, doc)
    assert r.rc == rc and (rc == 0 or r.out.splitlines()[:3] == [
        f"{doc}: line {n}: a table row of {cells} columns (at most 9 in a README; the full table goes to DETAILS.md)"
        for n in (2, 3, 4)]), r.tail()


STALE_BLOCK = ["# Title", "<!-- BEGIN t -->", "| a |", "| --- |", "| 1.25 |", "", "Caption one.", "Caption two.", "",
               "stale: x.csv made by 2971763 (2026-11-29); the code that decides it has changed since",
               "stale: y.csv made by 0123abc+dirty (2026-11-30); its code has changed since", "<!-- END t -->"]


@pytest.mark.parametrize("max_lines,rc", [pytest.param(9, 0, id="stale_lines_not_counted"), pytest.param(8, 1, id="the_rest_is")])
def test_readme_check_leaves_generated_stale_lines_alone(tmp_path, max_lines, rc):
    """The stale lines mdtables.py writes under a table (and the blank line above them) are no
    caption line, no prose whose numbers need backing (a commit, a date) and count towards no line
    limit: 12 lines, 9 counted."""
    (tmp_path / "doc.md").write_text("\n".join(STALE_BLOCK) + "\n")
    r = py(PY / "readme_check.py", "--max-lines", max_lines, tmp_path / "doc.md")
    assert r.rc == rc and (rc == 0 or "9 lines (at most 8" in r.out), r.tail()


def test_readme_check_reads_a_hand_written_stale_line_as_prose(tmp_path):
    """Only the generated form is exempt: a line of prose that merely begins with "stale: " is
    checked like any other."""
    (tmp_path / "doc.md").write_text("\n".join(STALE_BLOCK[:-3] + ["", "stale: the data of 2026 are old", "<!-- END t -->"]) + "\n")
    r = py(PY / "readme_check.py", tmp_path / "doc.md")
    assert r.rc == 1 and "2026 in prose" in r.out, r.tail()


# ---- ncu_tidy.py ----

def test_ncu_tidy_reads_real_ncu_output(tmp_path):
    """tests/data/ncu_sample.csv (ncu 2025.3 on the H100, reduction_versions' NCU_SAMPLE_ARGS, made by
    gpu_session.sh's ncu-sample phase; the kernels checked are that sample's): ==PROF== lines skipped,
    thousands separators read, kernel names shortened, launches of one kernel reduced to their
    median, the L2 flush left out."""
    out = tmp_path / "tidy.csv"
    r = py(PY / "ncu_tidy.py", ROOT / "common/tests/data/ncu_sample.csv", out, "--assignment", "sample", "--version", "1",
           "--n", "65536", "--device", "NVIDIA H100 80GB HBM3", "--ncu-version", "2025.3.1")
    assert r.rc == 0, r.tail()
    rows = list(csv.DictReader(open(out)))
    value = lambda kernel, metric: [x for x in rows if x["kernel"] == kernel and x["metric"] == metric]  # noqa: E731
    assert len(rows) == 12, f"{len(rows)} rows, expected 12 (4 kernels x 3 metrics)"
    [conflicts] = value("rv::reduce_interleaved_strided", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
    assert conflicts["value"] == "8995" and conflicts["launches"] == "4", conflicts
    [inst] = value("rv::reduce_interleaved_divergent", "smsp__inst_executed.sum")
    assert inst["unit"] == "inst" and inst["value"] == "254944", inst
    assert not [x["kernel"] for x in rows if "l2_flush" in x["kernel"] or "(" in x["kernel"] or "," in x["kernel"]]
    assert {(x["device"], x["ncu_version"]) for x in rows} == {("NVIDIA H100 80GB HBM3", "2025.3.1")}


def test_ncu_tidy_output_without_metrics_exit_2_one_line_nothing_written(tmp_path):
    (tmp_path / "empty_ncu.csv").write_text("==PROF== nothing profiled\n")
    r = py(PY / "ncu_tidy.py", tmp_path / "empty_ncu.csv", tmp_path / "none.csv", "--assignment", "a", "--version", "v", "--n", "1")
    assert r.rc == 2 and not (tmp_path / "none.csv").exists() and len(r.err.splitlines()) == 1, r.tail()


# ---- debian_mirror.sh ----

DEB822 = """Types: deb
URIs: http://mirror.invalid/debian-security
Suites: bookworm-security
Components: main

Types: deb-src deb
URIs: http://mirror.invalid/debian/ http://second.invalid/debian
Suites: bookworm bookworm-updates
Components: main
"""
ONE_LINE = """# deb http://commented.invalid/debian bookworm main
deb [arch=amd64 signed-by=/k.gpg] http://sec.invalid/debian-security bookworm-security main
deb http://line.invalid/debian bookworm main contrib
"""


@pytest.mark.parametrize("file,text,env,rc,want", [
    pytest.param("sources.list.d/a.sources", DEB822, {}, 0, "http://mirror.invalid/debian", id="deb822_first_uri_not_security"),
    pytest.param("sources.list", ONE_LINE, {}, 0, "http://line.invalid/debian", id="one_line_options_and_comments_skipped"),
    pytest.param(None, None, {}, 1, "", id="no_source_for_the_release_one_line_exit_1"),
    pytest.param(None, None, {"CW_DEBIAN_MIRROR": "http://given.invalid/debian/"}, 0, "http://given.invalid/debian",
                 id="CW_DEBIAN_MIRROR_overrides")])
def test_debian_mirror(tmp_path, file, text, env, rc, want):
    """Fixtures only: the machine's apt configuration is not read."""
    etc = tmp_path / "apt-etc"
    (etc / "sources.list.d").mkdir(parents=True)
    if file:
        (etc / file).write_text(text)
    (tmp_path / "os-release").write_text("VERSION_CODENAME=bookworm\n")
    env = {"CW_APT_ETC": str(etc), "CW_OS_RELEASE": str(tmp_path / "os-release"), **env}
    r = run(["bash", ROOT / "common/scripts/debian_mirror.sh"], 30, env={**os.environ, **env})
    assert r.rc == rc and r.out.strip() == want and r.out.count("\n") == (1 if want else 0), r.tail()
    if rc:
        assert len(r.err.splitlines()) == 1 and "no 'deb' source for bookworm" in r.err, r.tail()
