// The start of a launch at 2^20-2^23 ints (issue #42), measured in parts (sm_70+; run with
// `bash experiments/start_cost.sh OUTDIR` on a GPU). Three things in one process:
//  1. the yardstick: a device-to-device cudaMemcpy of n ints and a copy kernel of the same
//     bytes (16-byte loads and stores, grid sized by the occupancy API), each timed (median,
//     L2 flushed) in the same run; the faster of the two is the limit a scan is judged by.
//  2. the look-back's cost in parts: a copy of the program's look-back kernel
//     (scan_decoupled_lookback with block ids, 256 threads x 16 or 32 ints) that writes, per
//     tile, %globaltimer when its block started, when its tile was loaded and scanned locally
//     (after the block barrier that makes the aggregate known), when its aggregate was
//     published, when its look-back ended (and in how many polls and windows), and when its
//     first store was issued; the host adds, per tile, when the last of its predecessors'
//     aggregates was published, so that the look-back's time splits into waiting for
//     predecessors and polling after them. The untraced copy of the kernel is timed beside it
//     (the trace's own cost) and beside the copy; the same kernel without its back-off
//     (`nosleep`), and the floor of its data path: each tile loaded, scanned and stored alone,
//     with no look-back (`no look-back`, checked against the CPU's scan of each tile).
//  3. a candidate without a chain of look-backs: one launch whose blocks (all resident) load
//     their tile, publish its aggregate, meet once at a grid barrier (one counter), read every
//     earlier aggregate in one round and store: the tile waits in shared memory across the
//     barrier, so the data are read once. Timed and validated like the others; and one without a
//     barrier (`allread`): every tile publishes its aggregate and reads all its predecessors'
//     in rounds of loads (each re-reading only the words not yet published), so that no tile
//     waits for another's look-back (traced like the look-back). The look-back and allread also
//     with their descriptor words at the GPU's scope instead of volatile's (`gpu-scope`) and with
//     the lines they will read pulled into L2 when each block starts (`prefetch`); the barrier
//     candidate traced too, its prefixes read when the barrier opens, before any tile stores.
// Every kernel's output is compared with the CPU's scan (exact) before it is timed.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <cooperative_groups.h>

#include "common.cuh"
#include "device_copy.cuh"
#include "gpu_clock.cuh"
#include "scan_plan.h"
#include "tile_io.cuh"
#include "experiment.cuh"

namespace cg = cooperative_groups;

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 256, kWarps = kThreads / 32;
constexpr unsigned kA = 1u, kP = 2u;
// Polls after which a wait is taken for a deadlock (seconds at the sleeps used): the kernel traps.
constexpr unsigned long long kMaxSpins = 20000000ull;
enum TraceWord { kEnter, kSm, kLoaded, kPublished, kPrefixed, kStored, kPolls, kWindows, kWords };

using gpu_clock::sm_id;
__device__ __forceinline__ unsigned long long now_ns() { return gpu_clock::global_ns(); }
__device__ __forceinline__ int pad(int e) { return scan_tile::padded(e); }
template <unsigned kNs>
__device__ __forceinline__ void sleep_ns() {
#if __CUDA_ARCH__ >= 700
    __nanosleep(kNs);
#endif
}

// 1. The copy kernel: the product's yardstick, cw::CopyKernel (common/device_copy.cuh).

// One launch's row of the trace (kWords words a tile), or nothing when kOn is false.
template <bool kOn>
struct TraceRow {
    unsigned long long* row;
    __device__ TraceRow(unsigned long long* trace, unsigned tile)
        : row(kOn ? trace + kWords * static_cast<std::size_t>(tile) : nullptr) {}
    __device__ void stamp(int word) const {
        if (kOn) row[word] = now_ns();
    }
    __device__ void put(int word, unsigned long long v) const {
        if (kOn) row[word] = v;
    }
    // Thread 0: when the block started and on which SM (%smid read only when traced).
    __device__ void enter() const {
        if (kOn && threadIdx.x == 0) {
            stamp(kEnter);
            put(kSm, sm_id());
        }
    }
};

// ---------------------------------------------------------------------------------------
// 2. The program's look-back kernel (block ids), with an optional trace.
struct Tile {
    // Striped loads of the warp's kItems x 32 ints into its padded region: the program's
    // (tile_io.cuh), so that the candidates read their tiles as the product does.
    template <int kItems>
    static __device__ __forceinline__ void load(const unsigned* in, std::size_t n, std::size_t base, bool full, int lane,
                                                unsigned* ws) {
        scan_tile::load_warp_items<kItems>(in, n, base, full, lane, ws);
    }
    template <int kItems>
    static __device__ __forceinline__ void store(unsigned* out, std::size_t n, std::size_t base, bool full, int lane,
                                                 const unsigned* ws, unsigned offset) {
        if (full) {
            uint4* out4 = reinterpret_cast<uint4*>(out + base);
#pragma unroll
            for (int j = 0; j < kItems / 4; ++j) {
                const int e = (j * 32 + lane) * 4;
                out4[j * 32 + lane] = make_uint4(ws[pad(e)] + offset, ws[pad(e + 1)] + offset, ws[pad(e + 2)] + offset,
                                                 ws[pad(e + 3)] + offset);
            }
        } else {
#pragma unroll
            for (int j = 0; j < kItems; ++j) {
                const int e = j * 32 + lane;
                if (base + e < n) out[base + e] = ws[pad(e)] + offset;
            }
        }
    }
    // The warp's blocked scan (kItems consecutive ints a lane) written back in place, offset by
    // the lane's prefix within the warp; returns the warp's total (in every lane).
    template <int kItems>
    static __device__ __forceinline__ unsigned scan_warp(unsigned* ws, int lane) {
        unsigned x[kItems], run = 0;
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
            run += ws[pad(lane * kItems + i)];
            x[i] = run;
        }
        const unsigned inc = warp_inclusive(run, lane);
#pragma unroll
        for (int i = 0; i < kItems; ++i) ws[pad(lane * kItems + i)] = x[i] + inc - run;
        return __shfl_sync(kFull, inc, 31);
    }
};

// How a candidate touches its descriptor words (kHow, a set of these bits; 0: as the program).
// kGpuScope: loads and stores at the GPU's scope (ld/st.relaxed.gpu, SASS .STRONG.GPU) instead of
// volatile's (sm_90 SASS: .STRONG.SYS): is a system-scope access what makes a round trip long?
// kPrefetch: warp 0 pulls descriptor lines into L2 when its block starts (allread: every line it
// will read; the look-back: its first window's), since the timing flushes L2 before each launch
// and the first read of a line may otherwise go to DRAM.
// kSpread (allread only): each tile's word on its own 128-byte line.
enum How : unsigned { kGpuScope = 1u, kPrefetch = 2u, kSpread = 4u };

