// A warp-specialised, persistent, single-pass prefix scan of unsigned ints (two's-complement
// wrap) for sm_90 (issue #24): the kernel of version=lookahead (its launcher, LookaheadScan in
// scan_kernels.cu; its tuning, scan_policy::LookaheadPolicy in scan_policy.h). Written as CUB
// writes its agents: Agent<Policy> holds one short function per warp role and the per-tile
// steps those roles' loops are made of, over the tile state of ws_tile_state.cuh (which owns
// the descriptors: publishing, the look-ahead's sums, the epoch); ws_scan_kernel instantiates
// it with the program's policy. An experiment writes its own loops around the same per-tile
// steps (experiments/ws_variants.cuh). Device code only inside `__CUDA_ARCH__ >= 900` guards: on
// older targets the kernel is an empty body that the host never launches (the policy's
// for_device checks the architecture of the code the driver loaded first: PTX version and
// binary version both 90 or more).
//
// Design (one persistent CTA per resident slot, all of them draining one tile queue; warps
// by role, in this order):
//   warp 0, producer   (one lane) draws tile ids from a global atomic counter, kDraws draws in
//                      flight (their round trips overlap each other and the wait for a free
//                      stage), and streams each tile into a ring of kStages shared-memory stages
//                      with one bulk asynchronous copy (cp.async.bulk, completing on the stage's
//                      `full` mbarrier). It waits only for a stage to be free (`empty`), never
//                      for a scan result: the bytes of the free stages are always in flight.
//   look-ahead warps   the tile's exclusive prefix, for the CTA's tiles in order (warp j takes
//                      the CTA's j-th, (j + LW)-th, ... tile, so LW polls of L2 are in flight):
//                      the exclusive prefix of this warp's previous tile (known locally) plus
//                      the published aggregates of every tile from that previous tile up to the
//                      current one (TileState::sum: rounds of kDescsPerLane descriptors per
//                      lane, re-polled from the first unpublished one). It starts once its tile
//                      has landed (its predecessors' copies were issued no later, so most of
//                      their aggregates are published by then), and then signals `prefixed`.
//   reduce warps       read each landed tile once (16-byte shared loads: a warp reads 512
//                      contiguous bytes per instruction, conflict-free without padding) and
//                      write the totals of its segments (one per scan warp) to shared memory;
//                      the tile's sum is published at once as the tile's aggregate. A reduction
//                      depends on nothing but its own tile's data, so no chain of waits ever
//                      runs through the descriptors.
//   scan warps         each warp takes one segment of the tile (kTile / kScanWarps ints, rows of
//                      128 ints: a uint4 per lane), waits for `reduced` and `prefixed`, adds the
//                      tile prefix and the totals of the segments before its own, scans each
//                      row by lane (4 ints) and by warp (shuffles), and writes the row out with
//                      16-byte global stores from registers.
//   Every reader of a stage (reduce and scan warps) fences (fence.proxy.async) and then
//   arrives on `empty` once per warp; the producer refills the stage after that phase.
// The last, partial tile is not bulk-copied: the producer only signals it, and the reduce and
// scan warps read (and write) it from global memory with bounds. What each choice of the
// policy measured is in experiments/README.md, in its section on experiments/ws_scan.cu (from
// experiments/results/<gpu>/ws_scan.csv).
//
// Memory model:
// - Between CTAs, only descriptors are communicated (ws_tile_state.cuh says why a descriptor
//   needs no fence); no CTA reads another CTA's output data.
// - Within the CTA, the mbarriers order everything: mbarrier.arrive has release and
//   try_wait acquire semantics at CTA scope, so the producer's write of the stage's tile id
//   before its arrive, the reduce warps' segment totals before their arrive, the look-ahead's
//   prefix before its arrive are visible to whoever waited on that phase; the bulk copy's
//   writes are visible to the threads that observe the `full` phase completing (complete_tx).
//   Reads of a stage by threads (generic proxy) are ordered before the copy engine's refill
//   (async proxy) by fence.proxy.async in every reading thread before its warp arrives on
//   `empty` (bulk_async.cuh; without it a refill can overtake reads, seen on an H200).
//
// Forward progress: every tile is drawn by a running CTA (the counter is read only by running
// producers, in increasing order per CTA), and a CTA processes its tiles in draw order. Take
// the smallest tile t whose aggregate is never published: its CTA's earlier tiles are all
// smaller than t, their look-aheads wait only for aggregates of tiles smaller than themselves
// (all published, by minimality), so they are scanned, stored and their stages freed; t's copy
// is then issued and lands, and the reduce warps, which wait for nothing else, publish it:
// contradiction. So every aggregate is published, every look-ahead ends, and every CTA drains.
// This needs no assumption on which CTAs are resident; the grid is nevertheless the resident
// one (occupancy API x SMs, checked on the host), so that no CTA waits for a slot and all of
// them share the queue from the start.
//
// The counter is reset for the next launch by the last CTA to finish drawing (counter[1]
// counts producers that drew past the end: once all have, nobody draws again).
#pragma once

