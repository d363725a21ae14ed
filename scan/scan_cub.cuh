// version=cub: cub::DeviceScan::InclusiveSum / ExclusiveSum, the library baseline, in its own
// translation unit (scan_cub.cu, built with the toolkit's default C++ standard, which the
// CUB of CUDA 12/13 requires). This header includes no CUB.
#pragma once

#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "scan_kernels.cuh"

namespace scan_gpu {

class CubScan : public Launcher {
  public:
    // Allocates CUB's temporary storage for scans of up to max_n elements.
    explicit CubScan(std::size_t max_n);
    ~CubScan() override;
    // The data are int32 bits; CUB adds them as unsigned int, so the wrap-around is defined
    // (and the bits are those of the two's-complement int32 sum).
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    // CUB chooses its own launches: none described (the CSV's launch columns stay empty).
    std::vector<KernelLaunch> launches(std::size_t, bool) const override { return {}; }

  private:
    void* temp_ = nullptr;
    std::size_t temp_bytes_ = 0;
};

}  // namespace scan_gpu
