# Tier 1 of vecmax (no GPU): the tables of a run (tables.py RUN --out F) hold the report's best
# configuration and the CUB benchmark at 2^28. Sourced by common/tests/run_tests.sh from vecmax/.
# What every assignment's documents must be (tables reproduced from the committed CSVs, a
# relabelled run's own tables, numbers in prose backed, at most 400 lines) is tested once for all
# in common/tests/tier1_reference.sh and tier1_readme_check.sh.
R=$CW_TEST_TMP/readme
rm -rf "$R" && mkdir -p "$R"
python3 tables.py results --out "$R/run.md" >"$R/tables.log" 2>&1 &&
  grep -q "^| 1024 | 128 | " "$R/run.md" && grep -q "^| 268,435,456 | cub | 2 | " "$R/run.md"
t_verdict "tables.py RUN --out: the 1024 x 128 sweep row and CUB at 2^28 are in a run's tables" "$R/tables.log"
