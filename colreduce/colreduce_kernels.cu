// Every kernel of colreduce, their launchers, the registry of versions (versions()), and the
// report's GPU entry point gpu_mat_column_reduce(). Column sums of an m x n row-major matrix
// of doubles: vec[j] = sum_i mat[i*n + j], for every 1 <= m <= 2^31 - 1 and 1 <= n <= 1024.
#include "colreduce_kernels.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

// version=tall (kAtomic) and the first pass of version=tall_det (!kAtomic). Ours, for tall
// matrices with few columns.
// - The matrix is read as one flat array of m*n doubles, 16-byte double2 loads, consecutive
//   threads on consecutive addresses: every warp reads 512 contiguous bytes, whatever n is
//   (the report's versions read n doubles per row per warp, 64 bytes at n = 8).
// - The block size T is a multiple of q = n / gcd(n, 2) (TallPolicy::block_size), so 2T, and
//   the grid stride 2 * T * gridDim.x, are multiples of n: each thread keeps the same two
//   columns, (2t) % n and (2t+1) % n, for the whole grid-stride loop and sums them in registers.
// - The loop is unrolled TallPolicy::kUnroll times with predicated loads: that many
//   independent 16-byte loads in flight per thread, even when a thread has fewer (small
//   matrices).
// - One block-level fold in shared memory (2T values, 2T/n rows of n columns), then n atomics
//   per block (tall) or n plain stores into a per-block partial row (tall_det, no atomics).
// - An odd m*n leaves one double after the last double2: the thread whose loop would have
//   reached that pair adds it (it is column (2t) % n of that thread).
// Preconditions (checked on the host by TallReducer::setup): `mat` is 16-byte aligned (the
// double2 loads; cudaMalloc gives 256 bytes), blockDim.x <= TallPolicy::kMaxThreads and a
// multiple of q, 2 * blockDim.x / n rows fit the shared array.
template <bool kAtomic>
__global__ void __launch_bounds__(TallPolicy::kMaxThreads)
column_sum_flat_vectorized(const double* __restrict__ mat, double* __restrict__ out, unsigned long long total, int n) {
    __shared__ double s[2 * TallPolicy::kMaxThreads];
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
    for (unsigned c = tid; c < static_cast<unsigned>(n); c += nthreads) {
        if (kAtomic)
            atomic_add_f64(out + c, s[c]);
        else
            out[static_cast<unsigned long long>(blockIdx.x) * n + c] = s[c];
    }
}

// Second pass of version=tall_det: column c is the sum of the `rows` per-block partials
// partials[r*n + c]. A block takes `width` adjacent columns (coalesced reads of each partial
// row), its threads split the rows, and the same fixed fold finishes: the result is bitwise
// the same on every run with the same launch configuration. blockDim.x <= kMaxThreads.
__global__ void __launch_bounds__(TallPolicy::kMaxThreads)
column_sum_partials_finalize(const double* __restrict__ partials, double* __restrict__ vec, int rows, int n, int width) {
    __shared__ double s[TallPolicy::kMaxThreads];
    const unsigned tid = threadIdx.x;
    const unsigned nthreads = blockDim.x;  // a multiple of width
    const unsigned lanes = nthreads / width;
    const int c = static_cast<int>(blockIdx.x) * width + static_cast<int>(tid % width);
    double acc = 0.0;
    if (c < n) {
#pragma unroll 4
        for (int r = static_cast<int>(tid / width); r < rows; r += static_cast<int>(lanes))
            acc += partials[static_cast<unsigned long long>(r) * n + c];
    }
    s[tid] = acc;
    __syncthreads();
    fold_rows(s, lanes, static_cast<unsigned>(width), tid, nthreads);
    if (tid < static_cast<unsigned>(width) && c < n) vec[c] = s[tid];
}

