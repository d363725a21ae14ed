// scan's versions: the runner every version shares (its launcher over the plan's buffers) and
// the registry (see scan_versions.cuh). Adding a version: its kernels and launcher
// (scan_kernels.cu; a version of one kernel needs only the kernel: OneKernel launches it) and one
// entry here (common/README.md, "Adding a version"); --help, --only, --list-versions, the CSV,
// the tables, the figures and the tests follow. Its tags say which experiments and tests are
// about it (below, before the entries).
#include "scan_versions.cuh"

#include <cmath>
#include <cstdio>
#include <string>

#include "scan_cub.cuh"
#include "scan_plan.h"

namespace scan {

void Runner::launch(cudaStream_t stream) { launcher_->run(p_.d_in, p_.d_out, n(), p_.exclusive, stream); }

void Runner::fetch(cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyAsync(p_.h_out, p_.d_out, bytes(), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

// A result left by another version must not pass for this one's.
void Runner::poison(cudaStream_t stream) { CUDA_CHECK(cudaMemsetAsync(p_.d_out, 0xa5, bytes(), stream)); }

void Runner::reset(cudaStream_t stream) {
    if (launcher_->in_place())
        CUDA_CHECK(cudaMemcpyAsync(p_.d_out, p_.d_in, bytes(), cudaMemcpyDeviceToDevice, stream));
}

std::vector<scan_gpu::KernelLaunch> Runner::launches() const { return launcher_->launches(n(), p_.exclusive); }

void add_launch_columns(cw::CsvRow& row, const std::vector<scan_gpu::KernelLaunch>& launches, int sm_count) {
    for (int k = 0; k < 3; ++k) {
        const std::string p = "k" + std::to_string(k + 1) + "_";
        if (k >= static_cast<int>(launches.size())) {
            for (const char* c : {"name", "grid", "block", "regs", "smem_bytes", "blocks_per_sm", "occupancy", "waves"})
                row.add_na(p + c);
            continue;
        }
        const scan_gpu::KernelLaunch& l = launches[k];
        const double per_wave = static_cast<double>(l.blocks_per_sm) * sm_count;
        row.add(p + "name", l.name)
            .add(p + "grid", l.grid)
            .add(p + "block", l.block)
            .add(p + "regs", l.regs)
            .add(p + "smem_bytes", static_cast<long long>(l.smem_bytes))
            .add(p + "blocks_per_sm", l.blocks_per_sm)
            .add(p + "occupancy", l.occupancy, 4)
            .add(p + "waves", per_wave > 0 ? static_cast<double>(l.grid) / per_wave : NAN, 4);
    }
}

namespace {

std::size_t size(const Plan& p) { return static_cast<std::size_t>(p.n); }
// A map scan's group: the elements one thread scans (--per-thread).
std::size_t chunk(const Plan& p) { return static_cast<std::size_t>(p.per_thread); }
// A Brent-Kung block's section: 2 x --threads elements.
std::size_t section(const Plan& p) { return 2 * static_cast<std::size_t>(p.threads); }

Model model_of(double bytes, double additions, int items_per_thread = 0) {
    Model m;
    m.bytes = bytes;
    m.additions = additions;
    m.items_per_thread = items_per_thread;
    return m;
}

// Device bytes of the per-level totals of a recursive scan (every level but the first).
double level_bytes(std::size_t n, std::size_t group) {
    const std::vector<std::size_t> levels = scan_plan::level_sizes(n, group);
    double bytes = 0.0;
    for (std::size_t l = 1; l < levels.size(); ++l) bytes += 4.0 * static_cast<double>(levels[l]);
    return bytes;
}

std::unique_ptr<cw::Runner> runner(const Plan& p, scan_gpu::Launcher* launcher) {
    return std::unique_ptr<cw::Runner>(new Runner(p, launcher));
}

// A version of one kernel per scan, kernel(in, out, n) (its inclusive and exclusive forms), on
// ceil(n / per_block) blocks (one block where per_block is 0) of `threads` threads with `smem`
// bytes of dynamic shared memory: all a one-kernel version needs beside its kernel and entry
// (common/README.md's worked example). The report's versions have launchers in scan_kernels.cu.
using ScanKernel = void (*)(const unsigned*, unsigned*, int);
class OneKernel : public scan_gpu::Launcher {
  public:
    OneKernel(const char* name, ScanKernel inclusive, ScanKernel exclusive, int threads, std::size_t smem,
              std::size_t per_block = 0)
        : name_(name), kernels_{inclusive, exclusive}, threads_(threads), smem_(smem), per_block_(per_block) {}
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override {
        kernels_[exclusive]<<<static_cast<unsigned>(grid(n)), threads_, smem_, s>>>(in, out, static_cast<int>(n));
        CUDA_CHECK_LAUNCH();
    }
    std::vector<scan_gpu::KernelLaunch> launches(std::size_t n, bool exclusive) const override {
        scan_gpu::KernelLaunch k;
        k.name = name_;
        k.grid = grid(n);
        k.block = threads_;
        cudaFuncAttributes attr;
        CUDA_CHECK(cudaFuncGetAttributes(&attr, kernels_[exclusive]));
        k.regs = attr.numRegs;
        k.smem_bytes = attr.sharedSizeBytes + smem_;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&k.blocks_per_sm, kernels_[exclusive], threads_, smem_));
        int device = 0, max_threads = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device));
        k.occupancy = max_threads > 0 ? static_cast<double>(k.blocks_per_sm) * threads_ / max_threads : 0.0;
        return {k};
    }

