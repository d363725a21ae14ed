# Processing (kernel) time of the report's kernel over the whole threads x blocks grid of the
# sweep, ours (version=report rows of the sweep CSV) beside the report's GTX 970 table
# (original/report_000_gtx970.csv, next to this folder's plots/): one cell per configuration,
# one log colour scale shared by both panels, the time written in each cell. The rows are the
# sweep's five grid sizes (4, 16, 32, 64, 128 blocks), evenly spaced; a configuration outside
# the report's 30 is not drawn.
#   gnuplot -c plots/kernel_heatmap.gp results/sweep.csv figures/kernel_heatmap.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
original = system("dirname ".ARG0)."/../original/report_000_gtx970.csv"
if (strstrt(output, ".pdf") > 0) {
    set terminal pdfcairo enhanced color font "Helvetica,10" size 10in,4.2in
} else {
    eval raster_terminal("Helvetica,11", "1400,620")
}
set output output
set datafile missing NaN
col(t) = (t == 32) ? 0 : (t == 64) ? 1 : (t == 128) ? 2 : (t == 256) ? 3 : (t == 512) ? 4 : (t == 1024) ? 5 : NaN
row(b) = (b == 4) ? 0 : (b == 16) ? 1 : (b == 32) ? 2 : (b == 64) ? 3 : (b == 128) ? 4 : NaN
ours(name) = (strcol("version") eq "report") ? column(name) : NaN
device = ""
stats input using (device = strcol("device"), 0) nooutput
stats input using (ours("kernel_ms")) nooutput name "A"
stats original using "processing_ms" nooutput name "B"
lo = (A_min < B_min ? A_min : B_min) / 1.3
hi = (A_max > B_max ? A_max : B_max) * 1.3
set logscale cb 10
set cbrange [lo:hi]
set palette defined (0 "#1a9850", 1 "#fee08b", 2 "#d73027")
set xtics ("32" 0, "64" 1, "128" 2, "256" 3, "512" 4, "1024" 5)
set ytics ("4" 0, "16" 1, "32" 2, "64" 3, "128" 4)
set xrange [-0.5:5.5]
set yrange [-0.5:4.5]
set xlabel "threads per block"
set ylabel "blocks per grid"
set grid noxtics noytics
set key off
set style fill solid 1.0 noborder
set multiplot layout 1,2 title titled("vecmax, N = 40,960,000: processing (kernel) time of the report's kernel, ms (log colour scale shared by both panels)")
set title "ours: ".device." (L2 flushed before each run)"
unset colorbox
plot input using (col(ours("threads"))):(row(ours("blocks"))):(0.5):(0.5):(ours("kernel_ms")) \
         with boxxyerror fc palette, \
     input using (col(ours("threads"))):(row(ours("blocks"))):(sprintf("%.3g", ours("kernel_ms"))) \
         with labels font ",9"
set title "report: GeForce GTX 970 (its table)"
set colorbox
set cblabel "processing time (ms)"
plot original using (col(column("threads"))):(row(column("blocks"))):(0.5):(0.5):"processing_ms" \
         with boxxyerror fc palette, \
     original using (col(column("threads"))):(row(column("blocks"))):(sprintf("%.3g", column("processing_ms"))) \
         with labels font ",9"
unset multiplot
