# Tier 1: py/readme_lint.py on fixtures: a long prose line, an inline value marker and an issue
# number are each found (and a long table row, a long code line, a journal's "Issue 04" and
# "issue 67 %" are not); a clean README passes.
rl_dir=$CW_TEST_TMP/readme_lint
mkdir -p "$rl_dir"
long=$(printf 'x%.0s' $(seq 1 101))
printf '%s\n' "# Title" "$long" "| $long |" '```' "$long" '```' "A <!-- v:n -->3<!-- /v --> value." \
  "See issue 5 for that." "IJERT, Volume 03, Issue 04." "warps issue 67 % of cycles" >"$rl_dir/bad.md"
t_run python3 py/readme_lint.py "$rl_dir/bad.md"
[ "$T_STATUS" -eq 1 ] && [ "$(paste -sd';' "$T_OUT")" = "line 2: 101 characters;line 7: inline value marker;line 8: issue number" ]
t_verdict "readme_lint: finds a long prose line, an inline marker and an issue number, nothing else" "$T_OUT"
printf '%s\n' "# Title" "Short prose." "| $long |" >"$rl_dir/good.md"
t_run python3 py/readme_lint.py "$rl_dir/good.md"
[ "$T_STATUS" -eq 0 ]
t_verdict "readme_lint: a clean README passes" "$T_OUT"

# Every README of the repository (the top one, common/, slurm/ and each assignment's).
rl_root=$(cd .. && pwd)
for rl_readme in "$rl_root/README.md" "$rl_root/common/README.md" "$rl_root/slurm/README.md" \
                 $(cd "$rl_root" && bash common/scripts/assignments.sh | tr ' ' '\n' | sed "s#.*#$rl_root/&/README.md#"); do
  t_run python3 py/readme_lint.py "$rl_readme"
  [ "$T_STATUS" -eq 0 ]
  t_verdict "readme_lint: ${rl_readme#"$rl_root"/} reads in a terminal (100 columns, no inline markers, no issue numbers)" "$T_OUT"
done
