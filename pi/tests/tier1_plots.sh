# Tier 1 of pi: every figure and every README table renders from synthetic CSVs with the
# program's current columns (from --print-csv-header); run_tests.sh renders the figures from
# the committed results/*.csv (tier1_readme.sh checks tables.py on those).
syn=$CW_TEST_TMP/synthetic
mkdir -p "$syn"
if python3 tests/synthetic_csv.py "$syn" "$(bin/pi --print-csv-header)" 2>"$CW_TEST_TMP/syn.err"; then
  # The synthetic header is the program's: pi accepts the file for --csv (exit 2 otherwise).
  t_run bin/pi --niter=64 --only=2 --precision=float --repeat=1 --warmup=0 --csv="$syn/table1.csv" --print-csv-header
  if [ "$T_STATUS" -eq 0 ]; then t_pass "pi: synthetic CSV has the program's columns"
  else t_fail "pi: synthetic CSV has the program's columns" "exit $T_STATUS: $(head -n 1 "$T_ERR")"; fi
  for pair in "table1 table1" "table2 table2" "error error" "throughput bench" "pipe_utilisation profile"; do
    set -- $pair
    figure_case "pi: figure $1 renders from a synthetic CSV" "plots/$1.gp" "$syn/$2.csv" "$syn/$1.png" "$CW_TEST_TMP/gp.log"
  done
  mkdir -p "$syn/h200" && cp "$syn"/*.csv "$syn/h200/"
  if python3 tables.py "$syn" --out "$syn/tables.md" >"$CW_TEST_TMP/tables.log" 2>&1 &&
     grep -q "| 2^24·64 = 1073741824 | 225,098 | 206,182 |" "$syn/tables.md" && ! grep -q "(no data" "$syn/tables.md"; then
    t_pass "pi: tables.py writes every table from synthetic CSVs"
  else
    t_fail "pi: tables.py writes every table from synthetic CSVs" "$(grep -m 1 "(no data" "$syn/tables.md") $(tail -n 2 "$CW_TEST_TMP/tables.log" | tr '\n' ' ')"
  fi
else
  t_fail "pi: synthetic CSVs" "$(tail -n 1 "$CW_TEST_TMP/syn.err")"
fi

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