template <unsigned kHow>
__device__ __forceinline__ unsigned long long load_word(const unsigned long long* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    if (kHow & kGpuScope) {
        unsigned long long v;
        asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
        return v;
    }
#endif
    return *reinterpret_cast<const volatile unsigned long long*>(p);
}

template <unsigned kHow = 0>
__device__ __forceinline__ void publish(unsigned long long* d, unsigned word_index, unsigned epoch, unsigned st, unsigned v) {
    const unsigned long long word = (static_cast<unsigned long long>((epoch << 2) | st) << 32) | v;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    if (kHow & kGpuScope) {
        asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(d + word_index), "l"(word) : "memory");
        return;
    }
#endif
    *reinterpret_cast<volatile unsigned long long*>(d + word_index) = word;
}

__device__ __forceinline__ void prefetch_l2(const void* p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

// The program's look_back (scan_kernels.cu), counting its polls (window reads) and windows;
// kSleepNs: the back-off between polls (the program's 100 ns; 0: none).
template <unsigned kSleepNs = 100, unsigned kHow = 0>
__device__ unsigned look_back(const unsigned long long* d, unsigned tile, unsigned epoch, int lane, unsigned& polls,
                              unsigned& windows) {
    const unsigned long long before_first = static_cast<unsigned long long>((epoch << 2) | kP) << 32;
    unsigned prefix = 0;
    long long window = static_cast<long long>(tile) - 1;
    while (true) {
        const long long pred = window - lane;
        unsigned long long w;
        while (true) {
            w = pred >= 0 ? load_word<kHow>(d + pred) : before_first;
            ++polls;
            if (!__any_sync(kFull, static_cast<unsigned>(w >> 34) != epoch)) break;
            if (kSleepNs > 0) sleep_ns<kSleepNs>();
            if (polls > kMaxSpins) __trap();  // a look-back that cannot end stops the run
        }
        ++windows;
        const unsigned pl = __ballot_sync(kFull, (static_cast<unsigned>(w >> 32) & 3u) == kP);
        const int last = pl != 0 ? __ffs(pl) - 1 : 31;
        unsigned part = lane <= last ? static_cast<unsigned>(w) : 0u;
#pragma unroll
        for (int s = 16; s > 0; s >>= 1) part += __shfl_xor_sync(kFull, part, s);
        prefix += part;
        if (pl != 0) return prefix;
        window -= 32;
    }
}

struct Args {
    const unsigned* in;
    unsigned* out;
    std::size_t n;
    unsigned long long* desc;  // lookback, allread: a descriptor per tile; cluster: one per cluster
    unsigned* aggs;            // barrier: an aggregate per tile
    unsigned* counter;         // barrier: arrivals, never reset (target = launch x grid)
    unsigned epoch;            // lookback, cluster: new per launch; barrier: the counter's value once every block arrived
    unsigned long long* trace; // kWords per tile (traced kernels)
};

template <int kItems>
__device__ __forceinline__ unsigned block_aggregate(const unsigned* s_wt, int warp, unsigned& warp_prefix) {
    unsigned agg = 0;
    warp_prefix = 0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
        if (w < warp) warp_prefix += s_wt[w];
        agg += s_wt[w];
    }
    return agg;
}

// What every candidate does first: its tile loaded into shared memory (each warp's items apart,
// padded), each warp's items scanned, and after the block barrier the tile's aggregate and this
// warp's prefix within the tile; store() writes the tile with the prefix of the tiles before it.
template <int kItems>
struct BlockTile {
    static constexpr int kWarpItems = 32 * kItems, kWarpSmem = kWarpItems + kWarpItems / 32, kTile = kThreads * kItems;
    struct Shared {
        unsigned items[kWarps * kWarpSmem];
        unsigned wt[kWarps];
    };
    // Where the warp's items start in the array, and whether the whole tile lies inside it.
    static __device__ std::size_t base_of(unsigned tile, int warp) {
        return static_cast<std::size_t>(tile) * kTile + static_cast<std::size_t>(warp) * kWarpItems;
    }
    static __device__ bool full_of(unsigned tile, std::size_t n) {
        return (static_cast<std::size_t>(tile) + 1) * kTile <= n;
    }
    std::size_t base;
    bool full;
    unsigned* ws;
    unsigned agg, warp_prefix;
    __device__ BlockTile(const Args& a, Shared& s, unsigned tile, int warp, int lane)
        : base(base_of(tile, warp)), full(full_of(tile, a.n)), ws(s.items + warp * kWarpSmem) {
        Tile::load<kItems>(a.in, a.n, base, full, lane, ws);
        __syncwarp();
        const unsigned total = Tile::scan_warp<kItems>(ws, lane);
        if (lane == 0) s.wt[warp] = total;
        __syncthreads();
        agg = block_aggregate<kItems>(s.wt, warp, warp_prefix);
    }
    __device__ void store(const Args& a, int lane, unsigned prefix) const {
        Tile::store<kItems>(a.out, a.n, base, full, lane, ws, prefix + warp_prefix);
    }
};

// The kernel body the look-back, allread and the barrier share: the tile loaded and scanned (BlockTile),
// warp 0 finding its exclusive prefix with the exchange E (E::prepare when the block starts,
// E::prefix after the tile's aggregate is known), the tile stored with it. Traced: when the
// block started, its tile was loaded, its prefix known and its first store issued, and the
// exchange's polls and windows (the exchange stamps when it published).
template <int kItems, bool kTrace, typename E>
__device__ __forceinline__ void exchange_scan(const Args& a) {
    __shared__ typename BlockTile<kItems>::Shared s_tile;
    __shared__ unsigned s_prefix;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned tile = blockIdx.x;
    const TraceRow<kTrace> tr(a.trace, tile);
    tr.enter();
    if (warp == 0) E::prepare(a, tile, lane);
    const BlockTile<kItems> bt(a, s_tile, tile, warp, lane);
    if (warp == 0) {
        if (lane == 0) tr.stamp(kLoaded);
        unsigned polls = 0, windows = 0;
        const unsigned prefix = E::prefix(a, tile, lane, bt.agg, tr, polls, windows);
        if (lane == 0) {
            tr.stamp(kPrefixed);
            s_prefix = prefix;
            tr.put(kPolls, polls);
            tr.put(kWindows, windows);
        }
    }
    __syncthreads();
    bt.store(a, lane, s_prefix);
    if (threadIdx.x == 0) tr.stamp(kStored);
}

