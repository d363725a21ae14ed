// Every GPU kernel of the integer sum (report 004 / Harris 2007) and its launch code; the
// versions that run them are the registry's (reduction_versions_versions.cu).
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
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "common.cuh"
#include "reduction_cub.cuh"
#include "reduction_versions_policy.h"

namespace rv {
namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// One pass of a kernel whose block size is a launch parameter: grid blocks of `threads`
// threads, one unsigned of shared memory per thread.
template <void (*KERNEL)(const unsigned* __restrict__, unsigned* __restrict__, unsigned)>
void launch_plain(const unsigned* in, unsigned* out, std::size_t m, int threads, unsigned grid, cudaStream_t s) {
    KERNEL<<<grid, threads, static_cast<std::size_t>(threads) * sizeof(unsigned), s>>>(in, out,
                                                                                       static_cast<unsigned>(m));
}

// Versions 1-3's load: one element per thread into sm[threadIdx.x] (zero past n: the report
// read past the end), then a barrier.
__device__ __forceinline__ void load_one(const unsigned* __restrict__ in, unsigned n, unsigned* sm) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sm[threadIdx.x] = i < n ? in[i] : 0u;
    __syncthreads();
}

// Versions 3-5's tree: sequential addressing (threads tid and tid + stride touch consecutive
// words), strides blockDim.x / 2 down to stop + 1, a barrier after each step: with stop = 0 the
// sum ends in sm[0]; with stop = 32 (version 5), 64 partial sums are left for the last warp.
__device__ __forceinline__ void sequential_tree(unsigned* sm, unsigned stop = 0) {
    for (unsigned stride = blockDim.x / 2; stride > stop; stride >>= 1) {
        if (threadIdx.x < stride) sm[threadIdx.x] += sm[threadIdx.x + stride];
        __syncthreads();
    }
}

// ---------------------------------------------------------------------------------------
// version=1: interleaved addressing with the divergent `%` branch (report's version 1, Harris's
// kernel 1). One element per thread, tree in shared memory.
//   why: the plain tree reduction in fast on-chip shared memory, the starting point.
__global__ void reduce_interleaved_divergent(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                             unsigned n) {
    extern __shared__ unsigned sm[];
    const unsigned tid = threadIdx.x;
    load_one(in, n, sm);  // fix: bounds (the report read past the end)
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
    load_one(in, n, sm);
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
    load_one(in, n, sm);
    sequential_tree(sm);
    if (threadIdx.x == 0) out[blockIdx.x] = sm[0];
}

// Version 4's step, kept by versions 5, 5-unfixed and 6: each block reduces 2*block elements
// (block = its number of threads), each thread adding two of them, `block` apart, in a
// register during the global load; the sum goes to sm[threadIdx.x], then a barrier.
__device__ __forceinline__ void load_first_add(const unsigned* __restrict__ in, unsigned n, unsigned block,
                                               unsigned* sm) {
    const unsigned i = blockIdx.x * (block * 2) + threadIdx.x;
    unsigned v = i < n ? in[i] : 0u;  // fix: both loads bounded
    if (i + block < n) v += in[i + block];
    sm[threadIdx.x] = v;
    __syncthreads();
}

// version=4: first add during the global load (report's version 4, Harris 4): each block
// reduces 2*blockDim.x elements, so half as many blocks are launched (load_first_add).
//   why: no thread is idle in the first step; the first add happens in registers.
__global__ void reduce_first_add_during_load(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                             unsigned n) {
    extern __shared__ unsigned sm[];
    load_first_add(in, n, blockDim.x, sm);
    sequential_tree(sm);
    if (threadIdx.x == 0) out[blockIdx.x] = sm[0];
}

