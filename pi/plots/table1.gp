# Report table 1 / its graph: niter = 2^9*64 ... 2^14*64 (chunk 64), kernel 2 and the CPU in
# microseconds, float (the report's type). Ours: kernel only and kernel + copy + host finish,
# the single-threaded CPU as in the report, and OpenMP; the report's numbers (from
# original/report_001.csv, next to this folder's plots/) as black and grey crosses.
# Usage: gnuplot -c plots/table1.gp results/table1.csv figures/table1.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
original = system("dirname ".ARG0)."/../original/report_001.csv"
# Rows of other series evaluate to NaN: skipped without breaking this series' line.
set datafile missing NaN
sel(v, p, name) = (strcol("version") eq v && strcol("precision") eq p) ? column(name) : NaN
report(t, v) = (strcol("table") eq t && strcol("version") eq v) ? column("time_us") : NaN
set title titled("pi, report table 1".on_gpu.": kernel 2 and CPU time against iterations (chunk 64, float)")
set xlabel "iterations (niter)"
set ylabel "time (us)"
set logscale x 2
set logscale y 10
set format x "2^{%L}"
set format y "10^{%L}"
# The key outside the plot: it can hide no point, whatever the data.
set key outside below center horizontal maxcols 2
# Room under the x label for the four rows of the key (else they overlap it).
set bmargin 9
# A little room left and right: the first and last points are not drawn on the border.
set offsets graph 0.03, graph 0.03, 0, 0
plot input using "n":(sel("2","float","kernel_us")) title "kernel 2, kernel only" with linespoints lw 2 pt 7, \
     input using "n":(sel("2","float","total_us")) title "kernel 2 + copy + host sum" with linespoints lw 2 pt 5, \
     input using "n":(sel("cpu","float","kernel_us")) title "CPU, 1 thread (as the report)" with linespoints lw 2 pt 9, \
     input using "n":(sel("cpu_omp","float","kernel_us")) title "CPU, OpenMP" with linespoints lw 2 pt 11, \
     input using "n":(sel("single","float","kernel_us")) title "single launch, kernel only" with linespoints lw 2 pt 13, \
     original using "n":(report("1","2")) title "report: kernel 2 (OpenCL GPU)" with points pt 2 ps 1.5 lc rgb "black", \
     original using "n":(report("1","cpu")) title "report: CPU" with points pt 3 ps 1.5 lc rgb "gray40"
