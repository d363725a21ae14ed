// Every GPU version of the scan assignment (report 002), callable from the host. The device
// buffers hold int32 values as unsigned int: the same 32 bits, but with additions that wrap
// modulo 2^32 by definition (signed overflow is undefined behaviour in C++), which is the
// two's-complement wrap-around the CPU reference computes.
//
// The versions (the CSV's `version` column; the registry, scan_versions.cu, lists them):
//   hs_inplace_racy     section 1: Hillis & Steele in place, one block (racy demonstration)
//   hs_buffered         section 1 done right: double-buffered in shared memory, one block
//   hs_multiblock_racy  section 1.10: the in-place kernel launched on ceil(n/T) blocks (racy)
//   map_as_printed      section 2 as printed: one kernel, thread 0 scans the totals (racy)
//   map                 section 2: per-thread chunks, totals scanned, offsets added back
//   brent_kung          block scans, recursive scan of block sums, add back (Brent-Kung throughout)
//   map_brent_kung      section 3 as the report describes it: per-thread chunks scanned serially,
//                       the chunk totals scanned by Brent-Kung, the totals added back
//   lookback            ours: single-pass decoupled look-back (Merrill & Garland 2016)
//   lookahead           ours: the warp-specialised persistent look-ahead scan (ws_scan.cuh) on sm_90
//                       at large n, lookback's kernel elsewhere (scan_policy::LookaheadPolicy)
//   cub                 cub::DeviceScan (scan_cub.cu)
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "scan_policy.h"

namespace scan_gpu {

// One kernel launch of a version, with its theoretical occupancy from the occupancy API
// (the report's Figures 3.1 and 3.2).
struct KernelLaunch {
    std::string name;
    long long grid = 0;
    int block = 0;
    int regs = 0;                // registers per thread
    std::size_t smem_bytes = 0;  // static + dynamic shared memory per block
    int blocks_per_sm = 0;       // cudaOccupancyMaxActiveBlocksPerMultiprocessor
    double occupancy = 0.0;      // blocks_per_sm * block / max threads per SM
};

// The kernels of one version behind one call: its workspace is allocated once for scans of
// up to max_n elements and freed with it. The registry (scan_versions.cu) wraps one in the
// version's cw::Runner, which adds the plan's buffers, the in-place reset and the fetch.
class Launcher {
  public:
    Launcher() = default;
    Launcher(const Launcher&) = delete;
    Launcher& operator=(const Launcher&) = delete;
    virtual ~Launcher() = default;
    // One scan of n elements (1 <= n <= max_n), in -> out, on stream s.
    virtual void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) = 0;
    // The launches of one run: k1 = the data scan, k2 = the scan of the totals (its first
    // level), k3 = the add-back of the data (fewer where a version has fewer kernels).
    virtual std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const = 0;
    // True for a version that scans `out` in place (the racy demonstrations): its runner
    // copies the input into `out` before every run, outside the timed interval; `in` is
    // not read.
    virtual bool in_place() const { return false; }
    // Milliseconds the serial part of the last run took, measured inside the kernel (NaN:
    // the version has no serial part). Synchronises with the device.
    virtual double serial_ms() const { return NAN; }
    // What a run of n elements launches, where a version chooses between kernels (one line of
    // text for the run's output, e.g. "kernel=... (why)"); empty where it always runs the same.
    virtual std::string choice(std::size_t n) const {
        (void)n;
        return "";
    }
};

// hs_inplace_racy (section 1: one block of `threads`) and hs_multiblock_racy (section
// 1.10: ceil(n / threads) blocks): the report's in-place kernel. Racy by construction: a
// demonstration, never validated. One block covers at most `threads` elements; the rest
// is left as it was (the report's Figure 1.3).
class HillisSteeleInPlace : public Launcher {
  public:
    enum class Grid { kOneBlock, kCoverN };  // section 1's launch, section 1.10's
    HillisSteeleInPlace(int threads, Grid grid) : threads_(threads), grid_(grid) {}
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;
    bool in_place() const override { return true; }

  private:
    long long blocks(std::size_t n) const;
    int threads_;
    Grid grid_;
};

// hs_buffered: one block of `threads` threads, double-buffered in shared memory; n <=
// threads (the registry refuses more; run() fails loudly if asked).
class HillisSteeleBuffered : public Launcher {
  public:
    explicit HillisSteeleBuffered(int threads) : threads_(threads) {}
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;

  private:
    int threads_;
};

// The per-level totals of a recursive scan over groups of `group` elements: one device
// buffer for each level of scan_plan::level_sizes(max_n, group) but the data's own;
// (*this)[l] holds level l + 1. Freed with the object.
class LevelBuffers {
  public:
    LevelBuffers(std::size_t max_n, std::size_t group);
    ~LevelBuffers();
    LevelBuffers(const LevelBuffers&) = delete;
    LevelBuffers& operator=(const LevelBuffers&) = delete;
    unsigned* operator[](std::size_t l) const { return buffers_[l]; }

  private:
    std::vector<unsigned*> buffers_;
};

