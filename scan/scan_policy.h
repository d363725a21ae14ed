// The tuning of the look-back scan (version=lookback), in one place: the tile shape the
// launch uses, the launch description reports and the device code is compiled for. Host
// and device code alike (no CUDA headers here: the unit tests include it with the host
// compiler). The measurements behind these choices are in the README and in
// results/lookback_tuning.csv (experiments/lookback_tuning.cu).
#pragma once

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

}  // namespace scan_policy