#include <cstddef>

#include "bulk_async.cuh"
#include "scan_policy.h"
#include "ws_tile_state.cuh"

namespace ws {

struct Params {
    const unsigned* in;
    unsigned* out;
    std::size_t n;
    unsigned long long* desc;  // one per tile (TileState)
    unsigned* counter;         // [0]: next tile id, [1]: producers done (both 0 between launches)
    unsigned num_tiles;
    unsigned epoch;            // 1 .. 2^32 - 1, new per launch (tile_epoch.h)
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

// The producer's tile ids: N draws from the counter in flight at once, in program order to one
// address, so increasing. next() hands out the oldest and issues a new draw in its place while
// the id handed out is below `limit` (afterwards `limit` itself: nobody draws past the end).
template <int N>
struct Draws {
    unsigned* counter;
    unsigned q[N];
    __device__ explicit Draws(unsigned* c) : counter(c) {
#pragma unroll
        for (int i = 0; i < N; ++i) q[i] = atomicAdd(counter, 1u);
    }
    __device__ unsigned next(unsigned limit) {
        const unsigned t = q[0];
#pragma unroll
        for (int i = 0; i + 1 < N; ++i) q[i] = q[i + 1];
        q[N - 1] = t < limit ? atomicAdd(counter, 1u) : limit;
        return t;
    }
};

// Inclusive or exclusive scan of one row (a uint4 per lane, 128 consecutive ints) after
// `base`; returns the row's results and adds the row's total to `base`.
template <bool kExclusive>
__device__ __forceinline__ uint4 scan_row(uint4 v, unsigned& base, int lane) {
    const unsigned a = v.x, b = a + v.y, c = b + v.z, d = c + v.w;
    unsigned inc = d;
#pragma unroll
    for (int s = 1; s < 32; s <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, inc, s);
        if (lane >= s) inc += y;
    }
    const unsigned before = base + inc - d;
    base += __shfl_sync(0xffffffffu, inc, 31);
    return kExclusive ? make_uint4(before, before + a, before + b, before + c)
                      : make_uint4(before + a, before + b, before + c, before + d);
}

// The 4 ints from element e on, from global memory with bounds (0 past n: the partial tile).
__device__ __forceinline__ uint4 load_row_bounded(const unsigned* in, std::size_t n, std::size_t e) {
    return make_uint4(e < n ? in[e] : 0u, e + 1 < n ? in[e + 1] : 0u, e + 2 < n ? in[e + 2] : 0u,
                      e + 3 < n ? in[e + 3] : 0u);
}
__device__ __forceinline__ void store_row_bounded(unsigned* out, std::size_t n, std::size_t e, uint4 v) {
    if (e < n) out[e] = v.x;
    if (e + 1 < n) out[e + 1] = v.y;
    if (e + 2 < n) out[e + 2] = v.z;
    if (e + 3 < n) out[e + 3] = v.w;
}

// One CTA of the scan with policy P (scan_policy::LookaheadPolicy, or an experiment's shape
// with the same constants): its warp roles (producer, look_ahead, reduce, scan) and their
// per-tile steps. The CTA's k-th tile sits in stage k % kStages, in the phase (k / kStages) & 1.
template <class P>
struct Agent {
    static constexpr int kTile = P::kTile, kStages = P::kStages;
    static constexpr int kReduceWarps = P::kReduceWarps, kScanWarps = P::kScanWarps;
    static constexpr int kLookaheadWarps = P::kLookaheadWarps;
    static constexpr int kSeg = kTile / kScanWarps;  // ints per scan warp
    static constexpr int kRows = kSeg / 128;         // rows of 128 ints (a uint4 per lane) per segment
    static constexpr unsigned kBytes = kTile * sizeof(unsigned);
    static constexpr int kFirstReduce = 1 + kLookaheadWarps, kFirstScan = kFirstReduce + kReduceWarps;
    static_assert(kSeg % 128 == 0 && kRows >= 1, "a segment is whole rows of 128 ints");
    static_assert(kScanWarps % kReduceWarps == 0, "each reduce warp sums kScanWarps / kReduceWarps segments");
    static_assert(kStages >= 2 && kLookaheadWarps >= 1 && kLookaheadWarps <= kStages, "stages, look-ahead warps");
    static_assert(P::kThreads == (kFirstScan + kScanWarps) * 32, "the producer warp and the role warps");

