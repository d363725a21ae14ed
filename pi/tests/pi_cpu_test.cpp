// Tier 1 (no GPU): the CPU midpoint sums against known values, the report's formula, the
// reference, the single-launch version's tile algebra (pi_tile.h) on the CPU with an exact
// reciprocal, the launch geometry and the error bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "pi_cpu.h"
#include "pi_tile.h"

namespace {

// Direct double sum of 1/(1 + x_i^2), x_i = (i + 1/2) h, over [begin, end).
double direct_sum(long long begin, long long end, double h) {
    double s = 0.0;
    for (long long i = begin; i < end; ++i) {
        const double x = (static_cast<double>(i) + 0.5) * h;
        s += 1.0 / (1.0 + x * x);
    }
    return s;
}

struct ExactReciprocal {
    float operator()(float v) const { return 1.0f / v; }
    double operator()(double v) const { return 1.0 / v; }
};

// The single-launch version's arithmetic on the CPU: tiles, then the niter % 64 remainder.
template <typename T>
double single_version_on_cpu(long long niter) {
    const double h = 1.0 / static_cast<double>(niter);
    const long long tiles = niter / pi::kTileTerms;
    const T H = static_cast<T>(0.25 * h * h);
    double sum = 0.0;
    for (long long t = 0; t < tiles; ++t)
        sum += 2.0 * static_cast<double>(pi::tile_half_sum<T>(pi::tile_constants<T>(t, h), H, ExactReciprocal()));
    for (long long i = tiles * pi::kTileTerms; i < niter; ++i) {
        const T x = static_cast<T>((static_cast<double>(i) + 0.5) * h);
        sum += static_cast<double>(static_cast<T>(1) / (static_cast<T>(1) + x * x));
    }
    return 4.0 * h * sum;
}

TEST(Midpoint, OneIntervalIsThreePointTwo) {
    // x = 0.5: 4 / 1.25 = 3.2
    EXPECT_DOUBLE_EQ(pi::pi_cpu_midpoint_double(1, 1), 3.2);
    EXPECT_FLOAT_EQ(pi::pi_cpu_midpoint_float(1, 1), 3.2f);
    EXPECT_DOUBLE_EQ(pi::pi_reference(1, 1), 3.2);
}

TEST(Midpoint, FourIntervalsByHand) {
    // x = 1/8, 3/8, 5/8, 7/8: 4/(1 + x^2) = 256/65, 256/73, 256/89, 256/113; times h = 1/4:
    // 64 (1/65 + 1/73 + 1/89 + 1/113) = 3.14680051839...
    const double by_hand = 64.0 * (1.0 / 65 + 1.0 / 73 + 1.0 / 89 + 1.0 / 113);
    EXPECT_NEAR(by_hand, 3.1468005183939427, 1e-15);
    EXPECT_NEAR(pi::pi_cpu_midpoint_double(4, 1), by_hand, 1e-15);
    EXPECT_NEAR(pi::pi_cpu_midpoint_float(4, 1), by_hand, 1e-6);
    EXPECT_NEAR(pi::pi_reference(4, 1), by_hand, 1e-15);
}

TEST(Midpoint, ConvergesAsHSquaredOverTwelve) {
    for (long long n : {100LL, 1000LL, 10000LL}) {
        const double err = pi::pi_reference(n, 2) - pi::kPi;
        EXPECT_NEAR(err / pi::midpoint_truncation_error(n), 1.0, 1e-3) << "n=" << n;
    }
}

TEST(Midpoint, MultiThreadedAgreesWithSerial) {
    for (long long n : {1LL, 7LL, 1000LL, 100003LL}) {
        EXPECT_NEAR(pi::pi_cpu_midpoint_double(n, 4), pi::pi_cpu_midpoint_double(n, 1), 1e-13) << "n=" << n;
        EXPECT_NEAR(pi::pi_cpu_midpoint_float(n, 4), pi::pi_cpu_midpoint_float(n, 1), 1e-4) << "n=" << n;
    }
}

TEST(Reference, SameForAnyThreadCountAndAgreesWithDirectSum) {
    for (long long n : {1LL, 2LL, 255LL, 256LL, 257LL, 1000003LL}) {
        const double one = pi::pi_reference(n, 1);
        EXPECT_EQ(one, pi::pi_reference(n, 3)) << "n=" << n;
        const double h = 1.0 / static_cast<double>(n);
        EXPECT_NEAR(one, 4.0 * h * direct_sum(0, n, h), 1e-13) << "n=" << n;
    }
    EXPECT_GT(pi::reference_error_bound(), 0.0);
    EXPECT_LT(pi::reference_error_bound(), 1e-14);
}

TEST(ReportFormula, SamplesLeftOfTheMidpoints) {
    // n = 2: the report evaluates at x = -1/4 and 1/4 (both 4/(1 + 1/16) = 64/17), not 1/4, 3/4.
    EXPECT_NEAR(pi::pi_cpu_report(2), 64.0 / 17.0, 1e-6);
    EXPECT_NEAR(pi::pi_reference(2, 1, -0.5), 64.0 / 17.0, 1e-15);
    EXPECT_NEAR(pi::pi_reference(2, 1), 0.5 * (64.0 / 17.0 + 64.0 / 25.0), 1e-15);
    // Its error decays as 1/n, not 1/n^2: the sum is the midpoint rule on [-h, 1 - h], about
    // pi + h (f(0) - f(1)) = pi + 2h.
    for (int n : {1000, 10000}) {
        const double h = 1.0 / n;
        EXPECT_NEAR(pi::pi_reference(n, 2, -0.5) - pi::kPi, 2.0 * h, 0.01 * h) << "n=" << n;
        EXPECT_NEAR(pi::pi_cpu_report(n), pi::pi_reference(n, 2, -0.5), 1e-5) << "n=" << n;
    }
}

TEST(Tile, HalfSumMatchesTheDirectSumInDouble) {
    for (long long n : {64LL, 128LL, 6400LL, 1LL << 20, 1LL << 30, 1LL << 34}) {
        const double h = 1.0 / static_cast<double>(n);
        const long long tiles = n / pi::kTileTerms;
        for (long long t : {0LL, tiles / 3, tiles / 2, tiles - 1}) {
            const double want = direct_sum(t * pi::kTileTerms, (t + 1) * pi::kTileTerms, h);
            const double got =
                2.0 * pi::tile_half_sum<double>(pi::tile_constants<double>(t, h), 0.25 * h * h, ExactReciprocal());
            EXPECT_NEAR(got, want, 1e-13 * want) << "n=" << n << " tile=" << t;
        }
    }
}

TEST(Tile, HalfSumInFloatIsWithinAFewUlps) {
    for (long long n : {64LL, 6400LL, 1LL << 20, 1LL << 30}) {
        const double h = 1.0 / static_cast<double>(n);
        const long long tiles = n / pi::kTileTerms;
        for (long long t : {0LL, tiles / 2, tiles - 1}) {
            const double want = direct_sum(t * pi::kTileTerms, (t + 1) * pi::kTileTerms, h);
            const double got = 2.0 * static_cast<double>(pi::tile_half_sum<float>(
                                         pi::tile_constants<float>(t, h), static_cast<float>(0.25 * h * h), ExactReciprocal()));
            EXPECT_NEAR(got, want, 33.0 * std::ldexp(1.0, -24) * want) << "n=" << n << " tile=" << t;
        }
    }
}

TEST(Tile, WholeSingleVersionAgreesWithTheReference) {
    // Sizes the GPU tier uses: not multiples of 64, below one tile, exactly one tile.
    for (long long n : {1LL, 63LL, 64LL, 65LL, 1025LL, 1000003LL}) {
        const double ref = pi::pi_reference(n, 2);
        EXPECT_NEAR(single_version_on_cpu<double>(n), ref, 1e-13) << "n=" << n;
        EXPECT_NEAR(single_version_on_cpu<float>(n), ref, 2e-6) << "n=" << n;
    }
}

TEST(Geometry, ReportKernelsCoverEveryTermOnce) {
    // One thread per chunk; the last chunk shorter when chunk does not divide niter.
    EXPECT_EQ(pi::report_kernel_blocks(1, 64, 256), 1);
    EXPECT_EQ(pi::report_kernel_blocks(64, 64, 32), 1);
    EXPECT_EQ(pi::report_kernel_blocks(65, 64, 32), 1);        // 2 chunks
    EXPECT_EQ(pi::report_kernel_blocks(64 * 33, 64, 32), 2);   // 33 chunks
    EXPECT_EQ(pi::report_kernel_blocks(1LL << 30, 64, 256), 65536);  // the report's largest size
    for (long long n : {1LL, 63LL, 65LL, 1025LL, 1000003LL})
        for (long long chunk : {1LL, 64LL, 1000LL})
            for (int threads : {32, 256}) {
                const long long blocks = pi::report_kernel_blocks(n, chunk, threads);
                EXPECT_GE(blocks * threads * chunk, n);
                EXPECT_LT((blocks - 1) * threads * chunk, n);
            }
}

TEST(Bounds, ChainsAndLogs) {
    EXPECT_EQ(pi::ceil_log2(1), 0);
    EXPECT_EQ(pi::ceil_log2(2), 1);
    EXPECT_EQ(pi::ceil_log2(3), 2);
    EXPECT_EQ(pi::ceil_log2(256), 8);
    EXPECT_EQ(pi::ceil_log2(257), 9);
    const pi::ErrorModel k2 = pi::model_kernel2(1LL << 30, 64, 256, 65536);
    EXPECT_DOUBLE_EQ(k2.chain, 64.0 + 8.0);
    const pi::ErrorModel k1 = pi::model_kernel1(1LL << 30, 64, 256, 65536);
    EXPECT_DOUBLE_EQ(k1.chain, 64.0 + 256.0);
    EXPECT_LT(pi::error_bound(true, k2), pi::error_bound(true, k1));
    // A niter smaller than the chunk: the chain is niter, not chunk.
    EXPECT_DOUBLE_EQ(pi::model_kernel2(10, 64, 256, 1).chain, 10.0 + 8.0);
    // float bound of the single version below the 1e-5 mark, double bound below 1e-13.
    EXPECT_LT(pi::error_bound(true, pi::model_single(true, 1LL << 30, 256, 1056)), 1e-5);
    EXPECT_LT(pi::error_bound(false, pi::model_single(false, 1LL << 30, 256, 1056)), 1e-13);
    // Naive float summation of 2^30 terms on one thread guarantees nothing.
    EXPECT_TRUE(std::isinf(pi::error_bound(true, pi::model_cpu(1LL << 30, 1))));
    EXPECT_FALSE(std::isinf(pi::error_bound(false, pi::model_cpu(1LL << 30, 1))));
}

}  // namespace
