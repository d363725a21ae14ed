// The error path of the shared layer, for common/tests/test_errors.py: cw::run_main around a
// body that fails as a program's would, by the mode given (a call's line is marked [mode], which
// the test reads to know the line the message must name):
//   cuda-error   CUDA_CHECK of a call that returns cudaErrorInvalidValue                 exit 3
//   no-device    ... cudaErrorNoDevice (100), old-driver: cudaErrorInsufficientDriver (35)
//   unwind       cuda-error from inside a scope: its destructor runs before the line   exit 3
//   caught       a CudaError caught below main: its fields, and the run goes on        exit 0
//   library      a library's failure in its own words (as cuBLAS's)                    exit 3
//   unnamed      one printed without the program's name (as Thrust's)                  exit 3
//   internal     a broken invariant (std::logic_error)                                  exit 3
//   usage        a usage error                                                          exit 2
//   fault        (GPU) a kernel's illegal address: a sticky error found by a later call, with
//                device buffers freed while the error unwinds (their cudaFree fails too) exit 3
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common.cuh"

namespace {

cudaError_t returns(cudaError_t err) { return err; }

struct SaysWhenDestroyed {
    ~SaysWhenDestroyed() { std::printf("destructor ran\n"); }
};

__global__ void write_through(int* p) { *p = 1; }

int fail(const std::string& mode) {
    if (mode == "cuda-error") CUDA_CHECK(returns(cudaErrorInvalidValue));  // [cuda-error]
    if (mode == "no-device") CUDA_CHECK(returns(cudaErrorNoDevice));  // [no-device]
    if (mode == "old-driver") CUDA_CHECK(returns(cudaErrorInsufficientDriver));  // [old-driver]
    if (mode == "unwind") {
        SaysWhenDestroyed scope;
        CUDA_CHECK(returns(cudaErrorInvalidValue));  // [unwind]
    }
    if (mode == "caught") {
        try {
            CUDA_CHECK(returns(cudaErrorInvalidValue));  // [caught]
        } catch (const cw::CudaError& e) {
            std::printf("caught %d %s %s:%d %s\n", static_cast<int>(e.code()), e.runtime_message(), e.file().c_str(),
                        e.line(), e.call().c_str());
            return cw::kExitOk;
        }
    }
    if (mode == "library") throw cw::DeviceError("cuBLAS error 1 (CUBLAS_STATUS_NOT_INITIALIZED) at f.cu:1 in g()");
    if (mode == "unnamed") throw cw::DeviceError("CUDA error in thrust::transform_reduce: out of memory", false);
    if (mode == "internal") throw std::logic_error("a block size not built");
    if (mode == "usage") throw cw::UsageError("option --mode: unknown");
    if (mode == "fault") {
        cw::select_device(0);
        cw::DeviceBuffer<int> buffer(1024);
        write_through<<<1, 1>>>(nullptr);
        CUDA_CHECK_LAUNCH();  // [fault-launch]
        CUDA_CHECK(cudaDeviceSynchronize());  // [fault]
    }
    return cw::kExitWrongResult;  // nothing failed: the test fails on this status
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    return cw::run_main("error_exit", [&]() {
        std::printf("before the error\n");
        return fail(mode);
    });
}
