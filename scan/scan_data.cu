// scan's data (see scan_data.cuh).
#include "scan_data.cuh"

#include <cstring>

#include "scan_cpu.h"
#include "scan_plan.h"

namespace scan {

Data::Data(long long max_n, bool pinned, std::unique_ptr<cw::InputFile> input, const std::string& pattern,
           std::uint64_t seed)
    : d_in_(static_cast<std::size_t>(max_n)), d_out_(static_cast<std::size_t>(max_n)),
      h_in_(static_cast<std::size_t>(max_n), pinned), h_out_(static_cast<std::size_t>(max_n), pinned),
      ref_(static_cast<std::size_t>(max_n)), pattern_(pattern), seed_(seed),
      refill_(!input && !scan_plan::pattern_is_prefix_stable(pattern)) {
    if (input) input->read_into(h_in_.data());
    else if (!refill_) scan_plan::fill_pattern(pattern_, h_in_.data(), ref_.size(), seed_);
    io_.d_in = d_in_.data();
    io_.d_out = d_out_.data();
    io_.h_out = h_out_.data();
}

cw::Memory Data::memory(long long max_n) {
    const double elements = 4.0 * static_cast<double>(max_n);
    cw::Memory m;
    m.host = 3.0 * elements;
    m.device = 2.0 * elements + 64.0 * (1 << 20);
    m.what = "n=" + std::to_string(max_n);
    return m;
}

void Data::enter(const Plan& p, bool new_size) {
    const std::size_t n = static_cast<std::size_t>(p.n);
    if (new_size) {
        if (refill_) scan_plan::fill_pattern(pattern_, h_in_.data(), n, seed_);
        const std::size_t bytes = n * sizeof(std::int32_t);
        cw::GpuTimer t;
        t.start(0);
        CUDA_CHECK(cudaMemcpyAsync(d_in_.data(), h_in_.data(), bytes, cudaMemcpyHostToDevice, 0));
        times.h2d_ms = t.stop(0);
        t.start(0);
        CUDA_CHECK(cudaMemcpyAsync(h_out_.data(), d_in_.data(), bytes, cudaMemcpyDeviceToHost, 0));
        times.d2h_ms = t.stop(0);
    }
    cw::HostStopwatch w;
    if (p.exclusive) scan_cpu::exclusive_scan(h_in_.data(), ref_.data(), n);
    else scan_cpu::inclusive_scan(h_in_.data(), ref_.data(), n);
    times.cpu_ms = w.elapsed_ms();
    io_.launch_n = p.n;
}

void Data::time_copy(const Plan& p, int warmup, int repeat, cw::L2Flusher* flusher) {
    const std::size_t n = static_cast<std::size_t>(p.n);
    times.copy_n = cw::time_same_size_copy(d_in_.data(), d_out_.data(), n, warmup, repeat, flusher);
    // The output buffer holds the copy kernel's run over a poisoned buffer: checked, as a version is.
    CUDA_CHECK(cudaMemcpy(h_out_.data(), d_out_.data(), n * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
    if (std::memcmp(h_out_.data(), h_in_.data(), n * sizeof(std::int32_t)) != 0)
        scan_gpu::internal_error("the copy kernel's output differs from its input at n=" + std::to_string(p.n));
}

void Data::refill(const Plan& p, std::uint64_t seed, long long size) {
    const std::size_t n = static_cast<std::size_t>(size);
    if (size < 1 || size > p.n) scan_gpu::internal_error("refill at n=" + std::to_string(size) + " beyond its plan");
    io_.launch_n = size;
    scan_plan::fill_pattern(pattern_, h_in_.data(), n, seed);
    CUDA_CHECK(cudaMemcpy(d_in_.data(), h_in_.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
    if (p.exclusive) scan_cpu::exclusive_scan(h_in_.data(), ref_.data(), n);
    else scan_cpu::inclusive_scan(h_in_.data(), ref_.data(), n);
}

}  // namespace scan
