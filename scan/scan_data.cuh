// scan's data: the input (an --input file, or a seeded pattern) on the host and the device, its
// host-device copies, the CPU reference of each scan, and the host buffer every version's
// result is fetched into; allocated once, for the largest size of the run.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common.cuh"
#include "device_copy.cuh"
#include "run_loop.cuh"
#include "scan_versions.cuh"

namespace scan {

class Data {
  public:
    // Buffers for sizes up to max_n, filled from `input` (read here; its size is the only
    // size) or else from `pattern` with `seed`.
    Data(long long max_n, bool pinned, std::unique_ptr<cw::InputFile> input, const std::string& pattern,
         std::uint64_t seed);
    // What those buffers take (host: input, a fetched result, the reference; device: input,
    // output, and 64 MiB of slack for allocation granularity).
    static cw::Memory memory(long long max_n);
    // A plan's data: at the first scan of a size (new_size), that size's input on the device,
    // the two copies timed (the same for every version); then the reference of the plan's
    // scan, timed; the plan's n as the launches' size.
    void enter(const Plan& p, bool new_size);
    // The same-size copy, at a size's first scan: the plan's n ints copied from the input to the
    // output buffer by cudaMemcpy and by a copy kernel (common/device_copy.cuh), each timed as the
    // versions are (warm-up, then the median of `repeat` runs, each after an L2 flush when
    // `flusher` is given), the kernel's output checked: what the memory can do at this size,
    // launch and ramp included. The faster is the rows' copy_n_ms (copy_n_by names it).
    void time_copy(const Plan& p, int warmup, int repeat, cw::L2Flusher* flusher);
    // --vary-input: the plan's input refilled with the pattern of `seed` (host and device) at
    // size n <= p.n, which the plan's runner then scans (Io::launch_n), and its reference
    // recomputed; refill(p, the run's seed, p.n) brings the run's own data back.
    void refill(const Plan& p, std::uint64_t seed, long long n);
    // The buffers every version's runner reads and writes, and the size its launches scan.
    const Io& io() const { return io_; }

    std::int32_t* result() { return h_out_.data(); }
    const std::int32_t* reference() const { return ref_.data(); }
    struct Times {
        double cpu_ms = NAN, h2d_ms = NAN, d2h_ms = NAN;  // the plan's reference, its size's two copies
        cw::CopyYardstick copy_n;                         // its size's same-size copy, both ways (time_copy)
    } times;

  private:
    cw::DeviceBuffer<unsigned> d_in_, d_out_;
    cw::HostBuffer<std::int32_t> h_in_, h_out_;
    std::vector<std::int32_t> ref_;
    std::string pattern_;
    std::uint64_t seed_;
    bool refill_;  // a pattern whose shorter fills are not prefixes of the longest: filled per size
    Io io_;
};

}  // namespace scan
