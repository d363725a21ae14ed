// vecmax: maximum of a float vector (report 000), as a description for the shared run loop
// (common/run_loop.cuh): options, the one plan (n), the data and CPU reference, the exact
// comparison, the CSV row. The versions are in vecmax_versions.cu.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common.cuh"
#include "run_loop.cuh"
#include "vecmax_cpu.h"
#include "vecmax_kernels.cuh"
#include "vecmax_policy.h"
#include "vecmax_versions.cuh"

namespace {

using vecmax::Plan;

struct Config : cw::SharedOptions {
    long long n = 40960000;  // the report's N
    int threads = 0;         // version=report; 0: automatic (kReportDefaultThreads)
    int blocks = 0;          // version=report; 0: automatic (kReportDefaultBlocks)
    int sp_blocks = 0;       // version=single_pass; 0: automatic (single_pass_grid)
    int offset = 0;
    std::string data = "uniform";
    int cpu_repeat = 5;
};

// What vecmax measures beyond the kernel's series: the same series without the L2 flush (what
// back-to-back calls see), the result copy (the report's "output" step) and the maximum.
struct Extra {
    double kernel_ms_no_flush = NAN, output_ms = NAN;
    float result = NAN;
};

class Vecmax : public cw::Program<Plan, vecmax::Version, Extra> {
  public:
    Vecmax()
        : Program("vecmax",
                  "Maximum of a float vector (report 000): the report's VecMax kernel (grid-stride slices, "
                  "shared-memory\ntree, host finishes), a single-pass kernel and CUB, each timed and checked "
                  "against the CPU.",
                  "The baseline (cub) runs on every run, so that every row has baseline_ms, even when --only "
                  "leaves out its row.") {}
    const std::vector<V>& versions() const override { return vecmax::registry(); }
    cw::SharedOptions& shared() override { return c_; }

    void declare(cw::Options& opts, cw::SharedOptionsHelp& help) override {
        opts.add_int("n", &c_.n, 1, INT_MAX, "number of elements (up to CUB's int count; not with --input)")
            .add_int("threads", &c_.threads, 0, 1024,
                     "threads per block of version=report, a power of two (0: automatic, " +
                         std::to_string(vecmax::kReportDefaultThreads) + ")")
            .add_int("blocks", &c_.blocks, 0, INT_MAX,
                     "blocks of version=report (0: automatic, " + std::to_string(vecmax::kReportDefaultBlocks) +
                         "; automatic 1024 x 128 is the report's best configuration)")
            .add_int("sp-blocks", &c_.sp_blocks, 0, 1 << 20,
                     "blocks of version=single_pass (0: automatic, resident blocks x SMs, capped by the work)")
            .add_choice("data", &c_.data, vecmax::data_patterns(), "seeded data (see README)")
            .add_int("offset", &c_.offset, 0, 3, "place the data this many floats past a 16-byte boundary")
            .add_int("cpu-repeat", &c_.cpu_repeat, 1, 100000, "timed runs of the CPU reference (median)")
            .positional({"n", "threads", "blocks"});
        help.csv = "append one row per version to this CSV file (at the end, only if every version passed)";
        help.input = "read the vector from this raw little-endian float32 file (its size is N)";
        help.output = "write the maximum of the first version run (one raw float32) to this file";
        help.inject_fault = "testing aid: alter every validated version's maximum after it is fetched (each must "
                            "FAIL, exit 1)";
    }

    std::vector<Plan> plans(const cw::Options& opts, const std::vector<const V*>&) override {
        if (c_.threads != 0 && !cw::is_power_of_two(c_.threads))
            throw cw::UsageError("option --threads=" + std::to_string(c_.threads) +
                                 " must be a power of two (the shared-memory tree halves the block)");
        cw::check_input_excludes(opts, {"n"});
        if (!c_.input.empty()) {
            input_.reset(new cw::InputFile(c_.input, sizeof(float)));
            input_->require_count(INT_MAX, "CUB's item count is an int");
            c_.n = static_cast<long long>(input_->count());
        }
        Plan p;
        p.n = c_.n;
        p.pinned = c_.pinned;
        p.report_threads = c_.threads != 0 ? c_.threads : vecmax::kReportDefaultThreads;
        p.report_blocks = c_.blocks != 0 ? c_.blocks : vecmax::kReportDefaultBlocks;
        p.got = &got_;
        return {p};
    }

