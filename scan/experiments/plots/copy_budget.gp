# The copy budget (experiments/copy_budget.cu): bandwidth of a tile copy through shared
# memory, as a percentage of a device-to-device copy measured in the same run, against the
# SM clock cycles each tile waits between its load and its store; one line per shape.
#   gnuplot -c plots/copy_budget.gp results/h100/copy_budget.csv figures/copy_budget.png [second.csv]
# (in scan/experiments/: `make -C scan/experiments figures` draws it). A second GPU's CSV draws a
# second panel beside the first: the third argument, or by default the file of the same name in
# the h200/ folder beside the input's (results/h200/, where the lab keeps its second GPU's
# files), when it exists. Shapes, devices and the tile buffers in
# flight per SM come from the CSV; rows that failed validation are not drawn.
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../../common/plot_style.gp" ARG1 ARG2
second = ARGC >= 3 ? ARG3 : system("dirname \"$(dirname '".input."')\"")."/h200/".system("basename '".input."'")
has_second = (second ne input && system("[ -f '".second."' ] && echo 1 || echo 0") eq "1")
files = has_second ? input." ".second : input
if (has_second) {
    if (strstrt(output, ".pdf") > 0) {
        set terminal pdfcairo enhanced color font "Helvetica,10" size 11in,5in
    } else {
        eval raster_terminal("Helvetica,11", "1600,750")
    }
    set output output
    set multiplot layout 1,2
}
set datafile missing NaN
set xlabel "cycles injected per tile between its load and its store (SM clock cycles)"
set ylabel "bandwidth (% of the same run's device-to-device copy)"
set xrange [0:*]
set yrange [0:115]
set ytics 0, 10, 100
set key below box horizontal maxcols 2 maxrows 4  # outside the plot: no curve hidden behind it
set xlabel offset 0, 0.5
set bmargin 9
do for [f in files] {
    # The shapes in order of first appearance, with their tile buffers in flight per SM, and
    # the device's name and the size.
    shapes = " "
    inflight = " "
    device = ""
    n = 0
    stats f using (s = strcol("shape"), \
                   inflight = strstrt(shapes, " ".s." ") == 0 ? inflight.strcol("inflight_KiB_per_sm")." " : inflight, \
                   shapes = strstrt(shapes, " ".s." ") == 0 ? shapes.s." " : shapes, \
                   device = strcol("device"), n = column("n"), 0) nooutput
    # The stale line passed in (gnuplot -e "stale='...'") is the input's; with a second panel,
    # each panel's is its own CSV's.
    if (has_second) { stale = stale_of(f) }
    set title titled(sprintf("%s: copy of 2^{%d} ints through shared memory", device, int(log(n) / log(2) + 0.5)))
    plot for [i=1:words(shapes)] f \
         using "injected_cycles":(strcol("shape") eq word(shapes, i) && column("validated") == 1 ? column("pct_of_copy") : NaN) \
         title sprintf("%s, %s KiB/SM", word(shapes, i), word(inflight, i)) noenhanced lw 2, \
         95 with lines dt 2 lc rgb "gray40" title "95 % of copy"
}
if (has_second) { unset multiplot }
