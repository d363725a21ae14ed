// scan: prefix sums of int32 (report 002), as a description for the shared run loop
// (common/run_loop.cuh): options, the plans (one per size and scan), the exact comparison with
// the CPU reference, the racy demonstrations' errors over --runs runs (never counted), the CSV
// row. The versions are in scan_versions.cu, the data and reference in scan_data.cu.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common.cuh"
#include "run_loop.cuh"
#include "scan_cpu.h"
#include "scan_data.cuh"
#include "scan_plan.h"
#include "scan_versions.cuh"

namespace {

using scan::Plan;
constexpr int kDefaultThreads = 1024;  // the report's BLOCK_SIZE: what --threads=0 chooses

struct Config : cw::SharedOptions {
    long long n = 1250000;
    std::string sizes, mode = "both", data = "random";
    int threads = kDefaultThreads, per_thread = 8, runs = 5;
    std::string lb_items = "auto", la_kernel = "auto", l2 = "flush";
};

// What scan measures beyond the timed series: the launches (CSV k1_..k3_), the serial part of the
// last timed run (map_as_printed), the errors of the checked result or of a demonstration's runs.
struct Extra {
    std::vector<scan_gpu::KernelLaunch> launches;
    double serial_ms = NAN;
    scan_cpu::Errors errors;
};

class Scan : public cw::Program<Plan, scan::Version, Extra> {
  public:
    Scan()
        : Program("scan",
                  "Prefix sums (scan) of int32 with two's-complement wrap-around: report 002's Hillis-Steele,\n"
                  "map and Brent-Kung scans, a decoupled look-back scan, a warp-specialised look-ahead scan (sm_90,\n"
                  "large n) and cub::DeviceScan, each validated against the CPU (exactly). The racy\n"
                  "demonstrations are the report's own kernels: they run only when --only names them, shown\n"
                  "(MSE over --runs runs), never counted as PASS/FAIL.",
                  "The baseline (cub) runs at every size and scan, so that every row has baseline_ms, even when "
                  "--only leaves out its row. --vary-input: every odd extra launch scans a smaller n (n/2 + 1, "
                  "n/4 + 1, ...) on the same runner, which must leave the elements beyond it unwritten.") {}
    const std::vector<V>& versions() const override { return scan::registry(); }
    cw::SharedOptions& shared() override { return c_; }

    void declare(cw::Options& opts, cw::SharedOptionsHelp& help) override {
        opts.add_int("n", &c_.n, 1, scan_plan::kMaxN, "number of int32 elements")
            .add_string("sizes", &c_.sizes,
                        "several sizes in one run, instead of --n: comma list of N, A..B ranges, 2^k, 1e6")
            .add_choice("mode", &c_.mode, {"inclusive", "exclusive", "both"},
                        "which scan (racy versions: inclusive only)")
            .add_choice("data", &c_.data, scan_plan::data_patterns(),
                        "input: random [-1000,1000], full int32 range (wraps), negative, extreme, iota 1,2,3,...")
            .add_int("threads", &c_.threads, 0, 1024,
                     "block size of the report's versions, a power of two >= 32; 0: automatic = 1024, the report's "
                     "BLOCK_SIZE (lookback: its tuning policy; cub: its own)")
            .add_int("per-thread", &c_.per_thread, 2, 1024,
                     "elements per thread of the map scan (NUM_OF_ADDS_PER_THREAD)")
            .add_int("runs", &c_.runs, 1, 10000, "runs of each racy demonstration (its error changes from run to run)")
            .add_choice("lb-items", &c_.lb_items, {"auto", "16", "32"},
                        "ints per thread of lookback (auto: its tuning policy chooses for the device)")
            .add_choice("la-kernel", &c_.la_kernel, {"auto", "ws", "lookback"},
                        "kernel of lookahead (auto: its policy chooses by device and n; ws: the warp-specialised "
                        "kernel at every n where the device can run it; lookback: lookback's kernel at every n)")
            .add_choice("l2", &c_.l2, {"flush", "keep"}, "flush the L2 cache before every timed run, or keep it warm")
            .positional({"n"});
        help.csv = "append one row per (size, mode, version) to this CSV file";
        help.input = "read the input from this file (raw little-endian int32; n = its length)";
        help.output = "write the result of the first validated version to this file (raw int32; with --mode=both, "
                      "its inclusive scan)";
        help.seed = "seed of the random input";
    }

