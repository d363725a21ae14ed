# Bandwidth (bytes read / time) against the number of ints for every version, CUB and the
# serial CPU sum, with the device-to-device copy bandwidth of the same run as the ceiling.
#   gnuplot -c plots/bandwidth_vs_size.gp results/size_sweep.csv figures/bandwidth_vs_size.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
if (strstrt(output, ".pdf") == 0) { eval raster_terminal("Helvetica,11", "900,760") }
set output output
stats input using (column("copy_bw_GBps")) nooutput
ceiling = STATS_max
# One datablock per curve ($d1, $d2, ...): the CSV interleaves the versions, so filtering
# inside one plot command would break every line between its points.
# The versions, in the order of their first row in the CSV (the program's registry order),
# then the serial CPU sum (the same for every version of a size: read from the first one's rows).
labels = ""
stats input using (strstrt(" ".labels." ", " ".strcol("version")." ") == 0 ? (labels = labels.strcol("version")." ", 0) : 0) nooutput
# The library baseline (is_baseline = 1) is titled by its own label.
baseline = ""
stats input using (column("is_baseline") == 1 ? (baseline = strcol("version"), 0) : 0) nooutput
curves = labels."cpu"
do for [i = 1:words(curves)] {
    v = word(curves, i)
    eval sprintf("set table $d%d", i)
    if (v eq "cpu") {
        plot input using (column("n")):(column("cpu_bandwidth_GBps")) with table if (strcol("version") eq word(labels, 1))
    } else {
        plot input using (column("n")):(column("bandwidth_GBps")) with table if (strcol("version") eq v)
    }
    unset table
}
set datafile separator whitespace
set datafile nocolumnheaders
title_of(v) = (v eq baseline ? v : "version ".v)
set title titled("Bandwidth against size".on_gpu."\n(median of the timed runs, L2 flushed before each)")
set xlabel "ints summed (log scale)"
set ylabel "bandwidth (GB/s, log scale)"
set logscale x 2
set logscale y
set format x "2^{%L}"
set yrange [*:2 * ceiling]
# Bottom right: the only corner no curve crosses (the GPU curves rise to the copy line on the
# right, the CPU curve stays low and flat).
set key bottom right box opaque font ",9" maxrows 5
set arrow from graph 0, first ceiling to graph 1, first ceiling nohead dt 2 lw 2 lc rgb "#c03030"
set label sprintf("device-to-device copy: %.0f GB/s", ceiling) at graph 0.6, first ceiling offset 0,0.7 tc rgb "#c03030"
ncurves = words(curves)
# The versions take the palette in order; the library baseline is always grey. Curves that
# lie on top of each other (versions 5 and 6 differ by 2-3 %) stay apart by their style: every
# second curve is dashed with small open points and drawn after the solid one before it, so the
# solid curve and its larger filled points show through; each curve has its own point type.
colors = "#9400d3 #009e73 #56b4e9 #e69f00 #8b4513 #0072b2 #e51e10 #000000 #cc79a7 #c8b400"
colour(i) = word(curves, i) eq baseline ? "#909090" : (i <= words(colors) ? word(colors, i) : "#606060")
dash(i) = i % 2 == 0 ? 2 : 1
point(i) = i % 2 == 0 ? 2 * ((i - 1) % 7) + 4 : 2 * ((i - 1) % 7) + 5
plot for [i = 1:ncurves - 1] sprintf("$d%d", i) using 1:2 with linespoints lw 2 dt dash(i) \
         pt point(i) ps (i % 2 == 0 ? 1.0 : 1.6) lc rgb colour(i) title title_of(word(curves, i)), \
     sprintf("$d%d", ncurves) using 1:2 with linespoints lw 2 dt 3 lc rgb "black" title "CPU serial"
