# |estimate - pi| against iterations for every version, float (solid) and double (dashed),
# with the midpoint rule's own error h^2/12. A log axis has no 0: an exact hit (|error| = 0,
# a double estimate that rounds to the double nearest pi) is drawn at the floor 10^-17, the
# line of its series going down to it, and marked there by a black triangle that the key
# explains; the axis is labelled "0" at that floor.
# Usage: gnuplot -c plots/error.gp results/error.csv figures/error.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# Rows of other series evaluate to NaN: skipped without breaking this series' line.
set datafile missing NaN
floor = 1e-17
at_least(e) = e > floor ? e : floor
sel(v, p) = (strcol("version") eq v && strcol("precision") eq p) ? at_least(column("abs_error")) : NaN
exact_zero(c) = (column(c) == 0) ? floor : NaN
# h^2/12 below the floor is left out: under the "0" line it would read as below zero.
above_floor(e) = e >= floor ? e : NaN
trunc(p) = (strcol("version") eq "2" && strcol("precision") eq p) ? above_floor(column("truncation_error")) : NaN
set title "pi: |estimate - pi| against iterations (solid: float, dashed: double)"
set xlabel "iterations (niter)"
set ylabel "|estimate - pi|"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set yrange [floor / 4:10]
# The floor's tick reads 0, and a dotted line marks it (values there are exact zeros).
set ytics add ("0" floor)
set arrow 1 from graph 0, first floor to graph 1, first floor nohead dt 3 lc rgb "gray30"
set key outside right top
plot input using "n":(trunc("double")) title "h^2/12 (midpoint rule)" with lines lw 3 lc rgb "gray70", \
     input using "n":(sel("1","float")) title "kernel 1, float" with linespoints lw 2 lc 1 pt 7, \
     input using "n":(sel("2","float")) title "kernel 2, float" with linespoints lw 2 lc 2 pt 5, \
     input using "n":(sel("single","float")) title "single, float" with linespoints lw 2 lc 3 pt 13, \
     input using "n":(sel("thrust","float")) title "Thrust, float" with linespoints lw 2 lc 4 pt 9, \
     input using "n":(sel("cpu","float")) title "CPU 1 thread, float" with linespoints lw 2 lc 5 pt 11, \
     input using "n":(sel("cpu_omp","float")) title "CPU OpenMP, float" with linespoints lw 2 lc 6 pt 3, \
     input using "n":(sel("cpu_report","float")) title "report's CPU code, x=h(i-0.5)" with linespoints lw 2 lc rgb "black" pt 2, \
     input using "n":(sel("1","double")) title "kernel 1, double" with linespoints lw 1 dt 2 lc 1 pt 6, \
     input using "n":(sel("2","double")) title "kernel 2, double" with linespoints lw 1 dt 2 lc 2 pt 4, \
     input using "n":(sel("single","double")) title "single, double" with linespoints lw 1 dt 2 lc 3 pt 12, \
     input using "n":(sel("thrust","double")) title "Thrust, double" with linespoints lw 1 dt 2 lc 4 pt 8, \
     input using "n":(sel("cpu","double")) title "CPU 1 thread, double" with linespoints lw 1 dt 2 lc 5 pt 10, \
     input using "n":(sel("cpu_omp","double")) title "CPU OpenMP, double" with linespoints lw 1 dt 2 lc 6 pt 1, \
     input using "n":(exact_zero("abs_error")) title "|error| = 0 (on the 0 line)" with points pt 11 ps 1.8 lc rgb "black"
