// colreduce: column sums of an m x n row-major matrix of doubles, vec[j] = sum_i mat[i*n + j].
//
// The versions are listed once, in versions() (colreduce_kernels.cu): each entry (a Version,
// deriving from cw::VersionInfo) names its label, kernel(s), whether it is one of the report's
// slow versions, whether it must be bitwise repeatable, whether it is the library baseline, and
// a factory that makes its ColumnReducer. Dispatch, --only, the version list of --help, the
// CSV's version/validated/is_baseline columns and the tests all come from that list.
//
// A ColumnReducer is one version's GPU work: setup() allocates what the version needs beyond
// the matrix and the result, run() is the timed work, teardown() frees. The report's entry
// point gpu_mat_column_reduce() does the allocation, copies and kernel timing around it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "common.cuh"

namespace colreduce {

constexpr int kMaxColumns = 1024;            // every version handles 1 <= n <= 1024
constexpr long long kMaxRows = 2147483647LL;  // cuBLAS takes m as an int
// block_per_column: the report's 1024 threads per block; its demonstration asks for twice the
// per-block limit of every CUDA device so far (1024), which no device can launch.
constexpr unsigned kBlockPerColumnThreads = 1024;
constexpr unsigned kOverLimitThreads = 2048;

// The tuning of the tall versions (tall, tall_det), in one place: block size, unrolling and
// grid (tall_det's last block sums the partial rows with the same block size). for_device() picks it for a device; every
// architecture currently gets the same values (chosen on the H100 of results/colreduce.csv;
// --threads and --blocks override them for experiments). A new architecture-specific choice
// is a branch in for_device(), nothing else.
struct TallPolicy {
    // Compile-time limits of the kernels: __launch_bounds__(kMaxThreads) and shared arrays of
    // 2 * kMaxThreads doubles.
    static constexpr int kMaxThreads = 1024;
    // Grid-stride iterations unrolled per thread: kUnroll independent 16-byte loads in flight.
    static constexpr int kUnroll = 4;

    int threads = 1024;          // target threads per block (--threads=0), rounded by block_size()

    static TallPolicy for_device(const cw::DeviceInfo& device);

    // Threads per block for n columns: a multiple of q = n / gcd(n, 2) (so that each thread
    // keeps the same two columns over the whole grid-stride loop), the largest not above
    // `requested` (0: this policy's `threads`), and at least q (q <= 1023 since n <= 1024).
    int block_size(int n, int requested) const;
};

// What a version's factory gets: the device, the tuning policy for it, and the user's launch
// choices (0 = automatic: the policy's, as --help says).
struct LaunchContext {
    const cw::DeviceInfo* device = nullptr;
    TallPolicy policy;
    int threads = 0;  // --threads
    int blocks = 0;   // --blocks; 0 = one full wave (cw::occupancy_grid), fewer for small matrices
};

class ColumnReducer {
  public:
    virtual ~ColumnReducer() = default;
    // Device bytes setup() will allocate for an m x n problem (workspace, cuBLAS's ones vector).
    virtual std::size_t workspace_bytes(long long m, int n) const = 0;
    // Allocates the workspace and chooses the launch configuration (untimed work for the
    // report's GPU total: it counts as allocation).
    virtual void setup(const double* d_mat, double* d_vec, long long m, int n) = 0;
    // The timed work: everything that produces d_vec from d_mat, including zeroing d_vec for
    // versions that accumulate into it with atomics.
    virtual void run(cudaStream_t stream) = 0;
    virtual void teardown() = 0;
    virtual dim3 grid() const = 0;   // 0 x 0 x 0: chosen by a library
    virtual dim3 block() const = 0;
    // The first launch error of run() that the version did not stop on (only a demonstration
    // of the report's unchecked launches records one; every other launch is checked: exit 3).
    virtual cudaError_t launch_error() const { return cudaSuccess; }
};

using ReducerFactory = std::unique_ptr<ColumnReducer> (*)(const LaunchContext&);

// One entry of the registry.
struct Version : cw::VersionInfo {
    bool slow = false;                // one of the report's slow versions: timed --slow-repeat times
    bool bitwise_repeatable = false;  // no atomics: the first and last timed runs must agree bit for bit
    ReducerFactory make = nullptr;
};

// The registry: every version, in the order they run (original, high1, high2, high2_const,
// block_per_column, tall, tall_det, cublas; then the demonstration block_per_column_over_limit,
// which runs only when --only names it).
const std::vector<Version>& versions();

// cuBLAS cublasDgemv on the transposed view (colreduce_cublas.cu, its own translation unit).
std::unique_ptr<ColumnReducer> make_cublas_reducer(const LaunchContext& context);

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
