// Device and host buffers freed at scope exit. Both hold at least one element, so that a
// size of 0 never gives a null pointer to a kernel or a copy. The destructors free without
// checking: they also run while a CudaError unwinds the stack, when a sticky error (a fault in
// a kernel) makes every later call fail, and a destructor that threw then would end the
// program (std::terminate) instead of run_main's one line and exit status 3.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>

#include "cuda_check.cuh"

namespace cw {

// Device memory (cudaMalloc), uninitialised.
template <typename T>
class DeviceBuffer {
  public:
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        CUDA_CHECK(cudaMalloc(&data_, (count > 0 ? count : 1) * sizeof(T)));
    }
    ~DeviceBuffer() { cudaFree(data_); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    T* data() const { return data_; }
    std::size_t size() const { return count_; }

  private:
    T* data_ = nullptr;
    std::size_t count_;
};

// Host memory, uninitialised (no time spent zeroing gigabytes that are filled next):
// pageable (new[]) or page-locked (--pinned: cudaMallocHost, faster copies).
template <typename T>
class HostBuffer {
  public:
    HostBuffer(std::size_t count, bool pinned) : count_(count), pinned_(pinned) {
        const std::size_t allocated = count > 0 ? count : 1;
        if (pinned_) {
            void* p = nullptr;
            CUDA_CHECK(cudaMallocHost(&p, allocated * sizeof(T)));
            data_ = static_cast<T*>(p);
        } else {
            pageable_.reset(new T[allocated]);
            data_ = pageable_.get();
        }
    }
    ~HostBuffer() {
        if (pinned_) cudaFreeHost(data_);
    }
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;
    T* data() const { return data_; }
    std::size_t size() const { return count_; }
    bool pinned() const { return pinned_; }

  private:
    std::size_t count_;
    bool pinned_;
    std::unique_ptr<T[]> pageable_;
    T* data_ = nullptr;
};

}  // namespace cw
