// vecmax: the CPU reference and the host-side helpers of the driver (host compiler only, no
// CUDA headers, so the unit tests build without the toolkit).
//
// NaN policy, the same in every version (CPU reference, report, single_pass, cub): a NaN
// anywhere in the input makes the maximum NaN. The report's kernel compared with `>`, which is
// false for a NaN: its loop never took one, so it ignored every NaN, whatever the launch shape.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vecmax {

// Maximum of x[0..n-1] (n >= 1), NaN if any element is NaN; -inf for an all -inf input.
// Also the report version's host finishing step over the per-block maxima.
float max_reference(const float* x, std::size_t n);

// Seeded test data (--data=PATTERN):
//   uniform      uniform in (-1, 1), the report's data
//   negative     uniform in (-2, -1): a running maximum started at 0 or -1 is wrong
//   spike        uniform in (-1, 1) and one 2.0 at a seeded random position
//   spike_first  the same with the 2.0 at index 0
//   spike_last   the same with the 2.0 at index n-1 (the tail of a vectorised loop)
//   nan          uniform in (-1, 1) and one NaN at a seeded random position
//   neg_inf      every element -inf (CUB's DeviceReduce::Max would give -FLT_MAX)
const std::vector<std::string>& data_patterns();
void fill_pattern(float* x, std::size_t n, const std::string& pattern, std::uint64_t seed);

// The position a seeded pattern puts its single extreme element at (spike, nan).
std::size_t pattern_position(std::size_t n, std::uint64_t seed);

// |(gpu - cpu) / cpu| (the report's last column); |gpu - cpu| where cpu == 0; 0 when both
// are NaN (the same answer), NaN when only one is.
double relative_error(float gpu, float cpu);

// The report's "Gflops" for a maximum: one comparison per element, 10^9 per second.
double comparisons_gflops(std::size_t n, double ms);

}  // namespace vecmax
