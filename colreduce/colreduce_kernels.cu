// Every kernel of colreduce and its launcher (the versions that run them are in
// colreduce_versions.cu). Column sums of an m x n row-major matrix of doubles:
// vec[j] = sum_i mat[i*n + j], for every 1 <= m <= 2^31 - 1 and 1 <= n <= 1024.
#include "colreduce_kernels.cuh"

#include <algorithm>

#include "colreduce_policy.h"

namespace colreduce {

// Double-precision atomicAdd exists from sm_60; below it, the compare-and-swap loop of the
// report (without the report's early return for val == 0, which no caller here needs).
__device__ __forceinline__ double atomic_add_f64(double* address, double val) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
    unsigned long long* address_as_ull = reinterpret_cast<unsigned long long*>(address);
    unsigned long long old = *address_as_ull, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_ull, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
#else
    return atomicAdd(address, val);
#endif
}

// ---------------------------------------------------------------------------------------
// version=original (report: gpu_mat_col_reduce_kernel of the first col_reduce.cu).
// One thread per column, 128 threads per block, ceil(n/128) blocks: each thread walks its
// column from top to bottom. Only n threads work (8 to 64 at the report's sizes), so the
// kernel is bound by the latency of one load per row, not by bandwidth.
// Fixed: the index j*n + i is computed in 64 bits (the report's int overflowed for m*n >= 2^31).
__global__ void __launch_bounds__(128)
column_sum_thread_per_column(const double* mat, double* vec, long long m, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double sum = 0.0;
        for (long long j = 0; j < m; j++) sum += mat[j * n + i];
        vec[i] = sum;
    }
}

// version=high1 (report's first optimisation). Block 64 x 16, grid ceil(n/64): threadIdx.x
// picks the column (64 columns per block, so more threads per column than original),
// threadIdx.y one of 16 row slices of the column (16x the threads); the 16 partial sums of a
// column meet with atomicAdd.
// Fixed: the slice height is ceil(m/16) (the report's m/16 dropped the last m % 16 rows,
// and every row for m < 16); 64-bit indices.
__global__ void __launch_bounds__(1024)
column_sum_row_slices_atomic(const double* mat, double* vec, long long m, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const long long slices = static_cast<long long>(gridDim.y) * blockDim.y;
    const long long wid = (m + slices - 1) / slices;
    const long long ind = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y;
    const long long st = ind * wid;
    const long long end = min(st + wid, m);
    if (i < n && st < end) {
        double sum = 0.0;
        for (long long j = st; j < end; j++) sum += mat[j * n + i];
        atomic_add_f64(&vec[i], sum);
    }
}

// version=high2 (report's second optimisation). Grid 8, block 8 x 128: the n columns are
// split among the 8 blocks, the 8 x-threads of a block among the block's columns (several
// x-threads per column when a block has fewer than 8 columns), and the x-threads of a column
// times the 128 y-threads split its rows into slices; partial sums meet with atomicAdd.
// Same mapping as the report for n = 8, 32, 64 (1, 4 and 8 columns per block).
// Fixed: columns per block = ceil(n / 8) and x-threads per column = max(1, 8 / that), with a
// thread taking columns local, local + 8/per_column, ... when a block has more than 8. The
// report computed fen = n / 8 and mapped thread x to column x/2 whenever 1 < fen < 8: wrong for
// n = 16 (x/4 needed) and for n = 24, 40, 48, 56 (3, 5, 6, 7 columns per block: threads read
// the next block's columns and counted some twice); n not a multiple of 8 lost its last
// n % 8 columns; n < 8 divided by zero (fen = 0); n > 64 summed only 8 columns per block and
// divided by zero (V = 0).
__global__ void __launch_bounds__(1024)
column_sum_column_groups_atomic(const double* mat, double* vec, long long m, int n) {
    const int cols_per_block = (n + static_cast<int>(gridDim.x) - 1) / static_cast<int>(gridDim.x);
    const int per_column = max(1, static_cast<int>(blockDim.x) / cols_per_block);
    const int columns_at_once = static_cast<int>(blockDim.x) / per_column;
    const long long slices = static_cast<long long>(per_column) * blockDim.y;
    const long long wid = (m + slices - 1) / slices;
    const long long slice = threadIdx.x % per_column + static_cast<long long>(threadIdx.y) * per_column;
    const long long st = slice * wid;
    const long long end = min(st + wid, m);
    if (st >= end) return;
    for (int local = static_cast<int>(threadIdx.x) / per_column; local < cols_per_block; local += columns_at_once) {
        const int i = static_cast<int>(blockIdx.x) * cols_per_block + local;
        if (i >= n) break;
        double sum = 0.0;
        for (long long j = st; j < end; j++) sum += mat[j * n + i];
        atomic_add_f64(&vec[i], sum);
    }
}

