# Figure 3.3 of report 002 (a profiler screenshot: "Issue Stall Reasons of PrefixSumMap
# Kernel", "how much time is wasted for global memory accessing"), from Nsight Compute's
# counters in results/profile.csv (`make profile`): for each stall reason, the average number
# of cycles a warp spent stalled for that reason per issued instruction
# (smsp__average_warp_latency_issue_stalled_<reason>.ratio), for the report's map kernel
# (map_scan_chunks, kernel 1 of map_brent_kung) beside brent_kung's block scan and our
# look-back, all at 5 MB (1,250,000 ints). The report gives no numbers for it.
#   gnuplot -c plots/profile_stalls.gp results/profile.csv figures/profile_stalls.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
if (strstrt(output, ".pdf") > 0) { set terminal pdfcairo enhanced color font "Helvetica,10" size 6in,4.5in } \
else { set terminal pngcairo enhanced color font "Helvetica,11" size 1000,650 }
set output output
REASONS = "long_scoreboard barrier short_scoreboard wait mio_throttle lg_throttle math_pipe_throttle not_selected selected no_instruction dispatch_stall membar drain sleeping branch_resolving tex_throttle imc_miss"
# The position of a row's reason in REASONS ("_selected.ratio" alone would also match not_selected).
reason(dummy) = sum [i=1:words(REASONS)] (strcol("metric") eq "smsp__average_warp_latency_issue_stalled_".word(REASONS, i).".ratio" ? i : 0)
pos(dummy) = (reason(0) > 0 ? reason(0) : NaN)
is(v, k) = (strcol("version") eq v && strstrt(strcol("kernel"), k) > 0 && column("n") == 1250000)
set xrange [0.4:words(REASONS) + 0.6]
set for [i=1:words(REASONS)] xtics add (word(REASONS, i) i)
set xtics noenhanced rotate by -35 left nomirror
set grid noxtics ytics
set style fill solid 0.85 border -1
set title "Issue stall reasons at n = 1250000 (Nsight Compute), cf. the report's Figure 3.3"
set ylabel "cycles stalled per issued instruction"
set yrange [0:*]
set key outside top center vertical box opaque
set offsets 0, 0, graph 0.05, 0
set bmargin 8
set rmargin 4
w = 0.26
plot input using (pos(0) - w):(is("map_brent_kung", "map_scan_chunks") ? column("value") : NaN):(w) with boxes \
         lc rgb "#ff7f0e" title "map\\_scan\\_chunks (the report's map kernel; map\\_brent\\_kung)", \
     input using (pos(0)):(is("brent_kung", "brent_kung_block_scan") ? column("value") : NaN):(w) with boxes \
         lc rgb "#2ca02c" title "brent\\_kung\\_block\\_scan (brent\\_kung)", \
     input using (pos(0) + w):(is("lookback", "scan_decoupled_lookback") ? column("value") : NaN):(w) with boxes \
         lc rgb "#d62728" title "scan\\_decoupled\\_lookback (lookback)"
