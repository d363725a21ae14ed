# Figure 3.2 of report 002 (a profiler screenshot: occupancy of PrefixSumMap, "the number of
# blocks, which is 2 in this case, is the cause of occupancy limit"), from Nsight Compute's
# counters in results/profile.csv (`make profile`). The report's map kernel is kernel 1 of
# map_brent_kung (map_scan_chunks, 8 elements per thread, 1024 threads per block), at
# n = 15000 (the map scan's "up to 15000": a grid of 2 blocks) and at 5 MB (1,250,000 ints);
# brent_kung's block scan and lookback at 5 MB beside it.
# Top: theoretical occupancy (sm__maximum_warps_per_active_cycle_pct) and achieved occupancy
# (sm__warps_active.avg.pct_of_peak_sustained_active). Bottom: the blocks per SM each resource
# allows (launch__occupancy_limit_*: the smallest is the limiter) and, above each group, the
# grid's waves per SM (launch__waves_per_multiprocessor). The report gives no numbers for it.
#   gnuplot -c plots/profile_occupancy.gp results/profile.csv figures/profile_occupancy.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
if (strstrt(output, ".pdf") > 0) { set terminal pdfcairo enhanced color font "Helvetica,10" size 6in,6in } \
else { eval raster_terminal("Helvetica,11", "900,900") }
set output output
has(k) = strstrt(strcol("kernel"), k) > 0
cat(dummy) = (strcol("version") eq "map_brent_kung" && has("map_scan_chunks") && column("n") == 15000 ? 1 : \
         strcol("version") eq "map_brent_kung" && has("map_scan_chunks") && column("n") == 1250000 ? 2 : \
         strcol("version") eq "brent_kung" && has("brent_kung_block_scan") && column("n") == 1250000 ? 3 : \
         strcol("version") eq "lookback" && has("scan_decoupled_lookback") && column("n") == 1250000 ? 4 : NaN)
val(m) = (strcol("metric") eq m ? column("value") : NaN)
set xrange [0.4:4.6]
set xtics ("map\\_scan\\_chunks\n(map\\_brent\\_kung)\nn = 15000" 1, "map\\_scan\\_chunks\n(map\\_brent\\_kung)\nn = 1250000" 2, \
           "brent\\_kung\\_block\\_scan\n(brent\\_kung)\nn = 1250000" 3, "scan\\_decoupled\\_lookback\n(lookback)\nn = 1250000" 4)
set style fill solid 0.8 border -1
set grid noxtics ytics
set multiplot layout 2,1 title titled("Occupancy (Nsight Compute".on_gpu."), cf. the report's Figure 3.2")
set ylabel "occupancy (% of the SM's warp slots)"
set yrange [0:119]
set ytics 0, 20, 100
set key top right horizontal box opaque
set bmargin 4
w = 0.3
plot input using (cat(0) - w/2):(val("sm__maximum_warps_per_active_cycle_pct")):(w) with boxes lc rgb "#9ecae1" \
         title "theoretical", \
     input using (cat(0) + w/2):(val("sm__warps_active.avg.pct_of_peak_sustained_active")):(w) with boxes \
         lc rgb "#08519c" title "achieved (average over active cycles)"
# The tallest limit, so that the waves labels stand above every bar.
stats input using (strstrt(strcol("metric"), "launch__occupancy_limit_") > 0 ? column("value") : 0) nooutput
LIMIT_MAX = STATS_max > 0 ? STATS_max : 1
set ylabel "blocks per SM allowed by"
set yrange [0:LIMIT_MAX * 1.45]
set ytics auto
set key top left horizontal box opaque
w = 0.18
LIMITS = "launch__occupancy_limit_blocks launch__occupancy_limit_registers launch__occupancy_limit_shared_mem launch__occupancy_limit_warps"
plot input using (cat(0) - 1.5*w):(val("launch__occupancy_limit_blocks")):(w) with boxes lc rgb "#bdbdbd" \
         title "block slots", \
     input using (cat(0) - 0.5*w):(val("launch__occupancy_limit_registers")):(w) with boxes lc rgb "#fd8d3c" \
         title "registers", \
     input using (cat(0) + 0.5*w):(val("launch__occupancy_limit_shared_mem")):(w) with boxes lc rgb "#74c476" \
         title "shared memory", \
     input using (cat(0) + 1.5*w):(val("launch__occupancy_limit_warps")):(w) with boxes lc rgb "#6baed6" \
         title "warps", \
     for [i=1:4] input using (cat(0) + (i - 2.5)*w):(val(word(LIMITS, i))):(sprintf("%g", column("value"))) \
         with labels offset 0, 0.6 font ",9" notitle, \
     input using (cat(0)):(val("launch__waves_per_multiprocessor") * 0 + LIMIT_MAX * 1.12): \
         (sprintf("%.3g waves", column("value"))) with labels notitle
unset multiplot
