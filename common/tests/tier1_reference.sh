# Tier 1: the committed reference runs and a user's run, in a copy of each assignment (needs
# gnuplot): `make plots` on the committed CSVs changes no file (README, DETAILS.md, figures and
# their SOURCES.sha256 byte-identical, on any machine's fonts: every generated table is what
# tables.py makes of the CSVs, and none lacks data), and a run relabelled as another
# GPU (every reference CSV, results/ and results/h200/, with another device, put where
# staged_run.sh puts a user's run, runs/<gpu>/) gets its own figures and tables.md (every table
# with data, naming that GPU and never a reference GPU) while the reference stays byte-identical.
ref_root=$CW_TEST_TMP/reference
for ref_a in $(cd .. && bash common/scripts/assignments.sh); do
  if ! command -v gnuplot >/dev/null; then
    t_skip "$ref_a: make plots keeps the reference and renders a user's run apart" "gnuplot not installed"
    continue
  fi
  rm -rf "$ref_root" && mkdir -p "$ref_root"
  tar -C .. --exclude=build --exclude=bin --exclude=runs -cf - common "$ref_a" | tar -C "$ref_root" -xf -
  ref_copy=$ref_root/$ref_a
  t_run make --no-print-directory -C "$ref_copy" plots
  diff -r -x runs -x build -x bin "../$ref_a" "$ref_copy" >"$CW_TEST_TMP/ref.diff" 2>&1
  [ "$T_STATUS" -eq 0 ] && [ ! -s "$CW_TEST_TMP/ref.diff" ] && ! cat "../$ref_a"/*.md | grep -q '^(no data'
  t_verdict "$ref_a: make plots on the committed CSVs changes no file (README, figures); every table has data" "$CW_TEST_TMP/ref.diff"

  ref_run=$ref_copy/runs/relabelled-gpu
  mkdir -p "$ref_run"
  for ref_csv in "$ref_copy"/results/*.csv "$ref_copy"/results/*/*.csv; do
    [ -f "$ref_csv" ] || continue
    ref_out=$ref_run/${ref_csv#"$ref_copy"/results/}
    mkdir -p "$(dirname "$ref_out")"
    awk -F, -v OFS=, '/^#/ { print; next } !c { for (i = 1; i <= NF; i++) if ($i == "device") c = i; h = 1 }
                      { if (c && !h) $c = "Relabelled GPU"; h = 0; print }' "$ref_csv" >"$ref_out"
  done
  t_run make --no-print-directory -C "$ref_copy" plots
  diff -r -x runs -x build -x bin "../$ref_a" "$ref_copy" >"$CW_TEST_TMP/ref.diff" 2>&1
  ref_figs=$(make --no-print-directory -s -C "$ref_copy" print-figures | awk '{ print $1 }')
  ref_missing=
  for f in $ref_figs; do [ -s "$ref_run/figures/$f.png" ] || ref_missing="$ref_missing $f"; done
  [ "$T_STATUS" -eq 0 ] && [ ! -s "$CW_TEST_TMP/ref.diff" ] && [ -z "$ref_missing" ] &&
    [ -s "$ref_run/tables.md" ] && ! grep -q '^(no data' "$ref_run/tables.md" &&
    grep -q 'Relabelled' "$ref_run/tables.md" && ! grep -Eq 'H100|H200' "$ref_run/tables.md"
  t_verdict "$ref_a: a run relabelled as another GPU gets its own figures and tables (runs/<gpu>/), the reference stays byte-identical${ref_missing:+ (missing figures:$ref_missing)}" "$CW_TEST_TMP/ref.diff"
done
rm -rf "$ref_root"

# Every committed CSV a program wrote (its core columns first) has the program's current
# columns, and every profile.csv ncu_tidy.py's: the figures and tables are tested on these CSVs,
# so a column renamed in a program must come with a new reference run.
for ref_a in $(cd .. && bash common/scripts/assignments.sh); do
  ref_prog=../$ref_a/bin/$ref_a
  if [ ! -x "$ref_prog" ]; then t_skip "$ref_a: committed CSVs have the program's columns" "$ref_a is not built"; continue; fi
  ref_header=$("$ref_prog" --print-csv-header)
  ref_tidy=$(python3 -c 'import sys; sys.path.insert(0, "py"); import ncu_tidy; print(",".join(ncu_tidy.COLUMNS))')
  ref_bad=
  for f in ../$ref_a/results/*.csv ../$ref_a/results/*/*.csv; do
    [ -f "$f" ] || continue
    first=$(grep -v '^#' "$f" | head -n 1)
    case $first in
      assignment,version,*) [ "$first" = "$ref_header" ] || [ "$first" = "$ref_tidy" ] || ref_bad="$ref_bad ${f#../}" ;;
    esac
  done
  [ -z "$ref_bad" ]
  t_verdict "$ref_a: every committed CSV has the program's (or ncu_tidy.py's) current columns${ref_bad:+; not:$ref_bad}" /dev/null
