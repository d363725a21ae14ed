// Host-side planning of the scan versions, shared by the driver and the unit tests (host
// compiler, no CUDA headers): the version table, size lists, input data patterns, and the
// level structure of the recursive versions (how many launches, of which sizes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace scan_plan {

// Version labels, in the order the driver runs them (cub first, so that every other row of
// the same size can carry the baseline).
const std::vector<std::string>& version_labels();
// The two racy demonstrations: never validated, never counted in PASS/FAIL.
bool is_racy(const std::string& version);

// Largest n any version accepts (4 GiB per buffer of int32).
constexpr long long kMaxN = 1LL << 30;
// One block of in-place or double-buffered Hillis-Steele covers at most this many elements.
constexpr long long kMaxOneBlock = 1024;

// Decoupled look-back tile: 256 threads x 32 items (8192 ints, 32 KiB) where 4 such blocks
// fit on an SM (the H100: 6), else 256 x 16 (4096 ints; K40m, GTX 970, Turing, GA10x).
constexpr int kLookbackThreads = 256;
constexpr int kLookbackItemsLarge = 32;
constexpr int kLookbackItemsSmall = 16;
constexpr int kLookbackSmallestTile = kLookbackThreads * kLookbackItemsSmall;

std::size_t ceil_div(std::size_t a, std::size_t b);
bool is_power_of_two(long long x);
// Number of Hillis-Steele steps for n elements: ceil(log2 n) (0 for n <= 1).
int hillis_steele_steps(std::size_t n);

// --sizes=LIST: comma-separated items, each an integer (1250000, 1e6, 2^20) or an inclusive
// range A..B of every integer between. Every size must lie in [lo, hi]. Throws
// cw::UsageError naming --sizes.
std::vector<long long> parse_sizes(const std::string& text, long long lo, long long hi);

// Input data patterns (--data): random (uniform in [-1000, 1000]), full (uniform over all
// of int32: the sums wrap around almost everywhere), negative (uniform in [-1000, -1]),
// extreme (random with INT32_MAX at n/2 and INT32_MIN at n-1), iota (1, 2, 3, ...: the
// report's input).
const std::vector<std::string>& data_patterns();
// True when the first n elements do not depend on n (a prefix of a longer fill).
bool pattern_is_prefix_stable(const std::string& pattern);
void fill_pattern(const std::string& pattern, std::int32_t* data, std::size_t n, std::uint64_t seed);

// Sizes of the levels of a recursive scan: level 0 is n; level l+1 holds one value per
// `group` elements of level l (a block's or a thread's total); the last level has at most
// `group` elements and is scanned by one block (Brent-Kung, group = 2 x threads) or one
// thread (map scan, group = elements per thread). group >= 2.
std::vector<std::size_t> level_sizes(std::size_t n, std::size_t group);

// Bytes the version moves through DRAM for one scan of n int32 (model, not measured):
// reads and writes of the data and of the per-level totals.
double model_bytes(const std::string& version, std::size_t n, int threads, int per_thread);

}  // namespace scan_plan
