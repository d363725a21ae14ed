// sm_90 bulk asynchronous copies into shared memory, completed on mbarriers (PTX), for the
// warp-specialised scan (ws_scan.cuh: version=lookahead; the experiments' ring-of-stages
// variants use them too). One thread issues a stage's copy; every thread waits for the stage's
// barrier phase, reads the stage, then release_stage() orders those reads (generic proxy)
// before the copy engine's next write of the stage (async proxy): without that fence, a refill
// issued after the block's barrier can overwrite values not yet read (seen on an H200).
#pragma once

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
namespace bulk {

__device__ __forceinline__ unsigned smem_u32(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// One thread, before the block's first barrier: the barrier `bar`, whose phase completes after
// `count` arrivals (and, for a stage's barrier, its bytes); then, once for all of them,
// fence_init() makes the initialisations visible to the other threads and the copy engine.
__device__ __forceinline__ void init(unsigned long long* bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

// One arrival on `bar` (release semantics at CTA scope: this thread's earlier writes are
// visible to every thread that waits for the phase).
__device__ __forceinline__ void arrive(unsigned long long* bar) {
    asm volatile("{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" ::"r"(smem_u32(bar)) : "memory");
}

// One thread: `bytes` from global `src` into shared `dst` by the copy engine; `bar`'s phase
// completes when they have landed.
__device__ __forceinline__ void load(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)), "r"(bytes)
                 : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     smem_u32(dst)),
                 "l"(src), "r"(bytes), "r"(smem_u32(bar))
                 : "memory");
}

// Every thread: wait until the phase of `bar` with this parity has completed.
__device__ __forceinline__ void wait(unsigned long long* bar, unsigned parity) {
    const unsigned addr = smem_u32(bar);
    unsigned done = 0;
    while (!done) {
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(addr), "r"(parity)
                     : "memory");
    }
}

// Every thread, after reading a stage and before the barrier after which it is refilled.
__device__ __forceinline__ void release_stage() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

}  // namespace bulk
#endif
