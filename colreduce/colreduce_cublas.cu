// version=cublas: the library baseline, cublasDgemv on the transposed view. The m x n
// row-major matrix is, to column-major cuBLAS, an n x m matrix A with leading dimension n;
// y = A * ones(m) is the vector of column sums (m <= 2^31 - 1: cuBLAS takes int sizes).
// Built in its own translation unit with the toolkit's default C++ standard (LDLIBS += -lcublas).
#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>

#include "colreduce_kernels.cuh"

namespace colreduce {
namespace {

// A cuBLAS failure ends the program like a CUDA error: one line, exit status 3.
void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
    if (status == CUBLAS_STATUS_SUCCESS) return;
    std::fflush(stdout);
    std::fprintf(stderr, "%s: cuBLAS error %d (%s) at %s:%d in %s\n", cw::program_name(), static_cast<int>(status),
                 cublasGetStatusString(status), file, line, call);
    std::exit(cw::kExitCuda);
}
#define CUBLAS_CHECK(call) cublas_check((call), #call, __FILE__, __LINE__)

__global__ void fill_ones(double* x, long long count) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) x[i] = 1.0;
}

class CublasReducer : public ColumnReducer {
  public:
    // The handle is made once per program (cuBLAS's own start-up is not the version's cost).
    CublasReducer() { CUBLAS_CHECK(cublasCreate(&handle_)); }
    ~CublasReducer() override {
        if (ones_ != nullptr) cudaFree(ones_);
        cublasDestroy(handle_);
    }
    std::size_t workspace_bytes(long long m, int) const override {
        return static_cast<std::size_t>(m) * sizeof(double);
    }
    // The ones vector (m doubles) is allocated and filled here: counted as allocation.
    void setup(const double* d_mat, double* d_vec, long long m, int n) override {
        mat_ = d_mat, vec_ = d_vec, m_ = static_cast<int>(m), n_ = n;
        CUDA_CHECK(cudaMalloc(&ones_, static_cast<std::size_t>(m) * sizeof(double)));
        fill_ones<<<256, 256>>>(ones_, m);
        CUDA_CHECK_LAUNCH();
    }
    void run(cudaStream_t stream) override {
        const double one = 1.0, zero = 0.0;
        CUBLAS_CHECK(cublasSetStream(handle_, stream));
        CUBLAS_CHECK(cublasDgemv(handle_, CUBLAS_OP_N, n_, m_, &one, mat_, n_, ones_, 1, &zero, vec_, 1));
    }
    void teardown() override {
        if (ones_ != nullptr) CUDA_CHECK(cudaFree(ones_));
        ones_ = nullptr;
    }
    // cuBLAS chooses its own kernels and launch shapes.
    dim3 grid() const override { return dim3(0, 0, 0); }
    dim3 block() const override { return dim3(0, 0, 0); }

  private:
    cublasHandle_t handle_ = nullptr;
    const double* mat_ = nullptr;
    double* vec_ = nullptr;
    double* ones_ = nullptr;
    int m_ = 0, n_ = 0;
};

}  // namespace

// The registry's factory for version=cublas (colreduce_kernels.cu, versions()); cuBLAS picks its
// own launch, so the context is not used.
std::unique_ptr<ColumnReducer> make_cublas_reducer(const LaunchContext&) {
    return std::unique_ptr<ColumnReducer>(new CublasReducer());
}

}  // namespace colreduce
