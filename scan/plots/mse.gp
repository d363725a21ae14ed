# Figures 1.2/1.3 of report 002 and section 1.10: error of the racy in-place Hillis-Steele
# kernel against n. Top: MSE (mean over the runs). A log axis has no 0, so sizes where every
# run was exact (MSE 0) are drawn on their own rows below the axis's data range, one row per
# series (the report's, then ours), so that no series covers another. Bottom: how many of
# the runs were wrong (a race is not deterministic). The report's own numbers (black, from
# original/report_002.csv, next to this folder's plots/): MSE 0 for n <= 32 (section 1.7) and
# its n = 33 error (Figure 1.3: 278784, a sum of squares, i.e. MSE 8448).
#   gnuplot -c plots/mse.gp results/mse.csv figures/mse.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
original = system("dirname ".ARG0)."/../original/report_002.csv"
if (strstrt(output, ".pdf") > 0) { set terminal pdfcairo enhanced color font "Helvetica,10" size 6in,6.5in } \
else { eval raster_terminal("Helvetica,11", "900,1000") }
set output output
racy(v, name) = (strcol("version") eq v ? column(name) : NaN)
positive(x) = (x > 0 ? x : NaN)
# Rows for MSE 0 (below the lowest possible nonzero MSE of this input, which is far above 1).
ZERO_REPORT = 1e-1
ZERO_ONE = 1e-2
ZERO_MANY = 1e-3
zero_row(x, y) = (x == 0 ? y : NaN)
report(what, name) = (strcol("what") eq what ? column(name) : NaN)
set multiplot layout 2,1 title titled("In-place Hillis-Steele (racy)".on_gpu.": error against n (input 1, 2, 3, ...)")
set xrange [0:2100]
set xlabel "n (elements)"
set ylabel "MSE (mean of the runs)"
set logscale y
set yrange [2e-4:1e13]
set ytics ("10^{2}" 1e2, "10^{4}" 1e4, "10^{6}" 1e6, "10^{8}" 1e8, "10^{10}" 1e10, "10^{12}" 1e12)
set ytics add ("0: report" ZERO_REPORT, "0: <<<1, 32>>>" ZERO_ONE, "0: n/1024 blocks" ZERO_MANY)
set arrow 10 from graph 0, first 1 to graph 1, first 1 nohead lc rgb "gray60"
set label 10 "below the line: MSE 0, every run exact" at 1150, first 3e-2 tc rgb "gray30"
# The key stands where no data can be: n > 1024 has no exact run and no MSE below 10^9.
set key at graph 0.99, first 1e7 right top vertical box opaque samplen 1
set tmargin 3
set arrow 1 from 32, graph 0 to 32, graph 1 nohead dt 2 lc rgb "gray40"
set arrow 2 from 414, graph 0 to 414, graph 1 nohead dt 2 lc rgb "gray40"
set arrow 3 from 1024, graph 0 to 1024, graph 1 nohead dt 2 lc rgb "gray40"
# "32" stands inside the plot, right of its line, where no data are (n < 100 has no MSE near
# 10^12): above the plot it would run into the label of 414.
set label 1 "32" at 45, graph 0.95 left tc rgb "gray40"
set label 2 "414 (report's limit, section 1.10)" at 414, graph 1.03 center tc rgb "gray40"
set label 3 "1024 (one block)" at 1024, graph 1.03 center tc rgb "gray40"
plot input using "n":(positive(racy("hs_inplace_racy", "mse"))) with points pt 7 ps 0.35 lc rgb "#1f77b4" \
         title "ours, <<<1, 32>>>", \
     input using "n":(positive(racy("hs_multiblock_racy", "mse"))) with points pt 6 ps 0.45 lc rgb "#d62728" \
         title "ours, <<<ceil(n/1024), 1024>>>", \
     input using "n":(zero_row(racy("hs_inplace_racy", "mse"), ZERO_ONE)) with points pt 7 ps 0.35 \
         lc rgb "#1f77b4" notitle, \
     input using "n":(zero_row(racy("hs_multiblock_racy", "mse"), ZERO_MANY)) with points pt 6 ps 0.45 \
         lc rgb "#d62728" notitle, \
     original using "n":(zero_row(report("fig1_2", "mse"), ZERO_REPORT)) with points pt 5 ps 0.5 lc rgb "black" \
         title "report, 0 for n <= 32", \
     original using "n":(report("fig1_3", "mse")) with points pt 2 ps 2 lw 2 lc rgb "black" \
         title "report, n = 33 (Fig. 1.3)"
unset logscale y
unset arrow 10
unset label
set ytics auto
set format y "%g"
set ylabel "wrong runs (of the runs per size)"
set yrange [-0.4:*]
set tmargin 1
set ytics 1
# n > 1024: every run wrong, so nothing below 5 there.
set key at graph 0.99, first 3.5 right top vertical box opaque
# The two series are shifted by -0.1 and +0.1 so that where both have the same count (5 of 5
# wrong for 33 <= n <= 1024) neither covers the other.
plot input using "n":(racy("hs_inplace_racy", "wrong_runs") - 0.1) with points pt 7 ps 0.35 lc rgb "#1f77b4" \
         title "<<<1, 32>>> (drawn 0.1 low)", \
     input using "n":(racy("hs_multiblock_racy", "wrong_runs") + 0.1) with points pt 6 ps 0.45 lc rgb "#d62728" \
         title "<<<ceil(n/1024), 1024>>> (0.1 high)"
unset multiplot
