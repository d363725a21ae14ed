// reduction_versions: sum of 32-bit integers on the GPU, version by version (report 004: C. Patel,
// "Different Optimization Strategies and Performance Evaluation of Reduction on Multicore CUDA
// Architecture", IJERT 3(4), 2014, after M. Harris, "Optimizing Parallel Reduction in CUDA",
// 2007), against the serial CPU sum and cub::DeviceReduce::Sum. Every validated version is
// checked against the CPU on every run; each is timed from the input in device memory to the
// single sum in device memory (every pass, and for version 8 the memset that zeroes its
// result), median of --repeat runs after --warmup, with the L2 cache flushed before every timed
// run unless --l2=keep. The versions come from one registry (rv::registry()).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common.cuh"
#include "reduction_versions_cpu.h"
#include "reduction_versions_kernels.cuh"

namespace {

const char* const kProgram = "reduction_versions";
// Checked runs of a demonstration per configuration: 2 around the timing and this many more,
// since a race may show only now and then.
constexpr int kDemonstrationExtraChecks = 18;

struct Config : cw::SharedOptions {
    long long n = 8388608;
    std::string sizes_text, threads_text = "0";
    std::string data = "full", l2 = "flush";
    long long blocks = 0;
};

// Everything a CSV row says beyond the version; the same columns whatever the options.
// -1 and NaN mean "not applicable" (empty cells).
struct Row {
    const rv::Version* version = nullptr;
    std::string data = "full", l2 = "flush";
    long long n = 0, seed = -1, threads = -1, blocks = -1;
    int launches = -1, memsets = -1, repeat = 0, warmup = 0, checks = 0, wrong_checks = 0;
    double kernel_ms = NAN, kernel_min_ms = NAN, copy_bw = NAN, baseline_ms = NAN, cpu_ms = NAN;
    double copy_in_ms = NAN, copy_out_ms = NAN;
    bool pinned = false;
    std::int32_t gpu_sum = 0, cpu_sum = 0;
};

void add_count(cw::CsvRow& row, const char* column, long long value) {
    if (value >= 0) row.add(column, value);
    else row.add_na(column);
}

// The core columns (cw::core_row), then this program's own.
cw::CsvRow make_row(const cw::DeviceColumns& dev, const Row& r) {
    cw::CoreRow core;
    core.assignment = kProgram;
    if (r.version != nullptr) {
        core.version = r.version->label;
        core.validated = r.version->validated;
        core.is_baseline = r.version->is_baseline;
    }
    core.sizes = {{"n", r.n}};
    core.threads = r.threads;
    core.blocks = r.blocks;
    core.kernel_ms = r.kernel_ms;
    core.kernel_ms_scope = r.memsets > 0 ? "memset+kernels" : "kernels";
    core.bytes = 4.0 * static_cast<double>(r.n);
    core.copy_bw_GBps = r.copy_bw;
    core.baseline_ms = r.baseline_ms;
    core.result_ok = r.checks > 0 && r.wrong_checks == 0;
    cw::CsvRow row = cw::core_row(dev, core);
    row.add("kernel", r.version != nullptr ? r.version->kernel : std::string())
        .add("bytes", 4 * r.n)
        .add("data", r.data);
    add_count(row, "seed", r.seed);
    add_count(row, "launches", r.launches);
    add_count(row, "memsets", r.memsets);
    row.add("l2", r.l2)
        .add("repeat", r.repeat)
        .add("warmup", r.warmup)
        .add("kernel_min_ms", r.kernel_min_ms)
        .add("copy_bw_GBps", r.copy_bw)
        .add("cpu_ms", r.cpu_ms)
        .add("cpu_bandwidth_GBps", r.cpu_ms > 0 ? cw::gigabytes_per_second(4.0 * r.n, r.cpu_ms) : NAN);
    row.add("copy_in_ms", r.copy_in_ms)
        .add("copy_out_ms", r.copy_out_ms)
        .add("pinned", r.pinned)
        .add("checks", r.checks)
        .add("wrong_checks", r.wrong_checks)
        .add("gpu_sum", static_cast<long long>(r.gpu_sum))
        .add("cpu_sum", static_cast<long long>(r.cpu_sum));
    return row;
}

std::int32_t read_result(const unsigned* d) {
    unsigned u = 0;
    CUDA_CHECK(cudaMemcpy(&u, d, sizeof u, cudaMemcpyDeviceToHost));
    return rv::wrap_to_int32(u);
}

// The block size a version runs with for a --threads item (0: the policy's choice).
int resolve_threads(const rv::Version& v, int item, const rv::Policy& policy) {
    if (v.threads == nullptr) return -1;  // the library's own launch
    return item != 0 ? item : policy.*(v.threads);
}

// The grid of a grid-stride version (--blocks, or the occupancy grid); 0 for the others.
long long resolve_grid(const rv::Version& v, const cw::DeviceInfo& dev, const rv::Policy& policy, std::size_t n,
                       int threads, long long blocks) {
    if (!v.grid_stride) return 0;
    return blocks > 0 ? blocks : v.auto_grid(dev, policy, n, threads);
}

int run(int argc, char** argv) {
    const std::vector<rv::Version>& registry = rv::registry();
    Config c;
    cw::Options opts(kProgram,
                     "Sum of 32-bit integers (int32, two's-complement wrap-around, i.e. modulo 2^32):\n"
                     "report 004's versions 1-5, Harris's 6 and 7, version 8 and cub::DeviceReduce::Sum,\n"
                     "each checked exactly against the serial CPU sum.");
    opts.add_int("n", &c.n, 1, rv::kMaxN, "number of ints to sum (also the positional N)")
        .add_string("sizes", &c.sizes_text,
                    "sizes to run instead of --n: comma list of N, A..B, 2^k, 1e6 (e.g. 1024,2^20,1e6)")
        .add_string("threads", &c.threads_text,
                    "threads per block: comma list of powers of two in 64..1024, all (= 64,...,1024), or 0 "
                    "(automatic: each version's block size from the architecture policy, rv::Policy)")
        .add_int("blocks", &c.blocks, 0, 1LL << 24,
                 "grid of the grid-stride versions 7 and 8 (0: automatic, the blocks resident at once, "
                 "occupancy x SMs, capped by the work)")
        .add_choice("data", &c.data, {"full", "small", "negative", "extreme", "iota"},
                    "data: full int32 range, [-1000,1000], all negative, [-3,3] with INT32_MAX and INT32_MIN, "
                    "or iota = 1,2,...,n as the report sums (no seed; n(n+1)/2 wraps modulo 2^32 from "
                    "n = 65536 on)")
        .add_choice("l2", &c.l2, {"flush", "keep"}, "flush the L2 cache before every timed run, or keep it");
    cw::SharedOptionsHelp help;
    help.csv = "append one row per (size, threads, version) to this CSV file (CUB: one row per size)";
    help.input = "sum this file of raw little-endian int32 instead of generated data (sets n)";
    help.output = "write the GPU sum (one little-endian int32) to this file (one size only)";
    help.inject_fault =
        "testing aid: change one input element on the GPU after the CPU sum, so every validated version must FAIL";
    help.pinned = "page-locked host buffer";
    cw::add_shared_options(opts, c, help).positional({"n"}).epilog(rv::versions_epilog());
    if (!opts.parse(argc, argv)) {
        std::fputs(opts.help_text().c_str(), stdout);
        return cw::kExitOk;
    }
    if (cw::list_versions_if_asked(c, registry)) return cw::kExitOk;

    // 1. Everything the user gave is checked here, before any CUDA call.
    const std::vector<const rv::Version*> chosen = cw::select_versions(registry, c.only, opts.given("only"));
    const std::vector<int> threads = rv::parse_threads(c.threads_text);
    const rv::DataKind kind = rv::parse_data_kind(c.data);
    cw::check_excludes(opts, "sizes", {"n"});
    cw::check_input_excludes(opts, {"n", "sizes"});
    std::vector<long long> sizes =
        opts.given("sizes") ? cw::parse_size_list("sizes", c.sizes_text, 1, rv::kMaxN) : std::vector<long long>{c.n};
    std::unique_ptr<cw::InputFile> input;
    if (opts.given("input")) {
        input.reset(new cw::InputFile(c.input, sizeof(std::int32_t)));
        input->require_count(static_cast<unsigned long long>(rv::kMaxN), "2^30 ints at most");
        sizes = {static_cast<long long>(input->count())};
    }
    const rv::Version* baseline = nullptr;
    for (const rv::Version& v : registry)
        if (v.is_baseline) baseline = &v;
    if (baseline == nullptr) throw std::logic_error("the registry has no library baseline");
    bool any_grid_stride = false, any_validated = false;
    int chosen_kernels = 0, chosen_baseline = 0;
    for (const rv::Version* v : chosen) {
        any_grid_stride = any_grid_stride || v->grid_stride;
        any_validated = any_validated || v->validated;
        if (v->is_baseline) ++chosen_baseline;
        else ++chosen_kernels;
    }
    if (c.blocks > 0 && !any_grid_stride)
        throw cw::UsageError("option --blocks sets the grid of the grid-stride versions, and --only selects none");
    if (!c.output.empty()) {
        if (sizes.size() != 1) throw cw::UsageError("option --output needs a single size");
        if (!any_validated)
            throw cw::UsageError("option --output needs a validated version; --only selects only demonstrations");
        cw::check_output_path(c.output, "output file");
    }
    const std::string header = make_row(cw::DeviceColumns(), Row()).header();
    if (!c.csv.empty()) cw::check_csv_file(c.csv, header);
    if (cw::print_csv_header_if_asked(c, header)) return cw::kExitOk;

    // 2. The device (exit 3 without one), its copy bandwidth, the L2 flusher.
    cw::Session::Settings settings;
    settings.l2_flusher = c.l2 == "flush";
    cw::Session session(kProgram, c.device, c.csv, c.output, settings);
    std::printf("L2 cache %s before every timed run\n", c.l2 == "flush" ? "flushed" : "not flushed");
    const cw::DeviceInfo& dev = session.device();
    const rv::Policy policy = rv::Policy::for_device(dev);

    // 3. Memory for the largest size, checked before anything is allocated.
    long long max_n = 0;
    std::size_t workspace_bytes = 0;
    for (const long long n_ll : sizes) {
        const std::size_t n = static_cast<std::size_t>(n_ll);
        max_n = std::max(max_n, n_ll);
        workspace_bytes = std::max(workspace_bytes, baseline->workspace_bytes(n, -1, 0));
        for (const rv::Version* v : chosen)
            for (const int item : threads) {
                const int t = resolve_threads(*v, item, policy);
                workspace_bytes =
                    std::max(workspace_bytes, v->workspace_bytes(n, t, resolve_grid(*v, dev, policy, n, t, c.blocks)));
            }
    }
    const unsigned long long input_bytes = 4ULL * static_cast<unsigned long long>(max_n);
    session.require_memory(input_bytes, input_bytes + workspace_bytes + 256, "n=" + std::to_string(max_n));

    // 4. Data and runs.
    cw::HostBuffer<std::int32_t> host(static_cast<std::size_t>(max_n), c.pinned);
    cw::DeviceBuffer<unsigned> input_buffer(static_cast<std::size_t>(max_n));
    cw::DeviceBuffer<unsigned char> workspace(workspace_bytes);
    unsigned* d_in = input_buffer.data();
    if (input) input->read_into(host.data());
    session.plan(static_cast<int>(sizes.size()) * (static_cast<int>(threads.size()) * chosen_kernels + chosen_baseline));

    for (const long long n_ll : sizes) {
        const std::size_t n = static_cast<std::size_t>(n_ll);
        std::int32_t* h = host.data();
        if (!input) rv::fill_data(h, n, kind, static_cast<std::uint64_t>(c.seed));

        // The serial CPU sum: the reference, and the report's serial time (fewer repeats
        // when one run is long, about 0.3 s in all).
        cw::HostStopwatch first;
        const std::int32_t cpu_sum = rv::sum_wrap(h, n);
        const double first_ms = first.elapsed_ms();
        const int cpu_repeat =
            static_cast<int>(std::max(1.0, std::min<double>(c.repeat, 300.0 / std::max(first_ms, 1e-3))));
        volatile std::int32_t sink = 0;
        const cw::Timing cpu_t = cw::time_host(0, cpu_repeat, [&]() { sink = rv::sum_wrap(h, n); });
        (void)sink;

        cw::GpuTimer copy_timer;
        copy_timer.start();
        CUDA_CHECK(cudaMemcpy(d_in, h, n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
        const double copy_in_ms = copy_timer.stop();
        if (c.inject_fault) {  // the GPU now sums different data from the CPU: every version must FAIL
            const std::int32_t changed = h[n / 2] ^ 1;
            CUDA_CHECK(cudaMemcpy(d_in + n / 2, &changed, sizeof changed, cudaMemcpyHostToDevice));
        }

        Row base;
        base.data = input ? "input" : c.data;
        base.l2 = c.l2;
        base.n = n_ll;
        base.seed = (input || kind == rv::DataKind::kIota) ? -1 : c.seed;
        base.repeat = c.repeat;
        base.warmup = c.warmup;
        base.copy_bw = session.copy_bw_GBps();
        base.cpu_ms = cpu_t.median_ms();
        base.copy_in_ms = copy_in_ms;
        base.pinned = c.pinned;
        base.cpu_sum = cpu_sum;

        // One run of `v` into a workspace filled with a sentinel (a stale value cannot pass
        // for a result), checked; then --warmup and --repeat timed runs, the last one checked.
        struct Measured {
            std::int32_t first = 0, last = 0;
            const unsigned* sum = nullptr;
            rv::LaunchPlan plan;
            cw::Timing timing;
        };
        auto measure = [&](const rv::Version& v, const rv::Launch& launch, std::size_t ws_bytes) {
            Measured m;
            CUDA_CHECK(cudaMemset(launch.workspace, 0xA5, ws_bytes));
            m.sum = v.enqueue(launch, 0, &m.plan);
            CUDA_CHECK(cudaDeviceSynchronize());
            m.first = read_result(m.sum);
            m.timing = cw::time_gpu(
                c.warmup, c.repeat, [&](cudaStream_t s) { v.enqueue(launch, s, nullptr); }, session.flusher());
            m.last = read_result(m.sum);
            return m;
        };

        // The library baseline, always measured (every row carries its time).
        rv::Launch cub_launch;
        cub_launch.in = d_in;
        cub_launch.n = n;
        cub_launch.workspace = workspace.data();
        const Measured cub = measure(*baseline, cub_launch, baseline->workspace_bytes(n, -1, 0));
        copy_timer.start();  // the 4-byte result back, timed once per size
        (void)read_result(cub.sum);
        base.copy_out_ms = copy_timer.stop();
        base.baseline_ms = cub.timing.median_ms();

        for (const int item : threads) {
            for (const rv::Version* vp : chosen) {
                const rv::Version& v = *vp;
                if (v.is_baseline) continue;
                const int t = resolve_threads(v, item, policy);
                rv::Launch launch;
                launch.in = d_in;
                launch.n = n;
                launch.threads = t;
                launch.grid = resolve_grid(v, dev, policy, n, t, c.blocks);
                launch.workspace = workspace.data();
                const std::size_t ws_bytes = v.workspace_bytes(n, t, launch.grid);
                const Measured m = measure(v, launch, ws_bytes);
                Row row = base;
                row.version = &v;
                row.threads = t;
                row.checks = 2;
                row.wrong_checks = (m.first != cpu_sum) + (m.last != cpu_sum);
                row.gpu_sum = m.first != cpu_sum ? m.first : m.last;
                if (!v.validated) {  // a race may show only now and then: check more runs
                    for (int k = 0; k < kDemonstrationExtraChecks; ++k) {
                        CUDA_CHECK(cudaMemset(launch.workspace, 0xA5, ws_bytes));
                        const std::int32_t s = read_result(v.enqueue(launch, 0, nullptr));
                        ++row.checks;
                        if (s != cpu_sum) {
                            ++row.wrong_checks;
                            row.gpu_sum = s;
                        }
                    }
                }
                row.blocks = m.plan.first_grid;
                row.launches = m.plan.launches;
                row.memsets = m.plan.memsets;
                row.kernel_ms = m.timing.median_ms();
                row.kernel_min_ms = m.timing.min_ms();
                session.add_row(make_row(session.columns(), row));
                const bool ok = row.wrong_checks == 0;
                const std::string what = "n=" + std::to_string(n_ll) + " threads=" + std::to_string(t);
                session.progress(what + " version=" + v.label + " blocks=" + std::to_string(m.plan.first_grid) +
                                 " launches=" + std::to_string(m.plan.launches) + " " +
                                 cw::format("%.4f ms %.1f GB/s %.2fx cub", row.kernel_ms,
                                            cw::gigabytes_per_second(4.0 * n_ll, row.kernel_ms),
                                            row.baseline_ms / row.kernel_ms) +
                                 (v.validated ? (ok ? " PASS" : " FAIL") : ""));
                if (!v.validated) {
                    session.demonstration(v.label, what + ": " + std::to_string(row.wrong_checks) + " of " +
                                                       std::to_string(row.checks) +
                                                       " checked runs gave a wrong sum (last wrong " +
                                                       std::to_string(row.gpu_sum) + ", CPU " +
                                                       std::to_string(cpu_sum) + ")");
                } else {
                    session.record(v.label, ok,
                                   what + (ok ? "" : " sum " + std::to_string(row.gpu_sum) + " expected " +
                                                         std::to_string(cpu_sum)));
                    if (ok) session.set_output(&row.gpu_sum, 1);
                }
            }
        }
        if (chosen_baseline > 0) {  // one row per size: the library's own launch
            Row row = base;
            row.version = baseline;
            row.checks = 2;
            row.wrong_checks = (cub.first != cpu_sum) + (cub.last != cpu_sum);
            row.gpu_sum = cub.first != cpu_sum ? cub.first : cub.last;
            row.kernel_ms = cub.timing.median_ms();
            row.kernel_min_ms = cub.timing.min_ms();
            session.add_row(make_row(session.columns(), row));
            const bool ok = row.wrong_checks == 0;
            const std::string what = "n=" + std::to_string(n_ll);
            session.progress(what + " version=" + baseline->label + " " +
                             cw::format("%.4f ms %.1f GB/s", row.kernel_ms,
                                        cw::gigabytes_per_second(4.0 * n_ll, row.kernel_ms)) +
                             (ok ? " PASS" : " FAIL"));
            session.record(baseline->label, ok,
                           what + (ok ? "" : " sum " + std::to_string(row.gpu_sum) + " expected " +
                                                 std::to_string(cpu_sum)));
            if (ok) session.set_output(&row.gpu_sum, 1);
        }
        std::printf("n=%lld: serial CPU sum %.4f ms (median of %d), copy to GPU %.4f ms, result back %.4f ms\n", n_ll,
                    base.cpu_ms, cpu_repeat, copy_in_ms, base.copy_out_ms);
    }
    return session.finish();
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main(kProgram, [&]() { return run(argc, argv); });
}
