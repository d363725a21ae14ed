// The device a run used: selection (exit 3 where there is none), a one-line description,
// CSV columns, and the device-to-device copy bandwidth measured once per run as the "peak"
// every bandwidth is compared with.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "csv.h"
#include "cuda_check.cuh"
#include "gpu_timing.cuh"
#include "options.h"

namespace cw {

// An empty kernel, compiled with the same -gencode flags as every kernel of the program: what
// the driver loaded for it (cudaFuncGetAttributes) is what it loaded for all of them. A
// template, so that every translation unit that includes this header may instantiate it.
template <int Unused>
__global__ void arch_probe_kernel() {}

struct DeviceInfo {
    int id = 0;
    std::string name;
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    int max_threads_per_block = 0;
    int max_grid_x = 0;
    std::size_t global_mem_bytes = 0;
    int l2_bytes = 0;
    int driver_version = 0, runtime_version = 0;  // e.g. 13000 for 13.0
    // The program's kernel code as the driver loaded it on this device (cudaFuncAttributes):
    // binaryVersion is the architecture of the machine code that runs (e.g. 90 for sm_90),
    // ptxVersion the PTX it was made from. The build embeds compute_X -> sm_X pairs, so machine
    // code compiled ahead of time has ptx == binary; the driver JIT-compiling older PTX for this
    // GPU at load time (no sm_ code for it in the program) shows as ptx < binary.
    int binary_version = 0, ptx_version = 0;

    std::string compute_capability() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
    static std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }
    // "native" (machine code built for this GPU's architecture, or a binary-compatible older one
    // of the same major version) or "JIT" (PTX compiled by the driver when the program started).
    // (Machine code of another major version cannot run on this GPU at all: if the driver still
    // reports one, what runs was compiled from PTX at load time.)
    bool jit_compiled() const {
        return (ptx_version > 0 && ptx_version < binary_version) || binary_version / 10 != cc_major;
    }
    std::string kernel_code() const {
        const std::string here = "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
        const std::string bin = "sm_" + std::to_string(binary_version);
        if (binary_version == 0) return "kernels: unknown (cudaFuncGetAttributes gave no version)";
        if (jit_compiled())
            return "kernels: compute_" + std::to_string(ptx_version) + " PTX JIT-compiled by the driver for " + here +
                   " (no " + here + " code in this build: build on this GPU's node, or with SMS=" +
                   std::to_string(cc_major) + std::to_string(cc_minor) + ")";
        if (bin == here) return "kernels: " + bin + " code, native";
        return "kernels: " + bin + " code, native (binary-compatible with " + here + ")";
    }
    std::string describe() const {
        char buf[768];
        std::snprintf(buf, sizeof buf,
                      "Device %d: %s, compute capability %s, %d SMs, %.1f GiB, L2 %.0f MiB, driver %s, runtime %s; %s",
                      id, name.c_str(), compute_capability().c_str(), sm_count,
                      static_cast<double>(global_mem_bytes) / (1 << 30), l2_bytes / 1048576.0,
                      version_text(driver_version).c_str(), version_text(runtime_version).c_str(),
                      kernel_code().c_str());
        return buf;
    }
    // device, compute_capability, driver, runtime columns of every results CSV (empty
    // before a device was selected, e.g. for --print-csv-header).
    DeviceColumns columns() const {
        if (name.empty()) return DeviceColumns();
        return DeviceColumns{name, compute_capability(), version_text(driver_version), version_text(runtime_version)};
    }
};

