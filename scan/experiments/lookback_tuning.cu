// Tuning experiment for scan's decoupled look-back (compiled by `make experiments`; on a GPU,
// `make -C scan/experiments results/GPU/lookback_tuning.csv` runs it, through run.sh, and
// start.sh and small.sh run it with variant filters): variants of the kernel in scan_kernels.cu
// that differ in tile shape, tile-id source, spin back-off, cache hints and where the scanned
// values wait during the look-back (rounds 1-2); larger tiles, persistent blocks that load
// their next tile during the look-back, the tile structure's loads and stores alone
// (tile_copy) and the committed shape without its look-back (round 3); bulk asynchronous tile
// loads into shared-memory stages (sm_90) and a look-back that waits only for the nearest
// unfinished predecessor (round 4); the scan in registers without the shared-memory transpose,
// the committed data path alone (tile_copy_smem) and the no-look-back variant without the
// tile-id draw (round 5); a look-back warp with a window of 32 * K predecessors (round 6). Each variant is validated against the CPU (exact) before
// it is timed, and timed (median of 15, L2 flushed) alternately with CUB and with a
// device-to-device cudaMemcpy of the same bytes in the same run, two rounds.
// The kernels are parameterised copies of scan_decoupled_lookback on purpose: the committed
// kernel stays readable with the winning choices fixed, and this file records what lost.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bulk_async.cuh"
#include "common.cuh"
#include "experiment.cuh"
#include "tile_copy.cuh"

constexpr unsigned kFull = 0xffffffffu;
constexpr unsigned kA = 1u, kP = 2u;


__device__ __forceinline__ void publish(unsigned long long* d, unsigned tile, unsigned epoch, unsigned st,
                                        unsigned v) {
    const unsigned long long w = (static_cast<unsigned long long>((epoch << 2) | st) << 32) | v;
    *reinterpret_cast<volatile unsigned long long*>(d + tile) = w;
}

// The descriptor of predecessor `pred` (one lane's slot of the window); before tile 0, a P
// of value 0 (it adds nothing and ends the look-back).
__device__ __forceinline__ unsigned long long read_descriptor(const unsigned long long* d, long long pred,
                                                              unsigned epoch) {
    return pred >= 0 ? *reinterpret_cast<const volatile unsigned long long*>(d + pred)
                     : static_cast<unsigned long long>((epoch << 2) | kP) << 32;
}

// The sum of the values of lanes 0..last, in every lane.
__device__ __forceinline__ unsigned sum_through(unsigned long long w, int lane, int last) {
    unsigned part = lane <= last ? static_cast<unsigned>(w) : 0u;
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) part += __shfl_xor_sync(kFull, part, s);
    return part;
}

template <int kSleep>
__device__ unsigned look_back(const unsigned long long* d, unsigned tile, unsigned epoch, int lane) {
    unsigned prefix = 0;
    long long window = static_cast<long long>(tile) - 1;
    while (true) {
        unsigned long long w;
        while (true) {
            w = read_descriptor(d, window - lane, epoch);
            if (!__any_sync(kFull, static_cast<unsigned>(w >> 34) != epoch)) break;
#if __CUDA_ARCH__ >= 700
            if (kSleep > 0) __nanosleep(kSleep);
#endif
        }
        const unsigned pl = __ballot_sync(kFull, (static_cast<unsigned>(w >> 32) & 3u) == kP);
        prefix += sum_through(w, lane, pl != 0 ? __ffs(pl) - 1 : 31);
        if (pl != 0) return prefix;
        window -= 32;
    }
}

// The look-back of round 4: the window's lanes are used up to the first one not yet
// published (not all 32 awaited): the sum runs over the published predecessors nearest to
// the tile, up to and including the first inclusive prefix among them; without one, the
// window moves back past the published ones and polls again (sleeping only when it made no
// progress). A tile then waits only for its nearest unfinished predecessor, never for one up
// to 31 tiles further back that a busy block has drawn but not reached.
template <int kSleep>
__device__ unsigned look_back_contig(const unsigned long long* d, unsigned tile, unsigned epoch, int lane) {
    unsigned prefix = 0;
    long long window = static_cast<long long>(tile) - 1;
    while (true) {
        const unsigned long long w = read_descriptor(d, window - lane, epoch);
        const bool valid = static_cast<unsigned>(w >> 34) == epoch;
        const unsigned invalid = __ballot_sync(kFull, !valid);
        const unsigned pmask = __ballot_sync(kFull, valid && ((static_cast<unsigned>(w >> 32) & 3u) == kP));
        const int first_invalid = invalid != 0 ? __ffs(invalid) - 1 : 32;
        const unsigned usable = first_invalid == 32 ? kFull : ((1u << first_invalid) - 1u);
        const unsigned p_in = pmask & usable;
        const int last = p_in != 0 ? __ffs(p_in) - 1 : first_invalid - 1;  // -1: nothing usable yet
        prefix += sum_through(w, lane, last);
        if (p_in != 0) return prefix;
        window -= last + 1;
#if __CUDA_ARCH__ >= 700
        if (last < 0 && kSleep > 0) __nanosleep(kSleep);
#endif
    }
}

