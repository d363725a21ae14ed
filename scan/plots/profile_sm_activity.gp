# Figure 3.4 of report 002 (a profiler screenshot: "the percentage of time each multiprocessor
# was active during the duration of the kernel launch"; workload imbalance), from Nsight
# Compute's counters in results/profile.csv (`make profile`). ncu gives no per-SM values, but
# the spread: the least, mean and most active cycles of any SM (sm__cycles_active.min/avg/max)
# as a percentage of the kernel's elapsed cycles (sm__cycles_elapsed.max). An SM is active
# while at least one warp is resident on it. The report's map kernel (map_scan_chunks,
# kernel 1 of map_brent_kung) at n = 15000 and 1,250,000; brent_kung's block scan and
# lookback at 1,250,000 beside it. The report gives no numbers for it.
#   gnuplot -c plots/profile_sm_activity.gp results/profile.csv figures/profile_sm_activity.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
has(k) = strstrt(strcol("kernel"), k) > 0
cat(dummy) = (strcol("version") eq "map_brent_kung" && has("map_scan_chunks") && column("n") == 15000 ? 1 : \
              strcol("version") eq "map_brent_kung" && has("map_scan_chunks") && column("n") == 1250000 ? 2 : \
              strcol("version") eq "brent_kung" && has("brent_kung_block_scan") && column("n") == 1250000 ? 3 : \
              strcol("version") eq "lookback" && has("scan_decoupled_lookback") && column("n") == 1250000 ? 4 : NaN)
# The elapsed cycles of each case (0 where the case is missing: its bars are then not drawn).
do for [c=1:4] {
    stats input using (cat(0) == c && strcol("metric") eq "sm__cycles_elapsed.max" ? column("value") : 0) nooutput
    eval sprintf("ELAPSED%d = STATS_max", c)
}
pct(m) = (strcol("metric") eq m && cat(0) == cat(0) && value(sprintf("ELAPSED%d", cat(0))) > 0 ? \
          100.0 * column("value") / value(sprintf("ELAPSED%d", cat(0))) : NaN)
set xrange [0.4:4.6]
set xtics ("map\\_scan\\_chunks\n(map\\_brent\\_kung)\nn = 15000" 1, "map\\_scan\\_chunks\n(map\\_brent\\_kung)\nn = 1250000" 2, \
           "brent\\_kung\\_block\\_scan\n(brent\\_kung)\nn = 1250000" 3, "scan\\_decoupled\\_lookback\n(lookback)\nn = 1250000" 4)
set grid noxtics ytics
set style fill solid 0.85 border -1
set title titled("SM activity (Nsight Compute".on_gpu."), cf. the report's Figure 3.4")
set ylabel "active cycles of an SM (% of the kernel's elapsed cycles)"
set yrange [0:125]
set ytics 0, 20, 100
set xtics nomirror
set key top center horizontal box opaque
set bmargin 4
w = 0.25
plot input using (cat(0) - w):(pct("sm__cycles_active.min")):(w) with boxes lc rgb "#c6dbef" title "least active SM", \
     input using (cat(0)):(pct("sm__cycles_active.avg")):(w) with boxes lc rgb "#6baed6" title "mean over the SMs", \
     input using (cat(0) + w):(pct("sm__cycles_active.max")):(w) with boxes lc rgb "#08519c" title "most active SM", \
     for [m in "sm__cycles_active.min sm__cycles_active.avg sm__cycles_active.max"] \
         input using (cat(0) + (m eq "sm__cycles_active.min" ? -w : m eq "sm__cycles_active.max" ? w : 0)):(pct(m)): \
         (sprintf("%.0f", pct(m))) with labels offset 0, 0.6 font ",9" notitle
