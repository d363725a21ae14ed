// The one run loop every program shares (nvbench's shape: the harness owns the phases,
// warm-up, timing, axes, validation order and output; a program describes its assignment).
//
// A program is a cw::Program<Plan, Version, Extra> subclass, constructed with its name, the
// description that opens --help and the text that closes it. It must say
//   - its registry (versions(): one cw::Version per entry; `<name>_versions.cu` defines it) and
//     its options struct (shared(), a cw::SharedOptions);
//   - the points of its axes (plans: one Plan per point, for example per (n, mode) or per
//     (niter, precision)), checked before any CUDA call; a Plan says itself in the result and
//     progress lines (its text(): "n=1000 mode=inclusive");
//   - its comparison rule (check), the fault --inject-fault plants (inject_fault) and its CSV
//     row (row).
// Everything else has a default (no options of its own, no device-dependent choice, no data,
// nothing measured beyond the series, ...): declare, check_output, settings, before_device,
// on_device, memory, enter, make_runner, measure_more, can_vary and vary, warmup_repeat,
// baseline_key, progress_text, leave.
// run_program() then does, in this order:
//   1. parse; --help; --only (select_versions); the plans; every (plan, version) that can
//      run, a version named by --only that can run none refused; --csv and --output checked;
//      --print-csv-header or --list-versions stops here.                (exit 2, no CUDA call)
//   2. cw::Session: the device (exit 3 without one; a run of host versions alone probes none),
//      then the program's device-dependent choices (on_device: its policy).
//   3. memory for the whole run, refused before anything is allocated.          (exit 2)
//   4. per plan: enter (data, reference); the library baseline first (every row carries its
//      time, even when --only leaves its row out); then each selected version in registry
//      order: make its runner, poison, warm up, time the series (L2 flushed before each timed
//      run when the session has a flusher), fetch the result of the last run, plant the fault
//      if asked, check; result line, progress line; then the plan's CSV rows (leave).
//   5. session.finish(): CSV rows and --output only when every validated run passed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu_timing.cuh"
#include "registry.h"
#include "session.cuh"

namespace cw {

// One version set up for one plan (its buffers allocated by the factory).
class Runner {
  public:
    virtual ~Runner() {}
    // The timed work: kernels (or a library call) over the plan's input, on `stream`.
    virtual void launch(cudaStream_t stream) = 0;
    // The result of the last launch to the host, where the program's check reads it.
    virtual void fetch(cudaStream_t stream) = 0;
    // Before the series: fill what the version writes with a pattern no right result has, so
    // that a stale or unwritten result cannot pass.
    virtual void poison(cudaStream_t) {}
    // Before every launch, untimed: what a launch consumes (an in-place version's fresh input).
    virtual void reset(cudaStream_t) {}
    // --vary-input: the program refilled the plan's input on the host and the device; a runner
    // that keeps its own copy of the input (made when the runner was) copies it again.
    virtual void input_changed(cudaStream_t) {}
};

// A registry entry: what the version is (VersionInfo: label, kernel, summary, validated,
// is_baseline, by_default, on_host, tags, profile_kernels) and what running it takes. Every
// registry writes each entry as one expression, the constructor and then setters that return
// the entry, e.g.
//   Version("single_pass", "vecmax_single_pass_vec4", "one launch: float4 loads, ...")
//       .runs(make<SinglePassRunner>)
//       .allocates([](const Plan&) { return 2.0 * sizeof(unsigned int); })
//       .tagged("keeps_state,bench")
//       .profiled("vecmax_single_pass"),
// A program derives its own entry type from it for what is its own (scan's traffic model, pi's
// reference), with setters of its own: struct Version : cw::Version<Plan, Version> (Self, the
// derived type, is what the setters return; void: this type itself).
template <typename Plan, typename Self = void>
struct Version : VersionInfo {
    using Entry = typename std::conditional<std::is_void<Self>::value, Version, Self>::type;
    using Factory = std::function<std::unique_ptr<Runner>(const Plan&)>;

    // Why the version cannot run a plan ("" when it can); unset: it runs every plan.
    std::function<std::string(const Plan&)> cannot_run;
    // Device bytes the version allocates beyond the program's own buffers.
    std::function<double(const Plan&)> workspace_bytes;
    // Its runner for one plan (after enter(): the plan's data exist).
    Factory make;

    Version() {}
    // What --help, --list-versions and the CSV say of it: its label, the kernel(s) or library
    // call it runs, its one-line summary.
    Version(const std::string& label_, const std::string& kernel_, const std::string& summary_) {
        label = label_;
        kernel = kernel_;
        summary = summary_;
    }

