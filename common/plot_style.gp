# Shared look of every figure. Each plots/*.gp is run as
#   gnuplot -c plots/<figure>.gp <input.csv> <output.png|output.pdf|output.svg>
# and calls this file first, passing its arguments on (gnuplot 5.4 gives a `load`ed file no ARGs):
#   call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# It sets the terminal from the output's extension, CSV with a header row
# (columns are read by name: column("kernel_ms")), grid, key.
if (ARGC < 2) { print "usage: gnuplot -c script.gp input.csv output.(png|pdf|svg)"; exit status 2 }
input = ARG1
output = ARG2
if (strstrt(output, ".pdf") > 0) {
    set terminal pdfcairo enhanced color font "Helvetica,10" size 6in,4in
} else {
    if (strstrt(output, ".svg") > 0) {
        set terminal svg enhanced font "Helvetica,11" size 900,600
    } else {
        set terminal pngcairo enhanced color font "Helvetica,11" size 900,600
    }
}
set output output
# A figure with its own size: eval raster_terminal("Helvetica,10", "1500,800") (PNG, or SVG
# for an output.svg: the tests read the labels of an SVG).
raster_terminal(font, size) = strstrt(output, ".svg") > 0 ? \
    sprintf("set terminal svg enhanced font \"%s\" size %s", font, size) : \
    sprintf("set terminal pngcairo enhanced color font \"%s\" size %s", font, size)
set datafile separator ","
set datafile columnheaders
set grid
set key top left box opaque
set style data linespoints
# Rows of one version: usage: plot input using (col_if("version","2","threads")):...
col_if(key, value, name) = (strcol(key) eq value ? column(name) : NaN)
