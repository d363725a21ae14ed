// Host-side planning of the scan versions (see scan_plan.h).
#include "scan_plan.h"

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "common.h"

namespace scan_plan {

std::size_t ceil_div(std::size_t a, std::size_t b) { return a / b + (a % b != 0 ? 1 : 0); }

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

double model_bytes_map_brent_kung(std::size_t n, std::size_t per_thread, std::size_t group) {
    const double b = 4.0;
    const std::size_t chunks = ceil_div(n, per_thread);
    if (chunks <= 1) return 2.0 * b * static_cast<double>(n);
    return 2.0 * b * static_cast<double>(n) + b * static_cast<double>(chunks) +  // chunks scanned, totals written
           model_bytes_recursive(chunks, group) +                                // totals scanned
           2.0 * b * static_cast<double>(n - per_thread);                        // add-back
}

namespace {
int log2_exact(std::size_t s) {
    int l = 0;
    while ((static_cast<std::size_t>(1) << l) < s) ++l;
    return l;
}
}  // namespace

double additions_serial(std::size_t n) { return n > 0 ? static_cast<double>(n - 1) : 0.0; }

double additions_hillis_steele(std::size_t n) {
    double adds = 0.0;
    for (std::size_t offset = 1; offset < n; offset *= 2) adds += static_cast<double>(n - offset);
    return adds;
}

double additions_brent_kung(std::size_t n, std::size_t group) {
    const std::vector<std::size_t> levels = level_sizes(n, group);
    const double per_block = 2.0 * static_cast<double>(group) - 2.0 - log2_exact(group);
    double adds = 0.0;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        adds += static_cast<double>(ceil_div(levels[l], group)) * per_block;
        if (l + 1 < levels.size()) adds += static_cast<double>(levels[l] - group);
    }
    return adds;
}

double additions_map(std::size_t n, std::size_t k) {
    const std::vector<std::size_t> levels = level_sizes(n, k);
    double adds = 0.0;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        const std::size_t m = levels[l];
        adds += static_cast<double>(m - ceil_div(m, k));
        if (l + 1 < levels.size()) adds += static_cast<double>(m - k);
    }
    return adds;
}

double additions_map_brent_kung(std::size_t n, std::size_t k, std::size_t group) {
    if (n <= k) return additions_serial(n);
    const std::size_t chunks = ceil_div(n, k);
    return static_cast<double>(n - chunks) + additions_brent_kung(chunks, group) + static_cast<double>(n - k);
}

double additions_lookback(std::size_t n, std::size_t threads, std::size_t items) {
    const double tiles = static_cast<double>(ceil_div(n, threads * items));
    const double warps = static_cast<double>(threads / 32);
    const double t = static_cast<double>(threads), i = static_cast<double>(items);
    const double per_tile = t * (i - 1.0)      // serial scans of the thread chunks
                            + warps * 129.0    // warp scans of the 32 thread totals
                            + warps * 31.0 * i // thread prefixes (lanes 1..31)
                            + (warps - 1.0)    // the block's warp totals
                            + 1.0              // look-back: prefix + aggregate
                            + warps            // each warp's offset: tile prefix + warp prefix
                            + t * i;           // the tile's offset
    return tiles * per_tile;
}

}  // namespace scan_plan
