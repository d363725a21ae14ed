# Report table 2 / its graph: niter = 2^21*64 ... 2^24*64 (chunk 64), kernel 1 against
# kernel 2, float (the report's type), in three panels: the kernel times (ours, the report's
# from original/report_001.csv, single and Thrust for scale); kernel 2 / kernel 1 (ours and
# the report's); the time of the copy and host sum (total_us - kernel_us). Kernels 1 and 2
# take nearly the same time, so their points are drawn side by side: kernel 1's a little to
# the left of the size, kernel 2's a little to the right (the tick marks the size).
# Usage: gnuplot -c plots/table2.gp results/table2.csv figures/table2.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
original = system("dirname ".ARG0)."/../original/report_001.csv"
# Rows of other series evaluate to NaN: skipped without breaking this series' line.
set datafile missing NaN
sel(v, p, name) = (strcol("version") eq v && strcol("precision") eq p) ? column(name) : NaN
report(t, v) = (strcol("table") eq t && strcol("version") eq v) ? column("time_us") : NaN
# A taller canvas for the two panels (same terminal and font as common/plot_style.gp).
if (strstrt(output, ".pdf") > 0) {
    set terminal pdfcairo enhanced color font "Helvetica,10" size 6.5in,5.5in
} else {
    eval raster_terminal("Helvetica,11", "1000,820")
}
set output output
# kernel 2 / kernel 1 at the same n: the kernel 1 row of an n (it comes first: the program
# writes the versions in registry order, the report's table lists kernel 1 first) is
# remembered, and the kernel 2 row of the same n gives the ratio. Every other row: NaN.
k1_n = NaN
k1_t = NaN
pair_ratio(is1, is2, t) = is1 ? (k1_n = column("n"), k1_t = t, NaN) : \
                          ((is2 && column("n") == k1_n && k1_t > 0) ? t / k1_t : NaN)
ours_ratio(name) = pair_ratio(strcol("version") eq "1" && strcol("precision") eq "float", \
                              strcol("version") eq "2" && strcol("precision") eq "float", column(name))
report_ratio(t) = pair_ratio(strcol("table") eq t && strcol("version") eq "1", \
                             strcol("table") eq t && strcol("version") eq "2", column("time_us"))
# Side by side on the log-2 axis: left of the size (kernel 1), right of it (kernel 2).
L(n) = n / 1.07
R(n) = n * 1.07
set multiplot
# Every panel: the same left and right margins, so that their x axes line up; the key at
# the right, outside the data.
set lmargin at screen 0.09
set rmargin at screen 0.66
set logscale x 2
set format x ""
# The x range: the data (with the side-by-side shifts) and a little room, not whole powers of 2.
set autoscale xfix
set offsets graph 0.05, graph 0.05, 0, 0
set key outside right top Left reverse

# Top panel: the kernel times (lower by a line where the title has a stale line under it).
set tmargin at screen (strlen(stale) > 0 ? 0.925 : 0.95)
set bmargin at screen 0.56
set title titled("pi, report table 2".on_gpu.": kernel 1 against kernel 2 (chunk 64, float)")
set ylabel "kernel time (us)"
set logscale y 10
set format y "10^{%L}"
plot input using (L(column("n"))):(sel("1","float","kernel_us")) title "kernel 1" with linespoints lw 2 lc 1 pt 7, \
     input using (R(column("n"))):(sel("2","float","kernel_us")) title "kernel 2" with linespoints lw 2 lc 2 pt 5, \
     input using "n":(sel("single","float","kernel_us")) title "single launch" with linespoints lw 2 lc 5 pt 13, \
     input using "n":(sel("thrust","float","kernel_us")) title "Thrust" with linespoints lw 2 lc 6 pt 9, \
     original using (L(column("n"))):(report("2","1")) title "report: kernel 1" with linespoints lw 1 dt 2 pt 6 ps 1.5 lc rgb "black", \
     original using (R(column("n"))):(report("2","2")) title "report: kernel 2" with linespoints lw 1 dt 2 pt 4 ps 1.5 lc rgb "gray40"

# Middle panel: kernel 2 / kernel 1 (below 1: kernel 2 is the faster), linear y; ours kernel
# only left of the size, ours with the copy right of it, the report's on it.
set tmargin at screen 0.48
set bmargin at screen 0.30
set title "kernel 2 / kernel 1 (below 1: kernel 2 is faster)"
set ylabel "time ratio"
unset logscale y
set format y "%.2f"
set offsets graph 0.05, graph 0.05, graph 0.15, graph 0.15
# The dotted line: equal times.
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lw 1.5 lc rgb "gray30" front
plot input using (L(column("n"))):(ours_ratio("kernel_us")) title "ours, kernel only" with linespoints lw 2 lc 2 pt 5, \
     input using (R(column("n"))):(ours_ratio("total_us")) title "ours, + copy + host sum" with linespoints lw 1 dt 2 lc 4 pt 4, \
     original using "n":(report_ratio("2")) title "report" with linespoints lw 1 lc rgb "black" pt 2 ps 1.5
unset arrow 1

# Bottom panel: what the copy of the block sums and the host's sum add (total - kernel).
set tmargin at screen 0.22
set bmargin at screen 0.07
set title "copy + host sum: total time - kernel time"
set xlabel "iterations (niter)"
set format x "2^{%L}"
set ylabel "time (us)"
set format y "%g"
set yrange [0:*]
set offsets graph 0.05, graph 0.05, graph 0.1, 0
extra(v) = sel(v, "float", "total_us") - sel(v, "float", "kernel_us")
plot input using (L(column("n"))):(extra("1")) title "kernel 1" with linespoints lw 2 lc 1 pt 7, \
     input using (R(column("n"))):(extra("2")) title "kernel 2" with linespoints lw 2 lc 2 pt 5
unset multiplot