    // The CTA's shared memory besides the stages (dynamic: kStages x kTile ints). full: the
    // producer's arrive + the copy's bytes; empty: one arrive per reading warp; reduced: one
    // per reduce warp (segment totals written); prefixed: a look-ahead warp's lane 0.
    struct Shared {
        unsigned long long *full, *empty, *reduced, *prefixed;
        unsigned* tile;
        unsigned (*seg)[kScanWarps];
        unsigned* prefix;
    };
    // Where they are: separate arrays (declared here, one set per kernel that uses the agent).
    static __device__ Shared shared() {
        __shared__ __align__(8) unsigned long long s_full[kStages], s_empty[kStages], s_reduced[kStages],
            s_prefixed[kStages];
        __shared__ unsigned s_tile[kStages];
        __shared__ unsigned s_seg[kStages][kScanWarps];
        __shared__ unsigned s_prefix[kStages];
        return Shared{s_full, s_empty, s_reduced, s_prefixed, s_tile, s_seg, s_prefix};
    }
    // A look-ahead warp's previous tile and its exclusive prefix, once it has had a tile.
    struct Chain {
        bool any = false;
        unsigned tile = 0, prefix = 0;
    };

    Shared s;
    unsigned* stages;
    const Params& p;
    TileState tiles;
    int lane;
    unsigned num_tiles;

    __device__ Agent(unsigned* stage_memory, const Params& params)
        : s(shared()),
          stages(stage_memory),
          p(params),
          tiles(params.desc, params.epoch),
          lane(threadIdx.x & 31),
          num_tiles(params.num_tiles) {}

    // Thread 0, before the CTA's first barrier.
    __device__ void init_barriers() {
        for (int st = 0; st < kStages; ++st) {
            bulk::init(&s.full[st], 1);
            bulk::init(&s.empty[st], kReduceWarps + kScanWarps);
            bulk::init(&s.reduced[st], kReduceWarps);
            bulk::init(&s.prefixed[st], 1);
        }
        bulk::fence_init();
    }

    // ------------------------------------------------------------------ the roles (the program's loops)
    template <bool kExclusive>
    __device__ void run(int warp) {
        if (warp == 0) producer();
        else if (warp < kFirstReduce) look_ahead(warp - 1);
        else if (warp < kFirstScan) reduce(warp - kFirstReduce);
        else scan<kExclusive>(warp - kFirstScan);
    }

    // Lane 0: every tile drawn; after the first tile id past the end, kLookaheadWarps - 1 more,
    // so that every look-ahead warp sees one.
    __device__ void producer() {
        if (lane != 0) return;
        Draws<P::kDraws> draws(p.counter);
        int ends = 0;
        for (unsigned k = 0;; ++k) {
            const unsigned t = draws.next(num_tiles);
            wait_free(k);
            fill(k, t);
            if (past_end(t) && ++ends == kLookaheadWarps) break;
        }
        finish_drawing();
    }

    // Look-ahead warp j: the CTA's tiles j, j + kLookaheadWarps, ...
    __device__ void look_ahead(int j) {
        Chain chain;
        for (unsigned k = static_cast<unsigned>(j);; k += kLookaheadWarps) {
            const unsigned t = landed(k);
            if (past_end(t)) break;
            prefix_tile(k, t, chain);
        }
    }

    __device__ void reduce(int r) {
        for (unsigned k = 0;; ++k) {
            const unsigned t = landed(k);
            if (past_end(t)) break;
            publish_aggregate(k, t, r, reduce_tile(k, t, r));
        }
    }

    template <bool kExclusive>
    __device__ void scan(int w) {
        for (unsigned k = 0;; ++k) {
            const unsigned t = landed(k);
            if (past_end(t)) break;
            scan_tile<kExclusive>(k, t, w);
        }
    }

