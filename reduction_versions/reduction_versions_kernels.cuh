// Every GPU version of the integer sum (report 004, after Harris 2007) and the one registry
// that lists them: the driver, --only, --help, the CSV rows and the tests all come from
// rv::registry(). The data are int32 held as unsigned int on the device: the same bits, but
// overflow is defined (sum modulo 2^32, see reduction_versions_cpu.h).
//
// Adding a version: write its kernel in reduction_versions_kernels.cu and add one entry to
// the registry there.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "common.cuh"

namespace rv {

// The tuning of the versions, one instance per architecture (Policy::for_device). Block sizes
// apply under --threads=0 (automatic), grids under --blocks=0 (automatic); results/threads.csv
// measures the block sizes against each other.
struct Policy {
    int threads_tree;         // versions 1-6 and 5-unfixed: block size
    int threads_grid_stride;  // version 7: block size
    int threads_vectorized;   // version 8: block size
    // Versions 7 and 8 under --blocks=0: the grid is grid_waves x the blocks resident at once
    // (occupancy x SMs, cw::occupancy_grid), capped by the blocks the work needs.
    int grid_waves;
    // Elements per thread per grid step. These are fixed by the kernels' code (they are not
    // free tuning knobs); they are stated here so that the host's grid arithmetic and the
    // kernels agree in one place.
    static constexpr int kItemsPerThreadTree = 1;      // versions 1-3: one load per thread
    static constexpr int kItemsPerThreadFirstAdd = 2;  // versions 4-7 and 5-unfixed: two loads per thread
    static constexpr int kIntsPerVector = 4;           // version 8: one 16-byte int4 load = 4 ints
    static constexpr int kVectorsInFlight = 4;         // version 8: independent int4 loads per thread per iteration

    // The policy of the architecture of `dev`.
    static Policy for_device(const cw::DeviceInfo& dev);
};

// The block sizes the templated versions (6, 7) are instantiated for; --threads accepts
// exactly these (or 0, automatic). Any other size reaching their dispatch is an internal
// error (std::logic_error), never a silent launch of another instantiation.
constexpr int kBlockSizes[] = {64, 128, 256, 512, 1024};

// One run of a version: the input, its size, the block size, the grid (versions 7 and 8:
// the grid of the grid-stride kernel, from --blocks or auto_grid; 0 for the others, whose
// grid follows from n) and the device workspace (at least workspace_bytes(n, threads, grid)
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

// A block-size member of Policy (&Policy::threads_tree, ...).
using PolicyThreads = int Policy::*;

// One registry entry.
struct Version : cw::VersionInfo {
    std::string launch;  // the launch configuration in words (T = threads per block), for --help
    // Block size under --threads=0; nullptr for the library baseline (its own launch).
    PolicyThreads threads = nullptr;
    bool grid_stride = false;  // takes --blocks (versions 7 and 8)
    // Device bytes of scratch one run needs (block partials, the result, CUB's storage).
    std::function<std::size_t(std::size_t n, int threads, long long grid)> workspace_bytes;
    // Versions 7 and 8: the grid under --blocks=0 (occupancy API; call outside timed regions).
    std::function<long long(const cw::DeviceInfo& dev, const Policy& policy, std::size_t n, int threads)> auto_grid;
    // Enqueues the whole reduction of in[0..n) on `stream` and returns the device address of
    // the single sum (inside the workspace). `plan` may be null.
    std::function<const unsigned*(const Launch& launch, cudaStream_t stream, LaunchPlan* plan)> enqueue;
};

// Versions 1..8, cub (the library baseline), and 5-unfixed (the report's version 5 as printed:
// a racy demonstration, validated = false, run only when --only names it).
const std::vector<Version>& registry();

// The version list and the launch list of --help.
std::string versions_epilog();

// Version 8 reads its input as 16-byte int4 vectors: `in` must be 16-byte aligned (cudaMalloc
// gives 256). Its enqueue checks this on the host and refuses a misaligned pointer
// (std::logic_error naming the address) before any launch; this is the check.
bool is_vector_aligned(const void* in);

}  // namespace rv
