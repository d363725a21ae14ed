// CPU side of pi: see pi_cpu.h.
#include "pi_cpu.h"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "options.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace pi {

// The report's code, character for character apart from the name: note that 1.0, 0.5 and
// 4.0 are double literals, so x and each term are computed in double and rounded to float,
// and that x = h*(i - 0.5) samples at -h/2, h/2, ..., 1 - 3h/2 (left of every midpoint).
float pi_cpu_report(int niter) {
    float pi, x;
    const float h = 1.0 / (float)niter;
    pi = 0.0;
    for (int i = 0; i < niter; i++) {
        x = h * ((float)i - 0.5);
        pi += 4.0 / (1.0 + x * x);
    }
    return h * pi;
}

namespace {

template <typename T>
T midpoint_sum(long long niter, int threads) {
    const T h = static_cast<T>(1) / static_cast<T>(niter);
    T sum = 0;
    if (threads <= 1) {
        for (long long i = 0; i < niter; ++i) {
            const T x = h * (static_cast<T>(i) + static_cast<T>(0.5));
            sum += static_cast<T>(4) / (static_cast<T>(1) + x * x);
        }
        return h * sum;
    }
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : sum)
    for (long long i = 0; i < niter; ++i) {
        const T x = h * (static_cast<T>(i) + static_cast<T>(0.5));
        sum += static_cast<T>(4) / (static_cast<T>(1) + x * x);
    }
    return h * sum;
}

// Neumaier's variant of Kahan summation: also exact when the new term is larger than the sum.
struct Compensated {
    double sum = 0.0, comp = 0.0;
    void add(double v) {
        const double t = sum + v;
        if (std::fabs(sum) >= std::fabs(v))
            comp += (sum - t) + v;
        else
            comp += (v - t) + sum;
        sum = t;
    }
    double value() const { return sum + comp; }
};

}  // namespace

float pi_cpu_midpoint_float(long long niter, int threads) { return midpoint_sum<float>(niter, threads); }
double pi_cpu_midpoint_double(long long niter, int threads) { return midpoint_sum<double>(niter, threads); }

double pi_reference(long long niter, int threads, double offset) {
    const double h = 1.0 / static_cast<double>(niter);
    // A fixed number of contiguous parts, whatever the thread count, so that the result is
    // the same on every machine.
    const int parts = 256;
    std::vector<Compensated> partial(parts);
    const int nthreads = std::max(1, threads);
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 1)
    for (int p = 0; p < parts; ++p) {
        const long long begin = niter / parts * p + std::min<long long>(p, niter % parts);
        const long long end = begin + niter / parts + (p < niter % parts ? 1 : 0);
        Compensated c;
        for (long long i = begin; i < end; ++i) {
            const double x = (static_cast<double>(i) + offset) * h;
            c.add(1.0 / (1.0 + x * x));
        }
        partial[p] = c;
    }
    Compensated total;
    for (const Compensated& c : partial) {
        total.add(c.sum);
        total.add(c.comp);
    }
    return 4.0 * h * total.value();
}

// Per term: h = 1/n (1 rounding), x = (i + offset) h (1; i + 0.5 is exact below 2^52), x*x and
// 1 + x*x (2), 1/y (1): at most 5 u relative on a term (|x f'(x)/f(x)| <= 1); compensated
// summation adds 2u + O(n u^2) relative; the final 4h*: 1. Rounded up to 10 u of h*sum <= 4.
double reference_error_bound() { return 4.0 * 10.0 * std::ldexp(1.0, -53); }

// The CPU versions' default thread count: OMP_NUM_THREADS when set (the user's choice), else
// under Slurm the cores the job was given (SLURM_CPUS_PER_TASK, from --cpus-per-task: without
// CPU binding, omp_get_max_threads() would count every core of the node, other jobs' too),
// else every core OpenMP sees. A count from the environment is bounded like --cpu-threads:
// libgomp starts whatever OMP_NUM_THREADS asks (100000 threads crash it; 40000 end in its
// "Thread creation failed"), so a value past the bound is the user's error, said before any work.
static const char* environment_value(const char* name) {
    const char* s = std::getenv(name);
    return (s == nullptr || *s == '\0') ? nullptr : s;
}

// A count of the environment, in [1, kMaxCpuThreads], blanks around it allowed (as libgomp allows
// them); 0 for anything else.
static int thread_count(std::string text) {
    const std::size_t first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
    text = first == std::string::npos ? "" : text.substr(first, last - first + 1);
    unsigned long long v = 0;
    if (!cw::detail::parse_digits(text, &v) || v < 1 || v > static_cast<unsigned long long>(kMaxCpuThreads)) return 0;
    return static_cast<int>(v);
}

