"""The scan README's sentences that carry measured numbers, as templates: tables.py fills each
{name} from the CSVs and writes the bullet, paragraph or table as a whole generated block
(between <!-- BEGIN prose_... --> and <!-- END prose_... --> in README.md), wrapped at 100
characters, so that no number stands as a marker inside a hand-written sentence. The words are
edited here; the numbers come from tables.py.
"""

PROSE = {
    'prose_lookback_registers': """\
- **In the block**: warp scan of the thread totals with `__shfl_up_sync`, the 8 warp totals in
  shared memory; three `__syncthreads()` per tile (tile id, warp totals, prefix). The scanned values
  go straight back to the warp's shared memory, already offset by the thread's prefix within the
  warp, so that nothing but a few scalars stays live while warp 0 looks back
  ({t_lb_regs} registers in the committed run, no spills), and the final store
  adds one offset that is the same for the whole warp.
- **Occupancy**: {t_lb_bps} blocks of 256 per SM in the committed run
  (`__launch_bounds__(256, 6)`, 6 × {t_lb_smem_kib} KiB of shared memory),
  {t_lb_occ} theoretical occupancy (the committed run's `k1_*` columns),
  about 200 KiB of loads in flight per SM. A 32-int block needs
  {t_lb_smem_kib} KiB of shared memory, so on GPUs with less of it per SM
  (K40m: 1 such block, GTX 970: 2, Turing: 1, GA10x/Ada: 2) the program uses the 16-int tile instead
  (4096 ints, 17 KiB, 2 to 8 blocks per SM): the rule, applied at run time from the occupancy API,
  is 32 ints where at least 4 blocks of them fit on an SM, else 16. That rule, the tile shape and
  the `__launch_bounds__` minimum per architecture are one policy struct,
  `scan_policy::LookbackPolicy` (`scan_policy.h`), which the launch and the launch description (the
  CSV's `k1_*` columns and `per_thread`) both use. Both tiles are the same kernel template and both
  are tested on every GPU (`--lb-items=16|32` forces one; the tuning experiments, in their own
  section below, ran on the two GPUs named there).""",
    'prose_why_brent_kung': """\
Why Brent–Kung sits at about a quarter of CUB's speed ({t_bk_vs_cub_20m}× at
20,000,000 and {t_bk_vs_cub_2p28}× at 2²⁸, both scans) and map at about an
eighth ({t_map_vs_cub_20m}× and
{t_map_vs_cub_2p28}×): they move the data twice. Kernel 1 reads n and writes
n, kernel 3 reads the n partial results back and writes them again, so Brent–Kung moves
{t_bk_bpe} bytes per element against the 8 of a single pass (map
{t_map_bpe}): that alone caps them at half of CUB's speed at equal
bandwidth. The other factor of about 2 is bandwidth: Brent–Kung moves its bytes at
{t_bk_gbps_20m} GB/s (20M) and
{t_bk_gbps_2p28} GB/s (2²⁸),
{t_bk_bw_share_20m}× and {t_bk_bw_share_2p28}×
CUB's {t_cub_gbps_20m} GB/s (20M) and
{t_cub_gbps_2p28} GB/s (2²⁸) (its loads are coalesced, see the sectors
per request in the conclusions; a likely reason, untested: its block scan holds only 2 elements per
thread and runs 2 × 11 barrier-separated tree steps in shared memory, so it has little memory
traffic in flight per SM). `map` moves its bytes at {t_map_gbps_20m} GB/s
(20M) and {t_map_gbps_2p28} GB/s (2²⁸): it loads each thread's K consecutive
elements with a stride of K ints across the warp, so each load instruction touches 32 different
sectors (checked with the counters in the conclusions).""",
    'prose_tuning_table': """\
| kernel variant | speed vs CUB at 20,000,000 | speed vs CUB at 2²⁸ |
| --- | --- | --- |
| first version (`__threadfence()` before each publication, 16 ints/thread, 6 blocks/SM) | 0.841× | 0.806× |
| no fence before publication | 0.894× | 0.872× |
| + `__launch_bounds__(256, 8)` (32 registers, 8 blocks/SM; 16–24 bytes of spills) | {tu_bounds8_20m}× | {tu_bounds8_2p28}× |
| + back-off (`__nanosleep(100)`) in the look-back's wait | {tu_backoff_20m}× | {tu_backoff_2p28}× |
| + scanned values kept in shared memory across the look-back (no spills) | {tu_stash_20m}× | {tu_stash_2p28}× |
| + 32 ints per thread (8192-int tiles), 6 blocks/SM: **the committed kernel** | {tu_committed_20m}× | {tu_committed_2p28}× |""",
    'prose_tuning_prose': """\
Kept out on purpose: `blockIdx.x` as the tile id, as CUB does, instead of the atomic counter. With
all the changes above it is {tu_tid_2p28_word} at 2²⁸
({tu_tid_2p28_3}× against
{tu_committed_2p28_3}×) and
{tu_tid_20m_word} at 20M ({tu_tid_20m}×
against {tu_committed_20m}×): the counter costs one atomic round trip
before a block can start loading, which shows when the grid is only a few waves. The counter stays,
because it makes the kernel deadlock-free by construction (see the first point above) and the target
is {t_target_verdict} with it. What did not help, each changed alone from the
committed kernel: streaming cache hints (`__ldcs`/`__stcs`:
{tu_hints_20m}× at 20M and {tu_hints_2p28}× at
2²⁸, {tu_hints_cmp}), 12, 16, 20 or 24
ints per thread ({tu_items_all}×; the padding of one word per 32 is
bank-conflict-free only for 16 and 32, so 12, 20 and 24 also pay 2-way conflicts on the blocked
reads), 128 threads × 32 or × 64 ints ({tu_t128_all}×; 64 also
conflicts), 512 × 16 ({tu_t512_all}×), 256 × 32 at 4 blocks/SM
({tu_minb4_all}×). Sleeps of 50 or 300 ns instead of 100
({tu_sleeps_20m}× at 20M,
{tu_sleeps_2p28}× at 2²⁸) are
{tu_sleeps_cmp}; no sleep at all
({tu_nosleep_20m}× at 20M,
{tu_nosleep_2p28}× at 2²⁸) is
{tu_nosleep_cmp}.""",
    'prose_memcpy_verdicts': """\
A scan reads n ints and writes n: its floor is a device-to-device copy of the same bytes. The goal
set for this experiment was a look-back scan at ≥ 95 % of that copy on the H100 and ≥ 90 % on the
H200 at 2²⁸ ints, and ≥ 1.10× `cub::DeviceScan` at 20,000,000 and 2²⁸ on both. **H100:
{mc_h100_verdict}.
H200:
{mc_h200_verdict}.**
The committed kernel moves {mc_h100_committed_pct_2p28} % of the copy's bandwidth at 2²⁸
on the H100 (CUB: {mc_h100_cubpct_2p28} %) and
{mc_h200_committed_pct_2p28} % on the H200 (CUB:
{mc_h200_cubpct_2p28} %), at
{mc_h100_committed_cub_20m}× / {mc_h100_committed_cub_2p28}×
CUB on the H100 (20M / 2²⁸) and {mc_h200_committed_cub_20m}× /
{mc_h200_committed_cub_2p28}× on the H200. The copy itself (`cudaMemcpy`, bytes read +
written) ran at {mc_h100_copy_2p28} GB/s on the H100 and
{mc_h200_copy_2p28} GB/s on the H200 at 2²⁸. (The results summary and
`results/table1_1.csv` divide by each run's own copy measurement, 256 MiB copies at
{mc_h100_run_copy} GB/s on the H100, so their percentages come out a few
points higher.)""",
    'prose_memcpy_findings': """\
- **Not the memory access pattern, not the shared-memory round trip.** The committed kernel's data
  path alone (its loads, its padded shared memory at its 6 blocks per SM, a barrier, its stores)
  runs at {mc_h100_copy_smem_pct_2p28} % of the copy on the H100 and
  {mc_h200_copy_smem_pct_2p28} % on the H200; the tiles through registers
  (`tile_copy`) at {mc_h100_tile_copy_pct_2p28} % and
  {mc_h200_tile_copy_pct_2p28} %.
- **At 2²⁸ on the H100, not the look-back; hardly the tile-id draw.** Without its look-back (each
  tile scanned alone, checked against a CPU scan that restarts at every tile) the kernel runs at
  {mc_h100_local_pct_2p28} % on the H100
  ({mc_h200_local_pct_2p28} % on the H200, where the look-back costs several
  points); without the draw too, {mc_h100_local_tid1_pct_2p28} %
  ({mc_h200_local_tid1_pct_2p28} %). At 20M the look-back costs a few points
  on both GPUs (the first row against the one without it).""",
    'prose_mc_h100_striped_pct_2p28': """\
- **Scanning otherwise did not pay.** Without the transpose (each lane scans a uint4, the values
  stay in registers, which then bound the blocks per SM): at best
  {mc_h100_striped_pct_2p28} % (H100) and
  {mc_h200_striped_pct_2p28} % (H200). Persistent blocks that load their next
  tile during the look-back (registers: 4 blocks/SM): {mc_h100_pipe_pct_2p28}
  % and {mc_h200_pipe_pct_2p28} %. Bulk asynchronous loads (the copy engine
  fills 2 to 6 shared-memory stages per block, the threads scan in registers): at best
  {mc_h100_bulk_pct_2p28} % and
  {mc_h200_bulk_pct_2p28} %: with 1 to 3 such blocks per SM, every tile's
  scan, barriers and look-back run one after another in each block (Nsight Compute: 46.2 of 60.3
  cycles at block barriers, DRAM at 57.6 %).
- **What CUB does and we do not:** tile ids from `blockIdx.x`. It is the one change that is faster
  at both sizes ({mc_h100_tid1_pct_2p28} % on the H100,
  {mc_h200_tid1_pct_2p28} % on the H200 at 2²⁸) because the atomic round trip
  before the first load disappears; it is kept out because progress would then rest on the hardware
  starting blocks in index order (the first point of the design above). Loading tile `blockIdx.x`
  while the id is drawn, and keeping it when the draw gives that tile, is slower: the draws often
  come back in another order, and the tile is loaded twice.""",
}