    std::string why_not(const Plan& p) const { return cannot_run ? cannot_run(p) : std::string(); }
    double workspace(const Plan& p) const { return workspace_bytes ? workspace_bytes(p) : 0.0; }

    // The setters, in the order registries write them.
    Entry& runs(Factory factory) { return set(make, std::move(factory)); }
    Entry& allocates(std::function<double(const Plan&)> bytes) { return set(workspace_bytes, std::move(bytes)); }
    Entry& refuses(std::function<std::string(const Plan&)> why) { return set(cannot_run, std::move(why)); }
    Entry& baseline() { return set(is_baseline, true); }
    Entry& demonstration() { return set(validated, false); }
    Entry& opt_in() { return set(by_default, false); }
    Entry& host() { return set(on_host, true); }
    Entry& tagged(const std::string& words) { return set(tags, words); }
    Entry& profiled(const std::string& kernels_regex) { return set(profile_kernels, kernels_regex); }

  protected:
    template <typename Field, typename Value>
    Entry& set(Field& field, Value&& value) {
        field = std::forward<Value>(value);
        return static_cast<Entry&>(*this);
    }
};

struct NoExtra {};

// What the harness measured of one version at one plan, and what the program's check found.
// Extra: the program's own measurements (vecmax's output copy, scan's demonstration errors).
template <typename Extra>
struct Outcome {
    Timing timing;             // the timed series
    double baseline_ms = NAN;  // the baseline's median at the same plan
    bool ok = false;           // validated: the result equals the reference; demonstration: every run right
    std::string detail;        // the result line's detail (check() writes it)
    Extra extra;
    double ms() const { return timing.samples_ms.empty() ? NAN : timing.median_ms(); }
};

// Host and device bytes of a whole run.
struct Memory {
    double host = 0, device = 0;
    std::string what;  // the run it is for, in the refusal ("n=2^30 with --blocks=64")
};

// Launch k of --vary-input=K (k = 1..K) and its seed (the run's --seed + k, as 32 bits); k = 0:
// the run's own data, of the run's --seed, back for the next version.
struct VaryInput {
    int k = 0;
    std::uint64_t seed = 0;
};

template <typename PlanT, typename VersionT = Version<PlanT>, typename ExtraT = NoExtra>
class Program {
  public:
    using Plan = PlanT;
    using V = VersionT;
    using Result = Outcome<ExtraT>;
    using Results = std::vector<std::pair<const V*, Result>>;  // one plan's, in registry order

    // name: the program's (messages, the CSV's assignment column); description: the first
    // lines of --help; epilog: its last lines, after the list of versions.
    Program(const char* name, const std::string& description, const std::string& epilog = std::string())
        : name_(name), description_(description), epilog_(epilog) {}
    virtual ~Program() {}
    const char* name() const { return name_; }
    const std::string& description() const { return description_; }
    const std::string& epilog() const { return epilog_; }

    // ---- What every program must say ------------------------------------------------------
    virtual const std::vector<V>& versions() const = 0;
    virtual SharedOptions& shared() = 0;  // its options struct (derives from SharedOptions)
    // 1. The points of the run's axes, from options already parsed and checked against
    // the selected versions (throw UsageError for anything wrong).
    virtual std::vector<Plan> plans(const Options& options, const std::vector<const V*>& chosen) = 0;
    // 4. Compare the fetched result with the reference: set r.ok and r.detail (a demonstration
    // may launch more runs through `runner`).
    virtual void check(const Plan& plan, const V& v, Runner& runner, Result& r, Session& session) = 0;
    // --inject-fault: alter the fetched result of a validated version (it must then FAIL).
    virtual void inject_fault(const Plan&, const V&) = 0;
    // One CSV row; called with (Plan(), nullptr, Result(), {}) for the header.
    virtual CsvRow row(const Plan& plan, const V* v, const Result& r, const Results& all) const = 0;

    // ---- What a program may add (each default says what a program without it gets) ---------
    // 1. Its own options (declared before the shared ones); checks of --output against the
    // plans (one size, a validated version...).
    virtual void declare(Options&, SharedOptionsHelp&) {}
    virtual void check_output(const std::vector<Plan>&, const std::vector<const V*>&) const {}

    // 2. Session settings (copy bandwidth, L2 flusher) and device-dependent choices.
    // Plans gain what depends on the device here (a policy's launch shape, a grid).
    virtual Session::Settings settings() const { return Session::Settings(); }
    // Just before the Session probes the device, the run's first CUDA call (not called for a
    // run of host versions alone): what must be measured before any other CUDA call
    // (colreduce: the creation of the CUDA context).
    virtual void before_device() {}
    virtual void on_device(Session&, std::vector<Plan>&) {}

