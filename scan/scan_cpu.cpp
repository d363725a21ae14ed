// CPU reference of the scan assignment (see scan_cpu.h).
#include "scan_cpu.h"

namespace scan_cpu {

std::int32_t from_bits(std::uint32_t u) {
    if (u <= 0x7fffffffu) return static_cast<std::int32_t>(u);
    // u >= 2^31: the value is u - 2^32 = -(2^32 - u) = -(~u) - 1, with ~u <= 2^31 - 1.
    return -static_cast<std::int32_t>(~u) - 1;
}

std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
    return from_bits(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

void inclusive_scan(const std::int32_t* in, std::int32_t* out, std::size_t n) {
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sum += static_cast<std::uint32_t>(in[i]);
        out[i] = from_bits(sum);
    }
}

void exclusive_scan(const std::int32_t* in, std::int32_t* out, std::size_t n) {
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t x = static_cast<std::uint32_t>(in[i]);  // read before out[i] (in == out)
        out[i] = from_bits(sum);
        sum += x;
    }
}

}  // namespace scan_cpu
