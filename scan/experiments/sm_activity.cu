// SM activity of the report's map kernel, SM by SM (report 002, Figure 3.4: "the percentage
// of time each multiprocessor was active during the duration of the kernel launch").
// Nsight Compute gives only the spread over the SMs (sm__cycles_active.min/avg/max, in
// results/profile.csv); here every block of map_scan_chunks records its SM and its start and
// end on the GPU's nanosecond clock (trace_map_scan_chunks below, around the program's chunk
// scan, map_chunk.cuh), and an SM is active
// while at least one of its blocks runs: its active time is the union of its blocks'
// intervals, shown as a percentage of the kernel's span (first block start to last block end).
// The kernel's output is checked against the CPU (each chunk scanned on its own).
//
//   build/experiments/sm_activity OUT.csv [N ...]      (default N: 15000 1250000)
// OUT.csv: n,threads,per_thread,blocks,sm,sm_blocks,active_ns,span_ns,active_pct,device
// (one row per SM of the device, SMs that ran no block included with 0).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "common.cuh"
#include "gpu_clock.cuh"
#include "map_chunk.cuh"

namespace {

// One block of a traced launch: the SM it ran on and its start and end on the GPU's nanosecond
// clock (%globaltimer, common to every SM).
struct BlockTrace {
    unsigned long long start_ns, end_ns;
    unsigned sm, pad;
};

// map_scan_chunks (inclusive), timed block by block: thread 0 records the block's SM and start
// time, every thread its end time (atomicMax: threads that have no chunk return early, so
// there is no barrier to wait at).
__global__ void map_scan_chunks_traced(const unsigned* in, unsigned* out, unsigned* totals, std::size_t n,
                                       int per_thread, BlockTrace* trace) {
    if (threadIdx.x == 0) {
        trace[blockIdx.x].sm = gpu_clock::sm_id();
        trace[blockIdx.x].start_ns = gpu_clock::global_ns();
    }
    scan_map::scan_chunk<false>(in, out, totals, n, per_thread);
    atomicMax(&trace[blockIdx.x].end_ns, gpu_clock::global_ns());
}

// One traced launch on n elements (totals written where totals != nullptr): a BlockTrace per block.
std::vector<BlockTrace> trace_map_scan_chunks(const unsigned* in, unsigned* out, unsigned* totals, std::size_t n,
                                              int threads, int per_thread) {
    const std::size_t chunks = (n + per_thread - 1) / per_thread;
    const unsigned grid = static_cast<unsigned>((chunks + threads - 1) / threads);
    cw::DeviceBuffer<BlockTrace> d_trace(grid);
    CUDA_CHECK(cudaMemset(d_trace.data(), 0, grid * sizeof(BlockTrace)));
    map_scan_chunks_traced<<<grid, threads>>>(in, out, totals, n, per_thread, d_trace.data());
    CUDA_CHECK_LAUNCH();
    std::vector<BlockTrace> trace(grid);
    CUDA_CHECK(cudaMemcpy(trace.data(), d_trace.data(), grid * sizeof(BlockTrace), cudaMemcpyDeviceToHost));
    return trace;
}

struct SmRow {
    int blocks = 0;
    double active_ns = 0;
};

// Union of [start, end) intervals, in ns.
double union_ns(std::vector<std::pair<unsigned long long, unsigned long long>> iv) {
    std::sort(iv.begin(), iv.end());
    double total = 0;
    unsigned long long cur_start = 0, cur_end = 0;
    bool open = false;
    for (const auto& p : iv) {
        if (!open || p.first > cur_end) {
            if (open) total += static_cast<double>(cur_end - cur_start);
            cur_start = p.first, cur_end = p.second, open = true;
        } else if (p.second > cur_end) {
            cur_end = p.second;
        }
    }
    if (open) total += static_cast<double>(cur_end - cur_start);
    return total;
}

int run(int argc, char** argv) {
    if (argc < 2) throw cw::UsageError("usage: sm_activity OUT.csv [N ...]");
    const std::string out_path = argv[1];
    std::vector<long long> sizes;
    for (int i = 2; i < argc; ++i) sizes.push_back(cw::parse_integer("n", argv[i], 1, 1LL << 28));
    if (sizes.empty()) sizes = {15000, 1250000};
    const int threads = 1024, per_thread = 8;  // the report's launch (as `make profile` profiles it)
    cw::check_output_path(out_path, "CSV file");

    const cw::DeviceInfo dev = cw::select_device(0);
    std::printf("%s\n", dev.describe().c_str());
    std::string csv = "n,threads,per_thread,blocks,sm,sm_blocks,active_ns,span_ns,active_pct,device\n";
    std::printf("planned: %zu runs\n", sizes.size());  // one traced, checked launch per size
    for (long long n : sizes) {
        const std::size_t un = static_cast<std::size_t>(n);
        std::vector<unsigned> h_in(un), h_out(un);
        cw::Rng rng(2024 + static_cast<std::uint64_t>(n));
        for (auto& v : h_in) v = static_cast<unsigned>(rng.next_int(-1000, 1000));
        cw::DeviceBuffer<unsigned> d_in(un), d_out(un), d_totals(un / per_thread + 1);
        CUDA_CHECK(cudaMemcpy(d_in.data(), h_in.data(), un * sizeof(unsigned), cudaMemcpyHostToDevice));
        // Warm-up (module load, first-touch), then the traced launch.
        trace_map_scan_chunks(d_in.data(), d_out.data(), d_totals.data(), un, threads, per_thread);
        CUDA_CHECK(cudaMemset(d_out.data(), 0xa5, un * sizeof(unsigned)));
        const std::vector<BlockTrace> trace =
            trace_map_scan_chunks(d_in.data(), d_out.data(), d_totals.data(), un, threads, per_thread);
        CUDA_CHECK(cudaMemcpy(h_out.data(), d_out.data(), un * sizeof(unsigned), cudaMemcpyDeviceToHost));
        std::size_t wrong = 0;
        for (std::size_t c = 0; c < un; c += per_thread) {
            unsigned runsum = 0;
            for (std::size_t i = c; i < std::min(un, c + per_thread); ++i) {
                runsum += h_in[i];
                wrong += h_out[i] != runsum;
            }
        }
        if (wrong != 0) {
            std::fprintf(stderr, "sm_activity: n=%lld: %zu elements wrong\n", n, wrong);
            return cw::kExitWrongResult;
        }
        unsigned long long first = ~0ULL, last = 0;
        std::vector<std::vector<std::pair<unsigned long long, unsigned long long>>> per_sm(dev.sm_count);
        for (const auto& b : trace) {
            if (b.end_ns < b.start_ns || static_cast<int>(b.sm) >= dev.sm_count)
                throw std::runtime_error("sm_activity: a block record is incomplete");
            first = std::min(first, b.start_ns);
            last = std::max(last, b.end_ns);
            per_sm[b.sm].emplace_back(b.start_ns, b.end_ns);
        }
        const double span = static_cast<double>(last - first);
        double busiest = 0, total = 0;
        for (int sm = 0; sm < dev.sm_count; ++sm) {
            const double active = union_ns(per_sm[sm]);
            const double pct = span > 0 ? 100.0 * active / span : 0.0;
            busiest = std::max(busiest, pct);
            total += pct;
            csv += cw::format("%lld,%d,%d,%zu,%d,%zu,%.0f,%.0f,%.2f,%s\n", n, threads, per_thread, trace.size(), sm,
                              per_sm[sm].size(), active, span, pct, dev.name.c_str());
        }
        std::printf("sm_activity n=%lld: %zu blocks on %d SMs, span %.1f us, SM active: mean %.1f %%, most %.1f %%: Result = PASS\n", n,
                    trace.size(), dev.sm_count, span / 1e3, total / dev.sm_count, busiest);
    }
    cw::write_file_atomically(out_path, "CSV file", csv, nullptr, 0);
    return cw::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    return cw::run_main("sm_activity", [&]() { return run(argc, argv); });
}
