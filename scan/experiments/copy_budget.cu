// The copy budget (compiled by `make experiments`; run on a GPU as
// `build/experiments/copy_budget --csv=FILE`): how much work per tile can the scan's memory
// pipeline hide and still move data at the speed of a device-to-device copy?
//
// Every variant copies n ints (2^28 by default) through shared memory, tile by tile, the
// shape of the look-back scan's data path, and waits a chosen number of SM clock cycles
// ("injected cycles": a clock64() spin by every thread) between a tile's load and its store.
// That wait stands for the scan's own work on a tile (the in-block scan, the look-back): the
// curve of bandwidth against injected cycles says how many cycles a tile may spend there
// before the copy slows down. Shapes:
//   per_tile_TxI   one tile of T*I ints per block, one block per tile (as the committed scan):
//                  striped uint4 loads into a padded shared-memory tile, a barrier, the wait,
//                  uint4 stores from shared memory. The tile's buffer is held, idle, for the
//                  whole wait: while a block waits, only the other resident blocks have bytes
//                  in flight. 256x32 is the committed scan's tile (32 KiB).
//   ring_TxI_sS    (sm_90 only) persistent blocks (one wave: resident blocks x SMs), each with
//                  a ring of S shared-memory stages of T*I ints filled by bulk asynchronous
//                  copies (cp.async.bulk, completing on an mbarrier). The threads copy a stage
//                  into registers, release it (thread 0 refills it with the tile S ahead at
//                  once), then wait and store from registers: the bytes of the S stages stay in
//                  flight during the wait, the design of a warp-specialised pipeline whose
//                  producer never waits for the consumers' work.
// Every run is validated (output == input, on the GPU, by a comparison kernel that is itself
// checked once against a planted difference); times are the median of --repeat runs after
// --warmup, the L2 flushed before each, by CUDA events; each row's reference is a
// device-to-device cudaMemcpy of the same n ints timed just before it (bytes read + written).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bulk_async.cuh"
#include "common.cuh"
#include "experiment.cuh"
#include "tile_copy.cuh"

namespace {

// Persistent blocks with a ring of S stages of T*I ints, filled by the copy engine (sm_90).
// Block b copies tiles b, b + G, b + 2G, ... (G = gridDim.x); stage k % S holds its k-th tile.
// The partial last tile (if any) is copied by the threads with bounds, not by a bulk copy.
template <int T, int I, int S>
__global__ void __launch_bounds__(T) copy_ring(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                               std::size_t n, long long cycles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int TILE = T * I, V = I / 4;
    constexpr unsigned kBytes = TILE * sizeof(unsigned);
    static_assert(I % 4 == 0, "uint4 accesses");
    extern __shared__ __align__(128) unsigned s_stage[];  // S x TILE ints
    __shared__ __align__(8) unsigned long long s_bar[S];
    const std::size_t tiles = (n + TILE - 1) / TILE;
    const std::size_t full_tiles = n / TILE;
    // Thread 0: the block's k-th tile into stage k % S (nothing past the full tiles).
    auto fill = [&](std::size_t k) {
        const std::size_t t = blockIdx.x + k * gridDim.x;
        if (t >= full_tiles) return;
        const int st = static_cast<int>(k % S);
        bulk::load(s_stage + st * TILE, in + t * TILE, kBytes, &s_bar[st]);
    };
    if (threadIdx.x == 0) {
        init_stage_barriers(s_bar, S);
        for (int k = 0; k < S; ++k) fill(k);
    }
    __syncthreads();
    unsigned phases = 0;  // bit st: the parity of stage st's next completion
    for (std::size_t k = 0;; ++k) {
        const std::size_t t = blockIdx.x + k * gridDim.x;
        if (t >= tiles) break;
        uint4 v[V];
        if (t < full_tiles) {
            const int st = static_cast<int>(k % S);
            bulk::wait(&s_bar[st], (phases >> st) & 1u);
            phases ^= 1u << st;
            const uint4* s4 = reinterpret_cast<const uint4*>(s_stage + st * TILE);
#pragma unroll
            for (int j = 0; j < V; ++j) v[j] = s4[j * T + threadIdx.x];
            bulk::release_stage();  // the reads above, before the copy engine refills the stage
            __syncthreads();  // every thread has read stage st: refill it at once
            if (threadIdx.x == 0) fill(k + S);
            spin(cycles);
            uint4* out4 = reinterpret_cast<uint4*>(out + t * TILE);
#pragma unroll
            for (int j = 0; j < V; ++j) out4[j * T + threadIdx.x] = v[j];
        } else {  // the partial last tile
            spin(cycles);
            for (std::size_t i = t * TILE + threadIdx.x; i < n; i += T) out[i] = in[i];
        }
    }
#endif
}

struct Shape {
    std::string name;
    int threads, items, stages;  // stages 0: one tile per block (per_tile)
    bool sm90_only;
    // Launches one copy; `blocks_per_sm` (occupancy API) and `smem` are filled on first use.
    void (*launch)(Shape& s, const unsigned* in, unsigned* out, std::size_t n, long long cycles, cudaStream_t st);
    int blocks_per_sm = 0, sms = 0;
    int smem = 0;        // dynamic shared memory per block (bytes)
    long long grid = 0;  // the last launch's grid
    int tile() const { return threads * items; }
};

template <int T, int I>
void launch_per_tile(Shape& s, const unsigned* in, unsigned* out, std::size_t n, long long cycles, cudaStream_t st) {
    if (s.blocks_per_sm == 0) {
        s.smem = (T / 32) * (32 * I + I) * static_cast<int>(sizeof(unsigned));
        CUDA_CHECK(cudaFuncSetAttribute(copy_per_tile<T, I>, cudaFuncAttributeMaxDynamicSharedMemorySize, s.smem));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&s.blocks_per_sm, copy_per_tile<T, I>, T, s.smem));
    }
    s.grid = static_cast<long long>((n + T * I - 1) / (T * I));
    copy_per_tile<T, I><<<static_cast<unsigned>(s.grid), T, s.smem, st>>>(in, out, n, cycles);
    CUDA_CHECK_LAUNCH();
}

