// The version registry of scan: every version, once, with everything the driver needs to
// plan it, run it, describe it and model it. Dispatch, --only, the version list of --help,
// the CSV's version/validated/is_baseline columns and the tests all come from this table
// (scan_versions.cu); adding a version is its kernel (scan_kernels.cu) plus one entry.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "registry.h"
#include "scan_kernels.cuh"
#include "scan_policy.h"

namespace scan_versions {

// What the entries' functions need to know of a run.
struct Params {
    int threads = 1024;                        // block size of the report's versions (--threads)
    int per_thread = 8;                        // elements per thread of the map scan (--per-thread)
    scan_policy::LookbackPolicy lookback;      // chosen for the device once it is known
};

struct Version : cw::VersionInfo {
    bool has_exclusive = true;  // runs the exclusive scan too (the racy demonstrations do not)
    // Why this version cannot scan n elements ("" when it can; default: any n): checked
    // before any GPU work.
    std::function<std::string(long long n, const Params&)> cannot_run = [](long long, const Params&) {
        return std::string();
    };
    // Bytes one scan of n moves through DRAM (the model of scan_plan.h; CSV model_bytes).
    std::function<double(std::size_t n, const Params&)> model_bytes;
    // Additions of data values one inclusive scan of n performs (scan_plan.h's work model;
    // CSV additions); NaN where it is not modelled (CUB's internals).
    std::function<double(std::size_t n, const Params&)> additions;
    // Device workspace, in bytes, for scans of up to max_n (beyond the input and output;
    // default: none).
    std::function<double(std::size_t max_n, const Params&)> workspace_bytes = [](std::size_t, const Params&) {
        return 0.0;
    };
    // Elements one thread scans serially (CSV per_thread); 0 (the default) where that means nothing.
    std::function<int(const Params&)> items_per_thread = [](const Params&) { return 0; };
    // The launcher: allocates the workspace for scans of up to max_n and returns the object
    // whose run() launches the version and whose launches() describes those launches.
    std::function<std::unique_ptr<scan_gpu::Runner>(std::size_t max_n, const Params&)> make;
};

// The registry, in the order the driver runs the versions: the baseline (cub) first, so
// that every later row of the same size and scan carries its time.
const std::vector<Version>& registry();

}  // namespace scan_versions
