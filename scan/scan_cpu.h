// CPU reference of the scan assignment: inclusive and exclusive prefix sums of 32-bit
// integers with two's-complement wrap-around. The sums are computed in uint32_t, where
// overflow is defined (modulo 2^32), and converted back to int32_t without any
// implementation-defined or undefined step. Host compiler only, no CUDA headers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace scan_cpu {

// The int32 with the same 32 bits as u (two's complement), by arithmetic alone.
std::int32_t from_bits(std::uint32_t u);

// a + b modulo 2^32, read as two's complement: INT32_MAX + 1 == INT32_MIN.
std::int32_t wrap_add(std::int32_t a, std::int32_t b);

// out[i] = in[0] + ... + in[i] (wrapping). n == 0 does nothing; in == out is allowed.
void inclusive_scan(const std::int32_t* in, std::int32_t* out, std::size_t n);

// out[0] = 0, out[i] = in[0] + ... + in[i-1] (wrapping). n == 0 does nothing; in == out is allowed.
void exclusive_scan(const std::int32_t* in, std::int32_t* out, std::size_t n);

}  // namespace scan_cpu
