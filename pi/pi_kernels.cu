// Every kernel version of pi. The integral is pi = int_0^1 4/(1+x^2) dx, estimated by the
// midpoint rule h * sum_{i<niter} 4/(1 + x_i^2), x_i = (i + 1/2) h, h = 1/niter.
#include "pi_kernels.cuh"

#include <stdexcept>
#include <string>

#include "common.cuh"
#include "pi_tile.h"

namespace pi {
namespace {

// The report's per-thread loop, shared by kernels 1 and 2: `chunk` consecutive terms from
// gid * chunk, each with its own integer-to-T conversion and an IEEE division, as the report.
// The end is clamped to niter, so a niter that chunk does not divide is summed exactly.
template <typename T>
__device__ T chunk_sum(long long niter, long long chunk, T h) {
    const long long gid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const long long begin = gid * chunk;
    const long long end = begin + chunk < niter ? begin + chunk : niter;
    T sum = 0;
    for (long long i = begin; i < end; ++i) {
        const T x = (static_cast<T>(i) + static_cast<T>(0.5)) * h;
        sum += static_cast<T>(4) / (static_cast<T>(1) + x * x);
    }
    return sum;
}

// Dynamic shared memory for any T (one declaration for float and double instantiations).
template <typename T>
__device__ T* shared_partials() {
    extern __shared__ __align__(sizeof(double)) unsigned char pi_shared_raw[];
    return reinterpret_cast<T*>(pi_shared_raw);
}

// version=1 (report: kernel 1). Partial sums per thread in shared memory; thread 0 adds them
// one after another. Kept as the report wrote it: while thread 0 loops over blockDim
// values, the other threads of the block idle (the report's "performance leak").
template <typename T>
__global__ void pi_chunks_serial_block_sum(long long niter, long long chunk, T h, T* block_sums) {
    T* local_sums = shared_partials<T>();
    local_sums[threadIdx.x] = chunk_sum<T>(niter, chunk, h);
    __syncthreads();
    if (threadIdx.x == 0) {
        T s = 0;
        for (unsigned k = 0; k < blockDim.x; ++k) s += local_sums[k];
        block_sums[blockIdx.x] = s;
    }
}

// version=2 (report: kernel 2). Same partial sums; the block adds them in log2(blockDim)
// halving steps (sequential addressing: no bank conflicts; half the active threads idle
// after each step, the report's remaining "leak"). blockDim must be a power of two.
template <typename T>
__global__ void pi_chunks_tree_block_sum(long long niter, long long chunk, T h, T* block_sums) {
    T* local_sums = shared_partials<T>();
    local_sums[threadIdx.x] = chunk_sum<T>(niter, chunk, h);
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) local_sums[threadIdx.x] += local_sums[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) block_sums[blockIdx.x] = local_sums[0];
}

// The reciprocal of version=single. float: rcp.approx.ftz.f32 (one MUFU.RCP, at most 1 ulp
// of error, no IEEE division's Newton steps and slow-path branch). double: rcp.approx.ftz.f64
// (MUFU.RCP64H, computed from the upper 20 mantissa bits: an error of order 2^-20) and one
// cubic Newton step r (1 + e + e^2), e = 1 - v r (3 DFMA; the relative error becomes e^3,
// below 2^-54 for any start better than 2^-18, then the rounding of the last FMA).
struct FastReciprocal {
    __host__ __device__ float operator()(float v) const {
#ifdef __CUDA_ARCH__
        float r;
        asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
        return r;
#else
        return 1.0f / v;
#endif
    }
    __host__ __device__ double operator()(double v) const {
#ifdef __CUDA_ARCH__
        double r;
        asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(v));
        const double e = fma(-v, r, 1.0);
        return fma(r, fma(e, e, e), r);
#else
        return 1.0 / v;
#endif
    }
};

__device__ __forceinline__ double warp_sum(double v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// Block sum by warp shuffles (blockDim a multiple of 32); the result is valid in thread 0.
// The first barrier makes warp_sums safe to reuse by a second call in the same block.
__device__ double block_sum(double v, double* warp_sums) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum(v);
    __syncthreads();
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < static_cast<int>(blockDim.x >> 5) ? warp_sums[lane] : 0.0;
        v = warp_sum(v);
    }
    return v;
}