// A wider window for one warp: K descriptors a lane (slot k * 32 + lane, slot 0 the nearest
// predecessor), all K loads in flight at once, so that a tile far from any inclusive prefix
// (early in a launch whose tiles all start together: block ids at 2^20-2^22) walks back 32 * K
// tiles per round trip instead of 32, with no block barrier (a look-back by the whole block
// pays barriers every round). Waits, like look_back, for the whole window.
template <int kSleep, int K>
__device__ unsigned look_back_wide(const unsigned long long* d, unsigned tile, unsigned epoch, int lane) {
    unsigned prefix = 0;
    long long window = static_cast<long long>(tile) - 1;
    while (true) {
        unsigned long long w[K];
        while (true) {
            bool stale = false;
#pragma unroll
            for (int k = 0; k < K; ++k) {
                w[k] = read_descriptor(d, window - (k * 32 + lane), epoch);
                stale |= static_cast<unsigned>(w[k] >> 34) != epoch;
            }
            if (!__any_sync(kFull, stale)) break;
#if __CUDA_ARCH__ >= 700
            if (kSleep > 0) __nanosleep(kSleep);
#endif
        }
        // The nearest P: the first row k with one, its first lane; each lane adds its slots
        // before it, then one warp sum.
        unsigned part = 0;
        bool found = false;
#pragma unroll
        for (int k = 0; k < K; ++k) {
            if (!found) {
                const unsigned pl = __ballot_sync(kFull, (static_cast<unsigned>(w[k] >> 32) & 3u) == kP);
                const int last = pl != 0 ? __ffs(pl) - 1 : 31;
                part += lane <= last ? static_cast<unsigned>(w[k]) : 0u;
                found = pl != 0;
            }
        }
#pragma unroll
        for (int s = 16; s > 0; s >>= 1) part += __shfl_xor_sync(kFull, part, s);
        prefix += part;
        if (found) return prefix;
        window -= 32 * K;
    }
}

// Thread-serial scan of the thread's I consecutive ints of its warp's padded region (the
// blocked reading after the striped transpose): inclusive values in x, the total returned.
template <int I>
__device__ __forceinline__ unsigned thread_scan(const unsigned* ws, int lane, unsigned (&x)[I]) {
#pragma unroll
    for (int i = 0; i < I; ++i) x[i] = ws[pad(lane * I + i)];
    unsigned run = 0;
#pragma unroll
    for (int i = 0; i < I; ++i) {
        run += x[i];
        x[i] = run;
    }
    return run;
}

// The block's warp totals (s_wt, after a barrier): this warp's exclusive prefix and the tile's
// aggregate.
template <int W>
__device__ __forceinline__ void warp_offsets(const unsigned* s_wt, int warp, unsigned& wp, unsigned& agg) {
    wp = 0;
    agg = 0;
#pragma unroll
    for (int w = 0; w < W; ++w) {
        const unsigned t = s_wt[w];
        if (w < warp) wp += t;
        agg += t;
    }
}

// Warp 0 of a tile: publish the aggregate, look back (kLbMode 0: the whole window of 32
// awaited; 1: look_back_contig; K >= 2: look_back_wide, a window of 32 * K), publish the
// inclusive prefix; returns the tile's exclusive prefix (in every lane).
template <int kSleep, int kLbMode>
__device__ __forceinline__ unsigned tile_prefix(unsigned long long* desc, unsigned tile, unsigned epoch, int lane,
                                                unsigned agg) {
    if (tile == 0) {
        if (lane == 0) publish(desc, 0, epoch, kP, agg);
        return 0;
    }
    if (lane == 0) publish(desc, tile, epoch, kA, agg);
    const unsigned prefix = kLbMode == 1   ? look_back_contig<kSleep>(desc, tile, epoch, lane)
                            : kLbMode >= 2 ? look_back_wide<kSleep, (kLbMode >= 2 ? kLbMode : 2)>(desc, tile, epoch, lane)
                                           : look_back<kSleep>(desc, tile, epoch, lane);
    if (lane == 0) publish(desc, tile, epoch, kP, prefix + agg);
    return prefix;
}

// The minimum blocks per SM a variant asks __launch_bounds__ for, capped by what the
// architecture being compiled can hold (threads per SM), so that every variant builds
// warning-free for every architecture `make experiments` targets; on the GPU it is tuned
// for, the cap does not bite.
constexpr int threads_per_sm(int arch) {
    return arch == 750 ? 1024 : (((arch >= 860 && arch <= 890) || arch >= 1200) ? 1536 : 2048);
}
#if defined(__CUDA_ARCH__)
constexpr int kArch = __CUDA_ARCH__;
#else
constexpr int kArch = 0;
#endif
constexpr int capped_min_blocks(int threads, int min_blocks) {
    return min_blocks * threads <= threads_per_sm(kArch) ? min_blocks : threads_per_sm(kArch) / threads;
}

// kLocal: 1 = no look-back (each tile scanned on its own, prefix 0): what the look-back costs,
// by difference; checked against a CPU scan that restarts at every tile.
// kTileId: 0 = atomic counter, 1 = blockIdx.x, 2 = atomic counter with a speculative load of
// tile blockIdx.x during the draw. kSleep: ns of __nanosleep between polls (0: none).
// kHint: 0 = plain, 1 = __ldcs/__stcs (evict-first). kStash: 1 = scanned values wait in shared
// memory during the look-back, 0 = in registers.
template <int T, int I, int MINB, int kTileId, int kSleep, int kHint, int kStash, bool kLocal = false,
          int kLbMode = 0>
