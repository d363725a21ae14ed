// Every kernel version of pi, behind launch functions (pi_kernels.cu). T is float or double.
#pragma once

#include <cuda_runtime.h>

namespace pi {

// version=1 (the report's kernel 1): each thread adds `chunk` consecutive terms, thread 0 of
// each block adds the block's partial sums serially; block_sums[blocks] (times h, added on
// the host, give the estimate). threads: a power of two; shared memory threads * sizeof(T).
template <typename T>
void launch_kernel1(long long niter, long long chunk, double h, long long blocks, int threads, T* block_sums,
                    cudaStream_t stream);

// version=2 (the report's kernel 2): as kernel 1, with the log2(threads)-step halving tree.
template <typename T>
void launch_kernel2(long long niter, long long chunk, double h, long long blocks, int threads, T* block_sums,
                    cudaStream_t stream);

// version=single: one launch, the estimate itself in *result. partials[blocks] and
// *blocks_done (zero before the first launch; the kernel leaves it zero) are its scratch.
template <typename T>
void launch_single(long long niter, double h, long long blocks, int threads, double* partials,
                   unsigned int* blocks_done, double* result, cudaStream_t stream);

// Launch tuning of pi's GPU versions, in one place. Kernels 1 and 2 have no grid choice (one
// thread per chunk of CHUNK terms: report_kernel_blocks in pi_cpu.h); version=single's grid is
// single_grid below. --threads=0 and --blocks=0 mean "what this policy chooses".
struct Policy {
    // Threads per block of every GPU version: a power of two from 32 to 1024 (kernel 2's
    // halving tree needs a power of two, version=single's warp sums a multiple of 32).
    int threads;
};
// One value for every architecture: the time of every version is set by the term evaluation,
// which does not depend on the block size; the block size only changes how long the block
// reductions of kernels 1 and 2 take (the threads column of results/*.csv).
constexpr Policy kPolicy{256};

// Grid of version=single for a block size (--blocks=0): the blocks resident at once at the
// kernel's occupancy on `sm_count` SMs, but no more blocks than there are tiles (or
// remainder terms) for their threads (cw::occupancy_grid).
template <typename T>
long long single_grid(long long niter, int threads, int sm_count);

}  // namespace pi