// version=single. One launch from niter to the estimate:
// - grid-stride over tiles of 64 terms (pi_tile.h): symmetric pairs about the tile centre
//   and one approximate reciprocal per 4 terms, so the loop is bound by instruction issue,
//   not by the 16/clk/SM reciprocal unit; no per-term integer-to-float conversion and no
//   accumulated x (no drift): the centre is computed in double once per tile;
// - each tile summed in T over 16 quads (short chains: the float error stays near 1e-7),
//   the tiles of a thread added in a double register;
// - the niter % 64 remaining terms, one per thread;
// - block sum by warp shuffles; the last block to finish (threadfence + atomic ticket) adds
//   the blocks' sums in a fixed order and writes 4h * sum: deterministic, no second launch,
//   no host finish, and no double atomicAdd (absent below sm_60).
template <typename T>
__global__ void pi_symmetric_tiles_single_pass(long long niter, double h, double* partials,
                                               unsigned int* blocks_done, double* result) {
    __shared__ double warp_sums[32];
    __shared__ bool is_last_block;
    const long long tiles = niter / kTileTerms;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    const long long gtid = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const T H = static_cast<T>(0.25 * h * h);
    const FastReciprocal rcp;

    double sum = 0.0;  // sum of 1/(1 + x^2) over this thread's terms
    for (long long t = gtid; t < tiles; t += stride)
        sum += 2.0 * static_cast<double>(tile_half_sum<T>(tile_constants<T>(t, h), H, rcp));
    for (long long i = tiles * kTileTerms + gtid; i < niter; i += stride) {
        const T x = static_cast<T>((static_cast<double>(i) + 0.5) * h);
        sum += static_cast<double>(static_cast<T>(1) / (static_cast<T>(1) + x * x));
    }

    sum = block_sum(sum, warp_sums);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        __threadfence();  // the partial is visible to every block before the ticket is taken
        const unsigned int ticket = atomicAdd(blocks_done, 1u);
        is_last_block = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (is_last_block) {
        const volatile double* done = partials;
        double s = 0.0;
        for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) s += done[b];
        s = block_sum(s, warp_sums);
        if (threadIdx.x == 0) {
            *result = 4.0 * h * s;
            *blocks_done = 0;  // ready for the next launch
        }
    }
}

// Every launcher's precondition on the block size (the driver checks --threads first; a
// caller that did not is stopped here rather than launching a tree over a non-power of two).
void require_block_size(int threads) {
    if (threads < 32 || threads > 1024 || (threads & (threads - 1)) != 0)
        throw std::invalid_argument("pi: block size " + std::to_string(threads) +
                                    " is not a power of two from 32 to 1024");
}

}  // namespace

// Kernels 1 and 2 share their launch: one block sum per block, `threads` values of shared memory.
template <typename T>
void launch_report_kernel(void (*kernel)(long long, long long, T, T*), long long niter, long long chunk, double h,
                          long long blocks, int threads, T* block_sums, cudaStream_t stream) {
    require_block_size(threads);
    kernel<<<static_cast<unsigned>(blocks), threads, threads * sizeof(T), stream>>>(niter, chunk, static_cast<T>(h),
                                                                                   block_sums);
    CUDA_CHECK_LAUNCH();
}

template <typename T>
void launch_kernel1(long long niter, long long chunk, double h, long long blocks, int threads, T* block_sums,
                    cudaStream_t stream) {
    launch_report_kernel<T>(pi_chunks_serial_block_sum<T>, niter, chunk, h, blocks, threads, block_sums, stream);
}

template <typename T>
void launch_kernel2(long long niter, long long chunk, double h, long long blocks, int threads, T* block_sums,
                    cudaStream_t stream) {
    launch_report_kernel<T>(pi_chunks_tree_block_sum<T>, niter, chunk, h, blocks, threads, block_sums, stream);
}

template <typename T>
void launch_single(long long niter, double h, long long blocks, int threads, double* partials,
                   unsigned int* blocks_done, double* result, cudaStream_t stream) {
    require_block_size(threads);
    pi_symmetric_tiles_single_pass<T><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(niter, h, partials,
                                                                                          blocks_done, result);
    CUDA_CHECK_LAUNCH();
}

template <typename T>
long long single_grid(long long niter, int threads, int sm_count) {
    const long long tiles = niter / kTileTerms;
    const long long work = tiles > niter % kTileTerms ? tiles : niter % kTileTerms;  // one tile or term per thread
    return cw::occupancy_grid(pi_symmetric_tiles_single_pass<T>, threads, 0, sm_count,
                              static_cast<unsigned long long>(work), static_cast<unsigned long long>(threads));
}

template void launch_kernel1<float>(long long, long long, double, long long, int, float*, cudaStream_t);
template void launch_kernel1<double>(long long, long long, double, long long, int, double*, cudaStream_t);
template void launch_kernel2<float>(long long, long long, double, long long, int, float*, cudaStream_t);
template void launch_kernel2<double>(long long, long long, double, long long, int, double*, cudaStream_t);
template void launch_single<float>(long long, double, long long, int, double*, unsigned int*, double*, cudaStream_t);
template void launch_single<double>(long long, double, long long, int, double*, unsigned int*, double*, cudaStream_t);
template long long single_grid<float>(long long, int, int);
template long long single_grid<double>(long long, int, int);

}  // namespace pi