// The last six steps of the tree inside one warp (tid < 32; blockDim.x >= 64), with the
// report's structure (sm[tid] += sm[tid + 32], + 16, ..., + 1) made correct: each value is
// read into a register, the warp synchronises (__syncwarp), then writes, and synchronises
// again. On sm_70+ the lanes of a warp are not in lockstep (independent thread scheduling),
// so without the barriers lane 0 may read sm[16] before or after lane 16 updated it; and
// without `volatile` the compiler may keep sm[tid] in a register and read every sm[tid + k]
// once, up front. Thread 0 writes the block's sum.
// The offsets are compile-time constants: the loop is unrolled into the six steps.
__device__ __forceinline__ void warp_reduce_synced(unsigned* sm, unsigned tid, unsigned* block_out) {
    volatile unsigned* v = sm;
    unsigned sum = v[tid];
#pragma unroll
    for (unsigned offset = 32; offset > 1; offset >>= 1) {
        sum += v[tid + offset];
        __syncwarp();
        v[tid] = sum;
        __syncwarp();
    }
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
    load_first_add(in, n, blockDim.x, sm);
    sequential_tree(sm, 32);
    if (tid < 32) warp_reduce_synced(sm, tid, out + blockIdx.x);
}

// version=5-unfixed: the report's version 5 exactly as printed (no volatile, no warp
// synchronisation). A demonstration of the race only: excluded from PASS/FAIL, from the
// default set of versions and from the sanitizer tests.
__global__ void reduce_unrolled_last_warp_as_printed(const unsigned* __restrict__ in,
                                                     unsigned* __restrict__ out, unsigned n) {
    extern __shared__ unsigned sm[];
    const unsigned tid = threadIdx.x;
    load_first_add(in, n, blockDim.x, sm);
    sequential_tree(sm, 32);
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
// compile time (BLOCK >= 64), ending in the synchronised last warp: the strides BLOCK/2 ... 64
// are compile-time constants, so the loop becomes straight-line code, with no counter and no
// step for a stride the block does not have.
template <unsigned BLOCK>
__device__ __forceinline__ void block_reduce_unrolled(unsigned* sm, unsigned tid, unsigned* block_out) {
#pragma unroll
    for (unsigned stride = BLOCK / 2; stride >= 64; stride >>= 1) {
        if (tid < stride) sm[tid] += sm[tid + stride];
        __syncthreads();
    }
    if (tid < 32) warp_reduce_synced(sm, tid, block_out);
}

// version=6: complete unrolling with the block size as a template parameter (Harris 6).
//   why: with BLOCK known at compile time the loop, its counter and the dead branches go away.
template <unsigned BLOCK>
__global__ void reduce_complete_unroll(const unsigned* __restrict__ in, unsigned* __restrict__ out, unsigned n) {
    extern __shared__ unsigned sm[];
    load_first_add(in, n, BLOCK, sm);
    block_reduce_unrolled<BLOCK>(sm, threadIdx.x, out + blockIdx.x);
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

// version=8: 16-byte loads, warp shuffles, one launch to a single value, no memset (ours).
//   why: int4 loads move 4 ints per instruction; 4 independent int4 loads per thread per
//   iteration keep enough bytes in flight to saturate HBM; the grid is what fits on the
//   device (grid-stride), a few waves of it on large inputs (kPolicy); warp shuffles replace
//   the shared-memory tree (no bank traffic, no __syncthreads but one).
//   How the block sums meet without a second pass and without zeroing anything first:
//   - n fits one tile of 16 ints per thread: reduce_single_tile below sums it in one block and
//     writes the result directly (one launch, no atomic; enqueue_one_launch chooses it); a
//     single block asked for by --blocks=1 on a larger n writes its sum directly too;
//   - several blocks: each block adds ((its sum) << 32) + 1 to one 64-bit word with a single
//     atomicAdd, which returns the word before the addition. The low half counts the blocks
//     done (never more than the grid, so it never carries), the high half is the sum modulo
//     2^32 (its carry out of the word is the wrap-around of int32 addition). The block that
//     sees a count of gridDim.x - 1 is the last: the high half plus its own sum is the total,
//     which it writes to the result, and it puts the word back to 0 for the next launch (the
//     "last block done" counter resets itself). One atomic per block and one location: no
//     fence, no memset, no partials.
//   The word (v8_sum_and_count) is a device global, 0 when the module loads; so two launches
//   of this kernel on one device must not overlap in time (the program runs one stream; another
//   one-launch kernel may use the same word for the same reason).
// Precondition: `in` is 16-byte aligned (it is read as uint4); the host refuses anything
// else before the launch (enqueue_one_launch, is_vector_aligned). The 4 ints per vector and
// the 4 vectors in flight are Policy::kIntsPerVector and Policy::kVectorsInFlight.
static_assert(Policy::kIntsPerVector == 4 && Policy::kVectorsInFlight == 4,
              "reduce_vectorized_shuffle_atomic is written for 4 uint4 loads of 4 ints");
__device__ unsigned long long v8_sum_and_count = 0;
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
        if (lane == 0) {
            if (gridDim.x == 1) {
                *result = sum;  // the single tile: no other block to wait for
            } else {
                const unsigned long long before =
                    atomicAdd(&v8_sum_and_count, (static_cast<unsigned long long>(sum) << 32) | 1ull);
                if (static_cast<unsigned>(before) == gridDim.x - 1) {  // every other block is in
                    *result = static_cast<unsigned>(before >> 32) + sum;
                    atomicExch(&v8_sum_and_count, 0ull);  // ready for the next launch
                }
            }
        }
    }
}

