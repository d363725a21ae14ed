# The report's second graph: speed-up of the GPU against blocks per grid at 32 threads per
# block, ours (version=report rows of the sweep CSV) beside the report's GTX 970 table
# (original/report_000_gtx970.csv, next to this folder's plots/).
# Left axis: the report's speed-up, CPU time / total GPU time (copies included), for both
# GPUs. Right axis (log): CPU time / processing (kernel) time, for both GPUs.
#   gnuplot -c plots/speedup_blocks.gp results/sweep.csv figures/speedup_blocks.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
original = system("dirname ".ARG0)."/../original/report_000_gtx970.csv"
# The rows of one configuration line are not adjacent in the files (the report's table runs
# 32, 64, 128, 4, 16 blocks): rows of other configurations evaluate to NaN, NaN is "missing"
# (skipped, not a break in the line), and `smooth unique` sorts the rest by x.
set datafile missing NaN
ours(name) = (strcol("version") eq "report" && column("threads") == 32) ? column(name) : NaN
theirs(name) = (column("threads") == 32) ? column(name) : NaN
device = ""
stats input using (device = strcol("device"), 0) nooutput
set title "vecmax, N = 40,960,000: speed-up vs blocks per grid (32 threads per block)\nours: ".device."; report: GeForce GTX 970 (its table)"
set xlabel "blocks per grid"
set ylabel "speed-up of GPU, copies included (CPU ms / total GPU ms)"
set y2label "kernel-only speed-up (CPU ms / processing ms, log scale)"
set logscale x 2
set logscale y2 10
set xrange [3:170]
set yrange [0:*]
set ytics nomirror
set y2tics
set key below horizontal maxcols 2 width 1 nobox spacing 1.1
set bmargin 6.5
plot input using (ours("blocks")):(ours("speedup_gpu")) smooth unique with linespoints axes x1y1 lw 2 pt 7 lc rgb "#7b2cbf" \
         title "ours: incl. copies", \
     original using (theirs("blocks")):(theirs("speedup_gpu")) smooth unique with linespoints axes x1y1 lw 2 pt 9 lc rgb "black" \
         title "report: incl. copies", \
     input using (ours("blocks")):(ours("cpu_ms") / ours("kernel_ms")) smooth unique with linespoints axes x1y2 lw 2 pt 6 dt 2 \
         lc rgb "#7b2cbf" title "ours: kernel only (right axis)", \
     original using (theirs("blocks")):(theirs("cpu_ms") / theirs("processing_ms")) smooth unique with linespoints axes x1y2 lw 2 \
         pt 8 dt 2 lc rgb "gray40" title "report: kernel only (right axis)"