    // 3. Host and device bytes of the whole run (the versions' workspaces included), refused
    // before anything is allocated when they do not fit. Default: nothing to check.
    virtual Memory memory(const std::vector<Plan>&, const std::vector<const V*>&) const { return Memory(); }

    // 4. Per plan: its data and reference (plans are entered in order; a program may keep
    // what consecutive plans share, the data of one size for both modes).
    virtual void enter(Plan&, Session&) {}
    // A version's runner for a plan: the entry's factory, unless the program adds what it owns
    // (scan: the buffers every version reads and writes).
    virtual std::unique_ptr<Runner> make_runner(const Plan& plan, const V& v) { return v.make(plan); }
    // Measurements beyond the timed series (the result copy, a second series without flush).
    virtual void measure_more(const Plan&, const V&, Runner&, Result&, Session&) {}
    // --vary-input: refill the plan's input in place (host and device, where the runners read
    // it) with the seeded data of input.seed, and recompute its reference (input.k: which
    // launch, 1..K; 0: the run's own data back). A program whose runs have no input data (pi)
    // keeps the default and refuses the option.
    virtual bool can_vary() const { return false; }
    virtual void vary(const Plan&, const VaryInput&) {}
    // Warm-up and timed runs of a version's series (the CPU versions may take fewer).
    virtual std::pair<int, int> warmup_repeat(const V&) {
        return std::make_pair(shared().warmup, shared().repeat);
    }
    // Plans with the same key share one measurement of the baseline (its first plan's): a
    // thread-count axis does not change what the library does. Default: every plan its own.
    virtual std::string baseline_key(const Plan& plan) const { return plan.text(); }
    // The progress line's text after the plan: default "<ms> ms PASS".
    virtual std::string progress_text(const Plan&, const V& v, const Result& r) const {
        return format("%.4f ms %s", r.ms(), !v.validated ? "demonstration" : (r.ok ? "PASS" : "FAIL"));
    }
    // After every version of a plan ran: the --output content, if this plan gives it.
    virtual void leave(const Plan&, const Results&, Session&) {}

    // ---- For the program's hooks ------------------------------------------------------------
    // The session's device columns and copy bandwidth, for rows and result lines (empty and
    // NaN before the session starts, and in a run without a device).
    DeviceColumns columns() const { return session_ != nullptr ? session_->columns() : DeviceColumns(); }
    double copy_bw_GBps() const { return session_ != nullptr ? session_->copy_bw_GBps() : NAN; }
    void attach(const Session* session) { session_ = session; }
    // What every row's core says the same way: the program, the version (none in the header's
    // call), the series' median, the baseline's at the same plan and the verdict. A program adds
    // its sizes, launch shape and bytes (and may correct the rest).
    CoreRow core_of(const V* v, const Result& r) const {
        CoreRow core;
        core.assignment = name();
        if (v != nullptr) {
            core.version = v->label;
            core.validated = v->validated;
            core.is_baseline = v->is_baseline;
        }
        core.kernel_ms = r.ms();
        core.baseline_ms = r.baseline_ms;
        core.result_ok = r.ok;
        return core;
    }

