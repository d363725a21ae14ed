# Tier 1 of pi (no GPU): the README and DETAILS.md as students read them. Sourced by
# common/run_tests.sh from pi/.
tmp=$CW_TEST_TMP/pi-readme
rm -rf "$tmp" && mkdir -p "$tmp/pi" "$tmp/common"
cp -r README.md DETAILS.md tables.py original results "$tmp/pi/"
ln -s "$(cd ../common && pwd)/py" "$tmp/common/py"
# Every generated table is what tables.py computes from the committed CSVs.
if (cd "$tmp/pi" && python3 tables.py >"$tmp/tables.log" 2>&1) &&
   cmp -s README.md "$tmp/pi/README.md" && cmp -s DETAILS.md "$tmp/pi/DETAILS.md"; then
  t_pass "pi: tables.py on the committed results leaves README.md and DETAILS.md unchanged"
else
  t_fail "pi: tables.py on the committed results leaves README.md and DETAILS.md unchanged" \
    "$(tail -n 1 "$tmp/tables.log") $(diff README.md "$tmp/pi/README.md" | head -n 2 | tr '\n' ' ')"
fi
# Numbers in prose backed by a table or a named CSV, lines of at most 100 characters.
if [ -f ../common/py/readme_check.py ]; then
  if python3 ../common/py/readme_check.py --max-lines 400 README.md >"$tmp/check.log" 2>&1 &&
     python3 ../common/py/readme_check.py DETAILS.md >>"$tmp/check.log" 2>&1; then
    t_pass "pi: readme_check passes on README.md and DETAILS.md"
  else
    t_fail "pi: readme_check passes on README.md and DETAILS.md" "$(head -n 2 "$tmp/check.log" | tr '\n' ' ')"
  fi
fi
# A run of another GPU: its own tables, the device named, no nan, the reference untouched.
mkdir -p "$tmp/other/h200"
for f in results/*.csv; do sed 's/NVIDIA H100[^,]*/NVIDIA A100-SXM4-40GB/g' "$f" >"$tmp/other/$(basename "$f")"; done
if python3 tables.py "$tmp/other" --out "$tmp/other.md" >"$tmp/other.log" 2>&1 &&
   grep -q "| A100-SXM4-40GB | float |" "$tmp/other.md" && ! grep -qiw "nan" "$tmp/other.md" &&
   ! grep -q "H100" "$tmp/other.md" && cmp -s README.md "$tmp/pi/README.md"; then
  t_pass "pi: another GPU's run gets its own tables, its device named, no nan"
else
  t_fail "pi: another GPU's run gets its own tables, its device named, no nan" "$(tail -n 1 "$tmp/other.log")"
fi
# The sample output in the README is the committed H200 run's, line for line.
if awk '/^```text$/ { on = 1; next } /^```$/ { on = 0 } on' README.md | cmp -s - results/h200/sample_output.txt; then
  t_pass "pi: the README's sample output is results/h200/sample_output.txt"
else
  t_fail "pi: the README's sample output is results/h200/sample_output.txt" "the fenced text block differs"
fi
