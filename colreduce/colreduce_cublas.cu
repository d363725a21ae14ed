// version=cublas: the library baseline, cublasDgemv on the transposed view. The m x n
// row-major matrix is, to column-major cuBLAS, an n x m matrix A with leading dimension n;
// y = A * ones(m) is the vector of column sums (m <= 2^31 - 1: cuBLAS takes int sizes).
// Built in its own translation unit with the toolkit's default C++ standard (LDLIBS += -lcublas).
#include <cublas_v2.h>

#include <cstdio>

#include "colreduce_versions.cuh"

namespace colreduce {

// The cuBLAS handle of a run: made once (cuBLAS's own start-up is not the version's cost) and
// shared by every plan.
class Cublas {
  public:
    cublasHandle_t handle = nullptr;
};

namespace {

// A cuBLAS failure is reported like a CUDA error (run_main: one line, exit status 3).
void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
    if (status == CUBLAS_STATUS_SUCCESS) return;
    throw cw::DeviceError(cw::format("cuBLAS error %d (%s) at %s:%d in %s", static_cast<int>(status),
                                     cublasGetStatusString(status), file, line, call));
}
#define CUBLAS_CHECK(call) cublas_check((call), #call, __FILE__, __LINE__)

__global__ void fill_ones(double* x, long long count) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) x[i] = 1.0;
}

class CublasRunner : public Runner {
  public:
    using Runner::Runner;
    ~CublasRunner() override {
        if (ones_ != nullptr) cudaFree(ones_);
    }
    void launch(cudaStream_t stream) override {
        const double one = 1.0, zero = 0.0;
        const cublasHandle_t handle = p_.cublas->handle;
        CUBLAS_CHECK(cublasSetStream(handle, stream));
        CUBLAS_CHECK(cublasDgemv(handle, CUBLAS_OP_N, p_.n, static_cast<int>(p_.m), &one, mat_, p_.n, ones_, 1, &zero,
                                 vec_, 1));
    }

  protected:
    // The ones vector (m doubles) is allocated and filled here: counted as allocation. cuBLAS
    // chooses its own kernels and launch shapes (grid and block stay 0 x 0 x 0).
    void setup() override {
        CUDA_CHECK(cudaMalloc(&ones_, static_cast<std::size_t>(p_.m) * sizeof(double)));
        fill_ones<<<256, 256>>>(ones_, p_.m);
        CUDA_CHECK_LAUNCH();
    }
    void teardown() override {
        if (ones_ != nullptr) CUDA_CHECK(cudaFree(ones_));
        ones_ = nullptr;
    }

  private:
    double* ones_ = nullptr;
};

}  // namespace

void CublasDeleter::operator()(Cublas* cublas) const {
    if (cublas->handle != nullptr) cublasDestroy(cublas->handle);
    delete cublas;
}

std::unique_ptr<Cublas, CublasDeleter> open_cublas(std::vector<Plan>& plans, bool required) {
    std::unique_ptr<Cublas, CublasDeleter> cublas(new Cublas());
    if (required) CUBLAS_CHECK(cublasCreate(&cublas->handle));
    const cublasStatus_t status = required ? CUBLAS_STATUS_SUCCESS : cublasCreate(&cublas->handle);
    std::string why_not;
    if (status != CUBLAS_STATUS_SUCCESS) {
        cublas->handle = nullptr;
        cublas.reset();
        why_not = "cuBLAS error " + std::to_string(static_cast<int>(status)) + " (" + cublasGetStatusString(status) +
                  ") in cublasCreate";
        std::printf("version=cublas (the baseline, not in --only) cannot run: %s; no row has baseline_ms\n",
                    why_not.c_str());
    }
    for (Plan& p : plans) {
        p.cublas = cublas.get();
        p.cublas_unavailable = why_not;
    }
    return cublas;
}

std::unique_ptr<cw::Runner> make_cublas_runner(const Plan& p, const Series& series) {
    return make_runner<CublasRunner>(p, series);
}

}  // namespace colreduce