// The program's exchange: publish the aggregate, look back over windows of 32 descriptors until
// an inclusive prefix, publish the inclusive prefix. kPrefetch: the first window's line(s).
template <unsigned kSleepNs, unsigned kHow>
struct LookBack {
    static_assert((kHow & kSpread) == 0, "the look-back reads packed descriptors");
    static __device__ void prepare(const Args& a, unsigned tile, int lane) {
        if ((kHow & kPrefetch) && tile > static_cast<unsigned>(lane)) prefetch_l2(a.desc + (tile - 1 - lane));
    }
    template <bool kTrace>
    static __device__ unsigned prefix(const Args& a, unsigned tile, int lane, unsigned agg, const TraceRow<kTrace>& tr,
                                      unsigned& polls, unsigned& windows) {
        if (lane == 0) {
            publish<kHow>(a.desc, tile, a.epoch, tile == 0 ? kP : kA, agg);
            tr.stamp(kPublished);
        }
        if (tile == 0) return 0;
        const unsigned prefix = look_back<kSleepNs, kHow>(a.desc, tile, a.epoch, lane, polls, windows);
        if (lane == 0) publish<kHow>(a.desc, tile, a.epoch, kP, prefix + agg);
        return prefix;
    }
};

template <int kItems, bool kTrace, unsigned kSleepNs = 100, unsigned kHow = 0>
__global__ void __launch_bounds__(kThreads) lookback_traced(Args a) {
    exchange_scan<kItems, kTrace, LookBack<kSleepNs, kHow>>(a);
}

// ---------------------------------------------------------------------------------------
// 2b. The floor of the data path: the same tile loaded, scanned and stored with no prefix from
// other tiles (each tile scanned alone: not a scan of the array, checked against the CPU's
// scan of each tile). What lookback costs beyond it is the communication between blocks;
// what it costs beyond the copy is the tile's path through shared memory and its scan.
template <int kItems>
__global__ void __launch_bounds__(kThreads) local_scan(Args a) {
    __shared__ typename BlockTile<kItems>::Shared s_tile;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const BlockTile<kItems> bt(a, s_tile, blockIdx.x, warp, lane);
    bt.store(a, lane, 0u);
}

// ---------------------------------------------------------------------------------------
// 2c. The aggregate published before the tile is scanned: kWarps warps load the tile and
// reduce it (each lane its kItems, then the warp's lanes by shuffles), one block barrier makes
// the aggregate known, and a ninth warp publishes it and looks back while the kWarps warps scan
// their items in place with their lane's prefix within the tile; a second barrier hands over the
// tile's prefix and the tile is stored. The look-back then overlaps the in-tile scan instead of
// following it, and every aggregate is published that much sooner.
template <int kItems, unsigned kSleepNs>
__global__ void __launch_bounds__(kThreads + 32) early_scan(Args a) {
    using BT = BlockTile<kItems>;
    __shared__ typename BT::Shared s_tile;
    __shared__ unsigned s_prefix;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned tile = blockIdx.x;
    const std::size_t base = BT::base_of(tile, warp);
    const bool full = BT::full_of(tile, a.n);
    unsigned* ws = s_tile.items + warp * BT::kWarpSmem;
    unsigned lane_excl = 0;
    if (warp < kWarps) {
        Tile::load<kItems>(a.in, a.n, base, full, lane, ws);
        __syncwarp();
        unsigned sum = 0;
#pragma unroll
        for (int i = 0; i < kItems; ++i) sum += ws[pad(lane * kItems + i)];
        const unsigned inc = warp_inclusive(sum, lane);
        lane_excl = inc - sum;
        if (lane == 31) s_tile.wt[warp] = inc;
    }
    __syncthreads();
    unsigned warp_prefix = 0;
    const unsigned agg = block_aggregate<kItems>(s_tile.wt, warp, warp_prefix);
    if (warp == kWarps) {
        unsigned prefix = 0, polls = 0, windows = 0;
        if (tile == 0) {
            if (lane == 0) publish(a.desc, 0, a.epoch, kP, agg);
        } else {
            if (lane == 0) publish(a.desc, tile, a.epoch, kA, agg);
            prefix = look_back<kSleepNs>(a.desc, tile, a.epoch, lane, polls, windows);
            if (lane == 0) publish(a.desc, tile, a.epoch, kP, prefix + agg);
        }
        if (lane == 0) s_prefix = prefix;
    } else {
        unsigned run = lane_excl + warp_prefix;
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
            run += ws[pad(lane * kItems + i)];
            ws[pad(lane * kItems + i)] = run;
        }
        __syncwarp();
    }
    __syncthreads();
    if (warp < kWarps) Tile::store<kItems>(a.out, a.n, base, full, lane, ws, s_prefix);
}

// ---------------------------------------------------------------------------------------
// 3. One grid barrier instead of look-backs (every block resident: checked on the host).
// The barrier's exchange: publish the aggregate (then a release fence, then the arrival), wait
// for every block's arrival (acquire: the fence after the spin), read the earlier aggregates in
// one round. Traced, `published` is the arrival; the barrier opens at the last arrival of the
// launch (the host takes it from the trace), and a prefix is known one round of reads later,
// before any tile stores (the look-back's and allread's reads meet earlier tiles' stores).
struct Barrier {
    static constexpr int kPerLane = 32;  // aggregates a lane reads in the one round (grids up to 1024 blocks)
    static __device__ void prepare(const Args&, unsigned, int) {}
    template <bool kTrace>
    static __device__ unsigned prefix(const Args& a, unsigned tile, int lane, unsigned agg, const TraceRow<kTrace>& tr,
                                      unsigned& polls, unsigned& windows) {
        if (lane == 0) {
            *reinterpret_cast<volatile unsigned*>(a.aggs + tile) = agg;
            __threadfence();
            atomicAdd(a.counter, 1u);
            tr.stamp(kPublished);
            const unsigned target = a.epoch;
            while (static_cast<int>(*reinterpret_cast<volatile unsigned*>(a.counter) - target) < 0) {
                sleep_ns<32>();
                if (++polls > kMaxSpins) __trap();  // a broken barrier ends the run, never hangs it
            }
            __threadfence();
        }
        __syncwarp();
        windows = 1;
        unsigned part = 0;
        const volatile unsigned* aggs = a.aggs;
#pragma unroll
        for (int k = 0; k < kPerLane; ++k) {
            const unsigned t = static_cast<unsigned>(k * 32 + lane);
            part += t < tile ? aggs[t] : 0u;
        }
#pragma unroll
        for (int s = 16; s > 0; s >>= 1) part += __shfl_xor_sync(kFull, part, s);
        return part;
    }
};

