// Tier 1 unit tests of colreduce's host side: the CPU reference (cpu_mat_column_reduce and
// cpu_column_reference), the error bound and its check, the test data, --sizes parsing.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "colreduce_cpu.h"
#include "common.h"
#include "tests/seeded_data.h"

namespace {

using colreduce::check_columns;
using colreduce::column_error_bound;
using colreduce::cpu_column_reference;
using colreduce::cpu_mat_column_reduce;

// 3 x 2, not symmetric: column sums 9 and 12; row sums (a row/column mix-up) would be 3, 7, 11.
TEST(CpuReference, NonSymmetricMatrixGivesColumnSums) {
    const std::vector<double> mat = {1, 2, 3, 4, 5, 6};
    std::vector<double> vec(2, -1.0);
    cpu_mat_column_reduce(mat.data(), vec.data(), 3, 2);
    EXPECT_EQ(vec[0], 9.0);
    EXPECT_EQ(vec[1], 12.0);
}

// 2 x 4 with distinct values: a transposed traversal (i*m + j) would read other elements.
TEST(CpuReference, WideMatrixColumnsNotRows) {
    const std::vector<double> mat = {1, 10, 100, 1000, 2, 20, 200, 2000};
    std::vector<double> vec(4, 0.0);
    cpu_mat_column_reduce(mat.data(), vec.data(), 2, 4);
    EXPECT_EQ(vec, (std::vector<double>{3, 30, 300, 3000}));
}

TEST(CpuReference, OneByOne) {
    const double mat = -2.5;
    double vec = 0;
    cpu_mat_column_reduce(&mat, &vec, 1, 1);
    EXPECT_EQ(vec, -2.5);
}

TEST(CpuReference, OneRowIsTheRowItself) {
    const std::vector<double> mat = {1.5, -2, 0, 7};
    std::vector<double> vec(4, 99.0);
    cpu_mat_column_reduce(mat.data(), vec.data(), 1, 4);
    EXPECT_EQ(vec, mat);
}

TEST(CpuReference, OneColumnIsTheTotal) {
    std::vector<double> mat(1001);
    for (int i = 0; i < 1001; ++i) mat[i] = i;
    double vec = 0;
    cpu_mat_column_reduce(mat.data(), &vec, 1001, 1);
    EXPECT_EQ(vec, 500500.0);
}

TEST(CpuReference, ReferenceAlsoGivesAbsoluteSums) {
    const std::vector<double> mat = {1, -2, -3, 4, 5, -6};
    const colreduce::ColumnReference ref = cpu_column_reference(mat.data(), 3, 2);
    EXPECT_EQ(ref.sum, (std::vector<double>{3, -4}));
    EXPECT_EQ(ref.abs_sum, (std::vector<double>{9, 12}));
}

// 2^60 + 1 - 2^60: a plain double accumulator loses the 1, the compensated one keeps it.
TEST(CpuReference, AccumulatesBeyondDoublePrecision) {
    const double big = std::ldexp(1.0, 60);
    const std::vector<double> mat = {big, 1.0, -big};
    double vec = 0;
    cpu_mat_column_reduce(mat.data(), &vec, 3, 1);
    EXPECT_EQ(vec, 1.0);
    const colreduce::ColumnReference ref = cpu_column_reference(mat.data(), 3, 1);
    EXPECT_EQ(ref.sum[0], 1.0);
}

// Many small values after a large one: 1 + 10^6 * 2^-53 is a double (it needs 48 bits), but
// a plain loop adding 2^-53 to 1 a million times stays at 1 (each addition rounds back).
TEST(CpuReference, KeepsManySmallTerms) {
    std::vector<double> mat(1000001, std::ldexp(1.0, -53));
    mat[0] = 1.0;
    double vec = 0;
    cpu_mat_column_reduce(mat.data(), &vec, static_cast<long long>(mat.size()), 1);
    EXPECT_EQ(vec, 1.0 + 1000000.0 * std::ldexp(1.0, -53));
    double plain = 0;
    for (double v : mat) plain += v;
    EXPECT_EQ(plain, 1.0);
}

TEST(ErrorBound, ScalesWithRowsAndAbsoluteSum) {
    EXPECT_EQ(column_error_bound(1, 1.0), DBL_EPSILON);
    EXPECT_DOUBLE_EQ(column_error_bound(1000, 8.0), 1000 * 8.0 * DBL_EPSILON);
    EXPECT_EQ(column_error_bound(1000, 0.0), 0.0);
}

TEST(ErrorBound, CheckAcceptsRoundingAndRejectsAMissingRow) {
    const long long m = 1000;
    std::vector<double> mat(static_cast<std::size_t>(m) * 3);
    cw::fill_uniform(mat.data(), mat.size(), -1.0, 1.0, 7);
    const colreduce::ColumnReference ref = cpu_column_reference(mat.data(), m, 3);

    // A plain double loop in another order (bottom to top) is within the bound.
    std::vector<double> reversed(3, 0.0);
    for (long long i = m - 1; i >= 0; --i)
        for (int j = 0; j < 3; ++j) reversed[j] += mat[i * 3 + j];
    EXPECT_TRUE(check_columns(reversed.data(), ref, m).ok);

    // The last row left out (high1's bug) is far outside it.
    std::vector<double> dropped = ref.sum;
    for (int j = 0; j < 3; ++j) dropped[j] -= mat[(m - 1) * 3 + j];
    const colreduce::ColumnCheck c = check_columns(dropped.data(), ref, m);
    EXPECT_FALSE(c.ok);
    EXPECT_EQ(c.wrong, 3);
    EXPECT_EQ(c.first_wrong, 0);
    EXPECT_GT(c.max_error_ratio, 1.0);
}

TEST(ErrorBound, ColumnSwapAndNanFail) {
    const std::vector<double> mat = {1, 2, 3, 4};
    const colreduce::ColumnReference ref = cpu_column_reference(mat.data(), 2, 2);  // 4, 6
    const std::vector<double> swapped = {6, 4};
    EXPECT_FALSE(check_columns(swapped.data(), ref, 2).ok);
    const std::vector<double> nan = {4, NAN};
    const colreduce::ColumnCheck c = check_columns(nan.data(), ref, 2);
    EXPECT_FALSE(c.ok);
    EXPECT_EQ(c.first_wrong, 1);
}

TEST(ErrorBound, AllZeroColumnNeedsAnExactZero) {
    const std::vector<double> mat = {0, 1, 0, 1};
    const colreduce::ColumnReference ref = cpu_column_reference(mat.data(), 2, 2);
    const std::vector<double> exact = {0, 2};
    EXPECT_TRUE(check_columns(exact.data(), ref, 2).ok);
    const std::vector<double> off = {1e-300, 2};
    EXPECT_FALSE(check_columns(off.data(), ref, 2).ok);
}

TEST(Data, ReportDataIsTheReportsRandSequence) {
    std::vector<double> mat(20);
    colreduce::fill_matrix(mat.data(), mat.size(), "report", 0);
    std::srand(0);
    for (double v : mat) EXPECT_EQ(v, static_cast<double>(std::rand() % 10) / 100000.0);
}

TEST(Data, RandomIsSignedSeededAndInRange) {
    const std::vector<double> a = cw_test::expect_seeded<double>(
        [](double* p, std::size_t n, std::uint64_t seed) { colreduce::fill_matrix(p, n, "random", seed); }, 10000, 1);
    int negative = 0;
    for (double v : a) {
        EXPECT_GT(v, -1.0);
        EXPECT_LT(v, 1.0);
        negative += v < 0;
    }
    EXPECT_GT(negative, 4000);
    EXPECT_LT(negative, 6000);
}

// Filled in chunks by several threads: a prefix is the same whatever the total size, and
// chunks are not copies of each other.
TEST(Data, ChunkedFillIsIndependentOfSize) {
    const std::size_t chunk = std::size_t(1) << 20;
    std::vector<double> big(3 * chunk + 5), small(100);
    colreduce::fill_matrix(big.data(), big.size(), "random", 9);
    colreduce::fill_matrix(small.data(), small.size(), "random", 9);
    EXPECT_TRUE(std::equal(small.begin(), small.end(), big.begin()));
    EXPECT_NE(big[0], big[chunk]);
    EXPECT_NE(big[chunk], big[2 * chunk]);
    std::vector<double> again(big.size());
    colreduce::fill_matrix(again.data(), again.size(), "random", 9);
    EXPECT_EQ(big, again);
}

TEST(Data, NegativeAndWide) {
    std::vector<double> a(5000);
    colreduce::fill_matrix(a.data(), a.size(), "negative", 3);
    for (double v : a) EXPECT_TRUE(v < 0.0 && v > -1.0);
    colreduce::fill_matrix(a.data(), a.size(), "wide", 3);
    double lo = 1e300, hi = 0;
    for (double v : a) {
        lo = std::min(lo, std::fabs(v));
        hi = std::max(hi, std::fabs(v));
    }
    EXPECT_LT(lo, 1e-9);
    EXPECT_GT(hi, 1e9);
}

TEST(Sizes, ParsesAList) {
    const auto s = colreduce::parse_sizes("160000x8,1X1,2147483647x1024,1e6x2^5,16e5x64", 2147483647LL, 1024);
    ASSERT_EQ(s.size(), 5u);
    EXPECT_EQ(s[0], (std::pair<long long, int>(160000, 8)));
    EXPECT_EQ(s[1], (std::pair<long long, int>(1, 1)));
    EXPECT_EQ(s[2], (std::pair<long long, int>(2147483647LL, 1024)));
    EXPECT_EQ(s[3], (std::pair<long long, int>(1000000, 32)));
    EXPECT_EQ(s[4], (std::pair<long long, int>(1600000, 64)));
}

TEST(Sizes, RejectsBadItems) {
    for (const char* bad : {"", ",", "100", "x8", "100x", "0x8", "8x0", "-1x8", "10x1025", "axb", "10x8,7", "1e3x8.5",
                            "10x8,", "10x8,,5x5", " 10x8", "2147483648x1", "2^31x1", "10x 8"}) {
        EXPECT_THROW(colreduce::parse_sizes(bad, 2147483647LL, 1024), cw::UsageError) << bad;
    }
}

TEST(Input, FirstNonFinite) {
    const std::vector<double> ok = {1, 2, 3};
    EXPECT_EQ(colreduce::first_non_finite(ok.data(), ok.size()), -1);
    const std::vector<double> bad = {1, INFINITY, NAN};
    EXPECT_EQ(colreduce::first_non_finite(bad.data(), bad.size()), 1);
}

}  // namespace