template <int T, int I, int S>
void launch_ring(Shape& s, const unsigned* in, unsigned* out, std::size_t n, long long cycles, cudaStream_t st) {
    if (s.blocks_per_sm == 0) {
        s.smem = S * T * I * static_cast<int>(sizeof(unsigned));
        CUDA_CHECK(cudaFuncSetAttribute(copy_ring<T, I, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, s.smem));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&s.blocks_per_sm, copy_ring<T, I, S>, T, s.smem));
    }
    const long long tiles = static_cast<long long>((n + T * I - 1) / (T * I));
    s.grid = std::min<long long>(tiles, static_cast<long long>(s.blocks_per_sm) * s.sms);
    copy_ring<T, I, S><<<static_cast<unsigned>(s.grid), T, s.smem, st>>>(in, out, n, cycles);
    CUDA_CHECK_LAUNCH();
}

#define PER_TILE(T, I) Shape{"per_tile_" #T "x" #I, T, I, 0, false, launch_per_tile<T, I>}
#define RING(T, I, S) Shape{"ring_" #T "x" #I "_s" #S, T, I, S, true, launch_ring<T, I, S>}

long long parse_ll(const char* text, const char* option) {
    char* end = nullptr;
    const long long v = std::strtoll(text, &end, 10);
    if (end == text || *end != '\0' || v < 0) throw cw::UsageError(std::string("option ") + option + ": not a count: " + text);
    return v;
}

