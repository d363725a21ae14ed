// vecmax: maximum of a float vector (report 000). The versions are declared once, in
// registry() below; dispatch, --only, the version list of --help, the CSV's version columns
// and the tests all come from it. Every version is checked exactly against the CPU
// reference on every run.
//
// A run, in this order (so that nothing is allocated, filled or written before it is known
// to be wanted and to fit):
//   1. options and input checks, no CUDA call (exit 2); --print-csv-header stops here;
//   2. the device (cw::Session: exit 3 without a usable GPU), the launch shapes it implies;
//   3. host and device memory for the size (exit 2 "needs X MiB"), before any buffer;
//   4. the data (the --input file or a seeded pattern), the CPU reference;
//   5. the baseline (always: every row carries baseline_ms), then each selected version:
//      measure, validate, record, CSV row, progress line;
//   6. session.finish(): the CSV rows and --output only when every version passed.
#include <climits>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common.cuh"
#include "vecmax_cpu.h"
#include "vecmax_cub.cuh"
#include "vecmax_kernels.cuh"
#include "vecmax_order_key.h"

namespace {

const char* const kProgram = "vecmax";

struct Config : cw::SharedOptions {
    long long n = 40960000;  // the report's N
    int threads = 0;         // version=report; 0: automatic (kReportDefaultThreads)
    int blocks = 0;          // version=report; 0: automatic (kReportDefaultBlocks)
    int sp_blocks = 0;       // version=single_pass; 0: automatic (single_pass_grid)
    int offset = 0;
    std::string data = "uniform";
    int cpu_repeat = 5;
};

// What every version runs with: the problem and each launch choice, resolved (no automatic
// 0 is left once the device is known).
struct Setup {
    long long n = 0;
    bool pinned = false;
    int report_threads = 0, report_blocks = 0;
    vecmax::SinglePassPolicy single_pass{0, 0};
    int single_pass_blocks = 0;
};

// The launch shape a version reports in its CSV row; -1: chosen inside the library (an empty
// cell).
struct Shape {
    long long threads, blocks;
};

// What a version allocates beyond the input vector, counted before anything is allocated.
struct Workspace {
    unsigned long long device_bytes, host_bytes;
};

// One version's buffers and calls for one Setup.
class Runner {
  public:
    virtual ~Runner() {}
    // The timed part: the kernel(s) over d_x[0..n-1].
    virtual void launch(const float* d_x, cudaStream_t stream) = 0;
    // The result to the host (the report's "output" step), once the launch has completed.
    virtual float fetch(cudaStream_t stream) = 0;
};

// A registry entry: what the version is (label, kernel, validated, is_baseline) and what
// running it takes.
struct Version : cw::VersionInfo {
    Shape (*shape)(const Setup&);
    Workspace (*workspace)(const Setup&);
    std::unique_ptr<Runner> (*make)(const Setup&);
};

Version entry(const char* label, const char* kernel, const char* summary, bool is_baseline,
              Shape (*shape)(const Setup&), Workspace (*workspace)(const Setup&),
              std::unique_ptr<Runner> (*make)(const Setup&)) {
    Version v = cw::version_entry<Version>(label, kernel, summary, is_baseline);
    v.shape = shape;
    v.workspace = workspace;
    v.make = make;
    return v;
}

unsigned long long float_bytes(long long count) { return static_cast<unsigned long long>(count) * sizeof(float); }

// version=report: the block maxima come back to the host, which finishes.
class ReportRunner : public Runner {
  public:
    explicit ReportRunner(const Setup& s)
        : s_(s), d_block_max_(static_cast<std::size_t>(s.report_blocks)),
          h_block_max_(static_cast<std::size_t>(s.report_blocks), s.pinned) {}
    void launch(const float* d_x, cudaStream_t stream) override {
        vecmax::launch_report_vecmax(d_x, s_.n, d_block_max_.data(), s_.report_threads, s_.report_blocks, stream);
    }
    float fetch(cudaStream_t stream) override {
        CUDA_CHECK(cudaMemcpyAsync(h_block_max_.data(), d_block_max_.data(), float_bytes(s_.report_blocks),
                                   cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        return vecmax::max_reference(h_block_max_.data(), static_cast<std::size_t>(s_.report_blocks));
    }

  private:
    Setup s_;
    cw::DeviceBuffer<float> d_block_max_;
    cw::HostBuffer<float> h_block_max_;
};

// version=single_pass: one launch; the result is an order key in device memory.
class SinglePassRunner : public Runner {
  public:
    explicit SinglePassRunner(const Setup& s) : s_(s), max_(s.single_pass), h_key_(1, s.pinned) {}
    void launch(const float* d_x, cudaStream_t stream) override {
        max_.launch(d_x, s_.n, s_.single_pass_blocks, stream);
    }
    float fetch(cudaStream_t stream) override {
        CUDA_CHECK(cudaMemcpyAsync(h_key_.data(), max_.result_key(), sizeof(unsigned int), cudaMemcpyDeviceToHost,
                                   stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        return vecmax::from_order_key(*h_key_.data());
    }

  private:
    Setup s_;
    vecmax::SinglePassMax max_;
    cw::HostBuffer<unsigned int> h_key_;
};

// version=cub: the library baseline with the same NaN policy.
std::size_t cub_temp_bytes(long long n) {
    std::size_t bytes = 0;
    CUDA_CHECK(vecmax::cub_max_temp_bytes(static_cast<int>(n), &bytes));
    return bytes;
}

class CubRunner : public Runner {
  public:
    explicit CubRunner(const Setup& s)
        : s_(s), temp_bytes_(cub_temp_bytes(s.n)), d_temp_(temp_bytes_), d_result_(1), h_result_(1, s.pinned) {}
    void launch(const float* d_x, cudaStream_t stream) override {
        CUDA_CHECK(vecmax::cub_max(d_temp_.data(), temp_bytes_, d_x, d_result_.data(), static_cast<int>(s_.n), stream));
        CUDA_CHECK_LAUNCH();
    }
    float fetch(cudaStream_t stream) override {
        CUDA_CHECK(cudaMemcpyAsync(h_result_.data(), d_result_.data(), sizeof(float), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        return *h_result_.data();
    }

  private:
    Setup s_;
    std::size_t temp_bytes_;
    cw::DeviceBuffer<unsigned char> d_temp_;
    cw::DeviceBuffer<float> d_result_;
    cw::HostBuffer<float> h_result_;
};

// The versions, in the order they run and appear in the CSV. Adding one: its kernel and
// launcher (vecmax_kernels.cu), a Runner, and one entry here.
const std::vector<Version>& registry() {
    static const std::vector<Version> versions = {
        entry("report", "vecmax_grid_stride_shared_tree",
              "the report's VecMax, bugs fixed: grid-stride slices, shared-memory tree, host finishes "
              "(--threads x --blocks)",
              false, [](const Setup& s) { return Shape{s.report_threads, s.report_blocks}; },
              [](const Setup& s) { return Workspace{float_bytes(s.report_blocks), float_bytes(s.report_blocks)}; },
              [](const Setup& s) { return std::unique_ptr<Runner>(new ReportRunner(s)); }),
        entry("single_pass", "vecmax_single_pass_vec4",
              "one launch: float4 loads, warp shuffles, resident grid, one atomicMax of an order key per block "
              "(--sp-blocks)",
              false, [](const Setup& s) { return Shape{s.single_pass.threads, s.single_pass_blocks}; },
              [](const Setup&) { return Workspace{2 * sizeof(unsigned int), sizeof(unsigned int)}; },
              [](const Setup& s) { return std::unique_ptr<Runner>(new SinglePassRunner(s)); }),
        entry("cub", "cub::DeviceReduce::Reduce(nan_max)",
              "cub::DeviceReduce::Reduce with the same NaN-propagating maximum", true,
              [](const Setup&) { return Shape{-1, -1}; },
              [](const Setup& s) { return Workspace{cub_temp_bytes(s.n) + sizeof(float), sizeof(float)}; },
              [](const Setup& s) { return std::unique_ptr<Runner>(new CubRunner(s)); }),
    };
    return versions;
}

const Version& baseline_version() {
    for (const Version& v : registry())
        if (v.is_baseline) return v;
    throw std::logic_error("vecmax: the registry has no baseline");
}

// One CSV row: the core columns (cw::core_row), then the report's own (its gather_results.py:
// input_ms, kernel_ms as its "processing time", gpu_gflops, output_ms, total_gpu_ms, cpu_ms,
// cpu_gflops, speedup_gpu, rel_error) and what a row needs to be reproduced.
struct RowData {
    const Version* version = nullptr;
    Shape shape{-1, -1};
    std::string host_memory, data;
    long long n = 0, seed = -1;
    int offset = 0, repeat = 0, warmup = 0;
    double kernel_ms = NAN, kernel_ms_no_flush = NAN, copy_bw_GBps = NAN, baseline_ms = NAN, input_ms = NAN,
           h2d_GBps = NAN, output_ms = NAN, total_gpu_ms = NAN, cpu_ms = NAN, gpu_gflops = NAN, cpu_gflops = NAN,
           speedup_gpu = NAN, rel_error = NAN;
    float result = NAN, expected = NAN;
    bool ok = false;
};

cw::CsvRow make_row(const RowData& r, const cw::DeviceColumns& dev) {
    cw::CoreRow core;
    core.assignment = "vecmax";
    if (r.version != nullptr) {
        core.version = r.version->label;
        core.validated = r.version->validated;
        core.is_baseline = r.version->is_baseline;
    }
    core.sizes = {{"n", r.n}};
    core.threads = r.shape.threads;
    core.blocks = r.shape.blocks;
    core.kernel_ms = r.kernel_ms;
    core.bytes = static_cast<double>(float_bytes(r.n));  // the vector, read once
    core.copy_bw_GBps = r.copy_bw_GBps;
    core.baseline_ms = r.baseline_ms;
    core.result_ok = r.ok;
    cw::CsvRow row = cw::core_row(dev, core);
    row.add("kernel", r.version != nullptr ? r.version->kernel : std::string())
        .add("host_memory", r.host_memory)
        .add("data", r.data);
    if (r.seed >= 0) row.add("seed", r.seed);
    else row.add_na("seed");  // --input: no seed
    row.add("offset", r.offset)
        .add("repeat", r.repeat)
        .add("warmup", r.warmup)
        .add("kernel_ms_no_flush", r.kernel_ms_no_flush)
        .add("copy_bw_GBps", r.copy_bw_GBps)
        .add("input_ms", r.input_ms)
        .add("h2d_GBps", r.h2d_GBps)
        .add("output_ms", r.output_ms)
        .add("total_gpu_ms", r.total_gpu_ms)
        .add("cpu_ms", r.cpu_ms)
        .add("gpu_gflops", r.gpu_gflops)
        .add("cpu_gflops", r.cpu_gflops)
        .add("speedup_gpu", r.speedup_gpu)
        .add("rel_error", r.rel_error)
        .add_value("result", static_cast<double>(r.result))
        .add_value("expected", static_cast<double>(r.expected));
    return row;
}

std::string shape_text(const Shape& s) {
    if (s.threads < 0) return "launch chosen by CUB";
    return cw::format("threads=%lld blocks=%lld", s.threads, s.blocks);
}

// --inject-fault: a maximum that differs from every right answer.
float altered(float x) { return (std::isnan(x) || std::isinf(x)) ? 0.0f : std::nextafter(x, INFINITY); }

int run(int argc, char** argv) {
    Config c;
    cw::Options opts(kProgram,
                     "Maximum of a float vector (report 000): the report's VecMax kernel (grid-stride slices, "
                     "shared-memory\ntree, host finishes), a single-pass kernel and CUB, each timed and checked "
                     "against the CPU.");
    opts.add_int("n", &c.n, 1, INT_MAX, "number of elements (up to CUB's int count; not with --input)")
        .add_int("threads", &c.threads, 0, 1024,
                 "threads per block of version=report, a power of two (0: automatic, " +
                     std::to_string(vecmax::kReportDefaultThreads) + ")")
        .add_int("blocks", &c.blocks, 0, INT_MAX,
                 "blocks of version=report (0: automatic, " + std::to_string(vecmax::kReportDefaultBlocks) +
                     "; automatic 1024 x 128 is the report's best configuration)")
        .add_int("sp-blocks", &c.sp_blocks, 0, 1 << 20,
                 "blocks of version=single_pass (0: automatic, resident blocks x SMs, capped by the work)")
        .add_choice("data", &c.data, vecmax::data_patterns(), "seeded data (see README)")
        .add_int("offset", &c.offset, 0, 3, "place the data this many floats past a 16-byte boundary")
        .add_int("cpu-repeat", &c.cpu_repeat, 1, 100000, "timed runs of the CPU reference (median)");
    cw::SharedOptionsHelp help;
    help.csv = "append one row per version to this CSV file (at the end, only if every version passed)";
    help.input = "read the vector from this raw little-endian float32 file (its size is N)";
    help.output = "write the maximum of the first version run (one raw float32) to this file";
    help.inject_fault = "testing aid: alter every validated version's maximum after it is fetched (each must "
                        "FAIL, exit 1)";
    cw::add_shared_options(opts, c, help);
    opts.positional({"n", "threads", "blocks"});
    opts.epilog(cw::versions_help(registry()) +
                "The baseline (cub) runs on every run, so that every row has baseline_ms, even when --only "
                "leaves out its row.");
    if (!opts.parse(argc, argv)) {
        std::fputs(opts.help_text().c_str(), stdout);
        return cw::kExitOk;
    }
    if (cw::list_versions_if_asked(c, registry())) return cw::kExitOk;

    // 1. Everything the user gave, before any CUDA call.
    if (c.threads != 0 && !cw::is_power_of_two(c.threads))
        throw cw::UsageError("option --threads=" + std::to_string(c.threads) +
                             " must be a power of two (the shared-memory tree halves the block)");
    cw::check_input_excludes(opts, {"n"});
    const std::vector<const Version*> chosen = cw::select_versions(registry(), c.only, opts.given("only"));
    std::unique_ptr<cw::InputFile> input;
    if (!c.input.empty()) {
        input.reset(new cw::InputFile(c.input, sizeof(float)));
        input->require_count(INT_MAX, "CUB's item count is an int");
        c.n = static_cast<long long>(input->count());
    }
    const std::string header = make_row(RowData(), cw::DeviceColumns()).header();
    if (!c.csv.empty()) cw::check_csv_file(c.csv, header);
    if (!c.output.empty()) cw::check_output_path(c.output, "output file");
    if (cw::print_csv_header_if_asked(c, header)) return cw::kExitOk;

    // 2. The device, and the launch shapes it implies.
    cw::Session session(kProgram, c.device, c.csv, c.output);
    const cw::DeviceInfo& dev = session.device();
    Setup setup;
    setup.n = c.n;
    setup.pinned = c.pinned;
    setup.report_threads = c.threads != 0 ? c.threads : vecmax::kReportDefaultThreads;
    setup.report_blocks = c.blocks != 0 ? c.blocks : vecmax::kReportDefaultBlocks;
    if (setup.report_blocks > dev.max_grid_x)
        throw cw::UsageError("option --blocks=" + std::to_string(setup.report_blocks) +
                             " exceeds the device's limit of " + std::to_string(dev.max_grid_x));
    setup.single_pass = vecmax::SinglePassPolicy::for_device(dev.cc_major, dev.cc_minor);
    setup.single_pass_blocks =
        c.sp_blocks != 0 ? c.sp_blocks : vecmax::single_pass_grid(setup.single_pass, c.n, dev.sm_count);
    const Version& baseline = baseline_version();
    bool baseline_chosen = false;
    for (const Version* v : chosen) baseline_chosen = baseline_chosen || v == &baseline;

    // 3. Memory: the vector on both sides (+ the offset), every workspace, and headroom on the
    // device for allocation granularity; refused before anything is allocated.
    const std::size_t n = static_cast<std::size_t>(c.n);
    unsigned long long host_bytes = float_bytes(c.n);
    unsigned long long device_bytes = float_bytes(c.n + 4) + (64ULL << 20);
    for (const Version* v : chosen) {
        const Workspace w = v->workspace(setup);
        host_bytes += w.host_bytes;
        device_bytes += w.device_bytes;
    }
    if (!baseline_chosen) {
        const Workspace w = baseline.workspace(setup);
        host_bytes += w.host_bytes;
        device_bytes += w.device_bytes;
    }
    session.require_memory(host_bytes, device_bytes,
                           "n=" + std::to_string(c.n) + " with --blocks=" + std::to_string(setup.report_blocks));

    // 4. The data, and the CPU reference (steady clock: the report's "processing time for CPU").
    cw::HostBuffer<float> host(n, c.pinned);
    if (input) input->read_into(host.data());
    else vecmax::fill_pattern(host.data(), n, c.data, static_cast<std::uint64_t>(c.seed));
    input.reset();
    const std::string data_label = c.input.empty() ? c.data : "input";
    std::printf("n=%lld (%s data%s), %s host memory\n", c.n, data_label.c_str(),
                c.offset ? (", offset " + std::to_string(c.offset)).c_str() : "", c.pinned ? "pinned" : "pageable");
    cw::DeviceBuffer<float> d_alloc(n + 4);
    const float* const d_x = d_alloc.data() + c.offset;
    // Input: the vector, host to device (the report's "input time"; no allocation in it).
    const double bytes = static_cast<double>(float_bytes(c.n));
    const double input_ms = cw::time_gpu(c.warmup, c.repeat, [&](cudaStream_t s) {
                                CUDA_CHECK(cudaMemcpyAsync(d_alloc.data() + c.offset, host.data(), n * sizeof(float),
                                                           cudaMemcpyHostToDevice, s));
                            }).median_ms();
    CUDA_CHECK(cudaDeviceSynchronize());
    const float want = vecmax::max_reference(host.data(), n);
    volatile float sink = 0.0f;
    const double cpu_ms =
        cw::time_host(0, c.cpu_repeat, [&]() { sink = vecmax::max_reference(host.data(), n); }).median_ms();
    (void)sink;

    struct Measured {
        double kernel_ms, kernel_ms_no_flush, output_ms;
        float result;
    };
    auto measure = [&](const Version& v) {
        std::unique_ptr<Runner> runner = v.make(setup);
        auto launch = [&](cudaStream_t s) { runner->launch(d_x, s); };
        Measured m;
        // Kernel time with the L2 flushed before every timed run (the data never starts in
        // the cache), then without the flush (what back-to-back calls see).
        m.kernel_ms = cw::time_gpu(c.warmup, c.repeat, launch, session.flusher()).median_ms();
        m.kernel_ms_no_flush = cw::time_gpu(0, c.repeat, launch).median_ms();
        float got = NAN;
        m.output_ms = cw::time_gpu(c.warmup > 0 ? 1 : 0, c.repeat, [&](cudaStream_t s) { got = runner->fetch(s); })
                          .median_ms();
        m.result = (c.inject_fault && v.validated) ? altered(got) : got;
        return m;
    };

    // 5. The baseline, then every selected version.
    session.plan(static_cast<int>(chosen.size()));
    const Measured base = measure(baseline);
    for (const Version* v : chosen) {
        const Measured m = (v == &baseline) ? base : measure(*v);
        RowData r;
        r.version = v;
        r.shape = v->shape(setup);
        r.host_memory = c.pinned ? "pinned" : "pageable";
        r.data = data_label;
        r.n = c.n;
        r.seed = c.input.empty() ? c.seed : -1;
        r.offset = c.offset;
        r.repeat = c.repeat;
        r.warmup = c.warmup;
        r.kernel_ms = m.kernel_ms;
        r.kernel_ms_no_flush = m.kernel_ms_no_flush;
        r.copy_bw_GBps = session.copy_bw_GBps();
        r.baseline_ms = base.kernel_ms;
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
        const double bw = cw::gigabytes_per_second(bytes, m.kernel_ms);
        session.record(v->label, r.ok,
                       cw::format("n=%lld %s kernel=%.4f ms (%.0f GB/s, %.0f%% of copy) vs cub %.4f ms, "
                                  "total=%.3f ms, cpu=%.3f ms, speedup=%.3f, max=%.9g",
                                  c.n, shape_text(r.shape).c_str(), m.kernel_ms, bw,
                                  100.0 * bw / session.copy_bw_GBps(), base.kernel_ms, r.total_gpu_ms, cpu_ms,
                                  r.speedup_gpu, static_cast<double>(m.result)) +
                           (r.ok ? "" : cw::format(" expected %.9g", static_cast<double>(want))));
        session.add_row(make_row(r, session.columns()));
        session.set_output(&r.result, 1);  // the first version's maximum (the first call wins)
        session.progress(cw::format("version=%s %s: kernel %.4f ms, %s", v->label.c_str(),
                                    shape_text(r.shape).c_str(), m.kernel_ms, r.ok ? "PASS" : "FAIL"));
    }
    if (!baseline_chosen && !cw::same_value(base.result, want))
        session.record(baseline.label, false,
                       cw::format("(baseline, not in --only) max=%.9g expected %.9g", static_cast<double>(base.result),
                                  static_cast<double>(want)));
    return session.finish();
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main(kProgram, [&]() { return run(argc, argv); });
}