  private:
    const char* name_;
    std::string description_, epilog_;
    const Session* session_ = nullptr;
};

namespace detail {

// Every (plan, version) that can run, in plan order then registry order.
template <typename P>
struct RunPlan {
    std::vector<typename P::Plan> plans;
    std::vector<const typename P::V*> chosen;
    std::vector<std::vector<const typename P::V*>> runs;  // per plan: the versions that run it
    const typename P::V* baseline = nullptr;
    std::string baseline_key;         // the key of the last baseline measurement
    typename P::Result baseline_result;
    int steps = 0;
    bool needs_gpu = false;
};

template <typename P>
RunPlan<P> make_run_plan(P& program, const Options& options, const std::vector<const typename P::V*>& chosen) {
    RunPlan<P> rp;
    rp.plans = program.plans(options, chosen);
    rp.chosen = chosen;
    for (const typename P::V& v : program.versions())
        if (v.is_baseline) rp.baseline = &v;
    for (const typename P::V* v : chosen) {
        std::string why_not;
        int runnable = 0;
        for (const typename P::Plan& plan : rp.plans) {
            const std::string why = v->why_not(plan);
            if (why.empty()) ++runnable;
            else if (why_not.empty()) why_not = plan.text() + ": " + why;
        }
        if (runnable == 0 && options.given("only")) throw UsageError("version " + v->label + " cannot run " + why_not);
        rp.needs_gpu = rp.needs_gpu || (runnable > 0 && !v->on_host);
    }
    for (const typename P::Plan& plan : rp.plans) {
        rp.runs.emplace_back();
        for (const typename P::V* v : chosen)
            if (v->why_not(plan).empty()) rp.runs.back().push_back(v);
        rp.steps += static_cast<int>(rp.runs.back().size());
    }
    if (rp.steps == 0) throw UsageError("nothing to run: no selected version can run the given sizes and modes");
    return rp;
}

// The timed series of one version: `warmup` untimed runs, then `repeat` timed ones, each
// after the runner's untimed reset (and the L2 flush, given a flusher). Host versions are
// timed by the steady clock.
inline Timing time_series(Runner& runner, bool on_host, int warmup, int repeat, L2Flusher* flusher,
                          cudaStream_t stream) {
    if (on_host)
        return time_host(warmup, repeat, [&]() {
            runner.reset(stream);
            runner.launch(stream);
        });
    return time_gpu(
        warmup, repeat, [&](cudaStream_t s) { runner.reset(s); }, [&](cudaStream_t s) { runner.launch(s); }, flusher,
        stream);
}

// --vary-input=K: K more launches of the same runner, each on new seeded data of the plan's
// size and each checked (the program's measure_more too: what it collects after a run), then
// the run's own data back for the next version. A version that
// keeps state between launches (descriptors, counters, a cached result) must not carry one
// input's answer into the next: the timed series launches on one input only, so it cannot
// tell a stale result from a right one.
template <typename P>
void vary_input(P& program, Session& session, const typename P::Plan& plan, const typename P::V& v, Runner& runner,
                typename P::Result& r) {
    const SharedOptions& o = program.shared();
    const cudaStream_t stream = 0;
    for (int k = 1; k <= o.vary_input; ++k) {
        VaryInput input;
        input.k = k;
        input.seed = static_cast<std::uint64_t>(o.seed + k) & 0xffffffffu;
        program.vary(plan, input);
        runner.input_changed(stream);
        runner.poison(stream);
        runner.reset(stream);
        runner.launch(stream);
        CUDA_CHECK(cudaGetLastError());
        runner.fetch(stream);
        typename P::Result again;
        again.timing = r.timing;
        program.measure_more(plan, v, runner, again, session);
        program.check(plan, v, runner, again, session);
        if (!again.ok) {
            r.ok = false;
            r.detail += format(" | input %d of --vary-input (seed %lld): FAIL %s", k, o.seed + k, again.detail.c_str());
        }
    }
    VaryInput own;
    own.seed = static_cast<std::uint64_t>(o.seed);
    program.vary(plan, own);  // the run's data, for the next version (this runner is done)
}

// One version at one plan: runner, poison, series, fetch, extra measurements, fault, check.
// baseline_ms: the baseline's median at this plan (NaN while the baseline itself is measured:
// its own median is used).
// chosen: false for a baseline measured only for the other rows' baseline_ms (--only left it
// out): it is warmed up at least once (a library's first call is cold) and gets no fault.
template <typename P>
typename P::Result measure(P& program, Session& session, const typename P::Plan& plan, const typename P::V& v,
                           double baseline_ms, bool chosen = true) {
    const SharedOptions& o = program.shared();
    typename P::Result r;
    std::unique_ptr<Runner> runner = program.make_runner(plan, v);
    const cudaStream_t stream = 0;
    const std::pair<int, int> series = program.warmup_repeat(v);
    runner->poison(stream);
    const int warmup = chosen ? series.first : std::max(series.first, 1);
    r.timing = time_series(*runner, v.on_host, warmup, series.second, session.flusher(), stream);
    r.baseline_ms = v.is_baseline ? r.ms() : baseline_ms;
    runner->fetch(stream);
    program.measure_more(plan, v, *runner, r, session);
    if (o.inject_fault && v.validated && chosen) program.inject_fault(plan, v);
    program.check(plan, v, *runner, r, session);
    if (o.vary_input > 0 && v.validated && chosen) vary_input(program, session, plan, v, *runner, r);
    return r;
}

// Every version of one plan, the baseline first; then the plan's rows.
template <typename P>
void run_plan(P& program, Session& session, typename P::Plan& plan, RunPlan<P>& rp, std::size_t index) {
    const std::vector<const typename P::V*>& runs = rp.runs[index];
    const typename P::V* baseline = rp.baseline;
    program.enter(plan, session);
    for (const typename P::V* v : rp.chosen)
        if (!v->why_not(plan).empty())
            std::printf("%s version=%s %s: skipped (%s)\n", program.name(), v->label.c_str(),
                        plan.text().c_str(), v->why_not(plan).c_str());
    typename P::Results results;
    const std::string key = program.baseline_key(plan);
    const bool reuse = baseline != nullptr && !rp.baseline_key.empty() && key == rp.baseline_key;
    const bool with_baseline =
        reuse || (baseline != nullptr && baseline->why_not(plan).empty() && session.has_device());
    if (with_baseline && !reuse) {
        const bool chosen = std::find(rp.chosen.begin(), rp.chosen.end(), baseline) != rp.chosen.end();
        rp.baseline_result = measure(program, session, plan, *baseline, NAN, chosen);
        rp.baseline_key = key;
    }
    const typename P::Result& base = rp.baseline_result;
    bool baseline_ran = false;
    for (const typename P::V* v : runs) {
        const typename P::Result r =
            (v == baseline && with_baseline) ? base : measure(program, session, plan, *v, base.ms());
        baseline_ran = baseline_ran || v == baseline;
        const std::string what = plan.text() + (r.detail.empty() ? "" : " " + r.detail);
        if (v->validated) session.record(v->label, r.ok, what);
        else session.demonstration(v->label, what);
        session.progress("version=" + v->label + " " + plan.text() + ": " +
                         program.progress_text(plan, *v, r));
        results.emplace_back(v, r);
    }
    // A baseline left out by --only still had to be right: its time is on every row.
    if (with_baseline && !baseline_ran && !base.ok)
        session.record(baseline->label, false, "(baseline, not in --only) " + plan.text() + " " + base.detail);
    for (const auto& vr : results) session.add_row(program.row(plan, vr.first, vr.second, results));
    program.leave(plan, results, session);
}

}  // namespace detail

// The whole run of a program (see the top of this file); returns its exit status.
template <typename P>
int run_program(P& program, int argc, char** argv) {
    SharedOptions& o = program.shared();
    Options options(program.name(), program.description());
    SharedOptionsHelp help;
    program.declare(options, help);
    add_shared_options(options, o, help);
    options.epilog(versions_help(program.versions()) + program.epilog());
    if (!options.parse(argc, argv)) {
        std::fputs(options.help_text().c_str(), stdout);
        return kExitOk;
    }
    check_excludes(options, "list-versions", {"print-csv-header"});

    // 1. Everything the user gave, before any CUDA call (--list-versions and
    // --print-csv-header too: a bad option is exit 2 whatever else is asked).
    if (o.vary_input > 0) {
        if (!program.can_vary()) throw UsageError(std::string("option --vary-input: ") + program.name() + " has no input data to vary");
        if (!o.input.empty()) throw UsageError("option --vary-input varies seeded data; do not give --input with it");
        if (!o.output.empty()) throw UsageError("option --vary-input is a testing aid; do not give --output with it");
    }
    const std::vector<const typename P::V*> chosen = select_versions(program.versions(), o.only, options.given("only"));
    detail::RunPlan<P> rp = detail::make_run_plan(program, options, chosen);
    if (!o.output.empty()) {
        check_output_path(o.output, "output file");
        program.check_output(rp.plans, chosen);
    }
    const std::string header = program.row(typename P::Plan(), nullptr, typename P::Result(), {}).header();
    if (!o.csv.empty()) check_csv_file(o.csv, header);
    if (print_csv_header_if_asked(o, header)) return kExitOk;
    if (list_versions_if_asked(o, program.versions())) return kExitOk;

    // 2. The device, unless only host versions run; 3. memory; 4. every plan; 5. finish.
    Session::Settings settings = program.settings();
    settings.device = rp.needs_gpu;
    if (settings.device) program.before_device();
    Session session(program.name(), o.device, o.csv, o.output, settings);
    program.attach(&session);
    if (session.has_device()) program.on_device(session, rp.plans);
    const Memory need = program.memory(rp.plans, chosen);
    session.require_memory(static_cast<unsigned long long>(need.host), static_cast<unsigned long long>(need.device),
                           need.what);
    session.plan(rp.steps);
    for (std::size_t i = 0; i < rp.plans.size(); ++i) detail::run_plan(program, session, rp.plans[i], rp, i);
    return session.finish();
}

// main() of a program: cw::run_main around run_program.
template <typename P>
int program_main(int argc, char** argv) {
    P program;
    return run_main(program.name(), [&]() { return run_program(program, argc, argv); });
}

}  // namespace cw