    void on_device(cw::Session& session, std::vector<Plan>& plans) override {
        const cw::DeviceInfo& dev = session.device();
        for (Plan& p : plans) {
            if (p.report_blocks > dev.max_grid_x)
                throw cw::UsageError("option --blocks=" + std::to_string(p.report_blocks) +
                                     " exceeds the device's limit of " + std::to_string(dev.max_grid_x));
            p.single_pass_blocks = c_.sp_blocks != 0
                                       ? c_.sp_blocks
                                       : vecmax::single_pass_grid(vecmax::kSinglePassPolicy, p.n, dev.sm_count);
        }
    }

    // The vector on both sides (+ the offset), every workspace (the baseline's too: it always
    // runs), and headroom on the device for allocation granularity.
    cw::Memory memory(const std::vector<Plan>& plans, const std::vector<const V*>& chosen) const override {
        const Plan& p = plans.front();
        cw::Memory m;
        m.host = float_bytes(p.n) + float_bytes(p.report_blocks) + 64;
        m.device = float_bytes(p.n + 4) + (64ULL << 20);
        for (const V& v : versions())
            if (v.is_baseline || std::find(chosen.begin(), chosen.end(), &v) != chosen.end()) m.device += v.workspace(p);
        m.what = "n=" + std::to_string(p.n) + " with --blocks=" + std::to_string(p.report_blocks);
        return m;
    }

    // The data (the --input file or a seeded pattern), its copy to the device (the report's
    // "input time"), the CPU reference (steady clock: the report's "processing time for CPU").
    void enter(Plan& p, cw::Session&) override {
        const std::size_t n = static_cast<std::size_t>(p.n);
        host_.reset(new cw::HostBuffer<float>(n, c_.pinned));
        if (input_) input_->read_into(host_->data());
        else vecmax::fill_pattern(host_->data(), n, c_.data, static_cast<std::uint64_t>(c_.seed));
        input_.reset();
        data_label_ = c_.input.empty() ? c_.data : "input";
        std::printf("n=%lld (%s data%s), %s host memory\n", p.n, data_label_.c_str(),
                    c_.offset ? (", offset " + std::to_string(c_.offset)).c_str() : "",
                    c_.pinned ? "pinned" : "pageable");
        device_.reset(new cw::DeviceBuffer<float>(n + 4));
        p.d_x = device_->data() + c_.offset;
        input_ms_ = cw::time_gpu(c_.warmup, c_.repeat, [&](cudaStream_t s) {
                        CUDA_CHECK(cudaMemcpyAsync(device_->data() + c_.offset, host_->data(), n * sizeof(float),
                                                   cudaMemcpyHostToDevice, s));
                    }).median_ms();
        CUDA_CHECK(cudaDeviceSynchronize());
        want_ = vecmax::max_reference(host_->data(), n);
        volatile float sink = 0.0f;
        cpu_ms_ = cw::time_host(0, c_.cpu_repeat, [&]() { sink = vecmax::max_reference(host_->data(), n); }).median_ms();
        (void)sink;
    }

