// vecmax: every kernel version and its host-side launcher (the launch policy: vecmax_policy.h).
//   version=report       vecmax_grid_stride_shared_tree   the report's VecMax kernel, bugs fixed
//   version=single_pass  vecmax_single_pass_vec4          float4 loads, shuffles, one launch
// (version=cub, the library baseline, is in vecmax_cub.cu.)
#pragma once

#include <cuda_runtime.h>

#include "vecmax_nan_max.cuh"
#include "vecmax_policy.h"

namespace vecmax {

// version=report: block b of the grid writes the maximum of its grid-stride slices to
// block_max[b]. blockDim.x must be a power of two (the halving tree); dynamic shared memory:
// blockDim.x floats.
__global__ void vecmax_grid_stride_shared_tree(const float* a, long long n, float* block_max);

// version=single_pass, the whole maximum in one launch (kThreads x kUnroll: SinglePassPolicy).
// Alignment: the float4 loads need 16-byte alignment, which the kernel establishes itself:
// x must only be float-aligned (4 bytes; every cudaMalloc pointer plus a whole number of
// floats is); the up to 3 floats before the first 16-byte boundary and the up to 3 after the
// last whole float4 are read as scalars. SinglePassMax::launch checks the 4-byte alignment on
// the host and refuses any other pointer (an internal error, exit 3) rather than letting a load fault.
// The maximum's order key (vecmax_order_key.h) goes to key_slots[slot] by atomicMax; block 0
// clears key_slots[slot ^ 1] for the next launch.
template <int kThreads, int kUnroll>
__global__ void vecmax_single_pass_vec4(const float* __restrict__ x, long long n, unsigned int* __restrict__ key_slots,
                                        unsigned int slot);

// version=report: `blocks` blocks of `threads` threads (a power of two); block b's maximum
// goes to block_max[b]; the host finishes (max_reference over the `blocks` values).
void launch_report_vecmax(const float* d_x, long long n, float* d_block_max, int threads, int blocks,
                          cudaStream_t stream);

// version=single_pass: grid of `blocks` x policy.threads, in one launch. The maximum is kept
// as an order key (vecmax_order_key.h) in one of two device slots that the object owns;
// result_key() is the device address of the key of the last launch, valid once that launch
// has completed and until the next launch (which clears it). Launches of one object must be
// on one stream.
class SinglePassMax {
  public:
    explicit SinglePassMax(const SinglePassPolicy& policy);
    ~SinglePassMax();
    SinglePassMax(const SinglePassMax&) = delete;
    SinglePassMax& operator=(const SinglePassMax&) = delete;
    void launch(const float* d_x, long long n, int blocks, cudaStream_t stream);
    const unsigned int* result_key() const { return key_slots_ + slot_; }

  private:
    SinglePassPolicy policy_;
    unsigned int* key_slots_ = nullptr;
    unsigned int slot_ = 1u;  // the first launch uses slot 0
};

// The automatic single_pass grid for n floats (see SinglePassPolicy), at least 1 block.
int single_pass_grid(const SinglePassPolicy& policy, long long n, int sm_count);

}  // namespace vecmax
