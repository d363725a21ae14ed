# Tier 1 (no GPU): a run with a new version label gets it in its tables and figures (versions
# come from the CSVs); the documents name no prose templates; every option and make target they
# name exists. Sourced by common/tests/run_tests.sh from this folder. What every assignment's
# documents must be (tables reproduced from the committed CSVs, a relabelled run's own tables,
# numbers in prose backed, at most 400 lines) is tested once for all in
# common/tests/tier1_reference.sh and tier1_readme_check.sh.
R=$CW_TEST_TMP/readme
rm -rf "$R"; mkdir -p "$R"
if ! command -v python3 >/dev/null; then
  t_skip "a new version label reaches the tables and figures" "python3 not installed"
else
  # A version the program adds (here a copy of version 4's rows labelled 4w) reaches the tables
  # from the CSVs alone: no list of labels in tables.py.
  mkdir -p "$R/new"
  cp results/*.csv "$R/new/"
  for csv in versions.csv size_sweep.csv threads.csv; do
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "version") c = i } { print }
             NR > 1 && $c == "4" { $c = "4w"; print }' OFS=, "results/$csv" >"$R/new/$csv"
  done
  python3 tables.py "$R/new" --out "$R/new/tables.md" >"$R/new/tables.log" 2>&1 &&
    grep -q '^| 4w | `reduce_first_add_during_load` |' "$R/new/tables.md" &&
    grep -q '^| ints | v1 | v2 | v3 | v4 | v4w | v5 |' "$R/new/tables.md" &&
    grep -q '^| 4w | \*\{0,2\}0\.' "$R/new/tables.md"
  t_verdict "a new version label in the CSVs appears in the tables (versions from the CSVs)" "$R/new/tables.log"
  # ... and in the figures, whose positions and tic labels come from the CSV.
  figure_case "figure time_per_version renders with the new label 4w" plots/time_per_version.gp \
    "$R/new/versions.csv" "$R/new/time.png" "$R/new/time.log"
  figure_case "figure bandwidth_vs_size renders with the new label 4w" plots/bandwidth_vs_size.gp \
    "$R/new/size_sweep.csv" "$R/new/size.png" "$R/new/size.log"

  ! grep -q 'prose.md' README.md DETAILS.md
  t_verdict "README.md and DETAILS.md name no prose templates" /dev/null
fi

# Every option the README names for this program is one its --help lists, and every `make X`
# it names is a target of this folder's Makefile (ncu's own options are left out).
if [ -x bin/reduction_versions ]; then
  bin/reduction_versions --help >"$R/help.txt" 2>&1
  make -qp 2>/dev/null | sed -n 's/^\([A-Za-z0-9_-]*\):.*/\1/p' | sort -u >"$R/targets.txt"
  python3 - README.md DETAILS.md "$R/help.txt" "$R/targets.txt" >"$R/names.log" 2>&1 <<'PY'
import re, sys
docs = open(sys.argv[1]).read() + open(sys.argv[2]).read()
help_text, targets = open(sys.argv[3]).read(), set(open(sys.argv[4]).read().split())
ncu = {"--kernel-name", "--launch-count", "--clock-control", "--cache-control", "--check", "--out"}
known = set(re.findall(r"--[a-z0-9-]+", help_text))
bad = [f"{o} is not in --help" for o in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", docs)))
       if o not in known and o not in ncu]
bad += [f"make {t} is not a target" for t in sorted(set(re.findall(r"`make (?:-C [\w/]+ )?([a-z][a-z0-9-]*)", docs)))
        if t not in targets]
print("; ".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
  t_verdict "every option and make target README.md and DETAILS.md name exists (--help, the Makefile)" "$R/names.log"
else
  t_skip "every option and make target README.md names exists" "bin/reduction_versions is not built"
fi
