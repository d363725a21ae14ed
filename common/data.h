// Seeded data generation that gives the same numbers on every compiler and platform
// (std::uniform_*_distribution does not), so a seed names a data set.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cw {

// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and good enough for test data.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next_u64() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1) with 53 random bits.
    double next_unit() { return static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0); }
    // Uniform integer in [lo, hi] (hi - lo < 2^32; the modulo bias is below 2^-32).
    long long next_int(long long lo, long long hi) {
        const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
        return lo + static_cast<long long>(next_u64() % span);
    }

  private:
    std::uint64_t state_;
};

// Uniform in the open interval (lo, hi): the end points themselves are never produced.
template <typename T>
inline void fill_uniform(T* data, std::size_t n, double lo, double hi, std::uint64_t seed) {
    Rng rng(seed);
    for (std::size_t i = 0; i < n; ++i) {
        T v;
        do {
            v = static_cast<T>(lo + (hi - lo) * rng.next_unit());
        } while (!(v > static_cast<T>(lo) && v < static_cast<T>(hi)));
        data[i] = v;
    }
}

// Uniform integers in [lo, hi].
template <typename T>
inline void fill_uniform_int(T* data, std::size_t n, long long lo, long long hi, std::uint64_t seed) {
    Rng rng(seed);
    for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<T>(rng.next_int(lo, hi));
}

}  // namespace cw
