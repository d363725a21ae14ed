# The report's first graph: speed-up of the GPU against threads per block at 4 blocks per grid,
# ours (the version=report rows of the sweep CSV) beside the report's GTX 970 table
# (original/report_000_gtx970.csv, next to this folder's plots/), in two panels: left, the
# report's speed-up, CPU time / total GPU time (copies included); right (log scale), CPU time /
# processing (kernel) time. The two GPUs' kernel-only points nearly coincide, so ours are drawn
# as large open circles and the report's as small filled triangles on top: both stay visible.
#   gnuplot -c plots/speedup_threads.gp results/sweep.csv figures/speedup_threads.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
original = system("dirname ".ARG0)."/../original/report_000_gtx970.csv"
if (strstrt(output, ".pdf") > 0) {
    set terminal pdfcairo enhanced color font "Helvetica,10" size 10in,4.2in
} else {
    eval raster_terminal("Helvetica,11", "1300,560")
}
set output output
# The rows of one line are not adjacent in the files (the report's table runs 32, 64, 128, 4, 16
# blocks): rows of other configurations evaluate to NaN, NaN is "missing" (skipped, not a break
# in the line), and `smooth unique` sorts the rest by x.
set datafile missing NaN
FIXED = "blocks"
VALUE = 4
VARY = "threads"
ours(name) = (strcol("version") eq "report" && column(FIXED) == VALUE) ? column(name) : NaN
theirs(name) = (column(FIXED) == VALUE) ? column(name) : NaN
device = ""
stats input using (device = strcol("device"), 0) nooutput
set xlabel "threads per block"
set logscale x 2
set xrange [24:1400]
set key top left box opaque
set multiplot layout 1,2 title titled("vecmax, N = 40,960,000, ".VALUE." blocks per grid: ours (".device.") and the report's (GeForce GTX 970, its table)")
set title "speed-up of the GPU, copies included (CPU ms / total GPU ms)"
set yrange [0:*]
plot input using (ours(VARY)):(ours("speedup_gpu")) smooth unique with linespoints lw 3 pt 6 ps 2 lc rgb "#b185e0" \
         title "ours: ".device, \
     original using (theirs(VARY)):(theirs("speedup_gpu")) smooth unique with linespoints lw 1.5 dt 2 pt 9 ps 1 \
         lc rgb "black" title "report: GTX 970"
set title "kernel-only speed-up (CPU ms / processing ms, log scale)"
set logscale y 10
set yrange [*:*]
plot input using (ours(VARY)):(ours("cpu_ms") / ours("kernel_ms")) smooth unique with linespoints lw 3 pt 6 ps 2 \
         lc rgb "#b185e0" title "ours: ".device, \
     original using (theirs(VARY)):(theirs("cpu_ms") / theirs("processing_ms")) smooth unique with linespoints \
         lw 1.5 dt 2 pt 9 ps 1 lc rgb "black" title "report: GTX 970"
unset multiplot