__global__ void __launch_bounds__(T, capped_min_blocks(T, MINB))
    lb_kernel(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n, unsigned long long* desc,
              unsigned* counter, unsigned num_tiles, unsigned epoch) {
    constexpr int W = T / 32, WI = 32 * I, WS = WI + WI / 32, TILE = T * I;
    static_assert(I % 4 == 0, "uint4 loads");
    extern __shared__ unsigned s_items[];  // W * WS words (dynamic: tiles beyond 48 KiB)
    __shared__ unsigned s_wt[W];
    __shared__ unsigned s_tile, s_prefix;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned* ws = s_items + warp * WS;
    // The tile t, striped (coalesced) from global into the warp's shared region.
    auto load_tile = [&](unsigned t) {
        const std::size_t wbase = static_cast<std::size_t>(t) * TILE + static_cast<std::size_t>(warp) * WI;
        const bool full = (static_cast<std::size_t>(t) + 1) * TILE <= n;
        scan_tile::load_warp_items<I, kHint != 0>(in, n, wbase, full, lane, ws);
    };
    unsigned tile;
    if (kTileId == 1) {
        tile = blockIdx.x;
        load_tile(tile);
    } else {
        // 0: the drawn id first, then the loads. 2: speculative: the tile blockIdx.x is loaded
        // while the draw is in flight and kept when the draw gives that tile (blocks mostly
        // start in blockIdx order), else reloaded: the tile used is always the drawn one, so
        // progress holds as for 0, and the atomic's round trip overlaps the loads.
        unsigned drawn = 0;
        if (threadIdx.x == 0) {
            drawn = atomicAdd(counter, 1u);
            if (drawn == num_tiles - 1) atomicExch(counter, 0u);
        }
        if (kTileId == 2) load_tile(blockIdx.x);
        if (threadIdx.x == 0) s_tile = drawn;
        __syncthreads();
        tile = s_tile;
        if (kTileId == 0 || tile != blockIdx.x) {
            __syncwarp();
            load_tile(tile);
        }
    }
    const std::size_t wbase = static_cast<std::size_t>(tile) * TILE + static_cast<std::size_t>(warp) * WI;
    const bool full = (static_cast<std::size_t>(tile) + 1) * TILE <= n;
    __syncwarp();
    unsigned x[I];
    const unsigned run = thread_scan<I>(ws, lane, x);
    const unsigned inc = warp_inclusive(run, lane);
    const unsigned tp = inc - run;
    if (kStash) {
        // The warp-local inclusive values go back to shared memory now: no 16 live registers
        // across the look-back, and the store adds one warp-uniform offset.
#pragma unroll
        for (int i = 0; i < I; ++i) ws[pad(lane * I + i)] = x[i] + tp;
    }
    if (lane == 31) s_wt[warp] = inc;
    __syncthreads();
    unsigned wp, agg;
    warp_offsets<W>(s_wt, warp, wp, agg);
    if (warp == 0 && !kLocal) {
        const unsigned prefix = tile_prefix<kSleep, kLbMode>(desc, tile, epoch, lane, agg);
        if (lane == 0) s_prefix = prefix;
    }
    if (kLocal && threadIdx.x == 0) s_prefix = 0;
    __syncthreads();
    const unsigned off = kStash ? s_prefix + wp : s_prefix + wp + tp;
    if (!kStash) {
#pragma unroll
        for (int i = 0; i < I; ++i) ws[pad(lane * I + i)] = x[i] + off;
    }
    __syncwarp();
    if (full) {
        uint4* out4 = reinterpret_cast<uint4*>(out + wbase);
#pragma unroll
        for (int j = 0; j < I / 4; ++j) {
            const int e = (j * 32 + lane) * 4;
            const uint4 v = kStash ? make_uint4(ws[pad(e)] + off, ws[pad(e + 1)] + off, ws[pad(e + 2)] + off, ws[pad(e + 3)] + off)
                                   : make_uint4(ws[pad(e)], ws[pad(e + 1)], ws[pad(e + 2)], ws[pad(e + 3)]);
            if (kHint)
                __stcs(out4 + j * 32 + lane, v);
            else
                out4[j * 32 + lane] = v;
        }
    } else {
#pragma unroll
        for (int j = 0; j < I; ++j) {
            const int e = j * 32 + lane;
            const std::size_t i = wbase + e;
            if (i < n) out[i] = kStash ? ws[pad(e)] + off : ws[pad(e)];
        }
    }
}

// Round 3: a persistent, pipelined variant. The grid is what is resident (occupancy API x
// SMs); each block draws tile after tile from the counter, in increasing order, and issues
// the global loads of its NEXT tile (into registers) before it looks back for the current
// one, so that a block waiting on its predecessors still has bytes in flight, and no block
// launch separates two tiles. Progress: a block waits only on tiles drawn before its
// current one, each of them held by a running block that waits only on tiles before it, so
// the smallest unpublished tile always progresses. counter[0] hands out tiles; counter[1]
// counts the blocks that drew past the end: the last of them resets both for the next launch.
// Full tiles only (the last, partial tile is loaded into shared memory directly, with bounds).
template <int I>
__device__ __forceinline__ void load_striped(const unsigned* __restrict__ in, std::size_t wbase, int lane,
                                             uint4 (&r)[I / 4]) {
    const uint4* in4 = reinterpret_cast<const uint4*>(in + wbase);
#pragma unroll
    for (int j = 0; j < I / 4; ++j) r[j] = in4[j * 32 + lane];
}

