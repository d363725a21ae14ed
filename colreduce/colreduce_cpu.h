// Host side of colreduce (no CUDA headers): the CPU reference of report 003
// (cpu_mat_column_reduce), the error bound every GPU result is checked against, the test data
// and the --sizes list. Compiled by the host compiler; unit-tested in tests/colreduce_cpu_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cw {
class InputFile;
}

namespace colreduce {

// The report's CPU reference, same name and job: vec[j] = sum_i mat[i*n + j] for an m x n
// row-major matrix. Two changes, both documented in the README: the sums are compensated
// (TwoSum: the rounding error of every addition is kept and added back at the end, so the
// result is as accurate as a sum in about twice double precision, then rounded once), and the
// loops run row by row (each column is still summed in row order, but the matrix is streamed
// once instead of n times with stride n).
void cpu_mat_column_reduce(const double* mat, double* vec, long long m, int n);

// The reference a GPU result is judged by: the column sums (compensated, as above) and the
// column sums of |a_ij| (plain double), which scale the error bound.
struct ColumnReference {
    std::vector<double> sum;
    std::vector<double> abs_sum;
};
ColumnReference cpu_column_reference(const double* mat, long long m, int n);

// Largest |gpu_j - ref_j| accepted for a column of m terms whose absolute values add up to
// abs_sum: m * eps * abs_sum with eps = 2^-52 = DBL_EPSILON. Any order of summation of m
// doubles (a loop, a tree, atomics in any order, an FMA with 1.0) errs by at most
// gamma_{m-1} * sum|a_ij| ~ (m-1) * 2^-53 * sum|a_ij| (Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., eq. 4.4); the factor 2 left over covers the reference's own
// error (compensated summation: about 2^-53 * |sum| + m^2 * 2^-106 * sum|a_ij|).
double column_error_bound(long long m, double abs_sum);

struct ColumnCheck {
    bool ok = true;
    int wrong = 0;              // columns outside their bound
    int first_wrong = -1;
    double max_abs_error = 0;   // largest |got - ref|
    double max_error_ratio = 0; // largest |got - ref| / bound (<= 1 passes; 0/0 counts as 0)
};
ColumnCheck check_columns(const double* got, const ColumnReference& ref, long long m);
// The report's lines for a check: "Passed, GPU all values correct!", or the first wrong column
// (reference, result, bound) and how many of the n columns are wrong.
void print_check_lines(const ColumnCheck& check, const ColumnReference& ref, const double* got, long long m);

// Test data, row-major, m*n values:
//   random    uniform in (-1, 1)                         (default; signed, cancels)
//   report    rand() % 10 / 100000.0 after srand(seed)   (report 003's rand_mat, seed 0 there)
//   negative  uniform in (-1, 0)
//   wide      uniform signed significands times 2^k, k uniform in [-40, 40] (sums that lose
//             digits: the bound's sum|a_ij| is dominated by a few large terms)
// random, negative and wide are made by several threads in fixed chunks of 2^20 values, each
// chunk from its own seed derived from `seed`: the same seed gives the same matrix whatever
// the number of threads.
extern const std::vector<std::string> kDataKinds;
void fill_matrix(double* mat, std::size_t count, const std::string& kind, std::uint64_t seed);

// --sizes=MxN,MxN,...: cw::parse_shape_list, the shared size grammar on each side of the x
// (160000, 1e6, 2^20, a range 1..3), M in [1, max_m], N in [1, max_n]; throws
// cw::UsageError naming the item.
std::vector<std::pair<long long, int>> parse_sizes(const std::string& text, long long max_m, int max_n);

// First index of a value that is not finite, or -1.
long long first_non_finite(const double* data, std::size_t count);

// --input=FILE with --n=N: the open file checked before any CUDA call (whole rows of n doubles,
// at most max_m of them, that fit in host memory); its m is elements / n. Every value must be
// finite: checked as read_matrix_file reads it (a run that happens reads the file once).
void check_matrix_file(cw::InputFile& file, int n, long long max_m);
// The matrix from that file (count doubles); a value that is not finite is refused (exit 2).
void read_matrix_file(cw::InputFile& file, double* mat, std::size_t count);

}  // namespace colreduce
