# Figure 3.3 of report 002 (a profiler screenshot: "Issue Stall Reasons of PrefixSumMap
# Kernel", "how much time is wasted for global memory accessing"), from Nsight Compute's
# counters in results/profile.csv (`make profile`): for each stall reason, the cycles a warp
# spent stalled on that reason per instruction it issued (the Warp State section's
# smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio; the reasons add up to
# the warp cycles per issued instruction). Top: the report's n = 15,000 (the map kernel as
# the report printed it and map_scan_chunks, kernel 1 of map_brent_kung); bottom: 5 MB
# (1,250,000 ints), the map kernel beside brent_kung's block scan and our look-back. Kernels
# and sizes come from the CSV's rows; a CSV without these metrics (a profile from before they
# were measured) gives a figure that says so.
#   gnuplot -c plots/profile_stalls.gp results/profile.csv figures/profile_stalls.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
if (strstrt(output, ".pdf") > 0) { set terminal pdfcairo enhanced color font "Helvetica,10" size 6in,7in } \
else { eval raster_terminal("Helvetica,11", "1000,1050") }
set output output
PREFIX = "smsp__average_warps_issue_stalled_"
SUFFIX = "_per_issue_active.ratio"
REASONS = "long_scoreboard barrier short_scoreboard wait mio_throttle lg_throttle math_pipe_throttle not_selected selected no_instruction dispatch_stall membar drain sleeping branch_resolving tex_throttle imc_miss"
# The position of a row's reason in REASONS (the whole name is compared: "selected" alone
# would also match not_selected).
reason(dummy) = sum [i=1:words(REASONS)] (strcol("metric") eq PREFIX.word(REASONS, i).SUFFIX ? i : 0)
pos(dummy) = (reason(0) > 0 ? reason(0) : NaN)
stats input using (reason(0) > 0 ? 1 : 0) nooutput
MEASURED = STATS_sum
# The kernels of each panel, as "version:kernel" words, from the rows at that size. The awk
# program is joined with '.', not written through sprintf: gnuplot 5.4's sprintf repeats part of
# a format holding "%%" once its result outgrows its first buffer (a long input path), which
# turned awk's printf "%s:%s " into "%s:%s:%s " and left every panel empty.
kernels_at(n) = system("awk -F, -v n=".n." -v suffix=".SUFFIX." 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } " \
    ."$c[\"n\"] == n && index($c[\"metric\"], suffix) && !seen[$c[\"version\"] \":\" $c[\"kernel\"]]++ " \
    ."{ printf \"%s:%s \", $c[\"version\"], $c[\"kernel\"] }' ".shell_quoted(input))
is(n, vk) = (column("n") == n && strcol("version").":".strcol("kernel") eq vk)
COLORS = "#ff7f0e #1f77b4 #2ca02c #d62728 #9467bd"
set xrange [0.4:words(REASONS) + 0.6]
set for [i=1:words(REASONS)] xtics add (word(REASONS, i) i)
set xtics noenhanced rotate by -35 left nomirror
set grid noxtics ytics
set style fill solid 0.85 border -1
set ylabel "stall (cycles per issued instruction, log scale)"
# A log axis: one panel holds bars of 150 cycles and of 1 cycle. It spans the data: up to twice
# the largest value, down to three decades below the largest value's decade (150: 0.1; a bar
# below that is not drawn, the CSV has every value).
stats input using (reason(0) > 0 ? column("value") : 0) nooutput
TOP = STATS_max > 0 ? 2 * STATS_max : 1
BOTTOM = STATS_max > 0 ? 10 ** (floor(log10(STATS_max)) - 3) : 0.1
set logscale y
set format y "%g"
set yrange [BOTTOM:TOP]
set key inside top right vertical box opaque noenhanced
set multiplot layout 2, 1 title titled("Issue stall reasons (Nsight Compute".on_gpu."), cf. the report's Figure 3.3")
do for [n in "15000 1250000"] {
    K = kernels_at(int(n))
    set title sprintf("n = %s", n)
    if (MEASURED == 0 || words(K) == 0) {
        unset key
        set label 1 "not measured yet: run make profile" at graph 0.5, 0.5 center
        unset logscale y
        set yrange [0:1]
        plot 0 notitle lc rgb "white"
        unset label 1
        set logscale y
        set yrange [BOTTOM:TOP]
        set key
    } else {
        w = 0.8 / words(K)
        plot for [j=1:words(K)] input using (pos(0) - 0.4 + (j - 0.5) * w):(is(int(n), word(K, j)) ? column("value") : NaN):(w) \
            with boxes lc rgb word(COLORS, (j - 1) % 5 + 1) title word(K, j)
    }
}
unset multiplot
