// Host-side planning of the scan versions, shared by the registry (scan_versions.cu) and the
// unit tests (host compiler, no CUDA headers): size limits, input data patterns, the level
// structure of the recursive versions (how many launches, of which sizes), and the traffic
// model of each algorithm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace scan_plan {

// Largest n any version accepts (4 GiB per buffer of int32).
constexpr long long kMaxN = 1LL << 30;
// One block of in-place or double-buffered Hillis-Steele covers at most this many elements.
constexpr long long kMaxOneBlock = 1024;

std::size_t ceil_div(std::size_t a, std::size_t b);
bool is_power_of_two(long long x);
// Number of Hillis-Steele steps for n elements: ceil(log2 n) (0 for n <= 1).
int hillis_steele_steps(std::size_t n);

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

// Bytes an algorithm moves through DRAM for one scan of n int32 (a model, not measured),
// one function per algorithm (each registry entry names its own):
//   single pass (lookback, cub, hs_buffered): n read, n written;
//   in-place Hillis-Steele: two reads and a write of every element per step;
//   recursive (map: group = elements per thread; brent_kung: group = 2 x threads): every
//   level scanned (read + write) and its totals written, then added back (read + write)
//   into every level but the last.
double model_bytes_single_pass(std::size_t n);
double model_bytes_hillis_steele_in_place(std::size_t n);
double model_bytes_recursive(std::size_t n, std::size_t group);

}  // namespace scan_plan
