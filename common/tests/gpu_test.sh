# Tier 2 of common/: devinfo on the real device; the copy bandwidth it prints is a number.
gpu_expect_exit 0 "devinfo describes the device and measures copy bandwidth" bin/devinfo
if [ "$CW_GPU_OK" = 1 ]; then
  if grep -Eq 'copy bandwidth: [0-9]+\.[0-9] GB/s' "$T_OUT"; then t_pass "devinfo prints the copy bandwidth"
  else t_fail "devinfo prints the copy bandwidth" "$(cat "$T_OUT")"; fi
fi
gpu_expect_exit 2 "devinfo --device beyond the devices present is a usage error" bin/devinfo --device=1000
