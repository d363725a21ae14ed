// Every GPU version of the integer sum (report 004 / Harris 2007) and their launch code.
//
// Common fixes against the report's code (README, "Bugs of the report's code"):
//  - each kernel writes its block partial to a separate buffer, not back into the input
//    (the report's `d[blockIdx.x] = sm[0]` overwrites elements that other blocks may not
//    have read yet, and destroys the input);
//  - loads past the end read 0, so any n works (the report assumed n a multiple of the
//    block size, or of twice the block size from version 4 on);
//  - the data are int32 bits held as unsigned int, so that overflow is defined (mod 2^32);
//  - version 5's last-warp unrolling synchronises the warp (see warp_reduce_synced).
#include "reduction_versions_kernels.cuh"

#include <algorithm>

#include "common.cuh"

namespace rv {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// ---------------------------------------------------------------------------------------
// version=1: interleaved addressing with the divergent `%` branch (report's version 1, Harris's
// kernel 1). One element per thread, tree in shared memory.
//   why: the plain tree reduction in fast on-chip shared memory, the starting point.
__global__ void reduce_interleaved_divergent(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                             unsigned n) {
    extern __shared__ unsigned sm[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sm[tid] = i < n ? in[i] : 0u;  // fix: bounds (the report read past the end)
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0) sm[tid] += sm[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sm[0];  // fix: a separate output, not the input
}

// version=2: interleaved addressing with a strided index (report's version 2, Harris 2).
//   why: consecutive threads stay active, so warps do not diverge and no `%` is computed;
//   the price is 2-way and worse shared-memory bank conflicts (index = 2*stride*tid).
__global__ void reduce_interleaved_strided(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                           unsigned n) {
    extern __shared__ unsigned sm[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sm[tid] = i < n ? in[i] : 0u;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        const unsigned index = 2 * stride * tid;
        if (index < blockDim.x) sm[index] += sm[index + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sm[0];
}

// version=3: sequential addressing (report's version 3, Harris 3).
//   why: threads tid and tid+stride touch consecutive words, so there are no bank conflicts;
//   but half of the threads are idle from the first step on.
__global__ void reduce_sequential_addressing(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                             unsigned n) {
    extern __shared__ unsigned sm[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sm[tid] = i < n ? in[i] : 0u;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) sm[tid] += sm[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sm[0];
}

// version=4: first add during the global load (report's version 4, Harris 4): each block
// reduces 2*blockDim.x elements, so half as many blocks are launched.
//   why: no thread is idle in the first step; the first add happens in registers.
__global__ void reduce_first_add_during_load(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                             unsigned n) {
    extern __shared__ unsigned sm[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    unsigned v = i < n ? in[i] : 0u;  // fix: both loads bounded
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sm[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) sm[tid] += sm[tid + stride];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sm[0];
}

// The last six steps of the tree inside one warp (tid < 32; blockDim.x >= 64), with the
// report's structure (sm[tid] += sm[tid + 32], + 16, ..., + 1) made correct: each value is
// read into a register, the warp synchronises (__syncwarp), then writes, and synchronises
// again. On sm_70+ the lanes of a warp are not in lockstep (independent thread scheduling),
// so without the barriers lane 0 may read sm[16] before or after lane 16 updated it; and
// without `volatile` the compiler may keep sm[tid] in a register and read every sm[tid + k]
// once, up front. Thread 0 writes the block's sum.
__device__ __forceinline__ void warp_reduce_synced(unsigned* sm, unsigned tid, unsigned* block_out) {
    volatile unsigned* v = sm;
    unsigned sum = v[tid] + v[tid + 32];
    __syncwarp();
    v[tid] = sum;
    __syncwarp();
    sum += v[tid + 16];
    __syncwarp();
    v[tid] = sum;
    __syncwarp();
    sum += v[tid + 8];
    __syncwarp();
    v[tid] = sum;
    __syncwarp();
    sum += v[tid + 4];
    __syncwarp();
    v[tid] = sum;
    __syncwarp();
    sum += v[tid + 2];
    __syncwarp();
    v[tid] = sum;
    __syncwarp();
    sum += v[tid + 1];
    if (tid == 0) *block_out = sum;
}

// version=5: last warp unrolled (report's version 5, Harris 5), fixed.
//   why: below 64 active threads only one warp works, so its six steps need no
//   __syncthreads and no loop; the report's code relied on implicit warp lockstep, which is
//   a race on sm_70+ (and without volatile even on older GPUs): see warp_reduce_synced.
__global__ void reduce_unrolled_last_warp(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                          unsigned n) {
    extern __shared__ unsigned sm[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    unsigned v = i < n ? in[i] : 0u;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sm[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) sm[tid] += sm[tid + stride];
        __syncthreads();
    }
    if (tid < 32) warp_reduce_synced(sm, tid, out + blockIdx.x);
}

// version=5-unfixed: the report's version 5 exactly as printed (no volatile, no warp
// synchronisation). A demonstration of the race only: excluded from PASS/FAIL, from the
// default set of versions and from the sanitizer tests.
__global__ void reduce_unrolled_last_warp_as_printed(const unsigned* __restrict__ in,
                                                     unsigned* __restrict__ out, unsigned n) {
    extern __shared__ unsigned sm[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    unsigned v = i < n ? in[i] : 0u;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sm[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) sm[tid] += sm[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        sm[tid] += sm[tid + 32];
        sm[tid] += sm[tid + 16];
        sm[tid] += sm[tid + 8];
        sm[tid] += sm[tid + 4];
        sm[tid] += sm[tid + 2];
        sm[tid] += sm[tid + 1];
    }
    if (tid == 0) out[blockIdx.x] = sm[0];
}

// The shared-memory tree of versions 6 and 7, completely unrolled for a block size known at
// compile time (BLOCK >= 64), ending in the synchronised last warp.
template <unsigned BLOCK>
__device__ __forceinline__ void block_reduce_unrolled(unsigned* sm, unsigned tid, unsigned* block_out) {
    if (BLOCK >= 1024) {
        if (tid < 512) sm[tid] += sm[tid + 512];
        __syncthreads();
    }
    if (BLOCK >= 512) {
        if (tid < 256) sm[tid] += sm[tid + 256];
        __syncthreads();
    }
    if (BLOCK >= 256) {
        if (tid < 128) sm[tid] += sm[tid + 128];
        __syncthreads();
    }
    if (BLOCK >= 128) {
        if (tid < 64) sm[tid] += sm[tid + 64];
        __syncthreads();
    }
    if (tid < 32) warp_reduce_synced(sm, tid, block_out);
}

// version=6: complete unrolling with the block size as a template parameter (Harris 6).
//   why: with BLOCK known at compile time the loop, its counter and the dead branches go away.
template <unsigned BLOCK>
__global__ void reduce_complete_unroll(const unsigned* __restrict__ in, unsigned* __restrict__ out, unsigned n) {
    extern __shared__ unsigned sm[];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * (BLOCK * 2) + threadIdx.x;
    unsigned v = i < n ? in[i] : 0u;
    if (i + BLOCK < n) v += in[i + BLOCK];
    sm[tid] = v;
    __syncthreads();
    block_reduce_unrolled<BLOCK>(sm, tid, out + blockIdx.x);
}

// version=7: several elements per thread with a grid-stride loop (Harris 7); the grid is the
// number of blocks resident on the device (SMs x occupancy), not n / (2 * BLOCK).
//   why: each thread sums many elements in a register before the tree (Brent's theorem:
//   the O(log n) tree is paid once per block, the loads are independent and overlap).
template <unsigned BLOCK>
__global__ void reduce_multiple_per_thread(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                           std::size_t n) {
    extern __shared__ unsigned sm[];
    const unsigned tid = threadIdx.x;
    const std::size_t grid_size = static_cast<std::size_t>(BLOCK) * 2 * gridDim.x;
    unsigned sum = 0;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * (BLOCK * 2) + tid; i < n; i += grid_size) {
        sum += in[i];
        if (i + BLOCK < n) sum += in[i + BLOCK];
    }
    sm[tid] = sum;
    __syncthreads();
    block_reduce_unrolled<BLOCK>(sm, tid, out + blockIdx.x);
}

__device__ __forceinline__ unsigned warp_sum_shuffle(unsigned v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(kFullMask, v, offset);
    return v;
}

__device__ __forceinline__ unsigned lanes_sum(const uint4& a) { return (a.x + a.y) + (a.z + a.w); }

// version=8: 16-byte loads, warp shuffles, one launch to a single value (ours).
//   why: int4 loads move 4 ints per instruction; 4 independent int4 loads per thread per
//   iteration keep enough bytes in flight to saturate HBM; the grid is exactly what fits on
//   the device (grid-stride); warp shuffles replace the shared-memory tree (no bank traffic,
//   no __syncthreads but one); each block adds its sum into one result with atomicAdd (the
//   host zeroes it with cudaMemsetAsync in the same stream), so there is no second pass.
// `in` must be 16-byte aligned (cudaMalloc gives 256).
__global__ void reduce_vectorized_shuffle_atomic(const unsigned* __restrict__ in, std::size_t n,
                                                 unsigned* __restrict__ result) {
    const uint4* __restrict__ in4 = reinterpret_cast<const uint4*>(in);
    const std::size_t n4 = n / 4;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t gtid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    std::size_t i = gtid;
    unsigned sum = 0;
    for (; i + 3 * stride < n4; i += 4 * stride) {  // 4 loads in flight, no bounds checks
        const uint4 a = __ldg(in4 + i);
        const uint4 b = __ldg(in4 + i + stride);
        const uint4 c = __ldg(in4 + i + 2 * stride);
        const uint4 d = __ldg(in4 + i + 3 * stride);
        sum += (lanes_sum(a) + lanes_sum(b)) + (lanes_sum(c) + lanes_sum(d));
    }
    {  // the last round: at most 3 loads left, issued together
        const uint4 zero = make_uint4(0u, 0u, 0u, 0u);
        const uint4 a = i < n4 ? __ldg(in4 + i) : zero;
        const uint4 b = i + stride < n4 ? __ldg(in4 + i + stride) : zero;
        const uint4 c = i + 2 * stride < n4 ? __ldg(in4 + i + 2 * stride) : zero;
        sum += lanes_sum(a) + lanes_sum(b) + lanes_sum(c);
    }
    if (gtid < n - 4 * n4) sum += __ldg(in + 4 * n4 + gtid);  // the n % 4 last elements

    __shared__ unsigned warp_sums[32];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    sum = warp_sum_shuffle(sum);
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < (blockDim.x >> 5) ? warp_sums[lane] : 0u;
        sum = warp_sum_shuffle(sum);
        if (lane == 0) atomicAdd(result, sum);
    }
}

// ---------------------------------------------------------------------------------------
// Host side.

const VersionInfo kVersions[] = {
    {Version::kV1, "1", "reduce_interleaved_divergent"},
    {Version::kV2, "2", "reduce_interleaved_strided"},
    {Version::kV3, "3", "reduce_sequential_addressing"},
    {Version::kV4, "4", "reduce_first_add_during_load"},
    {Version::kV5, "5", "reduce_unrolled_last_warp"},
    {Version::kV6, "6", "reduce_complete_unroll"},
    {Version::kV7, "7", "reduce_multiple_per_thread"},
    {Version::kV8, "8", "reduce_vectorized_shuffle_atomic"},
    {Version::kV5Unfixed, "5-unfixed", "reduce_unrolled_last_warp_as_printed"},
};

// Elements one block of `version` consumes per pass (versions 1..6; 7 and 8 grid-stride).
std::size_t elements_per_block(Version version, int threads) {
    switch (version) {
        case Version::kV1:
        case Version::kV2:
        case Version::kV3: return static_cast<std::size_t>(threads);
        default: return 2 * static_cast<std::size_t>(threads);
    }
}

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

template <unsigned BLOCK>
void launch_v6(const unsigned* in, unsigned* out, std::size_t m, unsigned grid, cudaStream_t s) {
    reduce_complete_unroll<BLOCK><<<grid, BLOCK, BLOCK * sizeof(unsigned), s>>>(in, out, static_cast<unsigned>(m));
}
template <unsigned BLOCK>
void launch_v7(const unsigned* in, unsigned* out, std::size_t m, unsigned grid, cudaStream_t s) {
    reduce_multiple_per_thread<BLOCK><<<grid, BLOCK, BLOCK * sizeof(unsigned), s>>>(in, out, m);
}

// One pass of versions 1..7: m elements of `in` -> `grid` block partials in `out`.
void launch_pass(Version version, const unsigned* in, unsigned* out, std::size_t m, int threads, unsigned grid,
                 cudaStream_t s) {
    const std::size_t smem = static_cast<std::size_t>(threads) * sizeof(unsigned);
    const unsigned m32 = static_cast<unsigned>(m);
    switch (version) {
        case Version::kV1: reduce_interleaved_divergent<<<grid, threads, smem, s>>>(in, out, m32); break;
        case Version::kV2: reduce_interleaved_strided<<<grid, threads, smem, s>>>(in, out, m32); break;
        case Version::kV3: reduce_sequential_addressing<<<grid, threads, smem, s>>>(in, out, m32); break;
        case Version::kV4: reduce_first_add_during_load<<<grid, threads, smem, s>>>(in, out, m32); break;
        case Version::kV5: reduce_unrolled_last_warp<<<grid, threads, smem, s>>>(in, out, m32); break;
        case Version::kV5Unfixed: reduce_unrolled_last_warp_as_printed<<<grid, threads, smem, s>>>(in, out, m32); break;
        case Version::kV6:
            switch (threads) {
                case 64: launch_v6<64>(in, out, m, grid, s); break;
                case 128: launch_v6<128>(in, out, m, grid, s); break;
                case 256: launch_v6<256>(in, out, m, grid, s); break;
                case 512: launch_v6<512>(in, out, m, grid, s); break;
                default: launch_v6<1024>(in, out, m, grid, s); break;
            }
            break;
        case Version::kV7:
            switch (threads) {
                case 64: launch_v7<64>(in, out, m, grid, s); break;
                case 128: launch_v7<128>(in, out, m, grid, s); break;
                case 256: launch_v7<256>(in, out, m, grid, s); break;
                case 512: launch_v7<512>(in, out, m, grid, s); break;
                default: launch_v7<1024>(in, out, m, grid, s); break;
            }
            break;
        case Version::kV8: break;  // not a pass-based version
    }
    CUDA_CHECK_LAUNCH();
}

template <typename Kernel>
int occupancy_blocks(Kernel kernel, int threads, std::size_t smem) {
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    return std::max(1, sms * std::max(1, per_sm));
}

}  // namespace

const VersionInfo* version_table(int* count) {
    *count = static_cast<int>(sizeof kVersions / sizeof kVersions[0]);
    return kVersions;
}

std::size_t partial_capacity(std::size_t n, long long blocks_override) {
    const std::size_t most = ceil_div(n, 64);  // version 1 with 64 threads: the largest grid
    return std::max<std::size_t>({most, static_cast<std::size_t>(std::max(0LL, blocks_override)), 1});
}

int resident_blocks(Version version, int threads) {
    const std::size_t smem = static_cast<std::size_t>(threads) * sizeof(unsigned);
    if (version == Version::kV8) return occupancy_blocks(reduce_vectorized_shuffle_atomic, threads, 0);
    if (version != Version::kV7) return 0;
    switch (threads) {
        case 64: return occupancy_blocks(reduce_multiple_per_thread<64>, threads, smem);
        case 128: return occupancy_blocks(reduce_multiple_per_thread<128>, threads, smem);
        case 256: return occupancy_blocks(reduce_multiple_per_thread<256>, threads, smem);
        case 512: return occupancy_blocks(reduce_multiple_per_thread<512>, threads, smem);
        default: return occupancy_blocks(reduce_multiple_per_thread<1024>, threads, smem);
    }
}

const unsigned* enqueue_reduction(Version version, const unsigned* in, std::size_t n, int threads,
                                  long long grid_cap, const Workspace& ws, cudaStream_t stream,
                                  LaunchPlan* plan) {
    LaunchPlan local;
    if (version == Version::kV8) {
        const std::size_t n4 = n / 4;
        std::size_t grid = std::max<std::size_t>(1, ceil_div(n4, static_cast<std::size_t>(threads)));
        if (grid_cap > 0) grid = std::min(grid, static_cast<std::size_t>(grid_cap));
        CUDA_CHECK(cudaMemsetAsync(ws.result, 0, sizeof(unsigned), stream));
        reduce_vectorized_shuffle_atomic<<<static_cast<unsigned>(grid), threads, 0, stream>>>(in, n, ws.result);
        CUDA_CHECK_LAUNCH();
        local.first_grid = static_cast<long long>(grid);
        local.launches = 1;
        local.memsets = 1;
        if (plan != nullptr) *plan = local;
        return ws.result;
    }
    // Versions 1..7: passes of the same kernel, ping-ponging between the partial buffers,
    // until a single block has written the single value.
    const unsigned* src = in;
    unsigned* dst = ws.partial_a;
    unsigned* other = ws.partial_b;
    std::size_t m = n;
    for (;;) {
        std::size_t grid = ceil_div(m, elements_per_block(version, threads));
        if (version == Version::kV7 && grid_cap > 0) grid = std::min(grid, static_cast<std::size_t>(grid_cap));
        launch_pass(version, src, dst, m, threads, static_cast<unsigned>(grid), stream);
        if (local.launches++ == 0) local.first_grid = static_cast<long long>(grid);
        if (grid == 1) break;
        m = grid;
        src = dst;
        std::swap(dst, other);
    }
    if (plan != nullptr) *plan = local;
    return dst;
}

}  // namespace rv
