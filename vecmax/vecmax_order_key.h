// vecmax: an order-preserving 32-bit key of a float, so that one unsigned atomicMax per block
// can combine the blocks' maxima (version=single_pass). Host and device; no CUDA headers,
// so the CPU unit tests check it with the host compiler alone.
//   order_key(a) < order_key(b)  whenever a < b (as floats; -0 and +0 differ: -0 < +0);
//   every NaN has the largest key, 0xffffffff: the NaN policy (a NaN anywhere gives NaN);
//   key 0 is below every float's key: the "nothing yet" state of a result slot;
//   from_order_key(order_key(x)) has x's bits, for every x but NaN (which gives a NaN).
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define VECMAX_HOST_DEVICE __host__ __device__
#else
#define VECMAX_HOST_DEVICE
#endif

namespace vecmax {

VECMAX_HOST_DEVICE inline std::uint32_t order_key(float x) {
    if (x != x) return 0xffffffffu;
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    // Positive floats order like their bits: set the top bit to put them above the negatives.
    // Negative floats order against their bits: flip all bits.
    return (bits & 0x80000000u) != 0u ? ~bits : bits | 0x80000000u;
}

VECMAX_HOST_DEVICE inline float from_order_key(std::uint32_t key) {
    const std::uint32_t bits = (key & 0x80000000u) != 0u ? key & 0x7fffffffu : ~key;
    float x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

}  // namespace vecmax
