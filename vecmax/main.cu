// vecmax: maximum of a float vector (report 000), three versions on the same device buffer:
//   report       the report's VecMax kernel (bugs fixed), host finishes over the block maxima
//   single_pass  one launch: float4 loads, warp shuffles, occupancy-sized grid, atomicMax of keys
//   cub          cub::DeviceReduce::Reduce with the same NaN-propagating maximum (baseline)
// Every version is checked exactly against the CPU reference on every run.
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common.cuh"
#include "vecmax_cpu.h"
#include "vecmax_cub.cuh"
#include "vecmax_kernels.cuh"
#include "vecmax_order_key.h"

namespace {

const char* const kProgram = "vecmax";
const std::vector<std::string> kVersions = {"report", "single_pass", "cub"};

struct Config : cw::SharedOptions {
    long long n = 40960000;  // the report's N
    int threads = 1024;      // the report's best configuration: 1024 x 128
    int blocks = 128;
    int sp_blocks = 0;
    int offset = 0;
    std::string data = "uniform";
    int cpu_repeat = 5;
};

// One CSV row: every version has the same columns (SPEC.md, "CSV"); the report's columns
// (gather_results.py) are input_ms, kernel_ms (its "processing time"), gpu_gflops,
// output_ms, total_gpu_ms, cpu_ms, cpu_gflops, speedup_gpu and rel_error.
struct RowData {
    std::string version, kernel, host_memory, data;
    long long n = 0, threads = 0, blocks = 0, seed = 0;
    int offset = 0, repeat = 0, warmup = 0;
    double kernel_ms = NAN, kernel_ms_no_flush = NAN, bandwidth_GBps = NAN, copy_bw_GBps = NAN,
           pct_of_copy_bw = NAN, baseline_ms = NAN, speedup_vs_baseline = NAN, input_ms = NAN, h2d_GBps = NAN,
           output_ms = NAN, total_gpu_ms = NAN, cpu_ms = NAN, gpu_gflops = NAN, cpu_gflops = NAN,
           speedup_gpu = NAN, rel_error = NAN;
    float result = NAN, expected = NAN;
    bool ok = false;
};

cw::CsvRow make_row(const RowData& r, const cw::DeviceInfo& dev) {
    cw::CsvRow row;
    row.add("assignment", "vecmax").add("version", r.version).add("kernel", r.kernel);
    dev.add_csv_columns(row);
    row.add("n", r.n)
        .add("threads", r.threads)
        .add("blocks", r.blocks)
        .add("host_memory", r.host_memory)
        .add("data", r.data)
        .add("seed", r.seed)
        .add("offset", r.offset)
        .add("repeat", r.repeat)
        .add("warmup", r.warmup)
        .add("kernel_ms", r.kernel_ms)
        .add("kernel_ms_no_flush", r.kernel_ms_no_flush)
        .add("bandwidth_GBps", r.bandwidth_GBps)
        .add("copy_bw_GBps", r.copy_bw_GBps)
        .add("pct_of_copy_bw", r.pct_of_copy_bw)
        .add("baseline_ms", r.baseline_ms)
        .add("speedup_vs_baseline", r.speedup_vs_baseline)
        .add("input_ms", r.input_ms)
        .add("h2d_GBps", r.h2d_GBps)
        .add("output_ms", r.output_ms)
        .add("total_gpu_ms", r.total_gpu_ms)
        .add("cpu_ms", r.cpu_ms)
        .add("gpu_gflops", r.gpu_gflops)
        .add("cpu_gflops", r.cpu_gflops)
        .add("speedup_gpu", r.speedup_gpu)
        .add("rel_error", r.rel_error)
        .add("result", static_cast<double>(r.result), 9)
        .add("expected", static_cast<double>(r.expected), 9)
        .add("result_ok", r.ok);
    return row;
}

int run(int argc, char** argv) {
    Config c;
    bool print_header = false;
    cw::Options opts(kProgram,
                     "Maximum of a float vector (report 000): the report's VecMax kernel (grid-stride slices, "
                     "shared-memory\ntree, host finishes), a single-pass kernel and CUB, each timed and checked "
                     "against the CPU.");
    opts.add_int("n", &c.n, 1, INT_MAX, "number of elements (with --input: must match the file if given)")
        .add_int("threads", &c.threads, 1, 1024, "threads per block of version=report (a power of two)")
        .add_int("blocks", &c.blocks, 1, INT_MAX, "blocks per grid of version=report")
        .add_int("sp-blocks", &c.sp_blocks, 0, 1 << 20,
                 "blocks of version=single_pass (0: occupancy API x SMs, capped by the work)")
        .add_choice("data", &c.data, vecmax::data_patterns(), "seeded data (see README)")
        .add_int("offset", &c.offset, 0, 3, "place the data this many floats past a 16-byte boundary")
        .add_int("cpu-repeat", &c.cpu_repeat, 1, 100000, "timed runs of the CPU reference (median)")
        .add_flag("print-csv-header", &print_header, "print the CSV header line and exit (for gathering runs)");
    cw::SharedOptionsHelp help{"append one row per version to this CSV file",
                               "read the vector from this file (raw little-endian float32)",
                               "write the maximum (one raw float32) to this file",
                               "run only these versions (comma-separated: report,single_pass,cub)"};
    cw::add_shared_options(opts, c, help);
    opts.positional({"n", "threads", "blocks"});
    if (!opts.parse(argc, argv)) {
        std::fputs(opts.help_text().c_str(), stdout);
        return cw::kExitOk;
    }

    if (print_header) {
        std::printf("%s\n", make_row(RowData(), cw::DeviceInfo()).header().c_str());
        return cw::kExitOk;
    }

    // Everything the user gave is checked here, before any CUDA call.
    if (!vecmax::is_power_of_two(c.threads))
        throw cw::UsageError("option --threads=" + std::to_string(c.threads) +
                             " must be a power of two (the shared-memory tree halves the block)");
    const cw::VersionFilter filter(c.only, kVersions);
    if (!c.input.empty() && opts.given("data"))
        throw cw::UsageError("options --input and --data exclude each other");
    std::vector<float> host;
    if (!c.input.empty()) {
        host = cw::read_binary<float>(c.input, opts.given("n") ? static_cast<std::size_t>(c.n) : 0);
        if (host.size() > static_cast<std::size_t>(INT_MAX))
            throw cw::UsageError("input file '" + c.input + "' holds more than 2^31-1 floats");
        c.n = static_cast<long long>(host.size());
    }
    if (!c.csv.empty()) cw::check_csv_file(c.csv, make_row(RowData(), cw::DeviceInfo()).header());
    if (!c.output.empty()) cw::check_writable(c.output);
    const std::size_t n = static_cast<std::size_t>(c.n);
    const std::string data_label = c.input.empty() ? c.data : "input";
    if (c.input.empty()) {
        host.resize(n);
        vecmax::fill_pattern(host.data(), n, c.data, static_cast<std::uint64_t>(c.seed));
    }

    // The device.
    const cw::DeviceInfo dev = cw::select_device(c.device);
    std::printf("%s\n", dev.describe().c_str());
    if (c.blocks > dev.max_grid_x)
        throw cw::UsageError("option --blocks=" + std::to_string(c.blocks) + " exceeds the device's limit of " +
                             std::to_string(dev.max_grid_x));
    const int sp_grid = c.sp_blocks > 0 ? c.sp_blocks : vecmax::single_pass_grid(c.n, dev.sm_count);
    std::size_t cub_temp_bytes = 0;
    CUDA_CHECK(vecmax::cub_max_temp_bytes(static_cast<int>(c.n), &cub_temp_bytes));
    const std::size_t need = (n + 4) * sizeof(float) + static_cast<std::size_t>(c.blocks) * sizeof(float) +
                             cub_temp_bytes + 2 * static_cast<std::size_t>(dev.l2_bytes) + (64u << 20);
    cw::require_device_memory(need, "n=" + std::to_string(c.n) + " with --blocks=" + std::to_string(c.blocks));

    const double copy_bw = cw::measure_copy_bandwidth_GBps();
    std::printf("n=%lld (%s data%s), device-to-device copy bandwidth %.1f GB/s, %s host memory\n", c.n,
                data_label.c_str(), c.offset ? (", offset " + std::to_string(c.offset)).c_str() : "", copy_bw,
                c.pinned ? "pinned" : "pageable");

    cw::DeviceBuffer<float> d_alloc(n + 4);
    float* const d_x = d_alloc.data() + c.offset;
    cw::DeviceBuffer<float> d_block_max(static_cast<std::size_t>(c.blocks));
    vecmax::SinglePassMax single_pass;
    cw::DeviceBuffer<float> d_cub_result(1);
    cw::DeviceBuffer<unsigned char> d_cub_temp(cub_temp_bytes);
    cw::L2Flusher flusher;

    // Host side of the copies: pinned buffers with --pinned, else the pageable vectors.
    std::unique_ptr<cw::HostBuffer<float>> pinned_x;
    const float* h_x = host.data();
    if (c.pinned) {
        pinned_x.reset(new cw::HostBuffer<float>(n, true));
        std::memcpy(pinned_x->data(), host.data(), n * sizeof(float));
        h_x = pinned_x->data();
    }
    cw::HostBuffer<float> h_block_max(static_cast<std::size_t>(c.blocks), c.pinned);
    cw::HostBuffer<float> h_result(1, c.pinned);
    cw::HostBuffer<unsigned int> h_key(1, c.pinned);

    // Input: the vector, host to device (the report's "input time"; no allocation in it).
    const double bytes = static_cast<double>(n) * sizeof(float);
    const double input_ms = cw::time_gpu(c.warmup, c.repeat, [&](cudaStream_t s) {
                                CUDA_CHECK(cudaMemcpyAsync(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice, s));
                            }).median_ms();
    CUDA_CHECK(cudaDeviceSynchronize());

    // CPU reference (steady clock), the report's "processing time for CPU".
    const float want = vecmax::max_reference(host.data(), n);
    volatile float sink = 0.0f;
    const double cpu_ms =
        cw::time_host(0, c.cpu_repeat, [&]() { sink = vecmax::max_reference(host.data(), n); }).median_ms();
    (void)sink;

    struct Version {
        std::string label, kernel;
        long long threads, blocks;
        std::function<void(cudaStream_t)> launch;
        std::function<float(cudaStream_t)> fetch;  // the "output" step: result to the host
    };
    const float* d_in = d_x;
    const Version report{"report", "vecmax_grid_stride_shared_tree", c.threads, c.blocks,
                         [&](cudaStream_t s) {
                             vecmax::launch_report_vecmax(d_in, c.n, d_block_max.data(), c.threads, c.blocks, s);
                         },
                         [&](cudaStream_t s) {
                             CUDA_CHECK(cudaMemcpyAsync(h_block_max.data(), d_block_max.data(),
                                                        static_cast<std::size_t>(c.blocks) * sizeof(float),
                                                        cudaMemcpyDeviceToHost, s));
                             CUDA_CHECK(cudaStreamSynchronize(s));
                             return vecmax::max_reference(h_block_max.data(), static_cast<std::size_t>(c.blocks));
                         }};
    const Version single{"single_pass", "vecmax_single_pass_vec4", vecmax::kSinglePassThreads, sp_grid,
                         [&](cudaStream_t s) {
                             single_pass.launch(d_in, c.n, sp_grid, s);
                         },
                         [&](cudaStream_t s) {
                             CUDA_CHECK(cudaMemcpyAsync(h_key.data(), single_pass.result_key(), sizeof(unsigned int),
                                                        cudaMemcpyDeviceToHost, s));
                             CUDA_CHECK(cudaStreamSynchronize(s));
                             return vecmax::from_order_key(*h_key.data());
                         }};
    const Version cub{"cub", "cub::DeviceReduce::Reduce(nan_max)", 0, 0,
                      [&](cudaStream_t s) {
                          CUDA_CHECK(vecmax::cub_max(d_cub_temp.data(), cub_temp_bytes, d_in, d_cub_result.data(),
                                                     static_cast<int>(c.n), s));
                          CUDA_CHECK_LAUNCH();
                      },
                      [&](cudaStream_t s) {
                          CUDA_CHECK(cudaMemcpyAsync(h_result.data(), d_cub_result.data(), sizeof(float),
                                                     cudaMemcpyDeviceToHost, s));
                          CUDA_CHECK(cudaStreamSynchronize(s));
                          return *h_result.data();
                      }};

    struct Measured {
        double kernel_ms, kernel_ms_no_flush, output_ms;
        float result;
    };
    auto measure = [&](const Version& v) {
        Measured m;
        // Kernel time with the L2 flushed before every timed run (the data never starts in
        // the cache), then without the flush (what back-to-back calls see).
        m.kernel_ms = cw::time_gpu(c.warmup, c.repeat, v.launch, &flusher).median_ms();
        m.kernel_ms_no_flush = cw::time_gpu(0, c.repeat, v.launch).median_ms();
        float got = NAN;
        m.output_ms = cw::time_gpu(c.warmup > 0 ? 1 : 0, c.repeat, [&](cudaStream_t s) { got = v.fetch(s); })
                          .median_ms();
        m.result = got;
        return m;
    };

    // The baseline runs on every run (every row carries baseline_ms); its row only if asked.
    const Measured base = measure(cub);
    cw::ResultBook book(kProgram);
    float first_result = NAN;
    bool have_first = false;
    for (const Version* v : {&report, &single, &cub}) {
        if (!filter.wants(v->label)) continue;
        const Measured m = (v == &cub) ? base : measure(*v);
        RowData r;
        r.version = v->label;
        r.kernel = v->kernel;
        r.host_memory = c.pinned ? "pinned" : "pageable";
        r.data = data_label;
        r.n = c.n;
        r.threads = v->threads;
        r.blocks = v->blocks;
        r.seed = c.seed;
        r.offset = c.offset;
        r.repeat = c.repeat;
        r.warmup = c.warmup;
        r.kernel_ms = m.kernel_ms;
        r.kernel_ms_no_flush = m.kernel_ms_no_flush;
        r.bandwidth_GBps = cw::gigabytes_per_second(bytes, m.kernel_ms);
        r.copy_bw_GBps = copy_bw;
        r.pct_of_copy_bw = 100.0 * r.bandwidth_GBps / copy_bw;
        r.baseline_ms = base.kernel_ms;
        r.speedup_vs_baseline = base.kernel_ms / m.kernel_ms;
        r.input_ms = input_ms;
        r.h2d_GBps = cw::gigabytes_per_second(bytes, input_ms);
        r.output_ms = m.output_ms;
        r.total_gpu_ms = input_ms + m.kernel_ms + m.output_ms;
        r.cpu_ms = cpu_ms;
        r.gpu_gflops = vecmax::comparisons_gflops(n, m.kernel_ms);
        r.cpu_gflops = vecmax::comparisons_gflops(n, cpu_ms);
        r.speedup_gpu = cpu_ms / r.total_gpu_ms;
        r.rel_error = vecmax::relative_error(m.result, want);
        r.result = m.result;
        r.expected = want;
        r.ok = cw::same_value(m.result, want);
        if (!c.csv.empty()) cw::csv_append(c.csv, make_row(r, dev));
        if (!have_first) {
            first_result = m.result;
            have_first = true;
        }
        book.record(v->label,
                    r.ok,
                    cw::format("n=%lld threads=%lld blocks=%lld kernel=%.4f ms (%.0f GB/s, %.0f%% of copy) vs cub "
                               "%.4f ms, total=%.3f ms, cpu=%.3f ms, speedup=%.3f, max=%.9g",
                               c.n, r.threads, r.blocks, m.kernel_ms, r.bandwidth_GBps, r.pct_of_copy_bw,
                               base.kernel_ms, r.total_gpu_ms, cpu_ms, r.speedup_gpu, static_cast<double>(m.result)) +
                        (r.ok ? "" : cw::format(" expected %.9g", static_cast<double>(want))));
    }
    if (!filter.wants("cub") && !cw::same_value(base.result, want))
        book.record("cub", false, cw::format("(baseline) max=%.9g expected %.9g", static_cast<double>(base.result),
                                             static_cast<double>(want)));
    if (!c.output.empty() && have_first) cw::write_binary(c.output, &first_result, 1);
    return book.exit_status();
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main(kProgram, [&]() { return run(argc, argv); });
}