    // ------------------------------------------------------------------ per-tile steps
    static __device__ int stage(unsigned k) { return static_cast<int>(k % kStages); }
    static __device__ unsigned phase(unsigned k) { return (k / kStages) & 1u; }
    __device__ bool past_end(unsigned t) const { return t >= num_tiles; }
    __device__ bool is_full(unsigned t) const { return (static_cast<std::size_t>(t) + 1) * kTile <= p.n; }
    __device__ std::size_t segment_start(unsigned t, int w) const {
        return static_cast<std::size_t>(t) * kTile + static_cast<std::size_t>(w) * kSeg;
    }
    __device__ uint4* stage_segment(unsigned k, int w) const {
        return reinterpret_cast<uint4*>(stages + stage(k) * kTile) + w * (kSeg / 4);
    }

    // Every reader: waits until the CTA's k-th tile has landed (or was signalled); its id.
    __device__ unsigned landed(unsigned k) {
        bulk::wait(&s.full[stage(k)], phase(k));
        return s.tile[stage(k)];
    }

    // Producer: waits until the stage of the CTA's k-th tile is free (its previous use is over).
    __device__ void wait_free(unsigned k) { bulk::wait(&s.empty[stage(k)], phase(k) ^ 1u); }
    // Producer: tile t into that stage, a full tile by the copy engine; the partial tile or an
    // id past the end only signalled.
    __device__ void fill(unsigned k, unsigned t) {
        const int st = stage(k);
        s.tile[st] = t;
        if (!past_end(t) && is_full(t))
            bulk::load(stages + st * kTile, p.in + static_cast<std::size_t>(t) * kTile, kBytes, &s.full[st]);
        else
            bulk::arrive(&s.full[st]);
    }
    // Producer, after its last draw: every draw of this CTA is done before it is counted (the
    // fence orders the draws still in flight before the count); the last CTA counted resets
    // both words for the next launch.
    __device__ void finish_drawing() {
        __threadfence();
        if (atomicAdd(p.counter + 1, 1u) == gridDim.x - 1) {
            atomicExch(p.counter, 0u);
            atomicExch(p.counter + 1, 0u);
        }
    }

    // Look-ahead: prefix(t) = prefix(previous tile) + aggregates of the tiles from the previous
    // tile up to t - 1 (the aggregates of tiles 0 .. t - 1 for the warp's first tile), into the
    // stage's prefix; `rounds`: TileState::sum's.
    __device__ void prefix_tile(unsigned k, unsigned t, Chain& chain, unsigned* rounds = nullptr) {
        const unsigned prefix = tiles.template sum<P::kDescsPerLane>(chain.any ? chain.tile : 0u, t,
                                                                     chain.any ? chain.prefix : 0u, lane, rounds);
        if (lane == 0) {
            s.prefix[stage(k)] = prefix;
            bulk::arrive(&s.prefixed[stage(k)]);
        }
        chain.any = true;
        chain.tile = t;
        chain.prefix = prefix;
    }

    // Reduce warp r: the totals of its segments r, r + kReduceWarps, ... of the CTA's k-th tile
    // (tile t) into the stage's segment totals; the stage released; their sum returned.
    __device__ unsigned reduce_tile(unsigned k, unsigned t, int r) {
        const int st = stage(k);
        const bool full = is_full(t);
        const uint4* stage4 = reinterpret_cast<const uint4*>(stages + st * kTile);
        const std::size_t tile_base = static_cast<std::size_t>(t) * kTile;
        unsigned warp_sum = 0;
#pragma unroll 1
        for (int seg = r; seg < kScanWarps; seg += kReduceWarps) {
            unsigned sum = 0;
#pragma unroll
            for (int j = 0; j < kRows; ++j) {
                const int row = seg * kRows + j;
                const uint4 v = full ? stage4[row * 32 + lane]
                                     : load_row_bounded(p.in, p.n, tile_base + (row * 32 + lane) * 4);
                sum += v.x + v.y + v.z + v.w;
            }
            sum = __reduce_add_sync(0xffffffffu, sum);
            if (lane == 0) s.seg[st][seg] = sum;
            warp_sum += sum;
        }
        bulk::release_stage();  // this warp's reads of the stage, before the copy engine's refill
        __syncwarp();
        if (lane == 0) {
            bulk::arrive(&s.empty[st]);
            bulk::arrive(&s.reduced[st]);
        }
        return warp_sum;
    }
    // The tile's aggregate: reduce warp r's sum where it is the only one, else all reduce warps'
    // (a named barrier among them only; the segment totals are rewritten only after the scan
    // warps have read them and released the stage), published by reduce warp 0.
    __device__ void publish_aggregate(unsigned k, unsigned t, int r, unsigned warp_sum) {
        if (kReduceWarps > 1) {
            asm volatile("bar.sync 1, %0;" ::"n"(kReduceWarps * 32) : "memory");
            if (r == 0 && lane == 0) {
                unsigned agg = 0;
#pragma unroll
                for (int seg = 0; seg < kScanWarps; ++seg) agg += s.seg[stage(k)][seg];
                tiles.publish(t, agg);
            }
        } else if (lane == 0) {
            tiles.publish(t, warp_sum);
        }
    }