template <int T, int I, int MINB, int kSleep>
__global__ void __launch_bounds__(T, capped_min_blocks(T, MINB))
    lb_pipe(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n, unsigned long long* desc,
            unsigned* counter, unsigned num_tiles, unsigned epoch) {
    constexpr int W = T / 32, WI = 32 * I, WS = WI + WI / 32, TILE = T * I;
    static_assert(I % 4 == 0, "uint4 loads");
    __shared__ unsigned s_items[W * WS];
    __shared__ unsigned s_wt[W];
    __shared__ unsigned s_next, s_prefix;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned* ws = s_items + warp * WS;
    if (threadIdx.x == 0) s_next = atomicAdd(counter, 1u);
    __syncthreads();
    unsigned tile = s_next;
    uint4 r[I / 4];
    auto wbase_of = [&](unsigned t) {
        return static_cast<std::size_t>(t) * TILE + static_cast<std::size_t>(warp) * WI;
    };
    auto full_of = [&](unsigned t) { return (static_cast<std::size_t>(t) + 1) * TILE <= n; };
    if (tile < num_tiles && full_of(tile)) load_striped<I>(in, wbase_of(tile), lane, r);
    while (tile < num_tiles) {
        // The next id is drawn now and used after the first barrier: its latency is hidden.
        unsigned drawn = 0;
        if (threadIdx.x == 0) drawn = atomicAdd(counter, 1u);
        if (full_of(tile)) {
#pragma unroll
            for (int j = 0; j < I / 4; ++j) {
                const int e = (j * 32 + lane) * 4;
                ws[pad(e)] = r[j].x;
                ws[pad(e + 1)] = r[j].y;
                ws[pad(e + 2)] = r[j].z;
                ws[pad(e + 3)] = r[j].w;
            }
        } else {
            const std::size_t wbase = wbase_of(tile);
            for (int e = lane; e < WI; e += 32) ws[pad(e)] = wbase + e < n ? in[wbase + e] : 0u;
        }
        __syncwarp();
        {
            unsigned x[I];
            const unsigned run = thread_scan<I>(ws, lane, x);
            const unsigned inc = warp_inclusive(run, lane);
            const unsigned tp = inc - run;
#pragma unroll
            for (int i = 0; i < I; ++i) ws[pad(lane * I + i)] = x[i] + tp;
            if (lane == 31) s_wt[warp] = inc;
        }
        if (threadIdx.x == 0) s_next = drawn;
        __syncthreads();
        unsigned wp, agg;
        warp_offsets<W>(s_wt, warp, wp, agg);
        const unsigned next = s_next;
        // The next tile's bytes are in flight during the look-back and the store below.
        // (r is written on every path, so that it is dead during the scan above.)
        if (next < num_tiles && full_of(next)) {
            load_striped<I>(in, wbase_of(next), lane, r);
        } else {
#pragma unroll
            for (int j = 0; j < I / 4; ++j) r[j] = make_uint4(0u, 0u, 0u, 0u);
        }
        if (warp == 0) {
            const unsigned prefix = tile_prefix<kSleep, 0>(desc, tile, epoch, lane, agg);
            if (lane == 0) s_prefix = prefix;
        }
        __syncthreads();
        const unsigned off = s_prefix + wp;
        const std::size_t wbase = wbase_of(tile);
        if (full_of(tile)) {
            uint4* out4 = reinterpret_cast<uint4*>(out + wbase);
#pragma unroll
            for (int j = 0; j < I / 4; ++j) {
                const int e = (j * 32 + lane) * 4;
                out4[j * 32 + lane] =
                    make_uint4(ws[pad(e)] + off, ws[pad(e + 1)] + off, ws[pad(e + 2)] + off, ws[pad(e + 3)] + off);
            }
        } else {
#pragma unroll
            for (int j = 0; j < I; ++j) {
                const int e = j * 32 + lane;
                const std::size_t i = wbase + e;
                if (i < n) out[i] = ws[pad(e)] + off;
            }
        }
        __syncthreads();  // the tile's shared memory is free, s_next and s_prefix were read
        tile = next;
    }
    if (threadIdx.x == 0 && atomicAdd(counter + 1, 1u) == gridDim.x - 1) {
        atomicExch(counter, 0u);
        atomicExch(counter + 1, 0u);
    }
}

// After the barrier on the warp totals: this warp's offset in the whole array (the tile's
// prefix from warp 0's look-back plus the warps before it in the tile), ending with the
// barrier that publishes the prefix to the block.
template <int W, int kLbMode>
__device__ __forceinline__ unsigned warp_offset(const unsigned* s_wt, unsigned& s_prefix, unsigned long long* desc,
                                                unsigned tile, unsigned epoch, int warp, int lane) {
    unsigned wp, agg;
    warp_offsets<W>(s_wt, warp, wp, agg);
    if (warp == 0) {
        const unsigned prefix = tile_prefix<100, kLbMode>(desc, tile, epoch, lane, agg);
        if (lane == 0) s_prefix = prefix;
    }
    __syncthreads();
    return s_prefix + wp;
}

// Rows of a warp's segment in registers (row j: 128 consecutive ints, a uint4 per lane), as
// the register-resident variants (bulk, striped) hold them.
// A tile's rows: from `src` (global or shared memory, the warp's first uint4) for a full
// tile, else from `in` with bounds (the partial tile; missing ints are 0).
template <int ROWS>
__device__ __forceinline__ void load_rows(const uint4* src, bool full, const unsigned* in, std::size_t n,
                                          std::size_t base, int lane, uint4 (&v)[ROWS]) {
    if (full) {
#pragma unroll
        for (int j = 0; j < ROWS; ++j) v[j] = src[j * 32 + lane];
        return;
    }
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
        const std::size_t e = base + static_cast<std::size_t>(j * 32 + lane) * 4;
        v[j] = make_uint4(e < n ? in[e] : 0u, e + 1 < n ? in[e + 1] : 0u, e + 2 < n ? in[e + 2] : 0u,
                          e + 3 < n ? in[e + 3] : 0u);
    }
}

// Inclusive scan of the rows in place (each lane its 4 ints, the warp the lanes' totals, a
// carry from row to row); returns the warp's total.
template <int ROWS>
__device__ __forceinline__ unsigned scan_rows(uint4 (&v)[ROWS], int lane) {
    unsigned carry = 0;
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
        const unsigned a = v[j].x, b = a + v[j].y, c = b + v[j].z, d = c + v[j].w;
        const unsigned inc = warp_inclusive(d, lane);
        const unsigned add = carry + inc - d;
        v[j] = make_uint4(add + a, add + b, add + c, add + d);
        carry += __shfl_sync(kFull, inc, 31);
    }
    return carry;
}

// The rows plus `off` to global: uint4 stores for a full tile, bounded ones for the partial.
template <int ROWS>
__device__ __forceinline__ void store_rows(unsigned* out, std::size_t n, std::size_t base, bool full, int lane,
                                           const uint4 (&v)[ROWS], unsigned off) {
    if (full) {
        uint4* out4 = reinterpret_cast<uint4*>(out + base);
#pragma unroll
        for (int j = 0; j < ROWS; ++j)
            out4[j * 32 + lane] = make_uint4(v[j].x + off, v[j].y + off, v[j].z + off, v[j].w + off);
    } else {
#pragma unroll
        for (int j = 0; j < ROWS; ++j) {
            const std::size_t e = base + static_cast<std::size_t>(j * 32 + lane) * 4;
            if (e < n) out[e] = v[j].x + off;
            if (e + 1 < n) out[e + 1] = v[j].y + off;
            if (e + 2 < n) out[e + 2] = v[j].z + off;
            if (e + 3 < n) out[e + 3] = v[j].w + off;
        }
    }
}

