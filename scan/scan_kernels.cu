// Every GPU version of the scan assignment (report 002); see scan_kernels.cuh for the
// labels. All arithmetic is on unsigned int, so the wrap-around at 2^32 is defined.
#include "scan_kernels.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "cuda_check.cuh"
#include "device_info.cuh"
#include "exit_codes.h"
#include "gpu_clock.cuh"
#include "map_chunk.cuh"
#include "scan_plan.h"
#include "tile_epoch.h"
#include "tile_io.cuh"
#include "ws_scan.cuh"

namespace scan_gpu {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// ---------------------------------------------------------------------------------------
// Section 1 and 1.10 of the report: Hillis & Steele in place.
// ---------------------------------------------------------------------------------------

// version=hs_inplace_racy (one block) and version=hs_multiblock_racy (ceil(n/T) blocks).
// The report's kernel: step d adds a[k - 2^d] into a[k], in place in global memory, with a
// barrier between steps. RACY ON PURPOSE, kept as the report's demonstration: within a
// step, thread k reads a[k - offset] while thread k - offset may already have overwritten
// it (threads of different warps are not in lock-step), and __syncthreads orders nothing
// between blocks, so with more than one block the blocks read each other's half-updated
// elements. Change from the report: `k < n` bounds the writes (the report prints its launch
// of ceil(n/T) x T threads but not this kernel, so whether its version checked k < n is unknown).
__global__ void hillis_steele_in_place(unsigned* a, std::size_t n) {
    const std::size_t k = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    for (std::size_t offset = 1; offset < n; offset *= 2) {
        if (k >= offset && k < n) a[k] += a[k - offset];
        __syncthreads();
    }
}

// version=hs_buffered: the correct form of section 1 (GPU Gems 3, ch. 39, algorithm 2).
// - double buffer in shared memory: every step reads one buffer and writes the other, and
//   the barrier between steps separates every read from every overwrite: no race.
// - one block: a barrier cannot order blocks, so n <= blockDim.x (the driver rejects more).
// - exclusive scan: the input shifted right by one (x[-1] = 0) scanned inclusively.
template <bool kExclusive>
__global__ void hillis_steele_double_buffered_kernel(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                                     int n) {
    extern __shared__ unsigned buffers[];  // 2 x blockDim.x
    const int t = threadIdx.x;
    unsigned* src = buffers;
    unsigned* dst = buffers + blockDim.x;
    if (kExclusive)
        src[t] = (t > 0 && t < n) ? in[t - 1] : 0u;
    else
        src[t] = t < n ? in[t] : 0u;
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        dst[t] = t >= offset ? src[t] + src[t - offset] : src[t];
        __syncthreads();
        unsigned* tmp = src;
        src = dst;
        dst = tmp;
    }
    if (t < n) out[t] = src[t];
}

// ---------------------------------------------------------------------------------------
// Section 2 of the report: the "map" scan, with separate launches.
// ---------------------------------------------------------------------------------------

// version=map, kernel 1 (and the scan of every level of totals): map_chunk.cuh's chunk scan.
template <bool kExclusive>
__global__ void map_scan_chunks(const unsigned* in, unsigned* out, unsigned* totals, std::size_t n, int per_thread) {
    scan_map::scan_chunk<kExclusive>(in, out, totals, n, per_thread);
}

// %globaltimer, the GPU's nanosecond clock (common to all SMs): map_as_printed's serial part.
using gpu_clock::global_ns;

// version=map_as_printed: report section 2's PrefixSumMap as printed, one kernel. Thread t
// scans its chunk of per_thread elements in place and writes the chunk's total; global
// thread 0 (block 0) then scans all k totals serially (the report's "greatest bottleneck");
// every thread finally adds the total of the chunks before it to the next chunk. Kept as
// the report's demonstration: the barriers order the threads of one block only, so
// - within a block, thread 0 reads the totals of other warps with no barrier after they
//   were written (they are usually there already, because thread 0 reads them in order);
// - in every other block, threads read totals that thread 0 of block 0 may not have scanned
//   yet; printf("") is the report's attempt to make them wait ("buy some time").
// The two changes from the report: the chunk's loop stops at n (`break`; the printed loop
// runs to the chunk's end), and a thread whose chunk ends past n reads 0 instead of
// a[endPoint - 1] past the end of the array (that total only feeds chunks at or past n).
// serial_ns receives thread 0's %globaltimer before and after its serial loop, so that the
// driver can say what share of the kernel's time the serial scan takes.
__global__ void map_prefix_sum_as_printed(unsigned* a, unsigned* sub_array_sums, std::size_t n, std::size_t k,
                                          int per_thread, unsigned long long* serial_ns) {
    const long long t_id = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long size = static_cast<long long>(n);
    const long long start = t_id * per_thread;
    const long long end = start + per_thread;
    for (long long i = start + 1; i < end; ++i) {
        if (i >= size) break;
        a[i] += a[i - 1];
    }
    __syncthreads();
    sub_array_sums[t_id] = end - 1 < size ? a[end - 1] : 0u;
    if (t_id == 0) {
        const unsigned long long t0 = global_ns();
        for (std::size_t i = 1; i < k; ++i) sub_array_sums[i] += sub_array_sums[i - 1];
        serial_ns[0] = t0;
        serial_ns[1] = global_ns();
    }
    __syncthreads();
    printf("");
    for (long long i = start + per_thread; i < end + per_thread; ++i) {
        if (i >= size) break;
        a[i] += sub_array_sums[t_id];
    }
}

// version=map, kernel 3: thread t adds the scanned (inclusive) total of chunks 0..t to
// chunk t+1, as the report's second loop did (newStartPoint = startPoint + K).
// - a separate launch after the totals are scanned: the report's `__syncthreads(); printf("")`
//   could not wait for the other blocks (nothing inside a kernel can, short of a cooperative
//   launch), so every block but the first read totals not yet written.
__global__ void map_add_chunk_offsets(unsigned* data, const unsigned* scanned_totals, std::size_t n, int per_thread) {
    const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t start = (t + 1) * static_cast<std::size_t>(per_thread);
    if (start >= n) return;
    const std::size_t end = start + per_thread < n ? start + per_thread : n;
    const unsigned add = scanned_totals[t];
    for (std::size_t i = start; i < end; ++i) data[i] += add;
}

