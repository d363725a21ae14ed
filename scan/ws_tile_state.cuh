// The tile state of the warp-specialised scan (ws_scan.cuh): one 64-bit descriptor per tile,
// (epoch << 32) | the tile's aggregate, published once by the CTA that reduced the tile; a
// reader sums the aggregates of a range of tiles, polling until every one of them carries this
// launch's epoch. There is no inclusive-prefix status (decoupled look-back's P): a tile's
// exclusive prefix is the prefix of an earlier tile of the same look-ahead warp, known
// locally, plus the aggregates in between, so no chain of waits runs through the descriptors.
//
// Memory model: a descriptor carries the value and its validity (the epoch) in one naturally
// aligned 64-bit word, written by one volatile 64-bit store and read by volatile 64-bit loads:
// PTX makes such accesses relaxed, system-scope ("morally strong") and single-copy atomic, so
// a reader that sees this launch's epoch sees the value stored with it. No CTA reads any other
// word written by another CTA, so no release/acquire fence is needed. Volatile loads are
// served by L2, the point of coherence, and re-issued on every poll. Descriptors of older
// launches carry an older epoch and read as "not yet published"; the host advances the epoch
// per launch and clears the array when it wraps (tile_epoch.h).
#pragma once

#include "tile_epoch.h"

namespace ws {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

class TileState {
  public:
    __device__ TileState(unsigned long long* desc, unsigned epoch) : desc_(desc), epoch_(epoch) {}

    // Tile `tile`'s aggregate, for this launch (one thread).
    __device__ void publish(unsigned tile, unsigned aggregate) const {
        *reinterpret_cast<volatile unsigned long long*>(desc_ + tile) =
            (static_cast<unsigned long long>(epoch_) << 32) | aggregate;
    }

    // `acc` plus the aggregates of tiles [start, end), polling until all are published. Each
    // round, lane l reads descriptors start + 32 i + l (i < LA: all loads in flight at once);
    // the run of published ones from `start` on is summed and skipped; a round that makes no
    // progress sleeps briefly. The whole warp calls it with the same arguments; the result is
    // in every lane. `rounds` (an experiment's count, else null): incremented once per round.
    template <int LA>
    __device__ unsigned sum(unsigned start, unsigned end, unsigned acc, int lane, unsigned* rounds = nullptr) const {
        const unsigned long long beyond = static_cast<unsigned long long>(epoch_) << 32;  // published, value 0
        while (start < end) {
            unsigned long long w[LA];
#pragma unroll
            for (int i = 0; i < LA; ++i) {
                const unsigned idx = start + static_cast<unsigned>(i * 32 + lane);
                w[i] = idx < end ? load(idx) : beyond;
            }
            unsigned sum = 0, count = 32 * LA;  // this lane's part of the published run, the run's length
            bool stop = false;
#pragma unroll
            for (int i = 0; i < LA; ++i) {
                const unsigned m = __ballot_sync(kFull, current(w[i]));
                if (!stop) {
                    const int first_missing = m == kFull ? 32 : __ffs(~m) - 1;
                    if (lane < first_missing) sum += static_cast<unsigned>(w[i]);
                    if (first_missing < 32) {
                        count = static_cast<unsigned>(i * 32 + first_missing);
                        stop = true;
                    }
                }
            }
            acc += __reduce_add_sync(kFull, sum);
            if (rounds != nullptr) ++*rounds;
            const unsigned advance = count < end - start ? count : end - start;
            start += advance;
            if (advance == 0) __nanosleep(64);
        }
        return acc;
    }

  private:
    static constexpr unsigned kFull = 0xffffffffu;

    __device__ unsigned long long load(unsigned tile) const {
        return *reinterpret_cast<const volatile unsigned long long*>(desc_ + tile);
    }
    // True where `word` was published by this launch.
    __device__ bool current(unsigned long long word) const { return static_cast<unsigned>(word >> 32) == epoch_; }

    unsigned long long* desc_;
    unsigned epoch_;
};

#endif

}  // namespace ws
