// vecmax: every kernel version and its host-side launcher.
//   version=report       vecmax_grid_stride_shared_tree   the report's VecMax kernel, bugs fixed
//   version=single_pass  vecmax_single_pass_vec4          float4 loads, shuffles, one launch
// (version=cub, the library baseline, is in vecmax_cub.cu.)
#pragma once

#include <cuda_runtime.h>

namespace vecmax {

// Launch shape of the single-pass kernel: 256 threads (8 warps, full occupancy possible on
// every architecture from sm_35 on) and 4 independent float4 loads per thread per iteration.
constexpr int kSinglePassThreads = 256;
constexpr int kSinglePassUnroll = 4;

// The maximum with the repository's NaN policy (a NaN in either operand gives NaN), the
// same on host and device. sm_80+ has it as one instruction (max.NaN.f32).
__host__ __device__ __forceinline__ float nan_max(float a, float b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return (a > b || a != a) ? a : b;
#endif
}

// The same operator for cub::DeviceReduce::Reduce (vecmax_cub.cu).
struct NanPropagatingMax {
    __host__ __device__ __forceinline__ float operator()(const float& a, const float& b) const {
        return nan_max(a, b);
    }
};

__global__ void vecmax_grid_stride_shared_tree(const float* a, long long n, float* block_max);
__global__ void vecmax_single_pass_vec4(const float* __restrict__ x, long long n, float* __restrict__ block_max,
                                        unsigned int* __restrict__ blocks_done, float* __restrict__ result);

// version=report: `blocks` blocks of `threads` threads (a power of two); block b's maximum
// goes to block_max[b]; the host finishes (max_reference over the `blocks` values).
void launch_report_vecmax(const float* d_x, long long n, float* d_block_max, int threads, int blocks,
                          cudaStream_t stream);

// version=single_pass: grid of `blocks` x kSinglePassThreads. d_block_max holds `blocks`
// floats, *d_blocks_done must be 0 before the first launch (the kernel leaves it at 0), and
// the maximum is written to *d_result. Launches that share d_blocks_done must not overlap.
void launch_single_pass(const float* d_x, long long n, float* d_block_max, unsigned int* d_blocks_done,
                        float* d_result, int blocks, cudaStream_t stream);

// The single-pass grid: resident blocks per SM (occupancy API) x SMs, but no more blocks
// than there are 4 x kSinglePassUnroll-float4 slices of work (at least 1).
int single_pass_grid(long long n, int sm_count);

}  // namespace vecmax
