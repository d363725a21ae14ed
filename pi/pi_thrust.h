// The library baseline of pi (pi_thrust.cu, its own translation unit, built with the
// toolkit's default C++ standard): Thrust transform_reduce over a counting iterator.
#pragma once

#include <cuda_runtime.h>

namespace pi {

// h * sum_{i<niter} 4/(1 + x_i^2), x_i = ((T)i + 0.5) h, each term and the reduction in T
// (float or double); h * sum on the host, in double. Runs on `stream` and returns when the
// value is on the host (transform_reduce is synchronous). A CUDA error throws a cw::DeviceError
// (run_main: exit status 3).
double pi_thrust_float(long long niter, cudaStream_t stream);
double pi_thrust_double(long long niter, cudaStream_t stream);

}  // namespace pi
