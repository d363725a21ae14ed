// Host-side planning of the scan versions (see scan_plan.h).
#include "scan_plan.h"

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "common.h"

namespace scan_plan {

std::size_t ceil_div(std::size_t a, std::size_t b) { return a / b + (a % b != 0 ? 1 : 0); }

bool is_power_of_two(long long x) { return x > 0 && (x & (x - 1)) == 0; }

int hillis_steele_steps(std::size_t n) {
    int steps = 0;
    for (std::size_t offset = 1; offset < n; offset *= 2) ++steps;
    return steps;
}

const std::vector<std::string>& data_patterns() {
    static const std::vector<std::string> patterns = {"random", "full", "negative", "extreme", "iota"};
    return patterns;
}

bool pattern_is_prefix_stable(const std::string& pattern) { return pattern != "extreme"; }

void fill_pattern(const std::string& pattern, std::int32_t* data, std::size_t n, std::uint64_t seed) {
    if (pattern == "random" || pattern == "extreme") {
        cw::fill_uniform_int(data, n, -1000, 1000, seed);
        if (pattern == "extreme" && n > 0) {
            data[n / 2] = std::numeric_limits<std::int32_t>::max();
            data[n - 1] = std::numeric_limits<std::int32_t>::min();
        }
    } else if (pattern == "full") {
        cw::fill_uniform_int(data, n, std::numeric_limits<std::int32_t>::min(),
                             std::numeric_limits<std::int32_t>::max(), seed);
    } else if (pattern == "negative") {
        cw::fill_uniform_int(data, n, -1000, -1, seed);
    } else if (pattern == "iota") {
        for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<std::int32_t>(i % 2147483647u) + 1;
    } else {
        throw cw::UsageError("option --data: unknown pattern '" + pattern + "'");
    }
}

std::vector<std::size_t> level_sizes(std::size_t n, std::size_t group) {
    if (group < 2) throw std::invalid_argument("level_sizes: group must be >= 2");
    std::vector<std::size_t> levels{n};
    while (levels.back() > group) levels.push_back(ceil_div(levels.back(), group));
    return levels;
}

double model_bytes_single_pass(std::size_t n) { return 2.0 * 4.0 * static_cast<double>(n); }

double model_bytes_hillis_steele_in_place(std::size_t n) {
    return 3.0 * 4.0 * static_cast<double>(n) * hillis_steele_steps(n);  // two reads and a write per step
}

double model_bytes_recursive(std::size_t n, std::size_t group) {
    const double b = 4.0;  // bytes per int32
    // Level l: its scan reads and writes it and writes the next level (the totals); the
    // add-back reads and writes it again, except on the last level.
    const std::vector<std::size_t> levels = level_sizes(n, group);
    double bytes = 0.0;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        const double size = static_cast<double>(levels[l]);
        bytes += 2.0 * b * size;                             // scan: read + write
        if (l + 1 < levels.size())                           // totals written, add-back read + write
            bytes += b * static_cast<double>(levels[l + 1]) + 2.0 * b * size;
    }
    return bytes;
}

}  // namespace scan_plan
