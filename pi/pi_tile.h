// The arithmetic of the single-launch version (version=single), shared by its kernel
// (pi_kernels.cu) and by the tier-1 unit tests, which check it on the CPU with an exact
// reciprocal. Host and device; no CUDA header needed.
//
// A tile is 64 consecutive terms i = 64t ... 64t+63 of the midpoint sum of 1/(1 + x_i^2),
// x_i = (i + 1/2) h. Its terms pair up symmetrically about the tile centre c = (64t + 32) h:
// x = c - u and x = c + u with u = (2j + 1) h / 2, j = 0..31. With a = 1 + (c-u)^2 and
// b = 1 + (c+u)^2:
//     a + b = 2w,  w = 1 + c^2 + u^2 = K + k_j H,           K = 1 + c^2, H = h^2/4
//     a * b = w^2 - 4c^2u^2 = w^2 - k_j G,                   G = c^2 h^2, k_j = (2j+1)^2
//     1/a + 1/b = 2w / p,  p = w^2 - k_j G
// so a pair costs one FFMA (w), one FMUL (k_j G), one FFMA (p), with k_j a compile-time
// constant: no integer-to-float conversion and no drift (x is never accumulated). Two pairs
// share one reciprocal: w1/p1 + w2/p2 = (w1 p2 + w2 p1) / (p1 p2) (FMUL, FMUL, FFMA, one
// reciprocal, one FFMA into the accumulator): 11 instructions and 1 reciprocal per 4 terms.
// p lies in [1, 4] and p1 p2 in [1, 16]: no overflow, no cancellation (w^2 - kG = ab >= 1
// while w^2 <= 4, condition number <= 8).
#pragma once

#include <math.h>

#if defined(__CUDACC__)
#define PI_HD __host__ __device__ __forceinline__
#else
#define PI_HD inline
#endif

namespace pi {

constexpr int kTileTerms = 64;  // 32 symmetric pairs, 16 quads

PI_HD float fma_t(float a, float b, float c) { return fmaf(a, b, c); }
PI_HD double fma_t(double a, double b, double c) { return fma(a, b, c); }

// Per-tile constants: the centre is computed in double from the tile index (one conversion
// and one rounding to T per 64 terms), so that x stays exact to the last bit of T whatever n.
template <typename T>
struct TileConstants {
    T K, G;
};

template <typename T>
PI_HD TileConstants<T> tile_constants(long long tile, double h) {
    const double cd = (static_cast<double>(tile) * kTileTerms + kTileTerms / 2) * h;
    const T c = static_cast<T>(cd);
    const T ch = c * static_cast<T>(h);
    TileConstants<T> k;
    k.K = fma_t(c, c, static_cast<T>(1));
    k.G = ch * ch;
    return k;
}

// Half the sum of 1/(1 + x^2) over the 64 terms of a tile; H = h^2/4 in T. Rcp is a functor
// giving 1/v (approximate on the GPU, exact in the unit tests).
template <typename T, typename Rcp>
PI_HD T tile_half_sum(const TileConstants<T> k, const T H, const Rcp rcp) {
    T acc0 = 0, acc1 = 0;  // two chains, 8 quads each
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int m = 0; m < kTileTerms / 4; ++m) {
        const T k1 = static_cast<T>((4 * m + 1) * (4 * m + 1));  // (2j+1)^2, j = 2m
        const T k2 = static_cast<T>((4 * m + 3) * (4 * m + 3));  // (2j+1)^2, j = 2m+1
        const T w1 = fma_t(k1, H, k.K);
        const T p1 = fma_t(w1, w1, -(k1 * k.G));
        const T w2 = fma_t(k2, H, k.K);
        const T p2 = fma_t(w2, w2, -(k2 * k.G));
        const T num = fma_t(w1, p2, w2 * p1);
        const T r = rcp(p1 * p2);
        if (m % 2 == 0)
            acc0 = fma_t(num, r, acc0);
        else
            acc1 = fma_t(num, r, acc1);
    }
    return acc0 + acc1;
}

}  // namespace pi
