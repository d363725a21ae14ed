// colreduce: column sums of an m x n row-major matrix of doubles (report 003), every version
// timed and checked against the CPU reference. `colreduce M N` as in the report's run.slurm;
// --sizes=MxN,... runs several shapes in one process. See README.md.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "colreduce_cpu.h"
#include "colreduce_kernels.cuh"
#include "common.cuh"

namespace {

using colreduce::ColumnReducer;

struct Settings : cw::SharedOptions {
    long long m = 3;  // the report's defaults
    int n = 3;
    std::string sizes;
    std::string data = "random";
    int threads = 0;
    int blocks = 0;
    int slow_repeat = 0;
    bool print_header = false;
    Settings() {
        repeat = 10;
        warmup = 2;
        seed = 0;
    }
};

// Everything one CSV row says about one (configuration, version).
struct RowData {
    std::string version, kernel, data;
    long long m = 0;
    int n = 0, config_index = 0;
    unsigned long long seed = 0;
    dim3 grid = dim3(0, 0, 0), block = dim3(0, 0, 0);
    colreduce::GpuRun run;
    double copy_bw = 0, baseline_ms = NAN, cpu_ms = 0;
    int repeat = 0, warmup = 0;
    bool pinned = false;
    colreduce::ColumnCheck check;
    bool ok = false;
};

std::string dims(const dim3& d) {
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

cw::CsvRow make_row(const cw::DeviceInfo& dev, const RowData& r) {
    const double bytes = (static_cast<double>(r.m) * r.n + r.n) * sizeof(double);  // matrix read, result written
    const double bw = r.run.kernel_ms > 0 ? cw::gigabytes_per_second(bytes, r.run.kernel_ms) : NAN;
    cw::CsvRow row;
    row.add("assignment", "colreduce").add("version", r.version).add("kernel", r.kernel);
    dev.add_csv_columns(row);
    row.add("m", r.m)
        .add("n", r.n)
        .add("size_label", std::to_string(r.m) + "x" + std::to_string(r.n))
        .add("config_index", r.config_index)
        .add("data", r.data)
        .add("seed", static_cast<unsigned long long>(r.seed))
        .add("threads", static_cast<unsigned long long>(r.block.x) * r.block.y * r.block.z)
        .add("blocks", static_cast<unsigned long long>(r.grid.x) * r.grid.y * r.grid.z)
        .add("grid", dims(r.grid))
        .add("block", dims(r.block))
        .add("kernel_ms", r.run.kernel_ms)
        .add("kernel_min_ms", r.run.kernel_min_ms)
        .add("bandwidth_GBps", bw)
        .add("copy_bw_GBps", r.copy_bw)
        .add("pct_of_copy_bw", r.copy_bw > 0 ? 100.0 * bw / r.copy_bw : NAN)
        .add("baseline_ms", r.baseline_ms, 6, true)
        .add("speedup_vs_baseline", r.baseline_ms / r.run.kernel_ms, 6, true)
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
        .add("max_abs_err", r.check.max_abs_error, 6)
        .add("err_over_bound", r.check.max_error_ratio, 6)
        .add("repeatable", r.run.repeatable < 0 ? std::string() : std::to_string(r.run.repeatable))
        .add("result_ok", r.ok);
    return row;
}

bool is_report_version(const std::string& label) {
    return label == "original" || label == "high1" || label == "high2";
}

int run(int argc, char** argv) {
    Settings s;
    cw::Options opts("colreduce",
                     "Column sums vec[j] = sum_i mat[i*n + j] of an m x n row-major double matrix (report 003):\n"
                     "versions original, high1, high2 (the report's), tall, tall_det (ours), cublas (cublasDgemv).");
    opts.add_int("m", &s.m, 1, 2147483647LL, "rows M")
        .add_int("n", &s.n, 1, colreduce::kMaxColumns, "columns N")
        .add_string("sizes", &s.sizes, "several shapes in one run, MxN,MxN,... (instead of M N)")
        .add_choice("data", &s.data, colreduce::kDataKinds,
                    "matrix values: random in (-1,1), the report's rand()%10/1e5, negative in (-1,0), wide exponents")
        .add_int("threads", &s.threads, 0, 1024, "threads per block of tall/tall_det (0 = 1024; rounded to a multiple of n/gcd(n,2))")
        .add_int("blocks", &s.blocks, 0, 65535, "blocks of tall/tall_det (0 = one wave, fewer for small matrices)")
        .add_int("slow-repeat", &s.slow_repeat, 0, 100000,
                 "timed runs of original/high1/high2, after at most one warm-up (0 = --repeat and --warmup)")
        .add_flag("print-csv-header", &s.print_header, "print the CSV header line and exit (no GPU needed)");
    cw::SharedOptionsHelp help{"append one row per (size, version) to this CSV file",
                               "read the matrix from this file (m*n raw little-endian doubles, row-major)",
                               "write the column sums (n doubles) of the first version run",
                               "run only these versions, e.g. --only=tall,cublas (all by default)"};
    help.seed = "seed of the random matrix (srand(seed) for --data=report)";
    help.seed_max = 4294967295LL;
    help.pinned = "page-locked host matrix (faster copies)";
    cw::add_shared_options(opts, s, help).positional({"m", "n"});
    if (!opts.parse(argc, argv)) {
        std::fputs(opts.help_text().c_str(), stdout);
        return cw::kExitOk;
    }
    if (s.print_header) {
        std::printf("%s\n", make_row(cw::DeviceInfo(), RowData()).header().c_str());
        return cw::kExitOk;
    }

    // Everything the user gave is checked here, before any CUDA call.
    std::vector<std::pair<long long, int>> sizes;
    if (opts.given("sizes")) {
        if (opts.given("m") || opts.given("n"))
            throw cw::UsageError("option --sizes cannot be combined with M N (or --m/--n)");
        sizes = colreduce::parse_sizes(s.sizes, colreduce::kMaxColumns);
    } else {
        sizes.emplace_back(s.m, s.n);
    }
    const cw::VersionFilter filter(s.only, colreduce::kVersionLabels);
    std::vector<std::string> labels;
    for (const std::string& l : colreduce::kVersionLabels)
        if (filter.wants(l)) labels.push_back(l);

    unsigned long long biggest = 0;
    for (const auto& sz : sizes) {
        const unsigned long long bytes = static_cast<unsigned long long>(sz.first) * sz.second * sizeof(double);
        if (bytes > biggest) biggest = bytes;
    }
    const unsigned long long host_bytes = colreduce::available_host_bytes();
    if (host_bytes > 0 && biggest > host_bytes / 10 * 9)
        throw cw::UsageError("an m x n matrix of doubles of " + std::to_string(biggest >> 20) +
                             " MiB cannot be allocated: " + std::to_string(host_bytes >> 20) +
                             " MiB of host memory are available");

    std::vector<double> input_data;
    if (!s.input.empty()) {
        if (sizes.size() != 1) throw cw::UsageError("option --input needs a single size (M N), not --sizes");
        input_data = cw::read_binary<double>(s.input, static_cast<std::size_t>(sizes[0].first) * sizes[0].second);
        const long long bad = colreduce::first_non_finite(input_data.data(), input_data.size());
        if (bad >= 0)
            throw cw::UsageError("input file '" + s.input + "' holds a value that is not finite (element " +
                                 std::to_string(bad) + ")");
    }
    if (!s.output.empty()) {
        if (sizes.size() != 1) throw cw::UsageError("option --output needs a single size (M N), not --sizes");
        cw::check_writable(s.output);
    }
    const std::string data_name = s.input.empty() ? s.data : "input";
    if (!s.csv.empty()) cw::check_csv_file(s.csv, make_row(cw::DeviceInfo(), RowData()).header());
    const int slow_repeat = s.slow_repeat > 0 ? s.slow_repeat : s.repeat;
    const int slow_warmup = s.slow_repeat > 0 ? std::min(s.warmup, 1) : s.warmup;

    // GPU work from here on.
    const cw::DeviceInfo dev = cw::select_device(s.device);
    std::printf("%s\n", dev.describe().c_str());
    colreduce::TallConfig tall;
    tall.threads = s.threads;
    tall.blocks = s.blocks;
    std::vector<std::unique_ptr<ColumnReducer>> reducers;
    for (const std::string& l : labels)
        reducers.push_back(l == "cublas" ? colreduce::make_cublas_reducer() : colreduce::make_kernel_reducer(l, tall));
    cw::L2Flusher flusher;
    for (const auto& sz : sizes) {
        std::size_t workspace = 0;
        for (const auto& r : reducers) workspace = std::max(workspace, r->workspace_bytes(sz.first, sz.second));
        const std::size_t need = static_cast<std::size_t>(sz.first) * sz.second * sizeof(double) +
                                 sz.second * sizeof(double) + workspace;
        cw::require_device_memory(need, "m=" + std::to_string(sz.first) + " n=" + std::to_string(sz.second));
    }
    const double copy_bw = cw::measure_copy_bandwidth_GBps();
    std::printf("device-to-device copy bandwidth: %.1f GB/s (bytes read + written)\n", copy_bw);

    cw::ResultBook book("colreduce");
    const int steps = static_cast<int>(sizes.size() * reducers.size());
    int step = 0;
    bool output_written = false;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        const long long m = sizes[k].first;
        const int n = sizes[k].second;
        const std::size_t count = static_cast<std::size_t>(m) * static_cast<std::size_t>(n);
        cw::HostBuffer<double> mat(count, s.pinned);
        if (!input_data.empty())
            std::memcpy(mat.data(), input_data.data(), count * sizeof(double));
        else
            colreduce::fill_matrix(mat.data(), count, s.data, static_cast<std::uint64_t>(s.seed));

        std::printf("\nDo column reduce on mat m: %lld n: %d ...\n", m, n);
        cw::HostStopwatch cpu_watch;
        const colreduce::ColumnReference ref = colreduce::cpu_column_reference(mat.data(), m, n);
        const double cpu_ms = cpu_watch.elapsed_ms();
        std::printf("CPU: %f milisec\n", cpu_ms);

        std::vector<RowData> rows;
        double baseline_ms = NAN;
        for (const auto& reducer : reducers) {
            const std::string label = reducer->label();
            const bool slow = is_report_version(label);
            RowData r;
            r.version = label;
            r.kernel = reducer->kernel_name();
            r.data = data_name;
            r.m = m, r.n = n, r.config_index = static_cast<int>(k);
            r.seed = static_cast<unsigned long long>(s.seed);
            r.repeat = slow ? slow_repeat : s.repeat;
            r.warmup = slow ? slow_warmup : s.warmup;
            r.pinned = s.pinned;
            r.copy_bw = copy_bw;
            r.cpu_ms = cpu_ms;
            std::vector<double> vec(static_cast<std::size_t>(n), 0.0);
            r.run = colreduce::gpu_mat_column_reduce(*reducer, mat.data(), vec.data(), m, n, r.warmup, r.repeat, &flusher);
            r.grid = reducer->grid();
            r.block = reducer->block();
            r.check = colreduce::check_columns(vec.data(), ref, m);
            // tall_det promises the same bits on every run; original has no atomics either.
            const bool must_repeat = label == "tall_det" || label == "original";
            const bool repeat_ok = !(must_repeat && r.run.repeatable == 0);
            r.ok = r.check.ok && repeat_ok;
            if (label == "cublas") baseline_ms = r.run.kernel_ms;

            // The report's lines, then ours.
            std::printf("version %s (%s):\n", label.c_str(), r.kernel.c_str());
            std::printf(" grid dim: %u, %u, %u.\n", r.grid.x, r.grid.y, r.grid.z);
            std::printf(" block dim: %u, %u, %u.\n", r.block.x, r.block.y, r.block.z);
            std::printf(" kernel time: %f milisec\n", r.run.kernel_ms);
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
            char detail[160];
            std::snprintf(detail, sizeof detail, "m=%lld n=%d max_abs_err=%.3g err/bound=%.3g", m, n,
                          r.check.max_abs_error, r.check.max_error_ratio);
            book.record(label, r.ok, detail);
            char line[200];
            std::snprintf(line, sizeof line, "m=%lld n=%d version=%s kernel %.4f ms, GPU total %.2f ms %s", m, n,
                          label.c_str(), r.run.kernel_ms, r.run.total_ms(), r.ok ? "PASS" : "FAIL");
            cw::progress_line(++step, steps, line);

            if (!s.output.empty() && !output_written) {
                cw::write_binary(s.output, vec.data(), vec.size());
                output_written = true;
            }
            rows.push_back(r);
        }
        if (!s.csv.empty()) {
            for (RowData& r : rows) {
                r.baseline_ms = baseline_ms;
                cw::csv_append(s.csv, make_row(dev, r));
            }
        }
    }
    std::printf("\n%d of %d version runs passed\n", book.checked() - book.failed(), book.checked());
    return book.exit_status();
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main("colreduce", [&]() { return run(argc, argv); });
}
