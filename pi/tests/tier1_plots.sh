# Tier 1 of pi: the report's numbers (the figures and tables of the committed results render
# through run_tests.sh and common/tests/tier1_reference.sh, which also checks that every committed
# CSV has the program's current columns).
# The report's numbers: the figures and tables read them from original/report_001.csv; the
# transcription still holds the report's 18 numbers (two tables) with their comment lines.
if python3 - <<'PY'
import csv, sys
lines = open("original/report_001.csv").read().splitlines()
rows = list(csv.DictReader(l for l in lines if not l.startswith("#")))
want = {("1", "32768", "2"): "169", ("1", "1048576", "cpu"): "17723", ("2", "268435456", "1"): "56479",
        ("2", "268435456", "2"): "51758", ("2", "1073741824", "2"): "206182"}
got = {(r["table"], r["n"], r["version"]): r["time_us"] for r in rows}
sys.exit(0 if len(rows) == 18 and all(got.get(k) == v for k, v in want.items()) and lines[0].startswith("#") else 1)
PY
then t_pass "pi: original/report_001.csv holds the report's two tables"
else t_fail "pi: original/report_001.csv holds the report's two tables" "rows or values differ"; fi
