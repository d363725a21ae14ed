// A warp-specialised, persistent, single-pass prefix scan of unsigned ints (two's-complement
// wrap) for sm_90 (issue #24): the kernel of version=lookahead (its launcher, LookaheadScan in
// scan_kernels.cu, and its tuning, scan_policy::LookaheadPolicy in scan_policy.h) and of the
// tuning experiment experiments/ws_scan.cu. Device code only inside `__CUDA_ARCH__ >= 900`
// guards: on older targets the kernel is an empty body that the host never launches (the
// policy's for_device and ws_scan.cu check the architecture of the code the driver loaded
// first: PTX version and binary version both 90 or more).
//
// Design (one persistent CTA per resident slot, all of them draining one tile queue; warps
// by role, in this order):
//   warp 0, producer   (one lane) draws tile ids from a global atomic counter, 4 draws in
//                      flight (their round trips overlap each other and the wait for a free
//                      stage), and streams each tile into a ring of S shared-memory stages with
//                      one bulk asynchronous copy (cp.async.bulk, completing on the stage's
//                      `full` mbarrier). It waits only for a stage to be free (`empty`), never
//                      for a scan result: the bytes of the free stages are always in flight.
//   warps 1..LW,       the tile's exclusive prefix, for the CTA's tiles in order (warp j takes
//   look-ahead         the CTA's j-th, (j+LW)-th, ... tile, so LW polls of L2 are in flight):
//                      the exclusive prefix of this warp's previous tile (known locally) plus
//                      the published aggregates of every tile from that previous tile up to the
//                      current one (about LW per CTA of the grid: one round of up to 16
//                      descriptors per lane, re-polled from the first unpublished one). It
//                      starts once its tile has landed, and then signals `prefixed`.
//   R warps, reduce    read each landed tile once (16-byte shared loads: a warp reads 512
//                      contiguous bytes per instruction, conflict-free without padding) and
//                      write the totals of its W segments (one per scan warp) to shared memory;
//                      the tile's sum is published at once as an aggregate-only descriptor
//                      (epoch << 32 | sum). A reduction depends on nothing but its own tile's
//                      data, so no chain of waits ever runs through the descriptors.
//   W warps, scan +    each warp takes one segment of the tile (TILE / W ints, rows of 128
//   store              ints: a uint4 per lane), waits for `reduced` and `prefixed`, adds the
//                      tile prefix and the totals of the segments before its own, scans each
//                      row by lane (4 ints) and by warp (shuffles), and writes the row out:
//                      16-byte global stores from registers (store 0), or back into the stage
//                      (same conflict-free pattern) and out by one bulk copy per warp (store 1,
//                      cp.async.bulk shared::cta -> global, the stage freed once the copy has
//                      read it).
//   Every reader of a stage (reduce and scan warps) fences (fence.proxy.async) and then
//   arrives on `empty` once per warp; the producer refills the stage after that phase.
// The last, partial tile is not bulk-copied: the producer only signals it, and the reduce and
// scan warps read (and write) it from global memory with bounds.
//
// What the measurements chose (experiments/ws_scan.cu; results/ws_scan.csv, results/h200/ws_scan.csv):
// 4096-int tiles x 12 stages (192 KiB, one CTA per SM), 2 reduce warps, 8 scan warps, 2
// look-ahead warps, 16-byte stores. A tile's prefix needs every earlier tile to have landed, so
// a stage stays busy for about the slowest of ~G concurrent copies plus the look-ahead's L2
// round trip: many small stages beat few large ones (6 x 8192 ints: 97% of copy on an H100,
// 95% on an H200; 6 x 4096: 84-88%). One look-ahead warp is one L2 round trip per tile, which
// caps an H200 at ~76% of copy; two lift it to 96%; three or four poll more than they gain
// (the polls share the L2 with the data: ncu put the L2 at 88% of its peak on an H200). One
// reduce warp instead of two (4096-int tiles, 4 scan warps) costs up to 10 points: 86% of copy
// instead of 96% at 2^28 on an H200, 81% instead of 88% at 20M on an H100.
//
// Memory model:
// - Between CTAs, only descriptors are communicated, and a descriptor carries the value and
//   its validity (the epoch of this launch) in one naturally aligned 64-bit word, written by
//   one volatile 64-bit store and read by volatile 64-bit loads: PTX makes such accesses
//   relaxed, system-scope ("morally strong") and single-copy atomic, so a reader that sees this
//   launch's epoch sees the value stored with it. No CTA reads another CTA's output data or
//   any other word written by another CTA, so no release/acquire fence is needed (the same
//   argument as the committed `lookback`, scan_kernels.cu). Volatile loads are served by L2,
//   the point of coherence, and re-issued on every poll.
// - Within the CTA, the mbarriers order everything: mbarrier.arrive has release and
//   try_wait acquire semantics at CTA scope, so the producer's write of the stage's tile id
//   before its arrive, the reduce warps' segment totals before their arrive, the look-ahead's
//   prefix before its arrive are visible to whoever waited on that phase; the bulk copy's
//   writes are visible to the threads that observe the `full` phase completing (complete_tx).
//   Reads of a stage by threads (generic proxy) are ordered before the copy engine's refill
//   (async proxy) by fence.proxy.async in every reading thread before its warp arrives on
//   `empty` (bulk_async.cuh; without it a refill can overtake reads, seen on an H200), and
//   writes of results into a stage before a bulk store of it likewise.
// - Descriptors from older launches carry an older epoch and read as "not yet published";
//   the host bumps the epoch per launch and clears the array when the 32-bit epoch wraps.
//
// Forward progress (kSched 0): every tile is drawn by a running CTA (the counter is read only
// by running producers, in increasing order per CTA), and a CTA processes its tiles in draw
// order. Take the smallest tile t whose aggregate is never published: its CTA's earlier
// tiles are all smaller than t, their look-aheads wait only for aggregates of tiles smaller
// than themselves (all published, by minimality), so they are scanned, stored and their stages
// freed; t's copy is then issued and lands, and the reduce warps, which wait for nothing else,
// publish it: contradiction. So every aggregate is published, every look-ahead ends, and every
// CTA drains. This needs no assumption on which CTAs are resident; the grid is nevertheless
// the resident one (occupancy API x SMs, checked on the host), so that no CTA waits for a
// slot and all of them share the queue from the start. kSched 1 (each CTA's first S tiles
// fixed, blockIdx.x + k gridDim.x) does rely on it: tile c + k G is waited for by others before
// CTA c has drawn anything, so every CTA of the grid must be resident at once, which the grid
// size from the occupancy API gives when nothing else runs on the GPU (it measured no better).
//
// The counter is reset for the next launch by the last CTA to finish drawing (counter[1]
// counts producers that drew past the end: once all have, nobody draws again).
#pragma once

