// reduction_versions: sum of 32-bit integers on the GPU, version by version (report 004, after
// M. Harris, "Optimizing Parallel Reduction in CUDA", 2007), against the serial CPU sum and
// cub::DeviceReduce::Sum. Every version is checked against the CPU on every run; each is timed
// from the input in device memory to the single sum in device memory (every pass, and for
// version 8 the memset that zeroes its result), median of --repeat runs after --warmup, with
// the L2 cache flushed before every timed run unless --l2=keep.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common.cuh"
#include "reduction_cub.cuh"
#include "reduction_versions_cpu.h"
#include "reduction_versions_kernels.cuh"

namespace {

const char* const kProgram = "reduction_versions";

struct Config : cw::SharedOptions {
    long long n = 8388608;
    std::string sizes_text, threads_text = "256";
    std::string data = "full", l2 = "flush";
    long long blocks = 0;
    bool inject_fault = false;
    Config() { seed = 20140425; }
};

// Everything a CSV row says; the same columns whatever the options (SPEC.md "CSV").
struct Row {
    std::string version = "1", kernel, data = "full", l2 = "flush";
    long long n = 0, seed = 0, threads = 0, blocks = 0;
    int launches = 0, memsets = 0, repeat = 0, warmup = 0, checks = 0, wrong_checks = 0;
    double kernel_ms = 0, kernel_min_ms = 0, copy_bw = 0, baseline_ms = 0, cpu_ms = 0;
    double copy_in_ms = 0, copy_out_ms = 0;
    bool pinned = false;
    std::int32_t gpu_sum = 0, cpu_sum = 0;
};

cw::CsvRow make_row(const cw::DeviceInfo& dev, const Row& r) {
    const double bytes = 4.0 * static_cast<double>(r.n);
    const double bw = cw::gigabytes_per_second(bytes, r.kernel_ms);
    cw::CsvRow row;
    row.add("assignment", kProgram).add("version", r.version).add("kernel", r.kernel);
    dev.add_csv_columns(row);
    row.add("n", r.n)
        .add("bytes", static_cast<long long>(4 * r.n))
        .add("data", r.data)
        .add("seed", r.seed)
        .add("threads", r.threads)
        .add("blocks", r.blocks)
        .add("launches", r.launches)
        .add("memsets", r.memsets)
        .add("l2", r.l2)
        .add("repeat", r.repeat)
        .add("warmup", r.warmup)
        .add("kernel_ms", r.kernel_ms, 6)
        .add("kernel_min_ms", r.kernel_min_ms, 6)
        .add("bandwidth_GBps", bw, 6)
        .add("copy_bw_GBps", r.copy_bw, 6)
        .add("pct_of_copy_bw", r.copy_bw > 0 ? 100.0 * bw / r.copy_bw : 0.0, 4)
        .add("baseline_ms", r.baseline_ms, 6)
        .add("speedup_vs_baseline", r.kernel_ms > 0 ? r.baseline_ms / r.kernel_ms : 0.0, 4)
        .add("cpu_ms", r.cpu_ms, 6)
        .add("cpu_bandwidth_GBps", cw::gigabytes_per_second(bytes, r.cpu_ms), 6)
        .add("copy_in_ms", r.copy_in_ms, 6)
        .add("copy_out_ms", r.copy_out_ms, 6)
        .add("pinned", r.pinned)
        .add("checks", r.checks)
        .add("wrong_checks", r.wrong_checks)
        .add("result_ok", r.checks > 0 && r.wrong_checks == 0)
        .add("gpu_sum", static_cast<long long>(r.gpu_sum))
        .add("cpu_sum", static_cast<long long>(r.cpu_sum));
    return row;
}

std::int32_t read_result(const unsigned* d) {
    unsigned u = 0;
    CUDA_CHECK(cudaMemcpy(&u, d, sizeof u, cudaMemcpyDeviceToHost));
    return rv::wrap_to_int32(u);
}

int run(int argc, char** argv) {
    Config c;
    bool csv_header = false;
    cw::Options opts(kProgram,
                     "Sum of 32-bit integers (int32, two's-complement wrap-around, i.e. modulo 2^32):\n"
                     "report 004's versions 1-5, Harris's 6 and 7, version 8 and cub::DeviceReduce::Sum,\n"
                     "each checked exactly against the serial CPU sum.\n"
                     "Versions (--only): 1 2 3 4 5 6 7 8 cub, and 5-unfixed (the report's version 5 as\n"
                     "printed: a demonstration, run only when --only names it, never counted as PASS/FAIL).");
    opts.add_int("n", &c.n, 1, rv::kMaxN, "number of ints to sum (also the positional N)")
        .add_string("sizes", &c.sizes_text, "comma-separated sizes to run instead of --n, e.g. 1024,2^20,1e6")
        .add_string("threads", &c.threads_text, "threads per block: powers of two in 64..1024, a comma list, or all")
        .add_int("blocks", &c.blocks, 0, 1LL << 24, "grid of the grid-stride versions 7 and 8 (0: SMs x occupancy)")
        .add_choice("data", &c.data, {"full", "small", "negative", "extreme"},
                    "data: full int32 range, [-1000,1000], all negative, or [-3,3] with INT32_MAX and INT32_MIN")
        .add_choice("l2", &c.l2, {"flush", "keep"}, "flush the L2 cache before every timed run, or keep it")
        .add_flag("csv-header", &csv_header, "print the CSV header line and exit (no GPU needed)")
        .add_flag("inject-fault", &c.inject_fault,
                  "testing aid: change one input element on the GPU after the CPU sum, so every version must FAIL");
    cw::SharedOptionsHelp help{"append one row per (size, threads, version) to this CSV file",
                               "sum this file of raw little-endian int32 instead of random data",
                               "write the GPU sum (one little-endian int32) to this file (one size only)",
                               "comma-separated versions to run (default: 1,2,3,4,5,6,7,8,cub)"};
    help.pinned = "page-locked host buffer";
    cw::add_shared_options(opts, c, help).positional({"n"});
    if (!opts.parse(argc, argv)) {
        std::fputs(opts.help_text().c_str(), stdout);
        return cw::kExitOk;
    }

    if (csv_header) {
        std::printf("%s\n", make_row(cw::DeviceInfo(), Row()).header().c_str());
        return cw::kExitOk;
    }

    // Everything the user gave is checked here, before any CUDA call.
    int version_count = 0;
    const rv::VersionInfo* versions = rv::version_table(&version_count);
    std::vector<std::string> known;
    for (int i = 0; i < version_count; ++i) known.push_back(versions[i].label);
    known.push_back("cub");
    const cw::VersionFilter filter(c.only, known);
    const bool only_given = opts.given("only");
    auto selected = [&](const std::string& label) {
        if (label == "5-unfixed") return only_given && filter.wants(label);  // never by default
        return filter.wants(label);
    };
    const std::vector<int> threads = rv::parse_threads(c.threads_text);
    const rv::DataKind kind = rv::parse_data_kind(c.data);
    if (opts.given("sizes") && opts.given("n")) throw cw::UsageError("options --sizes and --n exclude each other");
    std::vector<long long> sizes = opts.given("sizes") ? rv::parse_sizes(c.sizes_text) : std::vector<long long>{c.n};
    std::vector<std::int32_t> input;
    if (!c.input.empty()) {
        if (opts.given("sizes") || opts.given("n"))
            throw cw::UsageError("option --input sets the size; do not give --n or --sizes with it");
        if (opts.given("data")) throw cw::UsageError("options --input and --data exclude each other");
        input = cw::read_binary<std::int32_t>(c.input);
        if (static_cast<long long>(input.size()) > rv::kMaxN)
            throw cw::UsageError("input file '" + c.input + "' holds " + std::to_string(input.size()) +
                                 " ints, more than the 2^30 this program accepts");
        sizes = {static_cast<long long>(input.size())};
    }
    if (!c.output.empty()) {
        if (sizes.size() != 1) throw cw::UsageError("option --output needs a single size");
        cw::check_writable(c.output);
    }
    if (!c.csv.empty()) cw::check_csv_file(c.csv, make_row(cw::DeviceInfo(), Row()).header());
    long long max_n = 0;
    for (long long n : sizes) max_n = std::max(max_n, n);

    // GPU from here on.
    const cw::DeviceInfo dev = cw::select_device(c.device);
    std::printf("%s\n", dev.describe().c_str());
    const double copy_bw = cw::measure_copy_bandwidth_GBps();
    std::printf("device-to-device copy bandwidth: %.1f GB/s (bytes read + written); L2 %s before every timed run\n",
                copy_bw, c.l2 == "flush" ? "flushed" : "not flushed");
    std::unique_ptr<cw::L2Flusher> flusher;
    if (c.l2 == "flush") flusher.reset(new cw::L2Flusher());

    int selected_versions = 0;
    for (int i = 0; i < version_count; ++i) selected_versions += selected(versions[i].label) ? 1 : 0;
    const int cub_rows = selected("cub") ? 1 : 0;
    const int total_steps = static_cast<int>(sizes.size() * threads.size()) * (selected_versions + cub_rows);
    int step = 0;

    cw::HostBuffer<std::int32_t> host(static_cast<std::size_t>(max_n), c.pinned);
    cw::ResultBook book(kProgram);
    std::int32_t last_gpu_sum = 0;

    for (const long long n_ll : sizes) {
        const std::size_t n = static_cast<std::size_t>(n_ll);
        std::int32_t* h = host.data();
        if (!input.empty()) {
            std::copy(input.begin(), input.end(), h);
        } else {
            rv::fill_data(h, n, kind, static_cast<std::uint64_t>(c.seed));
        }

        // The serial CPU sum: the reference, and the report's serial time (fewer repeats
        // when one run is long, about 0.3 s in all).
        cw::HostStopwatch first;
        const std::int32_t cpu_sum = rv::sum_wrap(h, n);
        const double first_ms = first.elapsed_ms();
        const int cpu_repeat = static_cast<int>(std::max(1.0, std::min<double>(c.repeat, 300.0 / std::max(first_ms, 1e-3))));
        volatile std::int32_t sink = 0;
        const cw::Timing cpu_t = cw::time_host(0, cpu_repeat, [&]() { sink = rv::sum_wrap(h, n); });
        (void)sink;

        // Device buffers.
        std::size_t cub_temp_bytes = 0;
        CUDA_CHECK(rv::cub_sum_temp_bytes(n, &cub_temp_bytes));
        rv::Workspace ws;
        ws.capacity = rv::partial_capacity(n, c.blocks);
        cw::require_device_memory(n * 4 + 2 * ws.capacity * 4 + cub_temp_bytes + 64,
                                  "n=" + std::to_string(n_ll));
        cw::DeviceBuffer<unsigned> input_buffer(n), partial_a(ws.capacity), partial_b(ws.capacity), result(1), cub_out(1);
        cw::DeviceBuffer<unsigned char> cub_temp(cub_temp_bytes);
        unsigned* d_in = input_buffer.data();
        ws.partial_a = partial_a.data();
        ws.partial_b = partial_b.data();
        ws.result = result.data();
        unsigned* d_cub_out = cub_out.data();
        void* d_cub_temp = cub_temp.data();

        cw::GpuTimer copy_timer;
        copy_timer.start();
        CUDA_CHECK(cudaMemcpy(d_in, h, n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
        const double copy_in_ms = copy_timer.stop();
        if (c.inject_fault) {  // the GPU now sums different data from the CPU: every version must FAIL
            const std::int32_t changed = h[n / 2] ^ 1;
            CUDA_CHECK(cudaMemcpy(d_in + n / 2, &changed, sizeof changed, cudaMemcpyHostToDevice));
        }

        Row base;
        base.data = input.empty() ? c.data : "input";
        base.l2 = c.l2;
        base.n = n_ll;
        base.seed = input.empty() ? c.seed : 0;
        base.repeat = c.repeat;
        base.warmup = c.warmup;
        base.copy_bw = copy_bw;
        base.cpu_ms = cpu_t.median_ms();
        base.copy_in_ms = copy_in_ms;
        base.pinned = c.pinned;
        base.cpu_sum = cpu_sum;

        // The library baseline, always measured (every row carries its time), checked before
        // and after timing.
        auto run_cub = [&](cudaStream_t s) {
            CUDA_CHECK(rv::cub_sum(d_cub_temp, cub_temp_bytes, d_in, d_cub_out, n, s));
        };
        Row cub = base;
        cub.version = "cub";
        cub.kernel = "cub::DeviceReduce::Sum";
        CUDA_CHECK(cudaMemset(d_cub_out, 0xA5, sizeof(unsigned)));
        run_cub(0);
        CUDA_CHECK(cudaDeviceSynchronize());
        copy_timer.start();
        const std::int32_t cub_first = read_result(d_cub_out);
        base.copy_out_ms = copy_timer.stop();
        cub.copy_out_ms = base.copy_out_ms;
        const cw::Timing cub_t = cw::time_gpu(c.warmup, c.repeat, run_cub, flusher.get());
        cub.gpu_sum = read_result(d_cub_out);
        cub.checks = 2;
        cub.wrong_checks = (cub_first != cpu_sum) + (cub.gpu_sum != cpu_sum);
        if (cub_first != cpu_sum) cub.gpu_sum = cub_first;
        cub.kernel_ms = cub_t.median_ms();
        cub.kernel_min_ms = cub_t.min_ms();
        base.baseline_ms = cub.kernel_ms;
        cub.baseline_ms = cub.kernel_ms;

        for (const int t : threads) {
            for (int vi = 0; vi < version_count; ++vi) {
                const rv::VersionInfo& v = versions[vi];
                if (!selected(v.label)) continue;
                const bool demo = v.version == rv::Version::kV5Unfixed;
                const bool grid_stride = v.version == rv::Version::kV7 || v.version == rv::Version::kV8;
                const long long cap = grid_stride ? (c.blocks > 0 ? c.blocks : rv::resident_blocks(v.version, t)) : 0;
                rv::LaunchPlan plan;
                const unsigned* final_sum = nullptr;
                // One checked run: stale values (sentinels) cannot pass for a result.
                auto checked_run = [&]() {
                    CUDA_CHECK(cudaMemset(ws.partial_a, 0xA5, ws.capacity * sizeof(unsigned)));
                    CUDA_CHECK(cudaMemset(ws.partial_b, 0xA5, ws.capacity * sizeof(unsigned)));
                    CUDA_CHECK(cudaMemset(ws.result, 0xA5, sizeof(unsigned)));
                    final_sum = rv::enqueue_reduction(v.version, d_in, n, t, cap, ws, 0, &plan);
                    CUDA_CHECK(cudaDeviceSynchronize());
                    return read_result(final_sum);
                };
                Row row = base;
                row.version = v.label;
                row.kernel = v.kernel;
                row.threads = t;
                const std::int32_t first_sum = checked_run();
                const cw::Timing tm = cw::time_gpu(
                    c.warmup, c.repeat,
                    [&](cudaStream_t s) { rv::enqueue_reduction(v.version, d_in, n, t, cap, ws, s, nullptr); },
                    flusher.get());
                const std::int32_t last_sum = read_result(final_sum);  // the last timed run's sum
                row.checks = 2;
                row.wrong_checks = (first_sum != cpu_sum) + (last_sum != cpu_sum);
                row.gpu_sum = first_sum != cpu_sum ? first_sum : last_sum;
                if (demo) {  // the race may show only now and then: check more runs
                    for (int k = 0; k < 18; ++k) {
                        const std::int32_t s = checked_run();
                        ++row.checks;
                        if (s != cpu_sum) {
                            ++row.wrong_checks;
                            row.gpu_sum = s;
                        }
                    }
                }
                row.blocks = plan.first_grid;
                row.launches = plan.launches;
                row.memsets = plan.memsets;
                row.kernel_ms = tm.median_ms();
                row.kernel_min_ms = tm.min_ms();
                if (!c.csv.empty()) cw::csv_append(c.csv, make_row(dev, row));
                last_gpu_sum = row.gpu_sum;
                const bool ok = row.wrong_checks == 0;
                const std::string what = "n=" + std::to_string(n_ll) + " threads=" + std::to_string(t);
                cw::progress_line(++step, total_steps,
                                  what + " version=" + v.label + " blocks=" + std::to_string(plan.first_grid) +
                                      " launches=" + std::to_string(plan.launches) + " " +
                                      cw::format("%.4f ms %.1f GB/s %.2fx cub", row.kernel_ms,
                                                 cw::gigabytes_per_second(4.0 * n_ll, row.kernel_ms),
                                                 row.baseline_ms / row.kernel_ms) +
                                      (demo ? "" : (ok ? " PASS" : " FAIL")));
                if (demo) {
                    std::printf("%s version=%s %s: demonstration, not validated: %d of %d checked runs gave a "
                                "wrong sum (last wrong %d, CPU %d)\n",
                                kProgram, v.label, what.c_str(), row.wrong_checks, row.checks,
                                static_cast<int>(row.gpu_sum), static_cast<int>(cpu_sum));
                } else {
                    book.record(v.label, ok,
                                what + (ok ? "" : " sum " + std::to_string(row.gpu_sum) + " expected " +
                                                      std::to_string(cpu_sum)));
                }
            }
            if (cub_rows) {
                Row row = cub;
                row.threads = t;  // the size's CUB measurement, repeated for each threads value
                if (!c.csv.empty()) cw::csv_append(c.csv, make_row(dev, row));
                last_gpu_sum = row.gpu_sum;
                const bool ok = row.wrong_checks == 0;
                const std::string what = "n=" + std::to_string(n_ll) + " threads=" + std::to_string(t);
                cw::progress_line(++step, total_steps,
                                  what + " version=cub " +
                                      cw::format("%.4f ms %.1f GB/s", row.kernel_ms,
                                                 cw::gigabytes_per_second(4.0 * n_ll, row.kernel_ms)) +
                                      (ok ? " PASS" : " FAIL"));
                book.record("cub", ok,
                            what + (ok ? "" : " sum " + std::to_string(row.gpu_sum) + " expected " +
                                                  std::to_string(cpu_sum)));
            }
        }
        std::printf("n=%lld: serial CPU sum %.4f ms (median of %d), copy to GPU %.4f ms, result back %.4f ms\n", n_ll,
                    base.cpu_ms, cpu_repeat, copy_in_ms, base.copy_out_ms);
    }
    if (!c.output.empty()) cw::write_binary(c.output, &last_gpu_sum, 1);
    return book.exit_status();
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main(kProgram, [&]() { return run(argc, argv); });
}
