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
# A path for the shell, in single quotes (a path with blanks or '$' stays one word).
shell_quoted(s) = "'".s."'"
# DEVICE: the GPU that made the input, the device column of its first data row ("" for a CSV
# without one, such as a figure computed without a GPU). Every title names it (on_gpu), so
# that a figure of an assignment with two GPUs' runs says whose data it draws.
DEVICE = system("awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) if ($i == \"device\") c = i; next } c { print $c; exit }' ".shell_quoted(input))
on_gpu = (DEVICE eq "" ? "" : " on the ".DEVICE)
# stale: the line common/scripts/render_figures.sh passes (gnuplot -e "stale='...'") for a figure
# drawn from a CSV whose code changed since it was made (common/py/provenance.py); "" otherwise.
# Every script's main title is titled("..."), which puts that line under it.
if (!exists("stale")) stale = ""
titled(t) = strlen(stale) > 0 ? t."\n".stale : t
# A figure that draws a second CSV in a panel of its own (a second GPU's) asks for that CSV's
# line itself: stale_of("results/h200/x.csv") is its stale line, "" for one that is not stale or
# has no manifest row.
style_dir = system("dirname ".shell_quoted(ARG0))
stale_of(csv) = system("python3 ".shell_quoted(style_dir."/py/provenance.py")." figure-notes ".shell_quoted("x=".csv)." | cut -f2- | tr -d \"'\"")
