// The variants of the warp-specialised scan that experiments/ws_scan.cu times: the program's
// per-tile steps (ws::Agent, ws_scan.cuh) in loops of the lab's own, with the knobs the program
// does not have:
//   shape    any tile, stages, reduce, scan and look-ahead warps, descriptors per lane, draws
//            in flight (Shape below; the program's is scan_policy::LookaheadPolicy's, Product);
//   store 1  the scan warps write their results back into the stage and one bulk copy per warp
//            stores them (cp.async.bulk shared::cta -> global; the stage freed once the copy
//            has read it) instead of 16-byte stores from registers (store 0, the program's);
//   sched 1  each CTA's first kStages tiles fixed (blockIdx.x + k gridDim.x), the rest drawn,
//            instead of every tile drawn (sched 0, the program's). Tile c + k G is then waited
//            for by others before CTA c has drawn anything, so every CTA of the grid must be
//            resident at once, which the occupancy API's grid gives when nothing else runs on
//            the GPU (ws_scan.cuh's forward-progress argument needs sched 0);
//   kCopy    the same pipeline without the scan (no look-ahead; the scan warps store the tile
//            unchanged): its ceiling;
//   kRamp    (0: off) while the CTA fills its stages the first time, at most kRamp of its
//            copies in flight (stage k's copy waits for stage k - kRamp's to land), so that the
//            first tiles, whose prefixes every later tile needs, are not slowed by the copies of
//            the stages behind them;
//   kTrace   the TraceWord words below written to Params::trace: the launch's timeline.
// Where a role has none of its knobs set, the kernel runs the program's own loop for it.
#pragma once

#include <cstddef>
#include <string>

#include "gpu_clock.cuh"
#include "scan_policy.h"
#include "ws_scan.cuh"

namespace ws_lab {

using scan_policy::LookaheadPolicy;

// A variant's shape, under the names ws::Agent reads (LookaheadPolicy's); descriptors per lane
// and draws in flight the program's unless given.
template <int TILE, int S, int R, int W, int ST, int D, int LW, int LA = LookaheadPolicy::kDescsPerLane,
          int DRAWS = LookaheadPolicy::kDraws>
struct Shape {
    static constexpr int kTile = TILE, kStages = S, kReduceWarps = R, kScanWarps = W, kStore = ST, kSched = D;
    static constexpr int kLookaheadWarps = LW, kDescsPerLane = LA, kDraws = DRAWS;
    static constexpr int kThreads = (1 + LW + R + W) * 32;
    static constexpr int kSmemBytes = S * TILE * static_cast<int>(sizeof(unsigned));
};

// The program's shape, from its policy.
using Product = Shape<LookaheadPolicy::kTile, LookaheadPolicy::kStages, LookaheadPolicy::kReduceWarps,
                      LookaheadPolicy::kScanWarps, LookaheadPolicy::kStore, LookaheadPolicy::kSched,
                      LookaheadPolicy::kLookaheadWarps, LookaheadPolicy::kDescsPerLane, LookaheadPolicy::kDraws>;

template <class A, class B>
constexpr bool same_shape() {
    return A::kTile == B::kTile && A::kStages == B::kStages && A::kReduceWarps == B::kReduceWarps &&
           A::kScanWarps == B::kScanWarps && A::kStore == B::kStore && A::kSched == B::kSched &&
           A::kLookaheadWarps == B::kLookaheadWarps && A::kDescsPerLane == B::kDescsPerLane &&
           A::kDraws == B::kDraws && A::kThreads == B::kThreads && A::kSmemBytes == B::kSmemBytes;
}
static_assert(same_shape<Product, LookaheadPolicy>(), "the lab's shape of the program is the program's policy");

// A shape in a variant's name: _t<tile>_s<stages>_r<reduce warps>_w<scan warps>_st<store>
// _d<sched>_l<look-ahead warps>, then _la<descriptors per lane> where not the program's.
template <class S>
std::string shape_name() {
    std::string name = "_t" + std::to_string(S::kTile) + "_s" + std::to_string(S::kStages) + "_r" +
                       std::to_string(S::kReduceWarps) + "_w" + std::to_string(S::kScanWarps) + "_st" +
                       std::to_string(S::kStore) + "_d" + std::to_string(S::kSched) + "_l" +
                       std::to_string(S::kLookaheadWarps);
    if (S::kDescsPerLane != LookaheadPolicy::kDescsPerLane) name += "_la" + std::to_string(S::kDescsPerLane);
    return name;
}

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
// The sums stay in registers until the end.
// After the grid's words (at trace + kTraceWords * gridDim.x), per tile t < kTracedTiles: the
// %globaltimer when reduce warp 0 saw it land and when its aggregate was published (two words),
// so that the host can tell when every predecessor of a CTA's first tile was published.
constexpr unsigned kTracedTiles = 4096;
enum TraceWord { kEnterNs, kSm, kFirstLandedNs, kFirstStoredNs, kLastStoredNs, kTiles, kWaitDataCycles,
                 kWaitReduceCycles, kWaitPrefixCycles, kWorkCycles, kEnterCycle, kLastStoredCycle, kFirstTile,
                 kLookStartNs, kLookDoneNs, kLookFirstRounds, kLookRounds, kLookTiles, kTraceWords };

struct Params {
    ws::Params p;
    unsigned long long* trace;  // kTrace only: kTraceWords per CTA, then two words per traced tile
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

using gpu_clock::global_ns;

// Store 1: one thread, `bytes` of shared `src` to global `dst` by the copy engine (a bulk group).
__device__ __forceinline__ void bulk_store(void* dst, const void* src, unsigned bytes) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst),
                 "r"(bulk::smem_u32(src)), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
// The issuing thread: all but the newest `N` bulk groups have finished reading shared memory.
template <int N>
__device__ __forceinline__ void bulk_wait_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}
__device__ __forceinline__ void bulk_wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

