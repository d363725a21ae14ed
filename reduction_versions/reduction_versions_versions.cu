// reduction_versions' versions: one runner per kind of launch (the passes of versions 1-7,
// version 8's single launch, CUB) and the registry. Adding a version: its kernel in
// reduction_versions_kernels.cu and one entry here; --help, --only, --list-versions, the CSV,
// the tables and the tests follow.
#include "reduction_versions_versions.cuh"

#include <algorithm>
#include <memory>
#include <string>

#include "reduction_versions_cpu.h"

namespace rv {
namespace {

constexpr int kTree = Policy::kItemsPerThreadTree;
constexpr int kFirstAdd = Policy::kItemsPerThreadFirstAdd;

// The block size of a version at a plan: the --threads item, or the policy's (automatic).
int block_size(const Plan& p, int automatic) { return p.threads != 0 ? p.threads : automatic; }

// Every version's runner: its workspace (block partials, the result, CUB's storage), poisoned
// with 0xA5 before a checked run so that a stale value cannot pass for a sum; its launch (one
// enqueue of the whole reduction); the fetch of the single sum it leaves in the workspace.
class SumRunner : public cw::Runner {
  public:
    SumRunner(const Plan& p, int threads, long long grid, std::size_t workspace_bytes)
        : got_(p.got), threads_(threads), workspace_(workspace_bytes) {
        args_.in = p.d_in;
        args_.n = static_cast<std::size_t>(p.n);
        args_.threads = threads;
        args_.grid = grid;
        args_.workspace = workspace_.data();
    }
    void launch(cudaStream_t stream) override { result_ = enqueue(args_, stream, &launched_); }
    void poison(cudaStream_t stream) override {
        CUDA_CHECK(cudaMemsetAsync(workspace_.data(), 0xA5, workspace_.size(), stream));
    }
    void fetch(cudaStream_t stream) override {
        unsigned sum = 0;
        CUDA_CHECK(cudaMemcpyAsync(&sum, result_, sizeof sum, cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        got_->sum = wrap_to_int32(sum);
        got_->threads = threads_;
        got_->launch = launched_;
    }

  protected:
    virtual const unsigned* enqueue(const Launch& l, cudaStream_t stream, LaunchPlan* plan) = 0;

  private:
    Fetched* got_;
    int threads_;
    cw::DeviceBuffer<unsigned char> workspace_;
    Launch args_;
    const unsigned* result_ = nullptr;
    LaunchPlan launched_;
};

// Versions 1-7 and 5-unfixed: passes of one kernel until a single block is left.
class PassRunner : public SumRunner {
  public:
    PassRunner(const Plan& p, int threads, long long grid_cap, int items_per_thread, PassLauncher pass)
        : SumRunner(p, threads, grid_cap,
                    passes_workspace(static_cast<std::size_t>(p.n), items_per_thread, threads, grid_cap)),
          items_per_thread_(items_per_thread), pass_(pass) {}

  protected:
    const unsigned* enqueue(const Launch& l, cudaStream_t stream, LaunchPlan* plan) override {
        return enqueue_passes(l, items_per_thread_, pass_, stream, plan);
    }

  private:
    int items_per_thread_;
    PassLauncher pass_;
};

// Version 8: one launch of its one-launch kernel; its workspace is the result.
class OneLaunchRunner : public SumRunner {
  public:
    OneLaunchRunner(const Plan& p, int threads, long long grid, OneLaunchKernel kernel, const std::string& name)
        : SumRunner(p, threads, grid, sizeof(unsigned)), kernel_(kernel), name_(name) {}

  protected:
    const unsigned* enqueue(const Launch& l, cudaStream_t stream, LaunchPlan* plan) override {
        return enqueue_one_launch(l, kernel_, name_, stream, plan);
    }

  private:
    OneLaunchKernel kernel_;
    std::string name_;
};

// cub::DeviceReduce::Sum, the library baseline: its own launch.
class CubRunner : public SumRunner {
  public:
    explicit CubRunner(const Plan& p) : SumRunner(p, -1, 0, cub_workspace(static_cast<std::size_t>(p.n))) {}

  protected:
    const unsigned* enqueue(const Launch& l, cudaStream_t stream, LaunchPlan* plan) override {
        return enqueue_cub(l, stream, plan);
    }
};

std::unique_ptr<cw::Runner> runner(cw::Runner* r) { return std::unique_ptr<cw::Runner>(r); }

// Version 7: --blocks, or the blocks resident at once (kPolicy.grid_waves waves).
long long grid_stride_grid(const Plan& p, int threads,
                           long long (*resident_grid)(int sm_count, std::size_t n, int threads)) {
    if (p.blocks > 0) return p.blocks;
    return resident_grid(p.sm_count * kPolicy.grid_waves, static_cast<std::size_t>(p.n), threads);
}

// Version 8's grid: --blocks, or one wave of resident blocks of its kernel, grown on large inputs
// up to kPolicy.vectorized_max_waves waves while every thread keeps vectorized_ints_per_thread ints.
long long vectorized_grid_for(const Plan& p, int threads, OneLaunchKernel kernel) {
    if (p.blocks > 0) return p.blocks;
    const long long one_wave =  // capped by the work
        vectorized_resident_grid(kernel, p.sm_count * kPolicy.grid_waves, static_cast<std::size_t>(p.n), threads);
    const long long per_block = static_cast<long long>(threads) * kPolicy.vectorized_ints_per_thread;
    const long long by_work = (p.n + per_block - 1) / per_block;
    return std::max(one_wave, std::min(by_work, one_wave * kPolicy.vectorized_max_waves));
}

// A version whose kernel is a one-pass kernel (REDUCE_PASS_KERNEL, found by its name), run in
// passes until 1 block, with `items` elements per thread (kTree or kFirstAdd).
struct PassVersion {
    const char* label;
    const char* kernel;
    const char* summary;
    int items;
    const char* tags = "";  // what experiments and tests find it by (--list-versions)
};

// An entry for `kernel`: Nsight Compute's filter (make profile) is the kernel's name.
Version kernel_entry(const char* label, const char* kernel, const char* summary, const std::string& tags) {
    Version v = cw::version_entry<Version>(label, kernel, summary);
    v.tags = tags;
    v.profile_kernels = kernel;
    return v;
}

// Its entry: block size kPolicy.threads_tree under --threads=0.
Version pass_version(const PassVersion& e) {
    const int items_per_thread = e.items;
    Version v = kernel_entry(e.label, e.kernel, e.summary, e.tags);
    v.launch = cw::format("ceil(n/%sT) blocks, %d element%s per thread, passes until 1 block",
                          items_per_thread == 1 ? "" : std::to_string(items_per_thread).c_str(), items_per_thread,
                          items_per_thread == 1 ? "" : "s");
    const PassLauncher pass = pass_kernel(e.kernel);
    v.workspace_bytes = [items_per_thread](const Plan& p) {
        return static_cast<double>(passes_workspace(static_cast<std::size_t>(p.n), items_per_thread,
                                                    block_size(p, kPolicy.threads_tree), 0));
    };
    v.make = [items_per_thread, pass](const Plan& p) {
        return runner(new PassRunner(p, block_size(p, kPolicy.threads_tree), 0, items_per_thread, pass));
    };
    return v;
}

// Version 7: the passes of reduce_multiple_per_thread, its first grid the grid-stride grid.
Version grid_stride_version(const char* label, const char* kernel, const char* summary, const char* launch) {
    Version v = kernel_entry(label, kernel, summary, "takes_blocks");
    v.launch = launch;
    v.takes_blocks = true;
    const PassLauncher pass = pass_kernel(kernel);
    auto grid = [](const Plan& p) {
        return grid_stride_grid(p, block_size(p, kPolicy.threads_grid_stride), multiple_per_thread_resident_grid);
    };
    v.workspace_bytes = [grid](const Plan& p) {
        return static_cast<double>(passes_workspace(static_cast<std::size_t>(p.n), kFirstAdd,
                                                    block_size(p, kPolicy.threads_grid_stride), grid(p)));
    };
    v.make = [grid, pass](const Plan& p) {
        return runner(new PassRunner(p, block_size(p, kPolicy.threads_grid_stride), grid(p), kFirstAdd, pass));
    };
    return v;
}

// A version whose kernel is a one-launch kernel (version 8's shape: REDUCE_ONE_LAUNCH_KERNEL,
// found by its name): the whole sum in one launch, block size kPolicy.threads_vectorized under
// --threads=0, version 8's grid. Its tags: --blocks sets its grid (takes_blocks); its block sums
// meet in a device counter that each launch leaves reset for the next (keeps_state: the tests
// launch one runner on several inputs in a row).
struct OneLaunchVersion {
    const char* label;
    const char* kernel;
    const char* summary;
};

Version one_launch_version(const OneLaunchVersion& e) {
    Version v = kernel_entry(e.label, e.kernel, e.summary, "takes_blocks,keeps_state");
    v.launch = "1 block if n <= 16T, else min(ceil(n/4T), --blocks or resident blocks, more waves of them for large n) "
               "blocks, grid-stride; 1 launch";
    v.takes_blocks = true;
    const OneLaunchKernel kernel = one_launch_kernel(e.kernel);
    const std::string name = e.kernel;
    v.workspace_bytes = [](const Plan&) { return static_cast<double>(sizeof(unsigned)); };
    v.make = [kernel, name](const Plan& p) {
        const int threads = block_size(p, kPolicy.threads_vectorized);
        return runner(new OneLaunchRunner(p, threads, vectorized_grid_for(p, threads, kernel), kernel, name));
    };
    return v;
}

// The library baseline: one row per size (its launch does not depend on --threads), at the
// size's first --threads item; its time is on every row of the size.
Version cub_version() {
    Version v = cw::version_entry<Version>("cub", "cub::DeviceReduce::Sum",
                                           "cub::DeviceReduce::Sum (the library baseline, reduction_cub.cu)");
    v.is_baseline = true;
    v.launch = "the library's choice";
    v.cannot_run = [](const Plan& p) {
        return p.first_threads ? std::string()
                               : std::string("its own launch: one row per size, at the first --threads item");
    };
    v.workspace_bytes = [](const Plan& p) { return static_cast<double>(cub_workspace(static_cast<std::size_t>(p.n))); };
    v.make = [](const Plan& p) { return runner(new CubRunner(p)); };
    return v;
}

}  // namespace

std::string Fetched::launch_text() const {
    if (threads < 0) return "launch chosen by CUB";
    return cw::format("block=%d grid=%lld launches=%d", threads, launch.first_grid, launch.launches);
}

const std::vector<Version>& registry() {
    static const std::vector<Version> versions = [] {
        // The one-pass versions, in the order they run: label, kernel, summary, elements per thread
        // (and tags, where an experiment is about some versions only: ncu_sample, the versions of
        // the parser's real Nsight Compute sample, Makefile NCU_SAMPLE_ARGS; unfixed_v5, make
        // report's step 5, version 5 fixed beside the report's as printed, unfixed_v5.csv).
        // The numbered labels are the report's chain of steps: tables.py measures version k
        // against version k - 1; a variant of a version takes a letter (4w, 5-unfixed).
        const PassVersion passes[] = {
            {"1", "reduce_interleaved_divergent", "interleaved addressing, divergent % branch (report's version 1)",
             kTree, "ncu_sample"},
            {"2", "reduce_interleaved_strided", "interleaved addressing, strided index (report's version 2)", kTree,
             "ncu_sample"},
            {"3", "reduce_sequential_addressing", "sequential addressing (report's version 3)", kTree},
            {"4", "reduce_first_add_during_load", "first add during load (report's version 4)", kFirstAdd},
            {"5", "reduce_unrolled_last_warp", "last warp unrolled, fixed with __syncwarp (report's version 5)",
             kFirstAdd, "unfixed_v5"},
            {"6", "reduce_complete_unroll", "complete unrolling, template block size (Harris 6)", kFirstAdd},
        };
        std::vector<Version> r;
        for (const PassVersion& e : passes) r.push_back(pass_version(e));
        r.push_back(grid_stride_version(
            "7", "reduce_multiple_per_thread", "grid-stride loop, many elements per thread (Harris 7)",
            "min(ceil(n/2T), --blocks or resident blocks) blocks, grid-stride; passes until 1 block"));
        // The one-launch versions, in the order they run: label, kernel, summary.
        const OneLaunchVersion one_launch[] = {
            {"8", "reduce_vectorized_shuffle_atomic",
             "int4 loads, warp shuffles, one atomicAdd per block, the last block writes the sum; one launch (ours)"},
        };
        for (const OneLaunchVersion& e : one_launch) r.push_back(one_launch_version(e));
        r.push_back(cub_version());
        Version unfixed = pass_version({"5-unfixed", "reduce_unrolled_last_warp_as_printed",
                                        "the report's version 5 as printed (racy: no volatile, no __syncwarp)",
                                        kFirstAdd, "unfixed_v5"});
        unfixed.validated = false;   // a demonstration: never PASS or FAIL
        unfixed.by_default = false;  // runs only when --only names it
        r.push_back(unfixed);
        return r;
    }();
    return versions;
}

void checked_run(cw::Runner& runner) {
    runner.poison(0);
    runner.reset(0);
    runner.launch(0);
    runner.fetch(0);
}

std::string launch_help() {
    std::string out = "\nLaunch of each version (T = threads per block):";
    for (const Version& v : registry()) {
        std::string left = "  " + v.label;
        left += std::string(left.size() < 14 ? 14 - left.size() : 1, ' ');
        out += "\n" + left + v.launch;
    }
    return out;
}

}  // namespace rv
