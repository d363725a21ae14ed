// The committed look-back scan's data path without the scan, for the experiments that measure
// it (copy_budget.cu: against an injected wait; lookback_tuning.cu: "tile_copy_smem", the data
// path alone): each block copies one tile of T*I ints through the padded shared-memory tile of
// the committed kernel (striped 16-byte loads, one word of padding per 32 against bank
// conflicts, a block barrier, striped 16-byte stores), at the committed kernel's shared memory
// per block, so at its blocks per SM.
#pragma once

#include <cstddef>

#include "bulk_async.cuh"
#include "tile_io.cuh"

namespace {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// One thread, before the block's first barrier: `count` stage barriers, each completed by one
// arrival (the issuing thread's expect_tx) plus its bytes.
__device__ __forceinline__ void init_stage_barriers(unsigned long long* bars, int count) {
    for (int st = 0; st < count; ++st) bulk::init(&bars[st], 1);
    bulk::fence_init();
}
#endif

// Bank-conflict-free padding of one word per 32: the committed scan's (tile_io.cuh).
__device__ __forceinline__ int pad(int e) { return scan_tile::padded(e); }

// Every thread of the block waits `cycles` SM clock cycles (the injected work).
__device__ __forceinline__ void spin(long long cycles) {
    if (cycles <= 0) return;
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

// One tile of T*I ints per block through the padded shared-memory tile; every thread waits
// `cycles` SM clock cycles between the tile's load and its store (0: no wait). Dynamic shared
// memory: (T / 32) * (32 * I + I) words.
template <int T, int I>
__global__ void __launch_bounds__(T) copy_per_tile(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                                   std::size_t n, long long cycles) {
    constexpr int WI = 32 * I, WS = WI + WI / 32, TILE = T * I;
    static_assert(I % 4 == 0, "uint4 accesses");
    extern __shared__ unsigned s_items[];  // (T / 32) * WS words
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned* ws = s_items + warp * WS;
    const std::size_t wbase = static_cast<std::size_t>(blockIdx.x) * TILE + static_cast<std::size_t>(warp) * WI;
    const bool full = (static_cast<std::size_t>(blockIdx.x) + 1) * TILE <= n;
    scan_tile::load_warp_items<I>(in, n, wbase, full, lane, ws);
    __syncthreads();
    spin(cycles);
    if (full) {
        uint4* out4 = reinterpret_cast<uint4*>(out + wbase);
#pragma unroll
        for (int j = 0; j < I / 4; ++j) {
            const int e = (j * 32 + lane) * 4;
            out4[j * 32 + lane] = make_uint4(ws[pad(e)], ws[pad(e + 1)], ws[pad(e + 2)], ws[pad(e + 3)]);
        }
    } else {
        for (int e = lane; e < WI; e += 32)
            if (wbase + e < n) out[wbase + e] = ws[pad(e)];
    }
}

}  // namespace
