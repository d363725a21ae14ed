# Figures 1.2/1.3 of report 002 and section 1.10: error of the racy in-place Hillis-Steele
# kernel against n. Top: MSE (mean over the runs; exact runs have no point on the log axis).
# Bottom: how many of the runs were wrong (a race is not deterministic).
#   gnuplot -c plots/mse.gp results/mse.csv figures/mse.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
if (strstrt(output, ".pdf") > 0) { set terminal pdfcairo enhanced color font "Helvetica,10" size 6in,6in } \
else { set terminal pngcairo enhanced color font "Helvetica,11" size 900,900 }
set output output
racy(v, name) = (strcol("version") eq v ? column(name) : NaN)
positive(x) = (x > 0 ? x : NaN)
set multiplot layout 2,1 title "In-place Hillis-Steele (racy): error against n (input 1, 2, 3, ...)"
set xrange [0:*]
set xlabel "n (elements)"
set ylabel "MSE (mean of the runs)"
set logscale y
set format y "10^{%T}"
set key top left
set arrow 1 from 32, graph 0 to 32, graph 1 nohead dt 2 lc rgb "gray40"
set arrow 2 from 414, graph 0 to 414, graph 1 nohead dt 2 lc rgb "gray40"
set arrow 3 from 1024, graph 0 to 1024, graph 1 nohead dt 2 lc rgb "gray40"
set label 1 "32" at 32, graph 0.95 offset 0.5,0 tc rgb "gray40"
set label 2 "414 (report)" at 414, graph 0.95 offset 0.5,0 tc rgb "gray40"
set label 3 "1024" at 1024, graph 0.95 offset 0.5,0 tc rgb "gray40"
plot input using "n":(positive(racy("hs_inplace_racy", "mse"))) with points pt 7 ps 0.3 lc rgb "#1f77b4" \
         title "report's launch <<<1, 32>>> (hs\\_inplace\\_racy)", \
     input using "n":(positive(racy("hs_multiblock_racy", "mse"))) with points pt 7 ps 0.3 lc rgb "#d62728" \
         title "section 1.10 <<<ceil(n/1024), 1024>>> (hs\\_multiblock\\_racy)"
unset logscale y
set format y "%g"
set ylabel "wrong runs"
set yrange [-0.2:*]
unset label
plot input using "n":(racy("hs_inplace_racy", "wrong_runs")) with points pt 7 ps 0.3 lc rgb "#1f77b4" \
         title "<<<1, 32>>>", \
     input using "n":(racy("hs_multiblock_racy", "wrong_runs")) with points pt 7 ps 0.3 lc rgb "#d62728" \
         title "<<<ceil(n/1024), 1024>>>"
unset multiplot
