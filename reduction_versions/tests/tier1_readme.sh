# Tier 1 (no GPU): README.md is what tables.py makes of the committed results/ (byte for
# byte), names the GPU of the CSVs it was made from (never a fixed one), takes its versions
# from the CSVs, and stays readable in a terminal (prose lines of at most 100 characters, no
# value markers inside sentences). Sourced by common/tests/run_tests.sh from this folder.
R=$CW_TEST_TMP/readme
rm -rf "$R"; mkdir -p "$R"
if ! command -v python3 >/dev/null; then
  t_skip "README.md from the committed results" "python3 not installed"
else
  cp README.md "$R/README.md"
  python3 tables.py results "$R/README.md" >"$R/tables.log" 2>&1 && cmp -s README.md "$R/README.md"
  t_verdict "README.md is exactly what tables.py makes of the committed results/ (run make plots)" "$R/tables.log"

  # Another GPU's results: the README names that GPU and never the committed one (testlib).
  readme_other_gpu_case results/*.csv

  # A version the program adds (here a copy of version 4's rows labelled 4w) reaches the tables
  # from the CSVs alone: no list of labels in tables.py.
  mkdir -p "$R/new"
  cp results/*.csv "$R/new/"
  for csv in versions.csv size_sweep.csv threads.csv; do
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "version") c = i } { print }
             NR > 1 && $c == "4" { $c = "4w"; print }' OFS=, "results/$csv" >"$R/new/$csv"
  done
  cp README.md "$R/new/README.md"
  python3 tables.py "$R/new" "$R/new/README.md" >"$R/new/tables.log" 2>&1 &&
    grep -q '^| 4w | `reduce_first_add_during_load` |' "$R/new/README.md" &&
    grep -q '^| ints | v1 | v2 | v3 | v4 | v4w | v5 |' "$R/new/README.md" &&
    grep -q '^| 4w | ' "$R/new/README.md"
  t_verdict "a new version label in the CSVs appears in the README tables (versions from the CSVs)" "$R/new/tables.log"
  # ... and in the figures, whose positions and tic labels come from the CSV.
  figure_case "figure time_per_version renders with the new label 4w" plots/time_per_version.gp \
    "$R/new/versions.csv" "$R/new/time.png" "$R/new/time.log"
  figure_case "figure bandwidth_vs_size renders with the new label 4w" plots/bandwidth_vs_size.gp \
    "$R/new/size_sweep.csv" "$R/new/size.png" "$R/new/size.log"

  fi

# Every option the README names for this program is one its --help lists, and every `make X`
# it names is a target of this folder's Makefile (ncu's own options, named in the profiling
# section, and common/scripts/ncu_profile.sh's --check are left out).
if [ -x bin/reduction_versions ]; then
  bin/reduction_versions --help >"$R/help.txt" 2>&1
  make -qp 2>/dev/null | sed -n 's/^\([A-Za-z0-9_-]*\):.*/\1/p' | sort -u >"$R/targets.txt"
  python3 - README.md "$R/help.txt" "$R/targets.txt" >"$R/names.log" 2>&1 <<'PY'
import re, sys
readme, help_text = open(sys.argv[1]).read(), open(sys.argv[2]).read()
targets = set(open(sys.argv[3]).read().split())
ncu = {"--kernel-name", "--launch-count", "--clock-control", "--cache-control", "--check"}
known = set(re.findall(r"--[a-z0-9-]+", help_text))
bad = []
for option in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", readme))):
    if option not in known and option not in ncu:
        bad.append(f"{option} is not in --help")
for target in sorted(set(re.findall(r"`make (?:-C [\w/]+ )?([a-z][a-z0-9-]*)", readme))):
    if target not in targets:
        bad.append(f"make {target} is not a target")
print("; ".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
  t_verdict "every option and make target README.md names exists (--help, the Makefile)" "$R/names.log"
else
  t_skip "every option and make target README.md names exists" "bin/reduction_versions is not built"
fi
