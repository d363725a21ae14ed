// GPU timing with CUDA events: one interval, or the median of repeated runs after warm-up,
// optionally with the L2 cache flushed before each timed run so that a measurement of memory
// traffic is not served by the cache.
#pragma once

#include <cuda_runtime.h>

#include "cuda_check.cuh"
#include "timing.h"

namespace cw {

// Times one interval on a stream: start(), work, stop() -> milliseconds.
class GpuTimer {
  public:
    GpuTimer() {
        CUDA_CHECK(cudaEventCreate(&start_));
        CUDA_CHECK(cudaEventCreate(&stop_));
    }
    ~GpuTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    void start(cudaStream_t stream = 0) { CUDA_CHECK(cudaEventRecord(start_, stream)); }
    // Records the stop event, waits for it and returns the elapsed milliseconds.
    double stop(cudaStream_t stream = 0) {
        CUDA_CHECK(cudaEventRecord(stop_, stream));
        CUDA_CHECK(cudaEventSynchronize(stop_));
        float ms = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
        return ms;
    }

  private:
    cudaEvent_t start_, stop_;
};

// Reads every word of the flush buffer (a template, so that every translation unit may
// include it); the write is never taken but keeps the loads alive.
template <int Unused = 0>
__global__ void l2_flush_read_kernel(const int4* buffer, std::size_t count, int* sink) {
    int acc = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        const int4 v = buffer[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x7fffffff) *sink = acc;
}

// Overwrites, then reads, a buffer twice the size of the L2 cache: whatever a previous run
// left is evicted, and the read pass leaves clean lines, so the timed run does not pay for
// writing back the flush's own dirty lines.
class L2Flusher {
  public:
    L2Flusher() {
        int device = 0, l2_bytes = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
        bytes_ = 2 * static_cast<std::size_t>(l2_bytes > 0 ? l2_bytes : (8 << 20));
        CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
    }
    ~L2Flusher() { cudaFree(buffer_); }
    L2Flusher(const L2Flusher&) = delete;
    L2Flusher& operator=(const L2Flusher&) = delete;

    void flush(cudaStream_t stream = 0) {
        CUDA_CHECK(cudaMemsetAsync(buffer_, ++pattern_ & 0xff, bytes_, stream));
        l2_flush_read_kernel<<<1024, 256, 0, stream>>>(static_cast<const int4*>(buffer_), bytes_ / sizeof(int4),
                                                       static_cast<int*>(buffer_));
        CUDA_CHECK_LAUNCH();
    }

  private:
    void* buffer_ = nullptr;
    std::size_t bytes_ = 0;
    int pattern_ = 0;
};

// Runs prepare(stream) and fn(stream) `warmup` times, then `repeat` times with fn alone between
// two events: prepare (a runner's reset of its output, say) and, with a flusher, an L2 flush come
// before every timed run, outside the timed interval.
template <typename Prepare, typename Fn>
Timing time_gpu(int warmup, int repeat, Prepare&& prepare, Fn&& fn, L2Flusher* flusher, cudaStream_t stream) {
    for (int i = 0; i < warmup; ++i) {
        prepare(stream);
        fn(stream);
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    GpuTimer timer;
    Timing t;
    for (int i = 0; i < repeat; ++i) {
        prepare(stream);
        if (flusher != nullptr) flusher->flush(stream);
        timer.start(stream);
        fn(stream);
        t.samples_ms.push_back(timer.stop(stream));
    }
    return t;
}

// The same with nothing to prepare.
template <typename Fn>
Timing time_gpu(int warmup, int repeat, Fn&& fn, L2Flusher* flusher = nullptr, cudaStream_t stream = 0) {
    return time_gpu(warmup, repeat, [](cudaStream_t) {}, fn, flusher, stream);
}

}  // namespace cw
