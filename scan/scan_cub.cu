// version=cub: the library baseline (see scan_cub.cuh).
#include "scan_cub.cuh"

#include <cub/device/device_scan.cuh>

#include "cuda_check.cuh"

namespace scan_gpu {

namespace {
std::size_t temp_bytes_for(std::size_t n, bool exclusive) {
    std::size_t bytes = 0;
    const unsigned* in = nullptr;
    unsigned* out = nullptr;
    if (exclusive)
        CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, static_cast<int>(n)));
    else
        CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, static_cast<int>(n)));
    return bytes;
}
}  // namespace

CubScan::CubScan(std::size_t max_n) {
    const std::size_t a = temp_bytes_for(max_n, false), b = temp_bytes_for(max_n, true);
    temp_bytes_ = a > b ? a : b;
    CUDA_CHECK(cudaMalloc(&temp_, temp_bytes_ > 0 ? temp_bytes_ : 1));
}

CubScan::~CubScan() { cudaFree(temp_); }

void CubScan::run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) {
    // No size query here (it would sit inside the timed interval): CUB's storage for n
    // elements never exceeds its storage for max_n >= n.
    std::size_t bytes = temp_bytes_;
    if (exclusive)
        CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp_, bytes, in, out, static_cast<int>(n), s));
    else
        CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp_, bytes, in, out, static_cast<int>(n), s));
    CUDA_CHECK_LAUNCH();
}

}  // namespace scan_gpu
