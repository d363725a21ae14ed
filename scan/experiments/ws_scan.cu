// The warp-specialised persistent scan of issue #24 (ws_scan.cuh: design, memory
// model, forward progress): the program's kernel and its variants (ws_variants.cuh), against
// CUB, the committed `lookback` and a device-to-device copy of the same bytes, in one process
// (compiled by `make experiments`; sm_90 only at run time):
//
//   build/experiments/ws_scan --csv=FILE [--sizes=20000000,2^28] [--check-sizes=1,1000,...]
//                             [--repeat=30] [--warmup=3] [--only=word,word] [--range=K]
//                             [--trace=FILE] [--trace-only=word,word]
//
// For each timed size and each mode (inclusive, exclusive): a cudaMemcpy of the same n ints
// is timed before and after the variants (its mean is the copy reference), then CUB
// (cub::DeviceScan::InclusiveSum / ExclusiveSum on unsigned), the committed lookback and every
// variant. Every run is validated exactly: the first run of each by a copy to the host and a
// comparison with the CPU's scan there, and every warm-up and timed run after it on the GPU
// against the same CPU reference uploaded (a comparison kernel launched after the stop event,
// outside the timed interval; the comparison itself is checked against a planted
// difference). Times: CUDA events, median of --repeat runs after --warmup, the L2 flushed
// before each timed run. The --check-sizes (awkward sizes: one element, partial tiles, exact
// multiples) are validated the same way, once per variant and mode, and not timed.
// CSV: variant,n,mode,ms,GBps,pct_of_copy,speedup_vs_cub,ok, then the variant's shape and the
// references (copy_ms, cub_ms) and the device. GBps counts bytes read + written (8 per int).
// --range=K: the input is uniform in [-K, K] (default 10^6; the program's --data=random is
// [-1000, 1000]). --trace=FILE: after the timing, the program's shape (scan_policy.h's
// LookaheadPolicy, named from its constants) and its pipeline alone (wscopy_...) at
// each --sizes n, inclusive, launched 5 more times with the trace (ws_variants.cuh, TraceWord), each on a poisoned output after an L2 flush, timed
// by events and validated on the GPU: one CSV row per launch and CTA (its words; times in ns
// relative to the launch's first CTA start, the waits and work in SM cycles), so that where a
// launch's time goes (CTA start skew, the wait for the first tile, the waits for data and for
// prefixes, the last CTA's tail) is measured. --trace-only=word,...: the traced variants by name
// instead (also the fixed first tiles, _d1_l2, and with a ramped first fill, _d1_l2_f2). Where
// no ws variant can run, nothing is traced.
// Exit status 1 if any run of any variant is wrong.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common.cuh"
#include "experiment.cuh"
#include "scan_kernels.cuh"
#include "scan_policy.h"
#include "tile_epoch.h"
#include "ws_scan.cuh"
#include "ws_variants.cuh"

namespace {

struct WsState {
    unsigned long long* trace = nullptr;  // ws_lab::kTraceWords per CTA, for kTrace launches
    std::size_t trace_ctas = 0;           // the CTAs it has room for
    unsigned long long* desc = nullptr;
    std::size_t max_tiles = 0;
    unsigned* counter = nullptr;
    unsigned epoch = 0;
    int sms = 0;
};

// What a variant's last launch looked like (for the CSV).
struct Shape {
    int tile = 0, stages = 0, reduce_warps = 0, scan_warps = 0, store = 0, sched = 0, lookahead_warps = 0, threads = 0;
    int blocks_per_sm = 0;
    long long grid = 0;
    int smem = 0;
};

// A ws kernel's launch with parameters kp, whose ws::Params `p` gets its epoch and tile count here: the
// persistent grid, every CTA resident at once (occupancy API x SMs, asked once per kernel into
// per_sm), no more than tiles.
template <class S, class KernelParams>
void launch_kernel(void (*kernel)(KernelParams), KernelParams& kp, ws::Params& p, int& per_sm, WsState& ws,
                   Shape& shape, bool traced, cudaStream_t s) {
    if (per_sm < 0) {
        CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::kSmemBytes));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, S::kThreads, S::kSmemBytes));
        if (per_sm < 1) throw std::runtime_error("ws_scan: a variant does not fit on an SM");
    }
    const std::size_t tiles = (p.n + S::kTile - 1) / S::kTile;
    if (tiles > ws.max_tiles) throw std::runtime_error("ws_scan: more tiles than descriptors");
    if (tile_epoch::advance(ws.epoch, tile_epoch::kWsLimit))
        CUDA_CHECK(cudaMemsetAsync(ws.desc, 0, ws.max_tiles * sizeof(unsigned long long), s));
    const long long grid = std::min<long long>(static_cast<long long>(tiles), static_cast<long long>(per_sm) * ws.sms);
    if (traced && static_cast<std::size_t>(grid) > ws.trace_ctas)
        throw std::runtime_error("ws_scan: a traced grid larger than its trace buffer");
    shape = Shape{S::kTile, S::kStages, S::kReduceWarps, S::kScanWarps, S::kStore, S::kSched, S::kLookaheadWarps,
                  S::kThreads, per_sm, grid, S::kSmemBytes};
    p.num_tiles = static_cast<unsigned>(tiles);
    p.epoch = ws.epoch;
    kernel<<<static_cast<unsigned>(grid), S::kThreads, S::kSmemBytes, s>>>(kp);
    CUDA_CHECK_LAUNCH();
}