done

# mdtables.py: a block filled from a CSV, a missing CSV named in one line, a block without a
# declared table and a declared table without a block refused, --out writes every table.
md_dir=$CW_TEST_TMP/mdtables
rm -rf "$md_dir" && mkdir -p "$md_dir/results"
printf 'version,n,kernel_ms\nA,1000,0.5\nB,1000,0.25\nA,2000,1.0\n' >"$md_dir/results/x.csv"
cat >"$md_dir/tables.py" <<PY
import sys
sys.path.insert(0, "$PWD/py")
from mdtables import Col, Table, pivot, run
TABLES = [Table("x", "x.csv", [Col("version"), Col("n", "n", "{:,}"), Col("kernel_ms", "ms", "{:.3f}")], where={"version": "A"}),
          Table("p", lambda d: pivot(__import__("mdtables").load(d, "x.csv"), "n", "version", "kernel_ms"),
                lambda rows: [Col(c) for c in rows[0]]),
          Table("gone", "missing.csv", [Col("n")])]
run(TABLES)
PY
printf '%s\n' "# t" "<!-- BEGIN x -->" "<!-- END x -->" "<!-- BEGIN p -->" "old" "<!-- END p -->" "<!-- BEGIN gone -->" "<!-- END gone -->" >"$md_dir/README.md"
t_run python3 "$md_dir/tables.py"
grep -qx '| A | 1,000 | 0.500 |' "$md_dir/README.md" && grep -qx '| A | 2,000 | 1.000 |' "$md_dir/README.md" &&
  ! grep -q '^| B |' "$md_dir/README.md" && grep -qx '| 1000 | 0.5 | 0.25 |' "$md_dir/README.md" &&
  grep -qx '| 2000 | 1.0 | – |' "$md_dir/README.md" && grep -q '^(no data: missing.csv' "$md_dir/README.md" &&
  ! grep -qx old "$md_dir/README.md"
t_verdict "mdtables: blocks filled (where, formats, a pivot with series from the data, a missing CSV in one line)" "$T_ERR"
printf '%s\n' "<!-- BEGIN stray -->" "<!-- END stray -->" >>"$md_dir/README.md"
t_run python3 "$md_dir/tables.py"
[ "$T_STATUS" -ne 0 ] && grep -q "block 'stray' that no table declares" "$T_ERR"
t_verdict "mdtables: a block without a declared table stops the run" "$T_ERR"
printf '%s\n' "# t" "<!-- BEGIN x -->" "<!-- END x -->" >"$md_dir/README.md"
t_run python3 "$md_dir/tables.py"
[ "$T_STATUS" -ne 0 ] && grep -q "no block in README.md or DETAILS.md for table(s) p, gone" "$T_ERR"
t_verdict "mdtables: a declared table without a block stops the run" "$T_ERR"
t_run python3 "$md_dir/tables.py" "$md_dir/results" --out "$md_dir/run.md"
[ "$T_STATUS" -eq 0 ] && [ "$(grep -c '^## ' "$md_dir/run.md")" -eq 3 ] && grep -qx '| A | 1,000 | 0.500 |' "$md_dir/run.md"
t_verdict "mdtables: --out writes every table of a run into one file" "$T_ERR"
