# Tier 1: common/README.md's "Adding a version" worked example is applied to a copy of
# reduction_versions/ (the kernel in reduction_versions_kernels.cu before the comment of
# version 5's warp helper, the registry entry in reduction_versions_versions.cu before version
# 5's), which must build warning-free and list the new version in --help and --list-versions;
# on a GPU the new version must pass. Keeps the README's example true: two steps, nothing else.
av_dir=$CW_TEST_TMP/adding-a-version

# The tables and figures of the copy, from its committed CSVs with rows for 4w added (version
# 4's rows under the new label, as a run of the new binary would append them): the README
# tables and every figure drawn from those CSVs must show 4w, with no other file changed.
av_tables_and_figures() {
  local copy=$av_dir/reduction_versions name csv f missing=""
  ln -sfn "$CW_COMMON_DIR" "$av_dir/common"
  for csv in "$copy"/results/*.csv; do
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "version") c = i; print; next }
             { print } c && $c == "4" { $c = "4w"; print }' OFS=, "$csv" >"$csv.new" && mv "$csv.new" "$csv"
  done
  if ! (cd "$copy" && python3 tables.py >/dev/null 2>"$av_dir/tables.err"); then
    t_fail "README example: 4w appears in the tables" "tables.py failed: $(head -n 3 "$av_dir/tables.err")"; return
  fi
  if grep -Eq '(^\| *`?4w`? *\|)|(\| *`?4w`? *\|)' "$copy/README.md"; then
    t_pass "README example: 4w appears in the README tables from the CSVs alone"
  else
    t_fail "README example: 4w appears in the README tables" "no table row or cell names 4w"
  fi
  while read -r name csv; do
    grep -q ',4w,' "$copy/$csv" || continue
    f=$av_dir/$name.svg
    if ! (cd "$copy" && gnuplot -c "plots/$name.gp" "$csv" "$f" 2>/dev/null) || ! grep -Eq '>([^<]* )?4w( [^<]*)?<' "$f"; then
      missing="$missing $name"
    fi
  done < <(make -s -C "$copy" print-figures 2>/dev/null)
  if [ -z "$missing" ]; then t_pass "README example: every figure drawn from a CSV with 4w rows shows 4w"
  else t_fail "README example: every figure drawn from a CSV with 4w rows shows 4w" "missing in:$missing"; fi
}
av_src=$PWD  # reduction_versions/ (tests run in their assignment's folder)
if ! command -v "${NVCC:-nvcc}" >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  t_skip "README example: adding version 4w builds and runs" "no nvcc"
else
  rm -rf "$av_dir"; mkdir -p "$av_dir"
  cp -r "$av_src" "$av_dir/reduction_versions"
  rm -rf "$av_dir/reduction_versions/build" "$av_dir/reduction_versions/bin"
  if ! python3 - "$CW_COMMON_DIR/README.md" "$av_dir/reduction_versions" <<'PY'
import os, re, sys
readme, folder = sys.argv[1], sys.argv[2]
text = open(readme).read()
def block(marker):
    m = re.search(r"<!-- example: " + marker + r" -->\s*```[a-z+]*\n(.*?)```", text, re.S)
    if not m:
        sys.exit(f"README has no '{marker}' example block")
    return m.group(1)
anchors = {"kernel": ("reduction_versions_kernels.cu", "// The last six steps of the tree inside one warp"),
           "registry": ("reduction_versions_versions.cu", '            {"5", "reduce_unrolled_last_warp",')}
for marker, (name, anchor) in anchors.items():
    target = os.path.join(folder, name)
    src = open(target).read()
    if src.count(anchor) != 1:
        sys.exit(f"anchor for the {marker} example not found once in {target}")
    src = src.replace(anchor, block(marker) + ("\n" if marker == "kernel" else "") + anchor, 1)
    open(target, "w").write(src)
PY
  then
    t_fail "README example: adding version 4w builds and runs" "could not apply the README's example"
  else
    sed -i "s|\.\./common|$CW_COMMON_DIR|g" "$av_dir/reduction_versions/Makefile"
    t_run make -C "$av_dir/reduction_versions" -j2 all WERROR=1
    if [ "$T_STATUS" -ne 0 ]; then
      t_fail "README example: adding version 4w builds" "make exited $T_STATUS"; t_show_failure
    elif ! "$av_dir/reduction_versions/bin/reduction_versions" --help | grep -Eq '^\s+\* 4w\s+version 4, last warp by shuffles'; then
      t_fail "README example: adding version 4w builds" "--help does not list 4w"
    elif ! "$av_dir/reduction_versions/bin/reduction_versions" --list-versions | grep -qx '4w validated kernel default gpu'; then
      t_fail "README example: adding version 4w builds" "--list-versions does not show '4w validated kernel default gpu'"
    else
      t_pass "README example: adding version 4w builds warning-free, --help and --list-versions list it"
      gpu_case "README example: version 4w passes at awkward sizes" \
        "$av_dir/reduction_versions/bin/reduction_versions" --only=4w,cub --sizes=1,33,1025,100003
      av_tables_and_figures

    fi
  fi
fi
