// GPU test of the ws kernel's tile state (ws_tile_state.cuh), as CUB tests its look-back: over
// generated tile counts and data, a kernel in which every tile publishes its aggregate and
// finds its exclusive prefix by TileState::sum, chained as the ws kernel's look-ahead warps
// chain it (each warp's previous tile and prefix, plus the aggregates in between), checked
// against the host's prefix; each case is several consecutive launches on one descriptor
// array with new data and the epoch advanced by tile_epoch::advance, and one case crosses the
// epoch's wrap with descriptors left over from an earlier launch of epoch 1 (the clear must
// hide them). Tile ids are drawn from a counter, so a tile waits only for tiles already drawn,
// whose warps publish before they wait: no assumption on which blocks are resident.
//
//   build/tests/tile_state_test      (tests/test_gpu.py runs it; exit 1 if any prefix is wrong)
//
// Without sm_90 code for the device (the tile state exists only there), one line saying so and
// exit 0.
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "common.cuh"
#include "scan_policy.h"
#include "tile_epoch.h"
#include "ws_tile_state.cuh"

namespace {

constexpr int kLa = scan_policy::LookaheadPolicy::kDescsPerLane;  // the program's descriptors per lane

// One warp per block: draw a tile, publish its aggregate, sum the aggregates since the warp's
// previous tile (from tile 0 for its first), write the tile's exclusive prefix.
template <int LA>
__global__ void tile_state_kernel(const unsigned* agg, unsigned* prefix, unsigned long long* desc, unsigned* counter,
                                  unsigned num_tiles, unsigned epoch) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const int lane = threadIdx.x & 31;
    const ws::TileState state(desc, epoch);
    unsigned prev = 0, prev_prefix = 0;
    for (;;) {
        unsigned t = lane == 0 ? atomicAdd(counter, 1u) : 0u;
        t = __shfl_sync(0xffffffffu, t, 0);
        if (t >= num_tiles) break;
        if (lane == 0) state.publish(t, agg[t]);
        const unsigned p = state.sum<LA>(prev, t, prev_prefix, lane);
        if (lane == 0) prefix[t] = p;
        prev = t;
        prev_prefix = p;
    }
#endif
}

// The workspace of one tile count, kept across a case's launches as the program keeps it.
struct Workspace {
    cw::DeviceBuffer<unsigned> agg, prefix, counter;
    cw::DeviceBuffer<unsigned long long> desc;
    unsigned epoch = 0;
    explicit Workspace(std::size_t tiles) : agg(tiles), prefix(tiles), counter(1), desc(tiles) {
        CUDA_CHECK(cudaMemset(desc.data(), 0, tiles * sizeof(unsigned long long)));
    }
};

// Positions where got and want differ (the first printed).
std::size_t count_wrong(const std::vector<unsigned>& got, const std::vector<unsigned>& want, const std::string& what) {
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < want.size(); ++i)
        if (got[i] != want[i] && wrong++ == 0)
            std::printf("  %s: tile %zu: prefix %u, want %u\n", what.c_str(), i, got[i], want[i]);
    return wrong;
}

