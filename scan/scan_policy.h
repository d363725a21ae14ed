// The tuning of the look-back scan (version=lookback) and of the warp-specialised look-ahead
// scan (version=lookahead), one struct each: the tile shape the launch uses, the launch
// description reports and the device code is compiled for, and (lookahead) when its kernel
// runs at all. Host and device code alike (no CUDA headers here: the unit tests include it
// with the host compiler). The experiments that time these choices include it too
// (experiments/lookback_tuning.cu, experiments/ws_scan.cu); their measurements are in
// experiments/README.md.
#pragma once

#include <string>

namespace cw {
struct DeviceInfo;  // device_info.cuh
}

namespace scan_policy {

struct LookbackPolicy {
    // 256 threads per block; each thread scans `items` consecutive ints, so a tile (one
    // block) covers threads x items ints: 8192 with 32 items (33 KiB of shared memory per
    // block with its padding), 4096 with 16 (17 KiB). The kernel is instantiated for these
    // two item counts only (the padding of one word per 32 is bank-conflict-free for them).
    static constexpr int kThreads = 256;
    static constexpr int kItemsLarge = 32;
    static constexpr int kItemsSmall = 16;
    static constexpr int kSmallestTile = kThreads * kItemsSmall;
    // The large tile pays off only with enough of them in flight per SM: it is chosen where
    // at least this many of its blocks are resident on one SM (occupancy API), else the
    // small tile (which then runs more, smaller blocks per SM).
    static constexpr int kMinResidentLargeBlocks = 4;

    int threads = kThreads;
    int items = kItemsSmall;
    bool forced = false;  // items set by the program (--lb-items) rather than chosen for the device

    int tile() const { return threads * items; }

    // The choice, from the resident blocks per SM of the 32-int kernel on the device
    // (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
    static LookbackPolicy choose(int large_blocks_per_sm) {
        LookbackPolicy p;
        p.items = large_blocks_per_sm >= kMinResidentLargeBlocks ? kItemsLarge : kItemsSmall;
        return p;
    }
    // choose() for `dev` (scan_kernels.cu: makes it the current device and asks the
    // occupancy API about the 32-int kernel there). An override (--lb-items) is the caller's.
    static LookbackPolicy for_device(const cw::DeviceInfo& dev);
    // The same tile shape with forced_items (16 or 32) ints per thread, set by the caller
    // rather than chosen for the device (--lb-items).
    LookbackPolicy with_items(int forced_items) const {
        LookbackPolicy p = *this;
        p.items = forced_items;
        p.forced = true;
        return p;
    }

    // Tile ids: a block's blockIdx.x where the whole grid fits on the device at once
    // (`resident`: the kernel's blocks per SM x SMs, the occupancy API's), which saves every
    // block the atomic round trip of a draw (experiments/results/h200/lookback_window.csv: tid1
    // against tid0); drawn from a counter above that. scan_kernels.cu says when each keeps the
    // look-back's forward progress.
    static bool block_ids(long long grid, long long resident) { return grid <= resident; }

    // __launch_bounds__' minimum resident blocks per SM, per architecture (`arch` is
    // __CUDA_ARCH__, 0 in the host pass): as many blocks as the threads and the shared memory
    // of an SM allow, so that the register allocation never limits them below that.
    //   16 items: 8 blocks where an SM runs 2048 threads, 6 where 1536 (sm_86..sm_89,
    //             sm_120+), 4 on sm_75 (1024 threads; ptxas rejects more);
    //   32 items: 6 on sm_90..sm_11x (228 KiB of shared memory: 6 x 33 KiB), elsewhere 2
    //             (few 33 KiB blocks fit anyway: no register cap).
    static constexpr int min_blocks_per_sm(int arch, int items) {
        return items == kItemsLarge ? ((arch >= 900 && arch < 1200) ? 6 : 2)
                                    : (arch == 750 ? 4 : ((arch >= 860 && arch <= 890) || arch >= 1200) ? 6 : 8);
    }
};

// version=lookahead: the warp-specialised persistent scan of ws_scan.cuh (sm_90: bulk
// asynchronous tile loads into a ring of shared-memory stages, reduce, look-ahead and scan
// warps) where the device can run it and n is large enough; today's look-back kernel
// (LookbackPolicy above) everywhere else. One persistent CTA per resident slot: the grid is
// min(tiles, resident CTAs per SM x SMs); the workspace one 64-bit descriptor per tile and a
// two-word counter, besides the look-back's own.
struct LookaheadPolicy {
    // The shape experiments/ws_scan.cu chose (its variant named from these constants, which
    // ws_scan.cuh's kernel is compiled for; the measurements: experiments/README.md): 4096-int
    // tiles in 12 stages, 2 reduce warps, 8 scan warps, 2 look-ahead warps; one producer warp
    // besides them, with 4 draws from the tile counter in flight; 16 descriptors per lane per
    // look-ahead round. The kernel implements one store and one schedule, named here for the
    // variant's name: 16-byte stores from registers (store 0), every tile drawn from the
    // counter (sched 0).
    static constexpr int kTile = 4096;
    static constexpr int kStages = 12;
    static constexpr int kReduceWarps = 2;
    static constexpr int kScanWarps = 8;
    static constexpr int kLookaheadWarps = 2;
    static constexpr int kDraws = 4;
    static constexpr int kDescsPerLane = 16;
    static constexpr int kStore = 0;
    static constexpr int kSched = 0;
    static constexpr int kThreads = (1 + kLookaheadWarps + kReduceWarps + kScanWarps) * 32;  // 416
    static constexpr int kSmemBytes = kStages * kTile * 4;  // dynamic shared memory: the stages (192 KiB)
    // The kernel's body exists only for sm_90 and later (cp.async.bulk, mbarrier try_wait):
    // the code the driver loaded for it must come from compute_90 PTX or later.
    static constexpr int kMinArch = 90;
    // The smallest n at which the warp-specialised kernel runs (by default): on the H200 it beat
    // the look-back kernel in both modes from here on, in the program
    // (experiments/results/h200/la_switch.csv: --la-kernel=ws against lookback at 5-20 M, three
    // processes) and in the tuning experiment (experiments/results/h200/ws_scan_mid.csv), except
    // at 12,500,000 (a little behind), and lost clearly at 5,000,000 in both.
    // The H100 has not been measured at these sizes (its reference, results/, was made with the
    // switch at 20,000,000).
    static constexpr long long kMinN = 7500000;

