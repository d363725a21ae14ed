// Every kernel version of pi, behind launch functions (pi_kernels.cu). T is float or double.
// The launch tuning (threads per block) is pi_policy.h's.
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

// Grid of version=single for a block size (--blocks=0): the blocks resident at once at the
// kernel's occupancy on `sm_count` SMs, but no more blocks than there are tiles (or
// remainder terms) for their threads (cw::occupancy_grid).
template <typename T>
long long single_grid(long long niter, int threads, int sm_count);

}  // namespace pi
