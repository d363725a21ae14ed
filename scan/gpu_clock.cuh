// The GPU's clocks: map_as_printed's timing of its serial step (scan_kernels.cu) and the
// experiments' traced kernels.
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