// Scan warp 0's lane 0 in a traced launch (`on`; elsewhere every call does nothing): the cycle
// its previous tile was stored (at first the CTA's start), this tile landed, reduced, ready.
struct ScanTracer {
    bool on;
    unsigned long long* trace;
    unsigned long long prev = 0, landed = 0, reduced = 0, ready = 0;
    unsigned long long data = 0, reduce = 0, prefix = 0, work = 0;
    unsigned long long landed_ns = 0, first_ns = 0, last_ns = 0;
    unsigned tiles = 0;

    __device__ ScanTracer(bool tracer, unsigned long long* words) : on(tracer), trace(words) {
        if (on) prev = trace[kEnterCycle];  // written by thread 0 before the CTA's first barrier
    }
    __device__ void tile_landed(unsigned k) {
        if (!on) return;
        landed = clock64();
        if (k == 0) landed_ns = global_ns();
    }
    __device__ void tile_reduced() {
        if (on) reduced = clock64();
    }
    __device__ void tile_ready(bool copy) {
        if (!on) return;
        ready = clock64();
        if (copy) reduced = ready;
    }
    __device__ void tile_stored(unsigned k) {  // this warp's part of the tile is stored (issued)
        if (!on) return;
        const unsigned long long now = clock64();
        last_ns = global_ns();
        if (k == 0) first_ns = last_ns;
        data += landed - prev;
        reduce += reduced - landed;
        prefix += ready - reduced;
        work += now - ready;
        prev = now;
        ++tiles;
    }
    __device__ void finish() const {
        if (!on) return;
        trace[kFirstLandedNs] = landed_ns;
        trace[kFirstStoredNs] = first_ns;
        trace[kLastStoredNs] = last_ns;
        trace[kTiles] = tiles;
        trace[kWaitDataCycles] = data;
        trace[kWaitReduceCycles] = reduce;
        trace[kWaitPrefixCycles] = prefix;
        trace[kWorkCycles] = work;
        trace[kLastStoredCycle] = prev;  // the CTA's start cycle when it scanned no tile
    }
};

