// vecmax: CPU reference (a plain loop, as the report's CPU code) and host helpers.
#include "vecmax_cpu.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "data.h"

namespace vecmax {

float max_reference(const float* x, std::size_t n) {
    float m = -std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        if (v != v) return v;  // NaN policy: a NaN anywhere makes the maximum NaN
        if (v > m) m = v;
    }
    return m;
}

const std::vector<std::string>& data_patterns() {
    static const std::vector<std::string> patterns = {"uniform",    "negative", "spike", "spike_first",
                                                      "spike_last", "nan",      "neg_inf"};
    return patterns;
}

std::size_t pattern_position(std::size_t n, std::uint64_t seed) {
    cw::Rng rng(seed ^ 0x5DEECE66DULL);
    return static_cast<std::size_t>(rng.next_int(0, static_cast<long long>(n) - 1));
}

void fill_pattern(float* x, std::size_t n, const std::string& pattern, std::uint64_t seed) {
    if (n == 0) return;
    if (pattern == "neg_inf") {
        for (std::size_t i = 0; i < n; ++i) x[i] = -std::numeric_limits<float>::infinity();
        return;
    }
    if (pattern == "negative") {
        cw::fill_uniform(x, n, -2.0, -1.0, seed);
        return;
    }
    cw::fill_uniform(x, n, -1.0, 1.0, seed);
    if (pattern == "uniform") return;
    if (pattern == "spike") {
        x[pattern_position(n, seed)] = 2.0f;
    } else if (pattern == "spike_first") {
        x[0] = 2.0f;
    } else if (pattern == "spike_last") {
        x[n - 1] = 2.0f;
    } else if (pattern == "nan") {
        x[pattern_position(n, seed)] = std::numeric_limits<float>::quiet_NaN();
    } else {
        throw std::invalid_argument("unknown data pattern '" + pattern + "'");
    }
}

double relative_error(float gpu, float cpu) {
    const bool gn = std::isnan(gpu), cn = std::isnan(cpu);
    if (gn || cn) return (gn && cn) ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    if (gpu == cpu) return 0.0;  // also +-inf equal
    const double d = std::fabs(static_cast<double>(gpu) - static_cast<double>(cpu));
    return cpu != 0.0f ? d / std::fabs(static_cast<double>(cpu)) : d;
}

double comparisons_gflops(std::size_t n, double ms) {
    return ms > 0.0 ? static_cast<double>(n) / (ms * 1.0e6) : 0.0;
}

}  // namespace vecmax
