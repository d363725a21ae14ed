// vecmax's registry: what one run of a version needs (Plan) and the versions themselves
// (registry(), vecmax_versions.cu), read by the shared run loop (common/run_loop.cuh).
#pragma once

#include <string>
#include <vector>

#include "common.cuh"
#include "run_loop.cuh"

namespace vecmax {

// One point of the run (vecmax has one: its n), with every launch choice resolved once the
// device is known, and where the data and the fetched maximum live.
struct Plan {
    long long n = 0;
    std::string text() const { return "n=" + std::to_string(n); }  // in result and progress lines
    bool pinned = false;                     // page-locked host buffers for the result copies
    int report_threads = 0, report_blocks = 0;  // version=report's shape
    int single_pass_blocks = 0;              // version=single_pass's grid
    const float* d_x = nullptr;              // the vector on the device
    float* got = nullptr;                    // fetch() puts the maximum here (host)
};

// The launch shape a version reports in its CSV row; -1: chosen inside the library.
struct Shape {
    long long threads, blocks;
};

struct Version : cw::Version<Plan, Version> {
    using Base = cw::Version<Plan, Version>;
    using Base::Base;
    Shape (*shape)(const Plan&) = nullptr;
    Version& shaped(Shape (*launch_shape)(const Plan&)) { return set(shape, launch_shape); }
};

// The versions, in the order they run and appear in the CSV.
const std::vector<Version>& registry();

}  // namespace vecmax
