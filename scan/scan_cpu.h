// CPU reference of the scan assignment: inclusive and exclusive prefix sums of 32-bit
// integers with two's-complement wrap-around. The sums are computed in uint32_t, where
// overflow is defined (modulo 2^32), and converted back to int32_t without any
// implementation-defined or undefined step. And the error measures of GPU results against
// it. Host compiler only, no CUDA headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "csv.h"

namespace scan_cpu {

// The int32 with the same 32 bits as u (two's complement), by arithmetic alone.
std::int32_t from_bits(std::uint32_t u);

// a + b modulo 2^32, read as two's complement: INT32_MAX + 1 == INT32_MIN.
std::int32_t wrap_add(std::int32_t a, std::int32_t b);

// out[i] = in[0] + ... + in[i] (wrapping). n == 0 does nothing; in == out is allowed.
void inclusive_scan(const std::int32_t* in, std::int32_t* out, std::size_t n);

// out[0] = 0, out[i] = in[0] + ... + in[i-1] (wrapping). n == 0 does nothing; in == out is allowed.
void exclusive_scan(const std::int32_t* in, std::int32_t* out, std::size_t n);

// The errors of one or more results against the reference (the CSV's mismatches,
// first_mismatch, runs, wrong_runs, mse, mse_max, sse): a validated version's one checked
// result, or every run of a racy demonstration.
struct Errors {
    std::size_t mismatches = 0;      // the most elements any run got wrong
    std::size_t first_mismatch = 0;  // the first wrong element of any run (valid when wrong_runs > 0)
    int runs = 0, wrong_runs = 0;
    double mse_sum = 0, mse_max = 0;  // mean squared error per run: summed, largest
    double sse = 0;                   // the sum of squared errors of the first run
    double mse() const { return runs > 0 ? mse_sum / runs : 0.0; }
    // Compares one run's n results with the reference.
    void add_run(const std::int32_t* got, const std::int32_t* want, std::size_t n);
    // The result line's words: a validated result's mismatches (none when right), a
    // demonstration's errors over its runs.
    std::string text(bool validated) const;
    // The CSV columns mismatches, first_mismatch, runs, wrong_runs, mse, mse_max, sse.
    void add_columns(cw::CsvRow& row) const;
};

}  // namespace scan_cpu
