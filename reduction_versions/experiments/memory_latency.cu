// The report's claim "shared memory latency is roughly 100x lower than non-cached global
// memory", measured: the latency of one dependent 4-byte load from shared memory, from global
// memory hitting L1, hitting L2, and missing both (DRAM), by pointer chasing with a single
// thread (j = a[j], each address depends on the previous load, so nothing overlaps).
//
//   build/experiments/memory_latency OUT.csv      (`make report-run` runs it; built by
//                                                  `make experiments`)
//
// Each chain is a single random cycle (Sattolo's algorithm, fixed seed) over nodes one
// 128-byte line apart (shared memory: one word apart), so no two consecutive loads share a
// line and a hardware prefetcher has no pattern to follow:
//   shared   4 KiB in shared memory, 2^20 loads;
//   L1       16 KiB of global memory, plain ld.global (cached in L1), one untimed lap first, 2^20 loads;
//   L2       4 MiB of global memory, ld.global.cg (cached in L2 only, not L1), one untimed lap
//            first, 2^18 loads;
//   DRAM     256 MiB of global memory, ld.global.cg, the L2 flushed first (cw::L2Flusher),
//            2^16 loads over 2^21 nodes: each node is visited at most once, so every load is
//            a first touch and misses L2 (what TLB misses cost on such a spread is included).
// Latency in SM clock cycles (clock64() around the timed loop inside the kernel), which makes
// the ratios independent of the clock rate the GPU happened to run at. Median of 3 runs.
// CSV columns:
//   device,memory,footprint_bytes,stride_bytes,loads,cycles_per_load
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "common.cuh"

namespace {

constexpr int kRuns = 3;

// Chases `loads` steps through `chain` (global memory) from node 0 after `warm_loads` untimed
// steps; kBypassL1: ld.global.cg (L2 only). One thread.
template <bool kBypassL1>
__global__ void chase_global(const unsigned* chain, int warm_loads, int loads, unsigned* end,
                             long long* cycles) {
    unsigned j = 0;
    for (int s = 0; s < warm_loads; ++s) j = kBypassL1 ? __ldcg(chain + j) : chain[j];
    const long long t0 = clock64();
    for (int s = 0; s < loads; ++s) j = kBypassL1 ? __ldcg(chain + j) : chain[j];
    const long long t1 = clock64();
    *end = j;  // keeps the chain alive
    *cycles = t1 - t0;
}

// The block copies the chain (`words` words) into shared memory; thread 0 chases it.
__global__ void chase_shared(const unsigned* __restrict__ chain, int words, int loads, unsigned* end,
                             long long* cycles) {
    extern __shared__ unsigned sm[];
    for (int i = threadIdx.x; i < words; i += blockDim.x) sm[i] = chain[i];
    __syncthreads();
    if (threadIdx.x != 0) return;
    unsigned j = 0;
    const long long t0 = clock64();
    for (int s = 0; s < loads; ++s) j = sm[j];
    const long long t1 = clock64();
    *end = j;
    *cycles = t1 - t0;
}

// A single random cycle over `nodes` nodes `stride_words` apart, in an array of
// nodes * stride_words words: a[node k] = index of the next node's word.
std::vector<unsigned> make_chain(std::size_t nodes, std::size_t stride_words, std::uint32_t seed) {
    std::vector<unsigned> next(nodes);
    for (std::size_t i = 0; i < nodes; ++i) next[i] = static_cast<unsigned>(i);
    std::mt19937_64 rng(seed);
    for (std::size_t i = nodes - 1; i > 0; --i) {  // Sattolo: one cycle through every node
        std::uniform_int_distribution<std::size_t> pick(0, i - 1);
        std::swap(next[i], next[pick(rng)]);
    }
    std::vector<unsigned> a(nodes * stride_words, 0u);
    for (std::size_t i = 0; i < nodes; ++i) a[i * stride_words] = static_cast<unsigned>(next[i] * stride_words);
    return a;
}

struct Case {
    const char* memory;
    std::size_t footprint_bytes, stride_bytes;
    int warm_loads, loads;
};

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main("memory_latency", [&]() {
        if (argc != 2) throw cw::UsageError("usage: memory_latency OUT.csv");
        const cw::DeviceInfo dev = cw::select_device(0);
        std::printf("%s\n", dev.describe().c_str());
        const Case cases[] = {
            {"shared", 4u << 10, 4, 0, 1 << 20},
            {"L1", 16u << 10, 128, 128, 1 << 20},
            {"L2", 4u << 20, 128, 32768, 1 << 18},
            {"DRAM", 256u << 20, 128, 0, 1 << 16},
        };
        cw::DeviceBuffer<unsigned> end(1);
        cw::DeviceBuffer<long long> cycles(1);
        cw::L2Flusher flusher;
        std::string csv = "device,memory,footprint_bytes,stride_bytes,loads,cycles_per_load\n";
        for (const Case& c : cases) {
            const std::size_t stride_words = c.stride_bytes / 4, nodes = c.footprint_bytes / c.stride_bytes;
            const std::vector<unsigned> chain = make_chain(nodes, stride_words, 20140425u);
            cw::DeviceBuffer<unsigned> d_chain(chain.size());
            CUDA_CHECK(cudaMemcpy(d_chain.data(), chain.data(), chain.size() * 4, cudaMemcpyHostToDevice));
            const std::string memory = c.memory;
            std::vector<double> cyc;
            for (int run = 0; run < kRuns; ++run) {
                if (memory == "DRAM") flusher.flush();
                CUDA_CHECK(cudaDeviceSynchronize());
                if (memory == "shared")
                    chase_shared<<<1, 256, c.footprint_bytes>>>(d_chain.data(), static_cast<int>(chain.size()),
                                                                 c.loads, end.data(), cycles.data());
                else if (memory == "L1")
                    chase_global<false><<<1, 1>>>(d_chain.data(), c.warm_loads, c.loads, end.data(), cycles.data());
                else
                    chase_global<true><<<1, 1>>>(d_chain.data(), c.warm_loads, c.loads, end.data(), cycles.data());
                CUDA_CHECK_LAUNCH();
                long long cy = 0;
                CUDA_CHECK(cudaMemcpy(&cy, cycles.data(), sizeof cy, cudaMemcpyDeviceToHost));
                cyc.push_back(static_cast<double>(cy) / c.loads);
            }
            std::sort(cyc.begin(), cyc.end());
            std::printf("%-6s %9zu bytes, %3zu-byte stride: %7.1f cycles per dependent load\n", c.memory,
                        c.footprint_bytes, c.stride_bytes, cyc[kRuns / 2]);
            csv += cw::format("%s,%s,%zu,%zu,%d,%.2f\n", dev.name.c_str(), c.memory, c.footprint_bytes,
                              c.stride_bytes, c.loads, cyc[kRuns / 2]);
        }
        std::FILE* f = std::fopen(argv[1], "w");
        if (f == nullptr) throw cw::UsageError(std::string("cannot write '") + argv[1] + "'");
        const bool ok = std::fputs(csv.c_str(), f) >= 0;
        if (std::fclose(f) != 0 || !ok) throw cw::UsageError(std::string("cannot write '") + argv[1] + "'");
        std::printf("memory_latency: wrote %s\n", argv[1]);
        return 0;
    });
}
