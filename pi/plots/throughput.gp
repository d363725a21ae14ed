# Benchmark at niter = 2^30: terms per second (kernel only) of every version, float (blue) and
# double (orange), on a log axis, and the report's kernels 1 and 2 at the same niter (grey:
# 2^24*64 terms over its table 2's times, from original/report_001.csv next to plots/).
# Usage: gnuplot -c plots/throughput.gp results/bench.csv figures/throughput.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
original = system("dirname ".ARG0)."/../original/report_001.csv"
# Rows of other series evaluate to NaN: skipped without breaking this series' line.
set datafile missing NaN
set title titled("pi at 2^{30} iterations".on_gpu.": throughput\n(kernel only; CPU: whole loop; grey: the report's GPU)")
set ylabel "throughput (10^9 terms/s)"
stats input using "gterms_per_s" nooutput
rows = STATS_records
lo = STATS_min
hi = STATS_max
# The report's table 2 at 2^24*64 = 2^30 terms: kernel 1 and kernel 2, in 10^9 terms/s.
report(v) = (strcol("table") eq "2" && strcol("version") eq v && column("n") == 1073741824) ? column("n") / (column("time_us") * 1e3) : NaN
stats original using (report("1")) nooutput
lo = STATS_min < lo ? STATS_min : lo
set logscale y
set yrange [lo/3:hi*8]
set xrange [-0.6:rows + 1.6]
set format y "10^{%L}"
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -35 nomirror noenhanced
set key off
# Room on the right for the last rotated tick label.
set rmargin 14
set grid ytics
isf(p) = (p eq "float")
# Bar labels: whole numbers from 100 up (no "1.18e+03" spilling over the next bar), 3 digits below.
lab(v) = v >= 100 ? sprintf("%.0f", v) : sprintf("%.3g", v)
plot input using 0:(isf(strcol("precision")) ? column("gterms_per_s") : NaN):xticlabels(strcol("version")." ".strcol("precision")) with boxes lc rgb "#1f77b4", \
     input using 0:(isf(strcol("precision")) ? NaN : column("gterms_per_s")) with boxes lc rgb "#ff7f0e", \
     input using 0:(column("gterms_per_s")):(lab(column("gterms_per_s"))) with labels offset 0,0.7 font ",9", \
     original using (rows + (strcol("version") eq "1" ? 0 : 1)):(report(strcol("version"))):xticlabels("report: kernel ".strcol("version")." float") with boxes lc rgb "gray60", \
     original using (rows + (strcol("version") eq "1" ? 0 : 1)):(report(strcol("version"))):(lab(report(strcol("version")))) with labels offset 0,0.7 font ",9"
