// cub::DeviceReduce::Sum, the library baseline (see reduction_cub.cuh).
#include "reduction_cub.cuh"

#include <cub/cub.cuh>

namespace rv {

cudaError_t cub_sum_temp_bytes(std::size_t n, std::size_t* bytes) {
    *bytes = 0;
    return cub::DeviceReduce::Sum(nullptr, *bytes, static_cast<const unsigned*>(nullptr),
                                  static_cast<unsigned*>(nullptr), static_cast<int>(n));
}

cudaError_t cub_sum(void* temp, std::size_t temp_bytes, const unsigned* in, unsigned* out, std::size_t n,
                    cudaStream_t stream) {
    return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, static_cast<int>(n), stream);
}

}  // namespace rv
