// Tuning experiment for vecmax's single-pass kernel (compiled by `make experiments`; run it
// with `bash experiments/run.sh` on a GPU): variants that differ in threads per block, float4
// loads in flight per thread, blocks per SM, how the vector is split among blocks, the load
// instruction and how the block maxima are combined. Each variant's result is checked
// exactly against the CPU before it is timed, and timed (median of 20, L2 flushed)
// alternately with CUB in the same run, two rounds. The kernel is a parameterised copy of
// vecmax_single_pass_vec4 on purpose: the committed kernel keeps only the choices that won
// (grid-stride, __ldg, atomicMax of order keys), with its threads and loads in flight in
// vecmax::SinglePassPolicy; this file records what was tried.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common.cuh"
#include "vecmax_cpu.h"
#include "vecmax_cub.cuh"
#include "vecmax_kernels.cuh"
#include "vecmax_order_key.h"
#include "vecmax_policy.h"

namespace {

using vecmax::nan_max;

__device__ __forceinline__ float max4(const float4 v) { return nan_max(nan_max(v.x, v.y), nan_max(v.z, v.w)); }

// kLoad: 0 = __ldg (read-only path), 1 = ld.global.nc with an L2 256-byte prefetch hint and no
// L1 allocation (sm_80 and later; __ldg below, so that the file builds for every target),
// 2 = __ldcs (evict-first).
template <int kLoad>
__device__ __forceinline__ float4 load4(const float4* p) {
    if (kLoad == 0) return __ldg(p);
    if (kLoad == 2) return __ldcs(p);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    float4 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
#else
    return __ldg(p);
#endif
}

__device__ __forceinline__ float block_max_of(float v, float* slots) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v = nan_max(v, __shfl_xor_sync(0xffffffffu, v, o));
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) slots[warp] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? slots[threadIdx.x] : -INFINITY;
    if (warp == 0) {
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) v = nan_max(v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

using vecmax::from_order_key;
using vecmax::order_key;

// The maximum of v[i], v[i + step], v[i + 2 * step], ... below end (-INFINITY if none), U
// loads in flight per round, then the rest one by one: the loop of both kSplit layouts.
template <int U, int kLoad>
__device__ __forceinline__ float strided_max(const float4* __restrict__ v, long long i, long long end,
                                             long long step) {
    float m = -INFINITY;
    for (; i + (U - 1) * step < end; i += U * step) {
        float4 a[U];
#pragma unroll
        for (int u = 0; u < U; ++u) a[u] = load4<kLoad>(v + i + u * step);
#pragma unroll
        for (int u = 0; u < U; ++u) m = nan_max(m, max4(a[u]));
    }
    for (; i < end; i += step) m = nan_max(m, max4(load4<kLoad>(v + i)));
    return m;
}

// kSplit: 0 = grid-stride over the whole vector (the committed kernel), 1 = one contiguous
// chunk per block. kFinish: 0 = the last block to finish combines the block maxima (the
// committed kernel), 1 = block maxima only, combined on the host (the load phase alone),
// 2 = every block's thread 0 does one atomicMax of its key into key_slots[parity] (no fence,
// no ticket, no second pass), and block 0 clears key_slots[parity ^ 1] for the next launch.
template <int T, int U, int kSplit, int kLoad, int kFinish>
__global__ void __launch_bounds__(T) max_kernel(const float4* __restrict__ v, long long nvec, float* block_max,
                                                unsigned* blocks_done, float* result, unsigned* key_slots,
                                                unsigned parity) {
    __shared__ float slots[32];
    __shared__ unsigned is_last;
    float m;
    if (kSplit == 0) {
        const long long stride = static_cast<long long>(gridDim.x) * T;
        m = strided_max<U, kLoad>(v, static_cast<long long>(blockIdx.x) * T + threadIdx.x, nvec, stride);
    } else {
        const long long per_block = (nvec + gridDim.x - 1) / gridDim.x;
        const long long chunk = (per_block + T * U - 1) / (T * U) * (T * U);
        const long long begin = static_cast<long long>(blockIdx.x) * chunk;
        const long long end = begin + chunk < nvec ? begin + chunk : nvec;
        m = strided_max<U, kLoad>(v, begin + threadIdx.x, end, T);
    }
    m = block_max_of(m, slots);
    if (kFinish == 2) {
        if (threadIdx.x == 0) {
            atomicMax(key_slots + parity, order_key(m));
            if (blockIdx.x == 0) key_slots[parity ^ 1u] = 0u;
        }
        return;
    }
    if (threadIdx.x == 0) {
        block_max[blockIdx.x] = m;
        if (kFinish == 0) {
            __threadfence();
            is_last = atomicAdd(blocks_done, 1u) == gridDim.x - 1u ? 1u : 0u;
        }
    }
    if (kFinish != 0) return;
    __syncthreads();
    if (is_last == 0u) return;
    __threadfence();
    const volatile float* maxima = block_max;
    float r = -INFINITY;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += T) r = nan_max(r, maxima[b]);
    r = block_max_of(r, slots);
    if (threadIdx.x == 0) {
        *result = r;
        *blocks_done = 0u;
    }
}

