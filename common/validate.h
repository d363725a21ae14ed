// Validation against the CPU reference: exact comparison for integers (and for max), error
// measures for floating-point results, and the greppable "Result = PASS|FAIL" line.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <type_traits>

#include "exit_codes.h"

namespace cw {

// Exact comparison. Floating-point values compare bitwise-equal except that any NaN equals
// any NaN (a maximum over data with a NaN may return either payload).
template <typename T>
inline bool same_value(T a, T b) {
    return a == b || (std::is_floating_point<T>::value && std::isnan(static_cast<double>(a)) &&
                      std::isnan(static_cast<double>(b)));
}

struct ExactComparison {
    std::size_t mismatches = 0;
    std::size_t first_mismatch = 0;  // valid when mismatches > 0
    bool ok() const { return mismatches == 0; }
};

template <typename T>
inline ExactComparison compare_exact(const T* got, const T* want, std::size_t n) {
    ExactComparison c;
    for (std::size_t i = 0; i < n; ++i) {
        if (!same_value(got[i], want[i])) {
            if (c.mismatches == 0) c.first_mismatch = i;
            ++c.mismatches;
        }
    }
    return c;
}

// Largest |got - want|; NaN in either makes the result NaN (so it never passes a bound).
template <typename T, typename U>
inline double max_abs_error(const T* got, const U* want, std::size_t n) {
    double worst = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double e = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
        if (std::isnan(e)) return NAN;
        if (e > worst) worst = e;
    }
    return worst;
}

// Largest |got - want| / |want|; where want == 0 the absolute error is used.
template <typename T, typename U>
inline double max_rel_error(const T* got, const U* want, std::size_t n) {
    double worst = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double w = static_cast<double>(want[i]);
        const double d = std::fabs(static_cast<double>(got[i]) - w);
        const double e = (w != 0.0) ? d / std::fabs(w) : d;
        if (std::isnan(e)) return NAN;
        if (e > worst) worst = e;
    }
    return worst;
}

// Mean squared error; 0 for n == 0.
template <typename T, typename U>
inline double mean_squared_error(const T* got, const U* want, std::size_t n) {
    if (n == 0) return 0.0;
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double d = static_cast<double>(got[i]) - static_cast<double>(want[i]);
        sum += d * d;
    }
    return sum / static_cast<double>(n);
}

// True when every |got - want| <= abs_tol + rel_tol * |want| (NaN never passes).
template <typename T, typename U>
inline bool within_tolerance(const T* got, const U* want, std::size_t n, double rel_tol, double abs_tol) {
    for (std::size_t i = 0; i < n; ++i) {
        const double w = static_cast<double>(want[i]);
        const double d = std::fabs(static_cast<double>(got[i]) - w);
        if (!(d <= abs_tol + rel_tol * std::fabs(w))) return false;
    }
    return true;
}

// Collects per-version outcomes, prints "<program> version=<label> ...: Result = PASS|FAIL"
// (or "...: demonstration, not validated" for a labelled demonstration) and gives the exit
// status.
class ResultBook {
  public:
    explicit ResultBook(std::string program) : program_(std::move(program)) {}
    bool record(const std::string& version, bool ok, const std::string& detail = "") {
        std::printf("%s version=%s%s%s: Result = %s\n", program_.c_str(), version.c_str(),
                    detail.empty() ? "" : " ", detail.c_str(), ok ? "PASS" : "FAIL");
        std::fflush(stdout);
        ++checked_;
        if (!ok) ++failed_;
        return ok;
    }
    // A demonstration's outcome: printed, never counted.
    void demonstration(const std::string& version, const std::string& detail) {
        std::printf("%s version=%s%s%s: demonstration, not validated\n", program_.c_str(), version.c_str(),
                    detail.empty() ? "" : " ", detail.c_str());
        std::fflush(stdout);
        ++demonstrations_;
    }
    int failed() const { return failed_; }
    int checked() const { return checked_; }
    int demonstrations() const { return demonstrations_; }
    int exit_status() const { return failed_ == 0 ? kExitOk : kExitWrongResult; }
    // "N of M version runs passed (D demonstrations)".
    void print_summary() const {
        std::printf("%d of %d version runs passed", checked_ - failed_, checked_);
        if (demonstrations_ > 0) std::printf(", %d demonstration run(s) not validated", demonstrations_);
        std::printf("\n");
        std::fflush(stdout);
    }

  private:
    std::string program_;
    int checked_ = 0, failed_ = 0, demonstrations_ = 0;
};

}  // namespace cw