#include <cstddef>

#include "bulk_async.cuh"
#include "gpu_clock.cuh"

namespace ws {

struct Params {
    const unsigned* in;
    unsigned* out;
    std::size_t n;
    unsigned long long* desc;  // one per tile
    unsigned* counter;         // [0]: next tile id, [1]: producers done (both 0 between launches)
    unsigned num_tiles;
    unsigned epoch;            // 1 .. 2^32 - 1, new per launch
    unsigned long long* trace; // kTrace only (experiments/ws_scan.cu --trace): kTraceWords per CTA
};

// The words a traced launch (kTrace) writes per CTA, at trace + kTraceWords * blockIdx.x: when
// the CTA started and on which SM (thread 0, first thing); and, as scan warp 0 saw its tiles
// (its lane 0, once, after its last tile), when the first had landed and when the first and the
// last were stored, how many tiles it scanned, and, summed over them in SM cycles, how long it
// waited for a tile's bytes (from its previous store, or the CTA's start, to `full`), for the
// tile's segment totals (`full` to `reduced`), then for its prefix (to `prefixed`), and worked
// (from then to its stores issued); the four sums add up to last-store cycle minus start cycle
// exactly. And, as look-ahead warp 1 saw its tiles (its lane 0): the CTA's first tile's id, when
// its look-ahead began (the tile landed) and ended, in how many rounds; its rounds and tiles in
// all. *Ns: %globaltimer (ns, one clock for the whole GPU); *Cycle(s): clock64 of the CTA's SM.
// The sums stay in registers until the end. Without kTrace the kernel's code is what it was before.
// After the grid's words (at trace + kTraceWords * gridDim.x), per tile t < kTracedTiles: the
// %globaltimer when reduce warp 0 saw it land and when its aggregate was published (two words),
// so that the host can tell when every predecessor of a CTA's first tile was published.
constexpr unsigned kTracedTiles = 4096;
enum TraceWord { kEnterNs, kSm, kFirstLandedNs, kFirstStoredNs, kLastStoredNs, kTiles, kWaitDataCycles,
                 kWaitReduceCycles, kWaitPrefixCycles, kWorkCycles, kEnterCycle, kLastStoredCycle, kFirstTile,
                 kLookStartNs, kLookDoneNs, kLookFirstRounds, kLookRounds, kLookTiles, kTraceWords };

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
namespace dev {

constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ void bar_init(unsigned long long* bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bulk::smem_u32(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void bar_arrive(unsigned long long* bar) {
    asm volatile("{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" ::"r"(bulk::smem_u32(bar)) : "memory");
}

// One thread: `bytes` of shared `src` to global `dst` by the copy engine (a bulk group).
__device__ __forceinline__ void bulk_store(void* dst, const void* src, unsigned bytes) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(bulk::smem_u32(src)),
                 "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
// The issuing thread: all but the newest `N` bulk groups have finished reading shared memory.
template <int N>
__device__ __forceinline__ void bulk_wait_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}
__device__ __forceinline__ void bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

using gpu_clock::global_ns;
using gpu_clock::sm_id;

__device__ __forceinline__ unsigned long long load_desc(const unsigned long long* d) {
    return *reinterpret_cast<const volatile unsigned long long*>(d);
}
__device__ __forceinline__ void publish(unsigned long long* d, unsigned epoch, unsigned value) {
    *reinterpret_cast<volatile unsigned long long*>(d) = (static_cast<unsigned long long>(epoch) << 32) | value;
}

// The sum of the aggregates of tiles [start, end) added to `acc`, polling until all are
// published. Each round, lane l reads descriptors start + 32 i + l (i < LA, all loads in
// flight at once); the run of published ones from `start` on is summed and skipped; a round
// that makes no progress sleeps briefly. Warp-uniform arguments; the result in every lane.
// `rounds` (a traced launch's only): incremented once per round.
template <int LA>
__device__ __forceinline__ unsigned look_ahead(const unsigned long long* desc, unsigned start, unsigned end,
                                               unsigned acc, unsigned epoch, int lane, unsigned* rounds = nullptr) {
    const unsigned long long beyond = static_cast<unsigned long long>(epoch) << 32;  // published, value 0
    while (start < end) {
        unsigned long long w[LA];
#pragma unroll
        for (int i = 0; i < LA; ++i) {
            const unsigned idx = start + static_cast<unsigned>(i * 32 + lane);
            w[i] = idx < end ? load_desc(desc + idx) : beyond;
        }
        unsigned sum = 0, count = 32 * LA;
        bool stop = false;
#pragma unroll
        for (int i = 0; i < LA; ++i) {
            const unsigned m = __ballot_sync(kFull, static_cast<unsigned>(w[i] >> 32) == epoch);
            if (!stop) {
                const int first_missing = m == kFull ? 32 : __ffs(~m) - 1;
                if (lane < first_missing) sum += static_cast<unsigned>(w[i]);
                if (first_missing < 32) {
                    count = static_cast<unsigned>(i * 32 + first_missing);
                    stop = true;
                }
            }
        }
        acc += __reduce_add_sync(kFull, sum);
        if (rounds != nullptr) ++*rounds;
        const unsigned advance = count < end - start ? count : end - start;
        start += advance;
        if (advance == 0) __nanosleep(64);
    }
    return acc;
}

// Inclusive scan of one row (a uint4 per lane, 128 consecutive ints) after `base`; returns
// the row's results (inclusive or exclusive) and adds the row's total to `base`.
template <bool kExclusive>
__device__ __forceinline__ uint4 scan_row(uint4 v, unsigned& base, int lane) {
    const unsigned a = v.x, b = a + v.y, c = b + v.z, d = c + v.w;
    unsigned inc = d;
#pragma unroll
    for (int s = 1; s < 32; s <<= 1) {
        const unsigned y = __shfl_up_sync(kFull, inc, s);
        if (lane >= s) inc += y;
    }
    const unsigned before = base + inc - d;
    base += __shfl_sync(kFull, inc, 31);
    return kExclusive ? make_uint4(before, before + a, before + b, before + c)
                      : make_uint4(before + a, before + b, before + c, before + d);
}

// Row j of segment `seg` of tile `t` from global memory with bounds (the partial tile).
__device__ __forceinline__ uint4 load_row_bounded(const unsigned* in, std::size_t n, std::size_t e) {
    return make_uint4(e < n ? in[e] : 0u, e + 1 < n ? in[e + 1] : 0u, e + 2 < n ? in[e + 2] : 0u,
                      e + 3 < n ? in[e + 3] : 0u);
}

}  // namespace dev
#endif

// TILE ints per tile, S stages, R reduce warps, W scan warps; kStore 0: 16-byte stores from
// registers, 1: results written back into the stage and bulk-copied out, one copy per warp.
// kCopy: the same pipeline without the scan (no look-ahead; the scan warps store the tile
// unchanged): its ceiling. kSched: 0 every tile drawn from the counter, 1 the first S tiles
// of each CTA fixed (blockIdx.x + k gridDim.x), the rest drawn. kDraws: counter draws in
// flight. LW: look-ahead warps (warp j takes the CTA's tiles j, j + LW, ...: LW round trips
// to L2 in flight). LA: descriptors per lane per look-ahead round. kTrace: write TraceWord's
// words to p.trace (an experiment's timeline; never in the program). kRamp (0: off): while the
// CTA fills its stages the first time, at most kRamp of its copies are in flight (stage k's copy
// waits for stage k - kRamp's to land), so that the first tiles, whose prefixes every later tile
// needs, are not slowed by the copies of the stages behind them.
template <int TILE, int S, int R, int W, int kStore, int kSched, int LW, bool kExclusive, bool kCopy = false,
          int kDraws = 4, int LA = 16, bool kTrace = false, int kRamp = 0>
__global__ void __launch_bounds__((1 + LW + R + W) * 32, 1) ws_scan_kernel(Params p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int SEG = TILE / W;    // ints per scan warp
    constexpr int ROWS = SEG / 128;  // rows of 128 ints (a uint4 per lane) per segment
    constexpr unsigned kBytes = TILE * sizeof(unsigned);
    static_assert(SEG % 128 == 0 && ROWS >= 1, "a segment is whole rows of 128 ints");
    static_assert(W % R == 0, "each reduce warp sums W / R segments");
    static_assert(S >= 2, "a bulk store's stage is released one tile later");
    static_assert(LW >= 1 && LW <= S, "look-ahead warps");
    constexpr int kFirstReduce = 1 + LW, kFirstScan = 1 + LW + R;
    extern __shared__ __align__(128) unsigned s_stage[];  // S x TILE ints
    // full: the producer's arrive + the copy's bytes; empty: one arrive per reading warp;
    // reduced: one per reduce warp (segment totals written); prefixed: a look-ahead lane 0.
    __shared__ __align__(8) unsigned long long s_full[S], s_empty[S], s_reduced[S], s_prefixed[S];
    __shared__ unsigned s_tile[S];
    __shared__ unsigned s_seg[S][W];
    __shared__ unsigned s_prefix[S];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const unsigned num_tiles = p.num_tiles;
    unsigned long long* const trace = kTrace ? p.trace + kTraceWords * static_cast<std::size_t>(blockIdx.x) : nullptr;

    if (threadIdx.x == 0) {
        if (kTrace) {
            trace[kEnterCycle] = clock64();
            for (int w = kFirstTile; w <= kLookTiles; ++w) trace[w] = 0;  // look-ahead warp 1 may see no tile
            trace[kEnterNs] = dev::global_ns();
            trace[kSm] = dev::sm_id();
        }
        for (int st = 0; st < S; ++st) {
            dev::bar_init(&s_full[st], 1);
            dev::bar_init(&s_empty[st], R + W);
            dev::bar_init(&s_reduced[st], R);
            dev::bar_init(&s_prefixed[st], 1);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    auto is_full = [&](unsigned t) { return (static_cast<std::size_t>(t) + 1) * TILE <= p.n; };

    if (warp == 0) {
        // ----------------------------------------------------------------- producer
        // The CTA's k-th tile: with kSched 1, c + k G for k < S (the first tile of every
        // stage fixed: all CTAs' stage-0 tiles are 0 .. G-1, so the first prefixes wait only for
        // the first wave of copies), then dyn_base + the k-th draw; with kSched 0, every tile
        // drawn. kDraws draws are in flight at once (their round trips overlap), in program
        // order to one address: increasing.
        // After the first tile id past the end, LW - 1 more: every look-ahead warp sees one.
        if (lane != 0) return;
        const unsigned G = gridDim.x, c = blockIdx.x;
        int ends = 0;
        const unsigned dyn_base = kSched == 1 ? S * G : 0u;
        unsigned q[kDraws];
#pragma unroll
        for (int i = 0; i < kDraws; ++i) q[i] = atomicAdd(p.counter, 1u);
        for (unsigned k = 0;; ++k) {
            const int st = static_cast<int>(k % S);
            unsigned t;
            if (kSched == 1 && k < S) {
                t = c + k * G;
            } else {
                t = dyn_base + q[0];
#pragma unroll
                for (int i = 0; i + 1 < kDraws; ++i) q[i] = q[i + 1];
                q[kDraws - 1] = t < num_tiles ? atomicAdd(p.counter, 1u) : num_tiles;
            }
            bulk::wait(&s_empty[st], ((k / S) & 1u) ^ 1u);  // the stage's previous use is over
            if (kRamp > 0 && k >= kRamp && k < S) bulk::wait(&s_full[k - kRamp], 0u);  // the first fill
            s_tile[st] = t;
            if (t < num_tiles && is_full(t))
                bulk::load(s_stage + st * TILE, p.in + static_cast<std::size_t>(t) * TILE, kBytes, &s_full[st]);
            else
                dev::bar_arrive(&s_full[st]);  // the partial tile (read from global) or the end
            if (t >= num_tiles && ++ends == LW) break;
        }
        // Every draw of this CTA is done before it is counted (the fence orders the draws still
        // in flight before the count); the last CTA counted resets both words for the next launch.
        __threadfence();
        if (atomicAdd(p.counter + 1, 1u) == gridDim.x - 1) {
            atomicExch(p.counter, 0u);
            atomicExch(p.counter + 1, 0u);
        }
        return;
    }

    if (warp < kFirstReduce) {
        // ----------------------------------------------------------------- look-ahead
        // Warp j: the CTA's tiles j, j + LW, ...; it starts once the tile's own bytes have
        // landed (its predecessors' copies were issued no later, so most of their aggregates
        // are published by then: starting at the tile id instead multiplied the polls, whose
        // traffic through L2 cost up to 5% of the copy speed on an H100).
        if (kCopy) return;
        bool have_prev = false;
        unsigned prev = 0, prev_prefix = 0;  // this warp's previous tile and its exclusive prefix
        const bool tracer = kTrace && warp == 1 && lane == 0;
        unsigned tr_rounds = 0, tr_tiles = 0;
        for (unsigned k = static_cast<unsigned>(warp - 1);; k += LW) {
            const int st = static_cast<int>(k % S);
            bulk::wait(&s_full[st], (k / S) & 1u);
            const unsigned t = s_tile[st];
            if (t >= num_tiles) break;
            const unsigned long long tr_start = tracer && k == 0 ? dev::global_ns() : 0;
            unsigned rounds = 0;
            // prefix(t) = prefix(prev) + aggregates of tiles prev .. t - 1 (0 .. t - 1 at first).
            const unsigned prefix = dev::look_ahead<LA>(p.desc, have_prev ? prev : 0u, t, have_prev ? prev_prefix : 0u,
                                                        p.epoch, lane, kTrace ? &rounds : nullptr);
            if (tracer) {
                if (k == 0) {
                    trace[kFirstTile] = t;
                    trace[kLookStartNs] = tr_start;
                    trace[kLookDoneNs] = dev::global_ns();
                    trace[kLookFirstRounds] = rounds;
                }
                tr_rounds += rounds;
                ++tr_tiles;
            }
            if (lane == 0) {
                s_prefix[st] = prefix;
                dev::bar_arrive(&s_prefixed[st]);
            }
            have_prev = true;
            prev = t;
            prev_prefix = prefix;
        }
        if (tracer) {
            trace[kLookRounds] = tr_rounds;
            trace[kLookTiles] = tr_tiles;
        }
        return;
    }

    if (warp < kFirstScan) {
        // ----------------------------------------------------------------- reduce
        const int r = warp - kFirstReduce;
        unsigned long long* const tile_times =
            kTrace ? p.trace + kTraceWords * static_cast<std::size_t>(gridDim.x) : nullptr;
        for (unsigned k = 0;; ++k) {
            const int st = static_cast<int>(k % S);
            bulk::wait(&s_full[st], (k / S) & 1u);
            const unsigned t = s_tile[st];
            if (t >= num_tiles) break;
            const bool tile_traced = kTrace && r == 0 && lane == 0 && t < kTracedTiles;
            if (tile_traced) tile_times[2 * t] = dev::global_ns();
            const bool full = is_full(t);
            const uint4* stage4 = reinterpret_cast<const uint4*>(s_stage + st * TILE);
            const std::size_t tile_base = static_cast<std::size_t>(t) * TILE;
            unsigned warp_sum = 0;
#pragma unroll 1
            for (int s = r; s < W; s += R) {
                unsigned sum = 0;
#pragma unroll
                for (int j = 0; j < ROWS; ++j) {
                    const int row = s * ROWS + j;
                    const uint4 v = full ? stage4[row * 32 + lane]
                                         : dev::load_row_bounded(p.in, p.n, tile_base + (row * 32 + lane) * 4);
                    sum += v.x + v.y + v.z + v.w;
                }
                sum = __reduce_add_sync(dev::kFull, sum);
                if (lane == 0) s_seg[st][s] = sum;
                warp_sum += sum;
            }
            bulk::release_stage();  // this warp's reads of the stage, before the copy engine's refill
            __syncwarp();
            if (lane == 0) {
                dev::bar_arrive(&s_empty[st]);
                dev::bar_arrive(&s_reduced[st]);
            }
            // The tile's aggregate: this warp's sum when R == 1, else all R warps' (a named
            // barrier among the reduce warps only; s_seg[st] is rewritten only after the scan
            // warps have read it and released the stage).
            if (R > 1) {
                asm volatile("bar.sync 1, %0;" ::"n"(R * 32) : "memory");
                if (r == 0 && lane == 0) {
                    unsigned agg = 0;
#pragma unroll
                    for (int s = 0; s < W; ++s) agg += s_seg[st][s];
                    dev::publish(p.desc + t, p.epoch, agg);
                    if (tile_traced) tile_times[2 * t + 1] = dev::global_ns();
                }
            } else if (lane == 0) {
                dev::publish(p.desc + t, p.epoch, warp_sum);
                if (tile_traced) tile_times[2 * t + 1] = dev::global_ns();
            }
        }
        return;
    }

    // --------------------------------------------------------------------- scan + store
    const int w = warp - kFirstScan;
    int pending = -1;  // store 1: the stage whose bulk store may still be reading it
    // kTrace, scan warp 0's lane 0 (cycles): its previous tile stored (at first the CTA's start,
    // written by thread 0 before the barrier above), this tile landed, ready; the sums and times.
    const bool tracer = kTrace && w == 0 && lane == 0;
    unsigned long long tr_prev = tracer ? trace[kEnterCycle] : 0, tr_landed = 0, tr_reduced = 0, tr_ready = 0;
    unsigned long long tr_data = 0, tr_reduce = 0, tr_prefix = 0, tr_work = 0;
    unsigned long long tr_landed_ns = 0, tr_first_ns = 0, tr_last_ns = 0;
    unsigned tr_tiles = 0;
    for (unsigned k = 0;; ++k) {
        const int st = static_cast<int>(k % S);
        const unsigned ph = (k / S) & 1u;
        bulk::wait(&s_full[st], ph);
        const unsigned t = s_tile[st];
        if (t >= num_tiles) break;
        if (tracer) {
            tr_landed = clock64();
            if (k == 0) tr_landed_ns = dev::global_ns();
        }
        const bool full = is_full(t);
        unsigned base = 0;  // the sum of everything before this warp's segment
        if (!kCopy) {
            bulk::wait(&s_reduced[st], ph);
            if (tracer) tr_reduced = clock64();
            bulk::wait(&s_prefixed[st], ph);
            base = s_prefix[st];
#pragma unroll
            for (int s = 0; s < W; ++s)
                if (s < w) base += s_seg[st][s];
        }
        if (tracer) {
            tr_ready = clock64();
            if (kCopy) tr_reduced = tr_ready;
        }
        const std::size_t seg_base = static_cast<std::size_t>(t) * TILE + static_cast<std::size_t>(w) * SEG;
        uint4* stage4 = reinterpret_cast<uint4*>(s_stage + st * TILE) + w * (SEG / 4);
        if (full) {
            uint4 v[ROWS];
#pragma unroll
            for (int j = 0; j < ROWS; ++j) v[j] = stage4[j * 32 + lane];
#pragma unroll
            for (int j = 0; j < ROWS; ++j)
                if (!kCopy) v[j] = dev::scan_row<kExclusive>(v[j], base, lane);
            if (kStore == 0) {
                uint4* out4 = reinterpret_cast<uint4*>(p.out + seg_base);
#pragma unroll
                for (int j = 0; j < ROWS; ++j) out4[j * 32 + lane] = v[j];
                bulk::release_stage();
                __syncwarp();
                if (lane == 0) dev::bar_arrive(&s_empty[st]);
            } else {
#pragma unroll
                for (int j = 0; j < ROWS; ++j) stage4[j * 32 + lane] = v[j];
                bulk::release_stage();  // the writes above, before the copy engine reads them
                __syncwarp();
                if (lane == 0) {
                    dev::bulk_store(p.out + seg_base, stage4, SEG * sizeof(unsigned));
                    if (pending >= 0) {
                        dev::bulk_wait_read<1>();  // the previous tile's copy has read its stage
                        dev::bar_arrive(&s_empty[pending]);
                    }
                }
                pending = st;
            }
        } else {
            // The partial last tile: from and to global memory with bounds.
#pragma unroll 1
            for (int j = 0; j < ROWS; ++j) {
                const std::size_t e = seg_base + static_cast<std::size_t>(j * 32 + lane) * 4;
                uint4 v = dev::load_row_bounded(p.in, p.n, e);
                if (!kCopy) v = dev::scan_row<kExclusive>(v, base, lane);
                if (e < p.n) p.out[e] = v.x;
                if (e + 1 < p.n) p.out[e + 1] = v.y;
                if (e + 2 < p.n) p.out[e + 2] = v.z;
                if (e + 3 < p.n) p.out[e + 3] = v.w;
            }
            __syncwarp();
            if (lane == 0) {
                if (pending >= 0) {
                    dev::bulk_wait_read<0>();
                    dev::bar_arrive(&s_empty[pending]);
                }
                dev::bar_arrive(&s_empty[st]);
            }
            pending = -1;
        }
        if (tracer) {  // this warp's part of tile t is stored (issued)
            const unsigned long long now = clock64();
            tr_last_ns = dev::global_ns();
            if (k == 0) tr_first_ns = tr_last_ns;
            tr_data += tr_landed - tr_prev;
            tr_reduce += tr_reduced - tr_landed;
            tr_prefix += tr_ready - tr_reduced;
            tr_work += now - tr_ready;
            tr_prev = now;
            ++tr_tiles;
        }
    }
    if (tracer) {
        trace[kFirstLandedNs] = tr_landed_ns;
        trace[kFirstStoredNs] = tr_first_ns;
        trace[kLastStoredNs] = tr_last_ns;
        trace[kTiles] = tr_tiles;
        trace[kWaitDataCycles] = tr_data;
        trace[kWaitReduceCycles] = tr_reduce;
        trace[kWaitPrefixCycles] = tr_prefix;
        trace[kWorkCycles] = tr_work;
        trace[kLastStoredCycle] = tr_prev;  // the CTA's start cycle when it scanned no tile
    }
    if (kStore == 1 && lane == 0) {
        if (pending >= 0) {
            dev::bulk_wait_read<0>();
            dev::bar_arrive(&s_empty[pending]);
        }
        dev::bulk_wait_all();  // the shared memory stays allocated until every bulk store is done
    }
#endif
}

}  // namespace ws