struct Buffers {
    float* block_max;
    unsigned* blocks_done;
    float* result;
    unsigned* key_slots;  // two, zeroed before the first launch
    int sm_count;
};

unsigned g_parity = 0;  // finish 2: the slot of the next launch

struct Variant {
    std::string name, fields;
    unsigned (*grid)(const Buffers&, long long);  // computed before timing, never inside it
    float (*run)(const Buffers&, const float*, long long, unsigned, cudaStream_t, bool);  // the max when asked
};

// kBlocksPerSmPercent: blocks per SM as a percentage of the occupancy limit (100 = all resident).
template <int T, int U, int kSplit, int kLoad, int kFinish, int kBlocksPerSmPercent>
unsigned grid_of(const Buffers& b, long long n) {
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, max_kernel<T, U, kSplit, kLoad, kFinish>, T, 0));
    const long long want = std::max(1LL, static_cast<long long>(per_sm) * b.sm_count * kBlocksPerSmPercent / 100);
    const long long needed = (n / 4 + T * U - 1) / (T * U);
    return static_cast<unsigned>(std::max(1LL, std::min(want, needed)));
}

template <int T, int U, int kSplit, int kLoad, int kFinish>
float run_variant(const Buffers& b, const float* x, long long n, unsigned grid, cudaStream_t s, bool fetch) {
    const unsigned parity = g_parity;
    if (kFinish == 2) g_parity ^= 1u;
    max_kernel<T, U, kSplit, kLoad, kFinish><<<grid, T, 0, s>>>(reinterpret_cast<const float4*>(x), n / 4, b.block_max,
                                                                b.blocks_done, b.result, b.key_slots, parity);
    CUDA_CHECK_LAUNCH();
    if (!fetch) return 0.0f;
    if (kFinish == 2) {
        unsigned key = 0;
        CUDA_CHECK(cudaMemcpy(&key, b.key_slots + parity, sizeof key, cudaMemcpyDeviceToHost));
        return from_order_key(key);
    }
    std::vector<float> maxima(kFinish == 0 ? 1 : grid);
    CUDA_CHECK(cudaMemcpy(maxima.data(), kFinish == 0 ? b.result : b.block_max, maxima.size() * sizeof(float),
                          cudaMemcpyDeviceToHost));
    return vecmax::max_reference(maxima.data(), maxima.size());
}

