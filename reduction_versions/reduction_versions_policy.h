// reduction_versions' tuning, in one place: the block sizes under --threads=0, the grids under
// --blocks=0, the block sizes the templated versions are built for, and the elements per
// thread the kernels' code fixes. Its kernels (reduction_versions_kernels.cu), registry
// (reduction_versions_versions.cu) and experiments include this header; nothing else states
// these values.
#pragma once

namespace rv {

// The tuning of the versions: block sizes under --threads=0 (automatic), grids under
// --blocks=0 (automatic). It does not depend on the device: one constant (kPolicy);
// results/threads.csv measures the block sizes against each other.
struct Policy {
    int threads_tree;         // versions 1-6 and 5-unfixed: block size
    int threads_grid_stride;  // version 7: block size
    int threads_vectorized;   // version 8: block size
    // Versions 7 and 8 under --blocks=0: the grid is grid_waves x the blocks resident at once
    // (occupancy x SMs, cw::occupancy_grid), capped by the blocks the work needs.
    int grid_waves;
    // Version 8 on large inputs: more blocks than are resident at once, so that blocks that
    // finish early are replaced and DRAM sees more loads in flight towards the end, with
    // vectorized_ints_per_thread ints per thread at least (below it, one wave of resident
    // blocks: extra blocks cost more in their atomics than they bring), and at most
    // vectorized_max_waves waves (experiments/results/<gpu>/v8_grid.csv measures the grid against CUB on both GPUs).
    int vectorized_ints_per_thread;
    int vectorized_max_waves;
    // Elements per thread per grid step. These are fixed by the kernels' code (they are not
    // free tuning knobs); they are stated here so that the host's grid arithmetic and the
    // kernels agree in one place.
    static constexpr int kItemsPerThreadTree = 1;      // versions 1-3: one load per thread
    static constexpr int kItemsPerThreadFirstAdd = 2;  // versions 4-7 and 5-unfixed: two loads per thread
    static constexpr int kIntsPerVector = 4;           // version 8: one 16-byte int4 load = 4 ints
    static constexpr int kVectorsInFlight = 4;         // version 8: independent int4 loads per thread per iteration
};

constexpr Policy make_policy() {
    Policy p{};
    p.threads_tree = 256;
    p.threads_grid_stride = 256;
    p.threads_vectorized = 256;
    p.grid_waves = 1;
    p.vectorized_ints_per_thread = 128;
    p.vectorized_max_waves = 8;
    return p;
}
constexpr Policy kPolicy = make_policy();

// The block sizes the templated versions (6, 7) are instantiated for; --threads accepts
// exactly these (or 0, automatic). Any other size reaching their dispatch is an internal
// error (std::logic_error), never a silent launch of another instantiation.
constexpr int kBlockSizes[] = {64, 128, 256, 512, 1024};

}  // namespace rv
