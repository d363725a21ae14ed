// Tier 1: the CPU reference (inclusive/exclusive scans with wrap-around), the error measures
// against it, and the host-side planning of the GPU versions (size lists, data patterns, recursion levels, traffic
// models, the look-back tuning policy).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common.h"
#include "scan_cpu.h"
#include "scan_plan.h"
#include "scan_policy.h"

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

// A validated result is one run: right, it has no error; wrong, its mismatches and MSE.
TEST(ScanCpu, ErrorsOfOneResult) {
    const std::vector<std::int32_t> want = {1, 2, 3, 4};
    scan_cpu::Errors right;
    right.add_run(want.data(), want.data(), want.size());
    EXPECT_EQ(right.runs, 1);
    EXPECT_EQ(right.wrong_runs, 0);
    EXPECT_EQ(right.mismatches, 0u);
    EXPECT_EQ(right.mse(), 0.0);
    EXPECT_EQ(right.text(true), "");
    const std::vector<std::int32_t> got = {1, 5, 3, 2};  // errors 3 and -2: SSE 13
    scan_cpu::Errors wrong;
    wrong.add_run(got.data(), want.data(), want.size());
    EXPECT_EQ(wrong.wrong_runs, 1);
    EXPECT_EQ(wrong.mismatches, 2u);
    EXPECT_EQ(wrong.first_mismatch, 1u);
    EXPECT_DOUBLE_EQ(wrong.mse(), 13.0 / 4);
    EXPECT_DOUBLE_EQ(wrong.sse, 13.0);
    EXPECT_EQ(wrong.text(true), " mismatches=2 first at 1");
}

// A demonstration's runs: the MSE averaged, its largest kept, SSE of run 1, the most
// mismatches of a run and the earliest wrong element of any run.
TEST(ScanCpu, ErrorsOfADemonstrationsRuns) {
    const std::vector<std::int32_t> want = {1, 2, 3, 4};
    const std::vector<std::int32_t> late = {1, 2, 3, 6}, early = {0, 2, 0, 4};
    scan_cpu::Errors e;
    e.add_run(want.data(), want.data(), want.size());
    e.add_run(late.data(), want.data(), want.size());   // MSE 1
    e.add_run(early.data(), want.data(), want.size());  // MSE 2.5
    EXPECT_EQ(e.runs, 3);
    EXPECT_EQ(e.wrong_runs, 2);
    EXPECT_EQ(e.mismatches, 2u);
    EXPECT_EQ(e.first_mismatch, 0u);
    EXPECT_DOUBLE_EQ(e.mse(), 3.5 / 3);
    EXPECT_DOUBLE_EQ(e.mse_max, 2.5);
    EXPECT_EQ(e.sse, 0.0);
    EXPECT_EQ(e.text(false), " racy: mse=1.16667 sse(run 1)=0, 2 of 3 runs wrong, first wrong element 0");
    cw::CsvRow row;
    e.add_columns(row);
    EXPECT_EQ(row.header(), "mismatches,first_mismatch,runs,wrong_runs,mse,mse_max,sse");
    EXPECT_EQ(row.values(), "2,0,3,2,1.1666667,2.5,0");
}

