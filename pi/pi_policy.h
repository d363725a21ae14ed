// pi's tuning, in one place: the launch choices the program makes where the user leaves them
// open (--threads=0, --blocks=0). Its kernels (pi_kernels.cu), registry (pi_versions.cu) and
// driver (main.cu) include this header; nothing else states these values.
#pragma once

namespace pi {

// Launch tuning of pi's GPU versions. Kernels 1 and 2 have no grid choice (one thread per
// chunk of CHUNK terms: report_kernel_blocks in pi_cpu.h); version=single's grid is
// single_grid (pi_kernels.cuh). --threads=0 and --blocks=0 mean "what this policy chooses".
struct Policy {
    // Threads per block of every GPU version: a power of two from 32 to 1024 (kernel 2's
    // halving tree needs a power of two, version=single's warp sums a multiple of 32).
    int threads;
};
// One value for every architecture: the time of every version is set by the term evaluation,
// which does not depend on the block size; the block size only changes how long the block
// reductions of kernels 1 and 2 take (the threads column of results/*.csv).
constexpr Policy kPolicy{256};

}  // namespace pi
