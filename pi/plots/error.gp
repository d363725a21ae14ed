# |estimate - pi| against iterations for every version, float (solid) and double (dashed),
# with the midpoint rule's own error h^2/12. An exact hit (error 0) is drawn at 1e-17.
# Usage: gnuplot -c plots/error.gp results/error.csv figures/error.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# Rows of other series evaluate to NaN: skipped without breaking this series' line.
set datafile missing NaN
at_least(e) = e > 1e-17 ? e : 1e-17
sel(v, p) = (strcol("version") eq v && strcol("precision") eq p) ? at_least(column("abs_error")) : NaN
trunc(p) = (strcol("version") eq "2" && strcol("precision") eq p) ? column("truncation_error") : NaN
set title "pi: |estimate - pi| against iterations (solid: float, dashed: double)"
set xlabel "iterations (niter)"
set ylabel "|estimate - pi|"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set yrange [1e-17:10]
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
     input using "n":(sel("cpu_omp","double")) title "CPU OpenMP, double" with linespoints lw 1 dt 2 lc 6 pt 1
