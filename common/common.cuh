// The whole shared layer for .cu drivers: host helpers (common.h) plus CUDA error checking,
// GPU timing, device information, the run skeleton (session.cuh), and run_main, which turns
// errors into exit statuses.
#pragma once

#include <cstdio>
#include <new>
#include <stdexcept>

#include "buffers.cuh"
#include "common.h"
#include "cuda_check.cuh"
#include "device_info.cuh"
#include "gpu_timing.cuh"
#include "session.cuh"

namespace cw {

namespace detail {

// One line on standard error after what was printed so far, and the exit status it gives.
inline int report_error(int status, const char* program, const char* kind, const char* what) {
    std::fflush(stdout);
    if (program != nullptr) std::fprintf(stderr, "%s: %s%s\n", program, kind, what);
    else std::fprintf(stderr, "%s%s\n", kind, what);
    return status;
}

}  // namespace detail

// Runs a program body; the one place where errors become exit statuses (below main, errors are
// exceptions, and every destructor on the way up runs):
//   UsageError                 "program: error: ..." (one line), exit 2; a host allocation failure
//                              too (std::bad_alloc: the size asked for is the user's);
//   DeviceError (CudaError)    its line (cuda_check.cuh), exit 3: a CUDA error, a CUDA library's
//                              failure, a kernel's precondition a launch would break;
//   std::logic_error           a broken internal invariant (a block size not instantiated, a
//                              policy not built): "program: internal error: ...", exit 3, as a
//                              CUDA error is: nothing the user gave can fix it.
// A half-written output is removed on SIGINT/SIGTERM/SIGHUP/SIGQUIT; SIGPIPE and SIGXFSZ are
// ignored, so that a closed pipe or a file-size limit is a write error like any other
// (install_partial_file_cleanup). Standard output that could not be written is an error too
// (finish_standard_output).
template <typename Body>
int run_main(const char* program, Body&& body) {
    program_name() = program;
    install_partial_file_cleanup();
    try {
        return finish_standard_output(program, body());
    } catch (const UsageError& e) {
        return detail::report_error(kExitUsage, program, "error: ", e.what());
    } catch (const std::bad_alloc&) {
        return detail::report_error(kExitUsage, program, "error: ", "not enough host memory for the requested size");
    } catch (const DeviceError& e) {
        return detail::report_error(kExitCuda, e.named() ? program : nullptr, "", e.what());
    } catch (const std::logic_error& e) {
        return detail::report_error(kExitCuda, program, "internal error: ", e.what());
    }
}

}  // namespace cw