// ---------------------------------------------------------------------------------------
// Section 3 of the report: Brent-Kung with arbitrary size (three kernels).
// ---------------------------------------------------------------------------------------

// version=brent_kung, kernel 1 (and the scan of every level of block sums): a block of T
// threads scans 2T elements in shared memory, up-sweep (reduction tree) then down-sweep
// (distribution tree): 2(2T) additions instead of Hillis-Steele's 2T log2(2T): work-efficient.
// - two elements per thread, so that every thread works in the first up-sweep step.
// - the block's total goes to block_sums (kernel 2 scans them), none for the last level.
// - exclusive scan: element e takes the inclusive value of e - 1 (0 for the first).
template <bool kExclusive>
__global__ void brent_kung_block_scan(const unsigned* in, unsigned* out, unsigned* block_sums, std::size_t n) {
    extern __shared__ unsigned section[];  // 2 x blockDim.x
    const int t = threadIdx.x;
    const int threads = blockDim.x;
    const int size = 2 * threads;
    const std::size_t base = static_cast<std::size_t>(blockIdx.x) * size;
    section[t] = base + t < n ? in[base + t] : 0u;
    section[t + threads] = base + t + threads < n ? in[base + t + threads] : 0u;
    for (int stride = 1; stride <= threads; stride *= 2) {
        __syncthreads();
        const int index = (t + 1) * 2 * stride - 1;
        if (index < size) section[index] += section[index - stride];
    }
    for (int stride = threads / 2; stride > 0; stride /= 2) {
        __syncthreads();
        const int index = (t + 1) * 2 * stride - 1;
        if (index + stride < size) section[index + stride] += section[index];
    }
    __syncthreads();
    for (int h = 0; h < 2; ++h) {
        const int e = t + h * threads;
        const std::size_t i = base + e;
        if (i < n) out[i] = kExclusive ? (e > 0 ? section[e - 1] : 0u) : section[e];
    }
    if (block_sums != nullptr && t == 0) block_sums[blockIdx.x] = section[size - 1];
}

// version=brent_kung, kernel 3: block b + 1 adds the scanned (inclusive) sum of blocks 0..b
// to its 2T elements (block 0 needs nothing, so the grid is one block shorter).
__global__ void brent_kung_add_block_sums(unsigned* data, const unsigned* scanned_sums, std::size_t n) {
    const std::size_t block = static_cast<std::size_t>(blockIdx.x) + 1;
    const std::size_t base = block * 2 * blockDim.x;
    const unsigned add = scanned_sums[block - 1];
    for (int h = 0; h < 2; ++h) {
        const std::size_t i = base + threadIdx.x + static_cast<std::size_t>(h) * blockDim.x;
        if (i < n) data[i] += add;
    }
}

// ---------------------------------------------------------------------------------------
// Ours: single-pass scan with decoupled look-back (Merrill & Garland 2016).
// ---------------------------------------------------------------------------------------

using scan_policy::LookbackPolicy;
constexpr int kLbThreads = LookbackPolicy::kThreads;
constexpr int kLbWarps = kLbThreads / 32;

// The tile of kItems consecutive ints per thread (LookbackPolicy: 32, or 16 where few
// 32-int blocks fit on an SM).
template <int kItems>
struct LbTile {
    static_assert(kItems == LookbackPolicy::kItemsSmall || kItems == LookbackPolicy::kItemsLarge,
                  "padded() is bank-conflict-free for 16 and 32 items per lane");
    static constexpr int kSize = kLbThreads * kItems;       // ints per tile
    static constexpr int kWarpItems = 32 * kItems;           // elements per warp
    static constexpr int kWarpSmem = kWarpItems + kWarpItems / 32;  // + one pad word per 32
};

// Tile descriptor: one 64-bit word, high half (epoch << 2 | status), low half the value.
constexpr unsigned kStatusAggregate = 1u;  // value = this tile's sum
constexpr unsigned kStatusPrefix = 2u;     // value = sum of tiles 0..this one

using scan_tile::padded;  // one pad word per 32 (tile_io.cuh)

// One 64-bit volatile store: PTX treats st.volatile as a relaxed, system-scope ("morally
// strong") access, and a naturally aligned 64-bit access is single-copy atomic, so a
// reader sees the old word or the new one, never a status from one and a value from the
// other. No fence: a reader uses nothing but the descriptor word itself (status and value
// travel together), so no earlier write needs ordering before it. (A __threadfence() here
// would only delay the publication.)
__device__ __forceinline__ void publish(unsigned long long* descriptors, unsigned tile, unsigned epoch,
                                        unsigned status, unsigned value) {
    const unsigned long long word = (static_cast<unsigned long long>((epoch << 2) | status) << 32) | value;
    *reinterpret_cast<volatile unsigned long long*>(descriptors + tile) = word;
}

// A warp whose window is not yet published sleeps ~100 ns before polling again, so that
// hundreds of waiting warps do not keep the L2 busy with polls the data traffic needs
// (CUB's look-back backs off likewise; what it gains: sleep100 against sleep0 in
// experiments/results/<gpu>/lookback_tuning.csv).
__device__ __forceinline__ void back_off() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    __nanosleep(100);
#endif
}

