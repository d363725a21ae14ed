# Tier 1 of pi (no GPU): the README and DETAILS.md as students read them. Sourced by
# common/run_tests.sh from pi/. What every assignment's documents must be (tables reproduced,
# numbers in prose backed, at most 400 lines) is tested once for all in
# common/tests/tier1_reference.sh and tier1_readme_check.sh.
tmp=$CW_TEST_TMP/pi-readme
rm -rf "$tmp" && mkdir -p "$tmp"
# A run of another GPU: its own tables, the device named in the precision tables, no nan.
mkdir -p "$tmp/other/h200"
for f in results/*.csv; do sed 's/NVIDIA H100[^,]*/NVIDIA A100-SXM4-40GB/g' "$f" >"$tmp/other/$(basename "$f")"; done
if python3 tables.py "$tmp/other" --out "$tmp/other.md" >"$tmp/other.log" 2>&1 &&
   grep -q "| A100-SXM4-40GB | float |" "$tmp/other.md" && ! grep -qiw "nan" "$tmp/other.md" &&
   ! grep -q "H100" "$tmp/other.md"; then
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