    // Scan warp w: its segment of the CTA's k-th tile (tile t), scanned and stored.
    template <bool kExclusive>
    __device__ void scan_tile(unsigned k, unsigned t, int w) {
        const bool full = is_full(t);
        wait_reduced(k);
        wait_prefixed(k);
        unsigned base = segment_base(k, w);
        const std::size_t start = segment_start(t, w);
        if (full) {
            uint4 v[kRows];
            load_segment(k, w, v);
            scan_segment<kExclusive>(v, base);
            store_segment(start, v);
            release(k);
        } else {
            scan_partial_segment<kExclusive>(k, start, base);
        }
    }
    __device__ void wait_reduced(unsigned k) { bulk::wait(&s.reduced[stage(k)], phase(k)); }
    __device__ void wait_prefixed(unsigned k) { bulk::wait(&s.prefixed[stage(k)], phase(k)); }
    // The sum of everything before segment w of the CTA's k-th tile (after both waits).
    __device__ unsigned segment_base(unsigned k, int w) const {
        unsigned base = s.prefix[stage(k)];
#pragma unroll
        for (int seg = 0; seg < kScanWarps; ++seg)
            if (seg < w) base += s.seg[stage(k)][seg];
        return base;
    }
    __device__ void load_segment(unsigned k, int w, uint4 (&v)[kRows]) const {
        const uint4* stage4 = stage_segment(k, w);
#pragma unroll
        for (int j = 0; j < kRows; ++j) v[j] = stage4[j * 32 + lane];
    }
    template <bool kExclusive>
    __device__ void scan_segment(uint4 (&v)[kRows], unsigned& base) const {
#pragma unroll
        for (int j = 0; j < kRows; ++j) v[j] = scan_row<kExclusive>(v[j], base, lane);
    }
    // The segment starting at element `start` of the output, by 16-byte stores from registers.
    __device__ void store_segment(std::size_t start, const uint4 (&v)[kRows]) const {
        uint4* out4 = reinterpret_cast<uint4*>(p.out + start);
#pragma unroll
        for (int j = 0; j < kRows; ++j) out4[j * 32 + lane] = v[j];
    }
    // This warp is done with the stage: its reads ordered before the refill, then one arrive.
    __device__ void release(unsigned k) {
        bulk::release_stage();
        __syncwarp();
        if (lane == 0) bulk::arrive(&s.empty[stage(k)]);
    }
    // The segment starting at element `start` of the partial last tile: from and to global
    // memory with bounds; the stage was not read.
    template <bool kExclusive>
    __device__ void scan_partial_segment(unsigned k, std::size_t start, unsigned base) {
#pragma unroll 1
        for (int j = 0; j < kRows; ++j) {
            const std::size_t e = start + static_cast<std::size_t>(j * 32 + lane) * 4;
            store_row_bounded(p.out, p.n, e, scan_row<kExclusive>(load_row_bounded(p.in, p.n, e), base, lane));
        }
        __syncwarp();
        if (lane == 0) bulk::arrive(&s.empty[stage(k)]);
    }
};

#endif

// The program's kernel: one CTA of scan_policy::LookaheadPolicy's shape per resident slot.
template <bool kExclusive>
__global__ void __launch_bounds__(scan_policy::LookaheadPolicy::kThreads, 1) ws_scan_kernel(Params p) {
    static_assert(scan_policy::LookaheadPolicy::kStore == 0 && scan_policy::LookaheadPolicy::kSched == 0,
                  "the kernel implements stores from registers and every tile drawn");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = Agent<scan_policy::LookaheadPolicy>;
    extern __shared__ __align__(128) unsigned s_stage[];  // kStages x kTile ints
    A agent(s_stage, p);
    if (threadIdx.x == 0) agent.init_barriers();
    __syncthreads();
    agent.run<kExclusive>(static_cast<int>(threadIdx.x >> 5));
#endif
}

}  // namespace ws