// Warp 0 of tile `tile` (> 0): the sum of every tile before it. Each lane reads one
// predecessor descriptor of a window of 32 (lane 0 the nearest), the warp waits until all 32
// belong to this launch (an older epoch means "not yet published"), then adds the values up
// to and including the nearest inclusive prefix (status P); with none in the window, it adds
// all 32 aggregates and moves the window 32 tiles back. The volatile load is re-issued on
// every iteration and is served by L2, the point of coherence (never a stale L1 line).
__device__ unsigned look_back(const unsigned long long* descriptors, unsigned tile, unsigned epoch, int lane) {
    // Lanes before tile 0 see a P with value 0 (they lie beyond tile 0's P and add nothing).
    const unsigned long long before_first = static_cast<unsigned long long>((epoch << 2) | kStatusPrefix) << 32;
    unsigned prefix = 0;
    long long window = static_cast<long long>(tile) - 1;
    while (true) {
        const long long pred = window - lane;
        unsigned long long word;
        while (true) {
            word = pred >= 0 ? *reinterpret_cast<const volatile unsigned long long*>(descriptors + pred) : before_first;
            if (!__any_sync(kFullMask, static_cast<unsigned>(word >> 34) != epoch)) break;
            back_off();
        }
        const unsigned status = static_cast<unsigned>(word >> 32) & 3u;
        const unsigned prefix_lanes = __ballot_sync(kFullMask, status == kStatusPrefix);
        const int last = prefix_lanes != 0 ? __ffs(prefix_lanes) - 1 : 31;
        unsigned part = lane <= last ? static_cast<unsigned>(word) : 0u;
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) part += __shfl_xor_sync(kFullMask, part, d);
        prefix += part;
        if (prefix_lanes != 0) return prefix;
        window -= 32;
    }
}

// version=lookback: one read and one write of the data, in a single launch.
// - tile id from a global counter (atomicAdd) where the grid is larger than what the device
//   holds at once: a block only ever waits for tiles handed out before its own, i.e. to
//   blocks that are already running, so progress never depends on the order in which the
//   hardware schedules blocks (no deadlock even if blocks ran one at a time). The block that
//   draws the last id resets the counter for the next launch (every other block has drawn its
//   id by then). Where the whole grid fits at once (LookbackPolicy::block_ids: grid <= the
//   occupancy API's blocks per SM x SMs), blockIdx.x, as CUB does, saving the draw's round
//   trip: a block that waits occupies a slot, but there are slots for every block of the grid,
//   so no block it waits for is kept from starting by this grid's waiters. That holds while no
//   other work on the GPU spins (work that ends frees its slots); on a GPU shared with spinning
//   work (another such scan in another stream, MPS) it relies on in-order dispatch, CUB's
//   assumption. A cooperative launch would have the driver guarantee co-residency (not done).
// - the tile shape is LookbackPolicy's (scan_policy.h): 256 threads x kItems ints, 32 where
//   enough such blocks are resident per SM to keep the memory system busy, else 16; one
//   look-back per tile, so a larger tile pays for fewer look-backs.
// - uint4 loads and stores, coalesced per warp (512 contiguous bytes per instruction), and a
//   warp-private transpose through padded shared memory (conflict-free) to give each thread
//   kItems consecutive elements to scan serially in registers. Full tiles need `in` and `out`
//   16-byte aligned (every tile and warp offset is a multiple of 512 ints): the host checks.
// - the scanned values go back to shared memory as soon as the warp scan is done, already
//   offset by the thread's prefix within the warp: nothing but a few scalars stays live
//   across the look-back (no spills), and the store adds one warp-uniform offset.
// - warp scan of the thread totals by shuffles, block scan of the 8 warp totals in shared
//   memory: three block barriers per tile (tile id, warp totals, prefix).
// - the aggregate (A) is published before the look-back, so successors rarely wait; the
//   inclusive prefix (P) right after it. Descriptors carry an epoch that the host bumps per
//   launch, so they never need clearing between launches (a wrap of the epoch clears them).
// - partial last tile: scalar loads and stores with bounds checks; missing elements are 0.
// - __launch_bounds__(256, LookbackPolicy::min_blocks_per_sm(arch, kItems)): as many blocks
//   per SM as the threads and the shared memory allow, so that the register count does not
//   limit them (the registers and blocks per SM are in the CSV's k1_regs, k1_blocks_per_sm).
#if defined(__CUDA_ARCH__)
constexpr int kCompiledArch = __CUDA_ARCH__;
#else
constexpr int kCompiledArch = 0;  // host pass: __launch_bounds__ is not used
#endif

// The warp's kItems * 32 ints in its padded shared region `ws` (striped), scanned: each thread's
// kItems consecutive ints serially in registers, then the thread totals across the warp by
// shuffles; the warp-local results go back to `ws`, already offset by the thread's prefix
// within the warp. Returns the thread's inclusive total within the warp (lane 31: the warp's).
template <bool kExclusive, int kItems>
__device__ __forceinline__ unsigned scan_warp_items(unsigned* ws, int lane) {
    unsigned x[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) x[i] = ws[padded(lane * kItems + i)];
    unsigned run = 0;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
        const unsigned v = x[i];
        run += v;
        x[i] = kExclusive ? run - v : run;
    }
    unsigned inclusive = run;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const unsigned y = __shfl_up_sync(kFullMask, inclusive, d);
        if (lane >= d) inclusive += y;
    }
    const unsigned thread_prefix = inclusive - run;
#pragma unroll
    for (int i = 0; i < kItems; ++i) ws[padded(lane * kItems + i)] = x[i] + thread_prefix;
    return inclusive;
}

// Warp 0 of tile `tile`: publishes the tile's aggregate (A), finds the sum of every tile before
// it by look_back, publishes the inclusive prefix (P) and returns that sum (tile 0: P at once, 0).
__device__ __forceinline__ unsigned tile_prefix(unsigned long long* descriptors, unsigned tile, unsigned epoch,
                                                unsigned aggregate, int lane) {
    if (tile == 0) {
        if (lane == 0) publish(descriptors, 0, epoch, kStatusPrefix, aggregate);
        return 0;
    }
    if (lane == 0) publish(descriptors, tile, epoch, kStatusAggregate, aggregate);
    const unsigned prefix = look_back(descriptors, tile, epoch, lane);
    if (lane == 0) publish(descriptors, tile, epoch, kStatusPrefix, prefix + aggregate);
    return prefix;
}

