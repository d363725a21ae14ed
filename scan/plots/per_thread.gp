# Section 3.0.3 of report 002: "whenever a single thread does less computations (smaller sub
# array size), the performance gets better" and "for larger input sizes, the value of
# NUM_OF_ADDS_PER_THREAD should be increased". Kernel time of the two chunked scans (map:
# totals scanned by the same chunk kernel, recursively; map_brent_kung: totals scanned by
# Brent-Kung, the report's section 3) against --per-thread (NUM_OF_ADDS_PER_THREAD), at 5 MB
# and 80 MB of int, inclusive, 1024 threads per block. The report gives no numbers for it.
#   gnuplot -c plots/per_thread.gp results/per_thread.csv figures/per_thread.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
sel(v, n) = (strcol("version") eq v && column("n") == n && strcol("mode") eq "inclusive" ? column("kernel_ms") : NaN)
set title "Chunked scans: time against elements per thread (NUM\\_OF\\_ADDS\\_PER\\_THREAD)"
set xlabel "elements per thread (--per-thread)"
set ylabel "kernel time (ms)"
set logscale x 2
set logscale y 10
set format y "10^{%T}"
set xrange [1.5:90]
set key outside right top vertical box opaque
set datafile missing NaN
plot input using "per_thread":(sel("map", 20000000)) title "map, 80 MB" lc rgb "#1f77b4" pt 7, \
     input using "per_thread":(sel("map_brent_kung", 20000000)) title "map\\_brent\\_kung, 80 MB" lc rgb "#ff7f0e" pt 5, \
     input using "per_thread":(sel("map", 1250000)) title "map, 5 MB" lc rgb "#1f77b4" pt 6 dt 2, \
     input using "per_thread":(sel("map_brent_kung", 1250000)) title "map\\_brent\\_kung, 5 MB" lc rgb "#ff7f0e" pt 4 dt 2
