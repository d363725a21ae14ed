// CUDA error checking by exceptions: every CUDA call goes through CUDA_CHECK, every launch is
// followed by CUDA_CHECK_LAUNCH(); a failure throws a cw::CudaError, which carries the
// runtime's error, its message, the call, the file and the line. Below main nothing ends the
// program: cw::run_main (common.cuh) alone turns the error into one line on standard error and
// exit status 3, after the destructors on the way up have run. A device that cannot be used at
// all (no GPU, a driver older than the runtime, ...) is named in plain words first.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

#include "format.h"

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

// Every error that run_main reports with exit status 3 and that is not a broken invariant of
// the program (std::logic_error): a CUDA runtime error (CudaError), a CUDA library's failure
// (cuBLAS's status, Thrust's exception) or a kernel's precondition that its launch would
// break, each in its own words. what(): the line run_main prints, after "program: " when
// named() (every message but Thrust's, which has always been printed without the name).
class DeviceError : public std::runtime_error {
  public:
    explicit DeviceError(const std::string& what, bool named = true) : std::runtime_error(what), named_(named) {}
    bool named() const { return named_; }

  private:
    bool named_;
};

class CudaError : public DeviceError {
  public:
    CudaError(cudaError_t code, const char* call, const char* file, int line)
        : DeviceError(message(code, call, file, line)), code_(code), call_(call), file_(file), line_(line) {}
    cudaError_t code() const { return code_; }
    const char* runtime_message() const { return cudaGetErrorString(code_); }
    const std::string& call() const { return call_; }
    const std::string& file() const { return file_; }
    int line() const { return line_; }
    bool no_device() const { return is_no_device_error(code_); }

  private:
    // Said plainly first: the runtime's own words for a machine without a GPU (error 35, "driver
    // version is insufficient", where a CUDA toolkit's driver library is installed without a
    // GPU) read as "upgrade your driver"; they follow, with the error number, on the same line.
    static std::string message(cudaError_t err, const char* call, const char* file, int line) {
        if (is_no_device_error(err))
            return format("no usable CUDA GPU: this machine has no GPU this program can use (a login node has none); "
                          "run it on a GPU node (srun --gres=gpu:1 ..., or a job script in slurm/); the CUDA runtime "
                          "said: %s (CUDA error %d, %s) at %s:%d in %s",
                          cudaGetErrorString(err), static_cast<int>(err), cudaGetErrorName(err), file, line, call);
        return format("CUDA error %d (%s): %s at %s:%d in %s", static_cast<int>(err), cudaGetErrorName(err),
                      cudaGetErrorString(err), file, line, call);
    }

    cudaError_t code_;
    std::string call_, file_;
    int line_;
};

// Throws the CudaError of `err` (for a failure found without a call to check).
[[noreturn]] inline void cuda_fail(cudaError_t err, const char* call, const char* file, int line) {
    throw CudaError(err, call, file, line);
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
