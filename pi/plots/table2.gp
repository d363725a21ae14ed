# Report table 2 / its graph: niter = 2^21*64 ... 2^24*64 (chunk 64), kernel 1 against
# kernel 2 in microseconds, float (the report's type); ours kernel only and with the copy and
# host finish, the single-launch version and Thrust for scale; the report's numbers (from
# original/report_001.csv, next to this folder's plots/) as black and grey crosses. Kernels
# 1 and 2 nearly coincide on the five-decade time axis, so a second panel below draws their
# ratio, kernel 2 / kernel 1, ours (kernel only, and with the copy and host sum) and the report's.
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
set multiplot
# Both panels: the same left and right margins, so that their x axes line up; the key at
# the right, outside the data.
set lmargin at screen 0.09
set rmargin at screen 0.68
set logscale x 2
set format x "2^{%L}"
# A little room left and right: the first and last points are not drawn on the border.
set offsets graph 0.03, graph 0.03, 0, 0

# Top panel: the times.
set tmargin at screen 0.94
set bmargin at screen 0.42
set title "pi, report table 2: kernel 1 against kernel 2 (chunk 64, float)"
# The x label once, under the bottom panel (the same axis).
unset xlabel
set ylabel "time (us)"
set logscale y 10
set format y "10^{%L}"
set key outside right top Left reverse
# Kernels 1 and 2 take nearly the same time: kernel 1 is drawn after kernel 2, as large open
# circles around kernel 2's squares, so that neither hides the other.
plot input using "n":(sel("2","float","kernel_us")) title "kernel 2, kernel only" with linespoints lw 2 lc 2 pt 5, \
     input using "n":(sel("1","float","kernel_us")) title "kernel 1, kernel only" with linespoints lw 1 lc 1 pt 6 ps 2.2, \
     input using "n":(sel("1","float","total_us")) title "kernel 1 + copy + host sum" with linespoints lw 1 dt 2 lc 3 pt 6 ps 1.6, \
     input using "n":(sel("2","float","total_us")) title "kernel 2 + copy + host sum" with linespoints lw 1 dt 2 lc 4 pt 4, \
     input using "n":(sel("single","float","kernel_us")) title "single launch (float)" with linespoints lw 2 lc 5 pt 13, \
     input using "n":(sel("thrust","float","kernel_us")) title "Thrust (float)" with linespoints lw 2 lc 6 pt 9, \
     original using "n":(report("2","1")) title "report: kernel 1" with points pt 2 ps 1.5 lc rgb "black", \
     original using "n":(report("2","2")) title "report: kernel 2" with points pt 3 ps 1.5 lc rgb "gray40"

# Bottom panel: kernel 2 / kernel 1 (below 1: kernel 2 is the faster), linear y.
set tmargin at screen 0.32
set bmargin at screen 0.08
set xlabel "iterations (niter)"
set title "kernel 2 / kernel 1 (below 1: kernel 2 is faster)"
set ylabel "time ratio"
unset logscale y
set format y "%.2f"
set ytics autofreq
set yrange [*:*]
set offsets graph 0.03, graph 0.03, graph 0.15, graph 0.15
# The dotted line: equal times.
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lw 1.5 lc rgb "gray30" front
plot input using "n":(ours_ratio("kernel_us")) title "ours, kernel only" with linespoints lw 2 lc 2 pt 5, \
     input using "n":(ours_ratio("total_us")) title "ours, + copy + host sum" with linespoints lw 1 dt 2 lc 4 pt 4, \
     original using "n":(report_ratio("2")) title "report" with linespoints lw 1 lc rgb "black" pt 2 ps 1.5
unset multiplot
