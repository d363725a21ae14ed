# Tier 1: the committed reference runs and a user's run, in a copy of each assignment (needs
# gnuplot): `make plots` on the committed CSVs changes no file (README, DETAILS.md, figures and
# their SOURCES.sha256 byte-identical, on any machine's fonts), and a run relabelled as another
# GPU (the results/ CSVs with another device, put where staged_run.sh puts a user's run,
# runs/<gpu>/) gets its own figures and tables.md while the reference stays byte-identical.
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
  [ "$T_STATUS" -eq 0 ] && [ ! -s "$CW_TEST_TMP/ref.diff" ]
  t_verdict "$ref_a: make plots on the committed CSVs changes no file (README, figures)" "$CW_TEST_TMP/ref.diff"

  ref_run=$ref_copy/runs/relabelled-gpu
  mkdir -p "$ref_run"
  for ref_csv in "$ref_copy"/results/*.csv; do
    awk -F, -v OFS=, '/^#/ { print; next } !c { for (i = 1; i <= NF; i++) if ($i == "device") c = i; h = 1 }
                      { if (c && !h) $c = "Relabelled GPU"; h = 0; print }' "$ref_csv" >"$ref_run/$(basename "$ref_csv")"
  done
  t_run make --no-print-directory -C "$ref_copy" plots
  diff -r -x runs -x build -x bin "../$ref_a" "$ref_copy" >"$CW_TEST_TMP/ref.diff" 2>&1
  ref_figs=$(make --no-print-directory -s -C "$ref_copy" print-figures | awk '{ print $1 }')
  ref_missing=
  for f in $ref_figs; do [ -s "$ref_run/figures/$f.png" ] || ref_missing="$ref_missing $f"; done
  [ "$T_STATUS" -eq 0 ] && [ ! -s "$CW_TEST_TMP/ref.diff" ] && [ -z "$ref_missing" ] &&
    [ -s "$ref_run/tables.md" ] && ! grep -q '(no data' "$ref_run/tables.md" <<<"$(grep -v h200 "$ref_run/tables.md")"
  t_verdict "$ref_a: a run relabelled as another GPU gets its own figures and tables (runs/<gpu>/), the reference stays byte-identical${ref_missing:+ (missing figures:$ref_missing)}" "$CW_TEST_TMP/ref.diff"
done
rm -rf "$ref_root"