// The single tile of every one-launch version (enqueue_one_launch: n fits one block of 4
// vectors per thread): the 4 loads unrolled with 32-bit indices, no loop, no atomic; a kernel
// of its own and a small one. why: the L2 flush before each timed run evicts the code as well
// as the data, and the loop kernel above, one block at n = 4,096, took 0.95-0.98x the time of
// CUB's single-tile kernel where this shape matched it (experiments/single_tile.cu).
__global__ void reduce_single_tile(const unsigned* __restrict__ in, unsigned n, unsigned* __restrict__ result) {
    const uint4* __restrict__ in4 = reinterpret_cast<const uint4*>(in);
    const unsigned n4 = n / 4, t = threadIdx.x, T = blockDim.x;
    const uint4 zero = make_uint4(0u, 0u, 0u, 0u);
    const uint4 a = t < n4 ? __ldg(in4 + t) : zero;
    const uint4 b = t + T < n4 ? __ldg(in4 + t + T) : zero;
    const uint4 c = t + 2 * T < n4 ? __ldg(in4 + t + 2 * T) : zero;
    const uint4 d = t + 3 * T < n4 ? __ldg(in4 + t + 3 * T) : zero;
    unsigned sum = (lanes_sum(a) + lanes_sum(b)) + (lanes_sum(c) + lanes_sum(d));
    if (t < n - 4 * n4) sum += __ldg(in + 4 * n4 + t);  // the n % 4 last elements
    __shared__ unsigned warp_sums[32];
    const unsigned lane = t & 31u, warp = t >> 5;
    sum = warp_sum_shuffle(sum);
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = warp_sum_shuffle(lane < (T >> 5) ? warp_sums[lane] : 0u);
        if (lane == 0) *result = sum;
    }
}

// ---------------------------------------------------------------------------------------
// Host side: the launches (the versions that make them are in reduction_versions_versions.cu).

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// A block size the templated kernels were not instantiated for: an internal error (the
// option parser admits only kBlockSizes), reported loudly, never replaced by another size.
[[noreturn]] void unsupported_block_size(const char* kernel, int threads) {
    throw std::logic_error(std::string(kernel) + " is not instantiated for " + std::to_string(threads) +
                           " threads per block (instantiated: 64, 128, 256, 512, 1024)");
}

// Calls op.run<BLOCK>() for BLOCK == threads, one of kBlockSizes.
template <typename Op>
auto with_block_size(int threads, const char* kernel, const Op& op) -> decltype(op.template run<64>()) {
    switch (threads) {
        case 64: return op.template run<64>();
        case 128: return op.template run<128>();
        case 256: return op.template run<256>();
        case 512: return op.template run<512>();
        case 1024: return op.template run<1024>();
    }
    unsupported_block_size(kernel, threads);
}

// The block-size template kernels (versions 6 and 7): Kernel::at<BLOCK>() is the
// instantiation for BLOCK, Kernel::Count the type of its element count.
struct CompleteUnroll {
    using Count = unsigned;
    static constexpr const char* kName = "reduce_complete_unroll";
    template <unsigned BLOCK>
    static void (*at())(const unsigned* __restrict__, unsigned* __restrict__, Count) {
        return reduce_complete_unroll<BLOCK>;
    }
};
struct MultiplePerThread {
    using Count = std::size_t;
    static constexpr const char* kName = "reduce_multiple_per_thread";
    template <unsigned BLOCK>
    static void (*at())(const unsigned* __restrict__, unsigned* __restrict__, Count) {
        return reduce_multiple_per_thread<BLOCK>;
    }
};