// version=high2_const: the report's remark on high2, measured ("for high2 optimization, you
// can also define some constants mentioned above as register variables to achieve the
// acceleration effect, but after my test, the effect is not obvious"). The same mapping, the
// same loop and the same atomics as column_sum_column_groups_atomic; what changes is where the
// loop's constants come from. high2 derives them in every thread from gridDim/blockDim
// (integer divisions at run time); here the launch shape is a compile-time constant (the
// report's #define gridnum, blocknum, colnum) and the values derived from it and from m and n
// (columns per block, x-threads per column, slice height) are computed once on the host and
// passed by value: kernel parameters sit in the constant bank and are read into registers,
// so no thread divides.
template <int kThreadsX, int kThreadsY>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
column_sum_column_groups_atomic_const(const double* mat, double* vec, long long m, int n, High2Constants c) {
    const long long slice = threadIdx.x % c.per_column + static_cast<long long>(threadIdx.y) * c.per_column;
    const long long st = slice * c.wid;
    const long long end = min(st + c.wid, m);
    if (st >= end) return;
    for (int local = static_cast<int>(threadIdx.x) / c.per_column; local < c.cols_per_block;
         local += c.columns_at_once) {
        const int i = static_cast<int>(blockIdx.x) * c.cols_per_block + local;
        if (i >= n) break;
        double sum = 0.0;
        for (long long j = st; j < end; j++) sum += mat[j * n + i];
        atomic_add_f64(&vec[i], sum);
    }
}

// version=block_per_column (the report's third idea, described in its text, not listed:
// "apply for more blocks to process a column of elements in one block ... at least 64 blocks
// ... I try to set the number of threads in each block to 1024"). Grid n (block c sums
// column c), 1024 threads per block: thread t adds rows t, t + 1024, ... of its block's column
// and the 1024 partial sums meet with atomicAdd, the report's way of combining partial sums
// (high1, high2; it saw no use for shared memory here). No __launch_bounds__, as in the
// report: its register use stays far below the 64 per thread that a 1024-thread block
// allows on sm_35. A warp reads 32 rows of one column (32 sectors, 8 useful bytes each),
// and only n blocks run: n SMs of the GPU at most.
// Also launched, unchecked, with a block above the device's limit by the demonstration
// block_per_column_over_limit (BlockPerColumnRunner): the kernel then never runs.
__global__ void column_sum_block_per_column_atomic(const double* mat, double* vec, long long m, int n) {
    const int col = static_cast<int>(blockIdx.x);
    if (col >= n) return;
    double sum = 0.0;
    for (long long j = threadIdx.x; j < m; j += blockDim.x) sum += mat[j * n + col];
    atomic_add_f64(&vec[col], sum);
}

// Shared-memory fold used by the tall versions: s holds `rows` rows of `width` values, value
// p belonging to column p % width; row r + half is added into row r until one row is left.
// A fixed tree, so the result does not depend on timing. The caller synchronises before.
__device__ __forceinline__ void fold_rows(double* s, unsigned rows, unsigned width, unsigned tid, unsigned nthreads) {
    while (rows > 1) {
        const unsigned half = (rows + 1) / 2;
        const unsigned count = (rows - half) * width;
        for (unsigned p = tid; p < count; p += nthreads) s[p] += s[p + half * width];
        __syncthreads();
        rows = half;
    }
}

