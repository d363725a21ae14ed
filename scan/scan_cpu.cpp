// CPU reference of the scan assignment (see scan_cpu.h).
#include "scan_cpu.h"

#include <algorithm>

#include "format.h"
#include "validate.h"

namespace scan_cpu {

std::int32_t from_bits(std::uint32_t u) {
    if (u <= 0x7fffffffu) return static_cast<std::int32_t>(u);
    // u >= 2^31: the value is u - 2^32 = -(2^32 - u) = -(~u) - 1, with ~u <= 2^31 - 1.
    return -static_cast<std::int32_t>(~u) - 1;
}

std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
    return from_bits(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

void inclusive_scan(const std::int32_t* in, std::int32_t* out, std::size_t n) {
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sum += static_cast<std::uint32_t>(in[i]);
        out[i] = from_bits(sum);
    }
}

void exclusive_scan(const std::int32_t* in, std::int32_t* out, std::size_t n) {
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t x = static_cast<std::uint32_t>(in[i]);  // read before out[i] (in == out)
        out[i] = from_bits(sum);
        sum += x;
    }
}

void Errors::add_run(const std::int32_t* got, const std::int32_t* want, std::size_t n) {
    const cw::ExactComparison c = cw::compare_exact(got, want, n);
    const double mse = c.ok() ? 0.0 : cw::mean_squared_error(got, want, n);  // an exact result has none
    if (runs == 0) sse = mse * static_cast<double>(n);
    if (!c.ok()) {
        if (wrong_runs == 0 || c.first_mismatch < first_mismatch) first_mismatch = c.first_mismatch;
        mismatches = std::max(mismatches, c.mismatches);
        ++wrong_runs;
    }
    ++runs;
    mse_sum += mse;
    mse_max = std::max(mse_max, mse);
}

std::string Errors::text(bool validated) const {
    if (validated) return wrong_runs == 0 ? "" : cw::format(" mismatches=%zu first at %zu", mismatches, first_mismatch);
    return cw::format(" racy: mse=%.6g sse(run 1)=%.10g, %d of %d runs wrong", mse(), sse, wrong_runs, runs) +
           (wrong_runs > 0 ? cw::format(", first wrong element %zu", first_mismatch) : "");
}

void Errors::add_columns(cw::CsvRow& row) const {
    row.add("mismatches", static_cast<long long>(mismatches));
    if (mismatches > 0) row.add("first_mismatch", static_cast<long long>(first_mismatch));
    else row.add_na("first_mismatch");
    row.add("runs", runs).add("wrong_runs", wrong_runs).add("mse", mse(), 8).add("mse_max", mse_max, 8);
    row.add("sse", sse, 12);
}

}  // namespace scan_cpu
