// What the experiments share: their `--name=value` options, their validation on the device
// (every variant's output compared with a reference in device memory, a copy's input or a scan
// the CPU checked, position by position) and the warp's scan their kernels build on.
#pragma once

#include <cstddef>
#include <cstring>

namespace {

// The value of `--name=value` in arg, or nullptr when arg is another option.
inline const char* option_value(const char* arg, const char* name) {
    const std::size_t len = std::strlen(name);
    return std::strncmp(arg, name, len) == 0 && arg[len] == '=' ? arg + len + 1 : nullptr;
}

// Adds the number of positions where a and b differ to *count (grid-stride; any grid).
__global__ void count_differences(const unsigned* __restrict__ a, const unsigned* __restrict__ b, std::size_t n,
                                  unsigned long long* count) {
    unsigned long long local = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        local += a[i] != b[i] ? 1u : 0u;
    if (local != 0) atomicAdd(count, local);
}

// The warp's inclusive scan of one value a lane (Hillis-Steele by shuffles; every lane active).
__device__ __forceinline__ unsigned warp_inclusive(unsigned v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += y;
    }
    return v;
}

}  // namespace
