// reduction_versions' versions: one runner per kind of launch (the passes of versions 1-7,
// version 8's single launch, CUB) and the registry. Adding a version: its kernel in
// reduction_versions_kernels.cu and one entry here holding it; --help, --only, --list-versions,
// the CSV, the tables and the tests follow.
#include "reduction_versions_versions.cuh"

#include <algorithm>
#include <memory>
#include <string>

#include "reduction_versions_cpu.h"
#include "reduction_versions_policy.h"

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
    OneLaunchRunner(const Plan& p, int threads, long long grid, const OneLaunchKernel& kernel)
        : SumRunner(p, threads, grid, sizeof(unsigned)), kernel_(kernel) {}

  protected:
    const unsigned* enqueue(const Launch& l, cudaStream_t stream, LaunchPlan* plan) override {
        return enqueue_one_launch(l, kernel_, stream, plan);
    }

  private:
    OneLaunchKernel kernel_;
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
long long vectorized_grid_for(const Plan& p, int threads, const OneLaunchKernel& kernel) {
    if (p.blocks > 0) return p.blocks;
    const long long one_wave =  // capped by the work
        vectorized_resident_grid(kernel, p.sm_count * kPolicy.grid_waves, static_cast<std::size_t>(p.n), threads);
    const long long per_block = static_cast<long long>(threads) * kPolicy.vectorized_ints_per_thread;
    const long long by_work = (p.n + per_block - 1) / per_block;
    return std::max(one_wave, std::min(by_work, one_wave * kPolicy.vectorized_max_waves));
}

}  // namespace

std::string Fetched::launch_text() const {
    if (threads < 0) return "launch chosen by CUB";
    return cw::format("block=%d grid=%lld launches=%d", threads, launch.first_grid, launch.launches);
}

Version& Version::in_passes(const PassKernel& kernel, int items_per_thread) {
    launch = cw::format("ceil(n/%sT) blocks, %d element%s per thread, passes until 1 block",
                        items_per_thread == 1 ? "" : std::to_string(items_per_thread).c_str(), items_per_thread,
                        items_per_thread == 1 ? "" : "s");
    const PassLauncher pass = kernel.launch;
    allocates([items_per_thread](const Plan& p) {
        return static_cast<double>(passes_workspace(static_cast<std::size_t>(p.n), items_per_thread,
                                                    block_size(p, kPolicy.threads_tree), 0));
    });
    runs([items_per_thread, pass](const Plan& p) {
        return runner(new PassRunner(p, block_size(p, kPolicy.threads_tree), 0, items_per_thread, pass));
    });
    return profiled(kernel.name);
}

Version& Version::in_grid_stride_passes(const PassKernel& kernel) {
    launch = "min(ceil(n/2T), --blocks or resident blocks) blocks, grid-stride; passes until 1 block";
    takes_blocks = true;
    const PassLauncher pass = kernel.launch;
    auto grid = [](const Plan& p) {
        return grid_stride_grid(p, block_size(p, kPolicy.threads_grid_stride), multiple_per_thread_resident_grid);
    };
    allocates([grid](const Plan& p) {
        return static_cast<double>(passes_workspace(static_cast<std::size_t>(p.n), kFirstAdd,
                                                    block_size(p, kPolicy.threads_grid_stride), grid(p)));
    });
    runs([grid, pass](const Plan& p) {
        return runner(new PassRunner(p, block_size(p, kPolicy.threads_grid_stride), grid(p), kFirstAdd, pass));
    });
    return profiled(kernel.name);
}

// Block size kPolicy.threads_vectorized under --threads=0, version 8's grid.
Version& Version::in_one_launch(const OneLaunchKernel& kernel) {
    launch = "1 block if n <= 16T, else min(ceil(n/4T), --blocks or resident blocks, more waves of them for large n) "
             "blocks, grid-stride; 1 launch";
    takes_blocks = true;
    allocates([](const Plan&) { return static_cast<double>(sizeof(unsigned)); });
    runs([kernel](const Plan& p) {
        const int threads = block_size(p, kPolicy.threads_vectorized);
        return runner(new OneLaunchRunner(p, threads, vectorized_grid_for(p, threads, kernel), kernel));
    });
    return profiled(kernel.name);
}

// One row per size (its launch does not depend on --threads), at the size's first --threads
// item; its time is on every row of the size.
Version& Version::in_cub() {
    launch = "the library's choice";
    refuses([](const Plan& p) {
        return p.first_threads ? std::string()
                               : std::string("its own launch: one row per size, at the first --threads item");
    });
    allocates([](const Plan& p) { return static_cast<double>(cub_workspace(static_cast<std::size_t>(p.n))); });
    return runs([](const Plan& p) { return runner(new CubRunner(p)); });
}

// The versions, in the order they run. Tags, where an experiment is about some versions only:
// ncu_sample, the versions of the parser's real Nsight Compute sample (Makefile NCU_SAMPLE_ARGS);
// unfixed_v5, make report's step 5, version 5 fixed beside the report's as printed
// (unfixed_v5.csv); takes_blocks, --blocks sets its grid; keeps_state, its block sums meet in a
// device counter that each launch leaves reset for the next (the tests launch one runner on
// several inputs in a row). The numbered labels are the report's chain of steps: tables.py
// measures version k against version k - 1; a variant of a version takes a letter (4w, 5-unfixed).
const std::vector<Version>& registry() {
    static const std::vector<Version> versions = {
        Version("1", kInterleavedDivergent.name, "interleaved addressing, divergent % branch (report's version 1)")
            .in_passes(kInterleavedDivergent, kTree)
            .tagged("ncu_sample"),
        Version("2", kInterleavedStrided.name, "interleaved addressing, strided index (report's version 2)")
            .in_passes(kInterleavedStrided, kTree)
            .tagged("ncu_sample"),
        Version("3", kSequentialAddressing.name, "sequential addressing (report's version 3)")
            .in_passes(kSequentialAddressing, kTree),
        Version("4", kFirstAddDuringLoad.name, "first add during load (report's version 4)")
            .in_passes(kFirstAddDuringLoad, kFirstAdd),
        Version("5", kUnrolledLastWarp.name, "last warp unrolled, fixed with __syncwarp (report's version 5)")
            .in_passes(kUnrolledLastWarp, kFirstAdd)
            .tagged("unfixed_v5"),
        Version("6", kCompleteUnroll.name, "complete unrolling, template block size (Harris 6)")
            .in_passes(kCompleteUnroll, kFirstAdd),
        Version("7", kMultiplePerThread.name, "grid-stride loop, many elements per thread (Harris 7)")
            .in_grid_stride_passes(kMultiplePerThread)
            .tagged("takes_blocks"),
        Version("8", kVectorizedShuffleAtomic.name,
                "int4 loads, warp shuffles, one atomicAdd per block, the last block writes the sum; one launch (ours)")
            .in_one_launch(kVectorizedShuffleAtomic)
            .tagged("takes_blocks,keeps_state"),
        Version("cub", "cub::DeviceReduce::Sum", "cub::DeviceReduce::Sum (the library baseline, reduction_cub.cu)")
            .baseline()
            .in_cub(),
        Version("5-unfixed", kUnrolledLastWarpAsPrinted.name,
                "the report's version 5 as printed (racy: no volatile, no __syncwarp)")
            .demonstration()  // never PASS or FAIL
            .opt_in()         // runs only when --only names it
            .in_passes(kUnrolledLastWarpAsPrinted, kFirstAdd)
            .tagged("unfixed_v5"),
    };
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
