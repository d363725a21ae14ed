// Tier 1 unit tests of the CPU reference and the host-side helpers of reduction_versions.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common.h"
#include "reduction_versions_cpu.h"
#include "tests/seeded_data.h"

namespace {

constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();

std::int32_t sum(const std::vector<std::int32_t>& v) { return rv::sum_wrap(v.data(), v.size()); }

TEST(WrapToInt32, TwosComplement) {
    EXPECT_EQ(rv::wrap_to_int32(0u), 0);
    EXPECT_EQ(rv::wrap_to_int32(1u), 1);
    EXPECT_EQ(rv::wrap_to_int32(0x7fffffffu), kMax);
    EXPECT_EQ(rv::wrap_to_int32(0x80000000u), kMin);
    EXPECT_EQ(rv::wrap_to_int32(0xffffffffu), -1);
    EXPECT_EQ(rv::wrap_to_int32(0xfffffffeu), -2);
}

TEST(SumWrap, HandMadeArrays) {
    EXPECT_EQ(rv::sum_wrap(nullptr, 0), 0);
    EXPECT_EQ(sum({42}), 42);
    EXPECT_EQ(sum({-42}), -42);
    EXPECT_EQ(sum({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), 55);
    EXPECT_EQ(sum({-5, -7, 3}), -9);
    EXPECT_EQ(sum({kMax, kMin}), -1);
    EXPECT_EQ(sum({kMin}), kMin);
}

TEST(SumWrap, AllNegative) {
    std::vector<std::int32_t> v(1000, -3);
    EXPECT_EQ(sum(v), -3000);
}

// The documented overflow rule: two's-complement wrap-around, i.e. the sum modulo 2^32.
TEST(SumWrap, OverflowWrapsAround) {
    EXPECT_EQ(sum({kMax, 1}), kMin);
    EXPECT_EQ(sum({kMin, -1}), kMax);
    EXPECT_EQ(sum({kMax, kMax}), -2);
    EXPECT_EQ(sum({kMin, kMin}), 0);
    EXPECT_EQ(sum({kMax, kMax, kMax, 3}), kMin);  // 3 * 2^31 = 0x1'8000'0000 -> 0x8000'0000
    std::vector<std::int32_t> v(3, 1 << 30);  // 3 * 2^30 = 2^31 + 2^30 -> -2^30
    EXPECT_EQ(sum(v), -(1 << 30));
}

TEST(SumWrap, EqualsTheExactSumModulo2To32) {
    std::vector<std::int32_t> v(100003);
    rv::fill_data(v.data(), v.size(), rv::DataKind::kFull, 7);
    const std::int64_t exact = rv::sum_exact(v.data(), v.size());
    const std::uint32_t low = static_cast<std::uint32_t>(static_cast<std::uint64_t>(exact));
    EXPECT_EQ(sum(v), rv::wrap_to_int32(low));
    // A full-range sum of this length lies far outside int32: the data do exercise overflow.
    EXPECT_TRUE(exact > kMax || exact < kMin);
}

TEST(SumExact, NoOverflow) {
    EXPECT_EQ(rv::sum_exact(nullptr, 0), 0);
    std::vector<std::int32_t> v = {kMax, kMax};
    EXPECT_EQ(rv::sum_exact(v.data(), v.size()), 4294967294LL);
    v = {kMin, kMin, -1};
    EXPECT_EQ(rv::sum_exact(v.data(), v.size()), -4294967297LL);
}

TEST(FillData, RangesOfEachKind) {
    const std::size_t n = 20000;
    std::vector<std::int32_t> v(n);
    rv::fill_data(v.data(), n, rv::DataKind::kSmall, 1);
    for (std::int32_t x : v) ASSERT_TRUE(x >= -1000 && x <= 1000);
    rv::fill_data(v.data(), n, rv::DataKind::kNegative, 1);
    for (std::int32_t x : v) ASSERT_LT(x, 0);
    rv::fill_data(v.data(), n, rv::DataKind::kFull, 1);
    int negatives = 0, big = 0;
    for (std::int32_t x : v) {
        negatives += x < 0;
        big += (x > (1 << 30) || x < -(1 << 30));
    }
    EXPECT_GT(negatives, static_cast<int>(n) / 3);  // signed data, about half negative
    EXPECT_GT(big, static_cast<int>(n) / 3);        // about half beyond +-2^30
}

TEST(FillData, ExtremeHoldsBothEndsOnce) {
    for (std::size_t n : {2u, 3u, 1000u}) {
        std::vector<std::int32_t> v(n);
        rv::fill_data(v.data(), n, rv::DataKind::kExtreme, 99);
        int maxes = 0, mins = 0, others = 0;
        for (std::int32_t x : v) {
            maxes += x == kMax;
            mins += x == kMin;
            others += (x >= -3 && x <= 3);
        }
        EXPECT_EQ(maxes, 1) << "n=" << n;
        EXPECT_EQ(mins, 1) << "n=" << n;
        EXPECT_EQ(others, static_cast<int>(n) - 2) << "n=" << n;
    }
    std::vector<std::int32_t> one(1);
    rv::fill_data(one.data(), 1, rv::DataKind::kExtreme, 99);
    EXPECT_EQ(one[0], kMin);
}

TEST(FillData, SameSeedSameData) {
    cw_test::expect_seeded<std::int32_t>(
        [](std::int32_t* p, std::size_t n, std::uint64_t seed) { rv::fill_data(p, n, rv::DataKind::kFull, seed); },
        1000, 5);
}

TEST(FillData, IotaIsOneToN) {
    std::vector<std::int32_t> v(1000);
    rv::fill_data(v.data(), v.size(), rv::DataKind::kIota, 12345);
    for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], static_cast<std::int32_t>(i + 1));
    EXPECT_EQ(sum(v), 500500);
    // n(n+1)/2 fits int32 up to n = 65535 and wraps modulo 2^32 from n = 65536 on (--help says so).
    std::vector<std::int32_t> w(65536);
    rv::fill_data(w.data(), 65535, rv::DataKind::kIota, 0);
    EXPECT_EQ(rv::sum_wrap(w.data(), 65535), 2147450880);
    rv::fill_data(w.data(), w.size(), rv::DataKind::kIota, 0);
    EXPECT_EQ(rv::sum_exact(w.data(), w.size()), 2147516416LL);
    EXPECT_EQ(sum(w), rv::wrap_to_int32(static_cast<std::uint32_t>(2147516416ULL)));
    EXPECT_LT(sum(w), 0);
}

TEST(ParseDataKind, WordsAndErrors) {
    EXPECT_EQ(rv::parse_data_kind("full"), rv::DataKind::kFull);
    EXPECT_EQ(rv::parse_data_kind("extreme"), rv::DataKind::kExtreme);
    EXPECT_EQ(rv::parse_data_kind("iota"), rv::DataKind::kIota);
    EXPECT_THROW(rv::parse_data_kind("zeros"), cw::UsageError);
}

TEST(ParseThreads, ListsAllAndAutomatic) {
    EXPECT_EQ(rv::parse_threads("256"), std::vector<int>({256}));
    EXPECT_EQ(rv::parse_threads("64,1024"), std::vector<int>({64, 1024}));
    EXPECT_EQ(rv::parse_threads("all"), std::vector<int>({64, 128, 256, 512, 1024}));
    EXPECT_EQ(rv::parse_threads("0"), std::vector<int>({0}));  // automatic
}

TEST(ParseThreads, Errors) {
    for (const char* bad : {"", "32", "2048", "100", "abc", "64,64", "256,", ",256", "64,,128", "-64", "0,256",
                            "256,0", "1"})
        EXPECT_THROW(rv::parse_threads(bad), cw::UsageError) << "'" << bad << "'";
}

}  // namespace