    // One plan per (size, scan), the sizes from --n, --sizes or the --input file.
    std::vector<Plan> plans(const cw::Options& opts, const std::vector<const V*>& chosen) override {
        if (c_.threads != 0 && (c_.threads < 32 || !cw::is_power_of_two(c_.threads)))
            throw cw::UsageError("option --threads=" + std::to_string(c_.threads) +
                                 " is out of range: 0 (automatic) or a power of two in [32, 1024]");
        cw::check_input_excludes(opts, {"n", "sizes"});
        cw::check_excludes(opts, "sizes", {"n"});
        if (!c_.input.empty()) {
            input_.reset(new cw::InputFile(c_.input, sizeof(std::int32_t)));
            input_->require_count(static_cast<unsigned long long>(scan_plan::kMaxN), "the largest n scan accepts");
            sizes_ = {static_cast<long long>(input_->count())};
        } else {
            sizes_ = opts.given("sizes") ? cw::parse_size_list("sizes", c_.sizes, 1, scan_plan::kMaxN)
                                         : std::vector<long long>{c_.n};
        }
        max_n_ = *std::max_element(sizes_.begin(), sizes_.end());
        std::vector<Plan> plans;
        Plan p;
        p.threads = c_.threads == 0 ? kDefaultThreads : c_.threads;
        p.per_thread = c_.per_thread;
        for (long long n : sizes_)
            for (bool exclusive : {false, true})
                if (c_.mode == "both" || (c_.mode == "exclusive") == exclusive) {
                    p.n = n;
                    p.exclusive = exclusive;
                    plans.push_back(p);
                }
        // Nothing to run only because the racy versions have no exclusive scan: said in these
        // words, before the run loop's generic refusal (which names a version that fits no size).
        bool any = false, sized = true;
        for (const V* v : chosen) {
            bool fits = false;
            for (Plan q : plans) {
                any = any || v->why_not(q).empty();
                q.exclusive = false;
                fits = fits || v->why_not(q).empty();
            }
            sized = sized && fits;
        }
        if (!any && sized)
            throw cw::UsageError("nothing to run: the racy versions scan inclusively only (--mode=inclusive or both)");
        for (const V* v : chosen)
            if (v->validated && output_version_ == nullptr) output_version_ = v;
        return plans;
    }
    void check_output(const std::vector<Plan>&, const std::vector<const V*>&) const override {
        if (sizes_.size() != 1) throw cw::UsageError("option --output needs a single size (not --sizes)");
        if (output_version_ == nullptr)
            throw cw::UsageError("option --output needs a validated version (the racy ones are not)");
    }

    cw::Session::Settings settings() const override {
        cw::Session::Settings s;
        s.l2_flusher = c_.l2 == "flush";
        return s;
    }
    // The look-back tile and the look-ahead kernel for the device, unless --lb-items, --la-kernel set them.
    void on_device(cw::Session& session, std::vector<Plan>& plans) override {
        sm_count_ = session.device().sm_count;
        const scan_policy::LookbackPolicy lb = scan::lookback_policy(session.device(), c_.lb_items);
        const scan_policy::LookaheadPolicy la = scan::lookahead_policy(session.device(), c_.la_kernel);
        for (Plan& p : plans) {
            p.lookback = lb;
            p.lookahead = la;
        }
    }

