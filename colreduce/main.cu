// colreduce: column sums of an m x n row-major matrix of doubles (report 003), every version of
// the registry (colreduce_kernels.cu, versions()) timed and checked against the CPU reference.
// `colreduce M N` as in the report's run.slurm; --sizes=MxN,... runs several shapes in one
// process; --input=FILE --n=N reads an m x n matrix (m = elements / N). See README.md.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "colreduce_cpu.h"
#include "colreduce_kernels.cuh"
#include "common.cuh"

namespace {

using colreduce::Version;

struct Settings : cw::SharedOptions {
    long long m = 3;  // the report's defaults (its main.c ran 3 x 3 without arguments)
    int n = 3;
    std::string sizes;
    std::string data = "random";
    int threads = 0;      // 0: automatic (TallPolicy)
    int blocks = 0;       // 0: automatic (one wave)
    int slow_repeat = 0;  // 0: --repeat and --warmup
};

// Everything one CSV row says about one (configuration, version).
struct RowData {
    std::string version, kernel, data = "random";
    bool validated = true, is_baseline = false;
    long long m = 0;
    int n = 0, config_index = 0;
    long long seed = -1;  // -1: not applicable (--input)
    dim3 grid = dim3(0, 0, 0), block = dim3(0, 0, 0);
    colreduce::GpuRun run;
    double copy_bw = NAN, baseline_ms = NAN, cpu_ms = NAN;
    int repeat = 0, warmup = 0;
    bool pinned = false;
    colreduce::ColumnCheck check;
    bool ok = false;
    double context_ms = NAN;           // CUDA context creation at the start of this process
    std::string launch_error = "cudaSuccess";
    int max_threads_per_block = 0;     // the device's limit (block_per_column_over_limit exceeds it)
};

// "8x128x1"; empty for a library's own launch (0 x 0 x 0).
std::string dims(const dim3& d) {
    if (d.x == 0) return std::string();
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

// The core columns (cw::core_row), then colreduce's own: what the README's tables and the
// figures read (kernel, size_label, config_index, the report's time split, the error).
cw::CsvRow make_row(const cw::DeviceColumns& dev, const RowData& r) {
    cw::CoreRow core;
    core.assignment = "colreduce";
    core.version = r.version;
    core.validated = r.validated;
    core.is_baseline = r.is_baseline;
    core.sizes = {{"m", r.m}, {"n", r.n}};
    const long long threads = static_cast<long long>(r.block.x) * r.block.y * r.block.z;
    const long long blocks = static_cast<long long>(r.grid.x) * r.grid.y * r.grid.z;
    core.threads = threads > 0 ? threads : -1;
    core.blocks = blocks > 0 ? blocks : -1;
    core.kernel_ms = r.run.kernel_ms;
    core.bytes = (static_cast<double>(r.m) * r.n + r.n) * sizeof(double);  // matrix read, result written
    core.copy_bw_GBps = r.copy_bw;
    core.baseline_ms = r.baseline_ms;
    core.result_ok = r.ok;
    cw::CsvRow row = cw::core_row(dev, core);
    row.add("kernel", r.kernel)
        .add("size_label", std::to_string(r.m) + "x" + std::to_string(r.n))
        .add("config_index", r.config_index)
        .add("data", r.data);
    if (r.seed >= 0) row.add("seed", r.seed); else row.add_na("seed");
    row.add("grid", dims(r.grid))
        .add("block", dims(r.block))
        .add("kernel_min_ms", r.run.kernel_min_ms)
        .add("copy_bw_GBps", r.copy_bw)
        .add("cpu_ms", r.cpu_ms)
        .add("alloc_ms", r.run.alloc_ms)
        .add("h2d_ms", r.run.h2d_ms)
        .add("d2h_ms", r.run.d2h_ms)
        .add("free_ms", r.run.free_ms)
        .add("copy_ms", r.run.h2d_ms + r.run.d2h_ms)
        .add("gpu_total_ms", r.run.total_ms())
        .add("repeat", r.repeat)
        .add("warmup", r.warmup)
        .add("l2_flushed", true)
        .add("pinned", r.pinned)
        .add_value("max_abs_err", r.check.max_abs_error, 6)
        .add_value("err_over_bound", r.check.max_error_ratio, 6)
        .add("wrong_columns", r.check.wrong)
        .add("launch_error", r.launch_error)
        .add("max_threads_per_block", r.max_threads_per_block)
        .add("context_ms", r.context_ms);
    if (r.run.repeatable >= 0) row.add("repeatable", r.run.repeatable); else row.add_na("repeatable");
    return row;
}

std::string csv_header() { return make_row(cw::DeviceColumns(), RowData()).header(); }

std::string shape(long long m, int n) { return "m=" + std::to_string(m) + " n=" + std::to_string(n); }

// Host bytes of one size: the matrix, the result and the reference's vectors.
unsigned long long host_bytes(long long m, int n) {
    return (static_cast<unsigned long long>(m) * n + 8ULL * n) * sizeof(double);
}

// The first CUDA calls of the process, host-timed: driver initialisation and the creation of
// the device's primary context (with CUDA's lazy module loading, the kernels' modules load
// later, at their first launch). The report's GPU time paid for this in every run (its first
// cudaMalloc made the context, one process per size); ours is measured here, once, and kept
// out of every other number. NaN when the calls fail: the Session that follows reports why.
double context_creation_ms(int device) {
    cw::HostStopwatch watch;
    if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
        (void)cudaGetLastError();
        return NAN;
    }
    return watch.elapsed_ms();
}

int run(int argc, char** argv) {
    // 1. Options and input, all checked before any CUDA call.
    const std::vector<Version>& registry = colreduce::versions();
    std::string slow_labels;
    for (const Version& v : registry)
        if (v.slow) slow_labels += (slow_labels.empty() ? "" : ", ") + v.label;
    Settings s;
    cw::Options opts("colreduce",
                     "Column sums vec[j] = sum_i mat[i*n + j] of an m x n row-major double matrix (report 003):\n"
                     "the report's versions, ours, and cuBLAS, each timed and checked against the CPU reference.");
    opts.add_int("m", &s.m, 1, colreduce::kMaxRows, "rows M (not with --input: the file gives m = elements / N)")
        .add_int("n", &s.n, 1, colreduce::kMaxColumns, "columns N (with --input: required)")
        .add_string("sizes", &s.sizes, "several shapes in one run, MxN,MxN,... (instead of M N)")
        .add_choice("data", &s.data, colreduce::kDataKinds,
                    "matrix values: random in (-1,1), the report's rand()%10/1e5, negative in (-1,0), wide exponents")
        .add_int("threads", &s.threads, 0, colreduce::TallPolicy::kMaxThreads,
                 "threads per block of tall/tall_det, rounded down to a multiple of n/gcd(n,2) "
                 "(0 = automatic: the tuning policy's 1024)")
        .add_int("blocks", &s.blocks, 0, 65535,
                 "blocks of tall/tall_det (0 = automatic: one full wave of resident blocks, fewer for small matrices)")
        .add_int("slow-repeat", &s.slow_repeat, 0, 100000,
                 "timed runs of the report's slow versions (" + slow_labels +
                     "), after at most one warm-up, so that a report-sized run stays short "
                     "(0 = --repeat and --warmup)");
    cw::SharedOptionsHelp help;
    help.csv = "append one row per (size, version) to this CSV file";
    help.input = "read the matrix from this file (raw little-endian doubles, row-major; give --n, m = elements / n)";
    help.output = "write the column sums (n doubles) of the first version run";
    help.seed = "seed of the random matrix (srand(seed) for --data=report)";
    help.pinned = "page-locked host matrix (faster copies)";
    help.inject_fault = "testing aid: alter column 0 of every validated version's result (each must FAIL, exit 1)";
    cw::add_shared_options(opts, s, help).positional({"m", "n"}).epilog(cw::versions_help(registry));
    if (!opts.parse(argc, argv)) {
        std::fputs(opts.help_text().c_str(), stdout);
        return cw::kExitOk;
    }
    if (cw::list_versions_if_asked(s, registry)) return cw::kExitOk;
    cw::check_input_excludes(opts, {"m", "sizes"});
    const std::vector<const Version*> chosen = cw::select_versions(registry, s.only, opts.given("only"));

    std::vector<std::pair<long long, int>> sizes;
    std::unique_ptr<cw::InputFile> input;
    if (opts.given("input")) {
        input.reset(new cw::InputFile(s.input, sizeof(double)));
        if (!opts.given("n"))
            throw cw::UsageError("option --input needs --n (the number of columns; the file gives m = elements / n)");
        input->require_count(static_cast<unsigned long long>(colreduce::kMaxRows) * s.n,
                             "m = elements / n is at most " + std::to_string(colreduce::kMaxRows) + " rows", s.n,
                             "rows of n=" + std::to_string(s.n) + " columns");
        input->require_finite<double>();  // a NaN or an infinity is bad input: said before the device probe
        sizes.emplace_back(static_cast<long long>(input->count() / s.n), s.n);
    } else if (opts.given("sizes")) {
        cw::check_excludes(opts, "sizes", {"m", "n"});
        sizes = colreduce::parse_sizes(s.sizes, colreduce::kMaxRows, colreduce::kMaxColumns);
    } else {
        sizes.emplace_back(s.m, s.n);
    }
    if (opts.given("output")) {
        if (sizes.size() != 1) throw cw::UsageError("option --output needs a single size (M N), not --sizes");
        cw::check_output_path(s.output, "output file");
    }
    if (opts.given("csv")) cw::check_csv_file(s.csv, csv_header());
    unsigned long long biggest = 0;
    std::string biggest_shape;
    for (const auto& sz : sizes)
        if (host_bytes(sz.first, sz.second) > biggest) {
            biggest = host_bytes(sz.first, sz.second);
            biggest_shape = shape(sz.first, sz.second);
        }
    cw::require_host_memory(biggest, biggest_shape);
    if (cw::print_csv_header_if_asked(s, csv_header())) return cw::kExitOk;
    const int slow_repeat = s.slow_repeat > 0 ? s.slow_repeat : s.repeat;
    const int slow_warmup = s.slow_repeat > 0 ? std::min(s.warmup, 1) : s.warmup;

    // 2. The context (timed), the device (exit 3 without one), its copy bandwidth, the L2 flusher.
    const double context_ms = context_creation_ms(s.device);
    cw::Session session("colreduce", s.device, s.csv, s.output);
    if (!std::isnan(context_ms)) std::printf("CUDA context creation: %.1f ms (once, at the start of this process)\n", context_ms);
    colreduce::LaunchContext context;
    context.device = &session.device();
    context.policy = colreduce::TallPolicy::for_device(session.device());
    context.threads = s.threads;
    context.blocks = s.blocks;
    std::vector<std::unique_ptr<colreduce::ColumnReducer>> reducers;
    for (const Version* v : chosen) reducers.push_back(v->make(context));

    // 3. Memory, for every size, before any host buffer is filled.
    for (const auto& sz : sizes) {
        std::size_t workspace = 0;
        for (const auto& r : reducers) workspace = std::max(workspace, r->workspace_bytes(sz.first, sz.second));
        const unsigned long long device_bytes =
            (static_cast<unsigned long long>(sz.first) * sz.second + sz.second) * sizeof(double) + workspace;
        session.require_memory(host_bytes(sz.first, sz.second), device_bytes, shape(sz.first, sz.second));
    }

    // 4. Per size: data, CPU reference, then every chosen version.
    session.plan(static_cast<int>(sizes.size() * chosen.size()));
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        const long long m = sizes[k].first;
        const int n = sizes[k].second;
        const std::size_t count = static_cast<std::size_t>(m) * static_cast<std::size_t>(n);
        cw::HostBuffer<double> mat(count, s.pinned);
        if (input) {
            input->read_into(mat.data());
            const long long bad = colreduce::first_non_finite(mat.data(), count);
            if (bad >= 0)
                throw cw::UsageError("input file '" + s.input + "' holds a value that is not finite (element " +
                                     std::to_string(bad) + ")");
        } else {
            colreduce::fill_matrix(mat.data(), count, s.data, static_cast<std::uint64_t>(s.seed));
        }

        std::printf("\nDo column reduce on mat m: %lld n: %d ...\n", m, n);
        cw::HostStopwatch cpu_watch;
        const colreduce::ColumnReference ref = colreduce::cpu_column_reference(mat.data(), m, n);
        const double cpu_ms = cpu_watch.elapsed_ms();
        std::printf("CPU: %f milisec\n", cpu_ms);

        std::vector<RowData> rows;
        double baseline_ms = NAN;
        for (std::size_t i = 0; i < chosen.size(); ++i) {
            const Version& v = *chosen[i];
            RowData r;
            r.version = v.label;
            r.kernel = v.kernel;
            r.validated = v.validated;
            r.is_baseline = v.is_baseline;
            r.data = input ? "input" : s.data;
            r.seed = input ? -1 : s.seed;
            r.m = m, r.n = n, r.config_index = static_cast<int>(k);
            r.repeat = v.slow ? slow_repeat : s.repeat;
            r.warmup = v.slow ? slow_warmup : s.warmup;
            r.pinned = s.pinned;
            r.copy_bw = session.copy_bw_GBps();
            r.cpu_ms = cpu_ms;
            r.context_ms = context_ms;
            r.max_threads_per_block = session.device().max_threads_per_block;
            std::vector<double> vec(static_cast<std::size_t>(n), 0.0);
            r.run = colreduce::gpu_mat_column_reduce(*reducers[i], mat.data(), vec.data(), m, n, r.warmup, r.repeat,
                                                     session.flusher());
            r.grid = reducers[i]->grid();
            r.block = reducers[i]->block();
            const cudaError_t launch_error = reducers[i]->launch_error();
            r.launch_error = cudaGetErrorName(launch_error);
            if (s.inject_fault && v.validated) vec[0] += 2.0 * colreduce::column_error_bound(m, ref.abs_sum[0]) + 1.0;
            r.check = colreduce::check_columns(vec.data(), ref, m);
            const bool repeat_ok = !(v.bitwise_repeatable && r.run.repeatable == 0);
            r.ok = r.check.ok && repeat_ok;
            if (v.is_baseline) baseline_ms = r.run.kernel_ms;

            // The report's lines, then ours.
            std::printf("version %s (%s):\n", v.label.c_str(), v.kernel.c_str());
            std::printf(" grid dim: %u, %u, %u.\n", r.grid.x, r.grid.y, r.grid.z);
            std::printf(" block dim: %u, %u, %u.\n", r.block.x, r.block.y, r.block.z);
            std::printf(" kernel time: %f milisec\n", r.run.kernel_ms);
            if (launch_error != cudaSuccess)
                std::printf(" launch failed, not checked (as in the report's code): %s (%s); block of %u threads, "
                            "device limit %d\n",
                            cudaGetErrorName(launch_error), cudaGetErrorString(launch_error),
                            r.block.x * r.block.y * r.block.z, r.max_threads_per_block);
            std::printf("GPU: %f milisec (alloc %.3f, copies in %.3f, kernel %.3f, copy out %.3f, free %.3f)\n",
                        r.run.total_ms(), r.run.alloc_ms, r.run.h2d_ms, r.run.kernel_ms, r.run.d2h_ms, r.run.free_ms);
            if (r.check.ok) {
                std::printf("Passed, GPU all values correct!\n");
            } else {
                const int j = r.check.first_wrong;
                std::printf("cpu vec: %.17g, host vec: %.17g (column %d, bound %.3g)\n", ref.sum[j], vec[j], j,
                            colreduce::column_error_bound(m, ref.abs_sum[j]));
                std::printf("GPU %d / %d values incorrect\n", r.check.wrong, n);
            }
            if (!repeat_ok) std::printf("GPU result differs between two runs of a deterministic version\n");
            std::string detail = cw::format("m=%lld n=%d max_abs_err=%.3g err/bound=%.3g", m, n,
                                            r.check.max_abs_error, r.check.max_error_ratio);
            if (launch_error != cudaSuccess) detail += " launch_error=" + r.launch_error;
            if (!v.validated) detail += cw::format(" wrong_columns=%d/%d", r.check.wrong, n);
            if (v.validated)
                session.record(v.label, r.ok, detail);
            else
                session.demonstration(v.label, detail);
            session.progress(cw::format("m=%lld n=%d version=%s kernel %.4f ms, GPU total %.2f ms %s", m, n,
                                        v.label.c_str(), r.run.kernel_ms, r.run.total_ms(), r.ok ? "PASS" : "FAIL"));
            session.set_output(vec.data(), vec.size());  // the first version's (the first call wins)
            rows.push_back(r);
        }
        for (RowData& r : rows) {
            r.baseline_ms = baseline_ms;
            session.add_row(make_row(session.columns(), r));
        }
    }

    // 5. The CSV rows and the output, only when every version passed.
    std::printf("\n");
    return session.finish();
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main("colreduce", [&]() { return run(argc, argv); });
}