// A lab variant (experiments/ws_variants.cuh): shape S, copy only (C), traced (T), ramped first fill (F).
template <class S, bool X, bool C, bool T, int F>
void launch_variant_mode(WsState& ws, Shape& shape, const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) {
    static int per_sm = -1;
    ws_lab::Params lp{{in, out, n, ws.desc, ws.counter, 0, 0}, T ? ws.trace : nullptr};
    auto kernel = ws_lab::ws_variant_kernel<S, X, C, T, F>;
    launch_kernel<S>(kernel, lp, lp.p, per_sm, ws, shape, T, s);
}

template <class S, bool C = false, bool T = false, int F = 0>
void launch_variant(WsState& ws, Shape& shape, const unsigned* in, unsigned* out, std::size_t n, bool exclusive,
                    cudaStream_t s) {
    if (exclusive)
        launch_variant_mode<S, true, C, T, F>(ws, shape, in, out, n, s);
    else
        launch_variant_mode<S, false, C, T, F>(ws, shape, in, out, n, s);
}

// The program's own kernel (ws_scan.cuh, scan_policy::LookaheadPolicy's shape).
template <bool X>
void launch_product_mode(WsState& ws, Shape& shape, const unsigned* in, unsigned* out, std::size_t n, cudaStream_t s) {
    static int per_sm = -1;
    ws::Params p{in, out, n, ws.desc, ws.counter, 0, 0};
    launch_kernel<ws_lab::Product>(ws::ws_scan_kernel<X>, p, p, per_sm, ws, shape, false, s);
}

void launch_product(WsState& ws, Shape& shape, const unsigned* in, unsigned* out, std::size_t n, bool exclusive,
                    cudaStream_t s) {
    if (exclusive)
        launch_product_mode<true>(ws, shape, in, out, n, s);
    else
        launch_product_mode<false>(ws, shape, in, out, n, s);
}

using WsFn = void (*)(WsState&, Shape&, const unsigned*, unsigned*, std::size_t, bool, cudaStream_t);
struct Variant {
    enum Kind { kWs, kWsCopy, kCub, kLookback, kMemcpy };
    Variant(std::string name_, Kind kind_, WsFn fn = nullptr) : name(std::move(name_)), kind(kind_), ws_fn(fn) {}
    std::string name;
    Kind kind;
    WsFn ws_fn;
    Shape shape;
    bool copies() const { return kind == kWsCopy || kind == kMemcpy; }  // output == input
};

// The variants by shape and knob, named ws<shape> (ws_lab::shape_name), then _f<F> for a ramped
// first fill; wscopy<shape>: the same pipeline storing its input unchanged.
template <int TILE, int S, int R, int W, int ST, int D, int LW, int LA = scan_policy::LookaheadPolicy::kDescsPerLane>
using WsShape = ws_lab::Shape<TILE, S, R, W, ST, D, LW, LA>;
template <class S, int F = 0>
Variant ws_variant() {
    return {"ws" + ws_lab::shape_name<S>() + (F > 0 ? "_f" + std::to_string(F) : ""), Variant::kWs,
            launch_variant<S, false, false, F>};
}
template <class S>
Variant ws_copy_variant() {
    return {"wscopy" + ws_lab::shape_name<S>(), Variant::kWsCopy, launch_variant<S, true>};
}
// The program's kernel, under its shape's name.
Variant ws_product() { return {"ws" + ws_lab::shape_name<ws_lab::Product>(), Variant::kWs, launch_product}; }

bool matches_filter(const std::string& name, const std::vector<std::string>& words) {
    if (words.empty()) return true;
    for (const std::string& w : words)
        if (!w.empty() && name.find(w) != std::string::npos) return true;
    return false;
}