    // At the largest size: the data's buffers and every workspace (the baseline's too: it always runs).
    cw::Memory memory(const std::vector<Plan>& plans, const std::vector<const V*>& chosen) const override {
        Plan largest = plans.front();
        largest.n = max_n_;
        cw::Memory m = scan::Data::memory(max_n_);
        for (const V& v : versions())
            if (v.is_baseline || std::find(chosen.begin(), chosen.end(), &v) != chosen.end())
                m.device += v.workspace(largest);
        return m;
    }

    // The data (scan_data.cu), at the first plan; a new size's copies at its first scan.
    // The same-size copy is timed once per size, with the run's warm-up, repeat and L2 setting.
    void enter(Plan& p, cw::Session& session) override {
        if (!data_) data_.reset(new scan::Data(max_n_, c_.pinned, std::move(input_), c_.data, c_.seed));
        const bool new_size = !p.exclusive || c_.mode == "exclusive";
        data_->enter(p, new_size);
        if (new_size && session.has_device()) data_->time_copy(p, c_.warmup, c_.repeat, session.flusher());
    }
    // Every version's runner: its launcher over the data's buffers.
    std::unique_ptr<cw::Runner> make_runner(const Plan& p, const V& v) override {
        return std::unique_ptr<cw::Runner>(new scan::Runner(p, data_->io(), v.launcher(p)));
    }
    bool can_vary() const override { return true; }
    // --vary-input=K: launch k of the runner (seed: the run's + k) scans n/2 + 1, n/4 + 1, ... on
    // odd k and the plan's n on even k: one runner, inputs and sizes that change between its
    // launches (what a descriptor, counter or epoch kept from a launch of another size must
    // survive). k = 0 brings the run's own data back.
    void vary(const Plan& p, const cw::VaryInput& input) override {
        const int k = input.k;
        data_->refill(p, input.seed, k % 2 == 1 ? (p.n >> ((k + 1) / 2)) + 1 : p.n);
    }
    void measure_more(const Plan&, const V&, cw::Runner& runner, Result& r, cw::Session&) override {
        const scan::Runner& sr = static_cast<const scan::Runner&>(runner);  // every entry's (scan_versions.cu)
        r.extra.launches = sr.launches();
        r.extra.serial_ms = sr.serial_ms();  // of the last timed run
    }
    void inject_fault(const Plan& p, const V&) override {  // one element off by one
        data_->result()[p.n / 2] = scan_cpu::wrap_add(data_->result()[p.n / 2], 1);
    }
    // A validated version: its one result, exact; at a smaller size than its runner's
    // (--vary-input), every element beyond it still the poison. A demonstration: --runs more
    // runs, each from a fresh copy of the input, each compared (ok: every run happened to be right).
    void check(const Plan& p, const V& v, cw::Runner& runner, Result& r, cw::Session& session) override {
        const std::size_t n = static_cast<std::size_t>(data_->io().launch_n);
        scan_cpu::Errors& e = r.extra.errors;
        const std::int32_t poison = scan_cpu::from_bits(0xa5a5a5a5u);  // Runner::poison's bytes
        std::size_t beyond = 0;                                        // elements written past n
        if (v.validated) e.add_run(data_->result(), data_->reference(), n);
        for (std::size_t i = n; v.validated && i < static_cast<std::size_t>(p.n); ++i)
            beyond += data_->result()[i] != poison;
        for (int run = 0; !v.validated && run < c_.runs; ++run) {
            runner.reset(0);
            runner.launch(0);
            runner.fetch(0);
            e.add_run(data_->result(), data_->reference(), n);
        }
        r.ok = e.wrong_runs == 0 && beyond == 0;
        if (&v == output_version_) session.set_output(data_->result(), n);  // its first scan
        const std::vector<scan_gpu::KernelLaunch>& l = r.extra.launches;
        const std::string threads = l.empty() ? "-" : std::to_string(l[0].block);
        const std::string blocks = l.empty() ? "-" : std::to_string(l[0].grid);
        const std::string choice = static_cast<const scan::Runner&>(runner).choice();  // lookahead's kernel
        r.detail = cw::format("threads=%s blocks=%s %.4f ms %.1f GB/s", threads.c_str(), blocks.c_str(), r.ms(),
                              cw::gigabytes_per_second(8.0 * static_cast<double>(p.n), r.ms())) +
                   (choice.empty() ? "" : " " + choice) + e.text(v.validated) +
                   (n < static_cast<std::size_t>(p.n) ? cw::format(" (n=%zu on the runner of n=%lld)", n, p.n) : "") +
                   (beyond > 0 ? cw::format(", %zu elements written beyond n", beyond) : "");
    }

