// scan: report 002's prefix sums (Hillis & Steele, the "map" scan, Brent-Kung with
// arbitrary size) reproduced with their failures shown, a single-pass decoupled look-back
// scan, and cub::DeviceScan as the baseline. int32 data, two's-complement wrap-around.
//
// Every validated version is checked against the CPU reference on every run (exact
// equality); the racy demonstrations (the report's own kernels: opt-in, named by --only) are
// measured (MSE, wrong runs) but never counted.
// The versions and everything the driver knows about them come from the registry
// (scan_versions.cu); run() is the shared sequence of phases (common/session.cuh).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common.cuh"
#include "scan_cpu.h"
#include "scan_kernels.cuh"
#include "scan_plan.h"
#include "scan_policy.h"
#include "scan_versions.cuh"

namespace {

constexpr const char* kProgram = "scan";
constexpr int kDefaultThreads = 1024;  // the report's BLOCK_SIZE: what --threads=0 chooses

using scan_versions::Version;

struct Config : cw::SharedOptions {
    long long n = 1250000;
    std::string sizes;
    std::string mode = "both";
    std::string data = "random";
    int threads = kDefaultThreads;
    int per_thread = 8;
    int runs = 5;
    std::string lb_items = "auto";
    std::string l2 = "flush";
};

// What one version measured at one (size, mode).
struct Measurement {
    std::vector<scan_gpu::KernelLaunch> launches;
    cw::Timing timing;
    bool ok = false;
    std::size_t mismatches = 0, first_mismatch = 0;
    int runs = 1, wrong_runs = 0;
    double mse = 0, mse_max = 0, sse = 0;
    double serial_ms = NAN;  // the serial part of the last timed run (map_as_printed), else NaN
};

struct SizeContext {
    long long n = 0;
    std::string mode;
    double cpu_ms = 0, h2d_ms = 0, d2h_ms = 0;
    double baseline_ms = NAN;
};

void add_launch_columns(cw::CsvRow& row, const std::vector<scan_gpu::KernelLaunch>& launches, int sm_count) {
    for (int k = 0; k < 3; ++k) {
        const std::string p = "k" + std::to_string(k + 1) + "_";
        if (k < static_cast<int>(launches.size())) {
            const scan_gpu::KernelLaunch& l = launches[k];
            const double per_wave = static_cast<double>(l.blocks_per_sm) * sm_count;
            row.add(p + "name", l.name)
                .add(p + "grid", l.grid)
                .add(p + "block", l.block)
                .add(p + "regs", l.regs)
                .add(p + "smem_bytes", static_cast<long long>(l.smem_bytes))
                .add(p + "blocks_per_sm", l.blocks_per_sm)
                .add(p + "occupancy", l.occupancy, 4)
                .add(p + "waves", per_wave > 0 ? static_cast<double>(l.grid) / per_wave : NAN, 4);
        } else {
            for (const char* c : {"name", "grid", "block", "regs", "smem_bytes", "blocks_per_sm", "occupancy", "waves"})
                row.add_na(p + c);
        }
    }
}

// One CSV row: the core columns, then scan's own (mode, data, CPU and copy times, the
// traffic model, the error measures of the racy demonstrations, the launches).
cw::CsvRow make_row(const Config& cfg, const scan_versions::Params& params, const cw::DeviceColumns& dev,
                    int sm_count, double copy_bw, const SizeContext& sc, const Version& v, const Measurement& m) {
    const double ms = m.timing.samples_ms.empty() ? NAN : m.timing.median_ms();
    const double model = v.model_bytes(static_cast<std::size_t>(sc.n), params);
    cw::CoreRow core;
    core.assignment = "scan";
    core.version = v.label;
    core.validated = v.validated;
    core.is_baseline = v.is_baseline;
    core.sizes = {{"n", sc.n}};
    if (!m.launches.empty()) {
        core.threads = m.launches[0].block;
        core.blocks = m.launches[0].grid;
    }
    core.kernel_ms = ms;
    core.bytes = 8.0 * static_cast<double>(sc.n);  // n int32 read + n written
    core.copy_bw_GBps = copy_bw;
    core.baseline_ms = sc.baseline_ms;
    core.result_ok = m.ok;
    cw::CsvRow row = cw::core_row(dev, core);
    const int items = v.items_per_thread(params);
    row.add("mode", sc.mode)
        .add("data", cfg.input.empty() ? cfg.data : std::string("file"))
        .add("seed", cfg.seed);
    if (items > 0) row.add("per_thread", items); else row.add_na("per_thread");
    row.add("l2", cfg.l2)
        .add("repeat", cfg.repeat)
        .add("warmup", cfg.warmup)
        .add("kernel_min_ms", m.timing.samples_ms.empty() ? NAN : m.timing.min_ms())
        .add("copy_bw_GBps", copy_bw)
        .add("model_bytes", model, 8)
        .add("model_GBps", ms > 0 ? model / (ms * 1.0e6) : NAN)
        .add("additions", v.additions(static_cast<std::size_t>(sc.n > 0 ? sc.n : 1), params), 12)
        .add("cpu_ms", sc.cpu_ms)
        .add("speedup_vs_cpu", ms > 0 ? sc.cpu_ms / ms : NAN, 4)
        .add("h2d_ms", sc.h2d_ms)
        .add("d2h_ms", sc.d2h_ms)
        .add("total_ms", sc.h2d_ms + ms + sc.d2h_ms)
        .add("mismatches", static_cast<long long>(m.mismatches));
    if (m.mismatches > 0) row.add("first_mismatch", static_cast<long long>(m.first_mismatch));
    else row.add_na("first_mismatch");
    row.add("runs", m.runs)
        .add("wrong_runs", m.wrong_runs)
        .add("mse", m.mse, 8)
        .add("mse_max", m.mse_max, 8)
        .add("sse", m.sse, 12)
        .add("serial_ms", m.serial_ms, 6);
    add_launch_columns(row, m.launches, sm_count);
    return row;
}

// The CSV header (the columns do not depend on the values of a row).
std::string csv_header(const Config& cfg, const scan_versions::Params& params) {
    SizeContext sc;
    sc.mode = "inclusive";
    return make_row(cfg, params, cw::DeviceColumns(), 0, NAN, sc, scan_versions::registry().front(), Measurement())
        .header();
}

// One timed series of a version: `warmup` untimed runs, then `repeat` timed ones (median
// reported), the L2 flushed before each when a flusher is given. An in-place version gets
// a fresh copy of the input in `out` before every run, outside the timed interval.
cw::Timing time_version(scan_gpu::Runner& runner, const unsigned* in, unsigned* out, std::size_t n, bool exclusive,
                        int warmup, int repeat, cw::L2Flusher* flusher, cudaStream_t stream) {
    if (!runner.in_place())
        return cw::time_gpu(
            warmup, repeat, [&](cudaStream_t s) { runner.run(in, out, n, exclusive, s); }, flusher, stream);
    const std::size_t bytes = n * sizeof(unsigned);
    for (int i = 0; i < warmup; ++i) {
        CUDA_CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, stream));
        runner.run(in, out, n, exclusive, stream);
    }
    cw::GpuTimer timer;
    cw::Timing t;
    for (int i = 0; i < repeat; ++i) {
        CUDA_CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, stream));
        if (flusher != nullptr) flusher->flush(stream);
        timer.start(stream);
        runner.run(in, out, n, exclusive, stream);
        t.samples_ms.push_back(timer.stop(stream));
    }
    return t;
}

