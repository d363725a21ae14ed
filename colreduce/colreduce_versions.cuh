// colreduce's registry: what one run of a version needs (Plan), the runner every version
// shares (Runner: the report's GPU entry point cut into the run loop's steps) and the versions
// themselves (registry(), colreduce_versions.cu), read by the shared run loop
// (common/run_loop.cuh).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common.cuh"
#include "run_loop.cuh"

namespace colreduce {

// The timed series of a version: `warmup` untimed runs, then `repeat` timed ones.
struct Series {
    int warmup = 0;
    int repeat = 1;
};

class Cublas;  // cuBLAS opened for the run (colreduce_cublas.cu)

// One point of the run, a shape (m, n), with every launch choice resolved once the device is
// known, and where the host matrix and the fetched column sums live.
struct Plan {
    long long m = 0;
    int n = 0;
    int index = 0;               // its place in the run's list of shapes (the CSV's config_index)
    Series series, slow_series;  // --repeat/--warmup; the report's slow versions' (--slow-repeat)
    bool pinned = false;         // page-locked host matrix
    int tall_threads = 0;        // tall and tall_det's block (kTallPolicy or --threads)
    int tall_blocks = 0, tall_det_blocks = 0;  // their grids (one wave or --blocks)
    const Cublas* cublas = nullptr;            // version=cublas's library
    std::string cublas_unavailable;            // why version=cublas cannot run ("" when it can)
    const double* h_mat = nullptr;             // the matrix (host, m x n)
    double* got = nullptr;                     // fetch() puts the n column sums here (host)
    std::string text() const { return "m=" + std::to_string(m) + " n=" + std::to_string(n); }  // in result lines
};

// A version's runner for one plan, started, with the version's series (make_runner below).
using Factory = std::unique_ptr<cw::Runner> (*)(const Plan&, const Series&);

// One registry entry: what the run loop's Version says, and colreduce's own series and check.
struct Version : cw::Version<Plan, Version> {
    using Base = cw::Version<Plan, Version>;
    using Base::Base;
    bool slow = false;                // one of the report's slow versions: timed --slow-repeat times
    bool bitwise_repeatable = false;  // no atomics: the first and last timed runs must agree bit for bit
    const Series& series(const Plan& p) const { return slow ? p.slow_series : p.series; }

    // Its runner, timed --repeat times after --warmup runs.
    Version& starts(colreduce::Factory factory) {
        return runs([factory](const Plan& p) { return factory(p, p.series); });
    }
    // One of the report's slow versions: timed --slow-repeat times after at most one warm-up
    // (marked so in --help).
    Version& starts_slowly(colreduce::Factory factory) {
        slow = true;
        summary += " [slow: --slow-repeat]";
        return runs([factory](const Plan& p) { return factory(p, p.slow_series); });
    }
    Version& repeatable() { return set(bitwise_repeatable, true); }
};

// The report's split of one version's GPU time (host-timed, steady clock; the kernel's time
// is the run loop's series) and what the version launched.
struct GpuRun {
    double alloc_ms = NAN;  // cudaMalloc of matrix, result and workspace (+ the version's setup)
    double h2d_ms = NAN;    // matrix and zero result vector to the device
    double d2h_ms = NAN;    // result back to the host
    double free_ms = NAN;   // cudaFree of everything
    int repeatable = -1;    // 1: first and last timed runs bitwise equal, 0: not, -1: one timed run only
    dim3 grid = dim3(0, 0, 0), block = dim3(0, 0, 0);  // 0 x 0 x 0: chosen by a library
    cudaError_t launch_error = cudaSuccess;  // the first launch error a demonstration did not stop on