// tall_det's last block: column c of `vec` is the sum of the `rows` per-block partial rows
// partials[r*n + c], in a fixed order. The block's threads take w = min(n, blockDim.x)
// adjacent columns at a time (coalesced reads of each partial row) and split the rows among
// lanes = blockDim.x / w of them: lane l adds rows l, l + lanes, l + 2 lanes, ... in that order
// (8 loads issued before their additions), then a fixed tree (fold_rows) adds the lanes. The
// order depends only on rows, n and blockDim.x, never on which block finished last or when:
// the result is bitwise the same on every run with the same launch configuration. The
// partials are read with __ldcg (from the L2, not this SM's L1, which the other blocks'
// stores bypassed). Every thread of the block calls it (fold_rows has barriers).
__device__ void sum_partial_rows(const double* partials, double* __restrict__ vec, unsigned rows, int n, double* s) {
    const unsigned tid = threadIdx.x;
    const unsigned nthreads = blockDim.x;
    const unsigned width = min(static_cast<unsigned>(n), nthreads);
    const unsigned lanes = nthreads / width;
    const unsigned lane = tid / width;
    constexpr unsigned kBatch = 8;
    for (unsigned c0 = 0; c0 < static_cast<unsigned>(n); c0 += width) {
        const unsigned c = c0 + tid % width;
        double acc = 0.0;
        if (lane < lanes && c < static_cast<unsigned>(n)) {
            for (unsigned r = lane; r < rows; r += kBatch * lanes) {
                double x[kBatch];
#pragma unroll
                for (unsigned b = 0; b < kBatch; ++b) {
                    const unsigned rb = r + b * lanes;
                    x[b] = rb < rows ? __ldcg(partials + static_cast<unsigned long long>(rb) * n + c) : 0.0;
                }
#pragma unroll
                for (unsigned b = 0; b < kBatch; ++b) acc += x[b];
            }
        }
        if (tid < lanes * width) s[tid] = acc;
        __syncthreads();
        fold_rows(s, lanes, width, tid, nthreads);
        if (tid < width && c < static_cast<unsigned>(n)) vec[c] = s[tid];
        __syncthreads();  // s is reused by the next group of columns
    }
}