    // One CSV row: the core columns, then scan's own (mode, data, CPU and copy times, the traffic
    // model, the error measures of the racy demonstrations, the launches).
    cw::CsvRow row(const Plan& p, const V* v, const Result& r, const Results&) const override {
        const double ms = r.ms();
        const scan::Model model = v != nullptr ? v->cost(p) : scan::Model();
        const scan::Data::Times t = data_ ? data_->times : scan::Data::Times();  // none in the header's call
        cw::CoreRow core = core_of(v, r);
        core.sizes = {{"n", p.n}};
        core.threads = r.extra.launches.empty() ? -1 : r.extra.launches[0].block;  // -1: chosen by CUB
        core.blocks = r.extra.launches.empty() ? -1 : r.extra.launches[0].grid;
        core.bytes = 8.0 * static_cast<double>(p.n);  // n int32 read + n written
        core.copy_bw_GBps = copy_bw_GBps();
        cw::CsvRow row = cw::core_row(columns(), core);
        row.add("mode", p.mode()).add("data", c_.input.empty() ? c_.data : std::string("file")).add("seed", c_.seed);
        if (model.items_per_thread > 0) row.add("per_thread", model.items_per_thread);
        else row.add_na("per_thread");
        row.add("l2", c_.l2)
            .add("repeat", c_.repeat)
            .add("warmup", c_.warmup)
            .add("kernel_min_ms", r.timing.samples_ms.empty() ? NAN : r.timing.min_ms())
            .add("copy_bw_GBps", copy_bw_GBps())
            .add("copy_n_ms", t.copy_n.ms(), 6)
            .add("copy_n_by", t.copy_n.by())
            .add("memcpy_n_ms", t.copy_n.memcpy_ms, 6)
            .add("copy_kernel_n_ms", t.copy_n.kernel_ms, 6)
            .add("pct_of_copy_n", ms > 0 ? 100.0 * t.copy_n.ms() / ms : NAN, 4)
            .add("model_bytes", v != nullptr ? model.bytes : NAN, 8)
            .add("model_GBps", ms > 0 ? model.bytes / (ms * 1.0e6) : NAN)
            .add("additions", v != nullptr ? model.additions : NAN, 12)
            .add("cpu_ms", t.cpu_ms)
            .add("speedup_vs_cpu", ms > 0 ? t.cpu_ms / ms : NAN, 4)
            .add("h2d_ms", t.h2d_ms)
            .add("d2h_ms", t.d2h_ms)
            .add("total_ms", t.h2d_ms + ms + t.d2h_ms);
        r.extra.errors.add_columns(row);
        row.add("serial_ms", r.extra.serial_ms, 6);
        scan::add_launch_columns(row, r.extra.launches, sm_count_);
        return row;
    }

  private:
    Config c_;
    std::vector<long long> sizes_;
    long long max_n_ = 0;
    std::unique_ptr<cw::InputFile> input_;
    const V* output_version_ = nullptr;  // --output: the first validated version's result
    int sm_count_ = 0;
    std::unique_ptr<scan::Data> data_;
};

}  // namespace

int main(int argc, char** argv) { return cw::program_main<Scan>(argc, argv); }
