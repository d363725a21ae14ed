# Tier 2 of common/: devinfo on the real device, and the CUDA helpers (gpu_selftest).
gpu_expect_exit 0 "devinfo describes the device and measures copy bandwidth" bin/devinfo
if [ "$CW_GPU_OK" = 1 ]; then
  if grep -Eq 'copy bandwidth: [0-9]+\.[0-9] GB/s' "$T_OUT"; then t_pass "devinfo prints the copy bandwidth"
  else t_fail "devinfo prints the copy bandwidth" "$(cat "$T_OUT")"; fi
else
  t_skip "devinfo prints the copy bandwidth" "$CW_GPU_REASON"
fi
gpu_expect_exit 2 "devinfo --device beyond the devices present is a usage error" bin/devinfo --device=1000
gpu_case "time_gpu and GpuTimer" bin/gpu_selftest timing
gpu_case "L2Flusher and copy bandwidth" bin/gpu_selftest flush
gpu_case "DeviceBuffer and HostBuffer (pageable, pinned, size 0)" bin/gpu_selftest buffers
gpu_expect_exit 3 "CUDA_CHECK stops a failing call with exit 3" bin/gpu_selftest bad-call
gpu_expect_exit 3 "CUDA_CHECK_LAUNCH stops an impossible launch with exit 3" bin/gpu_selftest bad-launch