// The warp's scanned ints from `ws`, plus `offset` (its place in the whole array), striped
// (coalesced) to global memory: uint4 stores for a full tile, else one int per lane and step
// with bounds.
template <int kItems>
__device__ __forceinline__ void store_warp_items(unsigned* __restrict__ out, std::size_t n, std::size_t warp_base,
                                                 bool full_tile, int lane, const unsigned* ws, unsigned offset) {
    if (full_tile) {
        uint4* out4 = reinterpret_cast<uint4*>(out + warp_base);
#pragma unroll
        for (int j = 0; j < kItems / 4; ++j) {
            const int e = (j * 32 + lane) * 4;
            out4[j * 32 + lane] = make_uint4(ws[padded(e)] + offset, ws[padded(e + 1)] + offset,
                                             ws[padded(e + 2)] + offset, ws[padded(e + 3)] + offset);
        }
    } else {
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
            const int e = j * 32 + lane;
            const std::size_t i = warp_base + e;
            if (i < n) out[i] = ws[padded(e)] + offset;
        }
    }
}

// kBlockIds: the tile id is blockIdx.x (the host launches it only where the grid is resident).
template <bool kExclusive, int kItems, bool kBlockIds = false>
__global__ void __launch_bounds__(kLbThreads, LookbackPolicy::min_blocks_per_sm(kCompiledArch, kItems))
    scan_decoupled_lookback(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n,
                            unsigned long long* descriptors, unsigned* tile_counter, unsigned num_tiles,
                            unsigned epoch) {
    constexpr int kTile = LbTile<kItems>::kSize;
    constexpr int kWarpItems = LbTile<kItems>::kWarpItems;
    constexpr int kWarpSmem = LbTile<kItems>::kWarpSmem;
    __shared__ unsigned s_items[kLbWarps * kWarpSmem];
    __shared__ unsigned s_warp_total[kLbWarps];
    __shared__ unsigned s_tile;
    __shared__ unsigned s_prefix;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;

    const unsigned tile = kBlockIds ? blockIdx.x : scan_tile::draw_tile(tile_counter, num_tiles, s_tile);
    const std::size_t warp_base = static_cast<std::size_t>(tile) * kTile + static_cast<std::size_t>(warp) * kWarpItems;
    const bool full_tile = (static_cast<std::size_t>(tile) + 1) * kTile <= n;
    unsigned* ws = s_items + warp * kWarpSmem;

    // Load: striped (coalesced) from global, into the warp's shared region; scanned in the warp.
    scan_tile::load_warp_items<kItems>(in, n, warp_base, full_tile, lane, ws);
    __syncwarp();
    const unsigned inclusive = scan_warp_items<kExclusive, kItems>(ws, lane);
    if (lane == 31) s_warp_total[warp] = inclusive;
    __syncthreads();
    unsigned warp_prefix = 0, aggregate = 0;
#pragma unroll
    for (int w = 0; w < kLbWarps; ++w) {
        const unsigned total = s_warp_total[w];
        if (w < warp) warp_prefix += total;
        aggregate += total;
    }

    // Decoupled look-back by warp 0.
    if (warp == 0) {
        const unsigned prefix = tile_prefix(descriptors, tile, epoch, aggregate, lane);
        if (lane == 0) s_prefix = prefix;
    }
    __syncthreads();  // also orders this warp's blocked writes above before its striped reads

    // Store, plus the warp's offset within the whole array.
    store_warp_items<kItems>(out, n, warp_base, full_tile, lane, ws, s_prefix + warp_prefix);
}

// ---------------------------------------------------------------------------------------
// Launch descriptions (grid, block, theoretical occupancy).
// ---------------------------------------------------------------------------------------

template <typename Kernel>
KernelLaunch describe(const char* name, Kernel kernel, long long grid, int block, std::size_t dynamic_smem) {
    KernelLaunch k;
    k.name = name;
    k.grid = grid;
    k.block = block;
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    k.regs = attr.numRegs;
    k.smem_bytes = attr.sharedSizeBytes + dynamic_smem;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&k.blocks_per_sm, kernel, block, dynamic_smem));
    int device = 0, max_threads = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    k.occupancy = max_threads > 0 ? static_cast<double>(k.blocks_per_sm) * block / max_threads : 0.0;
    return k;
}

long long grid_for(std::size_t work_items, int threads) {
    return static_cast<long long>(scan_plan::ceil_div(work_items, static_cast<std::size_t>(threads)));
}

unsigned* device_alloc(std::size_t count) {
    unsigned* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, (count > 0 ? count : 1) * sizeof(unsigned)));
    return p;
}

}  // namespace

void internal_error(const std::string& what) {
    throw std::logic_error(what);  // run_main: "scan: internal error: <what>", exit 3
}

// ---------------------------------------------------------------------------------------
// Hillis-Steele
// ---------------------------------------------------------------------------------------

long long HillisSteeleInPlace::blocks(std::size_t n) const {
    return grid_ == Grid::kOneBlock ? 1 : grid_for(n, threads_);
}

void HillisSteeleInPlace::run(const unsigned*, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) {
    if (exclusive) internal_error("the in-place Hillis-Steele kernel has no exclusive scan");
    hillis_steele_in_place<<<static_cast<unsigned>(blocks(n)), threads_, 0, s>>>(out, n);
    CUDA_CHECK_LAUNCH();
}

std::vector<KernelLaunch> HillisSteeleInPlace::launches(std::size_t n, bool) const {
    return {describe("hillis_steele_in_place", hillis_steele_in_place, blocks(n), threads_, 0)};
}

void HillisSteeleBuffered::run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) {
    if (n > static_cast<std::size_t>(threads_))
        internal_error("hs_buffered asked for n=" + std::to_string(n) + " with " + std::to_string(threads_) +
                       " threads");
    const std::size_t smem = 2 * static_cast<std::size_t>(threads_) * sizeof(unsigned);
    if (exclusive)
        hillis_steele_double_buffered_kernel<true><<<1, threads_, smem, s>>>(in, out, static_cast<int>(n));
    else
        hillis_steele_double_buffered_kernel<false><<<1, threads_, smem, s>>>(in, out, static_cast<int>(n));
    CUDA_CHECK_LAUNCH();
}

