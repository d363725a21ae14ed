# Processing (kernel) time of version=report over the whole threads x blocks grid of the
# sweep: one cell per configuration, log colour scale, the time written in each cell.
#   gnuplot -c plots/kernel_heatmap.gp results/sweep.csv figures/kernel_heatmap.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
is_report(name) = (strcol("version") eq "report") ? column(name) : NaN
lg2(x) = log(x) / log(2)
set title "vecmax, N = 40,960,000: kernel time of the report's kernel (ms, L2 flushed)"
set xlabel "threads per block"
set ylabel "blocks per grid"
set cblabel "kernel time (ms)"
set logscale cb 10
set palette defined (0 "#1a9850", 1 "#fee08b", 2 "#d73027")
set xtics ("32" 5, "64" 6, "128" 7, "256" 8, "512" 9, "1024" 10)
set ytics ("4" 2, "16" 4, "32" 5, "64" 6, "128" 7)  # log2 rows; 8 blocks is not in the sweep
set xrange [4.5:10.5]
set yrange [1.5:7.5]
set grid noxtics noytics
set key off
set style fill solid 1.0 noborder
plot input using (lg2(is_report("threads"))):(lg2(is_report("blocks"))):(0.5):(0.5):(is_report("kernel_ms")) \
         with boxxyerror fc palette, \
     input using (lg2(is_report("threads"))):(lg2(is_report("blocks"))):(sprintf("%.3g", is_report("kernel_ms"))) \
         with labels font ",9"