  private:
    long long grid(std::size_t n) const {
        return per_block_ == 0 ? 1 : static_cast<long long>(scan_plan::ceil_div(n, per_block_));
    }
    std::string name_;
    ScanKernel kernels_[2];
    int threads_;
    std::size_t smem_, per_block_;
};

// The report's racy kernels have no exclusive form.
std::string inclusive_only(const Plan& p) {
    return p.exclusive ? "a racy demonstration scans inclusively only" : "";
}
std::string one_block(const Plan& p) {
    if (p.n > scan_plan::kMaxOneBlock)
        return "one block covers at most " + std::to_string(scan_plan::kMaxOneBlock) + " elements";
    return inclusive_only(p);
}
std::string one_block_of_threads(const Plan& p) {
    if (p.n <= p.threads) return "";
    return "a single block of --threads=" + std::to_string(p.threads) + " threads scans at most " +
           std::to_string(p.threads) + " elements" +
           (p.threads < scan_plan::kMaxOneBlock ? " (--threads=1024 allows 1024)" : "");
}

// A version every run validates against the CPU (exact equality).
Version validated(const char* label, const char* kernel, const char* summary) {
    return cw::version_entry<Version>(label, kernel, summary);
}
// One of the report's racy kernels: never validated (measured: MSE, wrong runs), run only
// when --only names it, inclusive only.
Version demonstration(const char* label, const char* kernel, const char* summary) {
    Version v = cw::version_entry<Version>(label, kernel, summary);
    v.validated = false;
    v.by_default = false;
    v.cannot_run = inclusive_only;
    return v;
}

Model hillis_steele_in_place_model(const Plan& p) {
    return model_of(scan_plan::model_bytes_hillis_steele_in_place(size(p)),
                    scan_plan::additions_hillis_steele(size(p)));
}
Model map_model(const Plan& p) {
    return model_of(scan_plan::model_bytes_recursive(size(p), chunk(p)), scan_plan::additions_map(size(p), chunk(p)),
                    p.per_thread);
}
double map_workspace(const Plan& p) { return level_bytes(size(p), chunk(p)); }
// lookback's kernel (the plan's tile): its traffic and additions, and its workspace (a
// descriptor per tile, the tile counter); also lookahead's where it runs that kernel.
Model lookback_model(const Plan& p) {
    const std::size_t threads = static_cast<std::size_t>(p.lookback.threads);
    const std::size_t items = static_cast<std::size_t>(p.lookback.items);
    return model_of(scan_plan::model_bytes_single_pass(size(p)), scan_plan::additions_lookback(size(p), threads, items),
                    p.lookback.items);
}
double lookback_workspace(const Plan& p) {
    const std::size_t tiles = scan_plan::ceil_div(size(p), static_cast<std::size_t>(p.lookback.tile()));
    return 8.0 * static_cast<double>(tiles) + 4.0;
}

// The entries, one function each, in registry order. Their tags (--list-versions' sixth
// column), by which the Makefile's experiments and the tests find the versions they are about:
//   one_block     scans one block at most (cannot_run beyond): `make report`'s sweeps leave it out
//   threads       its block size is --threads
//   per_thread    scans --per-thread elements per thread (the per-thread sweep, section 3.0.3)
//   table1_1      a demonstration that Table 1.1 and the sweeps run (the report's racy kernel)
//   as_printed    the report's section 2 kernel as printed (its serial part measured: serial_ms)
//   lb_items      runs lookback's kernel, whose tile --lb-items sets
//   la_kernel     its kernel is chosen by --la-kernel
//   keeps_state   keeps device state between launches (descriptors, counters, epochs)
//   profile_N     `make profile` profiles its profile_kernels at n = N
Version cub() {
    Version v = validated("cub", "cub::DeviceScan::InclusiveSum / ExclusiveSum", "cub::DeviceScan (scan_cub.cu)");
    v.is_baseline = true;
    v.model = [](const Plan& p) { return model_of(scan_plan::model_bytes_single_pass(size(p)), NAN); };
    // CUB's temporary storage: its tile states, far less than this bound.
    v.workspace_bytes = [](const Plan& p) { return static_cast<double>(p.n) / 64.0 + (1 << 20); };
    v.make = [](const Plan& p) { return runner(p, new scan_gpu::CubScan(size(p))); };
    return v;
}

