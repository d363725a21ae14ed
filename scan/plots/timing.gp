# Figure 3.0.2 of report 002: serial (CPU reference) against parallel scans, inclusive,
# n = 2^10 .. 2^28. Kernel times (median, CUDA events, L2 flushed before each run), and the
# look-back scan with its host-device copies added.
#   gnuplot -c plots/timing.gp results/sweep.csv figures/timing.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
row(v, name) = (strcol("version") eq v && strcol("mode") eq "inclusive" ? column(name) : NaN)
set title "Serial vs parallel inclusive scan of int32"
set xlabel "n (elements)"
set ylabel "time (ms)"
set logscale xy 2
set format x "2^{%L}"
set logscale y 10
set format y "10^{%T}"
set key top left
set datafile missing NaN  # rows of other versions are skipped without breaking the lines
plot input using "n":(row("cub", "cpu_ms")) title "CPU, serial (one run)" lw 2 lc rgb "#9467bd", \
     input using "n":(row("brent_kung", "kernel_ms")) title "brent\\_kung (3 kernels)" lc rgb "#2ca02c", \
     input using "n":(row("map", "kernel_ms")) title "map (3 kernels)" lc rgb "#1f77b4", \
     input using "n":(row("lookback", "kernel_ms")) title "lookback (single pass)" lc rgb "#d62728", \
     input using "n":(row("cub", "kernel_ms")) title "cub::DeviceScan" lc rgb "black", \
     input using "n":(row("lookback", "total_ms")) title "lookback + copies to and from the GPU" dt 2 lc rgb "#d62728"