// Round 4 (sm_90): bulk asynchronous tile loads. Persistent blocks of 256 threads; each keeps
// S tiles of 32 x 256 ints in flight in shared memory, loaded by the copy engine
// (cp.async.bulk, completing on one mbarrier per stage), so that the bytes in flight no longer
// depend on what the threads are doing. No transpose: each lane scans the 4 consecutive ints
// of a uint4 and the warp scans the lanes' totals by shuffles, row after row (8 rows of 128
// ints per warp), keeping its 32 results in registers; stores are plain coalesced uint4 stores
// from registers, so a stage is free as soon as every thread has read it (first barrier) and
// is refilled at once with the tile S ahead. Tiles are drawn from the counter in increasing
// order, so progress holds as in the other variants. The last, partial tile is read and
// written with bounds by the threads (no bulk copy).
template <int S, int I, int kLbMode>
__global__ void __launch_bounds__(256) lb_bulk(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                               std::size_t n, unsigned long long* desc, unsigned* counter,
                                               unsigned num_tiles, unsigned epoch) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int T = 256, W = T / 32, TILE = T * I, ROWS = I / 4;
    constexpr unsigned kBytes = TILE * sizeof(unsigned);
    extern __shared__ __align__(128) unsigned s_stage[];  // S x TILE ints
    __shared__ __align__(8) unsigned long long s_bar[S];
    __shared__ unsigned s_stage_tile[S];
    __shared__ unsigned s_wt[W];
    __shared__ unsigned s_prefix;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    auto full = [&](unsigned t) { return (static_cast<std::size_t>(t) + 1) * TILE <= n; };
    // Thread 0: the tile t into stage s (a bulk copy for a full tile; the partial one and the
    // end, t >= num_tiles, are only recorded).
    auto fill = [&](int st, unsigned t) {
        s_stage_tile[st] = t;
        if (t < num_tiles && full(t))
            bulk::load(s_stage + st * TILE, in + static_cast<std::size_t>(t) * TILE, kBytes, &s_bar[st]);
    };
    if (threadIdx.x == 0) {
        init_stage_barriers(s_bar, S);
        for (int st = 0; st < S; ++st) fill(st, atomicAdd(counter, 1u));
    }
    __syncthreads();
    unsigned phases = 0;  // bit st: the parity of stage st's next completion
    for (int i = 0;; ++i) {
        const int st = i % S;
        const unsigned tile = s_stage_tile[st];
        if (tile >= num_tiles) break;
        // The tile S ahead is drawn now; its id is needed only after the first barrier.
        unsigned drawn = 0;
        if (threadIdx.x == 0) drawn = atomicAdd(counter, 1u);
        uint4 v[ROWS];
        const std::size_t base = static_cast<std::size_t>(tile) * TILE + static_cast<std::size_t>(warp) * (32 * I);
        const bool is_full = full(tile);
        if (is_full) {
            bulk::wait(&s_bar[st], (phases >> st) & 1u);
            phases ^= 1u << st;
        }
        load_rows<ROWS>(reinterpret_cast<const uint4*>(s_stage + st * TILE) + warp * (8 * I), is_full, in, n, base,
                        lane, v);
        const unsigned carry = scan_rows<ROWS>(v, lane);
        if (lane == 0) s_wt[warp] = carry;
        bulk::release_stage();  // the stage's reads above, before the copy engine refills it
        __syncthreads();        // every thread has read stage st: it is free
        if (threadIdx.x == 0) fill(st, drawn);
        const unsigned off = warp_offset<W, kLbMode>(s_wt, s_prefix, desc, tile, epoch, warp, lane);
        store_rows<ROWS>(out, n, base, is_full, lane, v, off);
    }
    if (threadIdx.x == 0 && atomicAdd(counter + 1, 1u) == gridDim.x - 1) {
        atomicExch(counter, 0u);
        atomicExch(counter + 1, 0u);
    }
#endif
}

// The ceiling of the tile structure: the same loads and stores per tile, no scan, no look-back.
template <int T, int I>
__global__ void __launch_bounds__(T) tile_copy(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                               std::size_t n) {
    constexpr int TILE = T * I;
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * TILE;
    if (base + TILE <= n) {
        const uint4* in4 = reinterpret_cast<const uint4*>(in + base);
        uint4* out4 = reinterpret_cast<uint4*>(out + base);
        uint4 r[I / 4];
#pragma unroll
        for (int j = 0; j < I / 4; ++j) r[j] = in4[j * T + threadIdx.x];
#pragma unroll
        for (int j = 0; j < I / 4; ++j) out4[j * T + threadIdx.x] = r[j];
    } else {
        for (std::size_t i = base + threadIdx.x; i < n; i += T) out[i] = in[i];
    }
}

struct State {
    unsigned long long* desc;
    unsigned* counter;
    unsigned epoch = 0;
};

// tid1 (blockIdx.x as the tile id) launched cooperatively: the driver guarantees that every block
// of the grid is resident at once, or refuses the launch (cudaErrorCooperativeLaunchTooLarge), so
// the look-back's waits end whatever else runs on the GPU. Only where the grid fits (coop_fits).
template <int T, int I, int MINB>
void launch_coop(State& st, const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) {
    auto kernel = lb_kernel<T, I, MINB, 1, 100, 0, 1, false, 0>;
    unsigned tiles = static_cast<unsigned>((n + T * I - 1) / (T * I));
    const int smem = (T / 32) * (32 * I + I) * static_cast<int>(sizeof(unsigned));
    static bool attr_set = false;
    if (!attr_set) {
        CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        attr_set = true;
    }
    ++st.epoch;
    void* args[] = {&in, &out, &n, &st.desc, &st.counter, &tiles, &st.epoch};
    CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(tiles), dim3(T), args,
                                           static_cast<std::size_t>(smem), s));
}
// Whether launch_coop's grid at n fits on the device at once (occupancy API x SMs), and the
// device can launch cooperatively at all.
template <int T, int I, int MINB>
bool coop_fits(std::size_t n) {
    int device = 0, coop = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int smem = (T / 32) * (32 * I + I) * static_cast<int>(sizeof(unsigned));
    auto kernel = lb_kernel<T, I, MINB, 1, 100, 0, 1, false, 0>;
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, T, smem));
    return coop != 0 && (n + T * I - 1) / (T * I) <= static_cast<std::size_t>(per_sm) * sms;
}