// Selects device `id` and describes it. No device, or a driver older than the runtime, ends
// the program with exit status 3 and "no usable CUDA GPU: <the runtime's message>"
// (CUDA_CHECK); an id beyond the devices present is a usage error. The context is created
// here (cudaFree(0)), so that a device that cannot be used is found before any host work.
inline DeviceInfo select_device(int id) {
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    if (count == 0) cuda_fail(cudaErrorNoDevice, "cudaGetDeviceCount", __FILE__, __LINE__);
    if (id < 0 || id >= count)
        throw UsageError("option --device=" + std::to_string(id) + ": there are " + std::to_string(count) +
                         " CUDA device(s), numbered from 0");
    CUDA_CHECK(cudaSetDevice(id));
    CUDA_CHECK(cudaFree(nullptr));
    DeviceInfo d;
    d.id = id;
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
    d.name = prop.name;
    d.cc_major = prop.major;
    d.cc_minor = prop.minor;
    d.global_mem_bytes = prop.totalGlobalMem;
    CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_count, cudaDevAttrMultiProcessorCount, id));
    CUDA_CHECK(cudaDeviceGetAttribute(&d.max_threads_per_block, cudaDevAttrMaxThreadsPerBlock, id));
    CUDA_CHECK(cudaDeviceGetAttribute(&d.max_grid_x, cudaDevAttrMaxGridDimX, id));
    CUDA_CHECK(cudaDeviceGetAttribute(&d.l2_bytes, cudaDevAttrL2CacheSize, id));
    CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
    CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, arch_probe_kernel<0>));
    d.binary_version = attr.binaryVersion;
    d.ptx_version = attr.ptxVersion;
    return d;
}

// Fails with a usage error (exit 2) when `bytes` of device memory are not free: a size too
// large for the card is the user's input, not a CUDA failure.
inline void require_device_memory(std::size_t bytes, const std::string& what) {
    std::size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (bytes > free_bytes)
        throw UsageError(what + " needs " + std::to_string(bytes >> 20) + " MiB of device memory, " +
                         std::to_string(free_bytes >> 20) + " MiB are free");
}

// Blocks for a grid-stride kernel: as many as are resident at once (occupancy API x SMs),
// capped by the blocks the work needs (`work_items` items, `items_per_block` each), >= 1.
template <typename Kernel>
inline long long occupancy_grid(Kernel kernel, int threads, std::size_t dynamic_smem, int sm_count,
                                unsigned long long work_items, unsigned long long items_per_block) {
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_smem));
    const unsigned long long resident = static_cast<unsigned long long>(per_sm > 0 ? per_sm : 1) * sm_count;
    const unsigned long long needed = items_per_block > 0 ? (work_items + items_per_block - 1) / items_per_block : 1;
    const unsigned long long grid = needed < resident ? needed : resident;
    return static_cast<long long>(grid > 0 ? grid : 1);
}

// One measurement: fresh buffers of `bytes`, copies for at least 50 ms of GPU time as warm-up,
// then the median of 20 copies, in GB/s counting bytes read plus bytes written.
inline double copy_median_GBps(std::size_t bytes) {
    void *src = nullptr, *dst = nullptr;
    CUDA_CHECK(cudaMalloc(&src, bytes));
    CUDA_CHECK(cudaMalloc(&dst, bytes));
    CUDA_CHECK(cudaMemset(src, 0x5a, bytes));
    auto copy = [&](cudaStream_t s) { CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s)); };
    constexpr double kWarmupMs = 50.0;
    double warmed_ms = 0.0;
    for (int round = 0; round < 100 && warmed_ms < kWarmupMs; ++round) {
        const Timing w = time_gpu(0, 5, copy);
        for (double ms : w.samples_ms) warmed_ms += ms;
    }
    const Timing t = time_gpu(0, 20, copy);
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    return gigabytes_per_second(2.0 * static_cast<double>(bytes), t.median_ms());
}

// The device-to-device copy bandwidth, the denominator of every pct_of_copy_bw: the best of up
// to 4 measurements (copy_median_GBps of 256 MiB, less where memory is short), each on fresh
// buffers, stopping once two of them agree within 2 %. Why not one median: a single median
// moved by several percent between processes on the same GPU (the first copies of a process
// can run slower), and pct_of_copy_bw with it. The best of agreeing measurements is the
// bandwidth the copy can reach; a low one would flatter every kernel compared with it. What
// each run measured is its CSVs' copy_bw_GBps column.
inline double measure_copy_bandwidth_GBps(std::size_t bytes = 256u << 20) {
    std::size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (bytes > free_bytes / 4) bytes = free_bytes / 4;
    std::vector<double> seen;
    auto agrees = [&](double bw) {
        return std::any_of(seen.begin(), seen.end(),
                           [&](double other) { return std::fabs(bw - other) <= 0.02 * std::max(bw, other); });
    };
    for (int round = 0; round < 4; ++round) {
        const double bw = copy_median_GBps(bytes);
        const bool done = agrees(bw);
        seen.push_back(bw);
        if (done) break;
    }
    return *std::max_element(seen.begin(), seen.end());
}

}  // namespace cw