int run(int argc, char** argv) {
    std::string csv;
    std::size_t n = std::size_t(1) << 28;
    int warmup = 3, repeat = 20;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        auto value = [&](const char* opt) { return option_value(argv[a], opt); };
        if (const char* v = value("--csv")) {
            csv = v;
        } else if (const char* v = value("--n")) {
            n = static_cast<std::size_t>(parse_ll(v, "--n"));
        } else if (const char* v = value("--repeat")) {
            repeat = static_cast<int>(parse_ll(v, "--repeat"));
        } else if (const char* v = value("--warmup")) {
            warmup = static_cast<int>(parse_ll(v, "--warmup"));
        } else if (arg == "--help") {
            std::printf("usage: copy_budget --csv=FILE [--n=N] [--repeat=R] [--warmup=W]\n"
                        "  tile copies through shared memory with injected cycles per tile, against a\n"
                        "  device-to-device copy of the same n ints (defaults: n = 2^28, R = 20, W = 3)\n");
            return 0;
        } else {
            throw cw::UsageError("unknown option " + arg + " (--help lists them)");
        }
    }
    if (csv.empty()) throw cw::UsageError("option --csv=FILE is required");
    if (n == 0 || repeat < 1) throw cw::UsageError("--n and --repeat must be at least 1");

    // The shapes, and the injected cycles per tile (each shape over every count).
    std::vector<Shape> shapes = {PER_TILE(256, 32), PER_TILE(256, 16), PER_TILE(128, 16),
                                 RING(256, 16, 4), RING(256, 32, 2), RING(256, 16, 6), RING(256, 32, 3)};
    const std::vector<long long> cycles_list = {0, 512, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384};

    const cw::DeviceInfo dev = cw::select_device(0);
    if (dev.cc_major < 9) {
        std::vector<Shape> kept;
        for (const Shape& s : shapes)
            if (!s.sm90_only) kept.push_back(s);
        std::printf("compute capability %d.%d: the ring shapes (bulk copies, sm_90) are skipped\n", dev.cc_major,
                    dev.cc_minor);
        shapes = kept;
    }
    for (Shape& s : shapes) s.sms = dev.sm_count;
    int clock_khz = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev.id));
    cw::require_device_memory(2 * n * sizeof(unsigned) + (256u << 20), "copy_budget --n=" + std::to_string(n));

    std::vector<unsigned> h(n);
    cw::fill_uniform_int(h.data(), n, -1000000, 1000000, 7);
    unsigned *din = nullptr, *dout = nullptr;
    unsigned long long* dcount = nullptr;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dout, n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dcount, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(din, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

    auto differences = [&]() {
        CUDA_CHECK(cudaMemset(dcount, 0, sizeof(unsigned long long)));
        count_differences<<<1024, 256>>>(din, dout, n, dcount);
        CUDA_CHECK_LAUNCH();
        unsigned long long c = 0;
        CUDA_CHECK(cudaMemcpy(&c, dcount, sizeof c, cudaMemcpyDeviceToHost));
        return c;
    };
    // The comparison itself, checked: a copy with one planted difference must count 1.
    CUDA_CHECK(cudaMemcpy(dout, din, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
    const unsigned planted = h[n / 2] ^ 1u;
    CUDA_CHECK(cudaMemcpy(dout + n / 2, &planted, sizeof planted, cudaMemcpyHostToDevice));
    if (differences() != 1) {
        std::fprintf(stderr, "copy_budget: the comparison kernel missed a planted difference\n");
        return 1;
    }

    FILE* f = std::fopen(csv.c_str(), "w");
    if (f == nullptr) throw cw::UsageError("cannot write " + csv);
    std::fprintf(f, "device,n,shape,threads,items,tile_items,stages,blocks_per_sm,grid,smem_per_block_bytes,"
                    "inflight_KiB_per_sm,injected_cycles,sm_clock_MHz,kernel_ms,bandwidth_GBps,copy_ms,copy_GBps,"
                    "pct_of_copy,validated\n");
    cw::L2Flusher flusher;
    const double bytes = 2.0 * static_cast<double>(n) * sizeof(unsigned);  // read + written
    auto copy_fn = [&](cudaStream_t s) {
        CUDA_CHECK(cudaMemcpyAsync(dout, din, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, s));
    };
    int wrong = 0, step = 0;
    const int steps = static_cast<int>(shapes.size() * cycles_list.size());
    for (Shape& s : shapes) {
        for (const long long cycles : cycles_list) {
            // Validation: the output poisoned, one run, compared with the input on the GPU.
            CUDA_CHECK(cudaMemset(dout, 0xff, n * sizeof(unsigned)));
            s.launch(s, din, dout, n, cycles, 0);
            CUDA_CHECK(cudaDeviceSynchronize());
            const bool ok = differences() == 0;
            wrong += ok ? 0 : 1;
            const double copy_ms = cw::time_gpu(warmup, repeat, copy_fn, &flusher).median_ms();
            const double ms =
                cw::time_gpu(warmup, repeat, [&](cudaStream_t st) { s.launch(s, din, dout, n, cycles, st); }, &flusher)
                    .median_ms();
            // Tile buffers resident per SM: the stages of a ring, one tile of a per_tile block.
            const double inflight_kib =
                static_cast<double>(s.blocks_per_sm) * (s.stages > 0 ? s.stages : 1) * s.tile() * sizeof(unsigned) / 1024.0;
            std::fprintf(f, "%s,%zu,%s,%d,%d,%d,%d,%d,%lld,%d,%.0f,%lld,%d,%.5f,%.1f,%.5f,%.1f,%.2f,%d\n",
                         dev.name.c_str(), n, s.name.c_str(), s.threads, s.items, s.tile(), s.stages, s.blocks_per_sm,
                         s.grid, s.smem, inflight_kib, cycles, clock_khz / 1000, ms, bytes / ms / 1e6, copy_ms,
                         bytes / copy_ms / 1e6, 100.0 * copy_ms / ms, ok ? 1 : 0);
            std::fflush(f);
            std::printf("[%d/%d] %-18s cycles=%-5lld %d blocks/SM  %.4f ms  %.0f GB/s  %.1f%% of copy (%.0f GB/s)  %s\n",
                        ++step, steps, s.name.c_str(), cycles, s.blocks_per_sm, ms, bytes / ms / 1e6,
                        100.0 * copy_ms / ms, bytes / copy_ms / 1e6, ok ? "PASS" : "FAIL");
        }
    }
    std::fclose(f);
    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dout));
    CUDA_CHECK(cudaFree(dcount));
    std::printf("Result = %s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return cw::run_main("copy_budget", [&]() { return run(argc, argv); }); }
