// scan's registry: what one run of a version needs (Plan), the versions themselves
// (registry(), scan_versions.cu) and their runner, read by the shared run loop
// (common/run_loop.cuh). Dispatch, --only, the version list of --help, the CSV's
// version/validated/is_baseline columns and the tests all come from the registry; adding a
// version is its kernels and launcher (scan_kernels.cu) plus one entry.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common.cuh"
#include "run_loop.cuh"
#include "scan_kernels.cuh"
#include "scan_policy.h"

namespace scan {

// One point of the run: a size and a scan, with every launch choice resolved once the device
// is known.
struct Plan {
    long long n = 0;
    bool exclusive = false;
    int threads = 1024;                    // block size of the report's versions (--threads)
    int per_thread = 8;                    // elements per thread of the map scans (--per-thread)
    scan_policy::LookbackPolicy lookback;  // version=lookback's tile (on_device: chosen for the device)
    scan_policy::LookaheadPolicy lookahead;  // version=lookahead's kernel choice (on_device: for the device)

    const char* mode() const { return exclusive ? "exclusive" : "inclusive"; }
    std::string text() const { return cw::format("n=%lld mode=%s", n, mode()); }  // in result and progress lines
};

// Where every version reads and writes, the program's buffers (scan::Data owns them, for the
// largest size of the run).
struct Io {
    // The size a launch scans: the plan's n, or under --vary-input a smaller one that the runner
    // made for n scans with the workspace it has (a launcher serves every size up to its own,
    // scan_kernels.cuh).
    long long launch_n = 0;
    const unsigned* d_in = nullptr;  // the input on the device (int32 bits)
    unsigned* d_out = nullptr;       // what every version writes (poisoned before each)
    std::int32_t* h_out = nullptr;   // fetch() copies the result here (host)
};

// What a version costs by the models of scan_plan.h: the bytes one scan moves through DRAM
// (CSV model_bytes), the additions of data values one scan performs (CSV additions; NaN where
// not modelled: CUB's internals), and the elements one thread scans serially (CSV
// per_thread; 0 where that means nothing).
struct Model {
    double bytes = 0, additions = 0;
    int items_per_thread = 0;
};

// A version's launcher (its kernels, scan_kernels.cuh) for the largest size of a plan.
using LauncherFactory = std::function<std::unique_ptr<scan_gpu::Launcher>(const Plan&)>;

struct Version : cw::Version<Plan, Version> {
    using Base = cw::Version<Plan, Version>;
    using Base::Base;
    // What it launches; the program's make_runner puts it over its buffers (scan::Runner).
    LauncherFactory launcher;
    // The version's own model (scan_plan.h); unset: one pass, n read and n written, the
    // additions not modelled (NaN): what a new version gets until it says more.
    Model (*model)(const Plan&) = nullptr;
    Model cost(const Plan& p) const;

    Version& launches(LauncherFactory factory) { return set(launcher, std::move(factory)); }
    Version& modelled(Model (*cost_model)(const Plan&)) { return set(model, cost_model); }
    // One of the report's racy kernels: never validated (measured: MSE, wrong runs), run only
    // when --only names it, inclusive only.
    Version& racy();
};

// Every version's runner: its launcher over the program's buffers (io). An in-place version
// (the racy demonstrations) gets a fresh copy of the input in the output before every run
// (reset()).
class Runner : public cw::Runner {
  public:
    Runner(const Plan& p, const Io& io, std::unique_ptr<scan_gpu::Launcher> launcher)
        : p_(p), io_(io), launcher_(std::move(launcher)) {}
    void launch(cudaStream_t stream) override;
    void fetch(cudaStream_t stream) override;
    void poison(cudaStream_t stream) override;
    void reset(cudaStream_t stream) override;
    // The launches of one run (k1 = the data scan, k2 = the scan of the totals, k3 = the
    // add-back) and the serial part of the last run (NaN where there is none).
    std::vector<scan_gpu::KernelLaunch> launches() const;
    double serial_ms() const { return launcher_->serial_ms(); }
    // Which kernel this launch's size runs, where the version chooses ("" where it cannot choose).
    std::string choice() const { return launcher_->choice(n()); }

  private:
    // The size of this launch (Io::launch_n); poison() and fetch() cover the plan's n.
    std::size_t n() const { return static_cast<std::size_t>(io_.launch_n); }
    std::size_t bytes() const { return static_cast<std::size_t>(p_.n) * sizeof(unsigned); }
    Plan p_;
    const Io& io_;
    std::unique_ptr<scan_gpu::Launcher> launcher_;
};

// The CSV columns of a runner's launches: k1_..k3_ name, grid, block, regs, smem_bytes,
// blocks_per_sm, occupancy, waves (on sm_count SMs); empty where a version has fewer.
void add_launch_columns(cw::CsvRow& row, const std::vector<scan_gpu::KernelLaunch>& launches, int sm_count);

// The versions, in the order they run and appear in the CSV: the baseline (cub) first.
const std::vector<Version>& registry();

// The tuning policies for the device (scan_policy.h), each announced in one line of the run's
// output: lookback's tile unless lb_items ("16", "32") forces it, lookahead's kernel choice
// unless la_kernel ("ws", "lookback") forces it; "auto" leaves the choice to the policy.
scan_policy::LookbackPolicy lookback_policy(const cw::DeviceInfo& dev, const std::string& lb_items);
scan_policy::LookaheadPolicy lookahead_policy(const cw::DeviceInfo& dev, const std::string& la_kernel);

}  // namespace scan