template <int kItems, bool kTrace = false>
__global__ void __launch_bounds__(kThreads) barrier_scan(Args a) {
    exchange_scan<kItems, kTrace, Barrier>(a);
}

// ---------------------------------------------------------------------------------------
// 3b. One round of reads instead of a chain of windows: every tile publishes its aggregate (one
// 64-bit word, flag and value together, as the look-back's descriptors) and warp 0 then reads the
// words of all the tiles before it at once, up to kAllreadPerLane a lane, re-reading only those not yet
// published. No tile waits for another's inclusive prefix, so after its last predecessor
// published a tile needs one more round of reads, not a walk of windows; the price is that tile
// t reads t words (the grid is capped at kAllreadTiles: make_variants, and make_buffers' descriptor
// words hold kAllreadTiles x kSpreadStride). Returns the sum of the aggregates of tiles 0 .. tile-1
// (every lane); polls: the rounds of reads. kSpread: each word on its own 128-byte line
// (kSpreadStride words apart), so that the reads of every block spread over 32 x kAllreadPerLane
// lines and the L2's slices instead of the few lines packed words take.
constexpr int kWordsPerLine = 128 / sizeof(unsigned long long);  // descriptor words a 128-byte line holds
constexpr int kAllreadPerLane = 16, kAllreadTiles = 32 * kAllreadPerLane, kSpreadStride = kWordsPerLine;
static_assert(kAllreadPerLane <= 32, "read_all_before keeps a lane's pending words in one 32-bit mask");
template <unsigned kHow>
__host__ __device__ constexpr unsigned word_stride() { return (kHow & kSpread) ? kSpreadStride : 1u; }

template <unsigned kSleepNs, unsigned kHow>
__device__ unsigned read_all_before(const unsigned long long* d, unsigned tile, unsigned epoch, int lane,
                                    unsigned& polls) {
    constexpr unsigned kStride = word_stride<kHow>();
    unsigned sum = 0, pending = 0;  // bit k: tile k * 32 + lane is a predecessor not yet seen
#pragma unroll
    for (int k = 0; k < kAllreadPerLane; ++k) pending |= (static_cast<unsigned>(k * 32 + lane) < tile ? 1u : 0u) << k;
    while (true) {
        unsigned long long w[kAllreadPerLane];
#pragma unroll
        for (int k = 0; k < kAllreadPerLane; ++k)
            w[k] = (pending >> k) & 1u ? load_word<kHow>(d + (k * 32 + lane) * kStride) : 0ull;
#pragma unroll
        for (int k = 0; k < kAllreadPerLane; ++k)
            if (((pending >> k) & 1u) != 0 && static_cast<unsigned>(w[k] >> 34) == epoch) {
                sum += static_cast<unsigned>(w[k]);
                pending &= ~(1u << k);
            }
        ++polls;
        if (!__any_sync(kFull, pending != 0)) break;
        if (kSleepNs > 0) sleep_ns<kSleepNs>();
        if (polls > kMaxSpins) __trap();  // a predecessor that never publishes stops the run
    }
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) sum += __shfl_xor_sync(kFull, sum, s);
    return sum;
}

// allread's exchange. kPrefetch: the lines of every word the tile will read (one a line).
template <unsigned kSleepNs, unsigned kHow>
struct AllRead {
    static __device__ void prepare(const Args& a, unsigned tile, int lane) {
        if ((kHow & kPrefetch) == 0) return;
        constexpr unsigned kStride = word_stride<kHow>(), kPerLine = kWordsPerLine / kStride;  // words a line
#pragma unroll
        for (int k = 0; k < kAllreadPerLane; ++k) {
            const unsigned t = k * 32 + lane;
            if (t < tile && t % kPerLine == 0) prefetch_l2(a.desc + t * kStride);
        }
    }
    template <bool kTrace>
    static __device__ unsigned prefix(const Args& a, unsigned tile, int lane, unsigned agg, const TraceRow<kTrace>& tr,
                                      unsigned& polls, unsigned& windows) {
        if (lane == 0) {
            publish<kHow>(a.desc, tile * word_stride<kHow>(), a.epoch, kA, agg);
            tr.stamp(kPublished);
        }
        windows = 1;
        return read_all_before<kSleepNs, kHow>(a.desc, tile, a.epoch, lane, polls);
    }
};

template <int kItems, bool kTrace, unsigned kSleepNs = 100, unsigned kHow = 0>
__global__ void __launch_bounds__(kThreads) allread_scan(Args a) {
    exchange_scan<kItems, kTrace, AllRead<kSleepNs, kHow>>(a);
}

// ---------------------------------------------------------------------------------------
// 4. Thread-block clusters (sm_90): the kCluster blocks of a cluster exchange their tile
// aggregates through distributed shared memory; rank 0 looks back over the clusters before
// it (one descriptor per cluster: kCluster times fewer, the same look_back) and writes each
// rank's exclusive prefix into that rank's shared memory; two cluster barriers in all (the
// second also ends every access to a peer's shared memory before any block exits). The grid
// is whole clusters (blocks past the last tile load nothing and store nothing).
template <int kItems, int kCluster>
__global__ void __launch_bounds__(kThreads) cluster_scan(Args a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ typename BlockTile<kItems>::Shared s_tile;
    __shared__ unsigned s_agg, s_prefix;
    cg::cluster_group cluster = cg::this_cluster();
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned tile = blockIdx.x, rank = cluster.block_rank(), cid = blockIdx.x / kCluster;
    const BlockTile<kItems> bt(a, s_tile, tile, warp, lane);
    const unsigned agg = bt.agg;
    if (threadIdx.x == 0) s_agg = agg;
    cluster.sync();
    if (rank == 0 && warp == 0) {
        const unsigned v = lane < kCluster ? *cluster.map_shared_rank(&s_agg, lane) : 0u;
        const unsigned inc = warp_inclusive(v, lane);
        const unsigned cluster_total = __shfl_sync(kFull, inc, kCluster - 1);
        unsigned prefix = 0, polls = 0, windows = 0;
        if (cid == 0) {
            if (lane == 0) publish(a.desc, 0, a.epoch, kP, cluster_total);
        } else {
            if (lane == 0) publish(a.desc, cid, a.epoch, kA, cluster_total);
            prefix = look_back(a.desc, cid, a.epoch, lane, polls, windows);
            if (lane == 0) publish(a.desc, cid, a.epoch, kP, prefix + cluster_total);
        }
        if (lane < kCluster) *cluster.map_shared_rank(&s_prefix, lane) = prefix + inc - v;
    }
    cluster.sync();
    bt.store(a, lane, s_prefix);
#endif
}

