// pi (report 001, iterative pi in OpenCL, ported to CUDA) described for the shared run loop
// (common/run_loop.cuh): options, plans (one per NITER and precision), the compensated double
// reference, the tolerance check, the CSV row. The versions: pi_versions.cu.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "common.cuh"
#include "pi_kernels.cuh"
#include "pi_policy.h"
#include "pi_versions.cuh"
#include "run_loop.cuh"

namespace {

using pi::Plan;

struct Config : cw::SharedOptions {
    long long niter = 1LL << 30;
    std::string sizes;
    long long chunk = 64;
    int threads = 0;       // 0: the policy's (pi::kPolicy)
    long long blocks = 0;  // 0: version single's occupancy grid
    std::string precision = "both";
    int cpu_threads = 0, cpu_repeat = 1;  // cpu_threads 0: every core
};

// What pi measures and checks beyond the timed series.
struct Extra {
    double estimate = NAN, reference = NAN, tolerance = NAN;
    double total_ms = NAN;  // a launch and the result to the host (steady clock); CPU: kernel_ms
};

double ratio(double num, double den) { return (std::isnan(num) || std::isnan(den) || den <= 0) ? NAN : num / den; }
std::string format_ms(double ms) { return ms < 1.0 ? cw::format("%.2f us", ms * 1e3) : cw::format("%.3f ms", ms); }

class Pi : public cw::Program<Plan, pi::Version, Extra> {
  public:
    Pi()
        : Program("pi",
                  "Estimate pi = int_0^1 4/(1+x^2) dx by the midpoint rule with NITER intervals: the report's\n"
                  "kernel 1 and kernel 2 (CHUNK terms per thread), a single-launch version, Thrust and the CPU,\n"
                  "in float and/or double; every version is checked against a compensated double reference.\n"
                  "pi has no random data and reads no data file, so it takes no seed option and no data option.",
                  "\nversion 1 and 2 launch one thread per CHUNK terms (blocks = ceil(NITER / CHUNK / threads));\n"
                  "--blocks applies to version single only. cpu_report runs only when --only names it.\n"
                  "The baseline (thrust) always runs on a GPU: every row has baseline_ms, even when --only leaves "
                  "it out.") {}
    const std::vector<V>& versions() const override { return pi::registry(); }
    cw::SharedOptions& shared() override { return c_; }

