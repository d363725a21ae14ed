// colreduce: column sums of an m x n row-major matrix of doubles (report 003), as a description
// for the shared run loop (common/run_loop.cuh): options, one plan per shape (M N as in the
// report's run.slurm, --sizes=MxN,..., or --input=FILE --n=N), the data and CPU reference, the
// check within the error bound, the CSV row. The versions are in colreduce_versions.cu.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "colreduce_cpu.h"
#include "colreduce_kernels.cuh"
#include "colreduce_policy.h"
#include "colreduce_versions.cuh"
#include "common.cuh"
#include "run_loop.cuh"

namespace {

using colreduce::Plan;

struct Config : cw::SharedOptions {
    long long m = 3;  // the report's defaults (its main.c ran 3 x 3 without arguments)
    int n = 3;
    std::string sizes;
    std::string data = "random";
    int threads = 0;      // 0: automatic (kTallPolicy)
    int blocks = 0;       // 0: automatic (one wave)
    int slow_repeat = 0;  // 0: --repeat and --warmup
};

// A version's run beyond its timed series: the report's split of its GPU time and its launch, the check.
struct Extra {
    colreduce::GpuRun run;
    colreduce::ColumnCheck check;
};

// Host bytes of one shape: the matrix, the result and the reference's vectors.
double host_bytes(const Plan& p) { return (static_cast<double>(p.m) * p.n + 8.0 * p.n) * sizeof(double); }

class Colreduce : public cw::Program<Plan, colreduce::Version, Extra> {
  public:
    Colreduce()
        : Program("colreduce",
                  "Column sums vec[j] = sum_i mat[i*n + j] of an m x n row-major double matrix (report 003):\n"
                  "the report's versions, ours, and cuBLAS, each timed and checked against the CPU reference.",
                  "The baseline (cublas) runs at every size, so that every row has baseline_ms, even when --only "
                  "leaves out its row.") {}
    const std::vector<V>& versions() const override { return colreduce::registry(); }
    cw::SharedOptions& shared() override { return c_; }

    void declare(cw::Options& opts, cw::SharedOptionsHelp& help) override {
        opts.add_int("m", &c_.m, 1, colreduce::kMaxRows, "rows M (not with --input: the file gives m = elements / N)")
            .add_int("n", &c_.n, 1, colreduce::kMaxColumns, "columns N (with --input: required)")
            .add_string("sizes", &c_.sizes, "several shapes in one run, MxN,MxN,... (instead of M N)")
            .add_choice("data", &c_.data, colreduce::kDataKinds,
                        "matrix values: random in (-1,1), the report's rand()%10/1e5, negative in (-1,0), "
                        "wide exponents")
            .add_int("threads", &c_.threads, 0, colreduce::TallPolicy::kMaxThreads,
                     "threads per block of tall/tall_det, rounded down to a multiple of n/gcd(n,2) (0 = automatic: "
                     "the tuning policy's " + std::to_string(colreduce::kTallPolicy.threads) + ")")
            .add_int("blocks", &c_.blocks, 0, 65535,
                     "blocks of tall/tall_det (0 = automatic: one full wave of resident blocks, fewer for small "
                     "matrices)")
            .add_int("slow-repeat", &c_.slow_repeat, 0, 100000,
                     "timed runs of the report's slow versions (" + colreduce::slow_labels() +
                         "), after at most one warm-up, so that a report-sized run stays short "
                         "(0 = --repeat and --warmup)")
            .positional({"m", "n"});
        help.csv = "append one row per (size, version) to this CSV file";
        help.input =
            "read the matrix from this file (raw little-endian doubles, row-major; give --n, m = elements / n)";
        help.output = "write the column sums (n doubles) of the first version run";
        help.seed = "seed of the random matrix (srand(seed) for --data=report)";
        help.pinned = "page-locked host matrix (faster copies)";
        help.inject_fault = "testing aid: alter column 0 of every validated version's result (each must FAIL, exit 1)";
    }

    // One plan per shape; the largest host need is refused here, before any CUDA call.
    std::vector<Plan> plans(const cw::Options& opts, const std::vector<const V*>& chosen) override {
        chosen_ = chosen;
        proto_.series = colreduce::Series{c_.warmup, c_.repeat};
        proto_.slow_series =
            c_.slow_repeat > 0 ? colreduce::Series{std::min(c_.warmup, 1), c_.slow_repeat} : proto_.series;
        proto_.pinned = c_.pinned;
        std::vector<Plan> plans;
        Plan big;
        for (const auto& shape : shapes(opts)) {
            plans.push_back(proto_);
            plans.back().m = shape.first, plans.back().n = shape.second;
            plans.back().index = static_cast<int>(plans.size()) - 1;
            if (host_bytes(plans.back()) > host_bytes(big)) big = plans.back();
        }
        cw::require_host_memory(static_cast<unsigned long long>(host_bytes(big)), big.text());
        return plans;
    }
    void check_output(const std::vector<Plan>& plans, const std::vector<const V*>&) const override {
        if (plans.size() != 1) throw cw::UsageError("option --output needs a single size (M N), not --sizes");
    }

