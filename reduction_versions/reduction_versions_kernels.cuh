// Every GPU kernel of the integer sum (report 004, after Harris 2007), reached through the
// launches declared here; the versions that make them are the registry's
// (reduction_versions_versions.cu, rv::registry()). The data are int32 held as unsigned int on
// the device: the same bits, but overflow is defined (sum modulo 2^32, see
// reduction_versions_cpu.h).
//
// Adding a version: write its kernel in reduction_versions_kernels.cu (a one-pass kernel is
// followed by REDUCE_PASS_KERNEL(name), a one-launch kernel of version 8's shape by
// REDUCE_ONE_LAUNCH_KERNEL(name)) and add one entry to registry() in
// reduction_versions_versions.cu.
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime.h>

#include "common.cuh"

namespace rv {

// The tuning of the versions: block sizes under --threads=0 (automatic), grids under
// --blocks=0 (automatic). It does not depend on the device: one constant (kPolicy);
// results/threads.csv measures the block sizes against each other.
struct Policy {
    int threads_tree;         // versions 1-6 and 5-unfixed: block size
    int threads_grid_stride;  // version 7: block size
    int threads_vectorized;   // version 8: block size
    // Versions 7 and 8 under --blocks=0: the grid is grid_waves x the blocks resident at once
    // (occupancy x SMs, cw::occupancy_grid), capped by the blocks the work needs.
    int grid_waves;
    // Version 8 on large inputs: more blocks than are resident at once, so that blocks that
    // finish early are replaced and DRAM sees more loads in flight towards the end, with
    // vectorized_ints_per_thread ints per thread at least (below it, one wave of resident
    // blocks: extra blocks cost more in their atomics than they bring), and at most
    // vectorized_max_waves waves (results/v8_grid.csv measures the grid against CUB on both GPUs).
    int vectorized_ints_per_thread;
    int vectorized_max_waves;
    // Elements per thread per grid step. These are fixed by the kernels' code (they are not
    // free tuning knobs); they are stated here so that the host's grid arithmetic and the
    // kernels agree in one place.
    static constexpr int kItemsPerThreadTree = 1;      // versions 1-3: one load per thread
    static constexpr int kItemsPerThreadFirstAdd = 2;  // versions 4-7 and 5-unfixed: two loads per thread
    static constexpr int kIntsPerVector = 4;           // version 8: one 16-byte int4 load = 4 ints
    static constexpr int kVectorsInFlight = 4;         // version 8: independent int4 loads per thread per iteration
};

constexpr Policy make_policy() {
    Policy p{};
    p.threads_tree = 256;
    p.threads_grid_stride = 256;
    p.threads_vectorized = 256;
    p.grid_waves = 1;
    p.vectorized_ints_per_thread = 128;
    p.vectorized_max_waves = 8;
    return p;
}
constexpr Policy kPolicy = make_policy();

// The block sizes the templated versions (6, 7) are instantiated for; --threads accepts
// exactly these (or 0, automatic). Any other size reaching their dispatch is an internal
// error (std::logic_error), never a silent launch of another instantiation.
constexpr int kBlockSizes[] = {64, 128, 256, 512, 1024};

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

// The launcher of the one-pass kernel named `kernel` (REDUCE_PASS_KERNEL in
// reduction_versions_kernels.cu; std::logic_error for a name that is not there).
PassLauncher pass_kernel(const std::string& kernel);

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
using OneLaunchKernel = void (*)(const unsigned* __restrict__, std::size_t, unsigned* __restrict__);

// The one-launch kernel named `kernel` (REDUCE_ONE_LAUNCH_KERNEL in reduction_versions_kernels.cu;
// std::logic_error for a name that is not there).
OneLaunchKernel one_launch_kernel(const std::string& kernel);

// Versions 7 and 8 under --blocks=0: the blocks resident at once on `sm_count` SMs (occupancy
// API; call outside timed regions), capped by the blocks the work needs.
long long multiple_per_thread_resident_grid(int sm_count, std::size_t n, int threads);
long long vectorized_resident_grid(OneLaunchKernel kernel, int sm_count, std::size_t n, int threads);

// Version 8: one launch of `kernel` (named `name` in the message that refuses a misaligned
// input); its workspace is the one unsigned of the result.
const unsigned* enqueue_one_launch(const Launch& l, OneLaunchKernel kernel, const std::string& name,
                                   cudaStream_t stream, LaunchPlan* plan);

// cub::DeviceReduce::Sum: its temporary storage at the start of the workspace, the result
// after it (256-byte aligned); cub_workspace(n) bytes in all.
std::size_t cub_workspace(std::size_t n);
const unsigned* enqueue_cub(const Launch& l, cudaStream_t stream, LaunchPlan* plan);

// A one-launch kernel reads its input as 16-byte int4 vectors: `in` must be 16-byte aligned
// (cudaMalloc gives 256). Its enqueue checks this on the host and refuses a misaligned pointer
// (std::logic_error naming the address) before any launch; this is the check.
bool is_vector_aligned(const void* in);

}  // namespace rv
