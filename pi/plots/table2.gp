# Report table 2 / its graph: niter = 2^21*64 ... 2^24*64 (chunk 64), kernel 1 against
# kernel 2 in microseconds, float (the report's type); ours kernel only and with the copy and
# host finish, the single-launch version and Thrust for scale; the report's numbers (from
# original/report_001.csv, next to this folder's plots/) as black and grey crosses.
# Usage: gnuplot -c plots/table2.gp results/table2.csv figures/table2.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
original = system("dirname ".ARG0)."/../original/report_001.csv"
# Rows of other series evaluate to NaN: skipped without breaking this series' line.
set datafile missing NaN
sel(v, p, name) = (strcol("version") eq v && strcol("precision") eq p) ? column(name) : NaN
report(t, v) = (strcol("table") eq t && strcol("version") eq v) ? column("time_us") : NaN
set title "pi, report table 2: kernel 1 against kernel 2 (chunk 64, float)"
set xlabel "iterations (niter)"
set ylabel "time (us)"
set logscale x 2
set logscale y 10
set format x "2^{%L}"
set format y "10^{%L}"
# The key outside the plot: the report's points at the top right (2^28: 56,479 and 51,758 us)
# stay visible whatever the data.
set key outside below center horizontal maxcols 2
# Room under the x label for the four rows of the key (else they overlap it).
set bmargin 9
# A little room left and right: the first and last points are not drawn on the border.
set offsets graph 0.03, graph 0.03, 0, 0
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