    void before_device() override { context_ms_ = colreduce::context_creation_ms(c_.device); }
    // cuBLAS for the baseline (it runs at every shape), the launch choices of every shape.
    void on_device(cw::Session& session, std::vector<Plan>& plans) override {
        if (!std::isnan(context_ms_))
            std::printf("CUDA context creation: %.1f ms (once, at the start of this process)\n", context_ms_);
        max_threads_per_block_ = session.device().max_threads_per_block;
        const auto base = std::find_if(versions().begin(), versions().end(), [](const V& v) { return v.is_baseline; });
        cublas_ = colreduce::open_cublas(plans, is_chosen(*base));
        for (Plan& p : plans) colreduce::choose_launches(p, session.device(), c_.threads, c_.blocks);
    }
    // The largest device need: matrix, result, the largest workspace of what runs (the baseline too).
    cw::Memory memory(const std::vector<Plan>& plans, const std::vector<const V*>&) const override {
        cw::Memory need;
        for (const Plan& p : plans) {
            double workspace = 0;
            for (const V& v : versions())
                if (v.is_baseline || is_chosen(v)) workspace = std::max(workspace, v.workspace(p));
            const double device = (static_cast<double>(p.m) * p.n + p.n) * sizeof(double) + workspace;
            if (device > need.device) need = cw::Memory{host_bytes(p), device, p.text()};
        }
        return need;
    }

    // The matrix (the --input file or seeded data), the report's lines, the CPU reference timed.
    void enter(Plan& p, cw::Session&) override {
        const std::size_t count = static_cast<std::size_t>(p.m) * static_cast<std::size_t>(p.n);
        mat_.reset();
        mat_.reset(new cw::HostBuffer<double>(count, c_.pinned));
        if (input_) colreduce::read_matrix_file(*input_, mat_->data(), count);
        else colreduce::fill_matrix(mat_->data(), count, c_.data, static_cast<std::uint64_t>(c_.seed));
        std::printf("\nDo column reduce on mat m: %lld n: %d ...\n", p.m, p.n);
        cw::HostStopwatch cpu_watch;
        ref_ = colreduce::cpu_column_reference(mat_->data(), p.m, p.n);
        cpu_ms_ = cpu_watch.elapsed_ms();
        std::printf("CPU: %f milisec\n", cpu_ms_);
        got_.assign(static_cast<std::size_t>(p.n), 0.0);
        p.h_mat = mat_->data();
        p.got = got_.data();
    }
    // --vary-input: another seeded matrix of the plan's shape and its reference (each runner
    // copies it again: colreduce::Runner::input_changed).
    bool can_vary() const override { return true; }
    void vary(const Plan& p, const cw::VaryInput& input) override {
        colreduce::fill_matrix(mat_->data(), static_cast<std::size_t>(p.m) * static_cast<std::size_t>(p.n), c_.data,
                               input.seed);
        ref_ = colreduce::cpu_column_reference(mat_->data(), p.m, p.n);
    }
    void measure_more(const Plan&, const V&, cw::Runner& runner, Result& r, cw::Session&) override {
        r.extra.run = static_cast<colreduce::Runner&>(runner).finish();  // every runner of the registry is one
    }
    // Column 0 outside its bound (not in a baseline left out by --only: each run FAILs once).
    void inject_fault(const Plan& p, const V& v) override {
        if (is_chosen(v)) got_[0] += 2.0 * colreduce::column_error_bound(p.m, ref_.abs_sum[0]) + 1.0;
    }
    // Every column within its bound and a deterministic version's runs bitwise equal; the report's lines.
    void check(const Plan& p, const V& v, cw::Runner&, Result& r, cw::Session& session) override {
        Extra& x = r.extra;
        x.check = colreduce::check_columns(got_.data(), ref_, p.m);
        const bool repeat_ok = !(v.bitwise_repeatable && x.run.repeatable == 0);
        r.ok = x.check.ok && repeat_ok;
        x.run.print(v, r.ms(), max_threads_per_block_);
        colreduce::print_check_lines(x.check, ref_, got_.data(), p.m);
        if (!repeat_ok) std::printf("GPU result differs between two runs of a deterministic version\n");
        r.detail = cw::format("max_abs_err=%.3g err/bound=%.3g", x.check.max_abs_error, x.check.max_error_ratio);
        if (x.run.launch_error != cudaSuccess) r.detail += " launch_error=" + x.run.error_name();
        if (!v.validated) r.detail += cw::format(" wrong_columns=%d/%d", x.check.wrong, p.n);
        if (&v == chosen_.front()) session.set_output(got_.data(), got_.size());  // --output: the first version's
    }
    std::pair<int, int> warmup_repeat(const V& v) override {
        return std::make_pair(v.series(proto_).warmup, v.series(proto_).repeat);
    }

