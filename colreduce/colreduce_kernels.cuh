// colreduce: column sums of an m x n row-major matrix of doubles, vec[j] = sum_i mat[i*n + j].
//
// The kernels (colreduce_kernels.cu) and their host launchers: one launcher per kernel, which
// only launches (the caller checks the launch). The versions that run them, their runners and
// the registry are in colreduce_versions.cu; cuBLAS's is in colreduce_cublas.cu.
#pragma once

#include <algorithm>

#include <cuda_runtime.h>

#include "common.cuh"

namespace colreduce {

constexpr int kMaxColumns = 1024;            // every version handles 1 <= n <= 1024
constexpr long long kMaxRows = 2147483647LL;  // cuBLAS takes m as an int
// block_per_column: the report's 1024 threads per block; its demonstration asks for twice
// that, 2048, above the per-block limit of CUDA (1024 threads; the device's own limit is the
// CSV's max_threads_per_block), so that the launch fails.
constexpr unsigned kBlockPerColumnThreads = 1024;
constexpr unsigned kOverLimitThreads = 2048;

// How a tall block's column sums reach the result: n atomics per block (tall), or the
// per-block partial rows summed in a fixed order by the last block (tall_det).
enum class TallSum { kAtomic, kPartials };

// The automatic grid of a tall version: one full wave of resident blocks (cw::occupancy_grid),
// fewer when the matrix has less than one double2 per thread of that wave.
int tall_grid(TallSum sum, long long m, int n, int threads, int sm_count);

// high2_const's launch, the report's #define gridnum, blocknum, colnum.
constexpr int kHigh2Blocks = 8, kHigh2ThreadsX = 8, kHigh2ThreadsY = 128;

// high2_const's loop constants, computed once on the host (high2_constants) and passed by value.
struct High2Constants {
    int cols_per_block;   // ceil(n / kHigh2Blocks)
    int per_column;       // x-threads per column: max(1, kHigh2ThreadsX / cols_per_block)
    int columns_at_once;  // kHigh2ThreadsX / per_column
    long long wid;        // rows per slice: ceil(m / (per_column * kHigh2ThreadsY))
};
High2Constants high2_constants(long long m, int n);

// The launchers, one per kernel (see each kernel in colreduce_kernels.cu).
void launch_thread_per_column(dim3 grid, dim3 block, const double* mat, double* vec, long long m, int n,
                              cudaStream_t stream);
void launch_row_slices_atomic(dim3 grid, dim3 block, const double* mat, double* vec, long long m, int n,
                              cudaStream_t stream);
void launch_column_groups_atomic(dim3 grid, dim3 block, const double* mat, double* vec, long long m, int n,
                                 cudaStream_t stream);
// kHigh2Blocks blocks of kHigh2ThreadsX x kHigh2ThreadsY.
void launch_column_groups_atomic_const(const double* mat, double* vec, long long m, int n, const High2Constants& c,
                                       cudaStream_t stream);
void launch_block_per_column_atomic(dim3 grid, dim3 block, const double* mat, double* vec, long long m, int n,
                                    cudaStream_t stream);
// tall (TallSum::kAtomic: vec zeroed first by the caller; partials and blocks_done unused) and
// tall_det (kPartials: partials holds grid.x * n doubles, *blocks_done is 0 before the first launch).
void launch_flat_vectorized(TallSum sum, dim3 grid, dim3 block, const double* mat, double* vec,
                            unsigned long long total, int n, double* partials, unsigned* blocks_done,
                            cudaStream_t stream);

}  // namespace colreduce
