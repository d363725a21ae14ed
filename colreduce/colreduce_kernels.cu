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
struct High2Constants {
    int cols_per_block;   // ceil(n / kBlocks)
    int per_column;       // x-threads per column: max(1, kThreadsX / cols_per_block)
    int columns_at_once;  // kThreadsX / per_column
    long long wid;        // rows per slice: ceil(m / (per_column * kThreadsY))
};

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
// block_per_column_over_limit (BlockPerColumnReducer): the kernel then never runs.
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
// Preconditions (checked on the host by TallReducer::setup): `mat` is 16-byte aligned (the
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
// Tuning of the tall versions.

TallPolicy TallPolicy::for_device(const cw::DeviceInfo& device) {
    (void)device;  // one choice for every architecture so far (see the header)
    TallPolicy p;
    return p;
}

int TallPolicy::block_size(int n, int requested) const {
    const int q = (n % 2 == 0) ? n / 2 : n;
    const int t = requested > 0 ? requested : threads;
    return std::max(q, (t / q) * q);
}

// ---------------------------------------------------------------------------------------
// Launchers.
namespace {

unsigned ceil_div_u(unsigned long long a, unsigned long long b) { return static_cast<unsigned>((a + b - 1) / b); }

// A broken precondition of a kernel (a programming error, not the user's input): one line,
// exit 3, before the launch could fault.
[[noreturn]] void launch_precondition_failed(const std::string& what) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: error: %s\n", cw::program_name(), what.c_str());
    std::exit(cw::kExitCuda);
}

// What the kernel versions share: the matrix and result pointers, the shape, the launch
// shape chosen in configure(), no workspace and nothing to free.
class KernelReducer : public ColumnReducer {
  public:
    std::size_t workspace_bytes(long long, int) const override { return 0; }
    void setup(const double* d_mat, double* d_vec, long long m, int n) override {
        mat_ = d_mat, vec_ = d_vec, m_ = m, n_ = n;
        configure();
    }
    void teardown() override {}
    dim3 grid() const override { return grid_; }
    dim3 block() const override { return block_; }

  protected:
    virtual void configure() = 0;  // sets grid_ and block_ from m_ and n_
    void zero_result(cudaStream_t stream) {
        CUDA_CHECK(cudaMemsetAsync(vec_, 0, static_cast<std::size_t>(n_) * sizeof(double), stream));
    }
    const double* mat_ = nullptr;
    double* vec_ = nullptr;
    long long m_ = 0;
    int n_ = 0;
    dim3 grid_, block_;
};

class OriginalReducer : public KernelReducer {
  public:
    void run(cudaStream_t stream) override {
        column_sum_thread_per_column<<<grid_, block_, 0, stream>>>(mat_, vec_, m_, n_);
        CUDA_CHECK_LAUNCH();
    }

  protected:
    void configure() override {
        grid_ = dim3(ceil_div_u(static_cast<unsigned>(n_), 128), 1, 1);  // report: ceil((double)n/ThreadNum)
        block_ = dim3(128, 1, 1);
    }
};

// high1 and high2: fixed report configurations, atomics into a zeroed result.
class ReportAtomicReducer : public KernelReducer {
  public:
    explicit ReportAtomicReducer(bool high2) : high2_(high2) {}
    void run(cudaStream_t stream) override {
        zero_result(stream);
        if (high2_)
            column_sum_column_groups_atomic<<<grid_, block_, 0, stream>>>(mat_, vec_, m_, n_);
        else
            column_sum_row_slices_atomic<<<grid_, block_, 0, stream>>>(mat_, vec_, m_, n_);
        CUDA_CHECK_LAUNCH();
    }

  protected:
    void configure() override {
        if (high2_) {
            grid_ = dim3(8, 1, 1);     // report: gridnum
            block_ = dim3(8, 128, 1);  // report: blocknum x colnum
        } else {
            grid_ = dim3(ceil_div_u(static_cast<unsigned>(n_), 64), 1, 1);  // report: ceil(n/ThreadNum)
            block_ = dim3(64, 16, 1);                                         // report: ThreadNum x colnum
        }
    }

  private:
    bool high2_;
};

// high2_const: high2's launch (the report's 8 blocks of 8 x 128) with the loop constants
// computed here, once, instead of in every thread (column_sum_column_groups_atomic_const).
class High2ConstReducer : public KernelReducer {
  public:
    static constexpr int kBlocks = 8, kThreadsX = 8, kThreadsY = 128;  // report: gridnum, blocknum, colnum
    void run(cudaStream_t stream) override {
        zero_result(stream);
        column_sum_column_groups_atomic_const<kThreadsX, kThreadsY><<<grid_, block_, 0, stream>>>(mat_, vec_, m_, n_,
                                                                                                 constants_);
        CUDA_CHECK_LAUNCH();
    }

