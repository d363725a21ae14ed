# Tier 1 of pi: every figure and every README table renders from synthetic CSVs with the
# program's current columns (from --print-csv-header); run_tests.sh renders the figures from
# the committed results/*.csv (which may be of the earlier layout), and this file also
# checks tables.py on those.
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
  cp README.md "$syn/README.md"
  printf 'Device 0: synthetic\n[1/6] niter=1048576 precision=float version=1 ... PASS\n' >"$syn/sample_output.txt"
  if python3 tables.py "$syn" "$syn/README.md" >"$CW_TEST_TMP/tables.log" 2>&1 &&
     ! grep -q "No results yet" "$syn/README.md" && grep -q "| 2^24·64 = 1073741824 | 225,098 | 206,182 |" "$syn/README.md" &&
     ! grep -q "(run make profile)" "$syn/README.md" && ! grep -q "(run make report-run" "$syn/README.md" &&
     grep -q "^Device 0: synthetic$" "$syn/README.md" && grep -q "| single | double | .* | FP64 | " "$syn/README.md"; then
    t_pass "pi: tables.py fills every README table, the counters and the sample output from synthetic CSVs"
  else
    t_fail "pi: tables.py fills every README table, the counters and the sample output from synthetic CSVs" \
      "$(tail -n 2 "$CW_TEST_TMP/tables.log" | tr '\n' ' ')"
  fi
  # Without profile.csv and sample_output.txt: placeholders, not a crash.
  rm -f "$syn/profile.csv" "$syn/sample_output.txt"
  cp README.md "$syn/README.md"
  if python3 tables.py "$syn" "$syn/README.md" >"$CW_TEST_TMP/tables.log" 2>&1 &&
     grep -q "| (run make profile) |" "$syn/README.md" && grep -q "(run make report-run" "$syn/README.md"; then
    t_pass "pi: tables.py writes placeholders where profile.csv and sample_output.txt are missing"
  else
    t_fail "pi: tables.py writes placeholders where profile.csv and sample_output.txt are missing" \
      "$(tail -n 2 "$CW_TEST_TMP/tables.log" | tr '\n' ' ')"
  fi
else
  t_fail "pi: synthetic CSVs" "$(tail -n 1 "$CW_TEST_TMP/syn.err")"
fi

# tables.py on the committed results (whatever their layout), into a copy of the README.
if ls results/*.csv >/dev/null 2>&1; then
  cp README.md "$CW_TEST_TMP/README.committed.md"
  if python3 tables.py results "$CW_TEST_TMP/README.committed.md" >"$CW_TEST_TMP/tables.log" 2>&1; then
    t_pass "pi: tables.py fills the README tables from the committed results"
  else
    t_fail "pi: tables.py fills the README tables from the committed results" "$(tail -n 2 "$CW_TEST_TMP/tables.log" | tr '\n' ' ')"
  fi
  # Every generated table and prose number in README.md is what tables.py computes from the
  # committed CSVs (a typed or stale number inside a marker fails here).
  if cmp -s README.md "$CW_TEST_TMP/README.committed.md"; then
    t_pass "pi: tables.py on the committed results reproduces README.md"
  else
    t_fail "pi: tables.py on the committed results reproduces README.md" \
      "$(diff README.md "$CW_TEST_TMP/README.committed.md" | head -n 3 | tr '\n' ' ')"
  fi
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
