# Tier 1 of colreduce, beside the shared contract of common/tests/tier1_robustness.sh: each
# side of MxN is an item of the shared size grammar, and the input file's values are checked as
# a run reads them (exit 2 on a GPU), never by a run that cannot happen (exit 3 without a GPU,
# the file unread).
cw_prog=bin/colreduce
if [ -x "$cw_prog" ]; then
  CW_ROBUST_DIR=$CW_TEST_TMP/robust-colreduce-more
  rm -rf "$CW_ROBUST_DIR"; mkdir -p "$CW_ROBUST_DIR"
  expect_output "colreduce --sizes=1..3x8: three shapes" '^assignment,' "$cw_prog" --print-csv-header --sizes=1..3x8
  expect_output "colreduce --sizes=8x1..3: three shapes" '^assignment,' "$cw_prog" --print-csv-header --sizes=8x1..3
  expect_refusal "colreduce --sizes=3..1x8: an empty range" "empty range '3..1x8'" "$cw_prog" --sizes=3..1x8
  printf '\000\000\000\000\000\000\360\077\000\000\000\000\000\000\000\100\000\000\000\000\000\000\370\177' >"$CW_ROBUST_DIR/nan.bin"
  cw_detect_gpu
  if [ "$CW_GPU_OK" = 1 ]; then
    expect_refusal "colreduce --input holding a NaN: exit 2, nothing run" "not finite \(element 2\)" \
      "$cw_prog" --n=3 --input="$CW_ROBUST_DIR/nan.bin"
  else
    expect_exit 3 "colreduce --input holding a NaN, no GPU: exit 3, the contents not read" \
      "$cw_prog" --n=3 --input="$CW_ROBUST_DIR/nan.bin"
  fi
else
  t_skip "colreduce: --sizes grammar and input contents" "colreduce/bin/colreduce is not built (make all first)"
fi