std::vector<KernelLaunch> HillisSteeleBuffered::launches(std::size_t, bool exclusive) const {
    const std::size_t smem = 2 * static_cast<std::size_t>(threads_) * sizeof(unsigned);
    return {exclusive ? describe("hillis_steele_double_buffered", hillis_steele_double_buffered_kernel<true>, 1,
                                 threads_, smem)
                      : describe("hillis_steele_double_buffered", hillis_steele_double_buffered_kernel<false>, 1,
                                 threads_, smem)};
}

// ---------------------------------------------------------------------------------------
// map
// ---------------------------------------------------------------------------------------

MapAsPrinted::MapAsPrinted(std::size_t max_n, int threads, int per_thread)
    : threads_(threads), per_thread_(per_thread) {
    const std::size_t chunks = scan_plan::ceil_div(max_n > 0 ? max_n : 1, static_cast<std::size_t>(per_thread));
    sums_ = device_alloc(static_cast<std::size_t>(grid_for(chunks, threads)) * static_cast<std::size_t>(threads));
    CUDA_CHECK(cudaMalloc(&serial_ns_, 2 * sizeof(unsigned long long)));
}

MapAsPrinted::~MapAsPrinted() {
    cudaFree(sums_);
    cudaFree(serial_ns_);
}

long long MapAsPrinted::blocks(std::size_t n) const {
    return grid_for(scan_plan::ceil_div(n, static_cast<std::size_t>(per_thread_)), threads_);
}

void MapAsPrinted::run(const unsigned*, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) {
    if (exclusive) internal_error("the report's map kernel has no exclusive scan");
    const std::size_t k = scan_plan::ceil_div(n, static_cast<std::size_t>(per_thread_));
    map_prefix_sum_as_printed<<<static_cast<unsigned>(blocks(n)), threads_, 0, s>>>(out, sums_, n, k, per_thread_,
                                                                                   serial_ns_);
    CUDA_CHECK_LAUNCH();
}

std::vector<KernelLaunch> MapAsPrinted::launches(std::size_t n, bool) const {
    return {describe("map_prefix_sum_as_printed", map_prefix_sum_as_printed, blocks(n), threads_, 0)};
}

double MapAsPrinted::serial_ms() const {
    unsigned long long t[2] = {0, 0};
    CUDA_CHECK(cudaMemcpy(t, serial_ns_, sizeof t, cudaMemcpyDeviceToHost));
    return t[1] >= t[0] ? static_cast<double>(t[1] - t[0]) * 1.0e-6 : NAN;
}

LevelBuffers::LevelBuffers(std::size_t max_n, std::size_t group) {
    const std::vector<std::size_t> levels = scan_plan::level_sizes(max_n, group);
    for (std::size_t l = 1; l < levels.size(); ++l) buffers_.push_back(device_alloc(levels[l]));
}

LevelBuffers::~LevelBuffers() {
    for (unsigned* p : buffers_) cudaFree(p);
}

MapScan::MapScan(std::size_t max_n, int threads, int per_thread)
    : threads_(threads), per_thread_(per_thread), totals_(max_n, static_cast<std::size_t>(per_thread)) {}

void MapScan::run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) {
    const std::size_t k = static_cast<std::size_t>(per_thread_);
    const std::vector<std::size_t> levels = scan_plan::level_sizes(n, k);
    const std::size_t last = levels.size() - 1;
    // Kernel 1: the data.
    {
        const unsigned grid = static_cast<unsigned>(grid_for(scan_plan::ceil_div(n, k), threads_));
        unsigned* totals = last > 0 ? totals_[0] : nullptr;
        if (exclusive)
            map_scan_chunks<true><<<grid, threads_, 0, s>>>(in, out, totals, n, per_thread_);
        else
            map_scan_chunks<false><<<grid, threads_, 0, s>>>(in, out, totals, n, per_thread_);
        CUDA_CHECK_LAUNCH();
    }
    // Kernel 2: the totals, level by level (inclusive, in place).
    for (std::size_t l = 1; l <= last; ++l) {
        const unsigned grid = static_cast<unsigned>(grid_for(scan_plan::ceil_div(levels[l], k), threads_));
        unsigned* data = totals_[l - 1];
        map_scan_chunks<false><<<grid, threads_, 0, s>>>(data, data, l < last ? totals_[l] : nullptr, levels[l],
                                                        per_thread_);
        CUDA_CHECK_LAUNCH();
    }
    // Kernel 3: add back, deepest level first.
    for (std::size_t l = last; l-- > 0;) {
        const std::size_t adders = scan_plan::ceil_div(levels[l], k) - 1;
        if (adders == 0) continue;
        unsigned* data = l == 0 ? out : totals_[l - 1];
        map_add_chunk_offsets<<<static_cast<unsigned>(grid_for(adders, threads_)), threads_, 0, s>>>(
            data, totals_[l], levels[l], per_thread_);
        CUDA_CHECK_LAUNCH();
    }
}

