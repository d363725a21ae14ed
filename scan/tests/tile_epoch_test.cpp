// Tier 1: the epoch of the single-pass scans' descriptors (tile_epoch.h): every launch's epoch
// differs from the previous limit - 2 launches' and is never 0 (the cleared state), and the
// caller is told to clear the descriptors exactly when it wraps.
#include <gtest/gtest.h>

#include "tile_epoch.h"

namespace {

TEST(TileEpoch, CountsUpFromTheClearedStateWithoutClearing) {
    unsigned e = 0;
    EXPECT_FALSE(tile_epoch::advance(e, tile_epoch::kWsLimit));
    EXPECT_EQ(e, 1u);
    EXPECT_FALSE(tile_epoch::advance(e, tile_epoch::kWsLimit));
    EXPECT_EQ(e, 2u);
}

TEST(TileEpoch, WsWrapsAfterTheLast32BitEpochAndAsksForAClear) {
    unsigned e = 0xfffffffeu;
    EXPECT_FALSE(tile_epoch::advance(e, tile_epoch::kWsLimit));
    EXPECT_EQ(e, 0xffffffffu);
    EXPECT_TRUE(tile_epoch::advance(e, tile_epoch::kWsLimit));
    EXPECT_EQ(e, 1u);  // never 0
    EXPECT_FALSE(tile_epoch::advance(e, tile_epoch::kWsLimit));
    EXPECT_EQ(e, 2u);
}

TEST(TileEpoch, LookbackWrapsWithinItsThirtyBits) {
    unsigned e = (1u << 30) - 2;
    EXPECT_FALSE(tile_epoch::advance(e, tile_epoch::kLookbackLimit));
    EXPECT_EQ(e, (1u << 30) - 1);
    EXPECT_TRUE(tile_epoch::advance(e, tile_epoch::kLookbackLimit));
    EXPECT_EQ(e, 1u);
}

TEST(TileEpoch, OneClearPerCycleOfASmallLimit) {
    unsigned e = 0;
    int clears = 0;
    for (int launch = 0; launch < 3 * 7; ++launch) {
        clears += tile_epoch::advance(e, 8) ? 1 : 0;
        ASSERT_GE(e, 1u);
        ASSERT_LE(e, 7u);
    }
    EXPECT_EQ(clears, 2);  // 0 -> 1..7, then 1..7 twice after a clear each
}

}  // namespace