template <int T, int I, int MINB, int kTileId, int kSleep, int kHint, int kStash, bool kLocal = false,
          int kLbMode = 0>
void launch(State& st, const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) {
    const unsigned tiles = static_cast<unsigned>((n + T * I - 1) / (T * I));
    const int smem = (T / 32) * (32 * I + I) * static_cast<int>(sizeof(unsigned));
    static bool attr_set = false;
    if (!attr_set) {
        CUDA_CHECK(cudaFuncSetAttribute(lb_kernel<T, I, MINB, kTileId, kSleep, kHint, kStash, kLocal, kLbMode>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        attr_set = true;
    }
    ++st.epoch;
    lb_kernel<T, I, MINB, kTileId, kSleep, kHint, kStash, kLocal, kLbMode><<<tiles, T, smem, s>>>(in, out, n, st.desc, st.counter,
                                                                                 tiles, st.epoch);
    CUDA_CHECK_LAUNCH();
}

template <int T, int I, int MINB, int kSleep>
void launch_pipe(State& st, const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) {
    static int resident = 0;
    if (resident == 0) {
        int per_sm = 0, device = 0, sms = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, lb_pipe<T, I, MINB, kSleep>, T, 0));
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        resident = per_sm * sms;
    }
    const unsigned tiles = static_cast<unsigned>((n + T * I - 1) / (T * I));
    const unsigned grid = tiles < static_cast<unsigned>(resident) ? tiles : static_cast<unsigned>(resident);
    ++st.epoch;
    lb_pipe<T, I, MINB, kSleep><<<grid, T, 0, s>>>(in, out, n, st.desc, st.counter, tiles, st.epoch);
    CUDA_CHECK_LAUNCH();
}

// Round 5: no shared-memory transpose. Each lane loads uint4 straight into registers (row j
// of its warp: 128 consecutive ints, 4 per lane), scans its 4 ints and the warp scans the
// lanes' totals by shuffles, row after row; the results stay in registers through the
// look-back and go out as uint4 stores. Shared memory holds only the warp totals, so the
// registers alone bound the blocks per SM (the committed kernel: its 33 KiB tile buffer).
template <int T, int I, int MINB>
__global__ void __launch_bounds__(T, capped_min_blocks(T, MINB))
    lb_striped(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n,
               unsigned long long* desc, unsigned* counter, unsigned num_tiles, unsigned epoch) {
    constexpr int W = T / 32, TILE = T * I, ROWS = I / 4;
    static_assert(I % 4 == 0, "uint4 rows");
    __shared__ unsigned s_wt[W];
    __shared__ unsigned s_tile, s_prefix;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned tile = scan_tile::draw_tile(counter, num_tiles, s_tile);
    const std::size_t base = static_cast<std::size_t>(tile) * TILE + static_cast<std::size_t>(warp) * (32 * I);
    const bool full = (static_cast<std::size_t>(tile) + 1) * TILE <= n;
    uint4 v[ROWS];
    load_rows<ROWS>(reinterpret_cast<const uint4*>(in + base), full, in, n, base, lane, v);
    const unsigned carry = scan_rows<ROWS>(v, lane);
    if (lane == 0) s_wt[warp] = carry;
    __syncthreads();
    store_rows<ROWS>(out, n, base, full, lane, v, warp_offset<W, 0>(s_wt, s_prefix, desc, tile, epoch, warp, lane));
}

template <int T, int I, int MINB>
void launch_striped(State& st, const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) {
    const unsigned tiles = static_cast<unsigned>((n + T * I - 1) / (T * I));
    ++st.epoch;
    lb_striped<T, I, MINB><<<tiles, T, 0, s>>>(in, out, n, st.desc, st.counter, tiles, st.epoch);
    CUDA_CHECK_LAUNCH();
}

