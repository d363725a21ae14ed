// Every GPU version of the scan assignment (report 002), callable from the host. The device
// buffers hold int32 values as unsigned int: the same 32 bits, but with additions that wrap
// modulo 2^32 by definition (signed overflow is undefined behaviour in C++), which is the
// two's-complement wrap-around the CPU reference computes.
//
// Labels (the CSV's `version` column):
//   hs_inplace_racy     section 1: Hillis & Steele in place, one block (racy demonstration)
//   hs_buffered         section 1 done right: double-buffered in shared memory, one block
//   hs_multiblock_racy  section 1.10: the in-place kernel launched on ceil(n/T) blocks (racy)
//   map                 section 2: per-thread chunks, totals scanned, offsets added back
//   brent_kung          section 3: block scans, recursive scan of block sums, add back
//   lookback            ours: single-pass decoupled look-back (Merrill & Garland 2016)
//   cub                 cub::DeviceScan (scan_cub.cu)
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <cuda_runtime.h>

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

// Section 1 (hs_inplace_racy, blocks == 1) and section 1.10 (hs_multiblock_racy, blocks ==
// ceil(n / threads)): the in-place kernel on `data`. Racy by construction: a demonstration.
void hillis_steele_inplace_racy(unsigned* data, std::size_t n, int threads, long long blocks, cudaStream_t s);
KernelLaunch hillis_steele_inplace_racy_launch(std::size_t n, int threads, long long blocks);

// hs_buffered: one block of `threads` threads; n <= threads (the caller checks).
void hillis_steele_double_buffered(const unsigned* in, unsigned* out, std::size_t n, int threads, bool exclusive,
                                   cudaStream_t s);
KernelLaunch hillis_steele_double_buffered_launch(std::size_t n, int threads);

// A version with workspace, allocated once for the largest n of a run.
class ScanVersion {
  public:
    virtual ~ScanVersion() = default;
    virtual void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) = 0;
    // The launches of one run: k1 = the data scan, k2 = the scan of the totals (its first
    // level), k3 = the add-back of the data (empty where a version has fewer kernels).
    virtual std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const = 0;
};

// map (section 2): each thread scans `per_thread` consecutive elements and writes its
// total; the totals are scanned the same way (recursively, until one thread holds them
// all); thread t then adds the scanned total of chunks 0..t to chunk t+1.
class MapScan : public ScanVersion {
  public:
    MapScan(std::size_t max_n, int threads, int per_thread);
    ~MapScan() override;
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;

  private:
    int threads_, per_thread_;
    std::vector<unsigned*> totals_;  // totals_[l] holds level l+1
};

// brent_kung (section 3): each block scans 2 x threads elements with the Brent-Kung
// up-sweep/down-sweep in shared memory and writes its block sum; the block sums are scanned
// the same way (recursively, until one block holds them all); every block but the first
// then adds the scanned sum of the blocks before it.
class BrentKungScan : public ScanVersion {
  public:
    BrentKungScan(std::size_t max_n, int threads);
    ~BrentKungScan() override;
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;

  private:
    int threads_;
    std::vector<unsigned*> sums_;  // sums_[l] holds level l+1
};

// lookback: single pass, 256 threads x 32 (or 16) items per tile, tiles taken in order from
// a global counter, each tile's prefix found by decoupled look-back over 64-bit (status,
// value) descriptors (see the kernel's comment in scan_kernels.cu and the README).
// items: ints per thread, 16 or 32; 0 = choose for the current device: 32 where at least 4
// blocks of the 32-int kernel fit on an SM, else 16.
class LookbackScan : public ScanVersion {
  public:
    explicit LookbackScan(std::size_t max_n, int items = 0);
    ~LookbackScan() override;
    void run(const unsigned* in, unsigned* out, std::size_t n, bool exclusive, cudaStream_t s) override;
    std::vector<KernelLaunch> launches(std::size_t n, bool exclusive) const override;
    int items() const { return items_; }

  private:
    int items_;
    std::size_t max_tiles_;
    unsigned long long* descriptors_ = nullptr;
    unsigned* tile_counter_ = nullptr;
    unsigned epoch_ = 0;
};

}  // namespace scan_gpu