  protected:
    void configure() override {
        grid_ = dim3(kBlocks, 1, 1);
        block_ = dim3(kThreadsX, kThreadsY, 1);
        constants_.cols_per_block = (n_ + kBlocks - 1) / kBlocks;
        constants_.per_column = std::max(1, kThreadsX / constants_.cols_per_block);
        constants_.columns_at_once = kThreadsX / constants_.per_column;
        const long long slices = static_cast<long long>(constants_.per_column) * kThreadsY;
        constants_.wid = (m_ + slices - 1) / slices;
    }

  private:
    High2Constants constants_{};
};

// block_per_column and its demonstration: n blocks of `threads` threads, atomics into a zeroed
// result. checked = false (the demonstration) keeps the report's unchecked launch: a launch
// error is recorded (launch_error()) instead of stopping the program, and the result stays
// as the memset left it (zeros), which is how the report's "wrong results" look.
class BlockPerColumnReducer : public KernelReducer {
  public:
    BlockPerColumnReducer(unsigned threads, bool checked) : threads_(threads), checked_(checked) {}
    void run(cudaStream_t stream) override {
        zero_result(stream);
        column_sum_block_per_column_atomic<<<grid_, block_, 0, stream>>>(mat_, vec_, m_, n_);
        if (checked_) {
            CUDA_CHECK_LAUNCH();
        } else {
            const cudaError_t err = cudaGetLastError();  // read (and cleared) but not acted on
            if (err != cudaSuccess && launch_error_ == cudaSuccess) launch_error_ = err;
        }
    }
    cudaError_t launch_error() const override { return launch_error_; }

  protected:
    void configure() override {
        grid_ = dim3(static_cast<unsigned>(n_), 1, 1);  // one block per column
        block_ = dim3(threads_, 1, 1);
    }

  private:
    unsigned threads_;
    bool checked_;
    cudaError_t launch_error_ = cudaSuccess;
};

class TallReducer : public ColumnReducer {
  public:
    TallReducer(bool deterministic, const LaunchContext& context) : det_(deterministic), context_(context) {}
    std::size_t workspace_bytes(long long m, int n) const override {
        if (!det_) return 0;
        return partials_bytes(grid_blocks(m, n), n) + sizeof(unsigned);
    }
    void setup(const double* d_mat, double* d_vec, long long m, int n) override {
        mat_ = d_mat, vec_ = d_vec, m_ = m, n_ = n;
        const int threads = context_.policy.block_size(n, context_.threads);
        // The kernels' preconditions (colreduce_kernels.cu, column_sum_flat_vectorized).
        if (reinterpret_cast<std::uintptr_t>(d_mat) % 16 != 0)
            launch_precondition_failed("tall: the matrix is not 16-byte aligned (its double2 loads need it)");
        if (threads > TallPolicy::kMaxThreads)
            launch_precondition_failed("tall: " + std::to_string(threads) + " threads per block for n=" +
                                       std::to_string(n) + ", more than the kernel's " +
                                       std::to_string(TallPolicy::kMaxThreads));
        block_ = dim3(static_cast<unsigned>(threads), 1, 1);
        grid_ = dim3(static_cast<unsigned>(grid_blocks(m, n)), 1, 1);
        if (det_) {
            // The partial rows, then the blocks-done counter (256-byte aligned after them),
            // zeroed once here: each launch's last block leaves it at 0 again.
            const std::size_t rows_bytes = partials_bytes(static_cast<int>(grid_.x), n);
            CUDA_CHECK(cudaMalloc(&partials_, rows_bytes + sizeof(unsigned)));
            blocks_done_ = reinterpret_cast<unsigned*>(reinterpret_cast<unsigned char*>(partials_) + rows_bytes);
            CUDA_CHECK(cudaMemset(blocks_done_, 0, sizeof(unsigned)));
        }
    }
    void run(cudaStream_t stream) override {
        const unsigned long long total = static_cast<unsigned long long>(m_) * static_cast<unsigned long long>(n_);
        if (det_) {
            column_sum_flat_vectorized<false><<<grid_, block_, 0, stream>>>(mat_, vec_, total, n_, partials_, blocks_done_);
            CUDA_CHECK_LAUNCH();
        } else {
            CUDA_CHECK(cudaMemsetAsync(vec_, 0, static_cast<std::size_t>(n_) * sizeof(double), stream));
            column_sum_flat_vectorized<true><<<grid_, block_, 0, stream>>>(mat_, vec_, total, n_, nullptr, nullptr);
            CUDA_CHECK_LAUNCH();
        }
    }
    void teardown() override {
        if (partials_ != nullptr) CUDA_CHECK(cudaFree(partials_));
        partials_ = nullptr;
        blocks_done_ = nullptr;
    }
    dim3 grid() const override { return grid_; }
    dim3 block() const override { return block_; }

