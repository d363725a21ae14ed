# Effective bandwidth of each scan, counting the bytes a scan must move (n int32 read and
# written), against n, with the device-to-device copy bandwidth measured in the same run.
# Logarithmic y: the bandwidths span orders of magnitude from 2^10 to 2^28 (results/sweep.csv).
#   gnuplot -c plots/bandwidth.gp results/sweep.csv figures/bandwidth.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
row(v, name) = (strcol("version") eq v && strcol("mode") eq "inclusive" ? column(name) : NaN)
set title "Inclusive scan of int32: effective bandwidth (8 bytes per element)"
set xlabel "n (elements)"
set ylabel "bandwidth (GB/s)"
set logscale x 2
set format x "2^{%L}"
set logscale y 10
set format y "10^{%T}"
set key inside bottom right vertical box opaque  # the lower right is empty: small n are slow
# map_brent_kung is drawn where the CSV has it (results from before it existed do not).
stats input using (strcol("version") eq "map_brent_kung" ? 1 : 0) nooutput
MBK = STATS_sum > 0 ? 'input using "n":(row("map_brent_kung", "bandwidth_GBps")) title "map\\_brent\\_kung" lc rgb "#ff7f0e",' : ''
# lookahead likewise (the warp-specialised scan; its kernel from 20M on, lookback's below).
stats input using (strcol("version") eq "lookahead" ? 1 : 0) nooutput
LA = STATS_sum > 0 ? 'input using "n":(row("lookahead", "bandwidth_GBps")) title "lookahead" lc rgb "#17becf" pt 13,' : ''
set datafile missing NaN  # rows of other versions are skipped without breaking the lines
plot input using "n":(row("cub", "copy_bw_GBps")) title "device-to-device copy" dt 2 lc rgb "gray40" with lines, \
     input using "n":(row("brent_kung", "bandwidth_GBps")) title "brent\\_kung" lc rgb "#2ca02c", \
     input using "n":(row("map", "bandwidth_GBps")) title "map" lc rgb "#1f77b4", \
     @MBK \
     input using "n":(row("lookback", "bandwidth_GBps")) title "lookback" lc rgb "#d62728", \
     @LA \
     input using "n":(row("cub", "bandwidth_GBps")) title "cub::DeviceScan" lc rgb "black"