    // --vary-input: another seeded vector of the plan's size, on the device where every runner
    // reads it, and its maximum.
    bool can_vary() const override { return true; }
    void vary(const Plan& p, const cw::VaryInput& input) override {
        const std::size_t n = static_cast<std::size_t>(p.n);
        vecmax::fill_pattern(host_->data(), n, c_.data, input.seed);
        CUDA_CHECK(cudaMemcpy(device_->data() + c_.offset, host_->data(), n * sizeof(float), cudaMemcpyHostToDevice));
        want_ = vecmax::max_reference(host_->data(), n);
    }
    void measure_more(const Plan&, const V&, cw::Runner& runner, Result& r, cw::Session&) override {
        r.extra.kernel_ms_no_flush = cw::time_gpu(0, c_.repeat, [&](cudaStream_t s) { runner.launch(s); }).median_ms();
        r.extra.output_ms =
            cw::time_gpu(c_.warmup > 0 ? 1 : 0, c_.repeat, [&](cudaStream_t s) { runner.fetch(s); }).median_ms();
    }
    // A maximum that differs from every right answer.
    void inject_fault(const Plan&, const V&) override {
        got_ = (std::isnan(got_) || std::isinf(got_)) ? 0.0f : std::nextafter(got_, INFINITY);
    }
    void check(const Plan& p, const V& v, cw::Runner&, Result& r, cw::Session&) override {
        r.extra.result = got_;
        r.ok = cw::same_value(got_, want_);
        const double bw = cw::gigabytes_per_second(float_bytes(p.n), r.ms());
        const double total = input_ms_ + r.ms() + r.extra.output_ms;
        r.detail = cw::format("%s kernel=%.4f ms (%.0f GB/s, %.0f%% of copy), total=%.3f ms, cpu=%.3f ms, "
                              "speedup=%.3f, max=%.9g",
                              shape_text(v.shape(p)).c_str(), r.ms(), bw, 100.0 * bw / copy_bw_GBps(), total, cpu_ms_,
                              cpu_ms_ / total, static_cast<double>(got_)) +
                   (r.ok ? "" : cw::format(" expected %.9g", static_cast<double>(want_)));
    }
    std::string progress_text(const Plan& p, const V& v, const Result& r) const override {
        return shape_text(v.shape(p)) + cw::format(": kernel %.4f ms, %s", r.ms(), r.ok ? "PASS" : "FAIL");
    }
    void leave(const Plan&, const Results& all, cw::Session& session) override {
        session.set_output(&all.front().second.extra.result, 1);  // the first version's maximum
    }

    // One CSV row: the core columns (cw::core_row), then the report's own (its gather_results.py:
    // input_ms, kernel_ms as its "processing time", gpu_gflops, output_ms, total_gpu_ms, cpu_ms,
    // cpu_gflops, speedup_gpu, rel_error) and what a row needs to be reproduced.
    cw::CsvRow row(const Plan& p, const V* v, const Result& r, const Results&) const override {
        const std::size_t n = static_cast<std::size_t>(p.n);
        const double total = input_ms_ + r.ms() + r.extra.output_ms;
        cw::CoreRow core = core_of(v, r);
        if (v != nullptr) {
            core.threads = v->shape(p).threads;
            core.blocks = v->shape(p).blocks;
        }
        core.sizes = {{"n", p.n}};
        core.bytes = float_bytes(p.n);  // the vector, read once
        core.copy_bw_GBps = copy_bw_GBps();
        cw::CsvRow row = cw::core_row(columns(), core);
        row.add("kernel", v != nullptr ? v->kernel : std::string())
            .add("host_memory", c_.pinned ? "pinned" : "pageable")
            .add("data", data_label_);
        if (c_.input.empty()) row.add("seed", c_.seed);
        else row.add_na("seed");  // --input: no seed
        row.add("offset", c_.offset)
            .add("repeat", c_.repeat)
            .add("warmup", c_.warmup)
            .add("kernel_ms_no_flush", r.extra.kernel_ms_no_flush)
            .add("copy_bw_GBps", copy_bw_GBps())
            .add("input_ms", input_ms_)
            .add("h2d_GBps", cw::gigabytes_per_second(float_bytes(p.n), input_ms_))
            .add("output_ms", r.extra.output_ms)
            .add("total_gpu_ms", total)
            .add("cpu_ms", cpu_ms_)
            .add("gpu_gflops", vecmax::comparisons_gflops(n, r.ms()))
            .add("cpu_gflops", vecmax::comparisons_gflops(n, cpu_ms_))
            .add("speedup_gpu", cpu_ms_ / total)
            .add("rel_error", vecmax::relative_error(r.extra.result, want_))
            .add_value("result", static_cast<double>(r.extra.result))
            .add_value("expected", static_cast<double>(want_));
        return row;
    }

  private:
    static double float_bytes(long long count) { return static_cast<double>(count) * sizeof(float); }
    static std::string shape_text(const vecmax::Shape& s) {
        if (s.threads < 0) return "launch chosen by CUB";
        return cw::format("threads=%lld blocks=%lld", s.threads, s.blocks);
    }

    Config c_;
    std::unique_ptr<cw::InputFile> input_;
    std::unique_ptr<cw::HostBuffer<float>> host_;
    std::unique_ptr<cw::DeviceBuffer<float>> device_;
    std::string data_label_;
    double input_ms_ = NAN, cpu_ms_ = NAN;
    float got_ = NAN, want_ = NAN;
};

}  // namespace

int main(int argc, char** argv) { return cw::program_main<Vecmax>(argc, argv); }
