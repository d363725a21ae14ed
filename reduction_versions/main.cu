// reduction_versions: sum of 32-bit integers (report 004, after Harris 2007) as a description for
// the shared run loop (common/run_loop.cuh): options, plans (sizes x --threads items), data and
// serial CPU sum, exact check, CSV row; the runners and registry() are in *_versions.cu.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common.cuh"
#include "reduction_versions_cpu.h"
#include "reduction_versions_versions.cuh"
#include "run_loop.cuh"

namespace {

using rv::Plan;
// A demonstration's checked runs beyond every version's 2: a race may show only now and then.
constexpr int kDemonstrationExtraChecks = 18;

struct Config : cw::SharedOptions {
    long long n = 8388608;
    std::string sizes_text, threads_text = "0", data = "full", l2 = "flush";
    long long blocks = 0;
};

// What check() found: checked runs, wrong ones, the launch and the sum (the last wrong one).
struct Extra {
    int checks = 0, wrong_checks = 0;
    rv::Fetched got;
};

class ReductionVersions : public cw::Program<Plan, rv::Version, Extra> {
  public:
    ReductionVersions()
        : Program("reduction_versions",
                  "Sum of 32-bit integers (int32, two's-complement wrap-around, i.e. modulo 2^32):\n"
                  "report 004's versions 1-5, Harris's 6 and 7, version 8 and cub::DeviceReduce::Sum,\n"
                  "each checked exactly against the serial CPU sum.",
                  rv::launch_help()) {}
    const std::vector<V>& versions() const override { return rv::registry(); }
    cw::SharedOptions& shared() override { return c_; }
    void declare(cw::Options& opts, cw::SharedOptionsHelp& help) override {
        opts.add_int("n", &c_.n, 1, rv::kMaxN, "number of ints to sum (also the positional N)")
            .add_string("sizes", &c_.sizes_text,
                        "sizes to run instead of --n: comma list of N, A..B, 2^k, 1e6 (e.g. 1024,2^20,1e6)")
            .add_string("threads", &c_.threads_text,
                        "threads per block: comma list of powers of two in 64..1024, all (= 64,...,1024), or 0 "
                        "(automatic: each version's block size from rv::kPolicy, one policy for every device)")
            .add_int("blocks", &c_.blocks, 0, 1LL << 24,
                     "grid of the grid-stride versions 7 and 8 (0: automatic, the blocks resident at once, "
                     "occupancy x SMs, capped by the work)")
            .add_choice("data", &c_.data, {"full", "small", "negative", "extreme", "iota"},
                        "data: full int32 range, [-1000,1000], all negative, [-3,3] with INT32_MAX and INT32_MIN, "
                        "or iota = 1,2,...,n as the report sums (no seed; n(n+1)/2 wraps modulo 2^32 from "
                        "n = 65536 on)")
            .add_choice("l2", &c_.l2, {"flush", "keep"}, "flush the L2 cache before every timed run, or keep it")
            .positional({"n"});
        help.csv = "append one row per (size, threads, version) to this CSV file (CUB: one row per size)";
        help.input = "sum this file of raw little-endian int32 instead of generated data (sets n)";
        help.output = "write the GPU sum (one little-endian int32) to this file (one size only)";
        help.inject_fault = "testing aid: alter every validated version's sum after it is fetched (each must FAIL)";
        help.pinned = "page-locked host buffer";
    }