// The committed kernel's data path alone (tile_copy.cuh: copy_per_tile with no wait).
template <int T, int I>
void launch_copy_smem(State&, const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) {
    const int smem = (T / 32) * (32 * I + I) * static_cast<int>(sizeof(unsigned));
    static bool attr_set = false;
    if (!attr_set) {
        CUDA_CHECK(cudaFuncSetAttribute(copy_per_tile<T, I>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        attr_set = true;
    }
    copy_per_tile<T, I><<<static_cast<unsigned>((n + T * I - 1) / (T * I)), T, smem, s>>>(in, out, n, 0);
    CUDA_CHECK_LAUNCH();
}

template <int S, int I, int M>
void launch_bulk(State& st, const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) {
    constexpr int kTile = 256 * I;
    const int smem = S * kTile * static_cast<int>(sizeof(unsigned));
    static int resident = 0;
    if (resident == 0) {
        CUDA_CHECK(cudaFuncSetAttribute(lb_bulk<S, I, M>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        int per_sm = 0, device = 0, sms = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, lb_bulk<S, I, M>, 256, smem));
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        resident = per_sm * sms;
        std::printf("bulk S=%d I=%d: %d blocks per SM\n", S, I, per_sm);
    }
    const unsigned tiles = static_cast<unsigned>((n + kTile - 1) / kTile);
    const unsigned grid = tiles < static_cast<unsigned>(resident) ? tiles : static_cast<unsigned>(resident);
    ++st.epoch;
    lb_bulk<S, I, M><<<grid, 256, smem, s>>>(in, out, n, st.desc, st.counter, tiles, st.epoch);
    CUDA_CHECK_LAUNCH();
}

template <int T, int I>
void launch_copy(State&, const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) {
    tile_copy<T, I><<<static_cast<unsigned>((n + T * I - 1) / (T * I)), T, 0, s>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

struct Variant {
    std::string name;
    std::string fields;  // kernel and template arguments as CSV columns
    void (*fn)(State&, const unsigned*, unsigned*, std::size_t, cudaStream_t);
    enum Check { kScan, kCopy, kTileLocal } check = kScan;  // what the output is checked against
    int tile = 0;                                             // ints per tile (kTileLocal)
    bool sm90_only = false;                                   // bulk copies: compute capability 9.0+
    bool (*fits)(std::size_t n) = nullptr;                    // else every n (a cooperative grid: coop_fits)
};

#define V(T, I, M, TID, SL, H, ST) \
    Variant {                                                                                                     \
        #T "x" #I " minb" #M " tid" #TID " sleep" #SL " hint" #H " stash" #ST,                                   \
            "per_tile," #T "," #I "," #M "," #TID "," #SL "," #H "," #ST, launch<T, I, M, TID, SL, H, ST>      \
    }
#define P(T, I, M, SL) \
    Variant { "pipe " #T "x" #I " minb" #M " sleep" #SL, "persistent," #T "," #I "," #M ",0," #SL ",0,1", launch_pipe<T, I, M, SL> }
#define C(T, I) \
    Variant { "tile_copy " #T "x" #I, "tile_copy," #T "," #I ",,,,,", launch_copy<T, I>, Variant::kCopy }
#define B(S, I, M) \
    Variant { "bulk 256x" #I " stages" #S " lb" #M, "bulk_async," "256," #I ",," "0,100,0,0", launch_bulk<S, I, M>, \
              Variant::kScan, 0, true }
#define CO(T, I, M) \
    Variant { #T "x" #I " minb" #M " tid1 sleep100 hint0 stash1 coop", "per_tile," #T "," #I "," #M ",1,100,0,1", \
              launch_coop<T, I, M>, Variant::kScan, 0, false, coop_fits<T, I, M> }
#define VC(T, I, M) \
    Variant { #T "x" #I " minb" #M " tid0 sleep100 hint0 stash1 lb1", "per_tile," #T "," #I "," #M ",0,100,0,1", \
              launch<T, I, M, 0, 100, 0, 1, false, 1> }
#define WV(T, I, M, TID, K) \
    Variant { #T "x" #I " minb" #M " tid" #TID " sleep100 hint0 stash1 win" #K "x32", \
              "per_tile," #T "," #I "," #M "," #TID ",100,0,1", launch<T, I, M, TID, 100, 0, 1, false, K> }
#define S(T, I, M) \
    Variant { "striped " #T "x" #I " minb" #M, "striped," #T "," #I "," #M ",0,100,0,0", launch_striped<T, I, M> }
#define CS(T, I) \
    Variant { "tile_copy_smem " #T "x" #I, "tile_copy_smem," #T "," #I ",,,,,", launch_copy_smem<T, I>, Variant::kCopy }
#define LT(T, I, M) \
    Variant { "local tid1 " #T "x" #I " minb" #M, "no_lookback," #T "," #I "," #M ",1,,0,1", \
              launch<T, I, M, 1, 100, 0, 1, true>, Variant::kTileLocal, (T) * (I) }
#define L(T, I, M) \
    Variant { "local " #T "x" #I " minb" #M, "no_lookback," #T "," #I "," #M ",0,,0,1", launch<T, I, M, 0, 100, 0, 1, true>, \
              Variant::kTileLocal, (T) * (I) }

int main(int argc, char** argv) {
    const char* csv = argc > 1 ? argv[1] : "lookback_tuning.csv";
    // (threads, ints per thread, min blocks per SM, tile id, sleep ns, cache hints, stash)
    std::vector<Variant> variants = {
        // from the 16-int tile without back-off or stash to the committed kernel, one change a step
        V(256, 16, 8, 0, 0, 0, 0), V(256, 16, 8, 0, 100, 0, 0), V(256, 16, 8, 0, 100, 0, 1), V(256, 32, 6, 0, 100, 0, 1),
        // one change at a time from the committed kernel (the previous entry)
        V(256, 32, 6, 1, 100, 0, 1), CO(256, 32, 6), V(256, 32, 6, 0, 0, 0, 1), V(256, 32, 6, 0, 50, 0, 1), V(256, 32, 6, 0, 300, 0, 1),
        V(256, 32, 6, 0, 100, 1, 1), V(256, 32, 4, 0, 100, 0, 1), V(128, 32, 12, 0, 100, 0, 1), V(128, 64, 6, 0, 100, 0, 1),
        V(256, 12, 8, 0, 100, 0, 1), V(256, 16, 8, 0, 0, 0, 1), V(256, 20, 6, 0, 100, 0, 1), V(256, 24, 6, 0, 100, 0, 1),
        V(512, 16, 4, 0, 100, 0, 1),
        // round 3: larger tiles at the same threads per SM (fewer look-backs per byte)
        V(384, 32, 4, 0, 100, 0, 1), V(512, 32, 3, 0, 100, 0, 1),
        V(1024, 16, 2, 0, 100, 0, 1), V(384, 32, 4, 1, 100, 0, 1), V(512, 32, 3, 1, 100, 0, 1),
        // round 3: persistent blocks that load their next tile during the look-back
        P(256, 32, 4, 100), P(256, 16, 6, 100), P(128, 32, 8, 100), P(512, 16, 3, 100), P(256, 24, 4, 100),
        P(256, 32, 4, 0), P(256, 32, 3, 100),
        // the ceiling of the tile structure: its loads and stores alone; and the committed
        // tile shape without its look-back (each tile scanned on its own)
        C(256, 32), C(256, 16), L(256, 32, 6), L(512, 32, 3), LT(256, 32, 6), CS(256, 32),
        // round 5: the scan in registers, no shared-memory transpose
        S(256, 16, 8), S(256, 16, 6), S(256, 20, 6), S(256, 24, 5), S(256, 32, 4), S(128, 32, 8), S(512, 16, 3),
        S(512, 32, 2), S(128, 16, 16),
        // round 4 (sm_90 only): bulk asynchronous loads into S shared-memory stages
        B(2, 32, 0), B(3, 32, 0), B(4, 32, 0), B(6, 32, 0), B(2, 64, 0), B(3, 16, 0), B(6, 16, 0),
        // round 4: the look-back that waits only for the nearest unfinished predecessor
        VC(256, 32, 6), VC(512, 32, 3), V(256, 32, 6, 2, 100, 0, 1), V(512, 32, 3, 2, 100, 0, 1),
        V(384, 32, 4, 2, 100, 0, 1), B(2, 32, 1), B(3, 32, 1), B(4, 32, 1), B(6, 32, 1), B(3, 16, 1), B(6, 16, 1),
        // round 6: a wider window for the one look-back warp (K descriptors a lane), block ids and drawn
        WV(256, 32, 6, 1, 2), WV(256, 32, 6, 1, 4), WV(256, 32, 6, 1, 8), WV(256, 32, 6, 0, 4),
    };
    // Optional filter (argv[2]): only the variants whose name contains one of its
    // comma-separated words (e.g. "bulk,stash1,tile_copy"), for a quick look at a few.
    if (argc > 2) {
        const std::string filter = argv[2];
        std::vector<Variant> kept;
        for (const Variant& v : variants) {
            std::size_t start = 0;
            bool match = false;
            while (start <= filter.size() && !match) {
                const std::size_t comma = std::min(filter.find(',', start), filter.size());
                const std::string word = filter.substr(start, comma - start);
                match = !word.empty() && v.name.find(word) != std::string::npos;
                start = comma + 1;
            }
            if (match) kept.push_back(v);
        }
        variants = kept;
    }
    std::vector<std::size_t> sizes = {1250000, 20000000, std::size_t(1) << 28};
    if (const char* only_n = std::getenv("CW_TUNING_N")) sizes = {static_cast<std::size_t>(std::strtoull(only_n, nullptr, 10))};
    const std::size_t maxn = sizes.back();
    std::vector<unsigned> h(maxn), ref(maxn), got(maxn);
    cw::fill_uniform_int(h.data(), maxn, -1000000, 1000000, 7);
    unsigned *din, *dout;
    CUDA_CHECK(cudaMalloc(&din, maxn * 4));
    CUDA_CHECK(cudaMalloc(&dout, maxn * 4));
    CUDA_CHECK(cudaMemcpy(din, h.data(), maxn * 4, cudaMemcpyHostToDevice));
    State st;
    CUDA_CHECK(cudaMalloc(&st.desc, (maxn / 1024 + 1) * 8));
    CUDA_CHECK(cudaMemset(st.desc, 0, (maxn / 1024 + 1) * 8));
    CUDA_CHECK(cudaMalloc(&st.counter, 8));
    CUDA_CHECK(cudaMemset(st.counter, 0, 8));
    void* temp = nullptr;
    std::size_t temp_bytes = 0;
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes, din, dout, static_cast<int>(maxn)));
    CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
    cw::L2Flusher flusher;
    FILE* f = std::fopen(csv, "w");
    if (f == nullptr) {
        std::fprintf(stderr, "lookback_tuning: cannot write %s\n", csv);
        return 2;
    }
    const cw::DeviceInfo dev = cw::select_device(0);
    if (dev.cc_major < 9) {
        std::vector<Variant> kept;
        for (const Variant& v : variants)
            if (!v.sm90_only) kept.push_back(v);
        variants = kept;
    }
    std::fprintf(f, "round,variant,kernel,threads,items,min_blocks,tile_id,sleep_ns,hints,stash,n,ms,cub_ms,speedup_vs_cub,"
                    "GBps,copy_ms,pct_of_copy,ok,device\n");
    int wrong = 0;
    for (std::size_t n : sizes) {
        unsigned run = 0;
        for (std::size_t i = 0; i < n; ++i) ref[i] = run += h[i];
        auto copy_fn = [&](cudaStream_t s) {
            CUDA_CHECK(cudaMemcpyAsync(dout, din, n * 4, cudaMemcpyDeviceToDevice, s));
        };
        auto cub_fn = [&](cudaStream_t s) {
            std::size_t b = temp_bytes;
            CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, b, din, dout, static_cast<int>(n), s));
        };
        for (int round = 0; round < 2; ++round) {
            for (const Variant& v : variants) {
                if (v.fits != nullptr && !v.fits(n)) {
                    std::printf("%-36s n=%-10zu skipped: its grid does not fit on the device at once\n", v.name.c_str(), n);
                    continue;
                }
                CUDA_CHECK(cudaMemset(dout, 0xff, n * 4));
                v.fn(st, din, dout, n, 0);
                CUDA_CHECK(cudaMemcpy(got.data(), dout, n * 4, cudaMemcpyDeviceToHost));
                bool ok = true;
                if (v.check == Variant::kTileLocal) {
                    unsigned local = 0;
                    for (std::size_t i = 0; i < n && ok; ++i) {
                        local = (i % v.tile == 0 ? 0u : local) + h[i];
                        ok = got[i] == local;
                    }
                } else {
                    const std::vector<unsigned>& want = v.check == Variant::kCopy ? h : ref;
                    for (std::size_t i = 0; i < n && ok; ++i) ok = got[i] == want[i];
                }
                wrong += ok ? 0 : 1;
                // CUB, a device-to-device copy of the same bytes and the variant interleaved:
                // same clocks, same thermal state; the ratios are within this run.
                const double cub_ms = cw::time_gpu(3, 15, cub_fn, &flusher).median_ms();
                const double copy_ms = cw::time_gpu(3, 15, copy_fn, &flusher).median_ms();
                const double ms =
                    cw::time_gpu(3, 15, [&](cudaStream_t s) { v.fn(st, din, dout, n, s); }, &flusher).median_ms();
                std::fprintf(f, "%d,%s,%s,%zu,%.5f,%.5f,%.4f,%.1f,%.5f,%.2f,%d,%s\n", round + 1, v.name.c_str(),
                             v.fields.c_str(), n, ms, cub_ms, cub_ms / ms, 8.0 * n / ms / 1e6, copy_ms,
                             100.0 * copy_ms / ms, ok, dev.name.c_str());
                std::printf("%-36s n=%-10zu %.4f ms  cub %.4f  x%.3f  copy %.1f%%  %s\n", v.name.c_str(), n, ms,
                            cub_ms, cub_ms / ms, 100.0 * copy_ms / ms, ok ? "ok" : "WRONG");
            }
        }
    }
    std::fclose(f);
    std::printf("Result = %s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
