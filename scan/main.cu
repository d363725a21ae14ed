// scan: report 002's prefix sums (Hillis & Steele, the "map" scan, Brent-Kung with
// arbitrary size) reproduced with their failures shown, a single-pass decoupled look-back
// scan, and cub::DeviceScan as the baseline. int32 data, two's-complement wrap-around.
//
// Every validated version is checked against the CPU reference on every run (exact
// equality); the two racy demonstrations are measured (MSE, wrong runs) but never counted.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common.cuh"
#include "scan_cpu.h"
#include "scan_cub.cuh"
#include "scan_kernels.cuh"
#include "scan_plan.h"

namespace {

constexpr const char* kProgram = "scan";

struct Config : cw::SharedOptions {
    long long n = 1250000;
    std::string sizes;
    std::string mode = "both";
    std::string data = "random";
    int threads = 1024;
    int per_thread = 8;
    int runs = 5;
    std::string lb_items = "auto";
    std::string l2 = "flush";
    bool corrupt = false;
    Config() { seed = 2024; }
};

// Why a version cannot run size n ("" when it can).
std::string cannot_run(const std::string& version, long long n, const Config& cfg) {
    if (version == "hs_inplace_racy" && n > scan_plan::kMaxOneBlock)
        return "one block covers at most " + std::to_string(scan_plan::kMaxOneBlock) + " elements";
    if (version == "hs_buffered" && n > cfg.threads)
        return "a single block of --threads=" + std::to_string(cfg.threads) + " threads scans at most " +
               std::to_string(cfg.threads) + " elements" +
               (cfg.threads < scan_plan::kMaxOneBlock ? " (--threads=1024 allows 1024)" : "");
    return "";
}

// What one version measured at one (size, mode).
struct Measurement {
    std::string version;
    bool validated = true;
    std::vector<scan_gpu::KernelLaunch> launches;
    std::string threads, blocks;  // empty for cub (its own choice)
    cw::Timing timing;
    bool ok = false;
    std::size_t mismatches = 0, first_mismatch = 0;
    int runs = 1, wrong_runs = 0;
    double mse = 0, mse_max = 0, sse = 0;
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
                .add(p + "waves", per_wave > 0 ? static_cast<double>(l.grid) / per_wave : NAN, 4, true);
        } else {
            row.add(p + "name", "").add(p + "grid", "").add(p + "block", "").add(p + "regs", "");
            row.add(p + "smem_bytes", "").add(p + "blocks_per_sm", "").add(p + "occupancy", "").add(p + "waves", "");
        }
    }
}

cw::CsvRow make_row(const Config& cfg, const cw::DeviceInfo& dev, double copy_bw, const SizeContext& sc,
                    const Measurement& m) {
    const double ms = m.timing.median_ms();
    const double n = static_cast<double>(sc.n);
    const double bw = cw::gigabytes_per_second(8.0 * n, ms);  // read n + write n int32
    const double model = scan_plan::model_bytes(m.version, static_cast<std::size_t>(sc.n), cfg.threads, cfg.per_thread);
    cw::CsvRow row;
    row.add("assignment", "scan").add("version", m.version).add("validated", m.validated).add("mode", sc.mode);
    dev.add_csv_columns(row);
    row.add("n", sc.n)
        .add("data", cfg.input.empty() ? cfg.data : std::string("file"))
        .add("seed", cfg.seed)
        .add("threads", m.threads)
        .add("blocks", m.blocks)
        .add("per_thread", m.version == "map" ? std::to_string(cfg.per_thread) : std::string())
        .add("l2", cfg.l2)
        .add("repeat", cfg.repeat)
        .add("warmup", cfg.warmup)
        .add("kernel_ms", ms, 6)
        .add("kernel_min_ms", m.timing.min_ms(), 6)
        .add("bandwidth_GBps", bw, 6)
        .add("pct_of_copy_bw", copy_bw > 0 ? 100.0 * bw / copy_bw : NAN, 4, true)
        .add("copy_bw_GBps", copy_bw, 6)
        .add("model_bytes", model, 8)
        .add("model_GBps", cw::gigabytes_per_second(model, ms), 6)
        .add("baseline_ms", sc.baseline_ms, 6, true)
        .add("speedup_vs_baseline", std::isnan(sc.baseline_ms) ? NAN : sc.baseline_ms / ms, 4, true)
        .add("cpu_ms", sc.cpu_ms, 6)
        .add("speedup_vs_cpu", ms > 0 ? sc.cpu_ms / ms : NAN, 4, true)
        .add("h2d_ms", sc.h2d_ms, 6)
        .add("d2h_ms", sc.d2h_ms, 6)
        .add("total_ms", sc.h2d_ms + ms + sc.d2h_ms, 6)
        .add("result_ok", m.ok)
        .add("mismatches", static_cast<long long>(m.mismatches))
        .add("first_mismatch", m.mismatches > 0 ? std::to_string(m.first_mismatch) : std::string())
        .add("runs", m.runs)
        .add("wrong_runs", m.wrong_runs)
        .add("mse", m.mse, 8)
        .add("mse_max", m.mse_max, 8)
        .add("sse", m.sse, 12);
    add_launch_columns(row, m.launches, dev.sm_count);
    return row;
}