    // One plan per (size, --threads item), the sizes outermost.
    std::vector<Plan> plans(const cw::Options& opts, const std::vector<const V*>& chosen) override {
        const std::vector<int> threads = rv::parse_threads(c_.threads_text);
        kind_ = rv::parse_data_kind(c_.data);
        cw::check_excludes(opts, "sizes", {"n"});
        cw::check_input_excludes(opts, {"n", "sizes"});
        std::vector<long long> sizes = opts.given("sizes") ? cw::parse_size_list("sizes", c_.sizes_text, 1, rv::kMaxN)
                                                           : std::vector<long long>{c_.n};
        if (opts.given("input")) {
            input_.reset(new cw::InputFile(c_.input, sizeof(std::int32_t)));
            input_->require_count(static_cast<unsigned long long>(rv::kMaxN), "2^30 ints at most");
            sizes = {static_cast<long long>(input_->count())};
        }
        const auto any = [&](bool V::*f) {
            return std::any_of(chosen.begin(), chosen.end(), [&](const V* v) { return v->*f; });
        };
        if (c_.blocks > 0 && !any(&V::takes_blocks))
            throw cw::UsageError("option --blocks sets the grid of the grid-stride versions, and --only selects none");
        if (!c_.output.empty() && sizes.size() != 1) throw cw::UsageError("option --output needs a single size");
        if (!c_.output.empty() && !any(&V::validated))
            throw cw::UsageError("option --output needs a validated version; --only selects only demonstrations");
        std::vector<Plan> out;
        for (std::size_t i = 0; i < sizes.size(); ++i)
            for (std::size_t k = 0; k < threads.size(); ++k) {
                Plan p;
                p.n = sizes[i];
                p.size_index = static_cast<int>(i);
                p.threads = threads[k];
                p.first_threads = k == 0;
                p.last_threads = k + 1 == threads.size();
                p.blocks = c_.blocks;
                p.got = &got_;
                out.push_back(p);
                max_n_ = std::max(max_n_, p.n);
            }
        return out;
    }
    // The baseline's launch does not depend on --threads: one measurement per --sizes item.
    std::string baseline_key(const Plan& p) const override { return std::to_string(p.size_index); }
    cw::Session::Settings settings() const override {
        cw::Session::Settings s;
        s.l2_flusher = c_.l2 == "flush";
        return s;
    }
    void on_device(cw::Session& session, std::vector<Plan>& plans) override {
        std::printf("L2 cache %s before every timed run\n", c_.l2 == "flush" ? "flushed" : "not flushed");
        for (Plan& p : plans) p.sm_count = session.device().sm_count;
    }
    // The largest input on both sides, and the largest workspace of a version that runs.
    cw::Memory memory(const std::vector<Plan>& plans, const std::vector<const V*>& chosen) const override {
        double workspace = 0;
        for (const Plan& p : plans)
            for (const V& v : versions())
                if (v.is_baseline || std::find(chosen.begin(), chosen.end(), &v) != chosen.end())
                    workspace = std::max(workspace, v.workspace(p));
        const double input = 4.0 * static_cast<double>(max_n_);
        return cw::Memory{input, input + workspace + 256, "n=" + std::to_string(max_n_)};  // host, device, what
    }
    // A new size: its data (--input or seeded), the serial CPU sum (reference and the report's
    // serial time), the copy to the device; the other --threads items of the size keep them.
    void enter(Plan& p, cw::Session&) override {
        if (!host_) {  // one buffer on each side, for the largest size
            host_.reset(new cw::HostBuffer<std::int32_t>(static_cast<std::size_t>(max_n_), c_.pinned));
            d_in_.reset(new cw::DeviceBuffer<unsigned>(static_cast<std::size_t>(max_n_)));
            if (input_) input_->read_into(host_->data());
        }
        p.d_in = d_in_->data();
        if (p.size_index == entered_) return;
        entered_ = p.size_index;
        const std::size_t n = static_cast<std::size_t>(p.n);
        if (!input_) rv::fill_data(host_->data(), n, kind_, static_cast<std::uint64_t>(c_.seed));
        cpu_sum_ = rv::sum_wrap_timed(host_->data(), n, c_.repeat, &cpu_ms_, &cpu_repeat_);
        copy_in_ms_ = cw::time_gpu(0, 1, [&](cudaStream_t) {
                          CUDA_CHECK(cudaMemcpy(d_in_->data(), host_->data(), 4 * n, cudaMemcpyHostToDevice));
                      }).median_ms();
        std::int32_t back = 0;  // a result's 4 bytes back
        copy_out_ms_ = cw::time_gpu(0, 1, [&](cudaStream_t) {
                           CUDA_CHECK(cudaMemcpy(&back, d_in_->data(), sizeof back, cudaMemcpyDeviceToHost));
                       }).median_ms();
    }
    // --vary-input: another seeded input of the plan's size, on the device, and its sum.
    bool can_vary() const override { return true; }
    void vary(const Plan& p, const cw::VaryInput& input) override {
        const std::size_t n = static_cast<std::size_t>(p.n);
        rv::fill_data(host_->data(), n, kind_, input.seed);
        cpu_sum_ = rv::sum_wrap(host_->data(), n);
        CUDA_CHECK(cudaMemcpy(d_in_->data(), host_->data(), 4 * n, cudaMemcpyHostToDevice));
    }
    // --warmup + 1 untimed runs: a version's first launch is never timed (--warmup=0 included).
    std::pair<int, int> warmup_repeat(const V&) override { return std::make_pair(c_.warmup + 1, c_.repeat); }
    void inject_fault(const Plan&, const V&) override { got_.sum ^= 1; }  // a sum one off the right one
    void check(const Plan& p, const V& v, cw::Runner& runner, Result& r, cw::Session&) override;
    std::string progress_text(const Plan& p, const V& v, const Result& r) const override {
        return r.extra.got.launch_text() +
               cw::format(" %.4f ms %.1f GB/s %.2fx cub", r.ms(), cw::gigabytes_per_second(4.0 * p.n, r.ms()),
                          r.baseline_ms / r.ms()) +
               (v.validated ? (r.ok ? " PASS" : " FAIL") : " demonstration");
    }
    void leave(const Plan& p, const Results& all, cw::Session& session) override {
        for (const auto& vr : all)
            if (vr.first->validated) session.set_output(&vr.second.extra.got.sum, 1);  // the first validated sum
        if (p.last_threads)
            std::printf("n=%lld: serial CPU sum %.4f ms (median of %d), copy to GPU %.4f ms, result back %.4f ms\n",
                        p.n, cpu_ms_, cpu_repeat_, copy_in_ms_, copy_out_ms_);
    }
    cw::CsvRow row(const Plan& p, const V* v, const Result& r, const Results&) const override;

