"""pi, tier 1 (no GPU): the report's numbers (original/report_001.csv), another GPU's run of the
committed CSVs, and the README's sample output. The figures and tables of the committed results,
and what every assignment's documents must be, are tested once for all in common/tests."""
import csv
import re
import sys

from cwtest import ROOT, run

HERE = ROOT / "pi"


def test_report_001_csv_holds_the_report_two_tables():
    """The figures and tables read the report's 18 numbers (two tables) from it, with its comment lines."""
    lines = (HERE / "original/report_001.csv").read_text().splitlines()
    rows = list(csv.DictReader(l for l in lines if not l.startswith("#")))
    got = {(r["table"], r["n"], r["version"]): r["time_us"] for r in rows}
    want = {("1", "32768", "2"): "169", ("1", "1048576", "cpu"): "17723", ("2", "268435456", "1"): "56479",
            ("2", "268435456", "2"): "51758", ("2", "1073741824", "2"): "206182"}
    assert lines[0].startswith("#") and len(rows) == 18
    assert {k: got.get(k) for k in want} == want


def test_another_gpu_run_gets_its_own_tables_device_named_no_nan(tmp_path):
    other = tmp_path / "other"
    (other / "h200").mkdir(parents=True)
    for f in (HERE / "results").glob("*.csv"):
        (other / f.name).write_text(re.sub(r"NVIDIA H100[^,]*", "NVIDIA A100-SXM4-40GB", f.read_text()))
    r = run([sys.executable, HERE / "tables.py", other, "--out", tmp_path / "other.md"])
    assert r.rc == 0, r.tail()
    md = (tmp_path / "other.md").read_text()
    assert "| A100-SXM4-40GB | float |" in md and not re.search(r"\bnan\b", md, re.I) and "H100" not in md


def test_readme_sample_output_is_the_committed_h200_run():
    """The README's fenced text block is results/h200/sample_output.txt, line for line."""
    blocks = re.findall(r"^```text\n(.*?)^```$", (HERE / "README.md").read_text(), re.M | re.S)
    assert blocks and "".join(blocks) == (HERE / "results/h200/sample_output.txt").read_text()