    // Which kernel the version runs: chosen by device and size (--la-kernel=auto), or forced
    // (ws: wherever the device can run it, at every n; lookback: never the ws kernel).
    enum class Choice { kAuto, kWs, kLookback };

    bool can_run = false;  // the device runs the ws kernel (for_device's checks all passed)
    std::string why_not = "no device";  // why not, in a few words (empty when can_run)
    int ctas_per_sm = 0;   // resident CTAs of the ws kernel per SM (occupancy API)
    int sm_count = 0;
    Choice choice = Choice::kAuto;

    // The host-side decision from what the driver reports (for_device gathers it): the loaded
    // code's binary and PTX versions (cudaFuncGetAttributes of the ws kernel: with PTX of an
    // older compute_XX JIT-compiled for this GPU, binaryVersion is this GPU's but ptxVersion
    // the older one, and the body is empty), the opt-in shared memory per block
    // (cudaDevAttrMaxSharedMemoryPerBlockOptin) against the stages plus the kernel's static
    // shared memory, and the resident CTAs per SM with that dynamic shared memory.
    static LookaheadPolicy choose(int binary_version, int ptx_version, long long smem_optin_per_block,
                                  long long static_smem, int resident_ctas_per_sm, int sms) {
        LookaheadPolicy p;
        p.sm_count = sms;
        p.ctas_per_sm = resident_ctas_per_sm;
        if (ptx_version < kMinArch || binary_version < kMinArch)
            p.why_not = "no sm_" + std::to_string(kMinArch) + "+ code in this build (the driver loaded compute_" +
                        std::to_string(ptx_version) + " for sm_" + std::to_string(binary_version) + ")";
        else if (smem_optin_per_block < kSmemBytes + static_smem)
            p.why_not = std::to_string(kSmemBytes + static_smem) + " bytes of shared memory per block needed, " +
                        std::to_string(smem_optin_per_block) + " available";
        else if (resident_ctas_per_sm < 1 || sms < 1)
            p.why_not = "no CTA of the kernel fits on an SM (occupancy API)";
        else
            p.why_not.clear();
        p.can_run = p.why_not.empty();
        return p;
    }
    // choose() for `dev` (scan_kernels.cu: asks the driver about the ws kernel on `dev`, made
    // the current device, and sets its dynamic shared memory limit there).
    static LookaheadPolicy for_device(const cw::DeviceInfo& dev);
    // The same policy with the kernel forced (--la-kernel); kAuto: the policy's own choice.
    LookaheadPolicy with_choice(Choice c) const {
        LookaheadPolicy p = *this;
        p.choice = c;
        return p;
    }

    // True where a scan of n elements runs the ws kernel: the device can run it and n is at
    // least kMinN (or ws is forced).
    bool use_ws(long long n) const {
        if (!can_run || choice == Choice::kLookback) return false;
        return choice == Choice::kWs || n >= kMinN;
    }
    // The ws kernel's tiles for n elements (at least one).
    static long long tiles(long long n) { return n > kTile ? (n + kTile - 1) / kTile : 1; }
    // Its persistent grid for n elements: one CTA per resident slot, no more than tiles.
    long long grid(long long n) const {
        const long long resident = static_cast<long long>(ctas_per_sm) * sm_count;
        return tiles(n) < resident ? tiles(n) : resident;
    }
    // Its workspace: a descriptor per tile and the counter's two words (where use_ws(n)).
    static double workspace_bytes(long long n) { return 8.0 * static_cast<double>(tiles(n)) + 8.0; }
};

}  // namespace scan_policy
