// The version registry of scan (see scan_versions.cuh).
#include "scan_versions.cuh"

#include <cmath>

#include "scan_cub.cuh"
#include "scan_plan.h"

namespace scan_versions {
namespace {

double single_pass(std::size_t n, const Params&) { return scan_plan::model_bytes_single_pass(n); }
double hillis_steele_additions(std::size_t n, const Params&) { return scan_plan::additions_hillis_steele(n); }
// The chunk versions (map, map_brent_kung): each thread scans --per-thread elements.
int per_thread_items(const Params& p) { return p.per_thread; }

// Device bytes of the per-level totals of a recursive scan (every level but the first).
double level_bytes(std::size_t max_n, std::size_t group) {
    const std::vector<std::size_t> levels = scan_plan::level_sizes(max_n, group);
    double bytes = 0.0;
    for (std::size_t l = 1; l < levels.size(); ++l) bytes += 4.0 * static_cast<double>(levels[l]);
    return bytes;
}

// The models of a recursive scan over groups of `group(p)` elements (map: --per-thread,
// brent_kung: 2 x --threads): its traffic, its additions and its per-level totals all follow
// from the group size.
template <typename Group>
void recursive_models(Version& v, Group group, double (*additions)(std::size_t n, std::size_t group)) {
    v.model_bytes = [group](std::size_t n, const Params& p) { return scan_plan::model_bytes_recursive(n, group(p)); };
    v.additions = [group, additions](std::size_t n, const Params& p) { return additions(n, group(p)); };
    v.workspace_bytes = [group](std::size_t n, const Params& p) { return level_bytes(n, group(p)); };
}

// The report's in-place Hillis-Steele kernel (a racy demonstration, never validated; no
// exclusive form) on one block (`one_block`: section 1) or on ceil(n / --threads) blocks
// (section 1.10).
Version hillis_steele_in_place_entry(const char* label, const char* summary, bool one_block) {
    Version v = cw::version_entry<Version>(label, "hillis_steele_in_place", summary);
    v.validated = false;
    v.by_default = false;  // a demonstration runs only when --only names it
    v.has_exclusive = false;
    v.model_bytes = [](std::size_t n, const Params&) { return scan_plan::model_bytes_hillis_steele_in_place(n); };
    v.additions = hillis_steele_additions;
    if (one_block)
        v.cannot_run = [](long long n, const Params&) -> std::string {
            if (n <= scan_plan::kMaxOneBlock) return "";
            return "one block covers at most " + std::to_string(scan_plan::kMaxOneBlock) + " elements";
        };
    v.make = [one_block](std::size_t, const Params& p) {
        return std::unique_ptr<scan_gpu::Runner>(new scan_gpu::HillisSteeleInPlace(p.threads, one_block));
    };
    return v;
}

std::vector<Version> make_registry() {
    std::vector<Version> r;
    {
        Version v = cw::version_entry<Version>("cub", "cub::DeviceScan::InclusiveSum / ExclusiveSum",
                                               "cub::DeviceScan (scan_cub.cu)", true);
        v.model_bytes = single_pass;
        v.additions = [](std::size_t, const Params&) { return std::nan(""); };
        // CUB's temporary storage: its tile states, far less than this bound.
        v.workspace_bytes = [](std::size_t n, const Params&) { return static_cast<double>(n) / 64.0 + (1 << 20); };
        v.make = [](std::size_t max_n, const Params&) {
            return std::unique_ptr<scan_gpu::Runner>(new scan_gpu::CubScan(max_n));
        };
        r.push_back(v);
    }
    r.push_back(hillis_steele_in_place_entry(
        "hs_inplace_racy", "report section 1: Hillis-Steele in place, one block of --threads (n <= 1024)", true));
    {
        Version v = cw::version_entry<Version>("hs_buffered", "hillis_steele_double_buffered_kernel",
                                               "section 1 done right: double-buffered in shared memory, one block (n <= --threads)");
        v.cannot_run = [](long long n, const Params& p) -> std::string {
            if (n <= p.threads) return "";
            return "a single block of --threads=" + std::to_string(p.threads) + " threads scans at most " +
                   std::to_string(p.threads) + " elements" +
                   (p.threads < scan_plan::kMaxOneBlock ? " (--threads=1024 allows 1024)" : "");
        };
        v.model_bytes = single_pass;
        v.additions = hillis_steele_additions;
        v.make = [](std::size_t, const Params& p) {
            return std::unique_ptr<scan_gpu::Runner>(new scan_gpu::HillisSteeleBuffered(p.threads));
        };
        r.push_back(v);
    }
    r.push_back(hillis_steele_in_place_entry(
        "hs_multiblock_racy", "report section 1.10: the in-place kernel on ceil(n/--threads) blocks", false));
    {
        // The report's section 2 kernel as printed: validated against the CPU on every run
        // like the other demonstrations (wrong_runs, mse), never counted as PASS or FAIL.
        Version v = cw::version_entry<Version>("map_as_printed", "map_prefix_sum_as_printed",
                                               "report section 2 as printed: one kernel, thread 0 scans the chunk "
                                               "totals, printf(\"\") as the barrier between blocks");
        v.validated = false;
        v.by_default = false;
        v.has_exclusive = false;
        recursive_models(v, [](const Params& p) { return static_cast<std::size_t>(p.per_thread); },
                         scan_plan::additions_map);
        v.items_per_thread = per_thread_items;
        v.make = [](std::size_t max_n, const Params& p) {
            return std::unique_ptr<scan_gpu::Runner>(new scan_gpu::MapAsPrinted(max_n, p.threads, p.per_thread));
        };
        r.push_back(v);
    }
    {
        Version v = cw::version_entry<Version>("map", "map_scan_chunks, map_add_chunk_offsets",
                                               "report section 2: --per-thread elements per thread, totals scanned, offsets added");
        recursive_models(v, [](const Params& p) { return static_cast<std::size_t>(p.per_thread); },
                         scan_plan::additions_map);
        v.items_per_thread = per_thread_items;
        v.make = [](std::size_t max_n, const Params& p) {
            return std::unique_ptr<scan_gpu::Runner>(new scan_gpu::MapScan(max_n, p.threads, p.per_thread));
        };
        r.push_back(v);
    }
    {
        Version v = cw::version_entry<Version>("brent_kung", "brent_kung_block_scan, brent_kung_add_block_sums",
                                               "Brent-Kung throughout: 2 x --threads per block, block sums scanned, added back");
        recursive_models(v, [](const Params& p) { return 2 * static_cast<std::size_t>(p.threads); },
                         scan_plan::additions_brent_kung);
        v.make = [](std::size_t max_n, const Params& p) {
            return std::unique_ptr<scan_gpu::Runner>(new scan_gpu::BrentKungScan(max_n, p.threads));
        };
        r.push_back(v);
    }
    {
        Version v = cw::version_entry<Version>("map_brent_kung", "map_scan_chunks, brent_kung_block_scan, map_add_chunk_offsets",
                                               "report section 3 as described: --per-thread chunks, their totals by Brent-Kung, added back");
        v.model_bytes = [](std::size_t n, const Params& p) {
            return scan_plan::model_bytes_map_brent_kung(n, static_cast<std::size_t>(p.per_thread),
                                                         2 * static_cast<std::size_t>(p.threads));
        };
        v.additions = [](std::size_t n, const Params& p) {
            return scan_plan::additions_map_brent_kung(n, static_cast<std::size_t>(p.per_thread),
                                                       2 * static_cast<std::size_t>(p.threads));
        };
        v.workspace_bytes = [](std::size_t n, const Params& p) {  // the chunk totals and their block sums
            const std::size_t chunks = scan_plan::ceil_div(n > 0 ? n : 1, static_cast<std::size_t>(p.per_thread));
            return 4.0 * static_cast<double>(chunks) + level_bytes(chunks, 2 * static_cast<std::size_t>(p.threads));
        };
        v.items_per_thread = per_thread_items;
        v.make = [](std::size_t max_n, const Params& p) {
            return std::unique_ptr<scan_gpu::Runner>(new scan_gpu::MapBrentKungScan(max_n, p.threads, p.per_thread));
        };
        r.push_back(v);
    }
    {
        Version v = cw::version_entry<Version>("lookback", "scan_decoupled_lookback",
                                               "ours: single-pass decoupled look-back (tile: --lb-items, else chosen per device)");
        v.model_bytes = single_pass;
        v.additions = [](std::size_t n, const Params& p) {
            return scan_plan::additions_lookback(n, static_cast<std::size_t>(p.lookback.threads),
                                                 static_cast<std::size_t>(p.lookback.items));
        };
        v.workspace_bytes = [](std::size_t n, const Params& p) {  // a descriptor per tile, the tile counter
            return 8.0 * static_cast<double>(scan_plan::ceil_div(n, static_cast<std::size_t>(p.lookback.tile()))) + 4.0;
        };
        v.items_per_thread = [](const Params& p) { return p.lookback.items; };
        v.make = [](std::size_t max_n, const Params& p) {
            return std::unique_ptr<scan_gpu::Runner>(new scan_gpu::LookbackScan(max_n, p.lookback));
        };
        r.push_back(v);
    }
    return r;
}

}  // namespace

const std::vector<Version>& registry() {
    static const std::vector<Version> versions = make_registry();
    return versions;
}

}  // namespace scan_versions
