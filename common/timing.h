// Host-side timing: steady-clock stopwatch and median of repeated runs. GPU timing with
// CUDA events is in gpu_timing.cuh and reuses median() from here.
#pragma once

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

namespace cw {

// Median of the samples (mean of the two middle ones for an even count).
inline double median(std::vector<double> samples) {
    if (samples.empty()) throw std::invalid_argument("median of no samples");
    const std::size_t mid = samples.size() / 2;
    std::nth_element(samples.begin(), samples.begin() + mid, samples.end());
    const double upper = samples[mid];
    if (samples.size() % 2 == 1) return upper;
    const double lower = *std::max_element(samples.begin(), samples.begin() + mid);
    return 0.5 * (lower + upper);
}

class HostStopwatch {
  public:
    HostStopwatch() : start_(std::chrono::steady_clock::now()) {}
    void restart() { start_ = std::chrono::steady_clock::now(); }
    double elapsed_ms() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    }

  private:
    std::chrono::steady_clock::time_point start_;
};

// Timing of repeated runs: every sample and its median.
struct Timing {
    std::vector<double> samples_ms;
    double median_ms() const { return median(samples_ms); }
    double min_ms() const { return *std::min_element(samples_ms.begin(), samples_ms.end()); }
};

// Runs fn() `warmup` times untimed, then `repeat` times timed with the steady clock.
template <typename Fn>
Timing time_host(int warmup, int repeat, Fn&& fn) {
    if (repeat < 1) throw std::invalid_argument("time_host: repeat must be >= 1");
    for (int i = 0; i < warmup; ++i) fn();
    Timing t;
    for (int i = 0; i < repeat; ++i) {
        HostStopwatch watch;
        fn();
        t.samples_ms.push_back(watch.elapsed_ms());
    }
    return t;
}

// GB/s for `bytes` moved in `ms` milliseconds (10^9 bytes per GB).
inline double gigabytes_per_second(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1.0e6) : 0.0; }

}  // namespace cw