Version hs_inplace_racy() {
    Version v = demonstration("hs_inplace_racy", "hillis_steele_in_place",
                              "report section 1: Hillis-Steele in place, one block of --threads (n <= 1024)");
    v.tags = "one_block,threads";
    v.profile_kernels = "hillis_steele_in_place";
    v.cannot_run = one_block;
    v.model = hillis_steele_in_place_model;
    v.make = [](const Plan& p) {
        return runner(p, new scan_gpu::HillisSteeleInPlace(p.threads, scan_gpu::HillisSteeleInPlace::Grid::kOneBlock));
    };
    return v;
}

Version hs_buffered() {
    Version v = validated("hs_buffered", "hillis_steele_double_buffered_kernel",
                          "section 1 done right: double-buffered in shared memory, one block (n <= --threads)");
    v.tags = "one_block,threads";
    v.profile_kernels = "hillis_steele_double_buffered_kernel";
    v.cannot_run = one_block_of_threads;
    v.model = [](const Plan& p) {
        return model_of(scan_plan::model_bytes_single_pass(size(p)), scan_plan::additions_hillis_steele(size(p)));
    };
    v.make = [](const Plan& p) { return runner(p, new scan_gpu::HillisSteeleBuffered(p.threads)); };
    return v;
}

Version hs_multiblock_racy() {
    Version v = demonstration("hs_multiblock_racy", "hillis_steele_in_place",
                              "report section 1.10: the in-place kernel on ceil(n/--threads) blocks");
    v.tags = "table1_1,threads,profile_20000000";
    v.profile_kernels = "hillis_steele_in_place";
    v.model = hillis_steele_in_place_model;
    v.make = [](const Plan& p) {
        return runner(p, new scan_gpu::HillisSteeleInPlace(p.threads, scan_gpu::HillisSteeleInPlace::Grid::kCoverN));
    };
    return v;
}

// The report's section 2 kernel as printed: checked against the CPU on every run like the
// other demonstrations (wrong_runs, mse), never counted as PASS or FAIL.
Version map_as_printed() {
    Version v = demonstration("map_as_printed", "map_prefix_sum_as_printed",
                              "report section 2 as printed: one kernel, thread 0 scans the chunk totals, "
                              "printf(\"\") as the barrier between blocks");
    v.tags = "as_printed,threads,profile_15000";
    v.profile_kernels = "map_prefix_sum_as_printed";
    v.model = map_model;
    v.workspace_bytes = map_workspace;
    v.make = [](const Plan& p) { return runner(p, new scan_gpu::MapAsPrinted(size(p), p.threads, p.per_thread)); };
    return v;
}

Version map() {
    Version v = validated("map", "map_scan_chunks, map_add_chunk_offsets",
                          "report section 2: --per-thread elements per thread, totals scanned, offsets added");
    v.tags = "per_thread,threads";
    v.profile_kernels = "map_scan_chunks";
    v.model = map_model;
    v.workspace_bytes = map_workspace;
    v.make = [](const Plan& p) { return runner(p, new scan_gpu::MapScan(size(p), p.threads, p.per_thread)); };
    return v;
}

Version brent_kung() {
    Version v = validated("brent_kung", "brent_kung_block_scan, brent_kung_add_block_sums",
                          "Brent-Kung throughout: 2 x --threads per block, block sums scanned, added back");
    v.tags = "threads,profile_1250000";
    v.profile_kernels = "brent_kung_block_scan";
    v.model = [](const Plan& p) {
        return model_of(scan_plan::model_bytes_recursive(size(p), section(p)),
                        scan_plan::additions_brent_kung(size(p), section(p)));
    };
    v.workspace_bytes = [](const Plan& p) { return level_bytes(size(p), section(p)); };
    v.make = [](const Plan& p) { return runner(p, new scan_gpu::BrentKungScan(size(p), p.threads)); };
    return v;
}

