// pi's versions: one runner per version (its buffers, its launch, its result to the host) and
// the registry. Adding a version: its kernel and launcher (pi_kernels.cu), a runner and one
// entry here; --help, --only, --list-versions and the CSV follow.
#include "pi_versions.cuh"

#include <climits>
#include <cmath>
#include <memory>

#include "pi_kernels.cuh"
#include "pi_thrust.h"
#include "pi_tile.h"

namespace pi {
namespace {

// Versions 1 and 2 (the report's kernels): the block sums come back to the host, which adds
// them in double and multiplies by h.
template <int Which, typename T>
class ReportRunner : public cw::Runner {
  public:
    explicit ReportRunner(const Plan& p)
        : p_(p), d_sums_(static_cast<std::size_t>(p.report_blocks)),
          h_sums_(static_cast<std::size_t>(p.report_blocks), p.pinned) {}
    void launch(cudaStream_t s) override {
        if (Which == 1) launch_kernel1<T>(p_.niter, p_.chunk, p_.h(), p_.report_blocks, p_.threads, d_sums_.data(), s);
        else launch_kernel2<T>(p_.niter, p_.chunk, p_.h(), p_.report_blocks, p_.threads, d_sums_.data(), s);
    }
    void fetch(cudaStream_t s) override {
        CUDA_CHECK(cudaMemcpyAsync(h_sums_.data(), d_sums_.data(), d_sums_.size() * sizeof(T), cudaMemcpyDeviceToHost,
                                   s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        double sum = 0.0;
        for (std::size_t b = 0; b < h_sums_.size(); ++b) sum += static_cast<double>(h_sums_.data()[b]);
        *p_.got = sum * p_.h();
    }
    // NaN block sums: a block that writes nothing cannot pass on an earlier run's value.
    void poison(cudaStream_t s) override {
        CUDA_CHECK(cudaMemsetAsync(d_sums_.data(), 0xff, d_sums_.size() * sizeof(T), s));
    }

  private:
    Plan p_;
    cw::DeviceBuffer<T> d_sums_;
    cw::HostBuffer<T> h_sums_;
};
template <typename T>
using Kernel1Runner = ReportRunner<1, T>;
template <typename T>
using Kernel2Runner = ReportRunner<2, T>;

// Version single: one launch writes the estimate itself; the last-block counter starts at
// zero and every launch leaves it there.
template <typename T>
class SingleRunner : public cw::Runner {
  public:
    explicit SingleRunner(const Plan& p)
        : p_(p), d_partials_(static_cast<std::size_t>(p.single_blocks)), d_done_(1), d_result_(1),
          h_result_(1, p.pinned) {
        CUDA_CHECK(cudaMemset(d_done_.data(), 0, sizeof(unsigned int)));
    }
    void launch(cudaStream_t s) override {
        launch_single<T>(p_.niter, p_.h(), p_.single_blocks, p_.threads, d_partials_.data(), d_done_.data(),
                         d_result_.data(), s);
    }
    void fetch(cudaStream_t s) override {
        CUDA_CHECK(cudaMemcpyAsync(h_result_.data(), d_result_.data(), sizeof(double), cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        *p_.got = h_result_.data()[0];
    }
    void poison(cudaStream_t s) override { CUDA_CHECK(cudaMemsetAsync(d_result_.data(), 0xff, sizeof(double), s)); }

  private:
    Plan p_;
    cw::DeviceBuffer<double> d_partials_;
    cw::DeviceBuffer<unsigned int> d_done_;
    cw::DeviceBuffer<double> d_result_;
    cw::HostBuffer<double> h_result_;
};

// Version thrust: the call returns the sum on the host, so a launch is the whole call (its
// temporary allocation, its kernels, the copy of the result, the free).
template <typename T>
class ThrustRunner : public cw::Runner {
  public:
    explicit ThrustRunner(const Plan& p) : niter_(p.niter), got_(p.got) {}
    void launch(cudaStream_t s) override {
        estimate_ = sizeof(T) == sizeof(float) ? pi_thrust_float(niter_, s) : pi_thrust_double(niter_, s);
    }
    void fetch(cudaStream_t) override { *got_ = estimate_; }
    void poison(cudaStream_t) override { estimate_ = NAN; }

  private:
    long long niter_;
    double* got_;
    double estimate_ = NAN;
};

// The CPU versions (timed by the host clock; no CUDA call): the report's loop with its formula
// fixed, in T, on `threads` OpenMP threads, or the report's own function (float, int NITER).
template <typename T, bool Parallel>
class CpuRunner : public cw::Runner {
  public:
    explicit CpuRunner(const Plan& p) : niter_(p.niter), threads_(Parallel ? p.cpu_threads : 1), got_(p.got) {}
    void launch(cudaStream_t) override {
        estimate_ = sizeof(T) == sizeof(float) ? static_cast<double>(pi_cpu_midpoint_float(niter_, threads_))
                                               : pi_cpu_midpoint_double(niter_, threads_);
    }
    void fetch(cudaStream_t) override { *got_ = estimate_; }
    void poison(cudaStream_t) override { estimate_ = NAN; }

  protected:
    long long niter_;
    int threads_;
    double* got_;
    double estimate_ = NAN;
};
template <typename T>
using SerialCpuRunner = CpuRunner<T, false>;
template <typename T>
using OmpCpuRunner = CpuRunner<T, true>;

class CpuReportRunner : public CpuRunner<float, false> {
  public:
    explicit CpuReportRunner(const Plan& p) : CpuRunner<float, false>(p) {}
    void launch(cudaStream_t) override { estimate_ = static_cast<double>(pi_cpu_report(static_cast<int>(niter_))); }
};

// The factory of a runner template: its float or its double instance, by the plan's precision.
template <template <typename> class R>
std::unique_ptr<cw::Runner> make(const Plan& p) {
    if (p.is_float) return std::unique_ptr<cw::Runner>(new R<float>(p));
    return std::unique_ptr<cw::Runner>(new R<double>(p));
}
std::unique_ptr<cw::Runner> make_cpu_report(const Plan& p) {
    return std::unique_ptr<cw::Runner>(new CpuReportRunner(p));
}

// ---- What each version's row says of its run ---------------------------------------------

// A kernel's launch (--threads x blocks) and a CPU function's threads; the rest by name below.
Launch on_gpu(const char* kernel, const Plan& p, long long blocks) {
    Launch l;
    l.kernel = kernel;
    l.threads = p.threads;
    l.blocks = blocks;
    return l;
}
Launch on_cpu(const char* kernel, int cpu_threads) {
    Launch l;
    l.kernel = kernel;
    l.cpu_threads = cpu_threads;
    return l;
}
Launch describe_1(const Plan& p) {
    Launch l = on_gpu("pi_chunks_serial_block_sum", p, p.report_blocks);
    l.chunk = p.chunk;
    l.error = model_kernel1(p.niter, p.chunk, p.threads, p.report_blocks);
    return l;
}
Launch describe_2(const Plan& p) {
    Launch l = on_gpu("pi_chunks_tree_block_sum", p, p.report_blocks);
    l.chunk = p.chunk;
    l.error = model_kernel2(p.niter, p.chunk, p.threads, p.report_blocks);
    return l;
}
Launch describe_single(const Plan& p) {
    Launch l = on_gpu("pi_symmetric_tiles_single_pass", p, p.single_blocks);
    l.chunk = kTileTerms;  // terms per tile
    l.error = model_single(p.is_float, p.niter, p.threads, p.single_blocks);
    return l;
}
Launch describe_thrust(const Plan& p) {  // its own launch: threads and blocks do not apply
    Launch l;
    l.kernel = "thrust::transform_reduce";
    l.error = model_thrust(p.niter);
    return l;
}
const char* cpu_kernel(const Plan& p) { return p.is_float ? "pi_cpu_midpoint_float" : "pi_cpu_midpoint_double"; }
Launch describe_cpu(const Plan& p) {
    Launch l = on_cpu(cpu_kernel(p), 1);
    l.error = model_cpu(p.niter, 1);
    return l;
}
Launch describe_cpu_omp(const Plan& p) {
    Launch l = on_cpu(cpu_kernel(p), p.cpu_threads);
    l.error = model_cpu(p.niter, p.cpu_threads);
    return l;
}
Launch describe_cpu_report(const Plan& p) {
    Launch l = on_cpu("pi_cpu_report", 1);
    l.error = model_cpu(p.niter, 1);
    return l;
}

// Device bytes of versions 1 and 2 (the block sums) and of version single (its partial sums,
// the last-block counter and the result).
double block_sum_bytes(const Plan& p) {
    return static_cast<double>(p.report_blocks) * (p.is_float ? sizeof(float) : sizeof(double));
}
double single_bytes(const Plan& p) { return (static_cast<double>(p.single_blocks) + 2) * sizeof(double); }

// cpu_report takes what the report's function takes: float, an int NITER.
std::string cpu_report_cannot_run(const Plan& p) {
    if (!p.is_float) return "exists in float only";
    if (p.niter > INT_MAX) return "takes NITER <= " + std::to_string(INT_MAX) + " (the report's int)";
    return "";
}

}  // namespace

const std::vector<Version>& registry() {
    static const std::vector<Version> versions = {
        Version("1", "pi_chunks_serial_block_sum",
                "report's kernel 1: CHUNK terms per thread, thread 0 adds the block serially")
            .described(describe_1)
            .runs(make<Kernel1Runner>)
            .allocates(block_sum_bytes)
            .tagged("chunk")  // takes --chunk (terms per thread)
            .profiled("pi_chunks_serial_block_sum"),
        Version("2", "pi_chunks_tree_block_sum", "report's kernel 2: the same, log2(threads) halving tree")
            .described(describe_2)
            .runs(make<Kernel2Runner>)
            .allocates(block_sum_bytes)
            .tagged("chunk")
            .profiled("pi_chunks_tree_block_sum"),
        Version("single", "pi_symmetric_tiles_single_pass",
                "ours: one launch, symmetric 64-term tiles, last block finishes")
            .described(describe_single)
            .runs(make<SingleRunner>)
            .allocates(single_bytes)
            // last_block: takes --blocks, and its last block to finish adds the partials (tested at
            // 1 block, a few, more blocks than tiles); accuracy_target: meets the README's targets
            // (|error| <= 1e-6 in float, 1e-12 in double) at niter = 2^30.
            .tagged("last_block,accuracy_target")
            .profiled("pi_symmetric_tiles_single_pass"),
        Version("thrust", "thrust::transform_reduce",
                "transform_reduce over a counting iterator (kernel_ms: the whole call)")
            .baseline()
            .described(describe_thrust)
            .runs(make<ThrustRunner>)
            .timed_as("call: alloc+kernels+copy+free")
            .tagged("own_launch")  // the library picks its launch: no threads or blocks in its rows
            .profiled("DeviceReduce"),
        Version("cpu", "pi_cpu_midpoint_<T>", "the report's CPU loop, formula fixed, 1 thread")
            .cpu_function()
            .described(describe_cpu)
            .runs(make<SerialCpuRunner>)
            .fills_column("cpu"),
        Version("cpu_omp", "pi_cpu_midpoint_<T>", "the same on --cpu-threads OpenMP threads")
            .cpu_function()
            .described(describe_cpu_omp)
            .runs(make<OmpCpuRunner>)
            .fills_column("cpu_omp"),
        Version("cpu_report", "pi_cpu_report",
                "the report's CPU code as written (x = h*(i - 0.5)); float, NITER < 2^31")
            .cpu_function()
            .described(describe_cpu_report)
            .runs(make_cpu_report)
            .opt_in()
            .checked_at_offset(-0.5)
            .refuses(cpu_report_cannot_run)
            .tagged("float_only,int_niter"),  // the report's signature: float, an int NITER
    };
    return versions;
}

// A selected version that refuses one of the sizes (cpu_report: the report's int), then a run
// in which nothing can run at all (cpu_report in double): usage errors in pi's own words,
// before the run loop's (a version named by --only that runs no plan).
void refuse_unrunnable(const std::vector<Plan>& plans, const std::vector<const Version*>& chosen,
                       const std::string& selection) {
    std::string why_nothing;
    bool any = false;
    for (const Plan& p : plans)
        for (const Version* v : chosen) {
            Plan smallest = p;
            smallest.niter = 1;
            const std::string why = v->why_not(p);
            if (!why.empty() && v->why_not(smallest).empty())
                throw cw::UsageError("version " + v->label + " " + why + ", got " + std::to_string(p.niter));
            any = any || why.empty();
            if (!why.empty() && why_nothing.empty()) why_nothing = v->label + " " + why;
        }
    if (!any) throw cw::UsageError(selection + " runs nothing (" + why_nothing + ")");
}

}  // namespace pi