  private:
    // tall_det's partial rows (one per block), rounded up to 256 bytes (the counter follows).
    static std::size_t partials_bytes(int blocks, int n) {
        return (static_cast<std::size_t>(blocks) * n * sizeof(double) + 255) / 256 * 256;
    }
    // --blocks when given; else one full wave (resident blocks per SM x SMs), or fewer when
    // the matrix has less than one double2 per thread of that wave.
    int grid_blocks(long long m, int n) const {
        if (context_.blocks > 0) return context_.blocks;
        const int threads = context_.policy.block_size(n, context_.threads);
        const unsigned long long pairs = (static_cast<unsigned long long>(m) * n + 1) / 2;
        const int sms = context_.device->sm_count;
        const long long grid = det_ ? cw::occupancy_grid(column_sum_flat_vectorized<false>, threads, 0, sms, pairs, threads)
                                    : cw::occupancy_grid(column_sum_flat_vectorized<true>, threads, 0, sms, pairs, threads);
        return static_cast<int>(grid);
    }

    bool det_;
    LaunchContext context_;
    const double* mat_ = nullptr;
    double* vec_ = nullptr;
    double* partials_ = nullptr;
    unsigned* blocks_done_ = nullptr;
    long long m_ = 0;
    int n_ = 0;
    dim3 grid_, block_;
};

std::unique_ptr<ColumnReducer> make_original(const LaunchContext&) {
    return std::unique_ptr<ColumnReducer>(new OriginalReducer());
}
std::unique_ptr<ColumnReducer> make_high1(const LaunchContext&) {
    return std::unique_ptr<ColumnReducer>(new ReportAtomicReducer(false));
}
std::unique_ptr<ColumnReducer> make_high2(const LaunchContext&) {
    return std::unique_ptr<ColumnReducer>(new ReportAtomicReducer(true));
}
std::unique_ptr<ColumnReducer> make_high2_const(const LaunchContext&) {
    return std::unique_ptr<ColumnReducer>(new High2ConstReducer());
}
std::unique_ptr<ColumnReducer> make_block_per_column(const LaunchContext&) {
    return std::unique_ptr<ColumnReducer>(new BlockPerColumnReducer(kBlockPerColumnThreads, true));
}
std::unique_ptr<ColumnReducer> make_block_per_column_over_limit(const LaunchContext&) {
    return std::unique_ptr<ColumnReducer>(new BlockPerColumnReducer(kOverLimitThreads, false));
}
std::unique_ptr<ColumnReducer> make_tall(const LaunchContext& context) {
    return std::unique_ptr<ColumnReducer>(new TallReducer(false, context));
}
std::unique_ptr<ColumnReducer> make_tall_det(const LaunchContext& context) {
    return std::unique_ptr<ColumnReducer>(new TallReducer(true, context));
}

Version entry(const char* label, const char* kernel, const char* summary, bool slow, bool bitwise_repeatable,
              bool is_baseline, ReducerFactory make) {
    Version v = cw::version_entry<Version>(label, kernel, summary, is_baseline);
    v.slow = slow;
    v.bitwise_repeatable = bitwise_repeatable;
    v.make = make;
    return v;
}

// The demonstration (validated = false, run only when --only names it): block_per_column's
// kernel launched with kOverLimitThreads threads per block, more than any CUDA device allows
// (1024), and the launch left unchecked as in the report's code. What the report's conclusion
// describes ("the number of threads applied for each block is huge, so the Kernel function
// can't enter the GPU"): the launch fails, nothing runs, the result stays zero.
Version over_limit_entry() {
    Version v = entry("block_per_column_over_limit", "column_sum_block_per_column_atomic",
                      "block_per_column with 2048 threads per block (over the limit), launch unchecked as in the "
                      "report: the kernel never runs",
                      false, false, false, make_block_per_column_over_limit);
    v.validated = false;
    v.by_default = false;
    return v;
}

}  // namespace