    void declare(cw::Options& opts, cw::SharedOptionsHelp& help) override {
        opts.add_int("niter", &c_.niter, 1, pi::kMaxNiter, "number of intervals (iterations)")
            .add_string("sizes", &c_.sizes,
                        "NITER values run in turn instead of --niter (e.g. 2^15,2^16,1e6 or 63..65)")
            .add_int("chunk", &c_.chunk, 1, 1LL << 20,
                     "consecutive terms per thread in kernels 1 and 2 (the report: 64)")
            .add_int("threads", &c_.threads, 0, 1024,
                     "threads per block of every GPU version, a power of two >= 32 (0: automatic, 256)")
            .add_int("blocks", &c_.blocks, 0, 1LL << 20,
                     "blocks of version single (0: automatic, every SM full at its occupancy, capped by the work)")
            .add_choice("precision", &c_.precision, {"float", "double", "both"}, "working precision of the versions")
            .add_int("cpu-threads", &c_.cpu_threads, 0, pi::kMaxCpuThreads, "OpenMP threads of cpu_omp and the reference (0: all; OMP_NUM_THREADS, in a Slurm job SLURM_CPUS_PER_TASK)")
            .add_int("cpu-repeat", &c_.cpu_repeat, 1, 1000, "timed runs of each CPU version (median reported)")
            .positional({"niter", "chunk"});
        help.csv = "append one row per (niter, precision, version) to this CSV file";
        help.input = "binary file of little-endian int64 NITER values, run in turn (instead of --niter/--sizes)";
        help.output = "write every estimate (float64, in the order of the CSV rows) to this file";
        help.inject_fault = "testing aid: replace every estimate by NaN, as a kernel that wrote nothing would "
                            "(every version must FAIL, exit 1)";
        help.has_seed = false;
        help.pinned = "page-locked host buffers for the device-to-host copies";
    }
    std::vector<Plan> plans(const cw::Options& opts, const std::vector<const V*>& chosen) override {
        if (c_.threads != 0 && (c_.threads < 32 || !cw::is_power_of_two(c_.threads)))
            throw cw::UsageError("option --threads=" + std::to_string(c_.threads) +
                                 " must be 0 (automatic) or a power of two from 32 to 1024 (kernel 2's halving tree)");
        cw::check_input_excludes(opts, {"niter", "sizes"});
        std::vector<Plan> plans;
        for (long long niter : niter_list(opts))
            for (bool is_float : {true, false}) {
                if (c_.precision == (is_float ? "double" : "float")) continue;
                Plan p;
                p.niter = niter;
                p.is_float = is_float;
                p.first_of_niter = is_float || c_.precision == "double";
                p.chunk = c_.chunk;
                p.threads = c_.threads > 0 ? c_.threads : pi::kPolicy.threads;
                p.report_blocks = pi::report_kernel_blocks(niter, c_.chunk, p.threads);
                p.cpu_threads = c_.cpu_threads > 0 ? c_.cpu_threads : pi::cpu_max_threads();
                p.pinned = c_.pinned;
                p.got = &got_;
                plans.push_back(p);
            }
        pi::refuse_unrunnable(plans, chosen, "option --only=" + c_.only + " with --precision=" + c_.precision);
        for (const V* v : chosen) shifted_ = shifted_ || v->reference_offset != 0.5;
        plans_left_ = plans.size();
        return plans;
    }

    // pi reads no data: no copy bandwidth, no L2 flush.
    cw::Session::Settings settings() const override {
        cw::Session::Settings s;
        s.copy_bandwidth = s.l2_flusher = false;
        return s;
    }
    void on_device(cw::Session& session, std::vector<Plan>& plans) override {
        const int sms = session.device().sm_count;
        for (Plan& p : plans)
            p.single_blocks = c_.blocks > 0 ? c_.blocks
                              : p.is_float  ? pi::single_grid<float>(p.niter, p.threads, sms)
                                            : pi::single_grid<double>(p.niter, p.threads, sms);
    }
    // The largest workspace of any run, on the device (and as a bound, on the host).
    cw::Memory memory(const std::vector<Plan>& plans, const std::vector<const V*>& chosen) const override {
        cw::Memory m;
        m.what = "the largest run";
        for (const Plan& p : plans)
            for (const V* v : chosen)
                if (v->why_not(p).empty() && v->workspace(p) > m.device) {
                    m.host = m.device = v->workspace(p);
                    m.what = "the largest run (version " + v->label + " at " + p.text() + ")";
                }
        return m;
    }

