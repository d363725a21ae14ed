// vecmax: every kernel version and its host-side launcher.
//   version=report       vecmax_grid_stride_shared_tree   the report's VecMax kernel, bugs fixed
//   version=single_pass  vecmax_single_pass_vec4          float4 loads, shuffles, one launch
// (version=cub, the library baseline, is in vecmax_cub.cu.)
#pragma once

#include <cuda_runtime.h>

namespace vecmax {

// Launch shape of the single-pass kernel: 1024 threads (32 warps; 2 blocks per SM where an
// SM runs 2048 threads) and 4 independent float4 loads per thread per iteration.
constexpr int kSinglePassThreads = 1024;
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
__global__ void vecmax_single_pass_vec4(const float* __restrict__ x, long long n, unsigned int* __restrict__ key_slots,
                                        unsigned int slot);

// version=report: `blocks` blocks of `threads` threads (a power of two); block b's maximum
// goes to block_max[b]; the host finishes (max_reference over the `blocks` values).
void launch_report_vecmax(const float* d_x, long long n, float* d_block_max, int threads, int blocks,
                          cudaStream_t stream);

// version=single_pass: grid of `blocks` x kSinglePassThreads, in one launch. The maximum
// is kept as an order key (vecmax_order_key.h) in one of two device slots that the object
// owns; result_key() is the device address of the key of the last launch, valid once that
// launch has completed and until the next launch (which clears it). Launches of one object
// must be on one stream.
class SinglePassMax {
  public:
    SinglePassMax();
    ~SinglePassMax();
    SinglePassMax(const SinglePassMax&) = delete;
    SinglePassMax& operator=(const SinglePassMax&) = delete;
    void launch(const float* d_x, long long n, int blocks, cudaStream_t stream);
    const unsigned int* result_key() const { return key_slots_ + slot_; }

  private:
    unsigned int* key_slots_ = nullptr;
    unsigned int slot_ = 1u;  // the first launch uses slot 0
};

// The single-pass grid: resident blocks per SM (occupancy API) x SMs, but no more blocks
// than there are 4 x kSinglePassUnroll-float4 slices of work (at least 1).
int single_pass_grid(long long n, int sm_count);

}  // namespace vecmax
