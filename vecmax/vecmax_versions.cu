// vecmax's versions: one runner per version (its buffers, its launch, its result copy) and
// the registry. Adding a version: its kernel and launcher (vecmax_kernels.cu), a runner and
// one entry here; --help, --only, --list-versions, the CSV, the tables and the tests follow.
#include "vecmax_versions.cuh"

#include <memory>

#include "vecmax_cpu.h"
#include "vecmax_cub.cuh"
#include "vecmax_kernels.cuh"
#include "vecmax_order_key.h"
#include "vecmax_policy.h"

namespace vecmax {
namespace {

double float_bytes(long long count) { return static_cast<double>(count) * sizeof(float); }

// version=report: the block maxima come back to the host, which finishes.
class ReportRunner : public cw::Runner {
  public:
    explicit ReportRunner(const Plan& p)
        : p_(p), d_block_max_(static_cast<std::size_t>(p.report_blocks)),
          h_block_max_(static_cast<std::size_t>(p.report_blocks), p.pinned) {}
    void launch(cudaStream_t stream) override {
        launch_report_vecmax(p_.d_x, p_.n, d_block_max_.data(), p_.report_threads, p_.report_blocks, stream);
    }
    void fetch(cudaStream_t stream) override {
        CUDA_CHECK(cudaMemcpyAsync(h_block_max_.data(), d_block_max_.data(), float_bytes(p_.report_blocks),
                                   cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        *p_.got = max_reference(h_block_max_.data(), static_cast<std::size_t>(p_.report_blocks));
    }

  private:
    Plan p_;
    cw::DeviceBuffer<float> d_block_max_;
    cw::HostBuffer<float> h_block_max_;
};

// version=single_pass: one launch; the result is an order key in device memory.
class SinglePassRunner : public cw::Runner {
  public:
    explicit SinglePassRunner(const Plan& p) : p_(p), max_(kSinglePassPolicy), h_key_(1, p.pinned) {}
    void launch(cudaStream_t stream) override { max_.launch(p_.d_x, p_.n, p_.single_pass_blocks, stream); }
    void fetch(cudaStream_t stream) override {
        CUDA_CHECK(cudaMemcpyAsync(h_key_.data(), max_.result_key(), sizeof(unsigned int), cudaMemcpyDeviceToHost,
                                   stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        *p_.got = from_order_key(*h_key_.data());
    }

  private:
    Plan p_;
    SinglePassMax max_;
    cw::HostBuffer<unsigned int> h_key_;
};

// version=cub: the library baseline with the same NaN policy.
std::size_t cub_temp_bytes(long long n) {
    std::size_t bytes = 0;
    CUDA_CHECK(cub_max_temp_bytes(static_cast<int>(n), &bytes));
    return bytes;
}

class CubRunner : public cw::Runner {
  public:
    explicit CubRunner(const Plan& p)
        : p_(p), temp_bytes_(cub_temp_bytes(p.n)), d_temp_(temp_bytes_), d_result_(1), h_result_(1, p.pinned) {}
    void launch(cudaStream_t stream) override {
        CUDA_CHECK(cub_max(d_temp_.data(), temp_bytes_, p_.d_x, d_result_.data(), static_cast<int>(p_.n), stream));
        CUDA_CHECK_LAUNCH();
    }
    void fetch(cudaStream_t stream) override {
        CUDA_CHECK(cudaMemcpyAsync(h_result_.data(), d_result_.data(), sizeof(float), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        *p_.got = *h_result_.data();
    }

  private:
    Plan p_;
    std::size_t temp_bytes_;
    cw::DeviceBuffer<unsigned char> d_temp_;
    cw::DeviceBuffer<float> d_result_;
    cw::HostBuffer<float> h_result_;
};

template <typename R>
std::unique_ptr<cw::Runner> make(const Plan& p) {
    return std::unique_ptr<cw::Runner>(new R(p));
}

Shape report_shape(const Plan& p) { return Shape{p.report_threads, p.report_blocks}; }
Shape single_pass_shape(const Plan& p) { return Shape{kSinglePassPolicy.threads, p.single_pass_blocks}; }
Shape library_shape(const Plan&) { return Shape{-1, -1}; }

}  // namespace

const std::vector<Version>& registry() {
    static const std::vector<Version> versions = {
        Version("report", "vecmax_grid_stride_shared_tree",
                "the report's VecMax, bugs fixed: grid-stride slices, shared-memory tree, host finishes "
                "(--threads x --blocks)")
            .runs(make<ReportRunner>)
            .shaped(report_shape)
            .allocates([](const Plan& p) { return float_bytes(p.report_blocks); })
            // report_sweep: the report's 30 launch shapes are of its own kernel (sweep_configs.txt).
            .tagged("report_sweep")
            .profiled("vecmax_grid_stride_shared_tree"),
        Version("single_pass", "vecmax_single_pass_vec4",
                "one launch: float4 loads, warp shuffles, resident grid, one atomicMax of an order key per block "
                "(--sp-blocks)")
            .runs(make<SinglePassRunner>)
            .shaped(single_pass_shape)
            .allocates([](const Plan&) { return 2.0 * sizeof(unsigned int); })
            // keeps_state: its result alternates between two slots per launch (tested after an
            // even and an odd number of launches).
            // bench: the benchmark at the report's sizes (run_report.sh's bench.csv) is of ours and CUB.
            .tagged("keeps_state,bench")
            .profiled("vecmax_single_pass"),
        Version("cub", "cub::DeviceReduce::Reduce(nan_max)",
                "cub::DeviceReduce::Reduce with the same NaN-propagating maximum")
            .baseline()
            .runs(make<CubRunner>)
            .shaped(library_shape)
            .allocates([](const Plan& p) { return static_cast<double>(cub_temp_bytes(p.n)) + sizeof(float); })
            // own_launch: the library picks its launch (no threads or blocks in its CSV rows);
            // profile_two_kernels: one call is two kernels (the pass over the input, the single-tile
            // pass over the partials), so make profile counts two launches.
            .tagged("own_launch,profile_two_kernels,bench")
            .profiled("DeviceReduce"),
    };
    return versions;
}

}  // namespace vecmax