#define V(T, U, SPLIT, LOAD, FINISH, PCT)                                                                     \
    Variant {                                                                                                \
        #T "x" #U " split" #SPLIT " load" #LOAD " finish" #FINISH " occ" #PCT,                               \
            #T "," #U "," #SPLIT "," #LOAD "," #FINISH "," #PCT, grid_of<T, U, SPLIT, LOAD, FINISH, PCT>,     \
            run_variant<T, U, SPLIT, LOAD, FINISH>                                                             \
    }

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main("single_pass_tuning", [&]() {
        const char* csv = argc > 1 ? argv[1] : "single_pass_tuning.csv";
        // (threads, float4 per thread in flight, split, load, finish, % of resident blocks)
        const std::vector<Variant> variants = {
            V(256, 4, 0, 0, 0, 100),  // the first committed kernel (256 threads, last-block finish)
            V(256, 4, 0, 0, 1, 100),  // its load phase alone
            V(256, 4, 0, 0, 2, 100),  V(1024, 4, 0, 0, 0, 100), V(1024, 4, 0, 0, 1, 100),
            V(1024, 4, 0, 0, 2, 100),  // the committed kernel (vecmax_single_pass_vec4)
            V(512, 4, 0, 0, 2, 100),  V(1024, 2, 0, 0, 2, 100), V(1024, 8, 0, 0, 2, 100), V(1024, 4, 0, 2, 2, 100),
            V(1024, 4, 1, 0, 2, 100), V(1024, 4, 0, 1, 2, 100), V(512, 8, 0, 0, 2, 100),
            // round 1 of the experiment (finish 0): none beat the committed kernel by more than the spread
            V(256, 8, 0, 0, 0, 100),  V(256, 2, 0, 0, 0, 100), V(512, 4, 0, 0, 0, 100), V(128, 4, 0, 0, 0, 100),
            V(256, 4, 0, 1, 0, 100),  V(256, 4, 0, 2, 0, 100), V(256, 4, 1, 0, 0, 100), V(256, 4, 0, 0, 0, 50),
            V(256, 16, 0, 0, 0, 100),
        };
        const std::vector<long long> sizes = {40960000, 1LL << 28};
        const long long maxn = sizes.back();
        std::vector<float> h(static_cast<std::size_t>(maxn));
        cw::fill_uniform(h.data(), h.size(), -1.0e6f, 1.0e6f, 11);
        const cw::DeviceInfo dev = cw::select_device(0);
        cw::DeviceBuffer<float> x(h.size()), block_max(1 << 16), result(1), cub_out(1);
        cw::DeviceBuffer<unsigned> blocks_done(1), key_slots(2);
        CUDA_CHECK(cudaMemset(key_slots.data(), 0, 2 * sizeof(unsigned)));
        CUDA_CHECK(cudaMemcpy(x.data(), h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(blocks_done.data(), 0, sizeof(unsigned)));
        std::size_t temp_bytes = 0;
        CUDA_CHECK(vecmax::cub_max_temp_bytes(static_cast<int>(maxn), &temp_bytes));
        cw::DeviceBuffer<unsigned char> temp(temp_bytes);
        const Buffers b{block_max.data(), blocks_done.data(), result.data(), key_slots.data(), dev.sm_count};
        cw::L2Flusher flusher;
        FILE* f = std::fopen(csv, "w");
        if (f == nullptr) throw cw::UsageError(std::string("cannot write '") + csv + "'");
        std::fprintf(f, "round,variant,threads,unroll,split,load,finish,occupancy_pct,grid,n,ms,cub_ms,speedup_vs_cub,GBps,ok\n");
        int wrong = 0;
        for (long long n : sizes) {
            // The tail n % 4 is not handled by the experiment's kernel.
            if (n % 4 != 0) throw cw::UsageError("sizes must be multiples of 4");
            const float want = vecmax::max_reference(h.data(), static_cast<std::size_t>(n));
            auto cub_fn = [&](cudaStream_t s) {
                CUDA_CHECK(vecmax::cub_max(temp.data(), temp_bytes, x.data(), cub_out.data(), static_cast<int>(n), s));
            };
            for (int round = 1; round <= 2; ++round) {
                for (const Variant& v : variants) {
                    const unsigned grid = v.grid(b, n);
                    const float got = v.run(b, x.data(), n, grid, 0, true);
                    const bool ok = got == want;
                    wrong += ok ? 0 : 1;
                    const double cub_ms = cw::time_gpu(3, 20, cub_fn, &flusher).median_ms();
                    const double ms =
                        cw::time_gpu(3, 20, [&](cudaStream_t s) { v.run(b, x.data(), n, grid, s, false); }, &flusher)
                            .median_ms();
                    std::fprintf(f, "%d,%s,%s,%u,%lld,%.5f,%.5f,%.4f,%.1f,%d\n", round, v.name.c_str(), v.fields.c_str(),
                                 grid, n, ms, cub_ms, cub_ms / ms, 4.0 * n / ms / 1e6, ok);
                    std::printf("%-40s n=%-10lld %.4f ms  cub %.4f  x%.3f  %s\n", v.name.c_str(), n, ms, cub_ms,
                                cub_ms / ms, ok ? "ok" : "WRONG");
                }
            }
        }
        std::fclose(f);
        std::printf("Result = %s\n", wrong == 0 ? "PASS" : "FAIL");
        return wrong == 0 ? cw::kExitOk : cw::kExitWrongResult;
    });
}