    // The reference of a NITER, once for both precisions (and the shifted one cpu_report takes).
    void enter(Plan& p, cw::Session&) override {
        if (!announced_) {
            std::printf("pi: chunk=%lld threads=%d cpu_threads=%d repeat=%d warmup=%d cpu_repeat=%d\n", c_.chunk,
                        p.threads, p.cpu_threads, c_.repeat, c_.warmup, c_.cpu_repeat);
            // Where the CPU versions' thread count came from, when not the plain default.
            if (c_.cpu_threads == 0 &&
                (std::getenv("OMP_NUM_THREADS") != nullptr || std::getenv("SLURM_CPUS_PER_TASK") != nullptr))
                std::printf("pi: cpu_threads=%d from %s\n", p.cpu_threads, pi::cpu_threads_origin());
        }
        announced_ = true;
        if (!p.first_of_niter) return;
        cw::HostStopwatch watch;
        reference_ = pi::pi_reference(p.niter, p.cpu_threads);
        shifted_reference_ = shifted_ ? pi::pi_reference(p.niter, p.cpu_threads, -0.5) : NAN;
        std::printf("niter=%lld: reference %.17g (|ref - pi| = %.3g, h^2/12 = %.3g) in %.1f ms on %d threads\n",
                    p.niter, reference_, std::fabs(reference_ - pi::kPi), pi::midpoint_truncation_error(p.niter),
                    watch.elapsed_ms(), p.cpu_threads);
    }
    std::pair<int, int> warmup_repeat(const V& v) override {
        return v.on_host ? std::make_pair(0, c_.cpu_repeat) : std::make_pair(c_.warmup, c_.repeat);
    }
    // total_ms: a GPU version's launch with its result to the host (steady clock). The estimate
    // checked is that of one more run, poisoned first: a stale or unwritten result cannot pass.
    void measure_more(const Plan&, const V& v, cw::Runner& runner, Result& r, cw::Session&) override {
        r.extra.total_ms = r.ms();  // a CPU version: the whole function
        if (v.on_host) return;
        const auto launch_and_fetch = [&]() { runner.launch(0); runner.fetch(0); };
        r.extra.total_ms = cw::time_host(c_.warmup, c_.repeat, launch_and_fetch).median_ms();
        runner.poison(0);
        launch_and_fetch();
    }
    void inject_fault(const Plan&, const V&) override { got_ = NAN; }  // as a kernel that wrote nothing
    void check(const Plan& p, const V& v, cw::Runner&, Result& r, cw::Session&) override {
        r.extra.estimate = got_;
        r.extra.reference = v.reference_offset == 0.5 ? reference_ : shifted_reference_;
        r.extra.tolerance = pi::error_bound(p.is_float, v.describe(p).error);
        const double err = std::fabs(got_ - r.extra.reference);
        r.ok = err <= r.extra.tolerance;  // NaN never passes
        r.detail = cw::format("estimate=%.12f |est-ref|=%.3g bound=%.3g", got_, err, r.extra.tolerance);
    }
    std::string progress_text(const Plan&, const V&, const Result& r) const override {
        return cw::format("kernel %s total %s |err|=%.3g %s", format_ms(r.ms()).c_str(),
                          format_ms(r.extra.total_ms).c_str(), std::fabs(r.extra.estimate - pi::kPi),
                          r.ok ? "PASS" : "FAIL");
    }
    // --output: every estimate, in the order of the CSV rows (written after the last plan).
    void leave(const Plan&, const Results& all, cw::Session& session) override {
        for (const auto& vr : all) estimates_.push_back(vr.second.extra.estimate);
        if (--plans_left_ == 0) session.set_output(estimates_.data(), estimates_.size());
    }

