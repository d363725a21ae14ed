// The library baseline, cub::DeviceReduce::Sum, in its own translation unit (reduction_cub.cu,
// built with the toolkit's default C++ standard). Same data type as our versions: int32 bits
// as unsigned int, sum modulo 2^32.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

namespace rv {

// Bytes of temporary storage cub::DeviceReduce::Sum needs for n elements.
cudaError_t cub_sum_temp_bytes(std::size_t n, std::size_t* bytes);

// Enqueues out[0] = in[0] + ... + in[n-1] on `stream`.
cudaError_t cub_sum(void* temp, std::size_t temp_bytes, const unsigned* in, unsigned* out, std::size_t n,
                    cudaStream_t stream);

}  // namespace rv
