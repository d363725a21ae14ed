// pi: report 001 (OpenCL, "iterative PI calculation") ported to CUDA. The midpoint rule for
// int_0^1 4/(1+x^2) dx with niter intervals: the report's kernel 1 and kernel 2, a
// single-launch version, Thrust, and the CPU (one thread as in the report, and OpenMP),
// each in float and/or double, timed, checked against a compensated double reference, and
// written to CSV.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "common.cuh"
#include "pi_cpu.h"
#include "pi_kernels.cuh"
#include "pi_thrust.h"

namespace {

const char* const kProgram = "pi";
const long long kMaxNiter = 1LL << 34;
// cpu_report (the report's own CPU code, with its wrong formula) runs only when named in --only.
const std::vector<std::string> kVersions = {"1", "2", "single", "thrust", "cpu", "cpu_omp", "cpu_report"};

struct Config : cw::SharedOptions {
    long long niter = 1LL << 30;
    std::string niters;
    long long chunk = 64;
    int threads = 256;
    long long blocks = 0;
    std::string precision = "both";
    int cpu_threads = 0;
    int cpu_repeat = 1;
};

// One version's outcome on one (niter, precision).
struct Measurement {
    std::string version, kernel;
    long long chunk = 0;
    int threads = 0;
    long long blocks = 0;
    double kernel_ms = NAN, total_ms = NAN;
    double estimate = NAN, reference = NAN, tolerance = NAN;
    bool ok = false;
};

template <typename T>
constexpr bool is_float() {
    return sizeof(T) == sizeof(float);
}

// Kernels 1 and 2: kernel alone (events), and kernel + copy of the block sums + host sum.
template <typename T>
Measurement run_report_kernel(int which, const Config& cfg, long long niter, cudaStream_t stream) {
    Measurement m;
    m.version = which == 1 ? "1" : "2";
    m.kernel = which == 1 ? "pi_chunks_serial_block_sum" : "pi_chunks_tree_block_sum";
    m.chunk = cfg.chunk;
    m.threads = cfg.threads;
    m.blocks = pi::report_kernel_blocks(niter, cfg.chunk, cfg.threads);
    const double h = 1.0 / static_cast<double>(niter);
    const std::size_t nb = static_cast<std::size_t>(m.blocks);
    cw::require_device_memory(nb * sizeof(T), "kernel " + m.version + "'s block sums");
    cw::DeviceBuffer<T> d_sums(nb);
    cw::HostBuffer<T> h_sums(nb, cfg.pinned);
    auto launch = [&](cudaStream_t s) {
        if (which == 1)
            pi::launch_kernel1<T>(niter, cfg.chunk, h, m.blocks, cfg.threads, d_sums.data(), s);
        else
            pi::launch_kernel2<T>(niter, cfg.chunk, h, m.blocks, cfg.threads, d_sums.data(), s);
    };
    m.kernel_ms = cw::time_gpu(cfg.warmup, cfg.repeat, launch, nullptr, stream).median_ms();
    double estimate = NAN;
    m.total_ms = cw::time_host(cfg.warmup, cfg.repeat, [&]() {
                     launch(stream);
                     CUDA_CHECK(cudaMemcpyAsync(h_sums.data(), d_sums.data(), nb * sizeof(T),
                                                cudaMemcpyDeviceToHost, stream));
                     CUDA_CHECK(cudaStreamSynchronize(stream));
                     double s = 0.0;  // the host finish, in double
                     for (std::size_t b = 0; b < nb; ++b) s += static_cast<double>(h_sums.data()[b]);
                     estimate = s * h;
                 }).median_ms();
    // The estimate checked is that of one more run, its block sums poisoned with NaN first, so
    // that a block that writes nothing cannot pass on an earlier run's value.
    CUDA_CHECK(cudaMemsetAsync(d_sums.data(), 0xff, nb * sizeof(T), stream));
    launch(stream);
    CUDA_CHECK(cudaMemcpyAsync(h_sums.data(), d_sums.data(), nb * sizeof(T), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    double s = 0.0;
    for (std::size_t b = 0; b < nb; ++b) s += static_cast<double>(h_sums.data()[b]);
    m.estimate = s * h;
    (void)estimate;
    m.tolerance = pi::error_bound(is_float<T>(), which == 1 ? pi::model_kernel1(niter, cfg.chunk, cfg.threads, m.blocks)
                                                           : pi::model_kernel2(niter, cfg.chunk, cfg.threads, m.blocks));
    return m;
}

// The single-launch version: kernel alone, and kernel + copy of the 8-byte result.
template <typename T>
Measurement run_single(const Config& cfg, const cw::DeviceInfo& dev, long long niter, cudaStream_t stream) {
    Measurement m;
    m.version = "single";
    m.kernel = "pi_symmetric_tiles_single_pass";
    m.chunk = 64;  // terms per tile
    m.threads = cfg.threads;
    m.blocks = cfg.blocks > 0 ? cfg.blocks : pi::single_default_blocks<T>(niter, cfg.threads, dev.sm_count);
    const double h = 1.0 / static_cast<double>(niter);
    cw::DeviceBuffer<double> d_partials(static_cast<std::size_t>(m.blocks));
    cw::DeviceBuffer<unsigned int> d_done(1);
    cw::DeviceBuffer<double> d_result(1);
    cw::HostBuffer<double> h_result(1, cfg.pinned);
    CUDA_CHECK(cudaMemsetAsync(d_done.data(), 0, sizeof(unsigned int), stream));
    auto launch = [&](cudaStream_t s) {
        pi::launch_single<T>(niter, h, m.blocks, cfg.threads, d_partials.data(), d_done.data(), d_result.data(), s);
    };
    m.kernel_ms = cw::time_gpu(cfg.warmup, cfg.repeat, launch, nullptr, stream).median_ms();
    double estimate = NAN;
    m.total_ms = cw::time_host(cfg.warmup, cfg.repeat, [&]() {
                     launch(stream);
                     CUDA_CHECK(cudaMemcpyAsync(h_result.data(), d_result.data(), sizeof(double),
                                                cudaMemcpyDeviceToHost, stream));
                     CUDA_CHECK(cudaStreamSynchronize(stream));
                     estimate = h_result.data()[0];
                 }).median_ms();
    // The estimate checked is that of one more run after all the timed ones, its result
    // poisoned with NaN first: it passes only if the last-block counter was left at zero by
    // every earlier launch and this launch wrote the result.
    CUDA_CHECK(cudaMemsetAsync(d_result.data(), 0xff, sizeof(double), stream));
    launch(stream);
    CUDA_CHECK(cudaMemcpyAsync(h_result.data(), d_result.data(), sizeof(double), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    m.estimate = h_result.data()[0];
    (void)estimate;
    m.tolerance = pi::error_bound(is_float<T>(), pi::model_single(is_float<T>(), niter, cfg.threads, m.blocks));
    return m;
}

// Thrust: the call returns the sum on the host, so both times include its temporary
// allocation, its kernels and the copy of the result.
template <typename T>
Measurement run_thrust(const Config& cfg, long long niter, cudaStream_t stream) {
    Measurement m;
    m.version = "thrust";
    m.kernel = "thrust::transform_reduce";
    double estimate = NAN;
    auto call = [&]() {
        estimate = is_float<T>() ? pi::pi_thrust_float(niter, stream) : pi::pi_thrust_double(niter, stream);
    };
    m.kernel_ms = cw::time_gpu(cfg.warmup, cfg.repeat, [&](cudaStream_t) { call(); }, nullptr, stream).median_ms();
    m.total_ms = cw::time_host(cfg.warmup, cfg.repeat, call).median_ms();
    m.estimate = estimate;
    m.tolerance = pi::error_bound(is_float<T>(), pi::model_thrust(niter));
    return m;
}

// The CPU: the report's loop fixed, in T, on `threads` threads (1: the report's setting).
template <typename T>
Measurement run_cpu(const Config& cfg, long long niter, int threads) {
    Measurement m;
    m.version = threads == 1 ? "cpu" : "cpu_omp";
    m.kernel = is_float<T>() ? "pi_cpu_midpoint_float" : "pi_cpu_midpoint_double";
    m.threads = threads;
    double estimate = NAN;
    m.kernel_ms = cw::time_host(0, cfg.cpu_repeat, [&]() {
                      estimate = is_float<T>() ? static_cast<double>(pi::pi_cpu_midpoint_float(niter, threads))
                                               : pi::pi_cpu_midpoint_double(niter, threads);
                  }).median_ms();
    m.total_ms = m.kernel_ms;
    m.estimate = estimate;
    m.tolerance = pi::error_bound(is_float<T>(), pi::model_cpu(niter, threads));
    return m;
}

// The report's own CPU function (float, x = h*(i - 0.5)): checked against the reference of
// the same shifted sum, so that the port is shown to compute what the report computed.
Measurement run_cpu_report(const Config& cfg, long long niter) {
    Measurement m;
    m.version = "cpu_report";
    m.kernel = "pi_cpu_report";
    m.threads = 1;
    double estimate = NAN;
    m.kernel_ms = cw::time_host(0, cfg.cpu_repeat, [&]() {
                      estimate = static_cast<double>(pi::pi_cpu_report(static_cast<int>(niter)));
                  }).median_ms();
    m.total_ms = m.kernel_ms;
    m.estimate = estimate;
    m.tolerance = pi::error_bound(true, pi::model_cpu(niter, 1));
    return m;
}

double ratio(double num, double den) { return (std::isnan(num) || std::isnan(den) || den <= 0) ? NAN : num / den; }

std::string format_ms(double ms) {
    char buf[64];
    if (ms < 1.0)
        std::snprintf(buf, sizeof buf, "%.2f us", ms * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3f ms", ms);
    return buf;
}

// One CSV row; the same columns whatever the version (NaN cells are left empty).
cw::CsvRow csv_row(const cw::DeviceInfo& dev, const Config& cfg, const Measurement& m, const char* prec,
                   long long niter, int cpu_threads, double baseline_ms, double cpu_ms, double cpu_omp_ms) {
    cw::CsvRow row;
    row.add("assignment", "pi").add("version", m.version).add("kernel", m.kernel).add("precision", prec);
    dev.add_csv_columns(row);
    row.add("n", niter)
        .add("chunk", m.chunk)
        .add("threads", m.threads)
        .add("blocks", m.blocks)
        .add("cpu_threads", cpu_threads)
        .add("repeat", m.version.compare(0, 3, "cpu") == 0 ? cfg.cpu_repeat : cfg.repeat)
        .add("kernel_ms", m.kernel_ms, 6, true)
        .add("total_ms", m.total_ms, 6, true)
        .add("kernel_us", m.kernel_ms * 1e3, 6, true)
        .add("total_us", m.total_ms * 1e3, 6, true)
        .add("gterms_per_s", ratio(static_cast<double>(niter), m.kernel_ms * 1e6), 6, true)
        .add("bandwidth_GBps", 0.0)
        .add("pct_of_copy_bw", 0.0)
        .add("baseline_ms", baseline_ms, 6, true)
        .add("speedup_vs_baseline", ratio(baseline_ms, m.kernel_ms), 6, true)
        .add("cpu_ms", cpu_ms, 6, true)
        .add("speedup_vs_cpu", ratio(cpu_ms, m.kernel_ms), 6, true)
        .add("cpu_omp_ms", cpu_omp_ms, 6, true)
        .add("speedup_vs_cpu_omp", ratio(cpu_omp_ms, m.kernel_ms), 6, true)
        .add("estimate", m.estimate, 17)
        .add("abs_error", std::fabs(m.estimate - pi::kPi), 6)
        .add("reference", m.reference, 17)
        .add("ref_error", std::fabs(m.estimate - m.reference), 6)
        .add("tolerance", m.tolerance, 6)
        .add("truncation_error", pi::midpoint_truncation_error(niter), 6)
        .add("result_ok", m.ok);
    return row;
}

std::vector<long long> parse_niter_list(const std::string& text) {
    std::vector<long long> out;
    for (const std::string& item : cw::split_list(text)) out.push_back(cw::parse_integer("niters", item, 1, kMaxNiter));
    if (out.empty()) throw cw::UsageError("option --niters needs at least one value");
    return out;
}

int run(int argc, char** argv) {
    Config cfg;
    cw::Options opts(kProgram,
                     "Estimate pi = int_0^1 4/(1+x^2) dx by the midpoint rule with NITER intervals: the report's\n"
                     "kernel 1 and kernel 2 (CHUNK terms per thread), a single-launch version, Thrust and the CPU,\n"
                     "in float and/or double; every version is checked against a compensated double reference.\n"
                     "Versions (--only): 1, 2, single, thrust, cpu, cpu_omp, and cpu_report (the report's CPU code\n"
                     "with its x = h*(i - 0.5); it runs only when --only names it, in float, NITER < 2^31).");
    opts.add_int("niter", &cfg.niter, 1, kMaxNiter, "number of intervals (iterations); 2^30 and 1e6 forms accepted")
        .add_string("niters", &cfg.niters, "comma-separated list of NITER values, run in turn (instead of --niter)")
        .add_int("chunk", &cfg.chunk, 1, 1LL << 20, "consecutive terms per thread in kernels 1 and 2 (the report: 64)")
        .add_int("threads", &cfg.threads, 32, 1024, "threads per block of every GPU version (a power of two)")
        .add_int("blocks", &cfg.blocks, 0, 1LL << 20, "blocks of version single (0: fill the GPU at full occupancy)")
        .add_choice("precision", &cfg.precision, {"float", "double", "both"}, "working precision of the versions")
        .add_int("cpu-threads", &cfg.cpu_threads, 0, 4096, "OpenMP threads of cpu_omp and the reference (0: all)")
        .add_int("cpu-repeat", &cfg.cpu_repeat, 1, 1000, "timed runs of each CPU version (median reported)");
    cw::SharedOptionsHelp help{"append one row per (niter, precision, version) to this CSV file",
                               "binary file of little-endian int64 NITER values, run in turn",
                               "write every estimate (float64, in the order of the rows) to this file",
                               "comma-separated versions to run (default: all but cpu_report)"};
    help.repeat = "timed runs of each GPU version (median reported)";
    help.seed = "unused by pi (its integrand has no random data); kept for uniformity";
    help.pinned = "page-locked host buffers for the device-to-host copies";
    cw::add_shared_options(opts, cfg, help).positional({"niter", "chunk"});
    opts.parse_or_exit(argc, argv);

    // Everything the user gave is checked here, before any CUDA call.
    if ((cfg.threads & (cfg.threads - 1)) != 0)
        throw cw::UsageError("option --threads=" + std::to_string(cfg.threads) +
                             " must be a power of two (kernel 2's halving tree)");
    const cw::VersionFilter filter(cfg.only, kVersions);
    auto wants = [&](const std::string& v) { return v == "cpu_report" ? opts.given("only") && filter.wants(v) : filter.wants(v); };
    int given_sizes = (opts.given("niter") ? 1 : 0) + (opts.given("niters") ? 1 : 0) + (opts.given("input") ? 1 : 0);
    if (given_sizes > 1) throw cw::UsageError("give only one of --niter, --niters and --input");
    std::vector<long long> sizes{cfg.niter};
    if (opts.given("niters")) sizes = parse_niter_list(cfg.niters);
    if (opts.given("input")) {
        sizes = cw::read_binary<long long>(cfg.input);
        for (long long n : sizes)
            if (n < 1 || n > kMaxNiter)
                throw cw::UsageError("input file '" + cfg.input + "' holds NITER " + std::to_string(n) +
                                     ", outside [1, " + std::to_string(kMaxNiter) + "]");
    }
    if (wants("cpu_report") && cfg.precision != "double")
        for (long long n : sizes)
            if (n > INT_MAX)
                throw cw::UsageError("version cpu_report takes an int NITER (the report's code): " + std::to_string(n) +
                                     " > " + std::to_string(INT_MAX));
    if (!cfg.csv.empty())
        cw::check_csv_file(cfg.csv, csv_row(cw::DeviceInfo(), cfg, Measurement(), "float", 1, 1, NAN, NAN, NAN).header());
    if (!cfg.output.empty()) cw::check_writable(cfg.output);
    const int cpu_threads = cfg.cpu_threads > 0 ? cfg.cpu_threads : pi::cpu_max_threads();
    std::vector<bool> precisions;  // true: float
    if (cfg.precision != "double") precisions.push_back(true);
    if (cfg.precision != "float") precisions.push_back(false);

    const cw::DeviceInfo dev = cw::select_device(cfg.device);
    std::printf("%s\n", dev.describe().c_str());
    std::printf("pi: chunk=%lld threads=%d cpu_threads=%d repeat=%d warmup=%d cpu_repeat=%d\n", cfg.chunk,
                cfg.threads, cpu_threads, cfg.repeat, cfg.warmup, cfg.cpu_repeat);
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));

    int total_steps = 0;
    for (std::size_t p = 0; p < precisions.size(); ++p)
        for (const std::string& v : kVersions)
            if (wants(v) && !(v == "cpu_report" && !precisions[p])) ++total_steps;
    total_steps *= static_cast<int>(sizes.size());

    cw::ResultBook book(kProgram);
    std::vector<double> estimates;
    int step = 0;
    for (long long niter : sizes) {
        cw::HostStopwatch ref_watch;
        const double reference = pi::pi_reference(niter, cpu_threads);
        const double reference_shifted = wants("cpu_report") ? pi::pi_reference(niter, cpu_threads, -0.5) : NAN;
        std::printf("niter=%lld: reference %.17g (|ref - pi| = %.3g, h^2/12 = %.3g) in %.1f ms on %d threads\n",
                    niter, reference, std::fabs(reference - pi::kPi), pi::midpoint_truncation_error(niter),
                    ref_watch.elapsed_ms(), cpu_threads);
        for (bool single_precision : precisions) {
            const char* prec = single_precision ? "float" : "double";
            std::vector<Measurement> ms;
            for (const std::string& v : kVersions) {
                if (!wants(v) || (v == "cpu_report" && !single_precision)) continue;
                Measurement m;
                if (v == "1" || v == "2")
                    m = single_precision ? run_report_kernel<float>(v == "1" ? 1 : 2, cfg, niter, stream)
                                         : run_report_kernel<double>(v == "1" ? 1 : 2, cfg, niter, stream);
                else if (v == "single")
                    m = single_precision ? run_single<float>(cfg, dev, niter, stream)
                                         : run_single<double>(cfg, dev, niter, stream);
                else if (v == "thrust")
                    m = single_precision ? run_thrust<float>(cfg, niter, stream) : run_thrust<double>(cfg, niter, stream);
                else if (v == "cpu" || v == "cpu_omp")
                    m = single_precision ? run_cpu<float>(cfg, niter, v == "cpu" ? 1 : cpu_threads)
                                         : run_cpu<double>(cfg, niter, v == "cpu" ? 1 : cpu_threads);
                else
                    m = run_cpu_report(cfg, niter);
                m.reference = v == "cpu_report" ? reference_shifted : reference;
                const double err = std::fabs(m.estimate - m.reference);
                m.ok = err <= m.tolerance;  // NaN never passes
                char detail[512];
                std::snprintf(detail, sizeof detail, "precision=%s niter=%lld estimate=%.12f |est-ref|=%.3g bound=%.3g",
                              prec, niter, m.estimate, err, m.tolerance);
                char line[512];
                std::snprintf(line, sizeof line, "niter=%lld precision=%s version=%s kernel %s total %s |err|=%.3g %s",
                              niter, prec, v.c_str(), format_ms(m.kernel_ms).c_str(), format_ms(m.total_ms).c_str(),
                              std::fabs(m.estimate - pi::kPi), m.ok ? "PASS" : "FAIL");
                cw::progress_line(++step, total_steps, line);
                book.record(v, m.ok, detail);
                ms.push_back(m);
            }
            // Rows, with the speeds relative to Thrust and to the CPU of the same precision.
            double baseline_ms = NAN, cpu_ms = NAN, cpu_omp_ms = NAN;
            for (const Measurement& m : ms) {
                if (m.version == "thrust") baseline_ms = m.kernel_ms;
                if (m.version == "cpu") cpu_ms = m.kernel_ms;
                if (m.version == "cpu_omp") cpu_omp_ms = m.kernel_ms;
            }
            for (const Measurement& m : ms) {
                estimates.push_back(m.estimate);
                if (!cfg.csv.empty())
                    cw::csv_append(cfg.csv, csv_row(dev, cfg, m, prec, niter, cpu_threads, baseline_ms, cpu_ms, cpu_omp_ms));
            }
        }
    }
    CUDA_CHECK(cudaStreamDestroy(stream));
    if (!cfg.output.empty()) cw::write_binary(cfg.output, estimates.data(), estimates.size());
    std::printf("%d of %d version runs passed\n", book.checked() - book.failed(), book.checked());
    return book.exit_status();
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main(kProgram, [&]() { return run(argc, argv); });
}
