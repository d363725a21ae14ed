// CUDA error checking that stops the program: exit status 3 with one line naming the
// runtime's error, the file, the line and the call. Every CUDA call goes through CUDA_CHECK,
// every launch is followed by CUDA_CHECK_LAUNCH(). A device that cannot be used at all
// (no GPU, a driver older than the runtime, ...) is named in plain words first.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "exit_codes.h"

namespace cw {

// The program name that starts every message (set by run_main).
inline const char*& program_name() {
    static const char* name = "program";
    return name;
}

// The errors that mean "there is no GPU this program can use", whatever call reports them:
// no device (100), a driver older than the runtime (35: a CUDA 13 program on a machine
// whose driver library is Debian's CUDA 11.8), the stub library instead of a driver (34),
// driver/kernel module mismatch (803), devices busy or prohibited (46), a failed driver
// initialisation (3), forward compatibility refused (804).
inline bool is_no_device_error(cudaError_t err) {
    switch (static_cast<int>(err)) {
        case 3: case 34: case 35: case 46: case 100: case 803: case 804: return true;
        default: return false;
    }
}

[[noreturn]] inline void cuda_fail(cudaError_t err, const char* call, const char* file, int line) {
    std::fflush(stdout);
    // Said plainly first: the runtime's own words for a machine without a GPU (error 35, "driver
    // version is insufficient", where a CUDA toolkit's driver library is installed without a
    // GPU) read as "upgrade your driver"; they follow, with the error number, on the same line.
    if (is_no_device_error(err))
        std::fprintf(stderr,
                     "%s: no usable CUDA GPU: this machine has no GPU this program can use (a login node has "
                     "none); run it on a GPU node (srun --gres=gpu:1 ..., or a job script in slurm/); the CUDA "
                     "runtime said: %s (CUDA error %d, %s) at %s:%d in %s\n",
                     program_name(), cudaGetErrorString(err), static_cast<int>(err), cudaGetErrorName(err), file,
                     line, call);
    else
        std::fprintf(stderr, "%s: CUDA error %d (%s): %s at %s:%d in %s\n", program_name(), static_cast<int>(err),
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