  private:
    Config c_;
    rv::DataKind kind_ = rv::DataKind::kFull;
    std::unique_ptr<cw::InputFile> input_;
    std::unique_ptr<cw::HostBuffer<std::int32_t>> host_;
    std::unique_ptr<cw::DeviceBuffer<unsigned>> d_in_;
    long long max_n_ = 0;
    int entered_ = -1, cpu_repeat_ = 0;  // entered_: the size_index whose data are loaded
    rv::Fetched got_;
    std::int32_t cpu_sum_ = 0;
    double cpu_ms_ = NAN, copy_in_ms_ = NAN, copy_out_ms_ = NAN;
};

// The last timed run's sum (fetched by the run loop), then one run into a poisoned workspace,
// and for a demonstration kDemonstrationExtraChecks more: every sum must equal the CPU's.
void ReductionVersions::check(const Plan&, const V& v, cw::Runner& runner, Result& r, cw::Session&) {
    Extra& e = r.extra;
    e.got = got_;
    e.got.sum = cpu_sum_;
    for (const int runs = 2 + (v.validated ? 0 : kDemonstrationExtraChecks); e.checks < runs; ++e.checks) {
        if (e.checks > 0) rv::checked_run(runner);
        if (got_.sum == cpu_sum_) continue;
        e.got.sum = got_.sum;
        ++e.wrong_checks;
    }
    r.ok = e.wrong_checks == 0;
    r.detail = e.got.launch_text() +
               (!v.validated ? cw::format(": %d of %d checked runs gave a wrong sum (last wrong %d, CPU %d)",
                                          e.wrong_checks, e.checks, e.got.sum, cpu_sum_)
                             : (r.ok ? "" : cw::format(" sum %d expected %d", e.got.sum, cpu_sum_)));
}

// One CSV row: the core columns (cw::core_row), then this program's own. -1 and NaN mean "not
// applicable" (empty cells).
cw::CsvRow ReductionVersions::row(const Plan& p, const V* v, const Result& r, const Results&) const {
    const Extra& e = r.extra;
    const rv::LaunchPlan& launch = e.got.launch;
    cw::CoreRow core = core_of(v, r);
    core.sizes = {{"n", p.n}};
    core.threads = e.got.threads;
    core.blocks = launch.first_grid;
    core.kernel_ms_scope = launch.memsets > 0 ? "memset+kernels" : "kernels";
    core.bytes = 4.0 * static_cast<double>(p.n);
    core.copy_bw_GBps = copy_bw_GBps();
    core.result_ok = e.checks > 0 && e.wrong_checks == 0;
    cw::CsvRow row = cw::core_row(columns(), core);
    const auto count = [&row](const char* column, long long value) {
        if (value >= 0) row.add(column, value);
        else row.add_na(column);
    };
    row.add("kernel", v != nullptr ? v->kernel : std::string()).add("bytes", 4 * p.n);
    row.add("data", c_.input.empty() ? c_.data : std::string("input"));
    count("seed", (!c_.input.empty() || kind_ == rv::DataKind::kIota) ? -1 : c_.seed);
    count("launches", launch.launches);
    count("memsets", launch.memsets);
    row.add("l2", c_.l2)
        .add("repeat", c_.repeat)
        .add("warmup", c_.warmup)
        .add("kernel_min_ms", r.timing.samples_ms.empty() ? NAN : r.timing.min_ms())
        .add("copy_bw_GBps", copy_bw_GBps())
        .add("cpu_ms", cpu_ms_)
        .add("cpu_bandwidth_GBps", cpu_ms_ > 0 ? cw::gigabytes_per_second(4.0 * p.n, cpu_ms_) : NAN)
        .add("copy_in_ms", copy_in_ms_)
        .add("copy_out_ms", copy_out_ms_)
        .add("pinned", c_.pinned)
        .add("checks", e.checks)
        .add("wrong_checks", e.wrong_checks)
        .add("gpu_sum", static_cast<long long>(e.got.sum))
        .add("cpu_sum", static_cast<long long>(cpu_sum_));
    return row;
}

}  // namespace

int main(int argc, char** argv) { return cw::program_main<ReductionVersions>(argc, argv); }
