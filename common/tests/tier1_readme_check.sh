# Tier 1: py/readme_check.py on fixtures (a long prose line, an issue number, a generated block
# with sentences besides its table, a number in prose that no table holds are each found; a
# number in a table, one whose paragraph names its CSV, a quotation and code are not); then
# every README of the repository: each assignment's README.md (at most 400 lines) and
# DETAILS.md with their numbers checked, the top, common/ and slurm/ READMEs for the rest.
rl_dir=$CW_TEST_TMP/readme_check
mkdir -p "$rl_dir"
long=$(printf 'x%.0s' $(seq 1 101))
printf '%s\n' "# Title" "$long" "| $long |" '```' "$long" '```' "See issue 5 for that." \
  "<!-- BEGIN t -->" "| a |" "| --- |" "| 1.25 |" "" "One." "Two." "Three." "<!-- END t -->" "" \
  "The kernel takes 3.75 ms." "" "It takes 1.25 ms; \"took 9.5 s\" said the report; \`--n=1000\`." "" \
  "Here 7.5 ms (results/x.csv)." >"$rl_dir/bad.md"
t_run python3 py/readme_check.py "$rl_dir/bad.md"
[ "$T_STATUS" -eq 1 ] && [ "$(paste -sd';' "$T_OUT")" = "$rl_dir/bad.md: line 2: 101 characters;$rl_dir/bad.md: line 7: issue number;$rl_dir/bad.md: block t: 3 lines besides its table (a caption has at most 2);$rl_dir/bad.md: line 18: 3.75 in prose is in no table of this document, and the paragraph names no CSV;4 problem(s)" ]
t_verdict "readme_check: finds a long line, an issue number, a block with sentences, an unbacked number, nothing else" "$T_OUT"
printf '%s\n' "# Title" "Short prose, 12 words." "| $long |" >"$rl_dir/good.md"
t_run python3 py/readme_check.py --max-lines 3 "$rl_dir/good.md"
[ "$T_STATUS" -eq 0 ]
t_verdict "readme_check: a clean README passes" "$T_OUT"
t_run python3 py/readme_check.py --max-lines 2 "$rl_dir/good.md"
[ "$T_STATUS" -eq 1 ]
t_verdict "readme_check: a README over its line limit fails" "$T_OUT"

rl_root=$(cd .. && pwd)
for rl_readme in README.md common/README.md slurm/README.md; do
  t_run python3 py/readme_check.py --no-numbers "$rl_root/$rl_readme"
  [ "$T_STATUS" -eq 0 ]
  t_verdict "readme_check: $rl_readme reads in a terminal (100 columns, no issue numbers, tables-only blocks)" "$T_OUT"
done
for rl_a in $(cd "$rl_root" && bash common/scripts/assignments.sh); do
  t_run python3 py/readme_check.py --max-lines 400 "$rl_root/$rl_a/README.md"
  rl_status=$T_STATUS
  cp "$T_OUT" "$rl_dir/$rl_a.out"
  if [ -f "$rl_root/$rl_a/DETAILS.md" ]; then
    t_run python3 py/readme_check.py "$rl_root/$rl_a/DETAILS.md"
    cat "$T_OUT" >>"$rl_dir/$rl_a.out"
  fi
  [ "$rl_status" -eq 0 ] && [ "$T_STATUS" -eq 0 ]
  t_verdict "readme_check: $rl_a's report (README.md <= 400 lines, DETAILS.md): every number in prose is in a table or names its CSV" "$rl_dir/$rl_a.out"
done