int run(int argc, char** argv) {
    Config cfg;
    const std::vector<Version>& registry = scan_versions::registry();

    // ---- 1. options and input, checked before any CUDA call (exit 2) ----
    cw::Options opts(kProgram,
                     "Prefix sums (scan) of int32 with two's-complement wrap-around: report 002's Hillis-Steele,\n"
                     "map and Brent-Kung scans, a decoupled look-back scan and cub::DeviceScan, each validated\n"
                     "against the CPU (exactly). The racy demonstrations are the report's own kernels: they run\n"
                     "only when --only names them, shown (MSE over --runs runs), never counted as PASS/FAIL.");
    opts.add_int("n", &cfg.n, 1, scan_plan::kMaxN, "number of int32 elements")
        .add_string("sizes", &cfg.sizes,
                    "several sizes in one run, instead of --n: comma list of N, A..B ranges, 2^k, 1e6")
        .add_choice("mode", &cfg.mode, {"inclusive", "exclusive", "both"}, "which scan (racy versions: inclusive only)")
        .add_choice("data", &cfg.data, scan_plan::data_patterns(),
                    "input: random [-1000,1000], full int32 range (wraps), negative, extreme, iota 1,2,3,...")
        .add_int("threads", &cfg.threads, 0, 1024,
                 "block size of the report's versions, a power of two >= 32; 0: automatic = 1024, the report's "
                 "BLOCK_SIZE (lookback: its tuning policy; cub: its own)")
        .add_int("per-thread", &cfg.per_thread, 2, 1024, "elements per thread of the map scan (NUM_OF_ADDS_PER_THREAD)")
        .add_int("runs", &cfg.runs, 1, 10000, "runs of each racy demonstration (its error changes from run to run)")
        .add_choice("lb-items", &cfg.lb_items, {"auto", "16", "32"},
                    "ints per thread of lookback (auto: its tuning policy chooses for the device)")
        .add_choice("l2", &cfg.l2, {"flush", "keep"}, "flush the L2 cache before every timed run, or keep it warm");
    cw::SharedOptionsHelp help;
    help.csv = "append one row per (size, mode, version) to this CSV file";
    help.input = "read the input from this file (raw little-endian int32; n = its length)";
    help.output = "write the result of the first validated version to this file (raw int32; with --mode=both, "
                  "its inclusive scan)";
    help.seed = "seed of the random input";
    cw::add_shared_options(opts, cfg, help).positional({"n"});
    opts.epilog(cw::versions_help(registry));
    if (!opts.parse(argc, argv)) {
        std::fputs(opts.help_text().c_str(), stdout);
        return cw::kExitOk;
    }

    if (cw::list_versions_if_asked(cfg, registry)) return cw::kExitOk;
    scan_versions::Params params;
    if (cfg.threads != 0 && (cfg.threads < 32 || !cw::is_power_of_two(cfg.threads)))
        throw cw::UsageError("option --threads=" + std::to_string(cfg.threads) +
                             " is out of range: 0 (automatic) or a power of two in [32, 1024]");
    params.threads = cfg.threads == 0 ? kDefaultThreads : cfg.threads;
    params.per_thread = cfg.per_thread;
    const int forced_items = cfg.lb_items == "auto" ? 0 : (cfg.lb_items == "32" ? 32 : 16);

    cw::check_input_excludes(opts, {"n", "sizes"});
    cw::check_excludes(opts, "sizes", {"n"});
    std::vector<long long> sizes;
    std::unique_ptr<cw::InputFile> input;
    if (!cfg.input.empty()) {
        input.reset(new cw::InputFile(cfg.input, sizeof(std::int32_t)));
        input->require_count(static_cast<unsigned long long>(scan_plan::kMaxN), "the largest n scan accepts");
        sizes.push_back(static_cast<long long>(input->count()));
    } else if (opts.given("sizes")) {
        sizes = cw::parse_size_list("sizes", cfg.sizes, 1, scan_plan::kMaxN);
    } else {
        sizes.push_back(cfg.n);
    }
    const std::vector<const Version*> chosen = cw::select_versions(registry, cfg.only, opts.given("only"));
    std::vector<std::string> modes;
    if (cfg.mode != "exclusive") modes.push_back("inclusive");
    if (cfg.mode != "inclusive") modes.push_back("exclusive");

    // The plan: every (size, mode, version) that can run. A version that cannot run a size
    // skips it with a note; one named by --only that can run none of the sizes is a usage
    // error.
    int planned = 0;
    const Version* output_version = nullptr;
    for (const Version* v : chosen) {
        std::string why_not;
        int runnable = 0;
        for (long long n : sizes) {
            const std::string why = v->cannot_run(n, params);
            if (!why.empty()) {
                if (why_not.empty()) why_not = "n=" + std::to_string(n) + ": " + why;
                continue;
            }
            ++runnable;
            for (const std::string& mode : modes) {
                if (mode == "exclusive" && !v->has_exclusive) continue;
                ++planned;
                if (v->validated && output_version == nullptr) output_version = v;
            }
        }
        if (opts.given("only") && runnable == 0) throw cw::UsageError("version " + v->label + " cannot run " + why_not);
    }
    if (planned == 0)
        throw cw::UsageError("nothing to run: the racy versions scan inclusively only (--mode=inclusive or both)");
    if (!cfg.output.empty()) {
        cw::check_output_path(cfg.output, "output file");
        if (sizes.size() != 1) throw cw::UsageError("option --output needs a single size (not --sizes)");
        if (output_version == nullptr)
            throw cw::UsageError("option --output needs a validated version (the racy ones are not)");
    }
    const std::string header = csv_header(cfg, params);
    if (!cfg.csv.empty()) cw::check_csv_file(cfg.csv, header);
    if (cw::print_csv_header_if_asked(cfg, header)) return cw::kExitOk;

    // ---- 2. the device (exit 3 without one), the look-back policy for it ----
    cw::Session::Settings settings;
    settings.l2_flusher = cfg.l2 == "flush";
    cw::Session session(kProgram, cfg.device, cfg.csv, cfg.output, settings);
    params.lookback = scan_policy::LookbackPolicy::for_current_device(forced_items);
    std::printf("lookback tuning policy: %d threads x %d ints per tile (%s)\n", params.lookback.threads,
                params.lookback.items, params.lookback.forced ? "--lb-items" : "chosen for this device");

    // ---- 3. memory, before any buffer is allocated or filled (exit 2 if it cannot fit) ----
    const long long max_n = *std::max_element(sizes.begin(), sizes.end());
    const std::size_t nmax = static_cast<std::size_t>(max_n);
    const double elem_bytes = 4.0 * static_cast<double>(nmax);
    double device_bytes = 2.0 * elem_bytes + 64.0 * (1 << 20);  // input, output, slack
    for (const Version* v : chosen) device_bytes += v->workspace_bytes(nmax, params);
    session.require_memory(static_cast<unsigned long long>(elem_bytes * (2.0 + static_cast<double>(modes.size()))),
                           static_cast<unsigned long long>(device_bytes), "n=" + std::to_string(max_n));

    // ---- 4. data and workspaces ----
    cw::DeviceBuffer<unsigned> d_in(nmax), d_out(nmax);
    std::vector<std::unique_ptr<scan_gpu::Runner>> runners;
    for (const Version* v : chosen) runners.push_back(v->make(nmax, params));

    cw::HostBuffer<std::int32_t> h_in(nmax, cfg.pinned), h_out(nmax, cfg.pinned);
    std::vector<std::int32_t> ref_incl, ref_excl;
    if (cfg.mode != "exclusive") ref_incl.resize(nmax);
    if (cfg.mode != "inclusive") ref_excl.resize(nmax);
    const bool stable = input != nullptr || scan_plan::pattern_is_prefix_stable(cfg.data);
    if (input != nullptr)
        input->read_into(h_in.data());
    else if (stable)
        scan_plan::fill_pattern(cfg.data, h_in.data(), nmax, static_cast<std::uint64_t>(cfg.seed));

    // ---- 5. every (size, mode, version) of the plan ----
    session.plan(planned);
    const cudaStream_t stream = 0;
    for (const long long n : sizes) {
        const std::size_t un = static_cast<std::size_t>(n);
        const std::size_t bytes = un * sizeof(std::int32_t);
        if (!stable) scan_plan::fill_pattern(cfg.data, h_in.data(), un, static_cast<std::uint64_t>(cfg.seed));

        // CPU reference, timed once per size and mode.
        double cpu_incl_ms = 0, cpu_excl_ms = 0;
        if (!ref_incl.empty()) {
            cw::HostStopwatch w;
            scan_cpu::inclusive_scan(h_in.data(), ref_incl.data(), un);
            cpu_incl_ms = w.elapsed_ms();
        }
        if (!ref_excl.empty()) {
            cw::HostStopwatch w;
            scan_cpu::exclusive_scan(h_in.data(), ref_excl.data(), un);
            cpu_excl_ms = w.elapsed_ms();
        }
        // Host-device copies, timed once per size (the same for every version).
        double h2d_ms = 0, d2h_ms = 0;
        {
            cw::GpuTimer t;
            t.start(stream);
            CUDA_CHECK(cudaMemcpyAsync(d_in.data(), h_in.data(), bytes, cudaMemcpyHostToDevice, stream));
            h2d_ms = t.stop(stream);
            t.start(stream);
            CUDA_CHECK(cudaMemcpyAsync(h_out.data(), d_in.data(), bytes, cudaMemcpyDeviceToHost, stream));
            d2h_ms = t.stop(stream);
        }
        for (const Version* v : chosen) {
            const std::string why = v->cannot_run(n, params);
            if (!why.empty()) std::printf("%s version=%s n=%lld: skipped (%s)\n", kProgram, v->label.c_str(), n, why.c_str());
        }

        for (const std::string& mode : modes) {
            const bool exclusive = mode == "exclusive";
            const std::vector<std::int32_t>& ref = exclusive ? ref_excl : ref_incl;
            SizeContext sc;
            sc.n = n;
            sc.mode = mode;
            sc.cpu_ms = exclusive ? cpu_excl_ms : cpu_incl_ms;
            sc.h2d_ms = h2d_ms;
            sc.d2h_ms = d2h_ms;
            for (std::size_t vi = 0; vi < chosen.size(); ++vi) {
                const Version& v = *chosen[vi];
                scan_gpu::Runner& runner = *runners[vi];
                if (!v.cannot_run(n, params).empty() || (exclusive && !v.has_exclusive)) continue;
                Measurement m;
                m.launches = runner.launches(un, exclusive);
                // A result left by another version must not pass for this one's.
                CUDA_CHECK(cudaMemsetAsync(d_out.data(), 0xa5, bytes, stream));
                m.timing = time_version(runner, d_in.data(), d_out.data(), un, exclusive, cfg.warmup, cfg.repeat,
                                        session.flusher(), stream);
                const double ms = m.timing.median_ms();
                m.serial_ms = runner.serial_ms();
                if (v.validated) {
                    // The result of the last timed run.
                    CUDA_CHECK(cudaMemcpyAsync(h_out.data(), d_out.data(), bytes, cudaMemcpyDeviceToHost, stream));
                    CUDA_CHECK(cudaStreamSynchronize(stream));
                    if (cfg.inject_fault) h_out.data()[un / 2] = scan_cpu::wrap_add(h_out.data()[un / 2], 1);
                    const cw::ExactComparison c = cw::compare_exact(h_out.data(), ref.data(), un);
                    m.ok = c.ok();
                    m.mismatches = c.mismatches;
                    m.first_mismatch = c.first_mismatch;
                    if (!m.ok) {  // an exact result has no error to measure
                        m.mse = m.mse_max = cw::mean_squared_error(h_out.data(), ref.data(), un);
                        m.sse = m.mse * static_cast<double>(un);
                    }
                    m.wrong_runs = m.ok ? 0 : 1;
                    if (v.is_baseline) sc.baseline_ms = ms;
                    if (&v == output_version) session.set_output(h_out.data(), un);  // its first scan
                } else {
                    // A demonstration: --runs runs, each from a fresh copy of the input, each
                    // compared with the reference; result_ok says whether every run happened
                    // to be right.
                    m.runs = cfg.runs;
                    double mse_sum = 0;
                    for (int r = 0; r < cfg.runs; ++r) {
                        if (runner.in_place())
                            CUDA_CHECK(cudaMemcpyAsync(d_out.data(), d_in.data(), bytes, cudaMemcpyDeviceToDevice,
                                                       stream));
                        runner.run(d_in.data(), d_out.data(), un, exclusive, stream);
                        CUDA_CHECK(cudaMemcpyAsync(h_out.data(), d_out.data(), bytes, cudaMemcpyDeviceToHost, stream));
                        CUDA_CHECK(cudaStreamSynchronize(stream));
                        const cw::ExactComparison c = cw::compare_exact(h_out.data(), ref.data(), un);
                        const double mse = cw::mean_squared_error(h_out.data(), ref.data(), un);
                        if (r == 0) m.sse = mse * static_cast<double>(un);
                        if (!c.ok()) {
                            if (m.wrong_runs == 0 || c.first_mismatch < m.first_mismatch)
                                m.first_mismatch = c.first_mismatch;
                            m.mismatches = std::max(m.mismatches, c.mismatches);
                            ++m.wrong_runs;
                        }
                        mse_sum += mse;
                        m.mse_max = std::max(m.mse_max, mse);
                    }
                    m.mse = mse_sum / cfg.runs;
                    m.ok = m.wrong_runs == 0;
                }

                const std::string threads = m.launches.empty() ? "-" : std::to_string(m.launches[0].block);
                const std::string blocks = m.launches.empty() ? "-" : std::to_string(m.launches[0].grid);
                std::string detail = cw::format("n=%lld mode=%s threads=%s blocks=%s %.4f ms %.1f GB/s", n, mode.c_str(),
                                                threads.c_str(), blocks.c_str(), ms,
                                                cw::gigabytes_per_second(8.0 * static_cast<double>(n), ms));
                std::string outcome;
                if (v.validated) {
                    if (!m.ok)
                        detail += cw::format(" mismatches=%zu first at %zu", m.mismatches, m.first_mismatch);
                    session.record(v.label, m.ok, detail);
                    outcome = m.ok ? "PASS" : "FAIL";
                } else {
                    detail += cw::format(" racy: mse=%.6g sse(run 1)=%.10g, %d of %d runs wrong", m.mse, m.sse,
                                         m.wrong_runs, m.runs);
                    if (m.wrong_runs > 0) detail += cw::format(", first wrong element %zu", m.first_mismatch);
                    session.demonstration(v.label, detail);
                    outcome = "demonstration";
                }
                session.add_row(make_row(cfg, params, session.columns(), session.device().sm_count,
                                         session.copy_bw_GBps(), sc, v, m));
                session.progress(cw::format("version=%s n=%lld mode=%s %.4f ms %s", v.label.c_str(), n, mode.c_str(),
                                            ms, outcome.c_str()));
            }
        }
    }
    if (session.book().checked() == 0)
        std::printf("%s: only racy demonstrations ran; nothing was validated\n", kProgram);
    return session.finish();
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main(kProgram, [&]() { return run(argc, argv); });
}
