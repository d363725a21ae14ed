// CPU reference and host-side helpers of reduction_versions (see reduction_versions_cpu.h).
#include "reduction_versions_cpu.h"

#include <algorithm>
#include <limits>

#include "common.h"

namespace rv {

std::int32_t wrap_to_int32(std::uint32_t u) {
    if (u <= 0x7fffffffu) return static_cast<std::int32_t>(u);
    // u >= 2^31: the value is u - 2^32 = -(2^32 - u) = -((~u) + 1); ~u <= 2^31 - 1 fits.
    return static_cast<std::int32_t>(-static_cast<std::int64_t>(~u) - 1);
}

std::int32_t sum_wrap(const std::int32_t* x, std::size_t n) {
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += static_cast<std::uint32_t>(x[i]);  // modulo 2^32
    return wrap_to_int32(sum);
}

std::int32_t sum_wrap_timed(const std::int32_t* x, std::size_t n, int repeat, double* median_ms, int* runs) {
    cw::HostStopwatch first;
    const std::int32_t sum = sum_wrap(x, n);
    const double first_ms = first.elapsed_ms();
    *runs = static_cast<int>(std::max(1.0, std::min<double>(repeat, 300.0 / std::max(first_ms, 1e-3))));
    volatile std::int32_t sink = 0;
    *median_ms = cw::time_host(0, *runs, [&]() { sink = sum_wrap(x, n); }).median_ms();
    (void)sink;
    return sum;
}

std::int64_t sum_exact(const std::int32_t* x, std::size_t n) {
    std::int64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += x[i];
    return sum;
}

DataKind parse_data_kind(const std::string& word) {
    if (word == "full") return DataKind::kFull;
    if (word == "small") return DataKind::kSmall;
    if (word == "negative") return DataKind::kNegative;
    if (word == "extreme") return DataKind::kExtreme;
    if (word == "iota") return DataKind::kIota;
    throw cw::UsageError("option --data must be one of full|small|negative|extreme|iota, got '" + word + "'");
}

void fill_data(std::int32_t* x, std::size_t n, DataKind kind, std::uint64_t seed) {
    const long long lo = std::numeric_limits<std::int32_t>::min();
    const long long hi = std::numeric_limits<std::int32_t>::max();
    switch (kind) {
        case DataKind::kFull: cw::fill_uniform_int(x, n, lo, hi, seed); break;
        case DataKind::kSmall: cw::fill_uniform_int(x, n, -1000, 1000, seed); break;
        case DataKind::kNegative: cw::fill_uniform_int(x, n, lo, -1, seed); break;
        case DataKind::kExtreme: {
            cw::fill_uniform_int(x, n, -3, 3, seed);
            if (n == 0) break;
            cw::Rng rng(seed ^ 0x5DEECE66DULL);
            const std::size_t at_max = static_cast<std::size_t>(rng.next_u64() % n);
            std::size_t at_min = static_cast<std::size_t>(rng.next_u64() % n);
            if (at_min == at_max) at_min = (at_max + 1) % n;  // n == 1: INT32_MIN alone
            x[at_max] = std::numeric_limits<std::int32_t>::max();
            x[at_min] = std::numeric_limits<std::int32_t>::min();
            break;
        }
        case DataKind::kIota:  // n <= kMaxN = 2^30, so every value fits in int32
            for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<std::int32_t>(i + 1);
            break;
    }
}

std::vector<int> parse_threads(const std::string& text) {
    if (text == "all") return {64, 128, 256, 512, 1024};
    std::vector<int> out;
    const std::vector<std::string> items = cw::split_list("threads", text);
    for (const std::string& item : items) {
        const long long t = cw::parse_integer("threads", item, 0, 1024);
        if (t == 0 && items.size() > 1)
            throw cw::UsageError("option --threads=" + text + ": 0 (automatic) cannot be listed with other block sizes");
        if (t != 0 && (t < 64 || (t & (t - 1)) != 0))
            throw cw::UsageError("option --threads=" + item + " is not 0 (automatic) or a power of two in [64, 1024]");
        for (int seen : out)
            if (seen == t) throw cw::UsageError("option --threads lists " + item + " twice");
        out.push_back(static_cast<int>(t));
    }
    return out;
}

}  // namespace rv