TEST(ScanPlan, SizesUseTheSharedGrammar) {
    // scan's --sizes is cw::parse_size_list with scan's limits [1, kMaxN].
    EXPECT_EQ(cw::parse_size_list("sizes", "2^10,1e3,5..7", 1, scan_plan::kMaxN),
              std::vector<long long>({1024, 1000, 5, 6, 7}));
    EXPECT_THROW(cw::parse_size_list("sizes", "0", 1, scan_plan::kMaxN), cw::UsageError);
    EXPECT_THROW(cw::parse_size_list("sizes", "2^31", 1, scan_plan::kMaxN), cw::UsageError);
    EXPECT_THROW(cw::parse_size_list("sizes", "1,,2", 1, scan_plan::kMaxN), cw::UsageError);
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

TEST(ScanPlan, ModelBytes) {
    const std::size_t n = 20000000;
    EXPECT_DOUBLE_EQ(scan_plan::model_bytes_single_pass(n), 8.0 * n);
    // In-place Hillis-Steele: 12 bytes per element per step, ceil(log2 33) = 6 steps.
    EXPECT_DOUBLE_EQ(scan_plan::model_bytes_hillis_steele_in_place(33), 12.0 * 33 * 6);
    // Brent-Kung (group 2 x 1024): the data read and written twice (scan, add-back) plus the small levels.
    const double bk = scan_plan::model_bytes_recursive(n, 2048);
    EXPECT_GT(bk, 16.0 * n);
    EXPECT_LT(bk, 16.1 * n);
    // One level only (n <= group): one read and one write, like a single pass.
    EXPECT_DOUBLE_EQ(scan_plan::model_bytes_recursive(2048, 2048), 8.0 * 2048);
}

TEST(ScanPolicy, LookbackTileChoice) {
    using scan_policy::LookbackPolicy;
    // 32 ints per thread only where at least 4 of its blocks are resident per SM.
    EXPECT_EQ(LookbackPolicy::choose(6).items, 32);
    EXPECT_EQ(LookbackPolicy::choose(4).items, 32);
    EXPECT_EQ(LookbackPolicy::choose(3).items, 16);
    EXPECT_EQ(LookbackPolicy::choose(0).items, 16);
    EXPECT_FALSE(LookbackPolicy::choose(6).forced);
    // --lb-items (with_items, the program's) overrides the device's choice either way.
    EXPECT_EQ(LookbackPolicy::choose(6).with_items(16).items, 16);
    EXPECT_EQ(LookbackPolicy::choose(1).with_items(32).items, 32);
    EXPECT_TRUE(LookbackPolicy::choose(1).with_items(32).forced);
    EXPECT_EQ(LookbackPolicy::choose(6).tile(), 8192);
    EXPECT_EQ(LookbackPolicy::choose(1).tile(), 4096);
    EXPECT_EQ(LookbackPolicy::choose(1).threads, 256);
}

// Tile ids by blockIdx.x only where the whole grid fits on the device at once.
TEST(ScanPolicy, LookbackBlockIdsOnlyWhereTheGridIsResident) {
    using scan_policy::LookbackPolicy;
    EXPECT_TRUE(LookbackPolicy::block_ids(1, 792));
    EXPECT_TRUE(LookbackPolicy::block_ids(792, 792));    // 6 blocks x 132 SMs: every block has a slot
    EXPECT_FALSE(LookbackPolicy::block_ids(793, 792));   // one block more: drawn from the counter
    EXPECT_FALSE(LookbackPolicy::block_ids(1, 0));       // no occupancy known: drawn
}

// version=lookahead: whether the warp-specialised kernel can run (the code the driver loaded,
// the opt-in shared memory, the occupancy), and from which n it runs.
TEST(ScanPolicy, LookaheadDeviceChoice) {
    using scan_policy::LookaheadPolicy;
    constexpr long long kStatic = 896;  // the kernel's static shared memory (mbarriers, segment totals)
    // An H100 build with sm_90 code: 227 KiB opt-in, one CTA per SM.
    const LookaheadPolicy h100 = LookaheadPolicy::choose(90, 90, 232448, kStatic, 1, 132);
    EXPECT_TRUE(h100.can_run);
    EXPECT_TRUE(h100.why_not.empty());
    // compute_75 PTX JIT-compiled for an H100: binary 90, PTX 75, an empty body: never launched.
    const LookaheadPolicy jit = LookaheadPolicy::choose(90, 75, 232448, kStatic, 1, 132);
    EXPECT_FALSE(jit.can_run);
    EXPECT_NE(jit.why_not.find("compute_75"), std::string::npos);
    // compute_90 PTX JIT-compiled for a newer GPU (sm_100): the body is there.
    EXPECT_TRUE(LookaheadPolicy::choose(100, 90, 232448, kStatic, 1, 148).can_run);
    // Older GPUs (the cluster's sm_35 and sm_52, an A100's sm_80).
    EXPECT_FALSE(LookaheadPolicy::choose(35, 35, 49152, kStatic, 1, 15).can_run);
    EXPECT_FALSE(LookaheadPolicy::choose(52, 52, 49152, kStatic, 1, 13).can_run);
    EXPECT_FALSE(LookaheadPolicy::choose(80, 80, 166912, kStatic, 1, 108).can_run);
    // sm_90 code but too little shared memory per block (an sm_120 GPU's 99 KiB), or none resident.
    const LookaheadPolicy small = LookaheadPolicy::choose(120, 120, 101376, kStatic, 1, 84);
    EXPECT_FALSE(small.can_run);
    EXPECT_NE(small.why_not.find("shared memory"), std::string::npos);
    EXPECT_FALSE(LookaheadPolicy::choose(90, 90, LookaheadPolicy::kSmemBytes + kStatic - 1, kStatic, 1, 132).can_run);
    EXPECT_TRUE(LookaheadPolicy::choose(90, 90, LookaheadPolicy::kSmemBytes + kStatic, kStatic, 1, 132).can_run);
    EXPECT_FALSE(LookaheadPolicy::choose(90, 90, 232448, kStatic, 0, 132).can_run);
    // The default policy (no device yet) runs nothing but lookback's kernel.
    EXPECT_FALSE(LookaheadPolicy().can_run);
    EXPECT_FALSE(LookaheadPolicy().use_ws(1LL << 30));
    // The chosen variant's shape.
    const int threads = LookaheadPolicy::kThreads, smem = LookaheadPolicy::kSmemBytes;  // by value (C++14)
    EXPECT_EQ(threads, 416);
    EXPECT_EQ(smem, 196608);
}

TEST(ScanPolicy, LookaheadSizeChoice) {
    using scan_policy::LookaheadPolicy;
    using Choice = LookaheadPolicy::Choice;
    const LookaheadPolicy p = LookaheadPolicy::choose(90, 90, 232448, 896, 1, 132);
    // By size: lookback's kernel below the threshold, the ws kernel from it on.
    const long long min_n = LookaheadPolicy::kMinN;  // by value (C++14)
    EXPECT_EQ(min_n, 7500000);  // experiments/results/h200/la_switch.csv (scan_policy.h says why)
    EXPECT_FALSE(p.use_ws(1));
    EXPECT_FALSE(p.use_ws(4096));
    EXPECT_FALSE(p.use_ws(LookaheadPolicy::kMinN - 1));
    EXPECT_TRUE(p.use_ws(LookaheadPolicy::kMinN));
    EXPECT_TRUE(p.use_ws(LookaheadPolicy::kMinN + 1));
    EXPECT_TRUE(p.use_ws(1LL << 28));
    EXPECT_TRUE(p.use_ws(1LL << 30));
    // Forced (--la-kernel): ws at every n where it can run, lookback at none.
    EXPECT_TRUE(p.with_choice(Choice::kWs).use_ws(1));
    EXPECT_FALSE(p.with_choice(Choice::kLookback).use_ws(1LL << 28));
    EXPECT_TRUE(p.with_choice(Choice::kLookback).with_choice(Choice::kAuto).use_ws(1LL << 28));
    // A device that cannot run it falls back at every n, forced or not.
    const LookaheadPolicy old = LookaheadPolicy::choose(52, 52, 49152, 896, 1, 13);
    EXPECT_FALSE(old.use_ws(1LL << 30));
    EXPECT_FALSE(old.with_choice(Choice::kWs).use_ws(1LL << 30));
    // The persistent grid: one CTA per resident slot, no more than tiles.
    EXPECT_EQ(p.grid(1), 1);
    EXPECT_EQ(p.grid(4096), 1);
    EXPECT_EQ(p.grid(4097), 2);
    EXPECT_EQ(p.grid(132 * 4096), 132);
    EXPECT_EQ(p.grid(LookaheadPolicy::kMinN), 132);
    EXPECT_EQ(LookaheadPolicy::choose(90, 90, 232448, 896, 2, 132).grid(1LL << 28), 264);
    // The workspace: 8 bytes per 4096-int tile and the counter's two words.
    EXPECT_DOUBLE_EQ(LookaheadPolicy::workspace_bytes(4096), 16.0);
    EXPECT_DOUBLE_EQ(LookaheadPolicy::workspace_bytes(4097), 24.0);
}

TEST(ScanPolicy, LaunchBoundsPerArchitecture) {
    using scan_policy::LookbackPolicy;
    EXPECT_EQ(LookbackPolicy::min_blocks_per_sm(900, 32), 6);   // H100: 6 x 33 KiB in 228 KiB
    EXPECT_EQ(LookbackPolicy::min_blocks_per_sm(1000, 32), 6);
    EXPECT_EQ(LookbackPolicy::min_blocks_per_sm(800, 32), 2);
    EXPECT_EQ(LookbackPolicy::min_blocks_per_sm(1200, 32), 2);
    EXPECT_EQ(LookbackPolicy::min_blocks_per_sm(750, 16), 4);   // 1024 threads per SM
    EXPECT_EQ(LookbackPolicy::min_blocks_per_sm(860, 16), 6);   // 1536 threads per SM
    EXPECT_EQ(LookbackPolicy::min_blocks_per_sm(890, 16), 6);
    EXPECT_EQ(LookbackPolicy::min_blocks_per_sm(1200, 16), 6);
    EXPECT_EQ(LookbackPolicy::min_blocks_per_sm(900, 16), 8);   // 2048 threads per SM
    EXPECT_EQ(LookbackPolicy::min_blocks_per_sm(520, 16), 8);
}

}  // namespace
