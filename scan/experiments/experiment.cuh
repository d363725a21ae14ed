// What the experiments share: their `--name=value` options and their validation on the device
// (every variant's output compared with a reference in device memory, a copy's input or a scan
// the CPU checked, position by position).
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

}  // namespace
