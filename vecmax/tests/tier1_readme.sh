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

# Another GPU's results (common/tests/testlib.sh; the prose style of every README: common/tests/tier1_readme_lint.sh).
readme_other_gpu_case results/*.csv
