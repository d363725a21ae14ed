// Version 8 against cub::DeviceReduce::Sum where the input fits one block (issue #33: at
// n = 4,096 version 8 was 0.97-0.99x CUB): what does CUB's single-tile path do that ours
// does not? One block sums the whole input and writes the result; the variants differ in how
// the block reads it:
//   striped_T_V   T threads, V int4 per thread, thread t reading vectors t, t+T, t+2T, ...
//                 (version 8's order: a warp's loads are contiguous 512-byte runs);
//   blocked_T_V   T threads, V int4 per thread, thread t reading vectors tV .. tV+V-1
//                 (the order of CUB's BlockLoad with vectorized loads);
//   empty         a one-thread kernel that writes 0: the launch and event floor;
//   cub           cub::DeviceReduce::Sum (its dispatch picks the single-tile kernel for small n).
// Each variant: 30 warm-up runs, then the median of 300, the L2 flushed before each (CUDA events
// around the launch alone); every run's result compared with the CPU's sum (wrapping uint32).
//
//   build/experiments/single_tile OUT.csv      (built by `make experiments`; run by hand)
//
// CSV: device,n,variant,threads,vectors_per_thread,median_us,min_us,ok
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <cub/cub.cuh>

#include "common.cuh"
#include "reduction_versions_policy.h"

namespace {

__device__ __forceinline__ unsigned sum4(const uint4& a) { return (a.x + a.y) + (a.z + a.w); }

// One block: the n ints of `in` (16-byte aligned, n <= 4 * T * V) summed into *out.
template <int T, int V, bool kBlocked>
__global__ void __launch_bounds__(T) one_tile(const unsigned* __restrict__ in, unsigned n, unsigned* __restrict__ out) {
    const uint4* __restrict__ in4 = reinterpret_cast<const uint4*>(in);
    const unsigned n4 = n / 4;
    unsigned sum = 0;
    uint4 v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const unsigned i = kBlocked ? threadIdx.x * V + k : threadIdx.x + k * T;
        v[k] = i < n4 ? __ldg(in4 + i) : make_uint4(0u, 0u, 0u, 0u);
    }
#pragma unroll
    for (int k = 0; k < V; ++k) sum += sum4(v[k]);
    if (threadIdx.x < n - 4 * n4) sum += __ldg(in + 4 * n4 + threadIdx.x);
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    __shared__ unsigned warp_sums[T / 32];
    if ((threadIdx.x & 31u) == 0) warp_sums[threadIdx.x >> 5] = sum;
    __syncthreads();
    if (threadIdx.x < 32) {
        sum = threadIdx.x < T / 32 ? warp_sums[threadIdx.x] : 0u;
        for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (threadIdx.x == 0) *out = sum;
    }
}

__global__ void empty_kernel(unsigned* out) { *out = 0u; }

struct Variant {
    std::string name;
    int threads, vectors;
    std::function<void(const unsigned*, unsigned, unsigned*, cudaStream_t)> launch;
    bool checks = true;
};

template <int T, int V, bool kBlocked>
Variant tile_variant() {
    return {std::string(kBlocked ? "blocked_" : "striped_") + std::to_string(T) + "_" + std::to_string(V), T, V,
            [](const unsigned* in, unsigned n, unsigned* out, cudaStream_t s) {
                one_tile<T, V, kBlocked><<<1, T, 0, s>>>(in, n, out);
            }};
}

int run(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: single_tile OUT.csv\n");
        return 2;
    }
    const cw::DeviceInfo dev = cw::select_device(0);
    const std::vector<unsigned> sizes = {1024, 2048, 4096, 4099, 8192, 16384};
    const unsigned max_n = 16384;
    std::vector<unsigned> h(max_n);
    std::uint64_t x = 12345;
    for (unsigned& v : h) v = static_cast<unsigned>((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33);
    cw::DeviceBuffer<unsigned> d_in(max_n), d_out(1);
    CUDA_CHECK(cudaMemcpy(d_in.data(), h.data(), max_n * sizeof(unsigned), cudaMemcpyHostToDevice));
    std::size_t cub_bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, cub_bytes, d_in.data(), d_out.data(), static_cast<int>(max_n)));
    cw::DeviceBuffer<unsigned char> cub_temp(std::max<std::size_t>(cub_bytes, 1));
    std::vector<Variant> variants = {
        {"empty", 1, 0, [](const unsigned*, unsigned, unsigned* out, cudaStream_t s) { empty_kernel<<<1, 1, 0, s>>>(out); },
         false},
        {"cub", 0, 0,
         [&](const unsigned* in, unsigned n, unsigned* out, cudaStream_t s) {
             std::size_t bytes = cub_bytes;
             CUDA_CHECK(cub::DeviceReduce::Sum(cub_temp.data(), bytes, in, out, static_cast<int>(n), s));
         }},
        tile_variant<256, 4, false>(),  tile_variant<256, 4, true>(),  tile_variant<128, 8, false>(),
        tile_variant<512, 2, false>(),  tile_variant<1024, 1, false>(), tile_variant<256, 8, false>(),
        tile_variant<256, 16, false>(), tile_variant<512, 8, false>(),  tile_variant<1024, 4, false>(),
    };
    cw::L2Flusher flusher;
    std::FILE* csv = std::fopen(argv[1], "w");
    if (csv == nullptr) throw cw::UsageError(std::string("cannot write ") + argv[1]);
    std::fprintf(csv, "device,n,variant,threads,vectors_per_thread,median_us,min_us,ok\n");
    int failures = 0;
    for (unsigned n : sizes) {
        unsigned want = 0;
        for (unsigned i = 0; i < n; ++i) want += h[i];
        for (const Variant& v : variants) {
            if (v.threads > 0 && v.vectors > 0 && n > 4u * v.threads * v.vectors) continue;  // one tile only
            bool ok = true;
            auto check = [&]() {
                unsigned got = 0;
                CUDA_CHECK(cudaMemcpy(&got, d_out.data(), sizeof(unsigned), cudaMemcpyDeviceToHost));
                ok = ok && (!v.checks || got == want);
            };
            const cw::Timing t = cw::time_gpu(
                30, 300, [&](cudaStream_t) { CUDA_CHECK(cudaMemset(d_out.data(), 0xff, sizeof(unsigned))); },
                [&](cudaStream_t s) { v.launch(d_in.data(), n, d_out.data(), s); }, &flusher, 0);
            CUDA_CHECK(cudaGetLastError());
            check();
            failures += ok ? 0 : 1;
            std::fprintf(csv, "%s,%u,%s,%d,%d,%.3f,%.3f,%d\n", dev.name.c_str(), n, v.name.c_str(), v.threads, v.vectors,
                         1000.0 * t.median_ms(), 1000.0 * t.min_ms(), ok ? 1 : 0);
            std::printf("n=%u %-14s %.3f us %s\n", n, v.name.c_str(), 1000.0 * t.median_ms(), ok ? "ok" : "WRONG");
        }
    }
    std::fclose(csv);
    return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return cw::run_main("single_tile", [&]() { return run(argc, argv); }); }
