# Tier 1 of common/: devinfo's options, and the architecture selection with stub toolkits.
expect_usage_error "devinfo: unknown option" "unknown option" bin/devinfo --bogus
expect_usage_error "devinfo: non-numeric --device" "expects an integer" bin/devinfo --device=abc
expect_usage_error "devinfo: negative --device" "out of range" bin/devinfo --device=-1
expect_output "devinfo: --help lists every option" "--device=N.*--check" sh -c 'bin/devinfo --help | tr "\n" " "'
. tests/arch_test.sh
# Without a usable device (CI), devinfo must say so with the runtime's message and exit 3.
cw_detect_gpu
if [ "$CW_GPU_OK" = 1 ]; then
  t_skip "devinfo without a usable device exits 3" "a usable GPU is present"
else
  t_run bin/devinfo
  if [ "$T_STATUS" -eq 3 ] && grep -Eq '^devinfo: no usable CUDA GPU: .*CUDA error (100|35),' "$T_ERR"; then
    t_pass "devinfo without a usable device exits 3 with the runtime's message"
  else
    t_fail "devinfo without a usable device exits 3 with the runtime's message" "exit $T_STATUS: $(head -n 1 "$T_ERR")"
  fi
fi
. tests/summary_test.sh
