// The yardstick of a kernel that reads n words and writes n: a copy of the same bytes on the
// device, the faster of two ways timed in the same run. cudaMemcpy (device to device) is not
// always the fast one: at some sizes its own kernel takes markedly longer than at a neighbouring
// size (issue #42: 1,000,000 ints against 1,048,576 on the H100), so the limit a kernel is
// judged by is the faster of cudaMemcpy and a plain copy kernel, and the row says which.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include <cuda_runtime.h>

#include "cuda_check.cuh"
#include "gpu_timing.cuh"

namespace cw {

namespace detail {
constexpr int kCopyThreads = 256;

// 16-byte loads and stores, four in flight per thread (the loads first), grid-stride (templates,
// so that every translation unit may include them).
template <int Unused = 0>
__global__ void __launch_bounds__(kCopyThreads) copy_vec4_kernel(const uint4* __restrict__ in, uint4* __restrict__ out,
                                                                 std::size_t n4) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kCopyThreads;
    std::size_t i = blockIdx.x * static_cast<std::size_t>(kCopyThreads) + threadIdx.x;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        const uint4 a = in[i], b = in[i + stride], c = in[i + 2 * stride], d = in[i + 3 * stride];
        out[i] = a;
        out[i + stride] = b;
        out[i + 2 * stride] = c;
        out[i + 3 * stride] = d;
    }
    for (; i < n4; i += stride) out[i] = in[i];
}
// The last n % 4 words (fewer than 4).
template <int Unused = 0>
__global__ void copy_tail_kernel(const unsigned* in, unsigned* out, std::size_t from, std::size_t n) {
    const std::size_t i = from + threadIdx.x;
    if (i < n) out[i] = in[i];
}
}  // namespace detail

// The copy kernel: its grid is what the occupancy API says fills the device once (or fewer
// blocks where n is small). Buffers 16-byte aligned (cudaMalloc's are).
class CopyKernel {
  public:
    CopyKernel() {
        int per_sm = 0, device = 0, sms = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, detail::copy_vec4_kernel<>,
                                                                 detail::kCopyThreads, 0));
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        grid_ = static_cast<unsigned>(std::max(1, per_sm * sms));
    }
    void run(const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) const {
        const std::size_t n4 = n / 4;
        const std::size_t blocks = (n4 + detail::kCopyThreads - 1) / detail::kCopyThreads;
        const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(blocks, grid_));
        if (grid > 0)
            detail::copy_vec4_kernel<><<<grid, detail::kCopyThreads, 0, s>>>(reinterpret_cast<const uint4*>(in),
                                                                            reinterpret_cast<uint4*>(out), n4);
        if (n4 * 4 < n) detail::copy_tail_kernel<><<<1, 32, 0, s>>>(in, out, n4 * 4, n);
        CUDA_CHECK_LAUNCH();
    }

  private:
    unsigned grid_ = 1;
};

// The same-size copy of n words from `in` to `out`, both ways timed like a version (warm-up,
// then the median of `repeat` runs, each after an L2 flush when `flusher` is given). Not yet
// timed: NaN, and by() is empty.
struct CopyYardstick {
    double memcpy_ms = NAN, kernel_ms = NAN;
    double ms() const { return std::isnan(memcpy_ms) || std::isnan(kernel_ms) ? NAN : std::min(memcpy_ms, kernel_ms); }
    // "cudaMemcpy" or "copy_kernel": the faster (cudaMemcpy on a tie).
    const char* by() const { return std::isnan(ms()) ? "" : memcpy_ms <= kernel_ms ? "cudaMemcpy" : "copy_kernel"; }
};
// Afterwards `out` holds one more untimed run of the copy kernel over a poisoned `out` (every
// byte 0xff), so that the caller's check of the kernel's output can fail.
inline CopyYardstick time_same_size_copy(const unsigned* in, unsigned* out, std::size_t n, int warmup, int repeat,
                                         L2Flusher* flusher) {
    const CopyKernel copy;
    CopyYardstick y;
    y.memcpy_ms = time_gpu(warmup, repeat, [&](cudaStream_t s) {
        CUDA_CHECK(cudaMemcpyAsync(out, in, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, s));
    }, flusher, 0).median_ms();
    y.kernel_ms = time_gpu(warmup, repeat, [&](cudaStream_t s) { copy.run(in, out, n, s); }, flusher, 0).median_ms();
    CUDA_CHECK(cudaMemset(out, 0xff, n * sizeof(unsigned)));
    copy.run(in, out, n, 0);
    return y;
}

}  // namespace cw
