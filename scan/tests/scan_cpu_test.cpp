// Tier 1: the CPU reference (inclusive/exclusive scans with wrap-around) and the host-side
// planning of the GPU versions (size lists, data patterns, recursion levels).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "common.h"
#include "scan_cpu.h"
#include "scan_plan.h"

namespace {

constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();

std::vector<std::int32_t> inclusive(const std::vector<std::int32_t>& in) {
    std::vector<std::int32_t> out(in.size());
    scan_cpu::inclusive_scan(in.data(), out.data(), in.size());
    return out;
}
std::vector<std::int32_t> exclusive(const std::vector<std::int32_t>& in) {
    std::vector<std::int32_t> out(in.size());
    scan_cpu::exclusive_scan(in.data(), out.data(), in.size());
    return out;
}

TEST(ScanCpu, EmptyInputIsANoOp) {
    std::int32_t sentinel = 42;
    scan_cpu::inclusive_scan(nullptr, &sentinel, 0);
    scan_cpu::exclusive_scan(nullptr, &sentinel, 0);
    EXPECT_EQ(sentinel, 42);
    EXPECT_TRUE(inclusive({}).empty());
}

TEST(ScanCpu, OneElement) {
    EXPECT_EQ(inclusive({-7}), std::vector<std::int32_t>({-7}));
    EXPECT_EQ(exclusive({-7}), std::vector<std::int32_t>({0}));
}

TEST(ScanCpu, HandMadeWithNegatives) {
    const std::vector<std::int32_t> in = {3, -1, 4, -1, -5, 9, 2, -6};
    EXPECT_EQ(inclusive(in), std::vector<std::int32_t>({3, 2, 6, 5, 0, 9, 11, 5}));
    EXPECT_EQ(exclusive(in), std::vector<std::int32_t>({0, 3, 2, 6, 5, 0, 9, 11}));
}

TEST(ScanCpu, ReportFigure13Input) {
    // The report's n = 33 example: 1, 2, ..., 33 scans to the triangular numbers; its last
    // element 561 = 33 * 34 / 2, and 561 - 33 = 528 (the report's output kept 33 there,
    // and 528^2 = 278784 is the "Computation error" it printed).
    std::vector<std::int32_t> in(33);
    scan_plan::fill_pattern("iota", in.data(), in.size(), 0);
    const std::vector<std::int32_t> out = inclusive(in);
    for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], static_cast<std::int32_t>((i + 1) * (i + 2) / 2));
    std::vector<std::int32_t> report = out;
    report[32] = 33;
    EXPECT_DOUBLE_EQ(cw::mean_squared_error(report.data(), out.data(), out.size()) * 33.0, 278784.0);
}

TEST(ScanCpu, WrapAroundIsTwosComplement) {
    EXPECT_EQ(scan_cpu::wrap_add(kMax, 1), kMin);
    EXPECT_EQ(scan_cpu::wrap_add(kMin, -1), kMax);
    EXPECT_EQ(scan_cpu::wrap_add(kMin, kMin), 0);
    EXPECT_EQ(inclusive({kMax, 1, 1, kMin, kMin}), std::vector<std::int32_t>({kMax, kMin, kMin + 1, 1, kMin + 1}));
    EXPECT_EQ(exclusive({kMax, 1, 1, kMin, kMin}), std::vector<std::int32_t>({0, kMax, kMin, kMin + 1, 1}));
}

TEST(ScanCpu, FromBitsCoversTheRange) {
    EXPECT_EQ(scan_cpu::from_bits(0u), 0);
    EXPECT_EQ(scan_cpu::from_bits(0x7fffffffu), kMax);
    EXPECT_EQ(scan_cpu::from_bits(0x80000000u), kMin);
    EXPECT_EQ(scan_cpu::from_bits(0xffffffffu), -1);
}

TEST(ScanCpu, InPlaceAllowed) {
    std::vector<std::int32_t> a = {5, -2, 7, kMax};
    const std::vector<std::int32_t> want_incl = inclusive(a), want_excl = exclusive(a);
    std::vector<std::int32_t> b = a;
    scan_cpu::inclusive_scan(a.data(), a.data(), a.size());
    scan_cpu::exclusive_scan(b.data(), b.data(), b.size());
    EXPECT_EQ(a, want_incl);
    EXPECT_EQ(b, want_excl);
}

TEST(ScanCpu, ExclusiveIsShiftedInclusiveOnRandomData) {
    std::vector<std::int32_t> in(10007);
    scan_plan::fill_pattern("full", in.data(), in.size(), 7);
    const std::vector<std::int32_t> inc = inclusive(in), exc = exclusive(in);
    EXPECT_EQ(exc[0], 0);
    for (std::size_t i = 1; i < in.size(); ++i) ASSERT_EQ(exc[i], inc[i - 1]) << i;
    for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(scan_cpu::wrap_add(exc[i], in[i]), inc[i]) << i;
}

