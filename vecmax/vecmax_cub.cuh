// vecmax: the library baseline (version=cub), in its own translation unit (vecmax_cub.cu,
// built with the toolkit's default C++ standard).
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

namespace vecmax {

// Temporary storage CUB needs for n elements.
cudaError_t cub_max_temp_bytes(int n, std::size_t* bytes);

// *d_out = maximum of d_x[0..n-1] with the repository's NaN policy, on `stream`.
cudaError_t cub_max(void* d_temp, std::size_t temp_bytes, const float* d_x, float* d_out, int n,
                    cudaStream_t stream);

}  // namespace vecmax
