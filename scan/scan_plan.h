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
//   map_brent_kung: the data scanned in chunks of `per_thread` (read + write, totals written),
//   the totals scanned by the recursive Brent-Kung (group = 2 x threads), the data read and
//   written again by the add-back (all but the first chunk).
double model_bytes_map_brent_kung(std::size_t n, std::size_t per_thread, std::size_t group);

// Additions of data values each algorithm performs for one inclusive scan of n elements
// (the report's section 1.3 counts them: n for the serial scan, n log n for Hillis-Steele).
// Counted as the algorithm needs them: a running sum's first element and an offset of
// nothing (chunk 0, block 0) are not additions. Where our kernel scans a padded section
// (Brent-Kung's partial last block), the padding's additions are counted, because the
// kernel performs them. Exclusive scans perform the same additions.
//   serial:          n - 1
//   hillis_steele:   sum over the steps d = 0, 1, ... with 2^d < n of (n - 2^d)
//   brent_kung:      per level of m elements: ceil(m / s) blocks of s = group = 2 x threads,
//                    each 2s - 2 - log2(s) (up-sweep s - 1, down-sweep s - 1 - log2 s), then
//                    m - s for the add-back into every block but the first (not on the last level)
//   map:             per level of m elements: m - ceil(m / k) inside the chunks, and m - k
//                    for the add-back into every chunk but the first (not on the last level,
//                    which has m <= k elements and m - 1 additions)
//   map_brent_kung:  n - ceil(n / k) inside the chunks, brent_kung on the ceil(n / k) totals,
//                    n - k for the add-back (n <= k: one chunk, n - 1)
//   lookback:        per tile of `threads` x `items`: the serial scans of the thread
//                    chunks (items - 1 each), the warp scans of the thread totals
//                    (Hillis-Steele over 32 lanes: 129 per warp), the thread prefix added to
//                    the elements of lanes 1..31, the block's warp totals (threads/32 - 1),
//                    one look-back addition (prefix + aggregate; the usual case, where the
//                    predecessor's inclusive prefix is ready), each warp's offset (tile
//                    prefix + warp prefix), and that offset added to every element; the last
//                    tile is padded to a full tile.
// group and k >= 2; s a power of two; n >= 1.
double additions_serial(std::size_t n);
double additions_hillis_steele(std::size_t n);
double additions_brent_kung(std::size_t n, std::size_t group);
double additions_map(std::size_t n, std::size_t k);
double additions_map_brent_kung(std::size_t n, std::size_t k, std::size_t group);
double additions_lookback(std::size_t n, std::size_t threads, std::size_t items);

}  // namespace scan_plan
