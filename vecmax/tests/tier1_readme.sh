# Tier 1 of vecmax (no GPU): the README as students read it. Sourced by common/run_tests.sh
# from vecmax/, after cli_test.sh.
#   - tables.py on the committed results reproduces README.md byte for byte (no typed or stale
#     number in a generated table or paragraph);
#   - results of another GPU: the committed CSVs with their device relabelled as an A100 give a
#     README that never says H100 (the device is named from the CSVs only);
#   - prose lines (outside tables and code blocks) are at most 100 characters, no inline value
#     markers, no issue numbers.
R=$CW_TEST_TMP/readme
rm -rf "$R" && mkdir -p "$R/results"
cp README.md "$R/README.committed.md"
python3 tables.py results "$R/README.committed.md" >"$R/tables.log" 2>&1 &&
  cmp -s README.md "$R/README.committed.md"
t_verdict "tables.py on the committed results reproduces README.md" "$R/tables.log"

# The device column (and the profile's) relabelled: every "H100" of the output would be text
# that is not generated from the CSVs.
for f in results/*.csv; do sed 's/NVIDIA H100[^,]*/NVIDIA A100-SXM4-40GB/g' "$f" >"$R/results/$(basename "$f")"; done
cp README.md "$R/README.a100.md"
if ! python3 tables.py "$R/results" "$R/README.a100.md" >"$R/tables.log" 2>&1; then
  t_fail "a README regenerated from another GPU's CSVs never says H100" "$(tail -n 1 "$R/tables.log")"
elif grep -n "H100" "$R/README.a100.md" >"$R/h100.txt"; then
  t_fail "a README regenerated from another GPU's CSVs never says H100" "$(head -n 2 "$R/h100.txt" | tr '\n' ' ')"
elif ! grep -q "A100-SXM4-40GB" "$R/README.a100.md"; then
  t_fail "a README regenerated from another GPU's CSVs never says H100" "the relabelled device is not named"
else
  t_pass "a README regenerated from another GPU's CSVs never says H100"
fi

# Prose for a terminal: lines of at most 100 characters (tables and code blocks excepted), no
# inline value markers, no issue numbers.
python3 - README.md >"$R/lint.log" 2>&1 <<'PY'
import re, sys
problems, code = [], False
for n, line in enumerate(open(sys.argv[1]), 1):
    line = line.rstrip("\n")
    if line.startswith("```"):
        code = not code
    elif not code and not line.startswith("|") and len(line) > 100:
        problems.append(f"line {n}: {len(line)} characters")
    if "<!-- v:" in line:
        problems.append(f"line {n}: inline value marker")
    # "issue 3" or "issue #3", not the issue slots' "issue 67 %" or "issue 8.4·10¹²"
    if re.search(r"\bissues? #?\d+\b(?![.,·]\d)(?!\s*%)", line, re.I):
        problems.append(f"line {n}: issue number")
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
t_verdict "README prose wrapped at 100, no inline value markers, no issue numbers" "$R/lint.log"
