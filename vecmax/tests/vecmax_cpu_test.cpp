// Tier 1: the CPU reference on hand-made vectors, the data patterns and the host helpers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "vecmax_cpu.h"
#include "vecmax_order_key.h"

namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

float max_of(const std::vector<float>& v) { return vecmax::max_reference(v.data(), v.size()); }

TEST(MaxReference, AllNegative) {
    // A running maximum started at 0 or -1 (or the report's RAND_MIN) would be wrong here.
    EXPECT_EQ(max_of({-3.5f, -1.25f, -7.0f, -1.5f}), -1.25f);
    EXPECT_EQ(max_of({-1.75f, -1.5f, -1.125f}), -1.125f);
}

TEST(MaxReference, MaximumFirstAndLast) {
    EXPECT_EQ(max_of({9.0f, 1.0f, 2.0f, 3.0f, -4.0f}), 9.0f);
    EXPECT_EQ(max_of({1.0f, 2.0f, 3.0f, -4.0f, 9.0f}), 9.0f);
}

TEST(MaxReference, SingleElement) {
    EXPECT_EQ(max_of({-0.5f}), -0.5f);
    EXPECT_EQ(max_of({42.0f}), 42.0f);
}

TEST(MaxReference, RepeatedMaxima) {
    EXPECT_EQ(max_of({0.5f, 0.75f, 0.25f, 0.75f, 0.75f, -1.0f}), 0.75f);
    EXPECT_EQ(max_of(std::vector<float>(1000, -2.0f)), -2.0f);
}

TEST(MaxReference, Infinities) {
    EXPECT_EQ(max_of({1.0f, kInf, -kInf, 3.0f}), kInf);
    EXPECT_EQ(max_of({-kInf, -5.0f, -kInf}), -5.0f);
    EXPECT_EQ(max_of({-kInf, -kInf, -kInf}), -kInf);  // not -FLT_MAX (CUB's Max initial value)
    EXPECT_EQ(max_of({std::numeric_limits<float>::lowest(), -kInf}), std::numeric_limits<float>::lowest());
}

TEST(MaxReference, NanAnywhereGivesNan) {
    EXPECT_TRUE(std::isnan(max_of({kNaN, 1.0f, 2.0f})));
    EXPECT_TRUE(std::isnan(max_of({1.0f, kNaN, 2.0f})));
    EXPECT_TRUE(std::isnan(max_of({1.0f, 2.0f, kNaN})));
    EXPECT_TRUE(std::isnan(max_of({kInf, kNaN})));
    EXPECT_TRUE(std::isnan(max_of({-kNaN, -1.0f})));  // a negative NaN too
}

TEST(MaxReference, SignedZeros) {
    EXPECT_EQ(max_of({-0.0f, -1.0f}), 0.0f);
    EXPECT_EQ(max_of({-1.0f, 0.0f, -0.0f}), 0.0f);
}

TEST(MaxReference, SubnormalsAndExtremes) {
    const float tiny = std::numeric_limits<float>::denorm_min();
    EXPECT_EQ(max_of({-tiny, tiny, 0.0f}), tiny);
    EXPECT_EQ(max_of({std::numeric_limits<float>::max(), 1.0f}), std::numeric_limits<float>::max());
}

TEST(Patterns, UniformIsInOpenIntervalAndSeeded) {
    std::vector<float> a(10000), b(10000), c(10000);
    vecmax::fill_pattern(a.data(), a.size(), "uniform", 7);
    vecmax::fill_pattern(b.data(), b.size(), "uniform", 7);
    vecmax::fill_pattern(c.data(), c.size(), "uniform", 8);
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float)));
    EXPECT_NE(0, std::memcmp(a.data(), c.data(), a.size() * sizeof(float)));
    for (float v : a) {
        ASSERT_GT(v, -1.0f);
        ASSERT_LT(v, 1.0f);
    }
}

TEST(Patterns, NegativeIsAllBelowMinusOne) {
    std::vector<float> a(5000);
    vecmax::fill_pattern(a.data(), a.size(), "negative", 3);
    for (float v : a) {
        ASSERT_GT(v, -2.0f);
        ASSERT_LT(v, -1.0f);
    }
    EXPECT_LT(max_of(a), -1.0f);
}