// ---------------------------------------------------------------------------------------
// 5. How soon a word one SM publishes is seen by another: what any design built on published
// aggregates pays at least once. Thread 0 of block 1 (the poller) announces round r, then polls
// the flag with the look-back's volatile load; thread 0 of block 0 (the writer) waits for the
// announcement, stamps %globaltimer (one clock for the whole GPU) and stores r. Per round,
// kProbeWords words: the writer's stamp, the poller's first poll, its sight of r, its polls, and
// both SMs.
constexpr int kProbeWords = 6;
__global__ void visibility_probe(unsigned long long* flags, unsigned long long* out, int rounds) {
    if (threadIdx.x != 0) return;
    volatile unsigned long long* flag = flags;        // the published word
    volatile unsigned long long* ready = flags + 32;  // the poller's announcement (another line)
    for (int r = 1; r <= rounds; ++r) {
        unsigned long long* o = out + static_cast<std::size_t>(r - 1) * kProbeWords;
        unsigned long long spins = 0;
        if (blockIdx.x == 0) {
            while (*ready != static_cast<unsigned long long>(r))
                if (++spins > kMaxSpins) __trap();
            o[0] = now_ns();
            *flag = static_cast<unsigned long long>(r);
            o[4] = sm_id();
        } else {
            *ready = static_cast<unsigned long long>(r);
            o[1] = now_ns();
            while (*flag != static_cast<unsigned long long>(r))
                if (++spins > kMaxSpins) __trap();
            o[2] = now_ns();
            o[3] = spins + 1;
            o[5] = sm_id();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Host side.
struct Buffers {
    unsigned *in = nullptr, *out = nullptr, *counter = nullptr, *aggs = nullptr;
    unsigned long long *desc = nullptr, *trace = nullptr;
    unsigned epoch = 0, barrier_arrivals = 0;  // barrier_arrivals: the counter's value between launches
};

template <typename Kernel>
int resident_blocks(Kernel k, int threads = kThreads) {
    int per_sm = 0, device = 0, sms = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, 0));
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return per_sm * sms;
}

unsigned tiles_of(std::size_t n, int items) {
    return static_cast<unsigned>(scan_plan::ceil_div(n, static_cast<std::size_t>(kThreads) * items));
}

// One launch over n's tiles with a new epoch (the descriptors' generation, so that no word of an
// earlier launch is taken for this one's): the look-back's, allread's and early's launches.
void launch_epoch(void (*kernel)(Args), int items, int threads, Buffers& b, std::size_t n, cudaStream_t s) {
    b.epoch = (b.epoch + 1) & 0x3fffffffu;
    kernel<<<tiles_of(n, items), threads, 0, s>>>(Args{b.in, b.out, n, b.desc, b.aggs, b.counter, b.epoch, b.trace});
    CUDA_CHECK_LAUNCH();
}

template <int kItems, bool kTrace, unsigned kSleepNs = 100, unsigned kHow = 0>
void run_lookback(Buffers& b, std::size_t n, cudaStream_t s) {
    launch_epoch(lookback_traced<kItems, kTrace, kSleepNs, kHow>, kItems, kThreads, b, n, s);
}

template <int kItems, bool kTrace, unsigned kSleepNs = 100, unsigned kHow = 0>
void run_allread(Buffers& b, std::size_t n, cudaStream_t s) {
    launch_epoch(allread_scan<kItems, kTrace, kSleepNs, kHow>, kItems, kThreads, b, n, s);
}

template <int kItems, unsigned kSleepNs>
void run_early(Buffers& b, std::size_t n, cudaStream_t s) {
    launch_epoch(early_scan<kItems, kSleepNs>, kItems, kThreads + 32, b, n, s);  // early: a ninth warp looks back
}

template <int kItems>
void run_local(Buffers& b, std::size_t n, cudaStream_t s) {
    const unsigned tiles = tiles_of(n, kItems);
    local_scan<kItems><<<tiles, kThreads, 0, s>>>(Args{b.in, b.out, n, b.desc, b.aggs, b.counter, 0, nullptr});
    CUDA_CHECK_LAUNCH();
}

template <int kItems, bool kTrace = false>
void run_barrier(Buffers& b, std::size_t n, cudaStream_t s) {
    const unsigned tiles = tiles_of(n, kItems);
    b.barrier_arrivals += tiles;
    barrier_scan<kItems, kTrace><<<tiles, kThreads, 0, s>>>(
        Args{b.in, b.out, n, b.desc, b.aggs, b.counter, b.barrier_arrivals, b.trace});
    CUDA_CHECK_LAUNCH();
}

template <int kItems, int kCluster>
unsigned cluster_grid(std::size_t n) {
    const unsigned tiles = tiles_of(n, kItems);
    return (tiles + kCluster - 1) / kCluster * kCluster;
}

template <int kItems, int kCluster>
cudaLaunchConfig_t cluster_config(unsigned grid, cudaStream_t s, cudaLaunchAttribute* attr) {
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3(grid);
    c.blockDim = dim3(kThreads);
    c.stream = s;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = kCluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    c.attrs = attr;
    c.numAttrs = 1;
    return c;
}

template <int kItems, int kCluster>
void run_cluster(Buffers& b, std::size_t n, cudaStream_t s) {
    b.epoch = (b.epoch + 1) & 0x3fffffffu;
    cudaLaunchAttribute attr[1];
    const cudaLaunchConfig_t c = cluster_config<kItems, kCluster>(cluster_grid<kItems, kCluster>(n), s, attr);
    CUDA_CHECK(cudaLaunchKernelEx(&c, cluster_scan<kItems, kCluster>,
                                  Args{b.in, b.out, n, b.desc, b.aggs, b.counter, b.epoch, nullptr}));
    CUDA_CHECK_LAUNCH();
}

// The blocks of whole clusters resident at once (0 below sm_90: not run).
template <int kItems, int kCluster>
int cluster_resident(const cw::DeviceInfo& dev) {
    if (dev.cc_major < 9) return 0;
    if (kCluster > 8)
        CUDA_CHECK(cudaFuncSetAttribute(cluster_scan<kItems, kCluster>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchAttribute attr[1];
    const cudaLaunchConfig_t c = cluster_config<kItems, kCluster>(kCluster * 64, 0, attr);
    int clusters = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, cluster_scan<kItems, kCluster>, &c));
    return clusters * kCluster;
}

struct Variant {
    std::string name;
    int items;
    void (*fn)(Buffers&, std::size_t, cudaStream_t);
    int resident;  // the grid must fit at once (block ids, barrier)
    bool whole = true;  // a scan of the array (false: of each tile alone, the floors)
};

// The CPU's inclusive scan of h[0, n), restarted every `tile` ints (0: never).
void cpu_scan(const std::vector<unsigned>& h, std::size_t n, std::size_t tile, std::vector<unsigned>& ref) {
    unsigned run_sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (tile != 0 && i % tile == 0) run_sum = 0;
        ref[i] = run_sum += h[i];
    }
}

