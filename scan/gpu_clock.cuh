// The GPU's clocks for scan's traced kernels (experiments only: map_scan_chunks_traced and the
// serial step's timing in scan_kernels.cu, the ws kernel's kTrace in ws_scan.cuh).
#pragma once

namespace gpu_clock {

// %globaltimer: nanoseconds, one clock for the whole GPU (comparable across SMs).
__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// The SM this thread runs on.
__device__ __forceinline__ unsigned sm_id() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

}  // namespace gpu_clock