    // The core columns (cw::core_row), then colreduce's own: what the README's tables and the
    // figures read (kernel, size_label, config_index, the report's time split, the error).
    cw::CsvRow row(const Plan& p, const V* v, const Result& r, const Results&) const override {
        using colreduce::GpuRun;
        const GpuRun& g = r.extra.run;
        cw::CoreRow core = core_of(v, r);
        core.sizes = {{"m", p.m}, {"n", p.n}};
        core.threads = GpuRun::volume(g.block) > 0 ? GpuRun::volume(g.block) : -1;
        core.blocks = GpuRun::volume(g.grid) > 0 ? GpuRun::volume(g.grid) : -1;
        core.bytes = (static_cast<double>(p.m) * p.n + p.n) * sizeof(double);  // matrix read, result written
        core.copy_bw_GBps = copy_bw_GBps();
        cw::CsvRow row = cw::core_row(columns(), core);
        row.add("kernel", v != nullptr ? v->kernel : std::string())
            .add("size_label", std::to_string(p.m) + "x" + std::to_string(p.n))
            .add("config_index", p.index)
            .add("data", input_ ? "input" : c_.data);
        if (input_) row.add_na("seed");  // --input: no seed
        else row.add("seed", c_.seed);
        const colreduce::Series& series = v != nullptr ? v->series(p) : p.series;
        row.add("grid", GpuRun::text(g.grid)).add("block", GpuRun::text(g.block))
            .add("kernel_min_ms", r.timing.samples_ms.empty() ? NAN : r.timing.min_ms())
            .add("copy_bw_GBps", copy_bw_GBps()).add("cpu_ms", cpu_ms_)
            .add("alloc_ms", g.alloc_ms).add("h2d_ms", g.h2d_ms).add("d2h_ms", g.d2h_ms).add("free_ms", g.free_ms)
            .add("copy_ms", g.h2d_ms + g.d2h_ms).add("gpu_total_ms", g.total_ms(r.ms()))
            .add("repeat", series.repeat).add("warmup", series.warmup).add("l2_flushed", true).add("pinned", p.pinned)
            .add_value("max_abs_err", r.extra.check.max_abs_error, 6)
            .add_value("err_over_bound", r.extra.check.max_error_ratio, 6)
            .add("wrong_columns", r.extra.check.wrong).add("launch_error", g.error_name())
            .add("max_threads_per_block", max_threads_per_block_).add("context_ms", context_ms_);
        if (g.repeatable >= 0) row.add("repeatable", g.repeatable);
        else row.add_na("repeatable");
        return row;
    }

  private:
    bool is_chosen(const V& v) const { return std::find(chosen_.begin(), chosen_.end(), &v) != chosen_.end(); }

    // The run's shapes: the --input file's (m = elements / --n), --sizes, or M N.
    std::vector<std::pair<long long, int>> shapes(const cw::Options& opts) {
        cw::check_input_excludes(opts, {"m", "sizes"});
        if (opts.given("input")) {
            input_.reset(new cw::InputFile(c_.input, sizeof(double)));  // what cannot be read is refused first
            if (!opts.given("n"))
                throw cw::UsageError("option --input needs --n (the number of columns; the file gives m = "
                                     "elements / n)");
            colreduce::check_matrix_file(*input_, c_.n, colreduce::kMaxRows);
            return {std::make_pair(static_cast<long long>(input_->count() / c_.n), c_.n)};
        }
        if (!opts.given("sizes")) return {std::make_pair(c_.m, c_.n)};
        cw::check_excludes(opts, "sizes", {"m", "n"});
        return colreduce::parse_sizes(c_.sizes, colreduce::kMaxRows, colreduce::kMaxColumns);
    }

    Config c_;
    std::vector<const V*> chosen_;
    Plan proto_;  // what every plan shares (the series, --pinned)
    std::unique_ptr<cw::InputFile> input_;
    std::unique_ptr<cw::HostBuffer<double>> mat_;
    std::unique_ptr<colreduce::Cublas, colreduce::CublasDeleter> cublas_;
    colreduce::ColumnReference ref_;
    std::vector<double> got_;
    double cpu_ms_ = NAN, context_ms_ = NAN;
    int max_threads_per_block_ = 0;
};

}  // namespace

int main(int argc, char** argv) { return cw::program_main<Colreduce>(argc, argv); }
