// Tier 1: the work model of scan_plan.h (additions per version, the report's section 1.3)
// and the traffic model of map_brent_kung, checked against host simulations that follow the
// kernels' loops step by step (scan_kernels.cu): each simulation counts the additions it
// performs and its result must equal the CPU reference, so the counts are those of a
// correct scan with the kernels' structure (chunks, padded Brent-Kung sections, levels,
// add-backs).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common.h"
#include "scan_cpu.h"
#include "scan_plan.h"

namespace {

using Vec = std::vector<std::uint32_t>;

// brent_kung_block_scan + brent_kung_add_block_sums, recursively, with `threads` threads per
// block (sections of 2 x threads, the last padded with zeros as the kernel does).
Vec brent_kung(const Vec& in, std::size_t threads, double& adds) {
    const std::size_t s = 2 * threads, n = in.size(), blocks = scan_plan::ceil_div(n, s);
    Vec out(n), sums(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
        Vec sec(s, 0u);
        for (std::size_t e = 0; e < s; ++e)
            if (b * s + e < n) sec[e] = in[b * s + e];
        for (std::size_t stride = 1; stride <= threads; stride *= 2)
            for (std::size_t t = 0; t < threads; ++t) {
                const std::size_t index = (t + 1) * 2 * stride - 1;
                if (index < s) { sec[index] += sec[index - stride]; ++adds; }
            }
        for (std::size_t stride = threads / 2; stride > 0; stride /= 2)
            for (std::size_t t = 0; t < threads; ++t) {
                const std::size_t index = (t + 1) * 2 * stride - 1;
                if (index + stride < s) { sec[index + stride] += sec[index]; ++adds; }
            }
        for (std::size_t e = 0; e < s; ++e)
            if (b * s + e < n) out[b * s + e] = sec[e];
        sums[b] = sec[s - 1];
    }
    if (blocks > 1) {
        const Vec scanned = brent_kung(sums, threads, adds);
        for (std::size_t i = s; i < n; ++i) { out[i] += scanned[i / s - 1]; ++adds; }
    }
    return out;
}

// map_scan_chunks (a running sum from 0: its first addition is not one) and its totals.
Vec chunks(const Vec& in, std::size_t k, Vec& totals, double& adds) {
    Vec out(in.size());
    totals.assign(scan_plan::ceil_div(in.size(), k), 0u);
    for (std::size_t c = 0; c < totals.size(); ++c) {
        std::uint32_t run = 0;
        for (std::size_t i = c * k; i < in.size() && i < (c + 1) * k; ++i) {
            if (i > c * k) ++adds;
            run += in[i];
            out[i] = run;
        }
        totals[c] = run;
    }
    return out;
}

// map_add_chunk_offsets: chunk c + 1 gets the scanned total of chunks 0..c.
void add_back(Vec& data, const Vec& scanned, std::size_t k, double& adds) {
    for (std::size_t i = k; i < data.size(); ++i) { data[i] += scanned[i / k - 1]; ++adds; }
}

Vec map_scan(const Vec& in, std::size_t k, double& adds) {
    Vec totals;
    Vec out = chunks(in, k, totals, adds);
    if (totals.size() > 1) add_back(out, map_scan(totals, k, adds), k, adds);
    return out;
}

Vec map_brent_kung(const Vec& in, std::size_t k, std::size_t threads, double& adds) {
    Vec totals;
    Vec out = chunks(in, k, totals, adds);
    if (totals.size() > 1) add_back(out, brent_kung(totals, threads, adds), k, adds);
    return out;
}

Vec reference(const Vec& in) {
    std::vector<std::int32_t> x(in.size()), y(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) x[i] = scan_cpu::from_bits(in[i]);
    scan_cpu::inclusive_scan(x.data(), y.data(), x.size());
    Vec out(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = static_cast<std::uint32_t>(y[i]);
    return out;
}

Vec random_input(std::size_t n) {
    std::vector<std::int32_t> x(n);
    scan_plan::fill_pattern("full", x.data(), n, 7);  // wraps around almost everywhere
    Vec out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint32_t>(x[i]);
    return out;
}

const std::size_t kSizes[] = {1, 2, 3, 7, 8, 9, 31, 33, 64, 65, 1000, 4097, 20001};

// A simulation (sim(in, adds) -> its output) against the exact scan, and the additions it
// counted against the model's count, at every size of kSizes; `what` names the parameters.
template <typename Sim, typename Count>
void expect_exact_and_counted(Sim sim, Count count, const std::string& what) {
    for (std::size_t n : kSizes) {
        const Vec in = random_input(n);
        double adds = 0;
        EXPECT_EQ(sim(in, adds), reference(in)) << "n=" << n << " " << what;
        EXPECT_DOUBLE_EQ(adds, count(n)) << "n=" << n << " " << what;
    }
}

TEST(ScanWork, BrentKungSimulationIsExactAndMatchesTheCount) {
    for (std::size_t threads : {1, 2, 4, 32})
        expect_exact_and_counted([&](const Vec& in, double& adds) { return brent_kung(in, threads, adds); },
                                 [&](std::size_t n) { return scan_plan::additions_brent_kung(n, 2 * threads); },
                                 "threads=" + std::to_string(threads));
}

TEST(ScanWork, MapSimulationIsExactAndMatchesTheCount) {
    for (std::size_t k : {2, 3, 8, 16})
        expect_exact_and_counted([&](const Vec& in, double& adds) { return map_scan(in, k, adds); },
                                 [&](std::size_t n) { return scan_plan::additions_map(n, k); },
                                 "k=" + std::to_string(k));
}

TEST(ScanWork, MapBrentKungSimulationIsExactAndMatchesTheCount) {
    for (std::size_t k : {2, 3, 8, 64})
        for (std::size_t threads : {1, 4, 32})
            expect_exact_and_counted(
                [&](const Vec& in, double& adds) { return map_brent_kung(in, k, threads, adds); },
                [&](std::size_t n) { return scan_plan::additions_map_brent_kung(n, k, 2 * threads); },
                "k=" + std::to_string(k) + " threads=" + std::to_string(threads));
}

TEST(ScanWork, HandCounts) {
    EXPECT_DOUBLE_EQ(scan_plan::additions_serial(1), 0);
    EXPECT_DOUBLE_EQ(scan_plan::additions_serial(1000), 999);
    // Hillis-Steele: sum over d of (n - 2^d).
    EXPECT_DOUBLE_EQ(scan_plan::additions_hillis_steele(1), 0);
    EXPECT_DOUBLE_EQ(scan_plan::additions_hillis_steele(2), 1);
    EXPECT_DOUBLE_EQ(scan_plan::additions_hillis_steele(8), 7 + 6 + 4);
    EXPECT_DOUBLE_EQ(scan_plan::additions_hillis_steele(33), 32 + 31 + 29 + 25 + 17 + 1);
    // One Brent-Kung block of 2048: up-sweep 2047, down-sweep 2047 - 11.
    EXPECT_DOUBLE_EQ(scan_plan::additions_brent_kung(2048, 2048), 2047 + 2036);
    EXPECT_DOUBLE_EQ(scan_plan::additions_brent_kung(5, 2048), 2047 + 2036);  // padded section
    // map, n = 20, k = 8: levels 20, 3: 17 in the chunks, 12 added back, 2 for the totals.
    EXPECT_DOUBLE_EQ(scan_plan::additions_map(20, 8), 17 + 12 + 2);
    EXPECT_DOUBLE_EQ(scan_plan::additions_map_brent_kung(8, 8, 2048), 7);  // one chunk
    // map_brent_kung, n = 20, k = 8, one block of 4 for the 3 totals: 17 + (3 + 1) + 12.
    EXPECT_DOUBLE_EQ(scan_plan::additions_map_brent_kung(20, 8, 4), 17 + 4 + 12);
    // lookback, one full tile of 256 x 32 and a second, padded one.
    const double tile = 256 * 31 + 8 * 129 + 8 * 31 * 32 + 7 + 1 + 8 + 8192;
    EXPECT_DOUBLE_EQ(scan_plan::additions_lookback(8192, 256, 32), tile);
    EXPECT_DOUBLE_EQ(scan_plan::additions_lookback(8193, 256, 32), 2 * tile);
}

TEST(ScanWork, ReportSection13GrowthRates) {
    // Hillis-Steele does about n log2 n additions (the report's section 1.3); the others a
    // few per element, independent of n.
    const std::size_t n = 1u << 20;
    const double dn = static_cast<double>(n);
    EXPECT_NEAR(scan_plan::additions_hillis_steele(n) / dn, 19.0, 0.01);  // 20 n - (n - 1)
    EXPECT_NEAR(scan_plan::additions_map(n, 8) / dn, 2.0, 0.15);
    EXPECT_NEAR(scan_plan::additions_map_brent_kung(n, 8, 2048) / dn, 2.25, 0.01);  // 7/8 + 1 + 3/8
    EXPECT_NEAR(scan_plan::additions_brent_kung(n, 2048) / dn, 3.0, 0.01);  // tree 2 + add-back 1
    EXPECT_NEAR(scan_plan::additions_lookback(n, 256, 32) / dn, 3.07, 0.01);
}

TEST(ScanWork, MapBrentKungTrafficModel) {
    // One chunk: a single pass. Otherwise: the chunk pass (8n + 4 n/k), the Brent-Kung scan
    // of the totals, the add-back of all but the first chunk.
    EXPECT_DOUBLE_EQ(scan_plan::model_bytes_map_brent_kung(8, 8, 2048), 64.0);
    const std::size_t n = 20000000, k = 8, c = 2500000;
    EXPECT_DOUBLE_EQ(scan_plan::model_bytes_map_brent_kung(n, k, 2048),
                     8.0 * n + 4.0 * c + scan_plan::model_bytes_recursive(c, 2048) + 8.0 * (n - k));
    EXPECT_NEAR(scan_plan::model_bytes_map_brent_kung(n, k, 2048) / n, 16.0 + 0.5 + 2.0, 0.01);  // totals: 4 + 16 bytes per 8
}

}  // namespace
