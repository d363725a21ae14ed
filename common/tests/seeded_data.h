// A GoogleTest check shared by the unit tests of every seeded data generator (common/data.h,
// colreduce's matrices, reduction_versions' ints): the same seed gives the same numbers and
// the next seed other numbers. Included as "tests/seeded_data.h" (common/ is on the path).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cw_test {

// fill(data, n, seed) fills data[0, n) from `seed`. Returns the n values of `seed`, for the
// test's own checks of their range and distribution.
template <typename T, typename Fill>
std::vector<T> expect_seeded(Fill fill, std::size_t n, std::uint64_t seed) {
    std::vector<T> a(n), b(n), c(n);
    fill(a.data(), n, seed);
    fill(b.data(), n, seed);
    fill(c.data(), n, seed + 1);
    EXPECT_EQ(a, b) << "seed " << seed << " twice";
    EXPECT_NE(a, c) << "seeds " << seed << " and " << seed + 1;
    return a;
}

}  // namespace cw_test
