# Figure 3.4 of report 002 SM by SM ("the percentage of time each multiprocessor was active
# during the duration of the kernel launch"; workload imbalance): the report's map kernel
# (map_scan_chunks, 8 elements per thread, 1024 threads per block) at n = 15000 (the map
# scan's "up to 15000": 2 blocks) and at 5 MB (1,250,000 ints). From experiments/sm_activity.cu
# (the lab's sm_activity.csv): every block records its SM and its start and end on the GPU's nanosecond
# clock; an SM is active while one of its blocks runs (union of their intervals), as a
# percentage of the kernel's span (first block start to last block end). One bar per SM.
#   gnuplot -c plots/sm_activity.gp results/h100/sm_activity.csv figures/sm_activity.png
# (in scan/experiments/: `make -C scan/experiments figures` draws it)
call system("dirname ".ARG0)."/../../../common/plot_style.gp" ARG1 ARG2
if (strstrt(ARG2, ".pdf") > 0) { set terminal pdfcairo enhanced color font "Helvetica,10" size 7in,5in } \
else { eval raster_terminal("Helvetica,11", "1100,700") }
set output ARG2
stats input using (column("sm")) nooutput
NSM = STATS_max + 1
set multiplot layout 2,1 title titled("SM activity of the map kernel".on_gpu.", SM by SM (cf. the report's Figure 3.4)")
set style fill solid 0.85 border -1
set boxwidth 0.8
set xrange [-1:NSM]
set yrange [0:125]
set ytics 0, 20, 100
set grid noxtics ytics
set key top right box opaque
set ylabel "active (% of the kernel's span)"
do for [N in "15000 1250000"] {
    set title sprintf("n = %s", N)
    if (N eq "1250000") { set xlabel "SM (%smid)" } else { unset xlabel }
    plot input using (column("n") == N + 0 ? column("sm") : NaN):(column("active_pct")) with boxes lc rgb "#2b6cb0" \
             title "active time / span", \
         input using (column("n") == N + 0 && column("sm_blocks") == 0 ? column("sm") : NaN):(1) with points pt 7 ps 0.4 \
             lc rgb "#c53030" title "ran no block"
}
unset multiplot