# Parts of the section "Which of the report's conclusions hold" and of the look-back target's verdict:
# tables.py fills them with a placeholder for each number whose CSV is not there yet, and chooses
# between RACY (or its placeholder bullet) and STALLS_MEASURED / STALLS_NOT_MEASURED by what was measured.
CONCLUSIONS = """\
All numbers are from the committed run on {dev} (`results/*.csv`); ratios compare versions of the same
run.

- **Exact up to one warp, wrong beyond (Figures 1.2/1.3): {mse_ip_verdict}.** With the report's `<<<1,
  32>>>` the in-place kernel is exact on all its runs for n ≤ {mse_ip_exact_to} and {mse_ip_beyond}
  ({mse_ip_wrong_count} sizes with a wrong run); at n = 33 the sum of squared errors is {mse_ip_sse33},
  {mse_ip_sse33_vs_report}, {mse_ip_33_every} (MSE {mse_ip_mse33}). That is the 33rd element having no
  thread, not the race.
- **The race and the 414-element limit (§1.10): the race is real, the limit does not reproduce.** In one
  block of 1024 threads (`hs_multiblock_racy`, n ≤ 1024) the kernel is exact on every run up to n =
  {mse_mb_exact_to}; the first wrong runs come at n = {mse_mb_first_wrong} ({mse_mb_first_wrong_runs}),
  i.e. with {mse_mb_first_wrong_warps} warps, {mse_mb_vs_414}. It is intermittent rather than a threshold:
  {mse_mb_partial} of the sizes up to 1024 were wrong on some of their runs and right on others. The share
  of wrong runs is {buckets}; {mse_mb_exact_sizes} of the 1024 sizes were exact on every run, the largest
  n = {mse_mb_exact_largest} (n = 414 itself {mse_mb_414} in this sweep). On {dev} no size above n =
  {mse_mb_exact_to} can be called safe.
- **The many-block launch is wrong at every Table 1.1 size: {t_mb_verdict}.** {t_mb_runs} (MSE
  {t_mb_mse}), and {mse_mb_big}. Its time {t_mb_trend} ({t_mb_t5} → {t_mb_t80} ms for 16× the data),
  unlike the report's nearly flat {rep_t_lo}–{rep_t_hi} ms.
{racy}
- **Brent–Kung against the CPU and CUB.** Against the serial CPU (kernel time only) it is {t_bk_cpu_5}×,
  {t_bk_cpu_50}× and {t_bk_cpu_80}× faster at 5, 50 and 80 MB (inclusive) and {t_bk_cpu_2p28}× at 2²⁸
  (Table 1.1's run; {sw_bk_cpu_2p28}× at 2²⁸ in the sweep, whose CPU run was {tsw_cpu_cmp}); in the sweep
  {sw_bk_cross}. Against CUB it is {t_bk_vs_cub_all}× at 20,000,000 and at 2²⁸: a factor
  {t_bk_bytes_factor} from its {t_bk_bpe} bytes per element against 8, and a further factor of about
  {t_bk_bw_factor} from the lower bandwidth at which it moves them ({t_bk_gbps_all} against CUB's
  {t_cub_gbps_all} GB/s). Counting the two pageable copies, {tsw_copies} in these runs: at 20,000,000
  `lookback` plus copies takes {t_lb_total_20m} ms, the CPU {t_cpu_20m} ms.
- **Why the loads are slow, from the counters (sectors per request).** A warp that loads 32 consecutive
  ints touches 4 sectors of 32 bytes per request; `map`'s thread t reads element t·K + i, so with K = 8 a
  warp's request spans 32 sectors. {sectors}
- **"Whenever a single thread does less computation the performance gets better" (§3.0.3):** judged within
  each algorithm in the section above (elements per thread). Across algorithms the work per thread does
  not order them: `lookback` gives each thread 32 elements and is {t_lb_rank}; what orders them is the
  bytes moved ({t_lb_bpe}, {t_bk_bpe} and {t_map_bpe} bytes per element for lookback, brent_kung and map).
- **"Each multiprocessor can accept up to 1024 threads" (§1.9): does not hold.** 1024 is the limit of one
  block; a multiprocessor of {dev} holds {per_sm} threads (from the device's properties, through the
  occupancy API: blocks per SM × block size / theoretical occupancy), i.e. two blocks of 1024.
- **"Occupancy was limited by the number of blocks": not on this GPU at these sizes{t_occ_except}.** Every
  kernel of map and Brent–Kung has {t_occ_mapbk} theoretical occupancy ({t_occ_mapbk_bps} blocks of 1024
  per SM). Brent–Kung's two main kernels run {t_bk_waves_lo} to {t_bk_waves_hi} waves at the Table 1.1
  sizes (about {t_bk_waves_2p28} at 2²⁸); its scan of the block sums has {t_bk_k2_blocks} blocks,
  {t_bk_k2_wave}, but handles 1/2048 of the data. Map's main kernels run {t_map_waves_50} and
  {t_map_waves_80} waves at 50 and 80 MB but only {t_map_waves_5} of a wave at 5 MB ({t_map_blocks_5}
  blocks for {t_map_slots} slots), and its scan of the totals, 1/8 of the data, has {t_map_k2_blocks}
  blocks ({t_map_k2_waves} waves): {t_map_idle}.
- **"Occupancy limited by the number of blocks, which is 2" (Figure 3.2), from the counters.** The map
  kernel (`map_scan_chunks`) at n = 15,000 with 8 elements per thread runs a grid of {map15k_grid} blocks
  ({map15k_waves} waves): theoretical occupancy {map15k_theo}, achieved {map15k_ach}, and the resource
  that allows the fewest blocks per SM is {map15k_limiter} ({map15k_limit} blocks of 1024 threads). At 5
  MB: grid {map5mb_grid} ({map5mb_waves} waves), achieved occupancy {map5mb_ach}, limit {map5mb_limit}
  from {map5mb_limiter}. Two readings of the report's "2": 2 blocks per SM is the per-SM limit of any
  1024-thread block; 2 blocks in the grid is our profile's n = 15,000 at 8 elements per thread (1875
  chunks). The report does not print its K: with K ≥ 15, which its 15,000 limit implies (point 5 above),
  15,000 elements are one block of 1000 threads. Either way the GPU is far from full when the grid is a
  fraction of a wave.
- **"Time wasted for global memory accessing" (Figure 3.3): {stalls}
- **SM activity (Figure 3.4).** The map kernel's least / mean / most active SM, as a share of the kernel's
  elapsed cycles: {map15k_sm_min} / {map15k_sm_avg} / {map15k_sm_max} at n = 15,000, {map5mb_sm_min} /
  {map5mb_sm_avg} / {map5mb_sm_max} at 5 MB; `lookback` at 5 MB {lb5mb_sm_min} / {lb5mb_sm_avg} /
  {lb5mb_sm_max}. A gap between the least and the most active SM is the imbalance the report describes
  (too few blocks for the SMs, or blocks of unequal length).
{as_printed}"""