// One launch of `blocks` warps over `tiles` tiles with new aggregates (seed); true where every
// exclusive prefix matches the host's.
template <int LA>
bool launch_and_check(Workspace& w, std::size_t tiles, unsigned blocks, std::uint64_t seed, const std::string& what) {
    std::vector<unsigned> agg(tiles), want(tiles), got(tiles);
    cw::Rng rng(seed);
    for (auto& a : agg) a = static_cast<unsigned>(rng.next_u64());  // the whole 32-bit range: the sums wrap
    unsigned run = 0;
    for (std::size_t t = 0; t < tiles; ++t) {
        want[t] = run;
        run += agg[t];
    }
    CUDA_CHECK(cudaMemcpy(w.agg.data(), agg.data(), tiles * sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(w.prefix.data(), 0xa5, tiles * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(w.counter.data(), 0, sizeof(unsigned)));
    if (tile_epoch::advance(w.epoch, tile_epoch::kWsLimit))
        CUDA_CHECK(cudaMemset(w.desc.data(), 0, tiles * sizeof(unsigned long long)));
    tile_state_kernel<LA><<<blocks, 32>>>(w.agg.data(), w.prefix.data(), w.desc.data(), w.counter.data(),
                                          static_cast<unsigned>(tiles), w.epoch);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(got.data(), w.prefix.data(), tiles * sizeof(unsigned), cudaMemcpyDeviceToHost));
    return count_wrong(got, want, what) == 0;
}

// Descriptors as a launch of epoch 1 left them, with aggregates the next data does not have.
void leave_stale_epoch_1(Workspace& w, std::size_t tiles) {
    std::vector<unsigned long long> stale(tiles, (1ull << 32) | 0x12345u);
    CUDA_CHECK(cudaMemcpy(w.desc.data(), stale.data(), tiles * sizeof(unsigned long long), cudaMemcpyHostToDevice));
}

// The comparison must see a planted difference.
bool comparison_catches_a_difference() {
    const std::vector<unsigned> want = {1, 2, 3};
    std::vector<unsigned> got = want;
    got[1] ^= 1u;
    return count_wrong(got, want, "planted difference (expected)") == 1;
}

int run() {
    const cw::DeviceInfo dev = cw::select_device(0);
    std::printf("%s\n", dev.describe().c_str());
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, tile_state_kernel<kLa>));
    if (attr.binaryVersion < 90 || attr.ptxVersion < 90) {
        std::printf("tile_state_test: no sm_90 code for this device (sm_%d code from compute_%d): skipped\n",
                    attr.binaryVersion, attr.ptxVersion);
        return 0;
    }
    if (!comparison_catches_a_difference()) throw std::runtime_error("tile_state_test: the comparison is broken");
    // Tile counts: one, two, around a warp, a round of the program's look-ahead (16 x 32), a
    // prime, tens of thousands; grids: one warp (every sum one tile long), a few, many (first
    // sums of up to thousands of tiles, several rounds each).
    const std::vector<std::size_t> counts = {1, 2, 31, 32, 33, 511, 512, 513, 1000, 7919, 65537};
    const std::vector<unsigned> grids = {1, 7, 2048};
    constexpr int kLaunches = 3;
    std::printf("planned: %zu runs\n", 2 * counts.size() * grids.size() + 1);
    int failures = 0;
    std::uint64_t seed = 1;
    for (std::size_t tiles : counts) {
        for (unsigned grid : grids) {
            for (int la = 0; la < 2; ++la) {  // the program's descriptors per lane, and one (many rounds)
                Workspace w(tiles);
                bool ok = true;
                const std::string what = "tiles=" + std::to_string(tiles) + " grid=" + std::to_string(grid) +
                                         (la == 0 ? " la=program's" : " la=1");
                for (int l = 0; l < kLaunches; ++l)
                    ok = (la == 0 ? launch_and_check<kLa>(w, tiles, grid, seed++, what)
                                  : launch_and_check<1>(w, tiles, grid, seed++, what)) &&
                         ok;
                std::printf("%s, %d launches: Result = %s\n", what.c_str(), kLaunches, ok ? "PASS" : "FAIL");
                failures += ok ? 0 : 1;
            }
        }
    }
    // The wrap: epochs 2^32 - 2, 2^32 - 1, then back to 1 over descriptors an epoch-1 launch left.
    {
        const std::size_t tiles = 7919;
        Workspace w(tiles);
        w.epoch = static_cast<unsigned>(tile_epoch::kWsLimit - 3);
        bool ok = true;
        for (int l = 0; l < 2; ++l) ok = launch_and_check<kLa>(w, tiles, 64, seed++, "before the wrap") && ok;
        leave_stale_epoch_1(w, tiles);
        ok = launch_and_check<kLa>(w, tiles, 64, seed++, "across the wrap") && ok && w.epoch == 1;
        std::printf("epoch wrap, tiles=%zu: Result = %s\n", tiles, ok ? "PASS" : "FAIL");
        failures += ok ? 0 : 1;
    }
    return failures == 0 ? 0 : 1;
}

}  // namespace

int main() { return cw::run_main("tile_state_test", [&]() { return run(); }); }
