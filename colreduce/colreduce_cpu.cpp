// CPU reference, error bound, test data and --sizes parsing of colreduce (see colreduce_cpu.h).
#include "colreduce_cpu.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "common.h"

namespace colreduce {

namespace {

// One step of compensated summation: s + c tracks the exact running sum (Knuth's TwoSum gives
// the rounding error e of s + x exactly; the errors are added up in c). Branch-free, and exact
// in IEEE double arithmetic as long as the compiler does not reassociate (no -ffast-math).
inline void two_sum_add(double& s, double& c, double x) {
    const double t = s + x;
    const double z = t - s;
    c += (s - (t - z)) + (x - z);
    s = t;
}

}  // namespace

void cpu_mat_column_reduce(const double* mat, double* vec, long long m, int n) {
    std::vector<double> s(static_cast<std::size_t>(n), 0.0), c(static_cast<std::size_t>(n), 0.0);
    for (long long i = 0; i < m; ++i) {
        const double* row = mat + static_cast<std::size_t>(i) * static_cast<std::size_t>(n);
        for (int j = 0; j < n; ++j) two_sum_add(s[j], c[j], row[j]);
    }
    for (int j = 0; j < n; ++j) vec[j] = s[j] + c[j];
}

ColumnReference cpu_column_reference(const double* mat, long long m, int n) {
    ColumnReference ref;
    const std::size_t cols = static_cast<std::size_t>(n);
    std::vector<double> s(cols, 0.0), c(cols, 0.0), a(cols, 0.0);
    for (long long i = 0; i < m; ++i) {
        const double* row = mat + static_cast<std::size_t>(i) * cols;
        for (std::size_t j = 0; j < cols; ++j) {
            two_sum_add(s[j], c[j], row[j]);
            a[j] += std::fabs(row[j]);
        }
    }
    ref.sum.resize(cols);
    ref.abs_sum = a;
    for (std::size_t j = 0; j < cols; ++j) ref.sum[j] = s[j] + c[j];
    return ref;
}

double column_error_bound(long long m, double abs_sum) {
    return static_cast<double>(m) * DBL_EPSILON * abs_sum;
}

ColumnCheck check_columns(const double* got, const ColumnReference& ref, long long m) {
    ColumnCheck c;
    for (std::size_t j = 0; j < ref.sum.size(); ++j) {
        const double err = std::fabs(got[j] - ref.sum[j]);
        const double bound = column_error_bound(m, ref.abs_sum[j]);
        const bool ok = err <= bound;  // NaN never passes
        if (!ok) {
            if (c.wrong == 0) c.first_wrong = static_cast<int>(j);
            ++c.wrong;
            c.ok = false;
        }
        if (std::isnan(err)) {
            c.max_abs_error = NAN;
            c.max_error_ratio = NAN;
            continue;
        }
        if (err > c.max_abs_error) c.max_abs_error = err;
        const double ratio = err == 0.0 ? 0.0 : (bound > 0.0 ? err / bound : INFINITY);
        if (ratio > c.max_error_ratio) c.max_error_ratio = ratio;
    }
    return c;
}

void print_check_lines(const ColumnCheck& check, const ColumnReference& ref, const double* got, long long m) {
    if (check.ok) {
        std::printf("Passed, GPU all values correct!\n");
        return;
    }
    const std::size_t j = static_cast<std::size_t>(check.first_wrong);
    std::printf("cpu vec: %.17g, host vec: %.17g (column %d, bound %.3g)\n", ref.sum[j], got[j], check.first_wrong,
                column_error_bound(m, ref.abs_sum[j]));
    std::printf("GPU %d / %zu values incorrect\n", check.wrong, ref.sum.size());
}

const std::vector<std::string> kDataKinds = {"random", "report", "negative", "wide"};

namespace {

// The seeded kinds are made in chunks of kChunk values, chunk c from its own seed, so that
// several threads can fill a large matrix and a seed still names one data set (the chunking
// does not depend on the number of threads).
constexpr std::size_t kChunk = std::size_t(1) << 20;

std::uint64_t chunk_seed(std::uint64_t seed, std::size_t chunk) {
    cw::Rng mix(seed ^ (0xD1B54A32D192ED03ULL * (static_cast<std::uint64_t>(chunk) + 1)));
    return mix.next_u64();
}

void fill_chunk(double* mat, std::size_t count, const std::string& kind, std::uint64_t seed) {
    if (kind == "random") {
        cw::fill_uniform(mat, count, -1.0, 1.0, seed);
    } else if (kind == "negative") {
        cw::fill_uniform(mat, count, -1.0, 0.0, seed);
    } else {  // wide
        cw::Rng rng(seed);
        for (std::size_t i = 0; i < count; ++i) {
            const double significand = 2.0 * rng.next_unit() - 1.0;
            const int exponent = static_cast<int>(rng.next_int(-40, 40));
            mat[i] = std::ldexp(significand, exponent);
        }
    }
}

}  // namespace

void fill_matrix(double* mat, std::size_t count, const std::string& kind, std::uint64_t seed) {
    if (kind == "random" || kind == "negative" || kind == "wide") {
        const std::size_t chunks = (count + kChunk - 1) / kChunk;
        const unsigned hw = std::thread::hardware_concurrency();
        const std::size_t workers = std::min<std::size_t>(chunks, hw == 0 ? 1 : std::min(hw, 32u));
        auto work = [&](std::size_t first) {
            for (std::size_t c = first; c < chunks; c += workers)
                fill_chunk(mat + c * kChunk, std::min(kChunk, count - c * kChunk), kind, chunk_seed(seed, c));
        };
        std::vector<std::thread> pool;
        for (std::size_t t = 1; t < workers; ++t) pool.emplace_back(work, t);
        if (workers > 0) work(0);
        for (std::thread& t : pool) t.join();
    } else if (kind == "report") {
        // report 003's rand_mat: srand(SEED); mat[i*n + j] = (double)(rand() % 10) / 100000.0,
        // filled in row-major order, i.e. in memory order.
        std::srand(static_cast<unsigned>(seed));
        for (std::size_t i = 0; i < count; ++i) mat[i] = static_cast<double>(std::rand() % 10) / 100000.0;
    } else {
        throw cw::UsageError("option --data: unknown kind '" + kind + "'");
    }
}

std::vector<std::pair<long long, int>> parse_sizes(const std::string& text, long long max_m, int max_n) {
    std::vector<std::pair<long long, int>> sizes;
    for (const auto& shape : cw::parse_shape_list("sizes", text, 1, max_m, 1, max_n))
        sizes.emplace_back(shape.first, static_cast<int>(shape.second));
    return sizes;
}

long long first_non_finite(const double* data, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
        if (!std::isfinite(data[i])) return static_cast<long long>(i);
    return -1;
}

void check_matrix_file(cw::InputFile& file, int n, long long max_m) {
    file.require_count(static_cast<unsigned long long>(max_m) * n,
                       "m = elements / n is at most " + std::to_string(max_m) + " rows", n,
                       "rows of n=" + std::to_string(n) + " columns");
    file.require_finite<double>();  // a NaN or an infinity is bad input: refused as the run reads the file
}

void read_matrix_file(cw::InputFile& file, double* mat, std::size_t count) {
    file.read_into(mat);
    const long long bad = first_non_finite(mat, count);
    if (bad >= 0)
        throw cw::UsageError("input file '" + file.path() + "' holds a value that is not finite (element " +
                             std::to_string(bad) + ")");
}

}  // namespace colreduce
