/* A stand-in libcublas.so.11 for the legacy phase (colreduce/tests/legacy_pack.sh builds it with
 * gcc when common/scripts/legacy_build.sh packs the tree; common/scripts/gpu_session.sh legacy
 * puts it on LD_LIBRARY_PATH). The GPU machine has CUDA 13 only, and the real cuBLAS 11 is too
 * large to carry: with this library colreduce's CUDA 11.8 build loads and runs every version but `cublas`, whose cublasCreate fails with
 * CUBLAS_STATUS_NOT_INITIALIZED, so that the program stops with its one-line cuBLAS error
 * (exit 3). It exports the cuBLAS symbols colreduce's binary needs (legacy_pack.sh checks
 * the list against `nm -D`), under the version node libcublas.so.11 as the real library does.
 * Never linked into anything: the binaries are linked against the real cuBLAS 11. */
#include <stddef.h>

typedef int cublasStatus_t; /* CUBLAS_STATUS_SUCCESS 0, CUBLAS_STATUS_NOT_INITIALIZED 1 */
#define STUB_NOT_INITIALIZED 1

const char* cublasGetStatusString(cublasStatus_t status) {
    return status == 0 ? "CUBLAS_STATUS_SUCCESS"
                       : "CUBLAS_STATUS_NOT_INITIALIZED (stand-in libcublas.so.11 of the legacy phase: no cuBLAS 11 here)";
}
const char* cublasGetStatusName(cublasStatus_t status) {
    return status == 0 ? "CUBLAS_STATUS_SUCCESS" : "CUBLAS_STATUS_NOT_INITIALIZED";
}
cublasStatus_t cublasCreate_v2(void** handle) {
    if (handle != NULL) *handle = NULL;
    return STUB_NOT_INITIALIZED;
}
cublasStatus_t cublasDestroy_v2(void* handle) {
    (void)handle;
    return STUB_NOT_INITIALIZED;
}
cublasStatus_t cublasSetStream_v2(void* handle, void* stream) {
    (void)handle, (void)stream;
    return STUB_NOT_INITIALIZED;
}
cublasStatus_t cublasDgemv_v2(void* handle, int trans, int m, int n, const double* alpha, const double* a, int lda,
                              const double* x, int incx, const double* beta, double* y, int incy) {
    (void)handle, (void)trans, (void)m, (void)n, (void)alpha, (void)a, (void)lda;
    (void)x, (void)incx, (void)beta, (void)y, (void)incy;
    return STUB_NOT_INITIALIZED;
}