// map_as_printed (section 2 as printed): one launch of ceil(ceil(n / per_thread) / threads)
// blocks, in place; a demonstration (racy between blocks, see the kernel). serial_ms() is
// thread 0's serial scan of the chunk totals in the last run.
class MapAsPrinted : public Launcher {
  public:
    MapAsPrinted(std::size_t max_n, int threads, int per_thread);
    ~MapAsPrinted() override;
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;
    bool in_place() const override { return true; }
    double serial_ms() const override;

  private:
    long long blocks(std::size_t n) const;
    int threads_, per_thread_;
    unsigned* sums_ = nullptr;                 // one total per thread of the grid
    unsigned long long* serial_ns_ = nullptr;  // thread 0's clock before and after its loop
};

// map (section 2): each thread scans `per_thread` consecutive elements and writes its
// total; the totals are scanned the same way (recursively, until one thread holds them
// all); thread t then adds the scanned total of chunks 0..t to chunk t+1.
class MapScan : public Launcher {
  public:
    MapScan(std::size_t max_n, int threads, int per_thread);
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;

  private:
    int threads_, per_thread_;
    LevelBuffers totals_;  // groups of per_thread
};

// brent_kung (section 3): each block scans 2 x threads elements with the Brent-Kung
// up-sweep/down-sweep in shared memory and writes its block sum; the block sums are scanned
// the same way (recursively, until one block holds them all); every block but the first
// then adds the scanned sum of the blocks before it.
class BrentKungScan : public Launcher {
  public:
    BrentKungScan(std::size_t max_n, int threads);
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;

  private:
    int threads_;
    LevelBuffers sums_;  // groups of 2 x threads (a block's section)
};

// map_brent_kung (section 3 as the report describes it: "scan sub arrays of the input array
// with normal approach, scan the intermediate array with Brent Kung approach, reduce the
// result back to the main array"): kernel 1 is map's map_scan_chunks (each thread scans
// `per_thread` consecutive elements serially and writes its chunk's total), kernel 2 is
// brent_kung's scan of those totals (inclusive, in place; recursive beyond one block of
// 2 x threads totals, so any n works), kernel 3 is map's map_add_chunk_offsets. n <=
// per_thread is one chunk: kernel 1 alone.
class MapBrentKungScan : public Launcher {
  public:
    MapBrentKungScan(std::size_t max_n, int threads, int per_thread);
    ~MapBrentKungScan() override;
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;

  private:
    int threads_, per_thread_;
    unsigned* totals_ = nullptr;  // one total per chunk, ceil(max_n / per_thread)
    BrentKungScan totals_scan_;   // scans them (its own workspace for their block sums)
};

// lookback: single pass, one tile of policy.threads x policy.items ints per block (the
// tuning is scan_policy::LookbackPolicy's), tiles taken in order from a global counter,
// each tile's prefix found by decoupled look-back over 64-bit (status, value) descriptors
// (see the kernel's comment in scan_kernels.cu and the README). The same policy drives the
// launch and its description.
// Alignment: full tiles are loaded and stored as uint4, so `in` and `out` must be 16-byte
// aligned (cudaMalloc's are); run() refuses other pointers with a one-line error (exit 3).
class LookbackScan : public Launcher {
  public:
    LookbackScan(std::size_t max_n, const scan_policy::LookbackPolicy& policy);
    ~LookbackScan() override;
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;
    const scan_policy::LookbackPolicy& policy() const { return policy_; }

  private:
    bool block_ids(std::size_t n) const;  // tile ids by blockIdx.x at n (the grid is resident)
    scan_policy::LookbackPolicy policy_;
    std::size_t max_tiles_;
    unsigned long long* descriptors_ = nullptr;
    unsigned* tile_counter_ = nullptr;
    unsigned epoch_ = 0;
    long long resident_blocks_ = 0;  // of its kernel on the device current at construction: block ids up to it
};

// lookahead: where policy.use_ws(n), the warp-specialised persistent scan of ws_scan.cuh
// (tile shape: scan_policy::LookaheadPolicy; grid: policy.grid(n), one CTA per resident slot;
// a 64-bit descriptor per tile with a 32-bit epoch new per launch, a two-word tile counter);
// otherwise today's look-back kernel (a LookbackScan of its own, with `lookback`'s policy).
// Out of place; `in` and `out` 16-byte aligned (both kernels load and store uint4).
class LookaheadScan : public Launcher {
  public:
    LookaheadScan(std::size_t max_n, const scan_policy::LookaheadPolicy& policy,
                  const scan_policy::LookbackPolicy& fallback);
    ~LookaheadScan() override;
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;
    std::string choice(std::size_t n) const override;
    const scan_policy::LookaheadPolicy& policy() const { return policy_; }

  private:
    scan_policy::LookaheadPolicy policy_;
    LookbackScan fallback_;
    std::size_t max_tiles_ = 0;                  // ws descriptors (0: the ws kernel never runs)
    unsigned long long* descriptors_ = nullptr;  // one per ws tile
    unsigned* counter_ = nullptr;                // [0] next tile, [1] producers done
    unsigned epoch_ = 0;
};

// A host-side precondition of a launcher that the registry should have made impossible:
// "scan: internal error: <what>" on one line, exit 3.
[[noreturn]] void internal_error(const std::string& what);

}  // namespace scan_gpu
