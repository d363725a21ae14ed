# Report table 2 / its graph: niter = 2^21*64 ... 2^24*64 (chunk 64), kernel 1 against
# kernel 2 in microseconds, float (the report's type); ours kernel only and with the copy and
# host finish, the single-launch version and Thrust for scale; the report's numbers as crosses.
# Usage: gnuplot -c plots/table2.gp results/table2.csv figures/table2.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# Rows of other series evaluate to NaN: skipped without breaking this series' line.
set datafile missing NaN
sel(v, p, name) = (strcol("version") eq v && strcol("precision") eq p) ? column(name) : NaN
$report << EOD
n,kernel1_us,kernel2_us
134217728,28219,26252
268435456,56479,51758
536870912,112669,103251
1073741824,225098,206182
EOD
set title "pi, report table 2: kernel 1 against kernel 2 (chunk 64, float)"
set xlabel "iterations (niter)"
set ylabel "time (us)"
set logscale x 2
set logscale y 10
set format x "2^{%L}"
set key top left
plot input using "n":(sel("1","float","kernel_us")) title "kernel 1, kernel only" with linespoints lw 2 pt 7, \
     input using "n":(sel("2","float","kernel_us")) title "kernel 2, kernel only" with linespoints lw 2 pt 5, \
     input using "n":(sel("1","float","total_us")) title "kernel 1 + copy + host sum" with linespoints lw 1 dt 2 pt 6, \
     input using "n":(sel("2","float","total_us")) title "kernel 2 + copy + host sum" with linespoints lw 1 dt 2 pt 4, \
     input using "n":(sel("single","float","kernel_us")) title "single launch (float)" with linespoints lw 2 pt 13, \
     input using "n":(sel("thrust","float","kernel_us")) title "Thrust (float)" with linespoints lw 2 pt 9, \
     $report using 1:2 with points pt 2 ps 1.5 lc rgb "black" title "report: kernel 1", \
     $report using 1:3 with points pt 3 ps 1.5 lc rgb "gray40" title "report: kernel 2"
