// colreduce's tuning, in one place: the tall versions' block size, unrolling and grid (the
// report's versions keep the report's own launches, colreduce_versions.cu). Its kernels
// (colreduce_kernels.cu), registry (colreduce_versions.cu) and driver (main.cu) include this
// header; nothing else states these values.
#pragma once

#include <algorithm>

namespace colreduce {

// The tuning of the tall versions (tall, tall_det), in one place: block size, unrolling and
// grid (tall_det's last block sums the partial rows with the same block size). It does not
// depend on the device, so it is one constant, kTallPolicy (the measurements behind it are
// in results/colreduce.csv; --threads and --blocks override it for experiments). A choice
// that depends on the device would become `static TallPolicy for_device(const cw::DeviceInfo&)`.
struct TallPolicy {
    // Compile-time limits of the kernels: __launch_bounds__(kMaxThreads) and shared arrays of
    // 2 * kMaxThreads doubles.
    static constexpr int kMaxThreads = 1024;
    // Grid-stride iterations unrolled per thread: kUnroll independent 16-byte loads in flight.
    static constexpr int kUnroll = 4;

    int threads;  // target threads per block (--threads=0), rounded by block_size()

    // Threads per block for n columns: a multiple of q = n / gcd(n, 2) (so that each thread
    // keeps the same two columns over the whole grid-stride loop), the largest not above
    // `requested` (0: this policy's `threads`), and at least q (q <= 1023 since n <= 1024).
    int block_size(int n, int requested) const {
        const int q = (n % 2 == 0) ? n / 2 : n;
        const int t = requested > 0 ? requested : threads;
        return std::max(q, (t / q) * q);
    }
};
constexpr TallPolicy kTallPolicy{1024};

}  // namespace colreduce
