# Figure 3.0.2 of report 002: serial (CPU reference) against parallel scans, inclusive,
# n = 2^10 .. 2^28. Kernel times (median, CUDA events, L2 flushed before each run), and the
# look-back scan with its host-device copies added. The report's only times (Table 1.1: the
# in-place kernel on (n/1024, 1024) blocks, racy, on its compute-capability-5 GPU) are drawn
# as black crosses, from original/report_002.csv next to this folder's plots/; our run of the
# same kernel (hs_multiblock_racy) beside them where the sweep has it.
#   gnuplot -c plots/timing.gp results/sweep.csv figures/timing.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
original = system("dirname ".ARG0)."/../original/report_002.csv"
report(what, name) = (strcol("what") eq what ? column(name) : NaN)
row(v, name) = (strcol("version") eq v && strcol("mode") eq "inclusive" ? column(name) : NaN)
set title "Serial vs parallel inclusive scan of int32"
set xlabel "n (elements)"
set ylabel "time (ms)"
set logscale xy 2
set format x "2^{%L}"
set logscale y 10
set format y "10^{%T}"
set key top left
# map_brent_kung is drawn where the CSV has it (results from before it existed do not).
stats input using (strcol("version") eq "map_brent_kung" ? 1 : 0) nooutput
MBK = STATS_sum > 0 ? 'input using "n":(row("map_brent_kung", "kernel_ms")) title "map\\_brent\\_kung (report section 3)" lc rgb "#ff7f0e",' : ''
# lookahead (the warp-specialised scan; its kernel from 20M on, lookback's below), where the CSV has it.
stats input using (strcol("version") eq "lookahead" ? 1 : 0) nooutput
LA = STATS_sum > 0 ? 'input using "n":(row("lookahead", "kernel_ms")) title "lookahead (warp-specialised, sm\\_90)" lc rgb "#17becf" pt 13,' : ''
# Our run of Table 1.1's racy kernel (hs_multiblock_racy), beside the report's points, where
# the CSV has it (sweeps from before it was swept do not).
stats input using (strcol("version") eq "hs_multiblock_racy" ? 1 : 0) nooutput
RACY = STATS_sum > 0 ? 'input using "n":(row("hs_multiblock_racy", "kernel_ms")) title "hs\\_multiblock\\_racy (ours: Table 1.1 kernel, racy)" dt 3 pt 2 lc rgb "gray30",' : ''
set datafile missing NaN  # rows of other versions are skipped without breaking the lines
plot input using "n":(row("cub", "cpu_ms")) title "CPU, serial (one run)" lw 2 lc rgb "#9467bd", \
     input using "n":(row("brent_kung", "kernel_ms")) title "brent\\_kung (3 kernels)" lc rgb "#2ca02c", \
     input using "n":(row("map", "kernel_ms")) title "map (3 kernels)" lc rgb "#1f77b4", \
     @MBK \
     input using "n":(row("lookback", "kernel_ms")) title "lookback (single pass)" lc rgb "#d62728", \
     @LA \
     input using "n":(row("cub", "kernel_ms")) title "cub::DeviceScan" lc rgb "black", \
     @RACY \
     input using "n":(row("lookback", "total_ms")) title "lookback + copies to and from the GPU" dt 2 lc rgb "#d62728", \
     original using "n":(report("table1_1", "time_ms")) title "report, Table 1.1 (racy in-place kernel, its GPU)" \
         with points pt 2 ps 2 lw 2 lc rgb "black"
