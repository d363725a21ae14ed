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

void Runner::launch(cudaStream_t stream) { launcher_->run(io_.d_in, io_.d_out, n(), p_.exclusive, stream); }

void Runner::fetch(cudaStream_t stream) {
    CUDA_CHECK(cudaMemcpyAsync(io_.h_out, io_.d_out, bytes(), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

// A result left by another version must not pass for this one's.
void Runner::poison(cudaStream_t stream) { CUDA_CHECK(cudaMemsetAsync(io_.d_out, 0xa5, bytes(), stream)); }

void Runner::reset(cudaStream_t stream) {
    if (launcher_->in_place())
        CUDA_CHECK(cudaMemcpyAsync(io_.d_out, io_.d_in, bytes(), cudaMemcpyDeviceToDevice, stream));
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

Model hillis_steele_buffered_model(const Plan& p) {
    return model_of(scan_plan::model_bytes_single_pass(size(p)), scan_plan::additions_hillis_steele(size(p)));
}
Model brent_kung_model(const Plan& p) {
    return model_of(scan_plan::model_bytes_recursive(size(p), section(p)),
                    scan_plan::additions_brent_kung(size(p), section(p)));
}
Model map_brent_kung_model(const Plan& p) {
    return model_of(scan_plan::model_bytes_map_brent_kung(size(p), chunk(p), section(p)),
                    scan_plan::additions_map_brent_kung(size(p), chunk(p), section(p)), p.per_thread);
}
double map_brent_kung_workspace(const Plan& p) {  // the chunk totals and their block sums
    const std::size_t chunks = scan_plan::ceil_div(size(p) > 0 ? size(p) : 1, chunk(p));
    return 4.0 * static_cast<double>(chunks) + level_bytes(chunks, section(p));
}
// lookahead's: the warp-specialised kernel's where the plan's size takes it, else lookback's.
Model lookahead_model(const Plan& p) {
    if (!p.lookahead.use_ws(p.n)) return lookback_model(p);
    return model_of(scan_plan::model_bytes_single_pass(size(p)), NAN);  // additions: not modelled
}
double lookahead_workspace(const Plan& p) {  // lookback's (always allocated), the ws kernel's where it runs
    return lookback_workspace(p) + (p.lookahead.use_ws(p.n) ? scan_policy::LookaheadPolicy::workspace_bytes(p.n) : 0.0);
}

// Each version's launcher (scan_kernels.cuh, scan_cub.cuh) for a plan's size and shape.
using LauncherPtr = std::unique_ptr<scan_gpu::Launcher>;
using scan_gpu::HillisSteeleInPlace;
LauncherPtr cub_scan(const Plan& p) { return std::make_unique<scan_gpu::CubScan>(size(p)); }
LauncherPtr hs_one_block(const Plan& p) {
    return std::make_unique<HillisSteeleInPlace>(p.threads, HillisSteeleInPlace::Grid::kOneBlock);
}
LauncherPtr hs_buffered(const Plan& p) { return std::make_unique<scan_gpu::HillisSteeleBuffered>(p.threads); }
LauncherPtr hs_cover_n(const Plan& p) {
    return std::make_unique<HillisSteeleInPlace>(p.threads, HillisSteeleInPlace::Grid::kCoverN);
}
LauncherPtr map_as_printed(const Plan& p) {
    return std::make_unique<scan_gpu::MapAsPrinted>(size(p), p.threads, p.per_thread);
}
LauncherPtr map_scan(const Plan& p) { return std::make_unique<scan_gpu::MapScan>(size(p), p.threads, p.per_thread); }
LauncherPtr brent_kung(const Plan& p) { return std::make_unique<scan_gpu::BrentKungScan>(size(p), p.threads); }
LauncherPtr map_brent_kung(const Plan& p) {
    return std::make_unique<scan_gpu::MapBrentKungScan>(size(p), p.threads, p.per_thread);
}
LauncherPtr lookback(const Plan& p) { return std::make_unique<scan_gpu::LookbackScan>(size(p), p.lookback); }
// The warp-specialised look-ahead scan where the device runs it and n is large enough
// (scan_policy::LookaheadPolicy), lookback's kernel (and tile) everywhere else: never refused for
// an old GPU. Its model and workspace follow the kernel the plan's size takes.
LauncherPtr lookahead(const Plan& p) {
    return std::make_unique<scan_gpu::LookaheadScan>(size(p), p.lookahead, p.lookback);
}

Model cub_model(const Plan& p) { return model_of(scan_plan::model_bytes_single_pass(size(p)), NAN); }
// CUB's temporary storage: its tile states, far less than this bound.
double cub_workspace(const Plan& p) { return static_cast<double>(p.n) / 64.0 + (1 << 20); }
double brent_kung_workspace(const Plan& p) { return level_bytes(size(p), section(p)); }

}  // namespace

Model Version::cost(const Plan& p) const {
    return model ? model(p) : model_of(scan_plan::model_bytes_single_pass(size(p)), NAN);
}

Version& Version::racy() { return demonstration().opt_in().refuses(inclusive_only); }

// The entries, in registry order. Their tags (--list-versions' sixth column), by which the
// Makefile's experiments and the tests find the versions they are about:
//   one_block     scans one block at most (cannot_run beyond): `make report`'s sweeps leave it out
//   threads       its block size is --threads
//   per_thread    scans --per-thread elements per thread (the per-thread sweep, section 3.0.3)
//   table1_1      a demonstration that Table 1.1 and the sweeps run (the report's racy kernel)
//   as_printed    the report's section 2 kernel as printed (its serial part measured: serial_ms)
//   lb_items      runs lookback's kernel, whose tile --lb-items sets
//   la_kernel     its kernel is chosen by --la-kernel
//   keeps_state   keeps device state between launches (descriptors, counters, epochs)
//   profile_N     `make profile` profiles its profile_kernels at n = N
const std::vector<Version>& registry() {
    static const std::vector<Version> versions = {
        Version("cub", "cub::DeviceScan::InclusiveSum / ExclusiveSum", "cub::DeviceScan (scan_cub.cu)")
            .baseline()
            .launches(cub_scan)
            .modelled(cub_model)
            .allocates(cub_workspace),
        Version("hs_inplace_racy", "hillis_steele_in_place",
                "report section 1: Hillis-Steele in place, one block of --threads (n <= 1024)")
            .racy()
            .refuses(one_block)
            .launches(hs_one_block)
            .modelled(hillis_steele_in_place_model)
            .tagged("one_block,threads")
            .profiled("hillis_steele_in_place"),
        Version("hs_buffered", "hillis_steele_double_buffered_kernel",
                "section 1 done right: double-buffered in shared memory, one block (n <= --threads)")
            .refuses(one_block_of_threads)
            .launches(hs_buffered)
            .modelled(hillis_steele_buffered_model)
            .tagged("one_block,threads")
            .profiled("hillis_steele_double_buffered_kernel"),
        Version("hs_multiblock_racy", "hillis_steele_in_place",
                "report section 1.10: the in-place kernel on ceil(n/--threads) blocks")
            .racy()
            .launches(hs_cover_n)
            .modelled(hillis_steele_in_place_model)
            .tagged("table1_1,threads,profile_20000000")
            .profiled("hillis_steele_in_place"),
        // Checked against the CPU on every run like the other demonstrations (wrong_runs, mse).
        Version("map_as_printed", "map_prefix_sum_as_printed",
                "report section 2 as printed: one kernel, thread 0 scans the chunk totals, "
                "printf(\"\") as the barrier between blocks")
            .racy()
            .launches(map_as_printed)
            .modelled(map_model)
            .allocates(map_workspace)
            .tagged("as_printed,threads,profile_15000")
            .profiled("map_prefix_sum_as_printed"),
        Version("map", "map_scan_chunks, map_add_chunk_offsets",
                "report section 2: --per-thread elements per thread, totals scanned, offsets added")
            .launches(map_scan)
            .modelled(map_model)
            .allocates(map_workspace)
            .tagged("per_thread,threads")
            .profiled("map_scan_chunks"),
        Version("brent_kung", "brent_kung_block_scan, brent_kung_add_block_sums",
                "Brent-Kung throughout: 2 x --threads per block, block sums scanned, added back")
            .launches(brent_kung)
            .modelled(brent_kung_model)
            .allocates(brent_kung_workspace)
            .tagged("threads,profile_1250000")
            .profiled("brent_kung_block_scan"),
        Version("map_brent_kung", "map_scan_chunks, brent_kung_block_scan, map_add_chunk_offsets",
                "report section 3 as described: --per-thread chunks, their totals by Brent-Kung, added back")
            .launches(map_brent_kung)
            .modelled(map_brent_kung_model)
            .allocates(map_brent_kung_workspace)
            .tagged("per_thread,threads,profile_15000,profile_1250000")
            .profiled("map_scan_chunks"),
        Version("lookback", "scan_decoupled_lookback",
                "ours: single-pass decoupled look-back (tile: --lb-items, else chosen per device)")
            .launches(lookback)
            .modelled(lookback_model)
            .allocates(lookback_workspace)
            .tagged("lb_items,keeps_state,profile_1250000")
            .profiled("scan_decoupled_lookback"),
        Version("lookahead", "ws_scan_kernel | scan_decoupled_lookback",
                "ours: warp-specialised look-ahead scan on sm_90 at large n (policy), else lookback's kernel")
            .launches(lookahead)
            .modelled(lookahead_model)
            .allocates(lookahead_workspace)
            .tagged("lb_items,la_kernel,keeps_state")
            .profiled("ws_scan_kernel|scan_decoupled_lookback"),
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
