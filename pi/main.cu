// pi: report 001 (an OpenCL blog article on iterative pi calculation) ported to CUDA. The
// midpoint rule for int_0^1 4/(1+x^2) dx with niter intervals: the report's kernel 1 and
// kernel 2, a single-launch version, Thrust and the CPU (one thread as in the report, and
// OpenMP), each in float and/or double, timed, checked against a compensated double
// reference, and written to CSV.
//
// The versions are declared once, in registry(); run() is the shared sequence of phases
// (common/session.cuh): options -> checks -> [--print-csv-header] -> Session (device) ->
// require_memory -> per size, precision and version: measure, validate, record -> finish().
// A run of CPU versions alone (--only=cpu,cpu_omp,cpu_report) makes no CUDA call at all: it
// uses HostRun instead of the Session, so that it works on a machine without a usable GPU.
#include <climits>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "common.cuh"
#include "pi_cpu.h"
#include "pi_kernels.cuh"
#include "pi_thrust.h"
#include "pi_tile.h"

namespace {

const char* const kProgram = "pi";
const long long kMaxNiter = 1LL << 34;

struct Config : cw::SharedOptions {
    long long niter = 1LL << 30;
    std::string sizes;
    long long chunk = 64;
    int threads = 0;      // 0: the policy's (pi::Policy)
    long long blocks = 0; // 0: version single's occupancy grid
    std::string precision = "both";
    int cpu_threads = 0;  // 0: every core
    int cpu_repeat = 1;
};

// What every version's runner gets: the options, the device, the launch choices resolved.
struct Context {
    const Config& cfg;
    const cw::DeviceInfo& dev;
    int threads;      // threads per block of the GPU versions (--threads, or the policy's)
    int cpu_threads;  // OpenMP threads of cpu_omp and of the reference
    cudaStream_t stream;
};

// One version's outcome on one (niter, precision). -1: the column does not apply.
struct Measurement {
    std::string kernel;
    long long chunk = -1, threads = -1, blocks = -1, cpu_threads = -1;
    int repeat = 0;
    double kernel_ms = NAN, total_ms = NAN;
    std::string kernel_ms_scope = "kernels";
    double estimate = NAN, tolerance = NAN;
};

// Host and device bytes a version needs for one niter, checked before anything is allocated.
struct Workspace {
    unsigned long long host = 0, device = 0;
};

using Runner = Measurement (*)(const Context&, long long niter);
using WorkspaceFn = Workspace (*)(const Context&, long long niter, bool is_float);

// A registry entry: what the version is (cw::VersionInfo), its runner in float and in double
// (nullptr: the version does not exist in that precision), its workspace, the reference it
// is checked against (the midpoint sum, offset 0.5; cpu_report: its own shifted sum), the
// largest NITER it takes, and the comparison column its time fills.
struct Version : cw::VersionInfo {
    Runner run_float = nullptr, run_double = nullptr;
    WorkspaceFn workspace = nullptr;
    double reference_offset = 0.5;
    long long max_niter = kMaxNiter;  // cpu_report: INT_MAX (the report's int niter)
    std::string cpu_column;           // "cpu", "cpu_omp": the CSV column of CPU times this version fills
    bool needs_gpu = true;            // false: runs on the host alone (no CUDA call)
    Runner runner(bool is_float) const { return is_float ? run_float : run_double; }
};

template <typename T>
constexpr bool is_float() {
    return sizeof(T) == sizeof(float);
}

// ---- version 1 and 2: the report's kernels ---------------------------------------------

// One thread per CHUNK consecutive terms, the last chunk clamped (pi_cpu.h).
long long report_blocks(const Context& c, long long niter) {
    return pi::report_kernel_blocks(niter, c.cfg.chunk, c.threads);
}

// The block sums, on the device and on the host.
Workspace report_workspace(const Context& c, long long niter, bool is_float) {
    const unsigned long long bytes =
        static_cast<unsigned long long>(report_blocks(c, niter)) * (is_float ? sizeof(float) : sizeof(double));
    return Workspace{bytes, bytes};
}

// Kernel alone (events), and kernel + copy of the block sums + host sum (steady clock).
template <int Which, typename T>
Measurement run_report_kernel(const Context& c, long long niter) {
    const Config& cfg = c.cfg;
    Measurement m;
    m.kernel = Which == 1 ? "pi_chunks_serial_block_sum" : "pi_chunks_tree_block_sum";
    m.chunk = cfg.chunk;
    m.threads = c.threads;
    m.blocks = report_blocks(c, niter);
    m.repeat = cfg.repeat;
    const double h = 1.0 / static_cast<double>(niter);
    const std::size_t nb = static_cast<std::size_t>(m.blocks);
    cw::DeviceBuffer<T> d_sums(nb);
    cw::HostBuffer<T> h_sums(nb, cfg.pinned);
    auto launch = [&](cudaStream_t s) {
        if (Which == 1)
            pi::launch_kernel1<T>(niter, cfg.chunk, h, m.blocks, c.threads, d_sums.data(), s);
        else
            pi::launch_kernel2<T>(niter, cfg.chunk, h, m.blocks, c.threads, d_sums.data(), s);
    };
    auto finish = [&]() {  // copy the block sums, add them on the host in double, times h
        CUDA_CHECK(cudaMemcpyAsync(h_sums.data(), d_sums.data(), nb * sizeof(T), cudaMemcpyDeviceToHost, c.stream));
        CUDA_CHECK(cudaStreamSynchronize(c.stream));
        double s = 0.0;
        for (std::size_t b = 0; b < nb; ++b) s += static_cast<double>(h_sums.data()[b]);
        return s * h;
    };
    m.kernel_ms = cw::time_gpu(cfg.warmup, cfg.repeat, launch, nullptr, c.stream).median_ms();
    m.total_ms = cw::time_host(cfg.warmup, cfg.repeat, [&]() {
                     launch(c.stream);
                     (void)finish();
                 }).median_ms();
    // The estimate checked is that of one more run, its block sums poisoned with NaN first, so
    // that a block that writes nothing cannot pass on an earlier run's value.
    CUDA_CHECK(cudaMemsetAsync(d_sums.data(), 0xff, nb * sizeof(T), c.stream));
    launch(c.stream);
    m.estimate = finish();
    m.tolerance = pi::error_bound(is_float<T>(), Which == 1 ? pi::model_kernel1(niter, cfg.chunk, c.threads, m.blocks)
                                                            : pi::model_kernel2(niter, cfg.chunk, c.threads, m.blocks));
    return m;
}

// ---- version single ---------------------------------------------------------------------

template <typename T>
long long single_blocks(const Context& c, long long niter) {
    return c.cfg.blocks > 0 ? c.cfg.blocks : pi::single_grid<T>(niter, c.threads, c.dev.sm_count);
}

Workspace single_workspace(const Context& c, long long niter, bool is_float) {
    const long long blocks = is_float ? single_blocks<float>(c, niter) : single_blocks<double>(c, niter);
    return Workspace{sizeof(double), (static_cast<unsigned long long>(blocks) + 2) * sizeof(double)};
}

// Kernel alone, and kernel + copy of the 8-byte result.
template <typename T>
Measurement run_single(const Context& c, long long niter) {
    const Config& cfg = c.cfg;
    Measurement m;
    m.kernel = "pi_symmetric_tiles_single_pass";
    m.chunk = pi::kTileTerms;  // terms per tile
    m.threads = c.threads;
    m.blocks = single_blocks<T>(c, niter);
    m.repeat = cfg.repeat;
    const double h = 1.0 / static_cast<double>(niter);
    cw::DeviceBuffer<double> d_partials(static_cast<std::size_t>(m.blocks));
    cw::DeviceBuffer<unsigned int> d_done(1);
    cw::DeviceBuffer<double> d_result(1);
    cw::HostBuffer<double> h_result(1, cfg.pinned);
    CUDA_CHECK(cudaMemsetAsync(d_done.data(), 0, sizeof(unsigned int), c.stream));
    auto launch = [&](cudaStream_t s) {
        pi::launch_single<T>(niter, h, m.blocks, c.threads, d_partials.data(), d_done.data(), d_result.data(), s);
    };
    auto finish = [&]() {
        CUDA_CHECK(cudaMemcpyAsync(h_result.data(), d_result.data(), sizeof(double), cudaMemcpyDeviceToHost, c.stream));
        CUDA_CHECK(cudaStreamSynchronize(c.stream));
        return h_result.data()[0];
    };
    m.kernel_ms = cw::time_gpu(cfg.warmup, cfg.repeat, launch, nullptr, c.stream).median_ms();
    m.total_ms = cw::time_host(cfg.warmup, cfg.repeat, [&]() {
                     launch(c.stream);
                     (void)finish();
                 }).median_ms();
    // The estimate checked is that of one more run after all the timed ones, its result
    // poisoned with NaN first: it passes only if the last-block counter was left at zero by
    // every earlier launch and this launch wrote the result.
    CUDA_CHECK(cudaMemsetAsync(d_result.data(), 0xff, sizeof(double), c.stream));
    launch(c.stream);
    m.estimate = finish();
    m.tolerance = pi::error_bound(is_float<T>(), pi::model_single(is_float<T>(), niter, c.threads, m.blocks));
    return m;
}

// ---- version thrust: the library baseline ------------------------------------------------

// The call returns the sum on the host, so kernel_ms (events around the call) covers its
// temporary allocation, its kernels, the copy of the result and the free; total_ms the same
// call on the steady clock. Its own launch: threads and blocks do not apply.
template <typename T>
Measurement run_thrust(const Context& c, long long niter) {
    Measurement m;
    m.kernel = "thrust::transform_reduce";
    m.kernel_ms_scope = "call: alloc+kernels+copy+free";
    m.repeat = c.cfg.repeat;
    double estimate = NAN;
    auto call = [&]() {
        estimate = is_float<T>() ? pi::pi_thrust_float(niter, c.stream) : pi::pi_thrust_double(niter, c.stream);
    };
    m.kernel_ms = cw::time_gpu(c.cfg.warmup, c.cfg.repeat, [&](cudaStream_t) { call(); }, nullptr, c.stream).median_ms();
    m.total_ms = cw::time_host(c.cfg.warmup, c.cfg.repeat, call).median_ms();
    m.estimate = estimate;
    m.tolerance = pi::error_bound(is_float<T>(), pi::model_thrust(niter));
    return m;
}

// ---- the CPU versions ------------------------------------------------------------------

Workspace no_workspace(const Context&, long long, bool) { return Workspace(); }

// The report's loop with its formula fixed, in T, on one thread (cpu, the report's setting)
// or on --cpu-threads OpenMP threads (cpu_omp). kernel_ms is the whole function.
template <bool Parallel, typename T>
Measurement run_cpu(const Context& c, long long niter) {
    Measurement m;
    const int threads = Parallel ? c.cpu_threads : 1;
    m.kernel = is_float<T>() ? "pi_cpu_midpoint_float" : "pi_cpu_midpoint_double";
    m.kernel_ms_scope = "cpu: whole function";
    m.cpu_threads = threads;
    m.repeat = c.cfg.cpu_repeat;
    double estimate = NAN;
    m.kernel_ms = cw::time_host(0, c.cfg.cpu_repeat, [&]() {
                      estimate = is_float<T>() ? static_cast<double>(pi::pi_cpu_midpoint_float(niter, threads))
                                               : pi::pi_cpu_midpoint_double(niter, threads);
                  }).median_ms();
    m.total_ms = m.kernel_ms;
    m.estimate = estimate;
    m.tolerance = pi::error_bound(is_float<T>(), pi::model_cpu(niter, threads));
    return m;
}

// The report's own CPU function (float, int niter, x = h*(i - 0.5)): checked against the
// reference of the same shifted sum (reference_offset -0.5), so that the port is shown to
// compute what the report computed.
Measurement run_cpu_report(const Context& c, long long niter) {
    Measurement m;
    m.kernel = "pi_cpu_report";
    m.kernel_ms_scope = "cpu: whole function";
    m.cpu_threads = 1;
    m.repeat = c.cfg.cpu_repeat;
    double estimate = NAN;
    m.kernel_ms = cw::time_host(0, c.cfg.cpu_repeat, [&]() {
                      estimate = static_cast<double>(pi::pi_cpu_report(static_cast<int>(niter)));
                  }).median_ms();
    m.total_ms = m.kernel_ms;
    m.estimate = estimate;
    m.tolerance = pi::error_bound(true, pi::model_cpu(niter, 1));
    return m;
}

// ---- the registry: every version, once ---------------------------------------------------

Version entry(const char* label, const char* kernel, const char* summary, Runner f, Runner d, WorkspaceFn w) {
    Version v = cw::version_entry<Version>(label, kernel, summary);
    v.run_float = f;
    v.run_double = d;
    v.workspace = w;
    return v;
}

const std::vector<Version>& registry() {
    static const std::vector<Version> versions = [] {
        std::vector<Version> r;
        r.push_back(entry("1", "pi_chunks_serial_block_sum",
                          "report's kernel 1: CHUNK terms per thread, thread 0 adds the block serially",
                          &run_report_kernel<1, float>, &run_report_kernel<1, double>, &report_workspace));
        r.push_back(entry("2", "pi_chunks_tree_block_sum", "report's kernel 2: the same, log2(threads) halving tree",
                          &run_report_kernel<2, float>, &run_report_kernel<2, double>, &report_workspace));
        r.push_back(entry("single", "pi_symmetric_tiles_single_pass",
                          "ours: one launch, symmetric 64-term tiles, last block finishes",
                          &run_single<float>, &run_single<double>, &single_workspace));
        Version thrust = entry("thrust", "thrust::transform_reduce",
                               "transform_reduce over a counting iterator (kernel_ms: the whole call)",
                               &run_thrust<float>, &run_thrust<double>, &no_workspace);
        thrust.is_baseline = true;
        r.push_back(thrust);
        Version cpu = entry("cpu", "pi_cpu_midpoint_<T>", "the report's CPU loop, formula fixed, 1 thread",
                            &run_cpu<false, float>, &run_cpu<false, double>, &no_workspace);
        cpu.cpu_column = "cpu";
        cpu.needs_gpu = false;
        r.push_back(cpu);
        Version omp = entry("cpu_omp", "pi_cpu_midpoint_<T>", "the same on --cpu-threads OpenMP threads",
                            &run_cpu<true, float>, &run_cpu<true, double>, &no_workspace);
        omp.cpu_column = "cpu_omp";
        omp.needs_gpu = false;
        r.push_back(omp);
        Version report = entry("cpu_report", "pi_cpu_report",
                               "the report's CPU code as written (x = h*(i - 0.5)); float, NITER < 2^31",
                               &run_cpu_report, nullptr, &no_workspace);
        report.by_default = false;
        report.reference_offset = -0.5;
        report.max_niter = INT_MAX;
        report.needs_gpu = false;
        r.push_back(report);
        return r;
    }();
    return versions;
}

// ---- CSV ----------------------------------------------------------------------------------

double ratio(double num, double den) { return (std::isnan(num) || std::isnan(den) || den <= 0) ? NAN : num / den; }

std::string format_ms(double ms) {
    return ms < 1.0 ? cw::format("%.2f us", ms * 1e3) : cw::format("%.3f ms", ms);
}

// One run's outcome, and the times of the same (niter, precision) it is compared with.
struct Row {
    const Version* version = nullptr;
    bool is_float = true;
    long long niter = 1;
    Measurement m;
    double reference = NAN;
    bool ok = false;
};
struct Comparisons {
    double baseline_ms = NAN, cpu_ms = NAN, cpu_omp_ms = NAN;
};

// The core columns (n is niter; bandwidth does not apply: bytes = 0, empty cells), then
// precision and abs_error, then pi's own columns. The same columns whatever the version.
cw::CsvRow csv_row(const cw::DeviceColumns& dev, const Row& r, const Comparisons& cmp) {
    const Measurement& m = r.m;
    cw::CoreRow core;
    core.assignment = kProgram;
    core.version = r.version != nullptr ? r.version->label : "";
    core.validated = r.version == nullptr || r.version->validated;
    core.is_baseline = r.version != nullptr && r.version->is_baseline;
    core.sizes = {{"n", r.niter}};
    core.threads = m.threads;
    core.blocks = m.blocks;
    core.kernel_ms = m.kernel_ms;
    core.kernel_ms_scope = m.kernel_ms_scope;
    core.bytes = 0;
    core.baseline_ms = cmp.baseline_ms;
    core.result_ok = r.ok;
    cw::CsvRow row = cw::core_row(dev, core);
    row.add("precision", r.is_float ? "float" : "double").add("abs_error", std::fabs(m.estimate - pi::kPi), 6);
    row.add("kernel", m.kernel);
    if (m.chunk >= 0) row.add("chunk", m.chunk); else row.add_na("chunk");
    if (m.cpu_threads >= 0) row.add("cpu_threads", m.cpu_threads); else row.add_na("cpu_threads");
    row.add("repeat", m.repeat)
        .add("total_ms", m.total_ms)
        .add("kernel_us", m.kernel_ms * 1e3)
        .add("total_us", m.total_ms * 1e3)
        .add("gterms_per_s", ratio(static_cast<double>(r.niter), m.kernel_ms * 1e6))
        .add("cpu_ms", cmp.cpu_ms)
        .add("speedup_vs_cpu", ratio(cmp.cpu_ms, m.kernel_ms))
        .add("cpu_omp_ms", cmp.cpu_omp_ms)
        .add("speedup_vs_cpu_omp", ratio(cmp.cpu_omp_ms, m.kernel_ms))
        .add_value("estimate", m.estimate, 17)
        .add_value("reference", r.reference, 17)
        .add("ref_error", std::fabs(m.estimate - r.reference), 6)
        .add("tolerance", m.tolerance, 6)
        .add("truncation_error", pi::midpoint_truncation_error(r.niter), 6);
    return row;
}

// ---- options ---------------------------------------------------------------------------

// The niter values of the run: --niter (or positional NITER), --sizes, or --input.
std::vector<long long> niter_list(const cw::Options& opts, const Config& cfg) {
    cw::check_excludes(opts, "sizes", {"niter"});
    if (opts.given("sizes")) return cw::parse_size_list("sizes", cfg.sizes, 1, kMaxNiter);
    if (!opts.given("input")) return {cfg.niter};
    cw::InputFile file(cfg.input, sizeof(long long));
    file.require_count(cw::kMaxSizes, "at most " + std::to_string(cw::kMaxSizes) + " sizes per run");
    std::vector<long long> sizes = file.read_all<long long>();
    for (long long n : sizes)
        if (n < 1 || n > kMaxNiter)
            throw cw::UsageError("input file '" + cfg.input + "' holds NITER " + std::to_string(n) + ", outside " +
                                 cw::range_text(1, kMaxNiter));
    return sizes;
}

// What a run of CPU versions alone needs of cw::Session (results, CSV rows, --output, the
// progress lines) without its device probe: it makes no CUDA call, so that the CPU versions
// run on a machine without a usable GPU (a cluster's login node). Its CSV rows leave the
// device columns empty. Memory: the CPU versions allocate nothing beyond the reference's.
class HostRun {
  public:
    HostRun(const std::string& csv_path, const std::string& output_path)
        : book_(kProgram), csv_(csv_path), output_path_(output_path) {
        std::printf("%s: CPU versions only: no GPU is used\n", kProgram);
    }
    cw::DeviceColumns columns() const { return cw::DeviceColumns(); }
    void require_memory(unsigned long long host_bytes, unsigned long long, const std::string& what) {
        cw::require_host_memory(host_bytes, what);
    }
    void plan(int steps) {
        steps_ = steps;
        std::printf("planned: %d runs\n", steps);
    }
    void progress(const std::string& what) { cw::progress_line(++step_, steps_, what); }
    bool record(const std::string& version, bool ok, const std::string& detail) {
        return book_.record(version, ok, detail);
    }
    void add_row(const cw::CsvRow& row) { csv_.add(row); }
    void set_output(const double* data, std::size_t n) {
        const char* p = reinterpret_cast<const char*>(data);
        output_.assign(p, p + n * sizeof(double));
    }
    // As cw::Session::finish: the CSV rows and the output only when every version passed.
    int finish() {
        book_.print_summary();
        const int status = book_.exit_status();
        if (status != cw::kExitOk) {
            if (csv_.enabled() || !output_path_.empty())
                std::printf("%s: a result was wrong: no CSV rows and no output file written\n", kProgram);
            return status;
        }
        csv_.commit();
        if (!output_path_.empty())
            cw::write_file_atomically(output_path_, "output file", std::string(), output_.data(), output_.size());
        return status;
    }