// The thread count `name` gives; 0 when it is unset or empty. OMP_NUM_THREADS may be a list (one
// count per nesting level, "8,2"): every item must be a count, the first is the CPU versions'
// level; SLURM_CPUS_PER_TASK is one count.
static int environment_threads(const char* name, bool list) {
    const char* s = environment_value(name);
    if (s == nullptr) return 0;
    const std::string text(s);
    int first = 0;
    for (std::size_t from = 0, comma = 0; comma != std::string::npos; from = comma + 1) {
        comma = list ? text.find(',', from) : std::string::npos;
        const int v = thread_count(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
        if (v == 0)
            throw cw::UsageError(std::string("environment variable ") + name + "=" + s + ": the CPU versions' thread count " +
                                 (list ? "(each of its comma-separated counts) " : "") + "must be in " +
                                 cw::range_text(1, kMaxCpuThreads) + ", as --cpu-threads (unset it or give --cpu-threads=N)");
        if (first == 0) first = v;
    }
    return first;
}

int cpu_max_threads() {
#ifdef _OPENMP
    if (environment_value("OMP_NUM_THREADS") != nullptr) return environment_threads("OMP_NUM_THREADS", true);
    if (environment_value("SLURM_CPUS_PER_TASK") != nullptr) return environment_threads("SLURM_CPUS_PER_TASK", false);
    return std::min(omp_get_max_threads(), kMaxCpuThreads);
#else
    return 1;
#endif
}

const char* cpu_threads_origin() {
#ifdef _OPENMP
    if (environment_value("OMP_NUM_THREADS") != nullptr) return "OMP_NUM_THREADS";
    if (environment_value("SLURM_CPUS_PER_TASK") != nullptr) return "SLURM_CPUS_PER_TASK: the cores Slurm gave this job";
    return "every core OpenMP sees";
#else
    return "built without OpenMP";
#endif
}

double midpoint_truncation_error(long long niter) {
    const double h = 1.0 / static_cast<double>(niter);
    return h * h / 12.0;
}

double error_bound(bool is_float, const ErrorModel& m) {
    const double u = is_float ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53);
    const double ud = std::ldexp(1.0, -53);
    const double work = (m.eval_ulps + m.chain) * u;
    const double dbl = m.chain_double * ud;
    if (work >= 1.0 || dbl >= 1.0) return std::numeric_limits<double>::infinity();
    return 4.0 * work + 4.0 * dbl + reference_error_bound();
}

long long report_kernel_blocks(long long niter, long long chunk, int threads) {
    const long long work_items = (niter + chunk - 1) / chunk;
    return (work_items + threads - 1) / threads;
}

int ceil_log2(long long v) {
    int k = 0;
    while ((1LL << k) < v) ++k;
    return k;
}

namespace {
// One term of kernels 1 and 2, Thrust and the CPU loops: (T)i (1 rounding), + 0.5 (1), * h
// (1, and h = (T)(1/n) itself 1), so x is within 4u; 1 + x*x (2) and 4/y (1): 7 u, rounded up.
constexpr double kDirectTermUlps = 8.0;
}  // namespace

ErrorModel model_kernel1(long long niter, long long chunk, int threads, long long blocks) {
    ErrorModel m;
    m.eval_ulps = kDirectTermUlps;
    m.chain = static_cast<double>(std::min(chunk, niter)) + threads;  // the chunk loop, then thread 0's serial loop
    m.chain_double = static_cast<double>(blocks) + 1;                  // the host's loop over blocks, * h
    return m;
}

ErrorModel model_kernel2(long long niter, long long chunk, int threads, long long blocks) {
    ErrorModel m;
    m.eval_ulps = kDirectTermUlps;
    m.chain = static_cast<double>(std::min(chunk, niter)) + ceil_log2(threads);  // the chunk loop, then the tree
    m.chain_double = static_cast<double>(blocks) + 1;
    return m;
}

// The single-launch version (pi_tile.h): a term goes through the tile centre c (rounded once),
// K = 1 + c^2, w, p = w^2 - q (conditioned by at most 8 since ab >= 1 and w^2 <= 4), the quad's
// numerator and denominator, and the approximate reciprocal (1 ulp in float; after the cubic
// Newton step about 1 ulp in double): 24 u, generously. Then 8 quads into one of two
// accumulators and their sum (9 additions in T), then double: the tiles of a thread, the
// remainder term, the block reduction, the last block's loop and reduction, and 4h*.
ErrorModel model_single(bool is_float, long long niter, int threads, long long blocks) {
    ErrorModel m;
    m.eval_ulps = 24.0;
    m.chain = 9.0;
    const long long tiles = niter / 64;
    const long long total_threads = static_cast<long long>(threads) * blocks;
    const double per_thread = static_cast<double>((tiles + total_threads - 1) / total_threads) + 1;
    const double last_block = static_cast<double>((blocks + threads - 1) / threads);
    m.chain_double = per_thread + 2.0 * ceil_log2(threads) + last_block + 1;
    (void)is_float;
    return m;
}

// Thrust/CUB reduce: each thread adds its items in sequence, then a tree. Assumption, stated
// in the README: CUB's grid has at least 4096 threads for large n, so no thread adds more
// than n/4096 items (+ 64 for its tile and the trees).
ErrorModel model_thrust(long long niter) {
    ErrorModel m;
    m.eval_ulps = kDirectTermUlps;
    m.chain = static_cast<double>((niter + 4095) / 4096) + 64;
    m.chain_double = 1;  // h * sum on the host
    return m;
}

ErrorModel model_cpu(long long niter, int cpu_threads) {
    ErrorModel m;
    m.eval_ulps = kDirectTermUlps;
    const long long t = std::max(1, cpu_threads);
    m.chain = static_cast<double>((niter + t - 1) / t) + static_cast<double>(t) + 1;
    return m;
}

}  // namespace pi
