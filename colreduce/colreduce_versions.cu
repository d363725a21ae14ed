// colreduce's versions: the runner they share (the report's allocation, copies and frees around
// the timed work), one runner per kernel version (its launch shape, its launch) and the
// registry. Adding a version: its kernel and launcher (colreduce_kernels.cu), a runner and one
// entry here; --help, --only, --list-versions, the CSV, the tables and the tests follow.
#include "colreduce_versions.cuh"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "colreduce_kernels.cuh"
#include "colreduce_policy.h"

namespace colreduce {

// ---------------------------------------------------------------------------------------
// The runner every version shares.

// What finish() did not free (a run that ended early).
Runner::~Runner() {
    if (mat_ != nullptr) cudaFree(mat_);
    if (vec_ != nullptr) cudaFree(vec_);
}

void Runner::start() {
    cw::HostStopwatch watch;
    CUDA_CHECK(cudaMalloc(&mat_, static_cast<std::size_t>(p_.m) * result_bytes()));
    CUDA_CHECK(cudaMalloc(&vec_, result_bytes()));
    setup();
    CUDA_CHECK(cudaDeviceSynchronize());
    run_.alloc_ms = watch.elapsed_ms();

    watch.restart();
    const std::vector<double> zeros(static_cast<std::size_t>(p_.n), 0.0);  // the report's zero vector
    CUDA_CHECK(cudaMemcpy(mat_, p_.h_mat, static_cast<std::size_t>(p_.m) * result_bytes(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(vec_, zeros.data(), result_bytes(), cudaMemcpyHostToDevice));
    run_.h2d_ms = watch.elapsed_ms();
}

// All bits set: a NaN in every column, which no check accepts.
void Runner::poison(cudaStream_t stream) { CUDA_CHECK(cudaMemsetAsync(vec_, 0xff, result_bytes(), stream)); }

// Before run number first_timed_ + 1: the result of the first timed run, kept (untimed).
void Runner::reset(cudaStream_t stream) {
    if (varied_ || ++resets_ != first_timed_ + 1) return;
    first_.resize(static_cast<std::size_t>(p_.n));
    CUDA_CHECK(cudaMemcpyAsync(first_.data(), vec_, result_bytes(), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

// --vary-input: the matrix on the host changed. The run's finish() (measure_more) has freed the
// device side, as the report's whole GPU run does (allocation, copies, kernel, free), so the first
// new input starts it again; from then on the runner keeps its device state (finish() frees
// nothing once varied) and only the matrix is copied again, so that each later input is launched
// on what the earlier launches left (tall_det's blocks-done counter: a counter that failed to
// reset itself would leave the poisoned result, a FAIL). No later result is compared with the
// first timed run's: it was of the other matrix.
void Runner::input_changed(cudaStream_t stream) {
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (mat_ == nullptr) start();
    else CUDA_CHECK(cudaMemcpy(mat_, p_.h_mat, static_cast<std::size_t>(p_.m) * result_bytes(), cudaMemcpyHostToDevice));
    varied_ = true;
}

void Runner::fetch(cudaStream_t stream) {
    CUDA_CHECK(cudaStreamSynchronize(stream));
    cw::HostStopwatch watch;
    CUDA_CHECK(cudaMemcpy(p_.got, vec_, result_bytes(), cudaMemcpyDeviceToHost));
    run_.d2h_ms = watch.elapsed_ms();
    if (!varied_ && !first_.empty()) run_.repeatable = std::memcmp(first_.data(), p_.got, result_bytes()) == 0 ? 1 : 0;
}

// The report's free, timed; a varied runner keeps everything for its next input (input_changed;
// the destructors free it).
GpuRun Runner::finish() {
    if (!varied_) {
        cw::HostStopwatch watch;
        teardown();
        CUDA_CHECK(cudaFree(mat_));
        CUDA_CHECK(cudaFree(vec_));
        mat_ = nullptr;
        vec_ = nullptr;
        CUDA_CHECK(cudaDeviceSynchronize());
        run_.free_ms = watch.elapsed_ms();
    }
    run_.grid = grid_;
    run_.block = block_;
    run_.launch_error = launch_error();
    return run_;
}

void Runner::zero_result(cudaStream_t stream) { CUDA_CHECK(cudaMemsetAsync(vec_, 0, result_bytes(), stream)); }

void GpuRun::print(const Version& v, double kernel_ms, int max_threads_per_block) const {
    std::printf("version %s (%s):\n", v.label.c_str(), v.kernel.c_str());
    std::printf(" grid dim: %u, %u, %u.\n", grid.x, grid.y, grid.z);
    std::printf(" block dim: %u, %u, %u.\n", block.x, block.y, block.z);
    std::printf(" kernel time: %f milisec\n", kernel_ms);
    if (launch_error != cudaSuccess)
        std::printf(" launch failed, not checked (as in the report's code): %s (%s); block of %u threads, "
                    "device limit %d\n",
                    cudaGetErrorName(launch_error), cudaGetErrorString(launch_error), block.x * block.y * block.z,
                    max_threads_per_block);
    std::printf("GPU: %f milisec (alloc %.3f, copies in %.3f, kernel %.3f, copy out %.3f, free %.3f)\n",
                total_ms(kernel_ms), alloc_ms, h2d_ms, kernel_ms, d2h_ms, free_ms);
}

void choose_launches(Plan& p, const cw::DeviceInfo& device, int threads, int blocks) {
    p.tall_threads = kTallPolicy.block_size(p.n, threads);
    p.tall_blocks = blocks > 0 ? blocks : tall_grid(TallSum::kAtomic, p.m, p.n, p.tall_threads, device.sm_count);
    p.tall_det_blocks = blocks > 0 ? blocks : tall_grid(TallSum::kPartials, p.m, p.n, p.tall_threads, device.sm_count);
}

// With CUDA's lazy module loading, the kernels' modules load later, at their first launch.
// The report's GPU time paid for this in every run (its first cudaMalloc made the context, one
// process per size); ours is measured once, before the device probe, and kept out of every
// other number.
double context_creation_ms(int device) {
    cw::HostStopwatch watch;
    if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
        (void)cudaGetLastError();
        return NAN;
    }
    return watch.elapsed_ms();
}

namespace {

unsigned ceil_div_u(unsigned long long a, unsigned long long b) { return static_cast<unsigned>((a + b - 1) / b); }

// A broken precondition of a kernel (a programming error, not the user's input): one line,
// exit 3 (run_main), before the launch could fault.
[[noreturn]] void launch_precondition_failed(const std::string& what) { throw cw::DeviceError("error: " + what); }

// ---------------------------------------------------------------------------------------
// One runner per kernel version.

// The report's three launches: its kernel launcher, its grid and block for the plan, and
// whether the kernel adds into a zeroed result (atomics) or writes it.
using ShapedLauncher = void (*)(dim3, dim3, const double*, double*, long long, int, cudaStream_t);
struct ReportLaunch {
    ShapedLauncher launch;
    bool atomic;
    unsigned grid_divisor;  // grid = ceil(n / grid_divisor) blocks, or grid_blocks where 0
    unsigned grid_blocks;
    unsigned block_x, block_y;
};
// version=original: ceil(n/128) blocks of 128 threads (the report's ThreadNum), one per column
// (report: ceil((double)n/ThreadNum)).
constexpr ReportLaunch kOriginal{launch_thread_per_column, false, 128, 0, 128, 1};
// version=high1: ceil(n/64) blocks of 64 x 16 (the report's ThreadNum x colnum), atomics.
constexpr ReportLaunch kHigh1{launch_row_slices_atomic, true, 64, 0, 64, 16};
// version=high2: 8 blocks of 8 x 128 (the report's gridnum, blocknum x colnum), atomics.
constexpr ReportLaunch kHigh2{launch_column_groups_atomic, true, 0, kHigh2Blocks, kHigh2ThreadsX, kHigh2ThreadsY};

template <const ReportLaunch& kLaunch>
class ReportRunner : public Runner {
  public:
    using Runner::Runner;
    void launch(cudaStream_t stream) override {
        if (kLaunch.atomic) zero_result(stream);
        kLaunch.launch(grid_, block_, mat_, vec_, p_.m, p_.n, stream);
        CUDA_CHECK_LAUNCH();
    }

  protected:
    void setup() override {
        const unsigned blocks = kLaunch.grid_divisor > 0
                                    ? ceil_div_u(static_cast<unsigned>(p_.n), kLaunch.grid_divisor)
                                    : kLaunch.grid_blocks;
        grid_ = dim3(blocks, 1, 1);
        block_ = dim3(kLaunch.block_x, kLaunch.block_y, 1);
    }
};

// version=high2_const: high2's launch with the loop constants computed here, once, instead of
// in every thread (column_sum_column_groups_atomic_const).
class High2ConstRunner : public Runner {
  public:
    using Runner::Runner;
    void launch(cudaStream_t stream) override {
        zero_result(stream);
        launch_column_groups_atomic_const(mat_, vec_, p_.m, p_.n, constants_, stream);
        CUDA_CHECK_LAUNCH();
    }

  protected:
    void setup() override {
        grid_ = dim3(kHigh2Blocks, 1, 1);
        block_ = dim3(kHigh2ThreadsX, kHigh2ThreadsY, 1);
        constants_ = high2_constants(p_.m, p_.n);
    }

  private:
    High2Constants constants_{};
};

// version=block_per_column (kThreads = 1024, launch checked) and its demonstration
// block_per_column_over_limit (kThreads = 2048, unchecked): n blocks of kThreads threads,
// atomics into a zeroed result. The demonstration keeps the report's unchecked launch: a launch
// error is recorded (launch_error()) instead of stopping the program, and the result stays as
// the memset left it (zeros), which is how the report's "wrong results" look.
template <unsigned kThreads, bool kChecked>
class BlockPerColumnRunner : public Runner {
  public:
    using Runner::Runner;
    void launch(cudaStream_t stream) override {
        zero_result(stream);
        launch_block_per_column_atomic(grid_, block_, mat_, vec_, p_.m, p_.n, stream);
        if (kChecked) {
            CUDA_CHECK_LAUNCH();
        } else {
            const cudaError_t err = cudaGetLastError();  // read (and cleared) but not acted on
            if (err != cudaSuccess && launch_error_ == cudaSuccess) launch_error_ = err;
        }
    }

  protected:
    void setup() override {
        grid_ = dim3(static_cast<unsigned>(p_.n), 1, 1);  // one block per column
        block_ = dim3(kThreads, 1, 1);
    }
    cudaError_t launch_error() const override { return launch_error_; }

  private:
    cudaError_t launch_error_ = cudaSuccess;
};

// tall_det's partial rows (one per block), rounded up to 256 bytes (the counter follows).
std::size_t partials_bytes(int blocks, int n) {
    return (static_cast<std::size_t>(blocks) * n * sizeof(double) + 255) / 256 * 256;
}

// version=tall (TallSum::kAtomic) and version=tall_det (kPartials): the plan's block and grid.
template <TallSum kSum>
class TallRunner : public Runner {
  public:
    using Runner::Runner;
    ~TallRunner() override {
        if (partials_ != nullptr) cudaFree(partials_);
    }
    void launch(cudaStream_t stream) override {
        const unsigned long long total = static_cast<unsigned long long>(p_.m) * static_cast<unsigned long long>(p_.n);
        if (kSum == TallSum::kAtomic) zero_result(stream);
        launch_flat_vectorized(kSum, grid_, block_, mat_, vec_, total, p_.n, partials_, blocks_done_, stream);
        CUDA_CHECK_LAUNCH();
    }

  protected:
    void setup() override {
        // The kernels' preconditions (colreduce_kernels.cu, column_sum_flat_vectorized).
        if (reinterpret_cast<std::uintptr_t>(mat_) % 16 != 0)
            launch_precondition_failed("tall: the matrix is not 16-byte aligned (its double2 loads need it)");
        if (p_.tall_threads > TallPolicy::kMaxThreads)
            launch_precondition_failed("tall: " + std::to_string(p_.tall_threads) + " threads per block for n=" +
                                       std::to_string(p_.n) + ", more than the kernel's " +
                                       std::to_string(TallPolicy::kMaxThreads));
        block_ = dim3(static_cast<unsigned>(p_.tall_threads), 1, 1);
        grid_ = dim3(static_cast<unsigned>(kSum == TallSum::kPartials ? p_.tall_det_blocks : p_.tall_blocks), 1, 1);
        if (kSum == TallSum::kPartials) {
            // The partial rows, then the blocks-done counter (256-byte aligned after them),
            // zeroed once here: each launch's last block leaves it at 0 again.
            const std::size_t rows_bytes = partials_bytes(static_cast<int>(grid_.x), p_.n);
            CUDA_CHECK(cudaMalloc(&partials_, rows_bytes + sizeof(unsigned)));
            blocks_done_ = reinterpret_cast<unsigned*>(reinterpret_cast<unsigned char*>(partials_) + rows_bytes);
            CUDA_CHECK(cudaMemset(blocks_done_, 0, sizeof(unsigned)));
        }
    }
    void teardown() override {
        if (partials_ != nullptr) CUDA_CHECK(cudaFree(partials_));
        partials_ = nullptr;
        blocks_done_ = nullptr;
    }

  private:
    double* partials_ = nullptr;
    unsigned* blocks_done_ = nullptr;
};

// ---------------------------------------------------------------------------------------
// The registry.

void add_tag(Version& v, const char* tag) { v.tags += (v.tags.empty() ? "" : ",") + std::string(tag); }

// The registry with the tags that come from the entries' fields (slow, bitwise_repeatable).
std::vector<Version> with_field_tags(std::vector<Version> r) {
    for (Version& v : r) {
        if (v.slow) add_tag(v, "slow");
        if (v.bitwise_repeatable) add_tag(v, "bitwise_repeatable");
    }
    return r;
}

}  // namespace

// The tags (--list-versions; the Makefile's $(call version_list,TAG), the tests' predicates):
//   context             the version whose fresh processes time the CUDA context (context.csv):
//                       the report's own program
//   over_limit          block_per_column and its demonstration over the block limit
//                       (block_per_column.csv, the README's block-per-column table)
//   threads_blocks      the versions whose launch --threads and --blocks set
//   keeps_state         device state kept from one launch to the next (tall_det's self-resetting
//                       blocks-done counter): --vary-input launches it on new inputs in a row
//   needs_cublas        calls cuBLAS (a stand-in without it in the CUDA 11.8 legacy pack)
//   slow, bitwise_repeatable   from the entry's fields (--slow-repeat; first and last timed runs
//                       compared bit for bit)
const std::vector<Version>& registry() {
    static const std::vector<Version> versions = with_field_tags({
        Version("original", "column_sum_thread_per_column", "report: one thread per column, ceil(n/128) x 128")
            .starts_slowly(make_runner<ReportRunner<kOriginal>>)
            .repeatable()
            .tagged("context")
            .profiled("column_sum"),
        Version("high1", "column_sum_row_slices_atomic",
                "report: 16 row slices per column, ceil(n/64) x (64x16), atomics")
            .starts_slowly(make_runner<ReportRunner<kHigh1>>)
            .profiled("column_sum"),
        Version("high2", "column_sum_column_groups_atomic",
                "report: columns over 8 blocks of 8x128, rows over threads, atomics")
            .starts_slowly(make_runner<ReportRunner<kHigh2>>)
            .profiled("column_sum"),
        Version("high2_const", "column_sum_column_groups_atomic_const<8,128>",
                "the report's remark: high2 with its loop constants computed once, held in registers")
            .starts_slowly(make_runner<High2ConstRunner>)
            .profiled("column_sum"),
        Version("block_per_column", "column_sum_block_per_column_atomic",
                "report's unlisted idea: one block per column (grid n), 1024 threads, atomics")
            .starts(make_runner<BlockPerColumnRunner<kBlockPerColumnThreads, true>>)
            .tagged("over_limit")
            .profiled("column_sum"),
        Version("tall", "column_sum_flat_vectorized<atomic>",
                "ours: flat double2 loads, register sums, shared fold, n atomics per block")
            .starts(make_runner<TallRunner<TallSum::kAtomic>>)
            .tagged("threads_blocks")
            .profiled("column_sum"),
        // One kernel (its last block also reads the per-block partial rows).
        Version("tall_det", "column_sum_flat_vectorized<partials>",
                "ours: tall without double atomics, per-block partial rows summed by the last block; "
                "bitwise repeatable")
            .starts(make_runner<TallRunner<TallSum::kPartials>>)
            .repeatable()
            .allocates([](const Plan& p) {
                return static_cast<double>(partials_bytes(p.tall_det_blocks, p.n) + sizeof(unsigned));
            })
            .tagged("threads_blocks,keeps_state")
            .profiled("column_sum_flat"),
        Version("cublas", "cublasDgemv(CUBLAS_OP_N; n x m; lda=n)", "cuBLAS dgemv on the transposed view")
            .baseline()
            .starts(make_cublas_runner)
            .allocates([](const Plan& p) { return static_cast<double>(p.m) * sizeof(double); })
            .refuses([](const Plan& p) { return p.cublas_unavailable; })
            .tagged("needs_cublas"),
        // The demonstration: block_per_column's kernel launched with kOverLimitThreads threads
        // per block, more than CUDA allows, and the launch left unchecked as in the report's
        // code. What the report's conclusion describes ("the number of threads applied for each
        // block is huge, so the Kernel function can't enter the GPU"): the launch fails, nothing
        // runs, the result stays zero.
        Version("block_per_column_over_limit", "column_sum_block_per_column_atomic",
                "block_per_column with 2048 threads per block (over the limit), launch unchecked as in "
                "the report: the kernel never runs")
            .demonstration()
            .opt_in()
            .starts(make_runner<BlockPerColumnRunner<kOverLimitThreads, false>>)
            .tagged("over_limit")
            .profiled("column_sum"),
    });
    return versions;
}

std::string slow_labels() {
    std::string labels;
    for (const Version& v : registry())
        if (v.slow) labels += (labels.empty() ? "" : ", ") + v.label;
    return labels;
}

}  // namespace colreduce
