// Every GPU kernel of the integer sum (report 004, after Harris 2007), reached through the
// launches declared here; the versions that make them are the registry's
// (reduction_versions_versions.cu, rv::registry()). The data are int32 held as unsigned int on
// the device: the same bits, but overflow is defined (sum modulo 2^32, see
// reduction_versions_cpu.h).
//
// Adding a version: write its kernel in reduction_versions_kernels.cu, followed by its
// PassKernel (a one-pass kernel) or OneLaunchKernel (one of version 8's shape), declare that
// here, and add one entry holding it to registry() in reduction_versions_versions.cu. The
// tuning is reduction_versions_policy.h's.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

#include "common.cuh"

namespace rv {

// One run of a version: the input, its size, the block size, the grid cap (versions 7 and 8:
// the grid of the grid-stride kernel, from --blocks or the resident grid; 0 for the others,
// whose grid follows from n) and the device workspace (at least the version's workspace
// bytes, 256-byte aligned: cudaMalloc).
struct Launch {
    const unsigned* in = nullptr;
    std::size_t n = 0;
    int threads = 0;
    long long grid = 0;
    void* workspace = nullptr;
};

// What one enqueue did: the grid of the first launch, the kernel launches and the memsets
// (-1: not known, the library's choice).
struct LaunchPlan {
    long long first_grid = -1;
    int launches = -1;
    int memsets = -1;
};

// One pass of a kernel: m elements of `in` -> `grid` block partials in `out`.
using PassLauncher = void (*)(const unsigned* in, unsigned* out, std::size_t m, int threads, unsigned grid,
                              cudaStream_t s);

// A one-pass kernel as the registry holds it: its name (the entry's kernel, Nsight Compute's
// --kernel-name filter of make profile) and its launcher. One per kernel, defined below the
// kernel's code in reduction_versions_kernels.cu.
struct PassKernel {
    const char* name;
    PassLauncher launch;
};
extern const PassKernel kInterleavedDivergent;       // version 1
extern const PassKernel kInterleavedStrided;         // version 2
extern const PassKernel kSequentialAddressing;       // version 3
extern const PassKernel kFirstAddDuringLoad;         // version 4
extern const PassKernel kUnrolledLastWarp;           // version 5
extern const PassKernel kUnrolledLastWarpAsPrinted;  // version 5-unfixed
extern const PassKernel kCompleteUnroll;             // version 6 (instantiated for kBlockSizes)
extern const PassKernel kMultiplePerThread;          // version 7 (instantiated for kBlockSizes)

// Versions 1-7 and 5-unfixed: passes of `launch` (items_per_thread elements per thread, the
// first grid capped by l.grid when > 0) until one block writes the single sum; returns its
// device address (inside the workspace). `plan` may be null.
const unsigned* enqueue_passes(const Launch& l, int items_per_thread, PassLauncher launch, cudaStream_t stream,
                               LaunchPlan* plan);
std::size_t passes_workspace(std::size_t n, int items_per_thread, int threads, long long grid_cap);

// A one-launch kernel (version 8's shape): kernel(in, n, result) sums n ints read as 16-byte
// int4 vectors over a grid-stride loop and writes the single sum to *result in one launch, from
// any grid (one block: directly; several: the block sums meet in a device counter that resets
// itself for the next launch).
// As the registry holds it: its name (as a PassKernel's) and the kernel itself.
using OneLaunchFunction = void (*)(const unsigned* __restrict__, std::size_t, unsigned* __restrict__);
struct OneLaunchKernel {
    const char* name;
    OneLaunchFunction kernel;
};
extern const OneLaunchKernel kVectorizedShuffleAtomic;  // version 8

// Versions 7 and 8 under --blocks=0: the blocks resident at once on `sm_count` SMs (occupancy
// API; call outside timed regions), capped by the blocks the work needs.
long long multiple_per_thread_resident_grid(int sm_count, std::size_t n, int threads);
long long vectorized_resident_grid(const OneLaunchKernel& kernel, int sm_count, std::size_t n, int threads);

// Version 8: one launch of `kernel` (its name in the message that refuses a misaligned input);
// its workspace is the one unsigned of the result.
const unsigned* enqueue_one_launch(const Launch& l, const OneLaunchKernel& kernel, cudaStream_t stream,
                                   LaunchPlan* plan);

// cub::DeviceReduce::Sum: its temporary storage at the start of the workspace, the result
// after it (256-byte aligned); cub_workspace(n) bytes in all.
std::size_t cub_workspace(std::size_t n);
const unsigned* enqueue_cub(const Launch& l, cudaStream_t stream, LaunchPlan* plan);

// A one-launch kernel reads its input as 16-byte int4 vectors: `in` must be 16-byte aligned
// (cudaMalloc gives 256). Its enqueue checks this on the host and refuses a misaligned pointer
// (std::logic_error naming the address) before any launch; this is the check.
bool is_vector_aligned(const void* in);

}  // namespace rv