// One CTA of a variant: the program's agent and the lab's loops around its per-tile steps.
template <class S, bool kExclusive, bool kCopy, bool kTrace, int kRamp>
struct Lab {
    using A = ws::Agent<S>;
    A& a;
    unsigned long long* all;    // the launch's words (kTrace), else null
    unsigned long long* trace;  // this CTA's

    __device__ Lab(A& agent, const Params& lp)
        : a(agent),
          all(kTrace ? lp.trace : nullptr),
          trace(kTrace ? lp.trace + kTraceWords * static_cast<std::size_t>(blockIdx.x) : nullptr) {}

    // Thread 0, first thing.
    __device__ void start_trace() const {
        if (!kTrace) return;
        trace[kEnterCycle] = clock64();
        for (int w = kFirstTile; w <= kLookTiles; ++w) trace[w] = 0;  // look-ahead warp 1 may see no tile
        trace[kEnterNs] = global_ns();
        trace[kSm] = gpu_clock::sm_id();
    }

    __device__ void run(int warp) {
        if (warp == 0) {
            if (S::kSched == 0 && kRamp == 0) a.producer();
            else producer();
        } else if (warp < A::kFirstReduce) {
            if (kCopy) return;
            if (kTrace) look_ahead(warp - 1);
            else a.look_ahead(warp - 1);
        } else if (warp < A::kFirstScan) {
            if (kTrace) reduce(warp - A::kFirstReduce);
            else a.reduce(warp - A::kFirstReduce);
        } else if (!kTrace && !kCopy && S::kStore == 0) {
            a.template scan<kExclusive>(warp - A::kFirstScan);
        } else {
            scan(warp - A::kFirstScan);
        }
    }

    // The producer with sched 1 (each CTA's first kStages tiles c + k G, then drawn ids from
    // kStages G on) or a ramped first fill.
    __device__ void producer() {
        if (a.lane != 0) return;
        const unsigned G = gridDim.x, c = blockIdx.x;
        const unsigned dyn_base = S::kSched == 1 ? S::kStages * G : 0u;
        const unsigned limit = a.num_tiles > dyn_base ? a.num_tiles - dyn_base : 0u;  // of the drawn ids
        ws::Draws<S::kDraws> draws(a.p.counter);
        int ends = 0;
        for (unsigned k = 0;; ++k) {
            const unsigned t = S::kSched == 1 && k < S::kStages ? c + k * G : dyn_base + draws.next(limit);
            a.wait_free(k);
            if (kRamp > 0 && k >= kRamp && k < S::kStages) bulk::wait(&a.s.full[k - kRamp], 0u);  // the first fill
            a.fill(k, t);
            if (a.past_end(t) && ++ends == S::kLookaheadWarps) break;
        }
        a.finish_drawing();
    }

    // The look-ahead, traced by warp 1's lane 0.
    __device__ void look_ahead(int j) {
        typename A::Chain chain;
        const bool tracer = j == 0 && a.lane == 0;
        unsigned all_rounds = 0, tiles = 0;
        for (unsigned k = static_cast<unsigned>(j);; k += S::kLookaheadWarps) {
            const unsigned t = a.landed(k);
            if (a.past_end(t)) break;
            const unsigned long long start = tracer && k == 0 ? global_ns() : 0;
            unsigned rounds = 0;
            a.prefix_tile(k, t, chain, &rounds);
            if (!tracer) continue;
            if (k == 0) {
                trace[kFirstTile] = t;
                trace[kLookStartNs] = start;
                trace[kLookDoneNs] = global_ns();
                trace[kLookFirstRounds] = rounds;
            }
            all_rounds += rounds;
            ++tiles;
        }
        if (tracer) {
            trace[kLookRounds] = all_rounds;
            trace[kLookTiles] = tiles;
        }
    }

    // The reduction, reduce warp 0's lane 0 recording when each traced tile landed and when its
    // aggregate was published.
    __device__ void reduce(int r) {
        unsigned long long* const tile_times = all + kTraceWords * static_cast<std::size_t>(gridDim.x);
        for (unsigned k = 0;; ++k) {
            const unsigned t = a.landed(k);
            if (a.past_end(t)) break;
            const bool traced = r == 0 && a.lane == 0 && t < kTracedTiles;
            if (traced) tile_times[2 * t] = global_ns();
            a.publish_aggregate(k, t, r, a.reduce_tile(k, t, r));
            if (traced) tile_times[2 * t + 1] = global_ns();
        }
    }