Version map_brent_kung() {
    Version v = validated("map_brent_kung", "map_scan_chunks, brent_kung_block_scan, map_add_chunk_offsets",
                          "report section 3 as described: --per-thread chunks, their totals by Brent-Kung, added back");
    v.tags = "per_thread,threads,profile_15000,profile_1250000";
    v.profile_kernels = "map_scan_chunks";
    v.model = [](const Plan& p) {
        return model_of(scan_plan::model_bytes_map_brent_kung(size(p), chunk(p), section(p)),
                        scan_plan::additions_map_brent_kung(size(p), chunk(p), section(p)), p.per_thread);
    };
    v.workspace_bytes = [](const Plan& p) {  // the chunk totals and their block sums
        const std::size_t chunks = scan_plan::ceil_div(size(p) > 0 ? size(p) : 1, chunk(p));
        return 4.0 * static_cast<double>(chunks) + level_bytes(chunks, section(p));
    };
    v.make = [](const Plan& p) {
        return runner(p, new scan_gpu::MapBrentKungScan(size(p), p.threads, p.per_thread));
    };
    return v;
}

Version lookback() {
    Version v = validated("lookback", "scan_decoupled_lookback",
                          "ours: single-pass decoupled look-back (tile: --lb-items, else chosen per device)");
    v.tags = "lb_items,keeps_state,profile_1250000";
    v.profile_kernels = "scan_decoupled_lookback";
    v.model = lookback_model;
    v.workspace_bytes = lookback_workspace;
    v.make = [](const Plan& p) { return runner(p, new scan_gpu::LookbackScan(size(p), p.lookback)); };
    return v;
}

// The warp-specialised look-ahead scan where the device runs it and n is large enough
// (scan_policy::LookaheadPolicy), lookback's kernel (and tile) everywhere else: never refused for
// an old GPU. The model and workspace follow the kernel the plan's size takes.
Version lookahead() {
    Version v = validated("lookahead", "ws_scan_kernel | scan_decoupled_lookback",
                          "ours: warp-specialised look-ahead scan on sm_90 at large n (policy), else lookback's kernel");
    v.tags = "lb_items,la_kernel,keeps_state";
    v.profile_kernels = "ws_scan_kernel|scan_decoupled_lookback";
    v.model = [](const Plan& p) {
        if (!p.lookahead.use_ws(p.n)) return lookback_model(p);
        return model_of(scan_plan::model_bytes_single_pass(size(p)), NAN);  // additions: not modelled
    };
    v.workspace_bytes = [](const Plan& p) {  // lookback's (always allocated), the ws kernel's where it runs
        return lookback_workspace(p) +
               (p.lookahead.use_ws(p.n) ? scan_policy::LookaheadPolicy::workspace_bytes(p.n) : 0.0);
    };
    v.make = [](const Plan& p) {
        return runner(p, new scan_gpu::LookaheadScan(size(p), p.lookahead, p.lookback));
    };
    return v;
}

}  // namespace

Model Version::cost(const Plan& p) const {
    return model ? model(p) : model_of(scan_plan::model_bytes_single_pass(size(p)), NAN);
}

const std::vector<Version>& registry() {
    static const std::vector<Version> versions = {
        cub(),
        hs_inplace_racy(),
        hs_buffered(),
        hs_multiblock_racy(),
        map_as_printed(),
        map(),
        brent_kung(),
        map_brent_kung(),
        lookback(),
        lookahead(),
    };
    return versions;
}

scan_policy::LookbackPolicy lookback_policy(const cw::DeviceInfo& dev, const std::string& lb_items) {
    scan_policy::LookbackPolicy lb = scan_policy::LookbackPolicy::for_device(dev);
    if (lb_items != "auto") lb = lb.with_items(std::stoi(lb_items));
    std::printf("lookback tuning policy: %d threads x %d ints per tile (%s)\n", lb.threads, lb.items,
                lb.forced ? "--lb-items" : "chosen for this device");
    return lb;
}

scan_policy::LookaheadPolicy lookahead_policy(const cw::DeviceInfo& dev, const std::string& la_kernel) {
    using Choice = scan_policy::LookaheadPolicy::Choice;
    scan_policy::LookaheadPolicy la = scan_policy::LookaheadPolicy::for_device(dev);
    if (la_kernel != "auto") la = la.with_choice(la_kernel == "ws" ? Choice::kWs : Choice::kLookback);
    if (la.can_run)
        std::printf("lookahead tuning policy: warp-specialised kernel (%d-int tiles x %d stages, %d threads, "
                    "%d CTA(s) per SM x %d SMs) %s, else lookback's kernel\n",
                    la.kTile, la.kStages, la.kThreads, la.ctas_per_sm, la.sm_count,
                    la.choice == Choice::kAuto ? cw::format("for n >= %lld", la.kMinN).c_str()
                    : la.choice == Choice::kWs ? "at every n (--la-kernel=ws)"
                                               : "at no n (--la-kernel=lookback)");
    else
        std::printf("lookahead tuning policy: lookback's kernel at every n (the warp-specialised kernel cannot "
                    "run here: %s)\n",
                    la.why_not.c_str());
    return la;
}

}  // namespace scan