// One pass of a block-size template kernel, launched with the instantiation for BLOCK.
template <typename Kernel>
struct LaunchAtBlockSize {
    const unsigned* in;
    unsigned* out;
    typename Kernel::Count m;
    unsigned grid;
    cudaStream_t s;
    template <unsigned BLOCK>
    void run() const {
        Kernel::template at<BLOCK>()<<<grid, BLOCK, BLOCK * sizeof(unsigned), s>>>(in, out, m);
    }
};
template <typename Kernel>
void launch_at_block_size(const unsigned* in, unsigned* out, std::size_t m, int threads, unsigned grid,
                          cudaStream_t s) {
    with_block_size(threads, Kernel::kName,
                    LaunchAtBlockSize<Kernel>{in, out, static_cast<typename Kernel::Count>(m), grid, s});
}

// The grid of the first pass of a pass-based version (versions 1-7): one block per
// items_per_thread x threads elements, capped by `grid_cap` (version 7) when > 0.
std::size_t first_grid(std::size_t n, int items_per_thread, int threads, long long grid_cap) {
    std::size_t grid = ceil_div(n, static_cast<std::size_t>(items_per_thread) * static_cast<std::size_t>(threads));
    if (grid_cap > 0) grid = std::min(grid, static_cast<std::size_t>(grid_cap));
    return std::max<std::size_t>(grid, 1);
}

struct OccupancyMultiplePerThread {
    int sm_count;
    std::size_t n;
    template <unsigned BLOCK>
    long long run() const {
        return cw::occupancy_grid(reduce_multiple_per_thread<BLOCK>, BLOCK, BLOCK * sizeof(unsigned), sm_count, n,
                                  static_cast<unsigned long long>(BLOCK) * Policy::kItemsPerThreadFirstAdd);
    }
};

// Version 8 (a one-launch kernel): one launch, no memset. One block when n fits one tile of
// Policy::kIntsPerVector x Policy::kVectorsInFlight ints per thread (the block writes the sum
// directly); else one thread per int4, capped by --blocks or the resident blocks.
std::size_t vectorized_grid(std::size_t n, int threads, long long grid_cap) {
    const std::size_t tile = static_cast<std::size_t>(threads) * Policy::kIntsPerVector * Policy::kVectorsInFlight;
    if (n <= tile) return 1;
    std::size_t grid = std::max<std::size_t>(1, ceil_div(n / Policy::kIntsPerVector, static_cast<std::size_t>(threads)));
    if (grid_cap > 0) grid = std::min(grid, static_cast<std::size_t>(grid_cap));
    return grid;
}

// cub::DeviceReduce::Sum's temporary storage, rounded up to 256 bytes (the result follows it).
std::size_t cub_temp_bytes(std::size_t n) {
    std::size_t bytes = 0;
    CUDA_CHECK(cub_sum_temp_bytes(n, &bytes));
    return (bytes + 255) / 256 * 256;
}

}  // namespace

// The kernels as the registry holds them (reduction_versions_kernels.cuh): the name, which is
// also Nsight Compute's filter, beside the launcher, one line per kernel.
const PassKernel kInterleavedDivergent{"reduce_interleaved_divergent", launch_plain<reduce_interleaved_divergent>};
const PassKernel kInterleavedStrided{"reduce_interleaved_strided", launch_plain<reduce_interleaved_strided>};
const PassKernel kSequentialAddressing{"reduce_sequential_addressing", launch_plain<reduce_sequential_addressing>};
const PassKernel kFirstAddDuringLoad{"reduce_first_add_during_load", launch_plain<reduce_first_add_during_load>};
const PassKernel kUnrolledLastWarp{"reduce_unrolled_last_warp", launch_plain<reduce_unrolled_last_warp>};
const PassKernel kUnrolledLastWarpAsPrinted{"reduce_unrolled_last_warp_as_printed",
                                            launch_plain<reduce_unrolled_last_warp_as_printed>};
const PassKernel kCompleteUnroll{CompleteUnroll::kName, launch_at_block_size<CompleteUnroll>};
const PassKernel kMultiplePerThread{MultiplePerThread::kName, launch_at_block_size<MultiplePerThread>};
const OneLaunchKernel kVectorizedShuffleAtomic{"reduce_vectorized_shuffle_atomic", reduce_vectorized_shuffle_atomic};

