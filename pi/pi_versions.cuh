// pi's registry: what one run of a version needs (Plan), what its CSV row says of it
// (Launch), and the versions themselves (registry(), pi_versions.cu), read by the shared run
// loop (common/run_loop.cuh).
#pragma once

#include <string>
#include <vector>

#include "common.cuh"
#include "pi_cpu.h"
#include "run_loop.cuh"

namespace pi {

constexpr long long kMaxNiter = 1LL << 34;

// One point of the run: one NITER in one precision, with every launch choice resolved (the
// grid of version single once the device is known), and where the fetched estimate goes.
struct Plan {
    long long niter = 1;
    bool is_float = true;
    bool first_of_niter = false;  // the first plan of its NITER: the reference is computed here
    long long chunk = 0;          // versions 1 and 2: consecutive terms per thread
    int threads = 0;              // threads per block of every GPU version
    long long report_blocks = 0;  // versions 1 and 2: one thread per chunk
    long long single_blocks = 0;  // version single: --blocks, or its occupancy grid (on_device)
    int cpu_threads = 1;          // OpenMP threads of cpu_omp (and of the reference)
    bool pinned = false;          // page-locked host buffers for the result copies
    double* got = nullptr;        // fetch() puts the estimate here (host)
    double h() const { return 1.0 / static_cast<double>(niter); }
    // In result and progress lines.
    std::string text() const { return cw::format("niter=%lld precision=%s", niter, is_float ? "float" : "double"); }
};

// What a version's CSV row says of its run at one plan (-1: the column does not apply) and
// its error model: the tolerance is error_bound(precision, error).
struct Launch {
    std::string kernel;
    long long chunk = -1, threads = -1, blocks = -1, cpu_threads = -1;
    ErrorModel error;
};

// A registry entry, with what is pi's own: its row's launch, what its kernel_ms covers, the
// reference it is checked against (the midpoint sum, offset 0.5; cpu_report: the report's
// shifted sum, -0.5), and the comparison column its time fills ("cpu", "cpu_omp" or none).
struct Version : cw::Version<Plan, Version> {
    using Base = cw::Version<Plan, Version>;
    using Base::Base;
    Launch (*describe)(const Plan&) = nullptr;
    std::string kernel_ms_scope = "kernels";
    double reference_offset = 0.5;
    std::string cpu_column;

    Version& described(Launch (*launch)(const Plan&)) { return set(describe, launch); }
    Version& timed_as(const std::string& scope) { return set(kernel_ms_scope, scope); }
    // A CPU version: timed by the host clock over the whole function; a run of these alone needs no GPU.
    Version& cpu_function() { return host().timed_as("cpu: whole function"); }
    Version& fills_column(const std::string& column) { return set(cpu_column, column); }
    Version& checked_at_offset(double offset) { return set(reference_offset, offset); }
};

// The versions, in the order they run and appear in the CSV.
const std::vector<Version>& registry();

// Usage errors (cw::UsageError) for a selected version that cannot take one of the sizes,
// and for a `selection` ("option --only=... with --precision=...") that runs nothing.
void refuse_unrunnable(const std::vector<Plan>& plans, const std::vector<const Version*>& chosen,
                       const std::string& selection);

}  // namespace pi
