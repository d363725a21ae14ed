// The epoch of a launch of a single-pass scan whose tile descriptors stay in device memory from
// one launch to the next (lookback's and lookahead's, scan_kernels.cu): a descriptor counts for
// a launch only when it carries that launch's epoch, so the array needs no clearing between
// launches. 0 is the cleared state (cudaMemset), never a launch's epoch. Host code (no CUDA
// headers: the unit tests include it with the host compiler).
#pragma once

namespace tile_epoch {

// The epochs a descriptor can tell apart: lookback's 30 bits (two status bits beside them in
// the word's high half), the ws kernel's 32 (ws_tile_state.cuh: the whole high half).
constexpr unsigned long long kLookbackLimit = 1ull << 30;
constexpr unsigned long long kWsLimit = 1ull << 32;

// Sets `epoch` to the next launch's, in 1 .. limit - 1. Returns true where it wrapped back to 1:
// the caller then clears the descriptors before that launch, so that none left by the launch
// that had epoch 1 before (limit - 1 launches ago) passes for this launch's.
inline bool advance(unsigned& epoch, unsigned long long limit) {
    const unsigned long long next = static_cast<unsigned long long>(epoch) + 1;
    if (next < limit) {
        epoch = static_cast<unsigned>(next);
        return false;
    }
    epoch = 1;
    return true;
}

}  // namespace tile_epoch
