// The maximum with the repository's NaN policy, for the kernels (vecmax_kernels.cu) and the CUB
// baseline (vecmax_cub.cu): a header of its own, so that the baseline, the slowest unit to
// compile, does not depend on the kernels' header.
#pragma once

#include <cuda_runtime.h>

namespace vecmax {

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

}  // namespace vecmax