// version=tall (kAtomic) and version=tall_det (!kAtomic). Ours, for tall matrices with few
// columns.
// - The matrix is read as one flat array of m*n doubles, 16-byte double2 loads, consecutive
//   threads on consecutive addresses: every warp reads 512 contiguous bytes, whatever n is
//   (the report's versions read n doubles per row per warp, 64 bytes at n = 8).
// - The block size T is a multiple of q = n / gcd(n, 2) (TallPolicy::block_size), so 2T, and
//   the grid stride 2 * T * gridDim.x, are multiples of n: each thread keeps the same two
//   columns, (2t) % n and (2t+1) % n, for the whole grid-stride loop and sums them in registers.
// - The loop is unrolled TallPolicy::kUnroll times with predicated loads: that many
//   independent 16-byte loads in flight per thread, even when a thread has fewer (small
//   matrices).
// - One block-level fold in shared memory (2T values, 2T/n rows of n columns), then:
//   tall: n atomics per block into `vec` (zeroed by the host first);
//   tall_det: no atomics on doubles and no second kernel. The block stores its n sums as its
//   partial row (partials[blockIdx.x * n + c]), makes them visible device-wide
//   (__threadfence), and counts itself done with atomicInc(blocks_done, gridDim.x - 1); the
//   block that sees gridDim.x - 1 is the last one, so every partial row is written, and it sums
//   them in a fixed order (sum_partial_rows) into `vec`. atomicInc wraps the counter back to 0
//   at that last increment: the counter resets itself for the next launch (no memset).
//   Only an integer is added atomically; the doubles are added in an order that does not
//   depend on timing, so the result is bitwise repeatable.
// - An odd m*n leaves one double after the last double2: the thread whose loop would have
//   reached that pair adds it (it is column (2t) % n of that thread).
// Preconditions (checked on the host by TallRunner::setup): `mat` is 16-byte aligned (the
// double2 loads; cudaMalloc gives 256 bytes), blockDim.x <= TallPolicy::kMaxThreads and a
// multiple of q, 2 * blockDim.x / n rows fit the shared array; tall_det: partials holds
// gridDim.x * n doubles and *blocks_done is 0 before the first launch.
template <bool kAtomic>
__global__ void __launch_bounds__(TallPolicy::kMaxThreads)
column_sum_flat_vectorized(const double* __restrict__ mat, double* __restrict__ vec, unsigned long long total, int n,
                           double* partials, unsigned* blocks_done) {
    __shared__ double s[2 * TallPolicy::kMaxThreads];
    __shared__ bool s_last;
    const unsigned tid = threadIdx.x;
    const unsigned nthreads = blockDim.x;
    const unsigned long long nvec = total / 2;
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * nthreads;
    const unsigned long long first = static_cast<unsigned long long>(blockIdx.x) * nthreads + tid;
    const double2* __restrict__ v = reinterpret_cast<const double2*>(mat);
    double a0 = 0.0, a1 = 0.0;
    for (unsigned long long i = first; i < nvec; i += TallPolicy::kUnroll * stride) {
        double2 x[TallPolicy::kUnroll];
#pragma unroll
        for (int u = 0; u < TallPolicy::kUnroll; ++u) {
            const unsigned long long k = i + u * stride;
            x[u] = k < nvec ? __ldg(v + k) : make_double2(0.0, 0.0);
        }
#pragma unroll
        for (int u = 0; u < TallPolicy::kUnroll; ++u) {
            a0 += x[u].x;
            a1 += x[u].y;
        }
    }
    if ((total & 1ULL) != 0 && nvec >= first && (nvec - first) % stride == 0) a0 += __ldg(mat + (total - 1));
    s[2 * tid] = a0;
    s[2 * tid + 1] = a1;
    __syncthreads();
    fold_rows(s, 2 * nthreads / static_cast<unsigned>(n), static_cast<unsigned>(n), tid, nthreads);
    if (kAtomic) {
        for (unsigned c = tid; c < static_cast<unsigned>(n); c += nthreads) atomic_add_f64(vec + c, s[c]);
    } else {
        for (unsigned c = tid; c < static_cast<unsigned>(n); c += nthreads)
            partials[static_cast<unsigned long long>(blockIdx.x) * n + c] = s[c];
        __threadfence();  // this thread's partials reach the L2 before the block counts itself done
        __syncthreads();  // every thread's partials (and the reads of s) are done
        if (tid == 0) s_last = atomicInc(blocks_done, gridDim.x - 1) == gridDim.x - 1;
        __syncthreads();
        if (s_last) {  // uniform in the block
            __threadfence();
            sum_partial_rows(partials, vec, gridDim.x, n, s);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The tall versions' grid, high2_const's constants, and the launchers.

int tall_grid(TallSum sum, long long m, int n, int threads, int sm_count) {
    const unsigned long long pairs = (static_cast<unsigned long long>(m) * n + 1) / 2;
    const long long grid =
        sum == TallSum::kPartials
            ? cw::occupancy_grid(column_sum_flat_vectorized<false>, threads, 0, sm_count, pairs, threads)
            : cw::occupancy_grid(column_sum_flat_vectorized<true>, threads, 0, sm_count, pairs, threads);
    return static_cast<int>(grid);
}

High2Constants high2_constants(long long m, int n) {
    High2Constants c;
    c.cols_per_block = (n + kHigh2Blocks - 1) / kHigh2Blocks;
    c.per_column = std::max(1, kHigh2ThreadsX / c.cols_per_block);
    c.columns_at_once = kHigh2ThreadsX / c.per_column;
    const long long slices = static_cast<long long>(c.per_column) * kHigh2ThreadsY;
    c.wid = (m + slices - 1) / slices;
    return c;
}

void launch_thread_per_column(dim3 grid, dim3 block, const double* mat, double* vec, long long m, int n,
                              cudaStream_t stream) {
    column_sum_thread_per_column<<<grid, block, 0, stream>>>(mat, vec, m, n);
}

void launch_row_slices_atomic(dim3 grid, dim3 block, const double* mat, double* vec, long long m, int n,
                              cudaStream_t stream) {
    column_sum_row_slices_atomic<<<grid, block, 0, stream>>>(mat, vec, m, n);
}

void launch_column_groups_atomic(dim3 grid, dim3 block, const double* mat, double* vec, long long m, int n,
                                 cudaStream_t stream) {
    column_sum_column_groups_atomic<<<grid, block, 0, stream>>>(mat, vec, m, n);
}

void launch_column_groups_atomic_const(const double* mat, double* vec, long long m, int n, const High2Constants& c,
                                       cudaStream_t stream) {
    column_sum_column_groups_atomic_const<kHigh2ThreadsX, kHigh2ThreadsY>
        <<<dim3(kHigh2Blocks, 1, 1), dim3(kHigh2ThreadsX, kHigh2ThreadsY, 1), 0, stream>>>(mat, vec, m, n, c);
}

void launch_block_per_column_atomic(dim3 grid, dim3 block, const double* mat, double* vec, long long m, int n,
                                    cudaStream_t stream) {
    column_sum_block_per_column_atomic<<<grid, block, 0, stream>>>(mat, vec, m, n);
}

void launch_flat_vectorized(TallSum sum, dim3 grid, dim3 block, const double* mat, double* vec,
                            unsigned long long total, int n, double* partials, unsigned* blocks_done,
                            cudaStream_t stream) {
    if (sum == TallSum::kPartials)
        column_sum_flat_vectorized<false><<<grid, block, 0, stream>>>(mat, vec, total, n, partials, blocks_done);
    else
        column_sum_flat_vectorized<true><<<grid, block, 0, stream>>>(mat, vec, total, n, nullptr, nullptr);
}

}  // namespace colreduce
