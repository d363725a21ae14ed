# Benchmark at niter = 2^30: terms per second (kernel only) of every version, float and
# double, on a log axis.
# Usage: gnuplot -c plots/throughput.gp results/bench.csv figures/throughput.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# Rows of other series evaluate to NaN: skipped without breaking this series' line.
set datafile missing NaN
set title "pi at 2^{30} iterations: throughput of every version (kernel only; CPU: whole loop)"
set ylabel "throughput (10^9 terms/s)"
stats input using "gterms_per_s" nooutput
set logscale y
set yrange [STATS_min/3:STATS_max*8]
set rmargin 8
set format y "10^{%L}"
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -35 nomirror noenhanced
set key off
set grid ytics
isf(p) = (p eq "float")
plot input using 0:(isf(strcol("precision")) ? column("gterms_per_s") : NaN):xticlabels(strcol("version")." ".strcol("precision")) with boxes lc rgb "#1f77b4", \
     input using 0:(isf(strcol("precision")) ? NaN : column("gterms_per_s")) with boxes lc rgb "#ff7f0e", \
     input using 0:(column("gterms_per_s")):(sprintf("%.3g", column("gterms_per_s"))) with labels offset 0,0.7 font ",9"
