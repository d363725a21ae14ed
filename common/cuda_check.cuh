// CUDA error checking that stops the program: exit status 3 with the runtime's error string,
// the file and the line. Every CUDA call goes through CUDA_CHECK, every launch is followed by
// CUDA_CHECK_LAUNCH().
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "exit_codes.h"

namespace cw {

[[noreturn]] inline void cuda_fail(cudaError_t err, const char* call, const char* file, int line) {
    std::fflush(stdout);
    std::fprintf(stderr, "CUDA error %d (%s): %s\n  at %s:%d in %s\n", static_cast<int>(err),
                 cudaGetErrorName(err), cudaGetErrorString(err), file, line, call);
    std::exit(kExitCuda);
}

}  // namespace cw

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        const cudaError_t cw_err_ = (call);                                       \
        if (cw_err_ != cudaSuccess) ::cw::cuda_fail(cw_err_, #call, __FILE__, __LINE__); \
    } while (0)

// After a kernel launch: a bad configuration is reported at once; with dbg=1 (CW_DEBUG) the
// launch is also synchronised so that a fault names this line rather than a later call.
#ifdef CW_DEBUG
#define CUDA_CHECK_LAUNCH()                         \
    do {                                            \
        CUDA_CHECK(cudaGetLastError());             \
        CUDA_CHECK(cudaDeviceSynchronize());        \
    } while (0)
#else
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
#endif
