// version=cub: the library baseline, cub::DeviceReduce::Reduce with the NaN-propagating
// maximum and -INFINITY as the initial value.
//
// Why not cub::DeviceReduce::Max itself: it reduces with cuda::maximum (`a < b ? b : a`,
// cub::Max in CUB 1.x), which keeps or drops a NaN depending on where the NaN sits in the
// reduction order, and it starts from numeric_limits<float>::lowest() = -FLT_MAX, so an
// all -inf input gives -FLT_MAX. Max is a thin wrapper over the same DispatchReduce with a
// different operator; on sm_90 both use the same tuning (CCCL's reduce Policy600: 256
// threads, 16 items per thread, 4-wide vector loads), so the timing is the library's.
#include "vecmax_cub.cuh"

#include <cmath>

#include <cub/device/device_reduce.cuh>

#include "vecmax_nan_max.cuh"

namespace vecmax {

cudaError_t cub_max_temp_bytes(int n, std::size_t* bytes) {
    *bytes = 0;
    return cub::DeviceReduce::Reduce(nullptr, *bytes, static_cast<const float*>(nullptr),
                                     static_cast<float*>(nullptr), n, NanPropagatingMax(), -INFINITY);
}

cudaError_t cub_max(void* d_temp, std::size_t temp_bytes, const float* d_x, float* d_out, int n,
                    cudaStream_t stream) {
    return cub::DeviceReduce::Reduce(d_temp, temp_bytes, d_x, d_out, n, NanPropagatingMax(), -INFINITY, stream);
}

}  // namespace vecmax
