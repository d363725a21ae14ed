// version=thrust: the library baseline (see pi_thrust.h).
#include "pi_thrust.h"

#include <new>
#include <string>

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system_error.h>
#include <thrust/transform_reduce.h>

#include "cuda_check.cuh"

namespace pi {
namespace {

// Thrust's failures have always been reported without the program's name first.
constexpr bool kUnnamed = false;

// One term, written as a user of Thrust would: the index converted to T, an IEEE division.
template <typename T>
struct MidpointTerm {
    T h;
    __host__ __device__ T operator()(long long i) const {
        const T x = (static_cast<T>(i) + static_cast<T>(0.5)) * h;
        return static_cast<T>(4) / (static_cast<T>(1) + x * x);
    }
};

template <typename T>
double pi_thrust(long long niter, cudaStream_t stream) {
    const T h = static_cast<T>(1.0 / static_cast<double>(niter));
    try {
        const thrust::counting_iterator<long long> first(0);
        const T sum = thrust::transform_reduce(thrust::cuda::par.on(stream), first, first + niter,
                                               MidpointTerm<T>{h}, static_cast<T>(0), thrust::plus<T>());
        return static_cast<double>(h) * static_cast<double>(sum);
    } catch (const thrust::system_error& e) {  // its CUDA error, in Thrust's words (run_main: exit 3)
        throw cw::DeviceError(std::string("CUDA error in thrust::transform_reduce: ") + e.what(), kUnnamed);
    } catch (const std::bad_alloc& e) {  // Thrust's device allocation failure (not a host one: exit 3)
        throw cw::DeviceError(
            std::string("CUDA error in thrust::transform_reduce: out of device memory (") + e.what() + ")", kUnnamed);
    }
}

}  // namespace

double pi_thrust_float(long long niter, cudaStream_t stream) { return pi_thrust<float>(niter, stream); }
double pi_thrust_double(long long niter, cudaStream_t stream) { return pi_thrust<double>(niter, stream); }

}  // namespace pi