// The CSV columns (they do not depend on the values of a row).
std::string csv_header(const Config& cfg) {
    Measurement m;
    m.version = "cub";
    m.timing.samples_ms.push_back(1.0);
    return make_row(cfg, cw::DeviceInfo(), 0.0, SizeContext(), m).header();
}

int run(int argc, char** argv) {
    Config cfg;
    const std::vector<std::string>& labels = scan_plan::version_labels();
    std::string label_list;
    for (const std::string& l : labels) label_list += (label_list.empty() ? "" : ",") + l;

    cw::Options opts(kProgram,
                     "Prefix sums (scan) of int32 with two's-complement wrap-around: report 002's Hillis-Steele,\n"
                     "map and Brent-Kung scans, a decoupled look-back scan and cub::DeviceScan, each validated\n"
                     "against the CPU (exactly). hs_inplace_racy and hs_multiblock_racy are the report's racy\n"
                     "kernels: shown (MSE over --runs runs), never validated. Versions: " + label_list + ".");
    opts.add_int("n", &cfg.n, 1, scan_plan::kMaxN, "number of int32 elements")
        .add_string("sizes", &cfg.sizes, "several sizes in one run, instead of --n: a comma list of N and A..B ranges")
        .add_choice("mode", &cfg.mode, {"inclusive", "exclusive", "both"}, "which scan (racy versions: inclusive only)")
        .add_choice("data", &cfg.data, scan_plan::data_patterns(),
                    "input: random [-1000,1000], full int32 range (wraps), negative, extreme, iota 1,2,3,...")
        .add_int("threads", &cfg.threads, 32, 1024,
                 "block size of the report's versions, a power of two (lookback: 256; cub: its own)")
        .add_int("per-thread", &cfg.per_thread, 2, 1024, "elements per thread of the map scan (NUM_OF_ADDS_PER_THREAD)")
        .add_int("runs", &cfg.runs, 1, 10000, "runs of each racy demonstration (its error changes from run to run)")
        .add_choice("lb-items", &cfg.lb_items, {"auto", "16", "32"},
                    "ints per thread of lookback (auto: 32 where 4 of its blocks fit on an SM, else 16)")
        .add_choice("l2", &cfg.l2, {"flush", "keep"}, "flush the L2 cache before every timed run, or keep it warm")
        .add_flag("corrupt", &cfg.corrupt,
                  "testing aid: alter one element of every validated GPU result (must FAIL, exit 1)");
    cw::SharedOptionsHelp help{"append one row per (size, mode, version) to this CSV file",
                               "read the input from this file (raw little-endian int32; n = its length)",
                               "write the result of the first validated version run to this file",
                               "run only these versions (comma list of " + label_list + ")"};
    help.seed = "seed of the random input";
    help.seed_max = 1LL << 62;
    cw::add_shared_options(opts, cfg, help).positional({"n"});
    opts.parse_or_exit(argc, argv);

    // ---- everything the user gave is checked here, before any CUDA call ----
    if (!scan_plan::is_power_of_two(cfg.threads))
        throw cw::UsageError("option --threads=" + std::to_string(cfg.threads) + " must be a power of two");
    if (opts.given("sizes") && opts.given("n")) throw cw::UsageError("give either --n (or N) or --sizes, not both");
    std::vector<long long> sizes;
    std::vector<std::int32_t> file_data;
    if (!cfg.input.empty()) {
        if (opts.given("sizes") || opts.given("n"))
            throw cw::UsageError("option --input sets n from the file; do not give --n or --sizes");
        file_data = cw::read_binary<std::int32_t>(cfg.input);
        if (static_cast<long long>(file_data.size()) > scan_plan::kMaxN)
            throw cw::UsageError("input file '" + cfg.input + "' holds more than " + std::to_string(scan_plan::kMaxN) +
                                 " elements");
        sizes.push_back(static_cast<long long>(file_data.size()));
    } else if (opts.given("sizes")) {
        sizes = scan_plan::parse_sizes(cfg.sizes, 1, scan_plan::kMaxN);
    } else {
        sizes.push_back(cfg.n);
    }
    const cw::VersionFilter filter(cfg.only, labels);
    const bool explicit_only = opts.given("only");
    std::vector<std::string> modes;
    if (cfg.mode != "exclusive") modes.push_back("inclusive");
    if (cfg.mode != "inclusive") modes.push_back("exclusive");

    // A version that cannot run a size skips it with a note; one asked for by name (--only)
    // that cannot run the single size given, or any of the --sizes, is a usage error.
    int planned = 0;
    std::string output_version;
    for (const std::string& v : labels) {
        if (!filter.wants(v)) continue;
        std::string why_not;
        int runnable = 0;
        for (long long n : sizes) {
            const std::string why = cannot_run(v, n, cfg);
            if (!why.empty()) {
                if (why_not.empty()) why_not = "n=" + std::to_string(n) + ": " + why;
                continue;
            }
            ++runnable;
            for (const std::string& mode : modes) {
                if (scan_plan::is_racy(v) && mode != "inclusive") continue;
                ++planned;
                if (!scan_plan::is_racy(v) && output_version.empty()) output_version = v;
            }
        }
        if (explicit_only && runnable == 0) throw cw::UsageError("version " + v + " cannot run " + why_not);
    }
    if (planned == 0)
        throw cw::UsageError("nothing to run: the racy versions scan inclusively only (--mode=inclusive or both)");
    if (!cfg.output.empty()) {
        if (sizes.size() != 1) throw cw::UsageError("option --output needs a single size (not --sizes)");
        if (modes.size() != 1) throw cw::UsageError("option --output needs --mode=inclusive or --mode=exclusive");
        if (output_version.empty())
            throw cw::UsageError("option --output needs a validated version (the racy ones are not)");
        cw::check_writable(cfg.output);
    }
    if (!cfg.csv.empty()) cw::check_csv_file(cfg.csv, csv_header(cfg));

    // ---- the device ----
    const cw::DeviceInfo dev = cw::select_device(cfg.device);
    std::printf("%s\n", dev.describe().c_str());
    const long long max_n = *std::max_element(sizes.begin(), sizes.end());
    const std::size_t nmax = static_cast<std::size_t>(max_n);
    bool any_racy = false;
    for (const std::string& v : labels) any_racy = any_racy || (filter.wants(v) && scan_plan::is_racy(v));
    const double bytes_n = 4.0 * static_cast<double>(nmax);
    const double need = bytes_n * (any_racy ? 3.0 : 2.0) + bytes_n / (cfg.per_thread - 1) +
                        bytes_n / (2.0 * cfg.threads - 1) + 2.0 * bytes_n / scan_plan::kLookbackSmallestTile +
                        2.0 * static_cast<double>(dev.l2_bytes) + 64.0 * (1 << 20);
    cw::require_device_memory(static_cast<std::size_t>(need), "n=" + std::to_string(max_n));

    const double copy_bw = cw::measure_copy_bandwidth_GBps();
    std::printf("device-to-device copy bandwidth: %.1f GB/s (bytes read + written)\n", copy_bw);
    std::unique_ptr<cw::L2Flusher> flusher;
    if (cfg.l2 == "flush") flusher.reset(new cw::L2Flusher());

    cw::DeviceBuffer<unsigned> d_in(nmax), d_out(nmax);
    std::unique_ptr<cw::DeviceBuffer<unsigned>> d_work;
    if (any_racy) d_work.reset(new cw::DeviceBuffer<unsigned>(nmax));
    std::unique_ptr<scan_gpu::CubScan> cub;
    std::unique_ptr<scan_gpu::MapScan> map;
    std::unique_ptr<scan_gpu::BrentKungScan> brent_kung;
    std::unique_ptr<scan_gpu::LookbackScan> lookback;
    if (filter.wants("cub")) cub.reset(new scan_gpu::CubScan(nmax));
    if (filter.wants("map")) map.reset(new scan_gpu::MapScan(nmax, cfg.threads, cfg.per_thread));
    if (filter.wants("brent_kung")) brent_kung.reset(new scan_gpu::BrentKungScan(nmax, cfg.threads));
    if (filter.wants("lookback")) {
        lookback.reset(new scan_gpu::LookbackScan(nmax, cfg.lb_items == "auto" ? 0 : std::stoi(cfg.lb_items)));
        std::printf("lookback: 256 threads x %d ints per tile\n", lookback->items());
    }

    cw::HostBuffer<std::int32_t> h_in(nmax, cfg.pinned), h_out(nmax, cfg.pinned);
    std::vector<std::int32_t> ref_incl, ref_excl;
    if (cfg.mode != "exclusive") ref_incl.resize(nmax);
    if (cfg.mode != "inclusive") ref_excl.resize(nmax);
    const bool stable = !cfg.input.empty() || scan_plan::pattern_is_prefix_stable(cfg.data);
    if (!cfg.input.empty())
        std::copy(file_data.begin(), file_data.end(), h_in.data());
    else if (stable)
        scan_plan::fill_pattern(cfg.data, h_in.data(), nmax, static_cast<std::uint64_t>(cfg.seed));

    cw::ResultBook book(kProgram);
    const cudaStream_t stream = 0;
    for (std::size_t si = 0; si < sizes.size(); ++si) {
        const long long n = sizes[si];
        const std::size_t un = static_cast<std::size_t>(n);
        const std::size_t bytes = un * sizeof(std::int32_t);
        if (!stable) scan_plan::fill_pattern(cfg.data, h_in.data(), un, static_cast<std::uint64_t>(cfg.seed));
        cw::progress_line(static_cast<int>(si + 1), static_cast<int>(sizes.size()),
                          "n=" + std::to_string(n) + " mode=" + cfg.mode + " data=" +
                              (cfg.input.empty() ? cfg.data : cfg.input));

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
        for (const std::string& v : labels) {
            if (!filter.wants(v)) continue;
            const std::string why = cannot_run(v, n, cfg);
            if (!why.empty()) std::printf("%s version=%s n=%lld: skipped (%s)\n", kProgram, v.c_str(), n, why.c_str());
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
            for (const std::string& v : labels) {
                if (!filter.wants(v) || !cannot_run(v, n, cfg).empty()) continue;
                if (scan_plan::is_racy(v) && exclusive) continue;
                Measurement m;
                m.version = v;
                m.validated = !scan_plan::is_racy(v);

                if (m.validated) {
                    // Runs `v` once on d_in -> d_out.
                    auto launch = [&](cudaStream_t s) {
                        if (v == "cub") {
                            cub->run(d_in.data(), d_out.data(), un, exclusive, s);
                        } else if (v == "hs_buffered") {
                            scan_gpu::hillis_steele_double_buffered(d_in.data(), d_out.data(), un, cfg.threads,
                                                                    exclusive, s);
                        } else if (v == "map") {
                            map->run(d_in.data(), d_out.data(), un, exclusive, s);
                        } else if (v == "brent_kung") {
                            brent_kung->run(d_in.data(), d_out.data(), un, exclusive, s);
                        } else {
                            lookback->run(d_in.data(), d_out.data(), un, exclusive, s);
                        }
                    };
                    if (v == "hs_buffered")
                        m.launches.push_back(scan_gpu::hillis_steele_double_buffered_launch(un, cfg.threads));
                    else if (v == "map")
                        m.launches = map->launches(un, exclusive);
                    else if (v == "brent_kung")
                        m.launches = brent_kung->launches(un, exclusive);
                    else if (v == "lookback")
                        m.launches = lookback->launches(un, exclusive);
                    // A result left by another version must not pass for this one's.
                    CUDA_CHECK(cudaMemsetAsync(d_out.data(), 0xa5, bytes, stream));
                    m.timing = cw::time_gpu(cfg.warmup, cfg.repeat, launch, flusher.get(), stream);
                    CUDA_CHECK(cudaMemcpyAsync(h_out.data(), d_out.data(), bytes, cudaMemcpyDeviceToHost, stream));
                    CUDA_CHECK(cudaStreamSynchronize(stream));
                    if (cfg.corrupt) h_out.data()[un / 2] = scan_cpu::wrap_add(h_out.data()[un / 2], 1);
                    const cw::ExactComparison c = cw::compare_exact(h_out.data(), ref.data(), un);
                    m.ok = c.ok();
                    m.mismatches = c.mismatches;
                    m.first_mismatch = c.first_mismatch;
                    if (!m.ok) {  // an exact result has no error to measure
                        m.mse = m.mse_max = cw::mean_squared_error(h_out.data(), ref.data(), un);
                        m.sse = m.mse * static_cast<double>(un);
                    }
                    m.wrong_runs = m.ok ? 0 : 1;
                    if (v == "cub") sc.baseline_ms = m.timing.median_ms();
                    if (!cfg.output.empty() && v == output_version)
                        cw::write_binary(cfg.output, h_out.data(), un);
                } else {
                    // The report's in-place kernel: every run starts from a fresh copy of the input.
                    const long long blocks =
                        v == "hs_inplace_racy" ? 1 : static_cast<long long>(scan_plan::ceil_div(un, cfg.threads));
                    unsigned* work = d_work->data();
                    auto restore = [&](cudaStream_t s) {
                        CUDA_CHECK(cudaMemcpyAsync(work, d_in.data(), bytes, cudaMemcpyDeviceToDevice, s));
                    };
                    m.launches.push_back(scan_gpu::hillis_steele_inplace_racy_launch(un, cfg.threads, blocks));
                    for (int i = 0; i < cfg.warmup; ++i) {
                        restore(stream);
                        scan_gpu::hillis_steele_inplace_racy(work, un, cfg.threads, blocks, stream);
                    }
                    cw::GpuTimer timer;
                    for (int i = 0; i < cfg.repeat; ++i) {
                        restore(stream);
                        if (flusher) flusher->flush(stream);
                        timer.start(stream);
                        scan_gpu::hillis_steele_inplace_racy(work, un, cfg.threads, blocks, stream);
                        m.timing.samples_ms.push_back(timer.stop(stream));
                    }
                    m.runs = cfg.runs;
                    double mse_sum = 0;
                    for (int r = 0; r < cfg.runs; ++r) {
                        restore(stream);
                        scan_gpu::hillis_steele_inplace_racy(work, un, cfg.threads, blocks, stream);
                        CUDA_CHECK(cudaMemcpyAsync(h_out.data(), work, bytes, cudaMemcpyDeviceToHost, stream));
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
                if (!m.launches.empty()) {
                    m.threads = std::to_string(m.launches[0].block);
                    m.blocks = std::to_string(m.launches[0].grid);
                }

                char detail[256];
                std::snprintf(detail, sizeof detail, "n=%lld mode=%s threads=%s blocks=%s %.4f ms %.1f GB/s", n,
                              mode.c_str(), m.threads.empty() ? "-" : m.threads.c_str(),
                              m.blocks.empty() ? "-" : m.blocks.c_str(), m.timing.median_ms(),
                              cw::gigabytes_per_second(8.0 * static_cast<double>(n), m.timing.median_ms()));
                if (m.validated) {
                    std::string d = detail;
                    if (!m.ok)
                        d += " mismatches=" + std::to_string(m.mismatches) + " first at " +
                             std::to_string(m.first_mismatch);
                    book.record(v, m.ok, d);
                } else {
                    std::printf("%s version=%s %s: racy demonstration (not validated): mse=%.6g sse(run 1)=%.10g, "
                                "%d of %d runs wrong%s\n",
                                kProgram, v.c_str(), detail, m.mse, m.sse, m.wrong_runs, m.runs,
                                m.wrong_runs > 0 ? (", first wrong element " + std::to_string(m.first_mismatch)).c_str()
                                                 : "");
                    std::fflush(stdout);
                }
                if (!cfg.csv.empty()) cw::csv_append(cfg.csv, make_row(cfg, dev, copy_bw, sc, m));
            }
        }
    }
    if (book.checked() == 0) std::printf("%s: only racy demonstrations ran; nothing was validated\n", kProgram);
    return book.exit_status();
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main(kProgram, [&]() { return run(argc, argv); });
}
