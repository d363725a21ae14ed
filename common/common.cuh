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

// Runs a program body: a UsageError becomes "program: error: ..." (one line) and exit 2, a
// host allocation failure too (the size asked for is the user's); CUDA errors exit 3 where
// they happen (CUDA_CHECK); a broken internal invariant (std::logic_error: a registry without
// its baseline, a block size not instantiated) is "program: internal error: ..." and exit 3,
// as a CUDA error is: nothing the user gave can fix it. A half-written output is removed on
// SIGINT/SIGTERM/SIGHUP/SIGQUIT; SIGPIPE and SIGXFSZ are ignored, so that a closed pipe or a
// file-size limit is a write error like any other (install_partial_file_cleanup).
// Standard output that could not be written is an error too (finish_standard_output).
template <typename Body>
int run_main(const char* program, Body&& body) {
    program_name() = program;
    install_partial_file_cleanup();
    try {
        return finish_standard_output(program, body());
    } catch (const UsageError& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: error: %s\n", program, e.what());
        return kExitUsage;
    } catch (const std::bad_alloc&) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: error: not enough host memory for the requested size\n", program);
        return kExitUsage;
    } catch (const std::logic_error& e) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: internal error: %s\n", program, e.what());
        return kExitCuda;
    }
}

}  // namespace cw