int run(int argc, char** argv) {
    std::string csv, only, trace_csv, trace_only;
    long long range = 1000000;
    std::vector<long long> sizes = {20000000, 1LL << 28};
    std::vector<long long> check_sizes = {1, 1000, 1000003, 4096, 8192 * 7, (1 << 20) + 1, 3 * 16384 + 5};
    int warmup = 3, repeat = 30;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        auto value = [&](const char* opt) { return option_value(argv[a], opt); };
        if (const char* v = value("--csv")) {
            csv = v;
        } else if (const char* v = value("--sizes")) {
            sizes = cw::parse_size_list("sizes", v, 1, 1LL << 30);
        } else if (const char* v = value("--check-sizes")) {
            check_sizes = std::string(v).empty() ? std::vector<long long>{} : cw::parse_size_list("check-sizes", v, 1, 1LL << 30);
        } else if (const char* v = value("--repeat")) {
            repeat = static_cast<int>(cw::parse_integer("repeat", v, 1, 1000));
        } else if (const char* v = value("--warmup")) {
            warmup = static_cast<int>(cw::parse_integer("warmup", v, 0, 1000));
        } else if (const char* v = value("--only")) {
            only = v;
        } else if (const char* v = value("--range")) {
            range = cw::parse_integer("range", v, 0, 1LL << 30);
        } else if (const char* v = value("--trace")) {
            trace_csv = v;
        } else if (const char* v = value("--trace-only")) {
            trace_only = v;
        } else if (arg == "--help") {
            std::printf("usage: ws_scan --csv=FILE [--sizes=LIST] [--check-sizes=LIST] [--repeat=R] [--warmup=W]\n"
                        "               [--only=word,word]  (variants whose name holds a word; baselines always)\n"
                        "               [--range=K]  (input uniform in [-K, K])  [--trace=FILE]  (per-CTA timelines)\n"
                        "               [--trace-only=word,word]  (traced variants by name; default the chosen one)\n");
            return 0;
        } else {
            throw cw::UsageError("unknown option " + arg + " (--help lists them)");
        }
    }
    if (csv.empty()) throw cw::UsageError("option --csv=FILE is required");
    auto split_words = [](const std::string& list) {
        std::vector<std::string> out;
        for (std::size_t start = 0; start <= list.size() && !list.empty();) {
            const std::size_t comma = std::min(list.find(',', start), list.size());
            out.push_back(list.substr(start, comma - start));
            start = comma + 1;
        }
        return out;
    };
    const std::vector<std::string> words = split_words(only), trace_names = split_words(trace_only);

    // The variants' names: ws_lab::shape_name (store 0: 16-byte stores from registers, 1: bulk
    // stores; sched 0: every tile drawn from the counter, 1: each CTA's first S tiles fixed).
    // The first is the program's own kernel under its policy's shape name; the others change one
    // or two choices each. wscopy: the same pipeline storing its input unchanged (no
    // look-ahead): its ceiling.
    using ws_lab::Product;
    std::vector<Variant> variants = {
        ws_product(),
        ws_variant<WsShape<4096, 12, 2, 8, 0, 0, 1>>(),
        ws_variant<WsShape<4096, 12, 2, 8, 0, 0, 3>>(),
        ws_variant<WsShape<4096, 12, 2, 8, 0, 0, 4>>(),
        ws_variant<WsShape<4096, 12, 2, 4, 0, 0, 2>>(),
        ws_variant<WsShape<4096, 12, 1, 4, 0, 0, 2>>(),
        ws_variant<WsShape<4096, 13, 2, 8, 0, 0, 2>>(),
        ws_variant<WsShape<4096, 12, 2, 8, 1, 0, 2>>(),
        ws_variant<WsShape<4096, 12, 2, 8, 0, 1, 2>>(),
        ws_variant<WsShape<4096, 6, 2, 8, 0, 0, 2>>(),
        ws_variant<WsShape<8192, 6, 2, 8, 0, 0, 1>>(),
        ws_variant<WsShape<8192, 6, 2, 8, 0, 0, 2>>(),
        ws_variant<WsShape<2048, 24, 2, 4, 0, 0, 4>>(),
        ws_copy_variant<Product>(),
        ws_variant<Product, 2>(),
        ws_variant<Product, 4>(),
        ws_variant<Product, 6>(),
        ws_variant<WsShape<4096, 12, 2, 8, 0, 1, 2>, 4>(),
        ws_variant<WsShape<4096, 12, 2, 8, 0, 0, 2, 2>>(),
        ws_variant<WsShape<4096, 12, 2, 8, 0, 0, 2, 4>>(),
        ws_variant<WsShape<4096, 12, 2, 8, 0, 0, 2, 8>>(),
        ws_variant<WsShape<4096, 12, 2, 8, 0, 1, 2>, 2>(),
        ws_variant<WsShape<4096, 12, 2, 8, 0, 1, 2>, 3>(),
    };
    {
        std::vector<Variant> kept;
        for (const Variant& v : variants)
            if (matches_filter(v.name, words)) kept.push_back(v);
        variants = kept;
    }

    const cw::DeviceInfo dev = cw::select_device(0);
    bool ws_runs = false;  // the device runs the ws kernels (sm_90 code loaded)
    std::printf("%s\n", dev.describe().c_str());
    // The ws kernels exist only as sm_90 code: without it (an older GPU, or a binary built
    // without an sm_90 target, whose older compute_XX PTX the driver JIT-compiles for this GPU:
    // binaryVersion is then this GPU's, ptxVersion the older one, and the kernel body is empty,
    // as LookaheadPolicy::choose says) only the baselines run.
    {
        cudaFuncAttributes attr{};
        CUDA_CHECK(cudaFuncGetAttributes(&attr, ws::ws_scan_kernel<false>));
        ws_runs = !(dev.cc_major < 9 || attr.binaryVersion < 90 || attr.ptxVersion < 90);
        if (!ws_runs) {
            std::printf("no sm_90 code for this device (compute capability %d.%d, sm_%d code from compute_%d): "
                        "ws variants skipped\n",
                        dev.cc_major, dev.cc_minor, attr.binaryVersion, attr.ptxVersion);
            variants.clear();
        }
    }
    std::vector<Variant> all = {{"memcpy_d2d", Variant::kMemcpy}, {"cub", Variant::kCub}, {"lookback", Variant::kLookback}};
    all.insert(all.end(), variants.begin(), variants.end());

    std::size_t max_n = 1;
    for (long long n : sizes) max_n = std::max<std::size_t>(max_n, static_cast<std::size_t>(n));
    for (long long n : check_sizes) max_n = std::max<std::size_t>(max_n, static_cast<std::size_t>(n));
    cw::require_device_memory(3 * max_n * sizeof(unsigned) + (512u << 20), "ws_scan");

    cw::check_output_path(csv, "CSV file");
    if (!trace_csv.empty()) cw::check_output_path(trace_csv, "trace file");
    FILE* f = std::fopen(csv.c_str(), "w");
    if (f == nullptr) throw cw::UsageError("cannot write " + csv);
    std::fprintf(f, "variant,n,mode,ms,GBps,pct_of_copy,speedup_vs_cub,ok,runs_checked,tile,stages,reduce_warps,"
                    "scan_warps,store,sched,lookahead_warps,threads,blocks_per_sm,grid,copy_ms,cub_ms,device\n");

    // Input: uniform ints in [-range, range] (10^6 by default: their running sums wrap around 2^32 at 2^28).
    std::vector<unsigned> h(max_n), ref(max_n), got(max_n);
    cw::fill_uniform_int(h.data(), max_n, -range, range, 7);
    unsigned *din = nullptr, *dout = nullptr, *dref = nullptr;
    unsigned long long* dcount = nullptr;
    constexpr int kMaxCounts = 4096;
    CUDA_CHECK(cudaMalloc(&din, max_n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dout, max_n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dref, max_n * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&dcount, kMaxCounts * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(din, h.data(), max_n * sizeof(unsigned), cudaMemcpyHostToDevice));

    WsState ws;
    ws.sms = dev.sm_count;
    ws.max_tiles = max_n / 2048 + 2;
    CUDA_CHECK(cudaMalloc(&ws.desc, ws.max_tiles * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(ws.desc, 0, ws.max_tiles * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&ws.counter, 2 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(ws.counter, 0, 2 * sizeof(unsigned)));
    // Room for the trace of any resident grid (at most 32 CTAs per SM on any GPU so far).
    ws.trace_ctas = 32 * static_cast<std::size_t>(dev.sm_count);
    // The grid's words, then two per traced tile (ws_scan.cuh, kTracedTiles).
    const std::size_t trace_words = ws.trace_ctas * ws_lab::kTraceWords + 2 * ws_lab::kTracedTiles;
    CUDA_CHECK(cudaMalloc(&ws.trace, trace_words * sizeof(unsigned long long)));

    scan_gpu::LookbackScan lookback(max_n, scan_policy::LookbackPolicy::for_device(dev));
    void* cub_temp = nullptr;
    std::size_t cub_bytes = 0, cub_bytes2 = 0;
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, din, dout, static_cast<int>(max_n)));
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, cub_bytes2, din, dout, static_cast<int>(max_n)));
    cub_bytes = std::max(cub_bytes, cub_bytes2);
    CUDA_CHECK(cudaMalloc(&cub_temp, cub_bytes));
    cw::L2Flusher flusher;

    auto launch = [&](Variant& v, std::size_t n, bool exclusive, cudaStream_t s) {
        switch (v.kind) {
            case Variant::kMemcpy:
                CUDA_CHECK(cudaMemcpyAsync(dout, din, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, s));
                break;
            case Variant::kCub: {
                std::size_t b = cub_bytes;
                if (exclusive)
                    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_temp, b, din, dout, static_cast<int>(n), s));
                else
                    CUDA_CHECK(cub::DeviceScan::InclusiveSum(cub_temp, b, din, dout, static_cast<int>(n), s));
                break;
            }
            case Variant::kLookback: lookback.run(din, dout, n, exclusive, s); break;
            default: v.ws_fn(ws, v.shape, din, dout, n, exclusive, s);
        }
    };
    // The GPU comparison of dout with dref (first n) into dcount[slot].
    auto compare_on_gpu = [&](std::size_t n, int slot, cudaStream_t s) {
        count_differences<<<1024, 256, 0, s>>>(dout, dref, n, dcount + slot);
        CUDA_CHECK_LAUNCH();
    };
    auto wrong_runs = [&](int slots) {
        std::vector<unsigned long long> c(slots);
        CUDA_CHECK(cudaMemcpy(c.data(), dcount, slots * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (unsigned long long x : c) wrong += x != 0 ? 1 : 0;
        return wrong;
    };
    // The expected output of n ints (scan or copy) into ref and dref.
    auto prepare_reference = [&](std::size_t n, bool exclusive, bool copy) {
        unsigned run = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const unsigned x = h[i];
            run += x;
            ref[i] = copy ? x : exclusive ? run - x : run;
        }
        CUDA_CHECK(cudaMemcpy(dref, ref.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    };
    // One run, poisoned output first, compared on the host with the CPU reference.
    auto validate_on_host = [&](Variant& v, std::size_t n, bool exclusive) {
        CUDA_CHECK(cudaMemset(dout, 0xff, n * sizeof(unsigned)));
        launch(v, n, exclusive, 0);
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(got.data(), dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        std::size_t bad = 0, first = n;
        for (std::size_t i = 0; i < n; ++i)
            if (got[i] != ref[i]) {
                if (bad++ == 0) first = i;
            }
        if (bad != 0)
            std::printf("  %s n=%zu %s: %zu wrong, first at %zu (got %u, want %u)\n", v.name.c_str(), n,
                        exclusive ? "exclusive" : "inclusive", bad, first, got[first], ref[first]);
        return bad == 0;
    };

    // The GPU comparison, checked: a planted difference must count 1.
    {
        const std::size_t n = std::min<std::size_t>(max_n, 1 << 20);
        prepare_reference(n, false, true);
        CUDA_CHECK(cudaMemcpy(dout, din, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
        const unsigned planted = h[n / 2] ^ 1u;
        CUDA_CHECK(cudaMemcpy(dout + n / 2, &planted, sizeof planted, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(dcount, 0, sizeof(unsigned long long)));
        compare_on_gpu(n, 0, 0);
        unsigned long long c = 0;
        CUDA_CHECK(cudaMemcpy(&c, dcount, sizeof c, cudaMemcpyDeviceToHost));
        if (c != 1) {
            std::fprintf(stderr, "ws_scan: the comparison kernel missed a planted difference\n");
            return 1;
        }
    }

    int failures = 0;
    const char* modes[2] = {"inclusive", "exclusive"};
    // Awkward sizes: validation only (host comparison, then 3 more runs compared on the GPU:
    // the counter reset and the epochs between launches).
    for (long long nn : check_sizes) {
        const std::size_t n = static_cast<std::size_t>(nn);
        for (int m = 0; m < 2; ++m) {
            const bool exclusive = m == 1;
            for (int copy = 0; copy < 2; ++copy) {
                prepare_reference(n, exclusive, copy == 1);
                for (Variant& v : all) {
                    if (v.copies() != (copy == 1)) continue;
                    bool ok = validate_on_host(v, n, exclusive);
                    CUDA_CHECK(cudaMemset(dcount, 0, 3 * sizeof(unsigned long long)));
                    for (int r = 0; r < 3; ++r) {
                        CUDA_CHECK(cudaMemset(dout, 0xff, n * sizeof(unsigned)));
                        launch(v, n, exclusive, 0);
                        compare_on_gpu(n, r, 0);
                    }
                    ok = ok && wrong_runs(3) == 0;
                    failures += ok ? 0 : 1;
                    const Shape& sh = v.shape;
                    std::fprintf(f, "%s,%zu,%s,,,,,%d,4,%d,%d,%d,%d,%d,%d,%d,%d,%d,%lld,,,%s\n", v.name.c_str(), n,
                                 modes[m], ok ? 1 : 0, sh.tile, sh.stages, sh.reduce_warps, sh.scan_warps, sh.store,
                                 sh.sched, sh.lookahead_warps, sh.threads, sh.blocks_per_sm, sh.grid, dev.name.c_str());
                    if (!ok) std::printf("check n=%zu %s %s: WRONG\n", n, modes[m], v.name.c_str());
                }
            }
        }
        std::printf("check n=%zu: validated\n", n);
    }
    std::fflush(f);

    const int slots = warmup + repeat;
    if (slots > kMaxCounts) throw cw::UsageError("--warmup + --repeat must be at most 4096");
    for (long long nn : sizes) {
        const std::size_t n = static_cast<std::size_t>(nn);
        const double bytes = 2.0 * static_cast<double>(n) * sizeof(unsigned);
        for (int m = 0; m < 2; ++m) {
            const bool exclusive = m == 1;
            struct Row {
                Variant* v;
                double ms;
                bool ok;
            };
            std::vector<Row> rows;
            auto timed = [&](Variant& v) {
                // Every run, warm-up and timed, compared on the GPU after its stop event.
                CUDA_CHECK(cudaMemset(dcount, 0, slots * sizeof(unsigned long long)));
                for (int i = 0; i < warmup; ++i) {
                    launch(v, n, exclusive, 0);
                    compare_on_gpu(n, i, 0);
                }
                cw::GpuTimer timer;
                std::vector<double> samples;
                for (int i = 0; i < repeat; ++i) {
                    flusher.flush(0);
                    timer.start(0);
                    launch(v, n, exclusive, 0);
                    samples.push_back(timer.stop(0));
                    compare_on_gpu(n, warmup + i, 0);
                }
                const int wrong = wrong_runs(slots);
                if (wrong != 0) std::printf("  %s: %d of %d runs wrong\n", v.name.c_str(), wrong, slots);
                return std::make_pair(cw::median(samples), wrong == 0);
            };
            for (int copy = 1; copy >= 0; --copy) {
                prepare_reference(n, exclusive, copy == 1);
                for (Variant& v : all) {
                    if (v.copies() != (copy == 1)) continue;
                    const bool ok_host = validate_on_host(v, n, exclusive);
                    const auto t = timed(v);
                    rows.push_back({&v, t.first, ok_host && t.second});
                }
            }
            // The copy again, last (the reference is the mean of both medians).
            prepare_reference(n, exclusive, true);
            Variant& memcpy_v = all[0];
            const auto copy_again = timed(memcpy_v);
            double copy_ms = 0, cub_ms = 0;
            for (Row& r : rows) {
                if (r.v->kind == Variant::kMemcpy) {
                    copy_ms = 0.5 * (r.ms + copy_again.first);
                    r.ms = copy_ms;
                    r.ok = r.ok && copy_again.second;
                }
                if (r.v->kind == Variant::kCub) cub_ms = r.ms;
            }
            for (const Row& r : rows) {
                failures += r.ok ? 0 : 1;
                const Shape& s = r.v->shape;
                std::fprintf(f, "%s,%zu,%s,%.5f,%.1f,%.2f,%.4f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%lld,%.5f,%.5f,%s\n",
                             r.v->name.c_str(), n, modes[m], r.ms, bytes / r.ms / 1e6, 100.0 * copy_ms / r.ms,
                             cub_ms / r.ms, r.ok ? 1 : 0, slots + 1, s.tile, s.stages, s.reduce_warps, s.scan_warps,
                             s.store, s.sched, s.lookahead_warps, s.threads, s.blocks_per_sm, s.grid, copy_ms, cub_ms,
                             dev.name.c_str());
                std::printf("%-28s n=%-10zu %-9s %.5f ms %7.1f GB/s %6.2f%% of copy  x%.3f vs cub  %s\n",
                            r.v->name.c_str(), n, modes[m], r.ms, bytes / r.ms / 1e6, 100.0 * copy_ms / r.ms,
                            cub_ms / r.ms, r.ok ? "ok" : "WRONG");
            }
            std::fflush(f);
        }
    }
    std::fclose(f);

    // --trace: per-CTA timelines of the chosen variant and of its pipeline alone (the header).
    if (!trace_csv.empty() && !ws_runs) std::printf("trace: no ws variant can run here, nothing traced\n");
    if (!trace_csv.empty() && ws_runs) {
        constexpr int kTracedLaunches = 5;
        FILE* tf = std::fopen(trace_csv.c_str(), "w");
        if (tf == nullptr) throw cw::UsageError("cannot write " + trace_csv);
        std::fprintf(tf, "variant,n,launch,event_ms,ok,grid,cta,sm,tiles,enter_ns,first_landed_ns,first_stored_ns,"
                         "last_stored_ns,wait_data_cycles,wait_reduce_cycles,wait_prefix_cycles,work_cycles,cycles,first_tile,"
                         "look_start_ns,look_done_ns,look_first_rounds,look_rounds,look_tiles,preds_landed_ns,preds_published_ns,"
                         "range,device\n");
        struct Traced {
            std::string name;
            bool copy;
            WsFn fn;
            bool by_default;  // traced without --trace-only
        };
        // The chosen variant and its pipeline by default; --trace-only=word,... picks by name
        // among these (the fixed first tiles, d1, alone and with a first fill ramped to 2 copies).
        using Fixed = WsShape<ws_lab::Product::kTile, ws_lab::Product::kStages, ws_lab::Product::kReduceWarps,
                              ws_lab::Product::kScanWarps, ws_lab::Product::kStore, 1,
                              ws_lab::Product::kLookaheadWarps, ws_lab::Product::kDescsPerLane>;
        const std::string product = ws_lab::shape_name<ws_lab::Product>(), fixed = ws_lab::shape_name<Fixed>();
        const Traced all_traced[] = {{"ws" + product, false, launch_variant<ws_lab::Product, false, true>, true},
                                     {"wscopy" + product, true, launch_variant<ws_lab::Product, true, true>, true},
                                     {"ws" + fixed, false, launch_variant<Fixed, false, true>, false},
                                     {"ws" + fixed + "_f2", false, launch_variant<Fixed, false, true, 2>, false}};
        std::vector<Traced> traced;
        for (const Traced& tv : all_traced)
            if (trace_only.empty() ? tv.by_default : matches_filter(tv.name, trace_names)) traced.push_back(tv);
        std::vector<unsigned long long> words(ws.trace_ctas * ws_lab::kTraceWords), tiles(2 * ws_lab::kTracedTiles);
        for (long long nn : sizes) {
            const std::size_t n = static_cast<std::size_t>(nn);
            for (const Traced& tv : traced) {
                prepare_reference(n, false, tv.copy);
                Shape shape;
                CUDA_CHECK(cudaMemset(dcount, 0, (kTracedLaunches + 1) * sizeof(unsigned long long)));
                CUDA_CHECK(cudaMemset(dout, 0xff, n * sizeof(unsigned)));
                tv.fn(ws, shape, din, dout, n, false, 0);  // warm-up, checked too
                compare_on_gpu(n, kTracedLaunches, 0);
                for (int i = 0; i < kTracedLaunches; ++i) {
                    CUDA_CHECK(cudaMemsetAsync(dout, 0xff, n * sizeof(unsigned), 0));  // each launch's own result
                    CUDA_CHECK(cudaMemsetAsync(ws.trace, 0, trace_words * sizeof(unsigned long long), 0));
                    flusher.flush(0);
                    cw::GpuTimer timer;
                    timer.start(0);
                    tv.fn(ws, shape, din, dout, n, false, 0);
                    const double ms = timer.stop(0);
                    compare_on_gpu(n, i, 0);
                    const std::size_t g = static_cast<std::size_t>(shape.grid);
                    CUDA_CHECK(cudaMemcpy(words.data(), ws.trace, g * ws_lab::kTraceWords * sizeof(unsigned long long),
                                          cudaMemcpyDeviceToHost));
                    // The tile times sit right after this grid's words (the kernel's gridDim.x).
                    const std::size_t tile = static_cast<std::size_t>(shape.tile);
                    const std::size_t traced_tiles = std::min<std::size_t>((n + tile - 1) / tile, ws_lab::kTracedTiles);
                    CUDA_CHECK(cudaMemcpy(tiles.data(), ws.trace + g * ws_lab::kTraceWords,
                                          2 * traced_tiles * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
                    unsigned long long wrong = 0;
                    CUDA_CHECK(cudaMemcpy(&wrong, dcount + i, sizeof wrong, cudaMemcpyDeviceToHost));
                    const bool ok = wrong == 0;
                    failures += ok ? 0 : 1;
                    unsigned long long t0 = ~0ull;
                    for (std::size_t c = 0; c < g; ++c) t0 = std::min(t0, words[c * ws_lab::kTraceWords + ws_lab::kEnterNs]);
                    for (std::size_t c = 0; c < g; ++c) {
                        const unsigned long long* w = &words[c * ws_lab::kTraceWords];
                        const bool any = w[ws_lab::kTiles] > 0;  // a CTA that drew no tile has no tile times
                        const bool looked = w[ws_lab::kLookTiles] > 0;  // look-ahead warp 1 had a tile
                        // Word k relative to the launch's first start where `had` (the warp had a tile), else -1.
                        auto rel = [&](bool had, int k) { return had ? static_cast<long long>(w[k] - t0) : -1LL; };
                        // When the last of the first tile's predecessors landed and was published
                        // (-1: no look-ahead, as in the pipeline alone, first tile 0, a first tile
                        // past kTracedTiles, or a predecessor not recorded).
                        long long preds_landed = -1, preds_published = -1;
                        const unsigned long long first = looked ? w[ws_lab::kFirstTile] : ~0ull;
                        if (looked && first > 0 && first <= traced_tiles) {  // tile 0 has no predecessor
                            unsigned long long landed = t0, published = t0;
                            bool all = true;
                            for (unsigned long long t = 0; t < first && all; ++t) {
                                all = tiles[2 * t] != 0 && tiles[2 * t + 1] != 0;
                                landed = std::max(landed, tiles[2 * t]);
                                published = std::max(published, tiles[2 * t + 1]);
                            }
                            if (all) {
                                preds_landed = static_cast<long long>(landed - t0);
                                preds_published = static_cast<long long>(published - t0);
                            }
                        }
                        std::fprintf(tf,
                                     "%s,%zu,%d,%.5f,%d,%zu,%zu,%llu,%llu,%llu,%lld,%lld,%lld,%llu,%llu,%llu,%llu,%llu,"
                                     "%lld,%lld,%lld,%llu,%llu,%llu,%lld,%lld,%lld,%s\n",
                                     tv.name.c_str(), n, i + 1, ms, ok ? 1 : 0, g, c, w[ws_lab::kSm], w[ws_lab::kTiles],
                                     w[ws_lab::kEnterNs] - t0, rel(any, ws_lab::kFirstLandedNs), rel(any, ws_lab::kFirstStoredNs),
                                     rel(any, ws_lab::kLastStoredNs), w[ws_lab::kWaitDataCycles], w[ws_lab::kWaitReduceCycles],
                                     w[ws_lab::kWaitPrefixCycles], w[ws_lab::kWorkCycles],
                                     w[ws_lab::kLastStoredCycle] - w[ws_lab::kEnterCycle],
                                     looked ? static_cast<long long>(w[ws_lab::kFirstTile]) : -1LL,
                                     rel(looked, ws_lab::kLookStartNs), rel(looked, ws_lab::kLookDoneNs),
                                     w[ws_lab::kLookFirstRounds], w[ws_lab::kLookRounds],
                                     w[ws_lab::kLookTiles], preds_landed, preds_published, range, dev.name.c_str());
                    }
                }
                if (wrong_runs(kTracedLaunches + 1) != 0) std::printf("trace %s n=%zu: WRONG\n", tv.name.c_str(), n);
                std::printf("trace %s n=%zu: %d launches, grid %lld\n", tv.name.c_str(), n, kTracedLaunches, shape.grid);
            }
        }
        std::fclose(tf);
    }
    CUDA_CHECK(cudaFree(ws.trace));
    CUDA_CHECK(cudaFree(din));
    CUDA_CHECK(cudaFree(dout));
    CUDA_CHECK(cudaFree(dref));
    CUDA_CHECK(cudaFree(dcount));
    CUDA_CHECK(cudaFree(ws.desc));
    CUDA_CHECK(cudaFree(ws.counter));
    CUDA_CHECK(cudaFree(cub_temp));
    std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
    return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return cw::run_main("ws_scan", [&]() { return run(argc, argv); }); }
