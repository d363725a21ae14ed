// reduction_versions' registry: what one run of a version needs (Plan) and the versions
// themselves (registry(), reduction_versions_versions.cu), read by the shared run loop
// (common/run_loop.cuh).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reduction_versions_kernels.cuh"
#include "run_loop.cuh"

namespace rv {

// What fetch() brings back: the sum (int32, wrapped modulo 2^32) and the launch that made it.
struct Fetched {
    std::int32_t sum = 0;
    int threads = -1;   // block size; -1: the library's own launch
    LaunchPlan launch;  // grid of the first launch, launches, memsets
    std::string launch_text() const;  // "block=256 grid=32768 launches=3", or CUB's own
};

// One point of the run: a size (one --sizes item) and one --threads item, with the device's
// SMs once known, the input on the device and where fetch() puts its result.
struct Plan {
    long long n = 0;
    int size_index = 0;      // which --sizes item (the baseline is measured once per item)
    int threads = 0;         // the --threads item; 0: each version's block size from kPolicy
    bool first_threads = true, last_threads = true;  // the first / last --threads item of its size
    long long blocks = 0;    // --blocks: the grid of versions 7 and 8 (0: the resident grid)
    int sm_count = 0;        // the device's SMs (on_device), for the resident grid
    const unsigned* d_in = nullptr;  // the n ints on the device
    Fetched* got = nullptr;          // fetch() writes here (host)
    // In result and progress lines.
    std::string text() const {
        return "n=" + std::to_string(n) + " threads=" + (threads != 0 ? std::to_string(threads) : "auto");
    }
};

struct Version : cw::Version<Plan, Version> {
    using Base = cw::Version<Plan, Version>;
    using Base::Base;
    std::string launch;          // the launch in words (T = threads per block), for --help
    bool takes_blocks = false;   // a grid-stride version: --blocks sets its grid (7 and 8; tag takes_blocks)

    // What it runs (reduction_versions_versions.cu): each sets the launch, the workspace, the
    // runner and Nsight Compute's filter (the kernel's name; none for the library).
    // Passes of `kernel`, items_per_thread elements per thread, until one block is left.
    Version& in_passes(const PassKernel& kernel, int items_per_thread);
    // Version 7's passes: the first grid the grid-stride grid (--blocks, or the resident blocks).
    Version& in_grid_stride_passes(const PassKernel& kernel);
    // Version 8's shape: the whole sum in one launch of `kernel`.
    Version& in_one_launch(const OneLaunchKernel& kernel);
    // cub::DeviceReduce::Sum, the library baseline, at the first --threads item of each size.
    Version& in_cub();
};

// Versions 1..8, cub (the library baseline), and 5-unfixed (the report's version 5 as
// printed: a racy demonstration, validated = false, run only when --only names it), in the
// order they run and appear in the CSV.
const std::vector<Version>& registry();

// One more run of a version for its check: its workspace poisoned, the launch, the fetch.
void checked_run(cw::Runner& runner);

// "Launch of each version": the registry's launch texts, for --help after its version list.
std::string launch_help();

}  // namespace rv