    double total_ms(double kernel_ms) const { return alloc_ms + h2d_ms + kernel_ms + d2h_ms + free_ms; }
    // "8x128x1"; empty for a library's own launch.
    static std::string text(const dim3& d) {
        return d.x == 0 ? std::string() : std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
    }
    static long long volume(const dim3& d) { return static_cast<long long>(d.x) * d.y * d.z; }
    // "cudaSuccess" without the runtime (the CSV header's row is made before any CUDA call).
    std::string error_name() const {
        return launch_error == cudaSuccess ? "cudaSuccess" : cudaGetErrorName(launch_error);
    }
    // The report's lines of a version's run: its launch, the kernel's time and the split.
    void print(const Version& v, double kernel_ms, int max_threads_per_block) const;
};

// The launch choices of a plan that depend on the device: tall and tall_det's block (--threads,
// 0: kTallPolicy's) and grids (--blocks, 0: one wave).
void choose_launches(Plan& p, const cw::DeviceInfo& device, int threads, int blocks);

// The first CUDA calls of the process, host-timed: driver initialisation and the creation of
// the device's primary context. NaN when the calls fail (the device probe then says why).
double context_creation_ms(int device);

// What every version's runner shares: the report's GPU entry point (gpu_mat_column_reduce)
// cut into the run loop's steps, each host-timed into a GpuRun. The factory calls start():
// allocate the matrix, the result and the version's workspace (setup()), copy the matrix and
// a zero result in. The loop then poisons the result, runs the series (reset() keeps the
// first timed run's result) and fetches it (fetch(): copy out, compare bit for bit with that
// first timed run); finish() frees and returns the split (a runner of --vary-input keeps its
// device state from one new input to the next: input_changed()).
class Runner : public cw::Runner {
  public:
    Runner(const Plan& p, const Series& series) : p_(p), first_timed_(series.warmup + 1) {}
    ~Runner() override;
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;
    void start();
    void poison(cudaStream_t stream) override;
    void reset(cudaStream_t stream) override;
    void fetch(cudaStream_t stream) override;
    void input_changed(cudaStream_t stream) override;
    GpuRun finish();

  protected:
    virtual void setup() {}     // the workspace and launch shape (counted as allocation)
    virtual void teardown() {}  // frees the workspace (counted as free)
    virtual cudaError_t launch_error() const { return cudaSuccess; }
    void zero_result(cudaStream_t stream);
    std::size_t result_bytes() const { return static_cast<std::size_t>(p_.n) * sizeof(double); }

    const Plan p_;
    double* mat_ = nullptr;  // device, m x n
    double* vec_ = nullptr;  // device, n
    dim3 grid_ = dim3(0, 0, 0), block_ = dim3(0, 0, 0);

  private:
    int first_timed_;  // the first timed run is the series' run number first_timed_ (from 1)
    int resets_ = 0;
    std::vector<double> first_;  // its result, when the series has a second timed run
    bool varied_ = false;        // --vary-input changed the matrix: no result is compared with first_,
                                 // finish() frees nothing
    GpuRun run_;
};

template <typename R>
std::unique_ptr<cw::Runner> make_runner(const Plan& p, const Series& series) {
    R* runner = new R(p, series);
    std::unique_ptr<cw::Runner> owner(runner);
    runner->start();
    return owner;
}

// cuBLAS for version=cublas at every plan, opened once the device is known (cublasCreate).
// When the version was selected (`required`), a failure ends the program like a CUDA error
// (exit 3); otherwise a line says why and every plan's cublas_unavailable: the baseline, left
// out by --only, does not run and no row has baseline_ms.
struct CublasDeleter {
    void operator()(Cublas* cublas) const;
};
std::unique_ptr<Cublas, CublasDeleter> open_cublas(std::vector<Plan>& plans, bool required);
// version=cublas's factory (colreduce_cublas.cu).
std::unique_ptr<cw::Runner> make_cublas_runner(const Plan& p, const Series& series);

// The versions, in the order they run and appear in the CSV (original, high1, high2,
// high2_const, block_per_column, tall, tall_det, cublas; then the demonstration
// block_per_column_over_limit, which runs only when --only names it).
const std::vector<Version>& registry();
// The labels of the report's slow versions, comma-separated ("original, high1, ...").
std::string slow_labels();

}  // namespace colreduce