std::vector<KernelLaunch> MapScan::launches(std::size_t n, bool exclusive) const {
    const std::size_t k = static_cast<std::size_t>(per_thread_);
    const std::vector<std::size_t> levels = scan_plan::level_sizes(n, k);
    std::vector<KernelLaunch> out;
    const long long grid0 = grid_for(scan_plan::ceil_div(n, k), threads_);
    out.push_back(exclusive ? describe("map_scan_chunks", map_scan_chunks<true>, grid0, threads_, 0)
                            : describe("map_scan_chunks", map_scan_chunks<false>, grid0, threads_, 0));
    if (levels.size() > 1) {
        out.push_back(describe("map_scan_chunks(totals)", map_scan_chunks<false>,
                               grid_for(scan_plan::ceil_div(levels[1], k), threads_), threads_, 0));
        const std::size_t adders = scan_plan::ceil_div(n, k) - 1;
        if (adders > 0)
            out.push_back(describe("map_add_chunk_offsets", map_add_chunk_offsets, grid_for(adders, threads_),
                                   threads_, 0));
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// brent_kung
// ---------------------------------------------------------------------------------------

BrentKungScan::BrentKungScan(std::size_t max_n, int threads)
    : threads_(threads), sums_(max_n, 2 * static_cast<std::size_t>(threads)) {}

void BrentKungScan::run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) {
    const std::size_t section = 2 * static_cast<std::size_t>(threads_);
    const std::size_t smem = section * sizeof(unsigned);
    const std::vector<std::size_t> levels = scan_plan::level_sizes(n, section);
    const std::size_t last = levels.size() - 1;
    // Kernel 1: the data, one section per block.
    {
        const unsigned grid = static_cast<unsigned>(scan_plan::ceil_div(n, section));
        unsigned* sums = last > 0 ? sums_[0] : nullptr;
        if (exclusive)
            brent_kung_block_scan<true><<<grid, threads_, smem, s>>>(in, out, sums, n);
        else
            brent_kung_block_scan<false><<<grid, threads_, smem, s>>>(in, out, sums, n);
        CUDA_CHECK_LAUNCH();
    }
    // Kernel 2: the block sums, level by level (inclusive, in place).
    for (std::size_t l = 1; l <= last; ++l) {
        const unsigned grid = static_cast<unsigned>(scan_plan::ceil_div(levels[l], section));
        unsigned* data = sums_[l - 1];
        brent_kung_block_scan<false><<<grid, threads_, smem, s>>>(data, data, l < last ? sums_[l] : nullptr,
                                                                   levels[l]);
        CUDA_CHECK_LAUNCH();
    }
    // Kernel 3: add back, deepest level first.
    for (std::size_t l = last; l-- > 0;) {
        const std::size_t blocks = scan_plan::ceil_div(levels[l], section) - 1;
        if (blocks == 0) continue;
        unsigned* data = l == 0 ? out : sums_[l - 1];
        brent_kung_add_block_sums<<<static_cast<unsigned>(blocks), threads_, 0, s>>>(data, sums_[l], levels[l]);
        CUDA_CHECK_LAUNCH();
    }
}

std::vector<KernelLaunch> BrentKungScan::launches(std::size_t n, bool exclusive) const {
    const std::size_t section = 2 * static_cast<std::size_t>(threads_);
    const std::size_t smem = section * sizeof(unsigned);
    const std::vector<std::size_t> levels = scan_plan::level_sizes(n, section);
    std::vector<KernelLaunch> out;
    const long long grid0 = static_cast<long long>(scan_plan::ceil_div(n, section));
    out.push_back(exclusive ? describe("brent_kung_block_scan", brent_kung_block_scan<true>, grid0, threads_, smem)
                            : describe("brent_kung_block_scan", brent_kung_block_scan<false>, grid0, threads_, smem));
    if (levels.size() > 1) {
        out.push_back(describe("brent_kung_block_scan(sums)", brent_kung_block_scan<false>,
                               static_cast<long long>(scan_plan::ceil_div(levels[1], section)), threads_, smem));
        out.push_back(describe("brent_kung_add_block_sums", brent_kung_add_block_sums, grid0 - 1, threads_, 0));
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// map_brent_kung: map's chunk kernels around brent_kung's scan of the chunk totals
// ---------------------------------------------------------------------------------------

MapBrentKungScan::MapBrentKungScan(std::size_t max_n, int threads, int per_thread)
    : threads_(threads),
      per_thread_(per_thread),
      totals_(device_alloc(scan_plan::ceil_div(max_n > 0 ? max_n : 1, static_cast<std::size_t>(per_thread)))),
      totals_scan_(scan_plan::ceil_div(max_n > 0 ? max_n : 1, static_cast<std::size_t>(per_thread)), threads) {}

MapBrentKungScan::~MapBrentKungScan() { cudaFree(totals_); }

void MapBrentKungScan::run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) {
    const std::size_t chunks = scan_plan::ceil_div(n, static_cast<std::size_t>(per_thread_));
    unsigned* totals = chunks > 1 ? totals_ : nullptr;
    // Kernel 1: every chunk scanned serially by its thread, its total written.
    const unsigned grid = static_cast<unsigned>(grid_for(chunks, threads_));
    if (exclusive)
        map_scan_chunks<true><<<grid, threads_, 0, s>>>(in, out, totals, n, per_thread_);
    else
        map_scan_chunks<false><<<grid, threads_, 0, s>>>(in, out, totals, n, per_thread_);
    CUDA_CHECK_LAUNCH();
    if (chunks <= 1) return;
    // Kernel 2: the totals, inclusive, in place, by Brent-Kung (recursive beyond one block).
    totals_scan_.run(totals_, totals_, chunks, false, s);
    // Kernel 3: chunk t + 1 gets the scanned total of chunks 0..t.
    map_add_chunk_offsets<<<static_cast<unsigned>(grid_for(chunks - 1, threads_)), threads_, 0, s>>>(
        out, totals_, n, per_thread_);
    CUDA_CHECK_LAUNCH();
}

std::vector<KernelLaunch> MapBrentKungScan::launches(std::size_t n, bool exclusive) const {
    const std::size_t chunks = scan_plan::ceil_div(n, static_cast<std::size_t>(per_thread_));
    const long long grid0 = grid_for(chunks, threads_);
    std::vector<KernelLaunch> out;
    out.push_back(exclusive ? describe("map_scan_chunks", map_scan_chunks<true>, grid0, threads_, 0)
                            : describe("map_scan_chunks", map_scan_chunks<false>, grid0, threads_, 0));
    if (chunks > 1) {
        KernelLaunch k2 = totals_scan_.launches(chunks, false).front();
        k2.name = "brent_kung_block_scan(totals)";
        out.push_back(k2);
        out.push_back(describe("map_add_chunk_offsets", map_add_chunk_offsets, grid_for(chunks - 1, threads_),
                               threads_, 0));
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// lookback
// ---------------------------------------------------------------------------------------

namespace {

// One block per tile.
template <int kItems>
unsigned lookback_grid(std::size_t n) {
    return static_cast<unsigned>(scan_plan::ceil_div(n, static_cast<std::size_t>(LbTile<kItems>::kSize)));
}

// The kernel for (exclusive, block_ids): tile ids by blockIdx.x only where the caller checked
// that the grid is resident (LookbackPolicy::block_ids).
template <int kItems>
auto lookback_kernel(bool exclusive, bool block_ids) -> decltype(&scan_decoupled_lookback<false, kItems>) {
    if (block_ids)
        return exclusive ? scan_decoupled_lookback<true, kItems, true> : scan_decoupled_lookback<false, kItems, true>;
    return exclusive ? scan_decoupled_lookback<true, kItems> : scan_decoupled_lookback<false, kItems>;
}

template <int kItems>
void launch_lookback(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, bool block_ids,
                     unsigned long long* descriptors, unsigned* tile_counter, unsigned epoch, cudaStream_t s) {
    const unsigned grid = lookback_grid<kItems>(n);
    lookback_kernel<kItems>(exclusive, block_ids)<<<grid, kLbThreads, 0, s>>>(in, out, n, descriptors, tile_counter,
                                                                             grid, epoch);
    CUDA_CHECK_LAUNCH();
}

template <int kItems>
KernelLaunch describe_lookback(std::size_t n, bool exclusive, bool block_ids) {
    return describe("scan_decoupled_lookback", lookback_kernel<kItems>(exclusive, block_ids), lookback_grid<kItems>(n),
                    kLbThreads, 0);
}

// The kernel exists for the policy's two tile shapes only; any other is a loud failure,
// never a launch of another instantiation.
void check_policy(const LookbackPolicy& p) {
    if (p.threads != kLbThreads || (p.items != LookbackPolicy::kItemsSmall && p.items != LookbackPolicy::kItemsLarge))
        internal_error("lookback is built for " + std::to_string(kLbThreads) + " threads x " +
                       std::to_string(LookbackPolicy::kItemsSmall) + " or " +
                       std::to_string(LookbackPolicy::kItemsLarge) + " ints, not " + std::to_string(p.threads) +
                       " x " + std::to_string(p.items));
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// The blocks of the block-id kernels for `items` the current device holds at once (the fewer
// of the two scans'): the occupancy API's blocks per SM x SMs.
template <int kItems>
long long lookback_resident_blocks() {
    int device = 0, sms = 0, inclusive = 0, exclusive = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&inclusive, lookback_kernel<kItems>(false, true),
                                                             kLbThreads, 0));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&exclusive, lookback_kernel<kItems>(true, true),
                                                             kLbThreads, 0));
    return static_cast<long long>(std::min(inclusive, exclusive)) * sms;
}

}  // namespace

LookbackScan::LookbackScan(std::size_t max_n, const LookbackPolicy& policy)
    : policy_(policy),
      max_tiles_(scan_plan::ceil_div(max_n > 0 ? max_n : 1, static_cast<std::size_t>(policy.tile() > 0 ? policy.tile() : 1))) {
    check_policy(policy_);
    resident_blocks_ = policy_.items == LookbackPolicy::kItemsLarge
                           ? lookback_resident_blocks<LookbackPolicy::kItemsLarge>()
                           : lookback_resident_blocks<LookbackPolicy::kItemsSmall>();
    CUDA_CHECK(cudaMalloc(&descriptors_, max_tiles_ * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(descriptors_, 0, max_tiles_ * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&tile_counter_, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(tile_counter_, 0, sizeof(unsigned)));
}

LookbackScan::~LookbackScan() {
    cudaFree(descriptors_);
    cudaFree(tile_counter_);
}

void LookbackScan::run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) {
    if (!aligned16(in) || !aligned16(out))
        internal_error("lookback needs 16-byte aligned input and output (uint4 loads and stores)");
    if (scan_plan::ceil_div(n, static_cast<std::size_t>(policy_.tile())) > max_tiles_)
        internal_error("lookback asked for n=" + std::to_string(n) + ", more than its workspace holds");
    if (tile_epoch::advance(epoch_, tile_epoch::kLookbackLimit))
        CUDA_CHECK(cudaMemsetAsync(descriptors_, 0, max_tiles_ * sizeof(unsigned long long), s));
    const bool ids = block_ids(n);
    switch (policy_.items) {
        case LookbackPolicy::kItemsLarge:
            launch_lookback<LookbackPolicy::kItemsLarge>(in, out, n, exclusive, ids, descriptors_,
                                                         tile_counter_, epoch_, s);
            break;
        case LookbackPolicy::kItemsSmall:
            launch_lookback<LookbackPolicy::kItemsSmall>(in, out, n, exclusive, ids, descriptors_,
                                                         tile_counter_, epoch_, s);
            break;
        default: check_policy(policy_);
    }
}

bool LookbackScan::block_ids(std::size_t n) const {
    const std::size_t tiles = scan_plan::ceil_div(n, static_cast<std::size_t>(policy_.tile()));
    return LookbackPolicy::block_ids(static_cast<long long>(tiles), resident_blocks_);
}

std::vector<KernelLaunch> LookbackScan::launches(std::size_t n, bool exclusive) const {
    switch (policy_.items) {
        case LookbackPolicy::kItemsLarge:
            return {describe_lookback<LookbackPolicy::kItemsLarge>(n, exclusive, block_ids(n))};
        case LookbackPolicy::kItemsSmall:
            return {describe_lookback<LookbackPolicy::kItemsSmall>(n, exclusive, block_ids(n))};
        default: check_policy(policy_);
    }
    return {};
}

// ---------------------------------------------------------------------------------------
// lookahead: the warp-specialised scan of ws_scan.cuh where the policy says so, else lookback
// ---------------------------------------------------------------------------------------

namespace {

using scan_policy::LookaheadPolicy;

// ws_scan.cuh's kernel, per mode: compiled for LookaheadPolicy's shape.
using WsKernel = void (*)(ws::Params);
template <bool kExclusive>
WsKernel ws_kernel() {
    return ws::ws_scan_kernel<kExclusive>;
}

// Both modes' kernels may use the stages' dynamic shared memory (beyond the default 48 KiB)
// on the current device.
void allow_ws_smem() {
    CUDA_CHECK(cudaFuncSetAttribute(ws_kernel<false>(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    LookaheadPolicy::kSmemBytes));
    CUDA_CHECK(cudaFuncSetAttribute(ws_kernel<true>(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    LookaheadPolicy::kSmemBytes));
}

}  // namespace

LookaheadScan::LookaheadScan(std::size_t max_n, const LookaheadPolicy& policy, const LookbackPolicy& fallback)
    : policy_(policy), fallback_(max_n, fallback) {
    // The ws workspace only where some n <= max_n takes the ws kernel (use_ws grows with n).
    if (!policy_.use_ws(static_cast<long long>(max_n))) return;
    allow_ws_smem();
    max_tiles_ = static_cast<std::size_t>(LookaheadPolicy::tiles(static_cast<long long>(max_n)));
    CUDA_CHECK(cudaMalloc(&descriptors_, max_tiles_ * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(descriptors_, 0, max_tiles_ * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&counter_, 2 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(counter_, 0, 2 * sizeof(unsigned)));
}

LookaheadScan::~LookaheadScan() {
    cudaFree(descriptors_);
    cudaFree(counter_);
}

void LookaheadScan::run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) {
    if (!policy_.use_ws(static_cast<long long>(n))) {
        fallback_.run(in, out, n, exclusive, s);
        return;
    }
    if (!aligned16(in) || !aligned16(out))
        internal_error("lookahead needs 16-byte aligned input and output (bulk copies and uint4 stores)");
    const std::size_t tiles = scan_plan::ceil_div(n, static_cast<std::size_t>(LookaheadPolicy::kTile));
    if (tiles > max_tiles_)
        internal_error("lookahead asked for n=" + std::to_string(n) + ", more than its workspace holds");
    if (tile_epoch::advance(epoch_, tile_epoch::kWsLimit))
        CUDA_CHECK(cudaMemsetAsync(descriptors_, 0, max_tiles_ * sizeof(unsigned long long), s));
    const ws::Params p{in, out, n, descriptors_, counter_, static_cast<unsigned>(tiles), epoch_};
    const unsigned grid = static_cast<unsigned>(policy_.grid(static_cast<long long>(n)));
    if (exclusive)
        ws_kernel<true>()<<<grid, LookaheadPolicy::kThreads, LookaheadPolicy::kSmemBytes, s>>>(p);
    else
        ws_kernel<false>()<<<grid, LookaheadPolicy::kThreads, LookaheadPolicy::kSmemBytes, s>>>(p);
    CUDA_CHECK_LAUNCH();
}

std::vector<KernelLaunch> LookaheadScan::launches(std::size_t n, bool exclusive) const {
    if (!policy_.use_ws(static_cast<long long>(n))) return fallback_.launches(n, exclusive);
    const long long grid = policy_.grid(static_cast<long long>(n));
    return {exclusive ? describe("ws_scan_kernel", ws_kernel<true>(), grid, LookaheadPolicy::kThreads,
                                 LookaheadPolicy::kSmemBytes)
                      : describe("ws_scan_kernel", ws_kernel<false>(), grid, LookaheadPolicy::kThreads,
                                 LookaheadPolicy::kSmemBytes)};
}

std::string LookaheadScan::choice(std::size_t n) const {
    const long long nn = static_cast<long long>(n);
    if (policy_.use_ws(nn))
        return "kernel=ws_scan_kernel (warp-specialised" +
               std::string(policy_.choice == LookaheadPolicy::Choice::kWs && nn < LookaheadPolicy::kMinN
                               ? ", forced by --la-kernel=ws)"
                               : ")");
    std::string why;
    if (!policy_.can_run) why = "the ws kernel cannot run here: " + policy_.why_not;
    else if (policy_.choice == LookaheadPolicy::Choice::kLookback) why = "--la-kernel=lookback";
    else why = "n < " + std::to_string(LookaheadPolicy::kMinN) + ", the policy's threshold";
    return "kernel=scan_decoupled_lookback (" + why + ")";
}

}  // namespace scan_gpu

// The policy for `dev`: the occupancy API says how many 32-int blocks are resident per SM of
// the current device (shared memory, registers and threads all counted), so `dev` is made
// current first (the session already did; this keeps the answer about `dev` whoever calls).
scan_policy::LookbackPolicy scan_policy::LookbackPolicy::for_device(const cw::DeviceInfo& dev) {
    CUDA_CHECK(cudaSetDevice(dev.id));
    int large_blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &large_blocks, scan_gpu::scan_decoupled_lookback<false, LookbackPolicy::kItemsLarge>, LookbackPolicy::kThreads,
        0));
    return choose(large_blocks);
}

// The policy for `dev`: what the driver loaded for the ws kernel (its PTX and binary versions),
// the opt-in shared memory per block, and (only where both allow the kernel) its resident CTAs
// per SM with the stages' shared memory. The kernel's shared memory limit is raised on `dev`
// for the occupancy question (and again by every LookaheadScan that will launch it).
scan_policy::LookaheadPolicy scan_policy::LookaheadPolicy::for_device(const cw::DeviceInfo& dev) {
    CUDA_CHECK(cudaSetDevice(dev.id));
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, scan_gpu::ws_kernel<false>()));
    int optin = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev.id));
    LookaheadPolicy p = choose(attr.binaryVersion, attr.ptxVersion, optin, static_cast<long long>(attr.sharedSizeBytes),
                               1, dev.sm_count);
    if (!p.can_run) {
        p.ctas_per_sm = 0;
        return p;
    }
    scan_gpu::allow_ws_smem();
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scan_gpu::ws_kernel<false>(), kThreads,
                                                             kSmemBytes));
    return choose(attr.binaryVersion, attr.ptxVersion, optin, static_cast<long long>(attr.sharedSizeBytes), per_sm,
                  dev.sm_count);
}
