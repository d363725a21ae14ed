// vecmax's tuning, in one place: the launch choices the program makes where the user leaves
// them open. Its kernels (vecmax_kernels.cu), registry (vecmax_versions.cu), driver (main.cu)
// and experiments (experiments/single_pass_tuning.cu) include this header; nothing else
// states these values.
#pragma once

namespace vecmax {

// version=report's automatic launch shape (--threads=0, --blocks=0): the report's best
// configuration, 1024 threads x 128 blocks. Any power of two in [1, 1024] threads and any
// number of blocks is valid; this is only the choice made when the user leaves it open.
constexpr int kReportDefaultThreads = 1024;
constexpr int kReportDefaultBlocks = 128;

// The tuning of version=single_pass: the one place where its launch shape is set
// (experiments/results/h100/single_pass_tuning.csv, from experiments/single_pass_tuning.cu, records what was
// measured and where). One value for every architecture, so a constant, not a dispatch.
//   threads  threads per block; the kernel is instantiated for this (threads, unroll) pair
//            only, and a launch with any other pair stops the program (exit 3) rather than
//            running another instantiation;
//   unroll   independent float4 loads in flight per thread per loop iteration (a power of two).
// Grid: blocks resident at once (occupancy API) x SMs, capped at one block per
// threads x unroll float4s of input (single_pass_grid, via cw::occupancy_grid): every block
// stays resident, so there is no second wave, and a small input launches no idle blocks.
// --sp-blocks replaces the grid.
struct SinglePassPolicy {
    int threads;
    int unroll;
};
constexpr SinglePassPolicy kSinglePassPolicy{1024, 4};

}  // namespace vecmax