// The trace of one launch: per tile, times relative to the launch's first block start.
struct TileTimes {
    double enter, loaded, published, pred_published, prefixed, stored;
    unsigned long long sm, polls, windows;
};

std::vector<TileTimes> read_trace(const Buffers& b, unsigned tiles) {
    std::vector<unsigned long long> w(static_cast<std::size_t>(tiles) * kWords);
    CUDA_CHECK(cudaMemcpy(w.data(), b.trace, w.size() * 8, cudaMemcpyDeviceToHost));
    unsigned long long t0 = ~0ull;
    for (unsigned t = 0; t < tiles; ++t) t0 = std::min(t0, w[t * kWords + kEnter]);
    std::vector<TileTimes> out(tiles);
    double last_pub = -1e30;
    for (unsigned t = 0; t < tiles; ++t) {
        const unsigned long long* r = &w[static_cast<std::size_t>(t) * kWords];
        auto rel = [&](int k) { return static_cast<double>(r[k] - t0); };
        out[t] = TileTimes{rel(kEnter), rel(kLoaded), rel(kPublished), t == 0 ? -1.0 : last_pub,
                           rel(kPrefixed), rel(kStored), r[kSm], r[kPolls], r[kWindows]};
        last_pub = std::max(last_pub, rel(kPublished));
    }
    return out;
}

