// The look-back scan's tile load, shared by its kernel (scan_kernels.cu) and the experiments
// that measure its data path (experiments/tile_copy.cuh, experiments/lookback_tuning.cu), so
// that what they measure is the committed code, not a copy of it.
#pragma once

#include <cstddef>

namespace scan_tile {

// Shared-memory index with one pad word per 32: both the striped pattern (4 consecutive
// words per lane) and the blocked one (16 or 32 consecutive words per lane: padded index
// lane * 33 + i, or lane * 16 + lane / 2 + i) hit 32 different banks.
__device__ __forceinline__ int padded(int e) { return e + (e >> 5); }

// The warp's kItems * 32 ints of a tile, from warp_base, striped (coalesced) from global
// memory into the warp's padded shared region `ws`: 16-byte loads where the whole tile lies
// inside the input (full_tile; the input 16-byte aligned), else one int per lane and step with
// bounds, zeros past n. kStreaming: evict-first loads (__ldcs).
template <int kItems, bool kStreaming = false>
__device__ __forceinline__ void load_warp_items(const unsigned* __restrict__ in, std::size_t n,
                                                std::size_t warp_base, bool full_tile, int lane, unsigned* ws) {
    static_assert(kItems % 4 == 0, "uint4 loads");
    if (full_tile) {
        const uint4* in4 = reinterpret_cast<const uint4*>(in + warp_base);
#pragma unroll
        for (int j = 0; j < kItems / 4; ++j) {
            const uint4 v = kStreaming ? __ldcs(in4 + j * 32 + lane) : in4[j * 32 + lane];
            const int e = (j * 32 + lane) * 4;
            ws[padded(e)] = v.x;
            ws[padded(e + 1)] = v.y;
            ws[padded(e + 2)] = v.z;
            ws[padded(e + 3)] = v.w;
        }
    } else {
#pragma unroll
        for (int j = 0; j < kItems; ++j) {
            const int e = j * 32 + lane;
            const std::size_t i = warp_base + e;
            ws[padded(e)] = i < n ? in[i] : 0u;
        }
    }
}

// The block's tile id, drawn from a global counter in the order blocks arrive (so every tile
// before it was drawn by a block already running: the look-back's forward progress); the last
// draw resets the counter for the next launch. Every thread of the block calls it (a barrier).
__device__ __forceinline__ unsigned draw_tile(unsigned* counter, unsigned num_tiles, unsigned& s_tile) {
    if (threadIdx.x == 0) {
        const unsigned tile = atomicAdd(counter, 1u);
        if (tile == num_tiles - 1) atomicExch(counter, 0u);
        s_tile = tile;
    }
    __syncthreads();
    return s_tile;
}

}  // namespace scan_tile
