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