    // The scan warps with store 1, the copy or the trace.
    __device__ void scan(int w) {
        int pending = -1;  // store 1: the stage whose bulk store may still be reading it
        ScanTracer tr(kTrace && w == 0 && a.lane == 0, trace);
        for (unsigned k = 0;; ++k) {
            const unsigned t = a.landed(k);
            if (a.past_end(t)) break;
            tr.tile_landed(k);
            const bool full = a.is_full(t);
            unsigned base = 0;  // the sum of everything before this warp's segment
            if (!kCopy) {
                a.wait_reduced(k);
                tr.tile_reduced();
                a.wait_prefixed(k);
                base = a.segment_base(k, w);
            }
            tr.tile_ready(kCopy);
            const std::size_t start = a.segment_start(t, w);
            if (full) scan_full(k, w, start, base, pending);
            else scan_partial(k, start, base, pending);
            tr.tile_stored(k);
        }
        tr.finish();
        if (S::kStore == 1 && a.lane == 0) {
            if (pending >= 0) {
                bulk_wait_read<0>();
                bulk::arrive(&a.s.empty[pending]);
            }
            bulk_wait_all();  // the shared memory stays allocated until every bulk store is done
        }
    }

    __device__ void scan_full(unsigned k, int w, std::size_t start, unsigned base, int& pending) {
        uint4 v[A::kRows];
        a.load_segment(k, w, v);
        if (!kCopy) a.template scan_segment<kExclusive>(v, base);
        if (S::kStore == 0) {
            a.store_segment(start, v);
            a.release(k);
            return;
        }
        uint4* stage4 = a.stage_segment(k, w);
#pragma unroll
        for (int j = 0; j < A::kRows; ++j) stage4[j * 32 + a.lane] = v[j];
        bulk::release_stage();  // the writes above, before the copy engine reads them
        __syncwarp();
        if (a.lane == 0) {
            bulk_store(a.p.out + start, stage4, A::kSeg * sizeof(unsigned));
            if (pending >= 0) {
                bulk_wait_read<1>();  // the previous tile's copy has read its stage
                bulk::arrive(&a.s.empty[pending]);
            }
        }
        pending = A::stage(k);
    }

    // The partial last tile: from and to global memory with bounds.
    __device__ void scan_partial(unsigned k, std::size_t start, unsigned base, int& pending) {
#pragma unroll 1
        for (int j = 0; j < A::kRows; ++j) {
            const std::size_t e = start + static_cast<std::size_t>(j * 32 + a.lane) * 4;
            uint4 v = ws::load_row_bounded(a.p.in, a.p.n, e);
            if (!kCopy) v = ws::scan_row<kExclusive>(v, base, a.lane);
            ws::store_row_bounded(a.p.out, a.p.n, e, v);
        }
        __syncwarp();
        if (a.lane == 0) {
            if (pending >= 0) {
                bulk_wait_read<0>();
                bulk::arrive(&a.s.empty[pending]);
            }
            bulk::arrive(&a.s.empty[A::stage(k)]);
        }
        pending = -1;
    }
};

#endif

// A variant's kernel: shape S, and the lab's knobs.
template <class S, bool kExclusive, bool kCopy = false, bool kTrace = false, int kRamp = 0>
__global__ void __launch_bounds__(S::kThreads, 1) ws_variant_kernel(Params lp) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) unsigned s_stage[];  // kStages x kTile ints
    ws::Agent<S> agent(s_stage, lp.p);
    Lab<S, kExclusive, kCopy, kTrace, kRamp> lab(agent, lp);
    if (threadIdx.x == 0) {
        lab.start_trace();
        agent.init_barriers();
    }
    __syncthreads();
    lab.run(static_cast<int>(threadIdx.x >> 5));
#endif
}

}  // namespace ws_lab
