// The map scan's chunk (version=map's kernel 1, scan_kernels.cu's map_scan_chunks), shared
// with the experiment that times it block by block (experiments/sm_activity.cu), so that what
// it measures is the committed code, not a copy of it.
#pragma once

#include <cstddef>

namespace scan_map {

// version=map, kernel 1 (and the scan of every level of totals): each thread scans
// per_thread consecutive elements serially and writes its chunk's total.
// - the report's bounds test lost its `break` (it added only when i >= n, out of bounds):
//   here the chunk simply ends at min(start + per_thread, n).
// - the report read the total from a[endPoint - 1], past the end for the last chunk: here
//   the running sum itself is the total.
// - out-of-place (in == out is allowed: each element is read before it is written, by the
//   same thread), so that the timed runs all start from the same input.
template <bool kExclusive>
__device__ __forceinline__ void scan_chunk(const unsigned* in, unsigned* out, unsigned* totals, std::size_t n,
                                           int per_thread) {
    const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t start = t * static_cast<std::size_t>(per_thread);
    if (start >= n) return;
    const std::size_t end = start + per_thread < n ? start + per_thread : n;
    unsigned run = 0;
    for (std::size_t i = start; i < end; ++i) {
        const unsigned v = in[i];
        run += v;
        out[i] = kExclusive ? run - v : run;
    }
    if (totals != nullptr) totals[t] = run;
}

}  // namespace scan_map
