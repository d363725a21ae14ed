// vecmax: the kernels. See vecmax_kernels.cuh for the versions and their contracts.
#include "vecmax_kernels.cuh"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "cuda_check.cuh"
#include "device_info.cuh"
#include "format.h"
#include "vecmax_order_key.h"
#include "vecmax_policy.h"

namespace vecmax {

// version=report: the report's VecMax. Each thread takes the maximum of a grid-stride slice,
// the block reduces its threads' values in shared memory with the halving tree, and block
// b's maximum goes to block_max[b] for the host to finish. Fixes of the report's code:
//  - the running maximum starts at -INFINITY, not RAND_MIN (a non-standard constant: any
//    start above the true maximum, e.g. 0 or -1 for all-negative data, gave a wrong answer);
//  - 64-bit indices: `int i` overflowed once threads x blocks + n passed 2^31;
//  - the comparison follows the NaN policy (nan_max: a NaN anywhere gives NaN) instead of
//    `if (A[i] > temp) temp = A[i]`: a comparison with NaN is false, so the report's loop never
//    took a NaN, its cache (and so its tree) never held one, and its kernel returned the maximum
//    of the other elements whatever the launch shape: every NaN was ignored;
//  - blockDim.x must be a power of two (the halving tree assumes it): the driver rejects
//    other --threads values with a usage error rather than returning a wrong maximum.
__global__ void vecmax_grid_stride_shared_tree(const float* a, long long n, float* block_max) {
    extern __shared__ float cache[];
    const int cache_index = threadIdx.x;
    const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
    float temp = -INFINITY;  // the report: RAND_MIN
    for (long long i = static_cast<long long>(blockDim.x) * blockIdx.x + threadIdx.x; i < n; i += stride)
        temp = nan_max(temp, a[i]);
    cache[cache_index] = temp;
    __syncthreads();
    // The report's tree: halve the active threads each step (blockDim.x = 2^m).
    for (int ib = blockDim.x / 2; ib != 0; ib /= 2) {
        if (cache_index < ib) cache[cache_index] = nan_max(cache[cache_index], cache[cache_index + ib]);
        __syncthreads();
    }
    if (cache_index == 0) block_max[blockIdx.x] = cache[0];
}

namespace {

__device__ __forceinline__ float max4(const float4 v) { return nan_max(nan_max(v.x, v.y), nan_max(v.z, v.w)); }

// Warp maximum by butterfly shuffles: no shared memory and no barrier inside a warp.
__device__ __forceinline__ float warp_reduce_max(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v = nan_max(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

// Block maximum (blockDim.x a multiple of 32, every thread calls it); valid in thread 0.
// slots: 32 floats of shared memory. A caller that calls it twice must put a __syncthreads()
// between the calls (warp 0 reads the slots after the barrier inside).
__device__ __forceinline__ float block_reduce_max(float v, float* slots) {
    v = warp_reduce_max(v);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) slots[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < static_cast<int>(blockDim.x >> 5) ? slots[lane] : -INFINITY;
        v = warp_reduce_max(v);
    }
    return v;
}

}  // namespace

// version=single_pass: the whole maximum in one launch, no host step.
//  - float4 (16-byte) loads: a quarter of the load instructions of scalar loads;
//  - kUnroll independent float4 loads per thread per iteration, so that each SM keeps enough
//    requests outstanding to cover the memory latency at full bandwidth;
//  - large blocks and a grid of resident blocks only (SinglePassPolicy, single_pass_grid),
//    grid-stride: no tail of a second wave, and the per-block costs (block reduction, atomic)
//    are paid by few blocks;
//  - warp shuffles for the block reduction: one barrier instead of log2(blockDim) of them;
//  - the blocks' maxima meet in one unsigned atomicMax of an order-preserving key
//    (vecmax_order_key.h) per block: no fence, no ticket, no last-block pass over the block
//    maxima. The key goes to key_slots[slot]; block 0 clears key_slots[slot ^ 1], where the
//    next launch, which uses the other slot, accumulates (launches on one stream are ordered,
//    so the clear is done before that launch starts, and this launch's own slot was cleared
//    by the previous one);
//  - alignment (see vecmax_kernels.cuh): x is float-aligned; the float4 loads start at the
//    first 16-byte boundary at or after x (head = 0..3 floats), and the head and the up to 3
//    floats after the last whole float4 are read as scalars by the grid's first threads
//    (kThreads >= 4, so one block covers both).
// What each choice is worth was measured by experiments/single_pass_tuning.cu
// (experiments/results/h100/single_pass_tuning.csv).
template <int kThreads, int kUnroll>
__global__ void __launch_bounds__(kThreads)
    vecmax_single_pass_vec4(const float* __restrict__ x, long long n, unsigned int* __restrict__ key_slots,
                            unsigned int slot) {
    static_assert(kThreads >= 4 && kThreads % 32 == 0, "whole warps, and at least 4 threads for the scalar ends");
    static_assert(kUnroll >= 1 && (kUnroll & (kUnroll - 1)) == 0, "the pairwise combine needs a power of two");
    __shared__ float slots[32];

    const long long tid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    const long long misalign = static_cast<long long>((reinterpret_cast<std::uintptr_t>(x) >> 2) & 3u);
    long long head = misalign != 0 ? 4 - misalign : 0;  // floats before the first 16-byte boundary
    if (head > n) head = n;
    const long long nvec = (n - head) >> 2;  // whole float4s
    const long long tail = head + (nvec << 2);  // first float after them

    float m = -INFINITY;
    if (tid < head) m = x[tid];
    if (tid < n - tail) m = nan_max(m, x[tail + tid]);

    const float4* __restrict__ v = reinterpret_cast<const float4*>(x + head);
    long long i = tid;
    for (; i + (kUnroll - 1) * stride < nvec; i += kUnroll * stride) {
        float4 a[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) a[u] = __ldg(v + i + u * stride);  // read-only path, like CUB's LOAD_LDG
        float r[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) r[u] = max4(a[u]);
        // Pairwise: ((r0, r1), (r2, r3)) for 4 loads.
#pragma unroll
        for (int w = 1; w < kUnroll; w *= 2) {
#pragma unroll
            for (int u = 0; u + w < kUnroll; u += 2 * w) r[u] = nan_max(r[u], r[u + w]);
        }
        m = nan_max(m, r[0]);
    }
    for (; i < nvec; i += stride) m = nan_max(m, max4(__ldg(v + i)));

    m = block_reduce_max(m, slots);
    if (threadIdx.x == 0) {
        atomicMax(key_slots + slot, order_key(m));
        if (blockIdx.x == 0) key_slots[slot ^ 1u] = 0u;
    }
}

namespace {

using SinglePassKernel = void (*)(const float*, long long, unsigned int*, unsigned int);

// The instantiation of a policy. The pair of kSinglePassPolicy must be listed here; any other
// is an internal error (std::logic_error: run_main's "internal error" line, exit 3) instead of
// a launch of another instantiation.
SinglePassKernel single_pass_kernel(const SinglePassPolicy& p) {
    if (p.threads == 1024 && p.unroll == 4) return vecmax_single_pass_vec4<1024, 4>;
    throw std::logic_error(cw::format("single_pass is not built for %d threads x %d loads (vecmax_kernels.cu)",
                                      p.threads, p.unroll));
}

}  // namespace

void launch_report_vecmax(const float* d_x, long long n, float* d_block_max, int threads, int blocks,
                          cudaStream_t stream) {
    vecmax_grid_stride_shared_tree<<<blocks, threads, static_cast<size_t>(threads) * sizeof(float), stream>>>(
        d_x, n, d_block_max);
    CUDA_CHECK_LAUNCH();
}

SinglePassMax::SinglePassMax(const SinglePassPolicy& policy) : policy_(policy) {
    (void)single_pass_kernel(policy_);  // an unbuilt policy is refused here, before any work
    CUDA_CHECK(cudaMalloc(&key_slots_, 2 * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(key_slots_, 0, 2 * sizeof(unsigned int)));
}

SinglePassMax::~SinglePassMax() { cudaFree(key_slots_); }

void SinglePassMax::launch(const float* d_x, long long n, int blocks, cudaStream_t stream) {
    if (reinterpret_cast<std::uintptr_t>(d_x) % alignof(float) != 0)
        throw std::logic_error("single_pass needs a float-aligned (4-byte) input pointer");
    slot_ ^= 1u;
    single_pass_kernel(policy_)<<<blocks, policy_.threads, 0, stream>>>(d_x, n, key_slots_, slot_);
    CUDA_CHECK_LAUNCH();
}

int single_pass_grid(const SinglePassPolicy& policy, long long n, int sm_count) {
    const unsigned long long floats_per_block = static_cast<unsigned long long>(policy.threads) * 4 * policy.unroll;
    return static_cast<int>(cw::occupancy_grid(single_pass_kernel(policy), policy.threads, 0,
                                               sm_count > 0 ? sm_count : 1, static_cast<unsigned long long>(n),
                                               floats_per_block));
}

}  // namespace vecmax