    // The core columns (n is NITER; bandwidth does not apply: bytes = 0, empty cells), then
    // precision and abs_error, then pi's own columns, with the CPU times of the same plan.
    cw::CsvRow row(const Plan& p, const V* v, const Result& r, const Results& all) const override {
        const pi::Launch l = v != nullptr ? v->describe(p) : pi::Launch();
        double cpu_ms = NAN, cpu_omp_ms = NAN;
        for (const auto& vr : all) {
            if (vr.first->cpu_column == "cpu") cpu_ms = vr.second.ms();
            if (vr.first->cpu_column == "cpu_omp") cpu_omp_ms = vr.second.ms();
        }
        cw::CoreRow core = core_of(v, r);
        core.sizes = {{"n", p.niter}};
        core.threads = l.threads;
        core.blocks = l.blocks;
        core.kernel_ms_scope = v != nullptr ? v->kernel_ms_scope : "kernels";
        cw::CsvRow row = cw::core_row(columns(), core);
        row.add("precision", p.is_float ? "float" : "double")
            .add("abs_error", std::fabs(r.extra.estimate - pi::kPi), 6)
            .add("kernel", l.kernel);
        if (l.chunk >= 0) row.add("chunk", l.chunk); else row.add_na("chunk");
        if (l.cpu_threads >= 0) row.add("cpu_threads", l.cpu_threads); else row.add_na("cpu_threads");
        row.add("repeat", v != nullptr && v->on_host ? c_.cpu_repeat : c_.repeat)
            .add("total_ms", r.extra.total_ms)
            .add("kernel_us", r.ms() * 1e3)
            .add("total_us", r.extra.total_ms * 1e3)
            .add("gterms_per_s", ratio(static_cast<double>(p.niter), r.ms() * 1e6))
            .add("cpu_ms", cpu_ms)
            .add("speedup_vs_cpu", ratio(cpu_ms, r.ms()))
            .add("cpu_omp_ms", cpu_omp_ms)
            .add("speedup_vs_cpu_omp", ratio(cpu_omp_ms, r.ms()))
            .add_value("estimate", r.extra.estimate, 17)
            .add_value("reference", r.extra.reference, 17)
            .add("ref_error", std::fabs(r.extra.estimate - r.extra.reference), 6)
            .add("tolerance", r.extra.tolerance, 6)
            .add("truncation_error", pi::midpoint_truncation_error(p.niter), 6);
        return row;
    }

  private:
    // The NITER values of the run: --niter (or positional NITER), --sizes, or --input.
    std::vector<long long> niter_list(const cw::Options& opts) const {
        cw::check_excludes(opts, "sizes", {"niter"});
        if (opts.given("sizes")) return cw::parse_size_list("sizes", c_.sizes, 1, pi::kMaxNiter);
        if (!opts.given("input")) return {c_.niter};
        cw::InputFile file(c_.input, sizeof(long long));
        file.require_count(cw::kMaxSizes, "at most " + std::to_string(cw::kMaxSizes) + " sizes per run");
        std::vector<long long> sizes = file.read_all<long long>();
        for (long long n : sizes)
            if (n < 1 || n > pi::kMaxNiter)
                throw cw::UsageError("input file '" + c_.input + "' holds NITER " + std::to_string(n) + ", outside " +
                                     cw::range_text(1, pi::kMaxNiter));
        return sizes;
    }

    Config c_;
    double got_ = NAN, reference_ = NAN, shifted_reference_ = NAN;
    bool shifted_ = false, announced_ = false;
    std::size_t plans_left_ = 0;
    std::vector<double> estimates_;
};

// libgomp reads OMP_NUM_THREADS in its constructor, before main, and prints a warning of its own
// for a value it cannot take ("libgomp: Invalid value for environment variable ..."): a second
// and third line beside pi's refusal of it (pi_cpu.cpp, cpu_max_threads). The executable's
// preinit array runs before any library's constructor: it takes the variable out of the
// environment, so libgomp never reads it, and main puts it back for pi's own check. libgomp's
// default is then unused: every parallel region of pi gets its count by num_threads(...).
const char* omp_num_threads = nullptr;

void hide_omp_num_threads(int, char**, char** envp) {
    static const char kName[] = "OMP_NUM_THREADS=";
    char** kept = envp;
    for (char** e = envp; *e != nullptr; ++e) {
        if (std::strncmp(*e, kName, sizeof(kName) - 1) != 0) *kept++ = *e;
        else if (omp_num_threads == nullptr) omp_num_threads = *e + sizeof(kName) - 1;
    }
    *kept = nullptr;
}

}  // namespace

// External (an unreferenced variable of the unnamed namespace is a warning of nvcc's front end).
__attribute__((section(".preinit_array"), used)) void (*pi_hide_omp_num_threads)(int, char**, char**) =
    hide_omp_num_threads;

int main(int argc, char** argv) {
    if (omp_num_threads != nullptr) setenv("OMP_NUM_THREADS", omp_num_threads, 1);
    return cw::program_main<Pi>(argc, argv);
}