  private:
    cw::ResultBook book_;
    cw::CsvSink csv_;
    std::string output_path_;
    std::vector<char> output_;
    int steps_ = 0, step_ = 0;
};

// Steps 3 to 5 of run(), on the Session (GPU versions selected) or on a HostRun (CPU
// versions alone): the same phases, the same output and CSV rows.
template <typename RunT>
int measure_all(RunT& session, const Context& ctx, const std::vector<long long>& sizes,
                const std::vector<bool>& precisions, const std::vector<const Version*>& chosen, int runs_per_size) {
    const Config& cfg = ctx.cfg;
    // 3. Memory: the largest workspace of any run, before anything is allocated.
    Workspace need;
    for (long long niter : sizes)
        for (bool is_float : precisions)
            for (const Version* v : chosen)
                if (v->runner(is_float) != nullptr) {
                    const Workspace w = v->workspace(ctx, niter, is_float);
                    need.host = w.host > need.host ? w.host : need.host;
                    need.device = w.device > need.device ? w.device : need.device;
                }
    session.require_memory(need.host, need.device, "the largest run (kernel 1 and 2's block sums)");

    // 4. Per size: the reference; per precision and version: measure, validate, record.
    std::printf("pi: chunk=%lld threads=%d cpu_threads=%d repeat=%d warmup=%d cpu_repeat=%d\n", cfg.chunk, ctx.threads,
                ctx.cpu_threads, cfg.repeat, cfg.warmup, cfg.cpu_repeat);
    session.plan(static_cast<int>(sizes.size()) * runs_per_size);
    bool any_shifted = false;
    for (const Version* v : chosen) any_shifted = any_shifted || v->reference_offset != 0.5;
    std::vector<double> estimates;
    for (long long niter : sizes) {
        cw::HostStopwatch ref_watch;
        const double reference = pi::pi_reference(niter, ctx.cpu_threads);
        const double reference_shifted = any_shifted ? pi::pi_reference(niter, ctx.cpu_threads, -0.5) : NAN;
        std::printf("niter=%lld: reference %.17g (|ref - pi| = %.3g, h^2/12 = %.3g) in %.1f ms on %d threads\n", niter,
                    reference, std::fabs(reference - pi::kPi), pi::midpoint_truncation_error(niter),
                    ref_watch.elapsed_ms(), ctx.cpu_threads);
        for (bool is_float : precisions) {
            const char* prec = is_float ? "float" : "double";
            std::vector<Row> rows;
            for (const Version* v : chosen) {
                const Runner runner = v->runner(is_float);
                if (runner == nullptr) continue;
                Row r;
                r.version = v;
                r.is_float = is_float;
                r.niter = niter;
                r.m = runner(ctx, niter);
                if (cfg.inject_fault) r.m.estimate = NAN;
                r.reference = v->reference_offset == 0.5 ? reference : reference_shifted;
                const double err = std::fabs(r.m.estimate - r.reference);
                r.ok = err <= r.m.tolerance;  // NaN never passes
                session.progress(cw::format("niter=%lld precision=%s version=%s kernel %s total %s |err|=%.3g %s", niter,
                                            prec, v->label.c_str(), format_ms(r.m.kernel_ms).c_str(),
                                            format_ms(r.m.total_ms).c_str(), std::fabs(r.m.estimate - pi::kPi),
                                            r.ok ? "PASS" : "FAIL"));
                session.record(v->label, r.ok,
                               cw::format("precision=%s niter=%lld estimate=%.12f |est-ref|=%.3g bound=%.3g", prec, niter,
                                          r.m.estimate, err, r.m.tolerance));
                rows.push_back(r);
            }
            // Rows, with the speeds relative to Thrust and to the CPU of the same precision.
            Comparisons cmp;
            for (const Row& r : rows) {
                if (r.version->is_baseline) cmp.baseline_ms = r.m.kernel_ms;
                if (r.version->cpu_column == "cpu") cmp.cpu_ms = r.m.kernel_ms;
                if (r.version->cpu_column == "cpu_omp") cmp.cpu_omp_ms = r.m.kernel_ms;
            }
            for (const Row& r : rows) {
                estimates.push_back(r.m.estimate);
                session.add_row(csv_row(session.columns(), r, cmp));
            }
        }
    }

    // 5. CSV rows and --output only when every version passed.
    session.set_output(estimates.data(), estimates.size());
    return session.finish();
}

int run(int argc, char** argv) {
    // 1. Options, and every check of what the user gave, before any CUDA call.
    Config cfg;
    cw::Options opts(kProgram,
                     "Estimate pi = int_0^1 4/(1+x^2) dx by the midpoint rule with NITER intervals: the report's\n"
                     "kernel 1 and kernel 2 (CHUNK terms per thread), a single-launch version, Thrust and the CPU,\n"
                     "in float and/or double; every version is checked against a compensated double reference.\n"
                     "pi has no random data and reads no data file, so it takes no seed option and no data option.");
    opts.add_int("niter", &cfg.niter, 1, kMaxNiter, "number of intervals (iterations)")
        .add_string("sizes", &cfg.sizes, "NITER values run in turn instead of --niter (e.g. 2^15,2^16,1e6 or 63..65)")
        .add_int("chunk", &cfg.chunk, 1, 1LL << 20, "consecutive terms per thread in kernels 1 and 2 (the report: 64)")
        .add_int("threads", &cfg.threads, 0, 1024,
                 "threads per block of every GPU version, a power of two >= 32 (0: automatic, 256)")
        .add_int("blocks", &cfg.blocks, 0, 1LL << 20,
                 "blocks of version single (0: automatic, every SM full at its occupancy, capped by the work)")
        .add_choice("precision", &cfg.precision, {"float", "double", "both"}, "working precision of the versions")
        .add_int("cpu-threads", &cfg.cpu_threads, 0, 4096, "OpenMP threads of cpu_omp and the reference (0: all)")
        .add_int("cpu-repeat", &cfg.cpu_repeat, 1, 1000, "timed runs of each CPU version (median reported)");
    cw::SharedOptionsHelp help;
    help.csv = "append one row per (niter, precision, version) to this CSV file";
    help.input = "binary file of little-endian int64 NITER values, run in turn (instead of --niter/--sizes)";
    help.output = "write every estimate (float64, in the order of the CSV rows) to this file";
    help.inject_fault = "testing aid: replace every estimate by NaN, as a kernel that wrote nothing would "
                        "(every version must FAIL, exit 1)";
    help.has_seed = false;
    help.pinned = "page-locked host buffers for the device-to-host copies";
    cw::add_shared_options(opts, cfg, help).positional({"niter", "chunk"});
    opts.epilog(cw::versions_help(registry()) +
                "\nversion 1 and 2 launch one thread per CHUNK terms (blocks = ceil(NITER / CHUNK / threads));\n"
                "--blocks applies to version single only. cpu_report runs only when --only names it.");
    if (!opts.parse(argc, argv)) {
        std::printf("%s", opts.help_text().c_str());
        return cw::kExitOk;
    }
    if (cw::list_versions_if_asked(cfg, registry())) return cw::kExitOk;
    if (cfg.threads != 0 && (cfg.threads < 32 || !cw::is_power_of_two(cfg.threads)))
        throw cw::UsageError("option --threads=" + std::to_string(cfg.threads) +
                             " must be 0 (automatic) or a power of two from 32 to 1024 (kernel 2's halving tree)");
    const std::vector<const Version*> chosen = cw::select_versions(registry(), cfg.only, opts.given("only"));
    cw::check_input_excludes(opts, {"niter", "sizes"});
    const std::vector<long long> sizes = niter_list(opts, cfg);
    std::vector<bool> precisions;  // true: float
    if (cfg.precision != "double") precisions.push_back(true);
    if (cfg.precision != "float") precisions.push_back(false);
    int runs_per_size = 0;
    for (bool is_float : precisions)
        for (const Version* v : chosen)
            if (v->runner(is_float) != nullptr) ++runs_per_size;
    if (runs_per_size == 0)
        throw cw::UsageError("option --only=" + cfg.only + " with --precision=" + cfg.precision +
                             " runs nothing (cpu_report exists in float only)");
    for (bool is_float : precisions)
        for (const Version* v : chosen)
            if (v->runner(is_float) != nullptr)
                for (long long n : sizes)
                    if (n > v->max_niter)
                        throw cw::UsageError("version " + v->label + " takes NITER <= " + std::to_string(v->max_niter) +
                                             " (the report's int), got " + std::to_string(n));
    const std::string header = csv_row(cw::DeviceColumns(), Row(), Comparisons()).header();
    if (!cfg.csv.empty()) cw::check_csv_file(cfg.csv, header);
    if (!cfg.output.empty()) cw::check_output_path(cfg.output, "output file");
    if (cw::print_csv_header_if_asked(cfg, header)) return cw::kExitOk;

    // 2. The device (exit 3 without one), unless only CPU versions were chosen: those run
    // without any CUDA call (HostRun). pi reads no data: no copy bandwidth, no L2 flush.
    const int cpu_threads = cfg.cpu_threads > 0 ? cfg.cpu_threads : pi::cpu_max_threads();
    bool needs_gpu = false;
    for (const Version* v : chosen) needs_gpu = needs_gpu || v->needs_gpu;
    if (!needs_gpu) {
        const cw::DeviceInfo no_device{};  // empty: the CSV's device columns stay empty
        // threads: printed only (the policy has one value for every architecture)
        const int threads = cfg.threads > 0 ? cfg.threads : pi::Policy::for_device(0, 0).threads;
        const Context ctx{cfg, no_device, threads, cpu_threads, nullptr};
        HostRun host(cfg.csv, cfg.output);
        return measure_all(host, ctx, sizes, precisions, chosen, runs_per_size);
    }
    cw::Session::Settings settings;
    settings.copy_bandwidth = false;
    settings.l2_flusher = false;
    cw::Session session(kProgram, cfg.device, cfg.csv, cfg.output, settings);
    const cw::DeviceInfo& dev = session.device();
    const int threads = cfg.threads > 0 ? cfg.threads : pi::Policy::for_device(dev.cc_major, dev.cc_minor).threads;
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    const Context ctx{cfg, dev, threads, cpu_threads, stream};
    const int status = measure_all(session, ctx, sizes, precisions, chosen, runs_per_size);
    CUDA_CHECK(cudaStreamDestroy(stream));
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main(kProgram, [&]() { return run(argc, argv); });
}
