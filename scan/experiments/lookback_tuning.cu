// Tuning experiment for scan's decoupled look-back (compiled by `make experiments`; run it
// with `bash experiments/run.sh` on a GPU): variants of the kernel in scan_kernels.cu that differ in
// tile shape, tile-id source, spin back-off, cache hints and where the scanned values wait
// during the look-back. Each variant is validated against the CPU (exact) before it is timed,
// and timed (median of 15, L2 flushed) alternately with CUB in the same run, two rounds.
// The kernel is a parameterised copy of scan_decoupled_lookback on purpose: the committed
// kernel stays readable with the winning choices fixed, and this file records what lost.
#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common.cuh"

constexpr unsigned kFull = 0xffffffffu;
constexpr unsigned kA = 1u, kP = 2u;

__device__ __forceinline__ int pad(int e) { return e + (e >> 5); }

__device__ __forceinline__ void publish(unsigned long long* d, unsigned tile, unsigned epoch, unsigned st,
                                        unsigned v) {
    const unsigned long long w = (static_cast<unsigned long long>((epoch << 2) | st) << 32) | v;
    *reinterpret_cast<volatile unsigned long long*>(d + tile) = w;
}

template <int kSleep>
__device__ unsigned look_back(const unsigned long long* d, unsigned tile, unsigned epoch, int lane) {
    const unsigned long long before_first = static_cast<unsigned long long>((epoch << 2) | kP) << 32;
    unsigned prefix = 0;
    long long window = static_cast<long long>(tile) - 1;
    while (true) {
        const long long pred = window - lane;
        unsigned long long w;
        while (true) {
            w = pred >= 0 ? *reinterpret_cast<const volatile unsigned long long*>(d + pred) : before_first;
            if (!__any_sync(kFull, static_cast<unsigned>(w >> 34) != epoch)) break;
#if __CUDA_ARCH__ >= 700
            if (kSleep > 0) __nanosleep(kSleep);
#endif
        }
        const unsigned st = static_cast<unsigned>(w >> 32) & 3u;
        const unsigned pl = __ballot_sync(kFull, st == kP);
        const int last = pl != 0 ? __ffs(pl) - 1 : 31;
        unsigned part = lane <= last ? static_cast<unsigned>(w) : 0u;
#pragma unroll
        for (int s = 16; s > 0; s >>= 1) part += __shfl_xor_sync(kFull, part, s);
        prefix += part;
        if (pl != 0) return prefix;
        window -= 32;
    }
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
// kTileId: 0 = atomic counter, 1 = blockIdx.x. kSleep: ns of __nanosleep between polls (0: none).
// kHint: 0 = plain, 1 = __ldcs/__stcs (evict-first). kStash: 1 = scanned values wait in shared
// memory during the look-back, 0 = in registers.
template <int T, int I, int MINB, int kTileId, int kSleep, int kHint, int kStash, bool kLocal = false>
__global__ void __launch_bounds__(T, capped_min_blocks(T, MINB))
    lb_kernel(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n, unsigned long long* desc,
              unsigned* counter, unsigned num_tiles, unsigned epoch) {
    constexpr int W = T / 32, WI = 32 * I, WS = WI + WI / 32, TILE = T * I;
    static_assert(I % 4 == 0, "uint4 loads");
    extern __shared__ unsigned s_items[];  // W * WS words (dynamic: tiles beyond 48 KiB)
    __shared__ unsigned s_wt[W];
    __shared__ unsigned s_tile, s_prefix;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned tile;
    if (kTileId == 0) {
        if (threadIdx.x == 0) {
            const unsigned t = atomicAdd(counter, 1u);
            if (t == num_tiles - 1) atomicExch(counter, 0u);
            s_tile = t;
        }
        __syncthreads();
        tile = s_tile;
    } else {
        tile = blockIdx.x;
    }
    const std::size_t wbase = static_cast<std::size_t>(tile) * TILE + static_cast<std::size_t>(warp) * WI;
    const bool full = (static_cast<std::size_t>(tile) + 1) * TILE <= n;
    unsigned* ws = s_items + warp * WS;
    if (full) {
        const uint4* in4 = reinterpret_cast<const uint4*>(in + wbase);
#pragma unroll
        for (int j = 0; j < I / 4; ++j) {
            const uint4 v = kHint ? __ldcs(in4 + j * 32 + lane) : in4[j * 32 + lane];
            const int e = (j * 32 + lane) * 4;
            ws[pad(e)] = v.x;
            ws[pad(e + 1)] = v.y;
            ws[pad(e + 2)] = v.z;
            ws[pad(e + 3)] = v.w;
        }
    } else {
#pragma unroll
        for (int j = 0; j < I; ++j) {
            const int e = j * 32 + lane;
            const std::size_t i = wbase + e;
            ws[pad(e)] = i < n ? in[i] : 0u;
        }
    }
    __syncwarp();
    unsigned x[I];
#pragma unroll
    for (int i = 0; i < I; ++i) x[i] = ws[pad(lane * I + i)];
    unsigned run = 0;
#pragma unroll
    for (int i = 0; i < I; ++i) {
        run += x[i];
        x[i] = run;
    }
    unsigned inc = run;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const unsigned y = __shfl_up_sync(kFull, inc, d);
        if (lane >= d) inc += y;
    }
    const unsigned tp = inc - run;
    if (kStash) {
        // The warp-local inclusive values go back to shared memory now: no 16 live registers
        // across the look-back, and the store adds one warp-uniform offset.
#pragma unroll
        for (int i = 0; i < I; ++i) ws[pad(lane * I + i)] = x[i] + tp;
    }
    if (lane == 31) s_wt[warp] = inc;
    __syncthreads();
    unsigned wp = 0, agg = 0;
#pragma unroll
    for (int w = 0; w < W; ++w) {
        const unsigned t = s_wt[w];
        if (w < warp) wp += t;
        agg += t;
    }
    if (warp == 0 && !kLocal) {
        unsigned prefix = 0;
        if (tile == 0) {
            if (lane == 0) publish(desc, 0, epoch, kP, agg);
        } else {
            if (lane == 0) publish(desc, tile, epoch, kA, agg);
            prefix = look_back<kSleep>(desc, tile, epoch, lane);
            if (lane == 0) publish(desc, tile, epoch, kP, prefix + agg);
        }
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
        unsigned run = 0;
        {
            unsigned x[I];
#pragma unroll
            for (int i = 0; i < I; ++i) x[i] = ws[pad(lane * I + i)];
#pragma unroll
            for (int i = 0; i < I; ++i) {
                run += x[i];
                x[i] = run;
            }
            unsigned inc = run;
#pragma unroll
            for (int d = 1; d < 32; d <<= 1) {
                const unsigned y = __shfl_up_sync(kFull, inc, d);
                if (lane >= d) inc += y;
            }
            const unsigned tp = inc - run;
#pragma unroll
            for (int i = 0; i < I; ++i) ws[pad(lane * I + i)] = x[i] + tp;
            if (lane == 31) s_wt[warp] = inc;
        }
        if (threadIdx.x == 0) s_next = drawn;
        __syncthreads();
        unsigned wp = 0, agg = 0;
#pragma unroll
        for (int w = 0; w < W; ++w) {
            const unsigned t = s_wt[w];
            if (w < warp) wp += t;
            agg += t;
        }
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
            unsigned prefix = 0;
            if (tile == 0) {
                if (lane == 0) publish(desc, 0, epoch, kP, agg);
            } else {
                if (lane == 0) publish(desc, tile, epoch, kA, agg);
                prefix = look_back<kSleep>(desc, tile, epoch, lane);
                if (lane == 0) publish(desc, tile, epoch, kP, prefix + agg);
            }
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

template <int T, int I, int MINB, int kTileId, int kSleep, int kHint, int kStash, bool kLocal = false>
void launch(State& st, const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) {
    const unsigned tiles = static_cast<unsigned>((n + T * I - 1) / (T * I));
    const int smem = (T / 32) * (32 * I + I) * static_cast<int>(sizeof(unsigned));
    static bool attr_set = false;
    if (!attr_set) {
        CUDA_CHECK(cudaFuncSetAttribute(lb_kernel<T, I, MINB, kTileId, kSleep, kHint, kStash, kLocal>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        attr_set = true;
    }
    ++st.epoch;
    lb_kernel<T, I, MINB, kTileId, kSleep, kHint, kStash, kLocal><<<tiles, T, smem, s>>>(in, out, n, st.desc, st.counter,
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
#define L(T, I, M) \
    Variant { "local " #T "x" #I " minb" #M, "no_lookback," #T "," #I "," #M ",0,,0,1", launch<T, I, M, 0, 100, 0, 1, true>, \
              Variant::kTileLocal, (T) * (I) }

int main(int argc, char** argv) {
    const char* csv = argc > 1 ? argv[1] : "lookback_tuning.csv";
    // (threads, ints per thread, min blocks per SM, tile id, sleep ns, cache hints, stash)
    std::vector<Variant> variants = {
        // the steps of the README's table
        V(256, 16, 8, 0, 0, 0, 0), V(256, 16, 8, 0, 100, 0, 0), V(256, 16, 8, 0, 100, 0, 1), V(256, 32, 6, 0, 100, 0, 1),
        // one change at a time from the committed kernel (the previous entry)
        V(256, 32, 6, 1, 100, 0, 1), V(256, 32, 6, 0, 0, 0, 1), V(256, 32, 6, 0, 50, 0, 1), V(256, 32, 6, 0, 300, 0, 1),
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
        C(256, 32), C(256, 16), L(256, 32, 6), L(512, 32, 3),
    };
    const std::vector<std::size_t> sizes = {1250000, 20000000, std::size_t(1) << 28};
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