constexpr int Policy::kItemsPerThreadTree;
constexpr int Policy::kItemsPerThreadFirstAdd;
constexpr int Policy::kIntsPerVector;
constexpr int Policy::kVectorsInFlight;

// Passes of the same kernel on the block partials, ping-ponging between two halves of the
// workspace (the first holds the first pass's partials, the second the next pass's, which
// are fewer), until a single block has written the single value.
const unsigned* enqueue_passes(const Launch& l, int items_per_thread, PassLauncher launch, cudaStream_t stream,
                               LaunchPlan* plan) {
    LaunchPlan local;
    local.launches = 0;
    local.memsets = 0;
    const std::size_t capacity = first_grid(l.n, items_per_thread, l.threads, l.grid);
    const unsigned* src = l.in;
    unsigned* dst = static_cast<unsigned*>(l.workspace);
    unsigned* other = dst + capacity;
    std::size_t m = l.n;
    for (;;) {
        const std::size_t grid = first_grid(m, items_per_thread, l.threads, l.grid);
        launch(src, dst, m, l.threads, static_cast<unsigned>(grid), stream);
        CUDA_CHECK_LAUNCH();
        if (local.launches++ == 0) local.first_grid = static_cast<long long>(grid);
        if (grid == 1) break;
        m = grid;
        src = dst;
        std::swap(dst, other);
    }
    if (plan != nullptr) *plan = local;
    return dst;
}

std::size_t passes_workspace(std::size_t n, int items_per_thread, int threads, long long grid_cap) {
    return 2 * first_grid(n, items_per_thread, threads, grid_cap) * sizeof(unsigned);
}

long long multiple_per_thread_resident_grid(int sm_count, std::size_t n, int threads) {
    return with_block_size(threads, MultiplePerThread::kName, OccupancyMultiplePerThread{sm_count, n});
}

long long vectorized_resident_grid(const OneLaunchKernel& kernel, int sm_count, std::size_t n, int threads) {
    return cw::occupancy_grid(kernel.kernel, threads, 0, sm_count, n / Policy::kIntsPerVector,
                              static_cast<unsigned long long>(threads));
}

const unsigned* enqueue_one_launch(const Launch& l, const OneLaunchKernel& kernel, cudaStream_t stream,
                                   LaunchPlan* plan) {
    if (!is_vector_aligned(l.in))
        throw std::logic_error(std::string(kernel.name) +
                               " reads 16-byte int4 vectors and needs a 16-byte aligned input; got address " +
                               cw::format("%p", static_cast<const void*>(l.in)));
    unsigned* result = static_cast<unsigned*>(l.workspace);
    const std::size_t grid = vectorized_grid(l.n, l.threads, l.grid);
    if (grid == 1 && l.n <= static_cast<std::size_t>(l.threads) * Policy::kIntsPerVector * Policy::kVectorsInFlight)
        reduce_single_tile<<<1, l.threads, 0, stream>>>(l.in, static_cast<unsigned>(l.n), result);
    else
        kernel.kernel<<<static_cast<unsigned>(grid), l.threads, 0, stream>>>(l.in, l.n, result);
    CUDA_CHECK_LAUNCH();
    if (plan != nullptr) {
        plan->first_grid = static_cast<long long>(grid);
        plan->launches = 1;
        plan->memsets = 0;
    }
    return result;
}

std::size_t cub_workspace(std::size_t n) { return cub_temp_bytes(n) + sizeof(unsigned); }

const unsigned* enqueue_cub(const Launch& l, cudaStream_t stream, LaunchPlan* plan) {
    const std::size_t temp = cub_temp_bytes(l.n);
    unsigned* out = reinterpret_cast<unsigned*>(static_cast<unsigned char*>(l.workspace) + temp);
    CUDA_CHECK(cub_sum(l.workspace, temp, l.in, out, l.n, stream));
    if (plan != nullptr) *plan = LaunchPlan();
    return out;
}

bool is_vector_aligned(const void* in) {
    return reinterpret_cast<std::uintptr_t>(in) % (Policy::kIntsPerVector * sizeof(unsigned)) == 0;
}

}  // namespace rv