const std::vector<Version>& versions() {
    //                      label       kernel(s)                                 summary (--help)
    //                      slow   bitwise_repeatable  is_baseline  factory
    static const std::vector<Version> registry = {
        entry("original", "column_sum_thread_per_column",
              "report: one thread per column, ceil(n/128) x 128 [slow: --slow-repeat]", true, true, false,
              make_original),
        entry("high1", "column_sum_row_slices_atomic",
              "report: 16 row slices per column, ceil(n/64) x (64x16), atomics [slow: --slow-repeat]", true, false,
              false, make_high1),
        entry("high2", "column_sum_column_groups_atomic",
              "report: columns over 8 blocks of 8x128, rows over threads, atomics [slow: --slow-repeat]", true, false,
              false, make_high2),
        entry("high2_const", "column_sum_column_groups_atomic_const<8,128>",
              "the report's remark: high2 with its loop constants computed once, held in registers "
              "[slow: --slow-repeat]",
              true, false, false, make_high2_const),
        entry("block_per_column", "column_sum_block_per_column_atomic",
              "report's unlisted idea: one block per column (grid n), 1024 threads, atomics", false, false, false,
              make_block_per_column),
        entry("tall", "column_sum_flat_vectorized<atomic>",
              "ours: flat double2 loads, register sums, shared fold, n atomics per block", false, false, false,
              make_tall),
        entry("tall_det", "column_sum_flat_vectorized<partials>",
              "ours: tall without double atomics, per-block partial rows summed by the last block; bitwise repeatable",
              false, true,
              false, make_tall_det),
        entry("cublas", "cublasDgemv(CUBLAS_OP_N; n x m; lda=n)", "cuBLAS dgemv on the transposed view", false,
              false, true, make_cublas_reducer),
        over_limit_entry(),
    };
    return registry;
}

GpuRun gpu_mat_column_reduce(ColumnReducer& reducer, const double* h_mat, double* h_vec, long long m, int n,
                             int warmup, int repeat, cw::L2Flusher* flusher) {
    GpuRun g;
    const std::size_t mat_bytes = static_cast<std::size_t>(m) * static_cast<std::size_t>(n) * sizeof(double);
    const std::size_t vec_bytes = static_cast<std::size_t>(n) * sizeof(double);
    double* d_mat = nullptr;
    double* d_vec = nullptr;

    cw::HostStopwatch watch;
    CUDA_CHECK(cudaMalloc(&d_mat, mat_bytes));
    CUDA_CHECK(cudaMalloc(&d_vec, vec_bytes));
    reducer.setup(d_mat, d_vec, m, n);
    CUDA_CHECK(cudaDeviceSynchronize());
    g.alloc_ms = watch.elapsed_ms();

    watch.restart();
    CUDA_CHECK(cudaMemcpy(d_mat, h_mat, mat_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_vec, h_vec, vec_bytes, cudaMemcpyHostToDevice));  // the report's zero vector
    g.h2d_ms = watch.elapsed_ms();

    // Timed in two parts so that the first timed run's result can be compared, bit for bit,
    // with the last one's (outside every timed interval).
    auto work = [&](cudaStream_t stream) { reducer.run(stream); };
    cw::Timing timing = cw::time_gpu(warmup, 1, work, flusher);
    std::vector<double> first;
    if (repeat > 1) {
        first.resize(static_cast<std::size_t>(n));
        CUDA_CHECK(cudaMemcpy(first.data(), d_vec, vec_bytes, cudaMemcpyDeviceToHost));
        const cw::Timing rest = cw::time_gpu(0, repeat - 1, work, flusher);
        timing.samples_ms.insert(timing.samples_ms.end(), rest.samples_ms.begin(), rest.samples_ms.end());
    }
    g.kernel_ms = timing.median_ms();
    g.kernel_min_ms = timing.min_ms();

    watch.restart();
    CUDA_CHECK(cudaMemcpy(h_vec, d_vec, vec_bytes, cudaMemcpyDeviceToHost));
    g.d2h_ms = watch.elapsed_ms();
    if (repeat > 1) g.repeatable = std::memcmp(first.data(), h_vec, vec_bytes) == 0 ? 1 : 0;

    watch.restart();
    reducer.teardown();
    CUDA_CHECK(cudaFree(d_mat));
    CUDA_CHECK(cudaFree(d_vec));
    CUDA_CHECK(cudaDeviceSynchronize());
    g.free_ms = watch.elapsed_ms();
    return g;
}

}  // namespace colreduce
