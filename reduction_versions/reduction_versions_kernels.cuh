// Every GPU version of the integer sum (report 004, after Harris 2007), and the host code that
// plans and enqueues them. The data are int32 held as unsigned int on the device: the same
// bits, but overflow is defined (sum modulo 2^32, see reduction_versions_cpu.h).
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime.h>

namespace rv {

enum class Version {
    kV1,         // interleaved addressing, divergent % branch
    kV2,         // interleaved addressing, strided index (bank conflicts)
    kV3,         // sequential addressing
    kV4,         // first add during the global load
    kV5,         // last warp unrolled (fixed: register + __syncwarp)
    kV6,         // complete unrolling, template block size
    kV7,         // several elements per thread, grid-stride loop
    kV8,         // int4 loads, warp shuffles, one launch (atomicAdd into a zeroed result)
    kV5Unfixed,  // the report's version 5 as printed (no volatile, no __syncwarp): demonstration only
};

struct VersionInfo {
    Version version;
    const char* label;   // the report's label (CSV column "version")
    const char* kernel;  // the kernel's name
};

// Versions 1..8 in order, then the demonstration; the library baseline ("cub") is separate.
const VersionInfo* version_table(int* count);

// Device scratch shared by all versions: two ping-pong buffers for the block partials of the
// recursive passes (each of `capacity` elements) and the single result of version 8.
struct Workspace {
    unsigned* partial_a = nullptr;
    unsigned* partial_b = nullptr;
    std::size_t capacity = 0;
    unsigned* result = nullptr;
};

// Elements each partial buffer needs for inputs up to n elements and a --blocks override.
std::size_t partial_capacity(std::size_t n, long long blocks_override);

// Blocks of `version` that fit on the device at once (SMs x occupancy): the grid of the
// grid-stride versions 7 and 8. Call outside timed regions.
int resident_blocks(Version version, int threads);

// What one enqueue did: the grid of the first launch and the number of launches (kernels;
// version 8's memset is counted in `memsets`).
struct LaunchPlan {
    long long first_grid = 0;
    int launches = 0;
    int memsets = 0;
};

// Enqueues the whole reduction of in[0..n) on `stream` and returns the device address of the
// final sum (one unsigned). Versions 1..7 run recursive passes of the same kernel on their
// block partials until one value is left; version 8 zeroes ws.result (cudaMemsetAsync) and
// finishes in one launch. `grid_cap` is resident_blocks() for versions 7 and 8 (or the
// --blocks override); it is ignored by versions 1..6, whose grid follows from n.
const unsigned* enqueue_reduction(Version version, const unsigned* in, std::size_t n, int threads,
                                  long long grid_cap, const Workspace& ws, cudaStream_t stream,
                                  LaunchPlan* plan);

}  // namespace rv
