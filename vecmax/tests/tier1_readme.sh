# Tier 1 of vecmax (no GPU): README.md and DETAILS.md as students read them. Sourced by
# common/tests/run_tests.sh from vecmax/, after cli_test.sh.
#   - tables.py on the committed results leaves README.md and DETAILS.md byte for byte as they
#     are (every generated table matches the committed CSVs);
#   - another GPU's run (the committed CSVs relabelled as an A100) gets its own tables file
#     (tables.py RUN --out F), naming the A100 and never the H100, and README.md and
#     DETAILS.md stay untouched;
#   - README.md has at most 400 lines, and every number in the prose of README.md and
#     DETAILS.md is in a table or names its CSV (common/py/readme_check.py, where present).
R=$CW_TEST_TMP/readme
rm -rf "$R" && mkdir -p "$R/vecmax" "$R/common/py" "$R/a100/h200"
cp README.md DETAILS.md tables.py "$R/vecmax/" && cp -r original "$R/vecmax/" &&
  cp ../common/py/mdtables.py "$R/common/py/"
results=$(pwd)/results
(cd "$R/vecmax" && python3 tables.py "$results") >"$R/tables.log" 2>&1 &&
  cmp -s README.md "$R/vecmax/README.md" && cmp -s DETAILS.md "$R/vecmax/DETAILS.md"
t_verdict "tables.py on the committed results reproduces README.md and DETAILS.md" "$R/tables.log"

for f in results/*.csv; do sed 's/NVIDIA H100[^,]*/NVIDIA A100-SXM4-40GB/g' "$f" >"$R/a100/$(basename "$f")"; done
(cd "$R/vecmax" && python3 tables.py "$R/a100" --out "$R/a100.md") >"$R/tables.log" 2>&1 &&
  grep -q "A100" "$R/a100.md" && ! grep -q "H100" "$R/a100.md" &&
  grep -q "^| 1024 | 128 | " "$R/a100.md" && grep -q "^| 268,435,456 | cub | 2 | " "$R/a100.md" &&
  cmp -s README.md "$R/vecmax/README.md" && cmp -s DETAILS.md "$R/vecmax/DETAILS.md"
t_verdict "another GPU's run gets its own tables (A100, no H100) and leaves the documents alone" "$R/tables.log"

lines=$(wc -l <README.md)
if [ "$lines" -le 400 ]; then t_pass "README.md has at most 400 lines"
else t_fail "README.md has at most 400 lines" "$lines lines"; fi
for doc in README.md DETAILS.md; do
  if [ ! -f ../common/py/readme_check.py ]; then t_skip "readme_check: $doc" "common/py/readme_check.py not there"
  else
    python3 ../common/py/readme_check.py "$doc" >"$R/check.log" 2>&1
    t_verdict "readme_check: every number in the prose of $doc is in a table or names its CSV" "$R/check.log"
  fi
done
