// CPU reference and host-side helpers of reduction_versions (host compiler, no CUDA headers).
//
// The sum is defined as the int32 sum with two's-complement wrap-around: the sum modulo 2^32,
// read back as a signed 32-bit integer. The reference accumulates in uint32_t, where C++
// defines overflow as arithmetic modulo 2^32 (signed overflow would be undefined behaviour);
// the GPU kernels and the CUB baseline do the same, so every result is exactly comparable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rv {

// Largest n the program accepts: 2^30 ints (4 GiB); keeps 32-bit block indices safe.
constexpr long long kMaxN = 1LL << 30;

// The signed 32-bit integer with the same bits as u (two's complement), without relying on
// implementation-defined conversions.
std::int32_t wrap_to_int32(std::uint32_t u);

// Serial sum, one element after the other (the report's "serial version"), modulo 2^32.
std::int32_t sum_wrap(const std::int32_t* x, std::size_t n);

// The serial sum timed as the report's serial version: median of up to `repeat` runs (fewer
// when one run is long, about 0.3 s in all) into *median_ms, their number into *runs; returns
// the sum.
std::int32_t sum_wrap_timed(const std::int32_t* x, std::size_t n, int repeat, double* median_ms, int* runs);

// Exact sum in 64 bits (no overflow for n < 2^32): used by the tests to check sum_wrap.
std::int64_t sum_exact(const std::int32_t* x, std::size_t n);

// Test data (--data=KIND), seeded so that a seed names a data set:
//   full      uniform over every int32 (sums wrap around almost always at large n)
//   small     uniform in [-1000, 1000] (no overflow below n ~ 2 million)
//   negative  uniform in [INT32_MIN, -1] (all negative)
//   extreme   uniform in [-3, 3] with INT32_MAX and INT32_MIN each at one random position
//             (different positions when n > 1; INT32_MIN alone when n == 1)
//   iota      1, 2, ..., n: the report's "sum of 1 to N numbers" (no seed). The exact sum
//             n(n+1)/2 exceeds INT32_MAX from n = 65,536 on, so it wraps modulo 2^32 there.
enum class DataKind { kFull, kSmall, kNegative, kExtreme, kIota };
DataKind parse_data_kind(const std::string& word);  // throws cw::UsageError
void fill_data(std::int32_t* x, std::size_t n, DataKind kind, std::uint64_t seed);

// --threads=LIST|all: a comma list of block sizes, each a power of two in 64..1024, or 0
// alone (automatic: each version's block size from its architecture policy); "all" =
// 64,128,256,512,1024. Returns the list ({0} for automatic). Throws cw::UsageError.
std::vector<int> parse_threads(const std::string& text);

}  // namespace rv
