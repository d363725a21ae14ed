// CPU side of pi (host compiler, no CUDA headers): the report's function as it was written,
// the fixed midpoint rule in float or double on one thread or on K OpenMP threads, the
// compensated double reference every version is checked against, and the error bounds that
// decide PASS or FAIL.
#pragma once

#include <string>

namespace pi {

constexpr double kPi = 3.141592653589793238462643383279502884;

// The report's CPU code, ported unchanged (int niter, float variables, the double
// intermediates of its literals, and its x = h*(i - 0.5), which is not the midpoint rule).
// Kept only to show in the README what it gave.
float pi_cpu_report(int niter);

// The midpoint rule fixed: x = (i + 0.5) h, every operation and the running sum in T, as the
// report's code would be with the formula corrected. threads == 1 is the plain serial loop;
// threads > 1 splits the range into contiguous OpenMP chunks, each summed in T, and adds the
// chunks' sums in T.
float pi_cpu_midpoint_float(long long niter, int threads);
double pi_cpu_midpoint_double(long long niter, int threads);

// The reference: h * sum 4/(1 + x_i^2), x_i = (i + offset) h, each term in double, summed
// with Neumaier's compensated summation on each thread and the threads' (sum, compensation)
// pairs combined in a fixed order, so the result does not depend on `threads`. offset = 0.5
// is the midpoint rule; offset = -0.5 is the report's formula. Its error is below
// reference_error_bound() (documented in the README).
double pi_reference(long long niter, int threads, double offset = 0.5);
double reference_error_bound();

// The most OpenMP threads a CPU version or the reference starts: the bound of --cpu-threads.
constexpr int kMaxCpuThreads = 4096;

// OpenMP threads to use by default: OMP_NUM_THREADS when set (its first count), else
// SLURM_CPUS_PER_TASK (a Slurm job's --cpus-per-task), else omp_get_max_threads() (at most
// kMaxCpuThreads); 1 without OpenMP. A variable that is set and not a count in
// [1, kMaxCpuThreads] throws cw::UsageError naming it (exit 2, before any work: the plans are
// made from it). cpu_threads_origin() names which of them it was.
int cpu_max_threads();
const char* cpu_threads_origin();

// Midpoint-rule truncation error: the sum exceeds pi by about h^2/12 (f'(1) - f'(0) = -2).
double midpoint_truncation_error(long long niter);

// Worst-case error bound of one version's estimate against the reference (first order in
// the unit roundoff u, |f| <= 4 so h * sum|f| <= 4):
//   4 * (eval_ulps + chain) * u_work + 4 * chain_double * 2^-53 + reference_error_bound()
// eval_ulps: rounding errors of one term (x, 1 + x^2, the reciprocal), in units of u_work;
// chain: the longest sequence of additions in the working precision any term goes through;
// chain_double: the same for the additions done in double (host finish, per-thread double
// accumulators). Returns +inf when (eval_ulps + chain) * u_work >= 1: no guarantee at all
// (naive float summation of 2^30 terms is in that case).
struct ErrorModel {
    double eval_ulps = 0;
    double chain = 0;
    double chain_double = 0;
};
double error_bound(bool is_float, const ErrorModel& m);

// The error model of each version (see the README, "Validation"): n = niter, chunk and
// threads as launched, blocks = the grid, total_threads = blocks * threads.
ErrorModel model_kernel1(long long niter, long long chunk, int threads, long long blocks);
ErrorModel model_kernel2(long long niter, long long chunk, int threads, long long blocks);
ErrorModel model_single(bool is_float, long long niter, int threads, long long blocks);
ErrorModel model_thrust(long long niter);
ErrorModel model_cpu(long long niter, int cpu_threads);

// Blocks of kernels 1 and 2: one thread per chunk of `chunk` consecutive terms, the last
// chunk shorter when chunk does not divide niter (it is clamped, not rejected).
long long report_kernel_blocks(long long niter, long long chunk, int threads);

// ceil(log2(v)) for v >= 1.
int ceil_log2(long long v);

}  // namespace pi
