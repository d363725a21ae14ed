# The report's second graph: speed-up of the GPU against blocks per grid at 32 threads per
# block (version=report rows of the sweep CSV). Left axis: the report's speed-up (CPU time /
# total GPU time, copies included); right axis: CPU time / processing (kernel) time.
#   gnuplot -c plots/speedup_blocks.gp results/sweep.csv figures/speedup_blocks.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
at_threads(name) = (strcol("version") eq "report" && column("threads") == 32) ? column(name) : NaN
set title "vecmax, N = 40,960,000: speed-up vs blocks per grid (32 threads per block)"
set xlabel "blocks per grid"
set ylabel "speed-up of GPU, copies included (CPU ms / total GPU ms)"
set y2label "CPU ms / processing (kernel) ms"
set logscale x 2
set logscale y2 10
set xrange [3:170]
set yrange [0:*]
set ytics nomirror
set y2tics
set key top left
plot input using (at_threads("blocks")):(at_threads("speedup_gpu")) axes x1y1 lw 2 pt 7 \
         title "speed-up incl. copies (the report's)", \
     input using (at_threads("blocks")):(at_threads("cpu_ms") / at_threads("kernel_ms")) axes x1y2 lw 2 pt 5 dt 2 \
         title "kernel-only speed-up (right axis)"
