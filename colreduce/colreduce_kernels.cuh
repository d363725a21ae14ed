// colreduce: column sums of an m x n row-major matrix of doubles, vec[j] = sum_i mat[i*n + j].
// Every GPU version (the report's original, high1, high2; our tall and tall_det; cuBLAS in
// its own translation unit) is a ColumnReducer: setup() allocates what the version needs
// beyond the matrix and the result, run() is the timed work, teardown() frees. The report's
// entry point gpu_mat_column_reduce() does the allocation, copies and kernel timing around it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "common.cuh"

namespace colreduce {

constexpr int kMaxColumns = 1024;  // every version handles 1 <= n <= 1024

class ColumnReducer {
  public:
    virtual ~ColumnReducer() = default;
    virtual std::string label() const = 0;        // the report's label (original, high1, high2) or ours
    virtual std::string kernel_name() const = 0;  // the C++ kernel(s) it launches
    // Device bytes setup() will allocate for an m x n problem (workspace, cuBLAS's ones vector).
    virtual std::size_t workspace_bytes(long long m, int n) const = 0;
    // Allocates the workspace and chooses the launch configuration (untimed work for the
    // report's GPU total: it counts as allocation).
    virtual void setup(const double* d_mat, double* d_vec, long long m, int n) = 0;
    // The timed work: everything that produces d_vec from d_mat, including zeroing d_vec for
    // versions that accumulate into it with atomics.
    virtual void run(cudaStream_t stream) = 0;
    virtual void teardown() = 0;
    virtual dim3 grid() const = 0;
    virtual dim3 block() const = 0;
};

// Launch choices of the tall versions (0 = automatic); the report's versions keep the
// report's fixed configurations.
struct TallConfig {
    int threads = 0;  // target threads per block, rounded down to a multiple of q (see README)
    int blocks = 0;   // grid size; 0 = one full wave (occupancy x SMs), fewer for small problems
};

// The GPU labels in the order they run, and the factory for the ones in colreduce_kernels.cu.
extern const std::vector<std::string> kVersionLabels;  // original, high1, high2, tall, tall_det, cublas
std::unique_ptr<ColumnReducer> make_kernel_reducer(const std::string& label, const TallConfig& config);
// cuBLAS cublasDgemv on the transposed view (colreduce_cublas.cu).
std::unique_ptr<ColumnReducer> make_cublas_reducer();

// The report's split of the GPU time, host-timed (steady clock) except the kernel.
struct GpuRun {
    double alloc_ms = 0;        // cudaMalloc of matrix, result and workspace (+ setup)
    double h2d_ms = 0;          // matrix and zero result vector to the device
    double kernel_ms = 0;       // median of the timed runs (CUDA events)
    double kernel_min_ms = 0;
    double d2h_ms = 0;          // result back to the host
    double free_ms = 0;         // cudaFree of everything
    double total_ms() const { return alloc_ms + h2d_ms + kernel_ms + d2h_ms + free_ms; }
    int repeatable = -1;        // 1: first and last timed runs bitwise equal, 0: not, -1: one run only
};

// The report's GPU entry point: allocates, copies the matrix and a zero result vector in,
// runs `warmup` untimed and `repeat` timed runs (the L2 flushed before each timed run when
// `flusher` is given), copies the result out into h_vec and frees.
GpuRun gpu_mat_column_reduce(ColumnReducer& reducer, const double* h_mat, double* h_vec, long long m, int n,
                             int warmup, int repeat, cw::L2Flusher* flusher);

}  // namespace colreduce