double median(std::vector<double> v) {
    if (v.empty()) return NAN;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Per launch of the traced kernel: span and the medians of the parts over its tiles (ns).
struct TraceSummary {
    double span, last_enter, load, publish_wait, pred_wait, polling, store_issue, polls, windows;
};
TraceSummary summarise(const std::vector<TileTimes>& tt) {
    std::vector<double> load, pred_wait, polling, store, polls, windows, pub;
    double span = 0, last_enter = 0;
    for (std::size_t t = 0; t < tt.size(); ++t) {
        const TileTimes& x = tt[t];
        span = std::max(span, x.stored);
        last_enter = std::max(last_enter, x.enter);
        load.push_back(x.loaded - x.enter);
        pub.push_back(x.published - x.loaded);
        store.push_back(x.stored - x.prefixed);
        if (t == 0) continue;
        const double ready = std::max(x.pred_published, x.published);
        pred_wait.push_back(ready - x.published);
        polling.push_back(x.prefixed - ready);
        polls.push_back(static_cast<double>(x.polls));
        windows.push_back(static_cast<double>(x.windows));
    }
    return TraceSummary{span, last_enter, median(load), median(pub), median(pred_wait), median(polling), median(store),
                        median(polls), median(windows)};
}

// The visibility probe's rounds, one row each, and their medians on stdout.
void probe_visibility(const std::string& dir, const cw::DeviceInfo& dev) {
    const int rounds = 1000;
    unsigned long long *flags = nullptr, *out = nullptr;
    CUDA_CHECK(cudaMalloc(&flags, 64 * 8));
    CUDA_CHECK(cudaMemset(flags, 0, 64 * 8));
    CUDA_CHECK(cudaMalloc(&out, static_cast<std::size_t>(rounds) * kProbeWords * 8));
    visibility_probe<<<2, 32>>>(flags, out, rounds);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned long long> w(static_cast<std::size_t>(rounds) * kProbeWords);
    CUDA_CHECK(cudaMemcpy(w.data(), out, w.size() * 8, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(flags));
    CUDA_CHECK(cudaFree(out));
    FILE* f = std::fopen((dir + "/start_visibility.csv").c_str(), "w");
    if (f == nullptr) throw cw::UsageError("cannot write into " + dir);
    std::fprintf(f, "round,writer_sm,poller_sm,store_to_sight_ns,polls,ns_per_poll,device\n");
    std::vector<double> latency, per_poll;
    for (int r = 0; r < rounds; ++r) {
        const unsigned long long* o = &w[static_cast<std::size_t>(r) * kProbeWords];
        const double lat = static_cast<double>(o[2]) - static_cast<double>(o[0]);
        const double pp = static_cast<double>(o[2] - o[1]) / static_cast<double>(o[3]);
        std::fprintf(f, "%d,%llu,%llu,%.0f,%llu,%.1f,%s\n", r, o[4], o[5], lat, o[3], pp, dev.name.c_str());
        latency.push_back(lat);
        per_poll.push_back(pp);
    }
    std::fclose(f);
    std::printf("visibility: store to sight %.0f ns (median of %d rounds), %.1f ns per poll, SMs %llu and %llu\n",
                median(latency), rounds, median(per_poll), w[4], w[5]);
}

// The look-back and allread variants (`resident`: the most tiles one may launch: a block waits for
// lower block ids, sure to run only when the whole grid is resident; allread also reads at most
// kAllreadTiles - 1 words).
template <int kItems, bool kTrace, unsigned kSleepNs = 100, unsigned kHow = 0>
Variant lookback(const char* name) {
    return {name, kItems, run_lookback<kItems, kTrace, kSleepNs, kHow>,
            resident_blocks(lookback_traced<kItems, kTrace, kSleepNs, kHow>)};
}
template <int kItems, bool kTrace, unsigned kSleepNs = 100, unsigned kHow = 0>
Variant allread(const char* name) {
    return {name, kItems, run_allread<kItems, kTrace, kSleepNs, kHow>,
            std::min(kAllreadTiles, resident_blocks(allread_scan<kItems, kTrace, kSleepNs, kHow>))};
}
// The barrier's (all blocks resident; it reads at most 32 x Barrier::kPerLane - 1 aggregates).
template <int kItems, bool kTrace = false>
Variant barrier(const char* name) {
    return {name, kItems, run_barrier<kItems, kTrace>,
            std::min(32 * Barrier::kPerLane, resident_blocks(barrier_scan<kItems, kTrace>))};
}

// Every variant measured, in the order of the CSVs. `resident`: the most tiles a variant may
// launch (those whose blocks wait for others must all be resident).
std::vector<Variant> make_variants(const cw::DeviceInfo& dev) {
    constexpr unsigned kGP = kGpuScope | kPrefetch, kSG = kSpread | kGpuScope, kSP = kSpread | kPrefetch;
    return {
        lookback<32, false>("lookback 256x32"),
        lookback<16, false>("lookback 256x16"),
        lookback<32, true>("lookback 256x32 traced"),
        lookback<16, true>("lookback 256x16 traced"),
        lookback<16, false, 0>("lookback 256x16 nosleep"),
        lookback<16, true, 0>("lookback 256x16 nosleep traced"),
        lookback<32, false, 0>("lookback 256x32 nosleep"),
        lookback<32, true, 0>("lookback 256x32 nosleep traced"),
        lookback<8, false>("lookback 256x8"),
        lookback<8, false, 0>("lookback 256x8 nosleep"),
        lookback<16, false, 100, kGpuScope>("lookback 256x16 gpu-scope"),
        lookback<16, false, 100, kPrefetch>("lookback 256x16 prefetch"),
        lookback<16, false, 100, kGP>("lookback 256x16 gpu-scope prefetch"),
        lookback<16, true, 100, kGP>("lookback 256x16 gpu-scope prefetch traced"),
        {"early 256x32", 32, run_early<32, 100>, resident_blocks(early_scan<32, 100>, kThreads + 32)},
        {"early 256x32 nosleep", 32, run_early<32, 0>, resident_blocks(early_scan<32, 0>, kThreads + 32)},
        {"early 256x16", 16, run_early<16, 100>, resident_blocks(early_scan<16, 100>, kThreads + 32)},
        {"early 256x16 nosleep", 16, run_early<16, 0>, resident_blocks(early_scan<16, 0>, kThreads + 32)},
        allread<8, false>("allread 256x8"),
        allread<8, false, 0>("allread 256x8 nosleep"),
        allread<8, true>("allread 256x8 traced"),
        allread<8, false, 100, kGpuScope>("allread 256x8 gpu-scope"),
        allread<8, false, 100, kPrefetch>("allread 256x8 prefetch"),
        allread<8, true, 100, kGP>("allread 256x8 gpu-scope prefetch traced"),
        allread<8, false, 100, kSpread>("allread 256x8 spread"),
        allread<8, true, 100, kSpread>("allread 256x8 spread traced"),
        allread<16, false, 100, kSpread>("allread 256x16 spread"),
        allread<16, true, 100, kSpread>("allread 256x16 spread traced"),
        allread<16, false, 100, kSG>("allread 256x16 spread gpu-scope"),
        allread<16, false, 100, kSP>("allread 256x16 spread prefetch"),
        allread<16, false, 100, kSG | kPrefetch>("allread 256x16 spread gpu-scope prefetch"),
        allread<16, true, 100, kSG | kPrefetch>("allread 256x16 spread gpu-scope prefetch traced"),
        allread<16, false>("allread 256x16"),
        allread<16, true>("allread 256x16 traced"),
        allread<32, false>("allread 256x32"),
        allread<32, true>("allread 256x32 traced"),
        {"no look-back 256x32", 32, run_local<32>, 1 << 30, false},
        {"no look-back 256x16", 16, run_local<16>, 1 << 30, false},
        {"no look-back 256x8", 8, run_local<8>, 1 << 30, false},
        barrier<32>("barrier 256x32"),
        barrier<16>("barrier 256x16"),
        barrier<32, true>("barrier 256x32 traced"),
        barrier<16, true>("barrier 256x16 traced"),
        {"cluster8 256x32", 32, run_cluster<32, 8>, cluster_resident<32, 8>(dev)},
        {"cluster16 256x32", 32, run_cluster<32, 16>, cluster_resident<32, 16>(dev)},
        {"cluster8 256x16", 16, run_cluster<16, 8>, cluster_resident<16, 8>(dev)},
        {"cluster16 256x16", 16, run_cluster<16, 16>, cluster_resident<16, 16>(dev)},
    };
}

// The three CSVs of the run, headers written on opening.
struct Csvs {
    FILE* times = nullptr;  // start_cost.csv: a row per size and variant
    FILE* parts = nullptr;  // start_trace.csv: a row per traced launch
    FILE* tiles = nullptr;  // start_trace_tiles.csv: a row per tile of the launch of median span
    explicit Csvs(const std::string& dir)
        : times(std::fopen((dir + "/start_cost.csv").c_str(), "w")),
          parts(std::fopen((dir + "/start_trace.csv").c_str(), "w")),
          tiles(std::fopen((dir + "/start_trace_tiles.csv").c_str(), "w")) {
        if (times == nullptr || parts == nullptr || tiles == nullptr) {
            close();
            throw cw::UsageError("cannot write into " + dir);
        }
        std::fprintf(times, "n,variant,items,tiles,ms,memcpy_ms,copy_kernel_ms,copy_ms,copy_by,ratio_to_copy,ok,device\n");
        std::fprintf(parts, "n,variant,launch,span_ns,last_enter_ns,load_ns,publish_ns,pred_wait_ns,polling_ns,"
                            "store_issue_ns,polls,windows,device\n");
        std::fprintf(tiles, "n,variant,tile,sm,enter_ns,loaded_ns,published_ns,pred_published_ns,prefixed_ns,stored_ns,"
                            "polls,windows,device\n");
    }
    void close() {
        for (FILE** f : {&times, &parts, &tiles})
            if (*f != nullptr) std::fclose(*f), *f = nullptr;
    }
    ~Csvs() { close(); }
    Csvs(const Csvs&) = delete;
    Csvs& operator=(const Csvs&) = delete;
};

// What every measurement shares: the device's buffers, the input on the host, the CPU's scan
// (ref) and the device's output read back (got).
struct Bench {
    const cw::DeviceInfo& dev;
    Buffers& b;
    const std::vector<unsigned>& h;
    std::vector<unsigned> ref, got;
    cw::L2Flusher flusher;
    Csvs& csv;
    const int repeat = 50, traced_launches = 21;
};

// The output of the last launch equals `want` over [0, n).
bool output_matches(Bench& x, std::size_t n, const std::vector<unsigned>& want) {
    CUDA_CHECK(cudaMemcpy(x.got.data(), x.b.out, n * 4, cudaMemcpyDeviceToHost));
    return std::equal(x.got.begin(), x.got.begin() + static_cast<std::ptrdiff_t>(n), want.begin());
}

// Launches of a traced variant, each after an L2 flush as in the timed series: a row per
// launch, and the launch of median span written tile by tile.
void trace_variant(Bench& x, const Variant& v, std::size_t n, unsigned ntiles) {
    std::vector<std::pair<double, std::vector<TileTimes>>> launches;
    for (int k = 0; k < x.traced_launches; ++k) {
        x.flusher.flush(0);
        v.fn(x.b, n, 0);
        CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<TileTimes> tt = read_trace(x.b, ntiles);
        const TraceSummary s = summarise(tt);
        std::fprintf(x.csv.parts, "%zu,%s,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.1f,%.1f,%s\n", n, v.name.c_str(), k, s.span,
                     s.last_enter, s.load, s.publish_wait, s.pred_wait, s.polling, s.store_issue, s.polls, s.windows,
                     x.dev.name.c_str());
        launches.emplace_back(s.span, std::move(tt));
    }
    std::sort(launches.begin(), launches.end(),
              [](const std::pair<double, std::vector<TileTimes>>& p, const std::pair<double, std::vector<TileTimes>>& q) {
                  return p.first < q.first;
              });
    const std::vector<TileTimes>& mid = launches[launches.size() / 2].second;
    for (std::size_t t = 0; t < mid.size(); ++t) {
        const TileTimes& r = mid[t];
        std::fprintf(x.csv.tiles, "%zu,%s,%zu,%llu,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%llu,%llu,%s\n", n, v.name.c_str(), t, r.sm,
                     r.enter, r.loaded, r.published, r.pred_published, r.prefixed, r.stored, r.polls, r.windows,
                     x.dev.name.c_str());
    }
    const TraceSummary s = summarise(mid);
    std::printf("  trace (median launch): span %.0f ns, last block start %.0f, load %.0f, pred wait %.0f, "
                "polling %.0f, store issue %.0f, polls %.0f, windows %.0f\n",
                s.span, s.last_enter, s.load, s.pred_wait, s.polling, s.store_issue, s.polls, s.windows);
}

// One variant at one size: validated (output poisoned first), timed beside the yardstick of the
// same size, traced when its name says so. Returns whether the output was right; a variant
// whose grid cannot be resident is skipped (true).
bool measure(Bench& x, const Variant& v, std::size_t n) {
    const unsigned ntiles = tiles_of(n, v.items);
    if (static_cast<int>(ntiles) > v.resident) {
        std::printf("%-24s n=%-9zu skipped: %u blocks, at most %d\n", v.name.c_str(), n, ntiles, v.resident);
        return true;
    }
    cpu_scan(x.h, n, v.whole ? 0 : static_cast<std::size_t>(kThreads) * v.items, x.ref);
    CUDA_CHECK(cudaMemset(x.b.out, 0xff, n * 4));
    v.fn(x.b, n, 0);
    const bool ok = output_matches(x, n, x.ref);
    const cw::CopyYardstick copy_n = cw::time_same_size_copy(x.b.in, x.b.out, n, 3, x.repeat, &x.flusher);
    const double ms = cw::time_gpu(3, x.repeat, [&](cudaStream_t s) { v.fn(x.b, n, s); }, &x.flusher).median_ms();
    std::fprintf(x.csv.times, "%zu,%s,%d,%u,%.6f,%.6f,%.6f,%.6f,%s,%.4f,%d,%s\n", n, v.name.c_str(), v.items, ntiles, ms,
                 copy_n.memcpy_ms, copy_n.kernel_ms, copy_n.ms(), copy_n.by(), ms / copy_n.ms(), ok, x.dev.name.c_str());
    std::fflush(x.csv.times);
    std::printf("%-24s n=%-9zu %.4f ms  memcpy %.4f  copy kernel %.4f  ratio %.3f  %s\n", v.name.c_str(), n, ms,
                copy_n.memcpy_ms, copy_n.kernel_ms, ms / copy_n.ms(), ok ? "ok" : "WRONG");
    if (v.name.find("traced") != std::string::npos) trace_variant(x, v, n, ntiles);
    return ok;
}

Buffers make_buffers(const std::vector<unsigned>& h) {
    const std::size_t maxn = h.size(), tiles = maxn / 1024 + 1;
    Buffers b;
    CUDA_CHECK(cudaMalloc(&b.in, maxn * 4));
    CUDA_CHECK(cudaMalloc(&b.out, maxn * 4));
    const std::size_t words = std::max<std::size_t>(tiles, static_cast<std::size_t>(kAllreadTiles) * kSpreadStride);
    CUDA_CHECK(cudaMalloc(&b.desc, words * 8));
    CUDA_CHECK(cudaMemset(b.desc, 0, words * 8));
    CUDA_CHECK(cudaMalloc(&b.aggs, tiles * 4));
    CUDA_CHECK(cudaMalloc(&b.counter, 8));
    CUDA_CHECK(cudaMemset(b.counter, 0, 8));
    CUDA_CHECK(cudaMalloc(&b.trace, tiles * kWords * 8));
    CUDA_CHECK(cudaMemcpy(b.in, h.data(), maxn * 4, cudaMemcpyHostToDevice));
    return b;
}

int run(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : ".";
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const std::vector<std::size_t> sizes = {1u << 20, 1000000, 1u << 21, 1u << 22, 1u << 23};
    const std::size_t maxn = 1u << 23;
    const cw::DeviceInfo dev = cw::select_device(0);
    probe_visibility(dir, dev);
    std::vector<unsigned> h(maxn);
    cw::fill_uniform_int(h.data(), maxn, -1000000, 1000000, 42);
    Buffers b = make_buffers(h);  // freed by the process's exit
    Csvs csv(dir);
    Bench x{dev, b, h, std::vector<unsigned>(maxn), std::vector<unsigned>(maxn), cw::L2Flusher(), csv};
    const std::vector<Variant> variants = make_variants(dev);
    int wrong = 0;
    for (const std::size_t n : sizes) {
        // The copy kernel checked once a size: time_same_size_copy leaves its run over a poisoned output.
        cw::time_same_size_copy(b.in, b.out, n, 0, 1, nullptr);
        if (!output_matches(x, n, h)) {
            std::printf("copy kernel WRONG at n=%zu\n", n);
            ++wrong;
        }
        for (const Variant& v : variants) wrong += measure(x, v, n) ? 0 : 1;
    }
    csv.close();
    std::printf("Result = %s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main("start_cost", [&]() { return run(argc, argv); });
}