TEST(ScanPlan, ParseSizes) {
    EXPECT_EQ(scan_plan::parse_sizes("1,2,31", 1, 100), std::vector<long long>({1, 2, 31}));
    EXPECT_EQ(scan_plan::parse_sizes("3..6", 1, 100), std::vector<long long>({3, 4, 5, 6}));
    EXPECT_EQ(scan_plan::parse_sizes("2^10,1e3,5..5", 1, 1 << 20), std::vector<long long>({1024, 1000, 5}));
    EXPECT_THROW(scan_plan::parse_sizes("", 1, 100), cw::UsageError);
    EXPECT_THROW(scan_plan::parse_sizes("0", 1, 100), cw::UsageError);
    EXPECT_THROW(scan_plan::parse_sizes("7..3", 1, 100), cw::UsageError);
    EXPECT_THROW(scan_plan::parse_sizes("1..x", 1, 100), cw::UsageError);
    EXPECT_THROW(scan_plan::parse_sizes("2^40", 1, 1LL << 30), cw::UsageError);
    EXPECT_THROW(scan_plan::parse_sizes(",,", 1, 100), cw::UsageError);
}

TEST(ScanPlan, LevelSizes) {
    EXPECT_EQ(scan_plan::level_sizes(1, 2048), std::vector<std::size_t>({1}));
    EXPECT_EQ(scan_plan::level_sizes(2048, 2048), std::vector<std::size_t>({2048}));
    EXPECT_EQ(scan_plan::level_sizes(2049, 2048), std::vector<std::size_t>({2049, 2}));
    // 20,000,000 with 1024-thread Brent-Kung blocks: 9766 blocks, whose sums take 5 blocks.
    EXPECT_EQ(scan_plan::level_sizes(20000000, 2048), std::vector<std::size_t>({20000000, 9766, 5}));
    EXPECT_EQ(scan_plan::level_sizes(17, 2), std::vector<std::size_t>({17, 9, 5, 3, 2}));
    EXPECT_THROW(scan_plan::level_sizes(10, 1), std::invalid_argument);
}

TEST(ScanPlan, HillisSteeleSteps) {
    EXPECT_EQ(scan_plan::hillis_steele_steps(1), 0);
    EXPECT_EQ(scan_plan::hillis_steele_steps(2), 1);
    EXPECT_EQ(scan_plan::hillis_steele_steps(32), 5);
    EXPECT_EQ(scan_plan::hillis_steele_steps(33), 6);
    EXPECT_EQ(scan_plan::hillis_steele_steps(1u << 28), 28);
}

TEST(ScanPlan, DataPatterns) {
    std::vector<std::int32_t> a(1000), b(1000);
    scan_plan::fill_pattern("random", a.data(), a.size(), 1);
    scan_plan::fill_pattern("random", b.data(), b.size(), 1);
    EXPECT_EQ(a, b);  // a seed names a data set
    bool negative = false;
    for (std::int32_t v : a) {
        EXPECT_GE(v, -1000);
        EXPECT_LE(v, 1000);
        negative = negative || v < 0;
    }
    EXPECT_TRUE(negative);
    scan_plan::fill_pattern("negative", a.data(), a.size(), 1);
    for (std::int32_t v : a) EXPECT_LT(v, 0);
    scan_plan::fill_pattern("extreme", a.data(), a.size(), 1);
    EXPECT_EQ(a[500], kMax);
    EXPECT_EQ(a[999], kMin);
    // Prefix stability: the first n elements of a longer fill are the fill of n.
    std::vector<std::int32_t> shorter(300);
    scan_plan::fill_pattern("full", a.data(), a.size(), 3);
    scan_plan::fill_pattern("full", shorter.data(), shorter.size(), 3);
    EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), a.begin()));
    EXPECT_TRUE(scan_plan::pattern_is_prefix_stable("full"));
    EXPECT_FALSE(scan_plan::pattern_is_prefix_stable("extreme"));
    EXPECT_THROW(scan_plan::fill_pattern("bogus", a.data(), a.size(), 1), cw::UsageError);
}

TEST(ScanPlan, VersionsAndModelBytes) {
    EXPECT_TRUE(scan_plan::is_racy("hs_inplace_racy"));
    EXPECT_TRUE(scan_plan::is_racy("hs_multiblock_racy"));
    EXPECT_FALSE(scan_plan::is_racy("hs_buffered"));
    EXPECT_EQ(scan_plan::version_labels().front(), "cub");  // the baseline runs first
    const std::size_t n = 20000000;
    EXPECT_DOUBLE_EQ(scan_plan::model_bytes("lookback", n, 1024, 8), 8.0 * n);
    // Brent-Kung: the data read and written twice (scan, add-back) plus the small levels.
    const double bk = scan_plan::model_bytes("brent_kung", n, 1024, 8);
    EXPECT_GT(bk, 16.0 * n);
    EXPECT_LT(bk, 16.1 * n);
    EXPECT_TRUE(scan_plan::is_power_of_two(1024));
    EXPECT_FALSE(scan_plan::is_power_of_two(33));
    EXPECT_FALSE(scan_plan::is_power_of_two(0));
}

}  // namespace