RACY = """\
- **Table 1.1's times against what the kernel must move: cannot be judged from the report's numbers.** Any
  scan of 80 MB reads and writes the array once, {scan_mb} MB, at least {floor_ms} ms at the {gtx} GB/s of
  the report's GTX 970: its {rep_t_hi} ms is above that floor. A model in which each of the 25 steps
  streams the whole array through DRAM ({t_mb_gb} GB) does not describe this kernel: with no barrier
  between blocks, each block runs all its steps on its own elements while they are in the caches; on {dev}
  the kernel takes {t_mb_t80} ms at 80 MB, which over those bytes would be {t_mb_tbps} TB/s,
  {t_mb_vs_copy}× the device-to-device copy of the same run. {dram}"""

STALLS_MEASURED = """\
{verdict}.** Stall cycles per issued instruction (Nsight Compute's Warp State section; the reasons add up
to the warp's cycles per issued instruction). The map kernel at 5 MB: largest reason {map5mb_top_stall}
({share} of its
{cpi} cycles per issued instruction); at n = 15,000 {map15k_top_stall}; the report's kernel as printed at
15,000:
{ap15k_top_stall}. `brent_kung`'s block scan: {bk5mb_top_stall}; `lookback`: {lb5mb_top_stall}.
`long_scoreboard` is a warp waiting for a global-memory (L1TEX) load. DRAM throughput: map kernel
{map5mb_dram}, block scan
{bk5mb_dram}, `lookback` {lb5mb_dram} of peak."""

STALLS_NOT_MEASURED = """\
{verdict}.** The stall reasons per issued instruction (Nsight Compute's Warp State section) are
{not_measured}. DRAM throughput: map kernel {map5mb_dram}, block scan {bk5mb_dram}, `lookback`
{lb5mb_dram} of peak."""

TARGET = """\
**Our speed target for `lookback` (at least 0.9× CUB's speed at 20,000,000 and 2²⁸ elements):
{t_target_verdict}.** Measured in `results/table1_1.csv` (same run, same timing, L2 flushed):
{t_ratio_20m_inc}× (inclusive) and {t_ratio_20m_exc}× (exclusive) at 20,000,000, {t_ratio_2p28_inc}× and
{t_ratio_2p28_exc}× at 2²⁸. `lookback` moves {t_lb_bw_20m} GB/s at 20M and {t_lb_bw_2p28} GB/s at 2²⁸
({t_lb_pct_20m}% and {t_lb_pct_2p28}% of the device-to-device copy) against CUB's {t_cub_bw_20m} and
{t_cub_bw_2p28} GB/s; the sweep has it {sw_lb_ahead} (its smallest lead {sw_lb_least}; {sw_lb_small}×
below 2²², where CUB's extra initialisation kernel counts)."""