TEST(Patterns, SpikesSitWhereTheySay) {
    for (std::size_t n : {1u, 2u, 31u, 1025u}) {
        std::vector<float> a(n);
        vecmax::fill_pattern(a.data(), n, "spike_first", 5);
        EXPECT_EQ(a[0], 2.0f);
        EXPECT_EQ(max_of(a), 2.0f);
        vecmax::fill_pattern(a.data(), n, "spike_last", 5);
        EXPECT_EQ(a[n - 1], 2.0f);
        EXPECT_EQ(max_of(a), 2.0f);
        vecmax::fill_pattern(a.data(), n, "spike", 5);
        const std::size_t pos = vecmax::pattern_position(n, 5);
        ASSERT_LT(pos, n);
        EXPECT_EQ(a[pos], 2.0f);
        EXPECT_EQ(max_of(a), 2.0f);
        std::size_t count = 0;
        for (float v : a) count += (v == 2.0f);
        EXPECT_EQ(count, 1u);
    }
}

TEST(Patterns, NanAndNegInf) {
    std::vector<float> a(333);
    vecmax::fill_pattern(a.data(), a.size(), "nan", 11);
    EXPECT_TRUE(std::isnan(a[vecmax::pattern_position(a.size(), 11)]));
    EXPECT_TRUE(std::isnan(max_of(a)));
    vecmax::fill_pattern(a.data(), a.size(), "neg_inf", 11);
    EXPECT_EQ(max_of(a), -kInf);
}

TEST(Patterns, EveryListedPatternFills) {
    for (const std::string& p : vecmax::data_patterns()) {
        std::vector<float> a(17, 123.0f);
        EXPECT_NO_THROW(vecmax::fill_pattern(a.data(), a.size(), p, 1)) << p;
        EXPECT_NE(a[0], 123.0f) << p;
    }
    std::vector<float> a(4);
    EXPECT_THROW(vecmax::fill_pattern(a.data(), a.size(), "bogus", 1), std::invalid_argument);
}

TEST(Helpers, RelativeError) {
    EXPECT_EQ(vecmax::relative_error(1.0f, 1.0f), 0.0);
    EXPECT_DOUBLE_EQ(vecmax::relative_error(1.5f, 1.0f), 0.5);
    EXPECT_DOUBLE_EQ(vecmax::relative_error(-1.5f, -1.0f), 0.5);
    EXPECT_DOUBLE_EQ(vecmax::relative_error(0.25f, 0.0f), 0.25);
    EXPECT_EQ(vecmax::relative_error(kNaN, kNaN), 0.0);
    EXPECT_TRUE(std::isnan(vecmax::relative_error(kNaN, 1.0f)));
    EXPECT_TRUE(std::isnan(vecmax::relative_error(1.0f, kNaN)));
    EXPECT_EQ(vecmax::relative_error(-kInf, -kInf), 0.0);
}

TEST(Helpers, Gflops) {
    EXPECT_DOUBLE_EQ(vecmax::comparisons_gflops(40960000, 40.96), 1.0);
    EXPECT_EQ(vecmax::comparisons_gflops(10, 0.0), 0.0);
}

// The single-pass kernel combines block maxima with atomicMax on these keys: the key order
// must be the float order (with every NaN on top), and a key must decode to its float.
TEST(OrderKey, FollowsTheFloatOrderAndDecodes) {
    const float denorm = std::numeric_limits<float>::denorm_min();
    const float big = std::numeric_limits<float>::max();
    const std::vector<float> ascending = {-kInf, -big, -1.5f, -1.0f, -denorm, -0.0f, 0.0f, denorm, 1e-30f,
                                          1.0f,  1.5f, big,   kInf};
    for (std::size_t i = 0; i < ascending.size(); ++i) {
        const std::uint32_t key = vecmax::order_key(ascending[i]);
        EXPECT_GT(key, 0u) << "key 0 is reserved for an empty slot";
        if (i > 0) {
            EXPECT_LT(vecmax::order_key(ascending[i - 1]), key) << ascending[i - 1] << " < " << ascending[i];
        }
        const float back = vecmax::from_order_key(key);
        EXPECT_EQ(std::memcmp(&back, &ascending[i], sizeof back), 0) << ascending[i];
    }
    const float negative_nan = -kNaN;
    for (float nan : {kNaN, negative_nan}) {
        EXPECT_EQ(vecmax::order_key(nan), 0xffffffffu);
        EXPECT_TRUE(std::isnan(vecmax::from_order_key(vecmax::order_key(nan))));
    }
    EXPECT_TRUE(std::isnan(vecmax::from_order_key(0u)));  // an untouched slot never passes as a number
}

}  // namespace
