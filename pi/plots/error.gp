# |estimate - pi| against iterations for every version of the CSV (in the order of their first
# rows; the labels are the program's), float (left panel) and double (right panel), with the
# midpoint rule's own error h^2/12. Many versions have the same error at a size (the rule's
# error dominates), so the points of one size are spread sideways, one version a little left
# or right of the next, in the same order in both panels. A log axis has no 0: an exact hit
# (|error| = 0, a double estimate that rounds to the double nearest pi) is drawn at the floor
# 10^-17, labelled "0", as a black triangle that the key explains.
# Usage: gnuplot -c plots/error.gp results/error.csv figures/error.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# Rows of other series evaluate to NaN: skipped without breaking this series' line.
set datafile missing NaN
# The versions, from the CSV itself (one pass that only collects them): all of them, and
# those with double rows (a series without a point would warn).
versions = ""
doubles = ""
has(list, v) = strstrt(" ".list." ", " ".v." ") > 0
add_version(v) = has(versions, v) ? 0 : (versions = versions.(versions eq "" ? "" : " ").v, 0)
add_double(v, p) = (p ne "double" || has(doubles, v)) ? 0 : (doubles = doubles." ".v, 0)
stats input using (add_version(strcol("version")) + add_double(strcol("version"), strcol("precision"))) nooutput
nv = words(versions)
# A version's place in `versions`: its colour, point type and sideways shift in both panels.
pos(v, i) = i > nv ? 0 : (word(versions, i) eq v ? i : pos(v, i + 1))
shift(i) = 1.2 ** (i - (nv + 1) / 2.0)
floor = 1e-17
at_least(e) = e > floor ? e : floor
sel(v, p) = (strcol("version") eq v && strcol("precision") eq p) ? at_least(column("abs_error")) : NaN
zero(p) = (strcol("precision") eq p && column("abs_error") == 0) ? floor : NaN
# h^2/12 below the floor is left out: under the "0" line it would read as below zero. It is
# the same for every version: drawn from the first version's rows.
above_floor(e) = e >= floor ? e : NaN
trunc = "truncation_error"
rule(p) = (strcol("version") eq word(versions, 1) && strcol("precision") eq p) ? above_floor(column(trunc)) : NaN
eval raster_terminal("Helvetica,11", "1300,720")
set output output
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xrange [0.5:2e9]
set yrange [floor / 4:10]
set ytics add ("0" floor)
set arrow 1 from graph 0, first floor to graph 1, first floor nohead dt 3 lc rgb "gray30"
unset xlabel
set key below Left reverse maxrows 4 width -2
set multiplot layout 1, 2 title titled("pi".on_gpu.": |estimate - pi| against iterations niter (x axis); the points of one niter are spread sideways")
set title "float"
set ylabel "|estimate - pi|"
plot input using "n":(rule("float")) title "h^2/12 (midpoint rule)" with lines lw 3 lc rgb "gray70", \
     for [i = 1:nv] input using (column("n") * shift(i)):(sel(word(versions, i), "float")) \
         title "version ".word(versions, i) noenhanced with linespoints lw 1.5 lc i pt (2 * i + 3)
set title "double"
unset ylabel
plot input using "n":(rule("double")) title "h^2/12 (midpoint rule)" with lines lw 3 lc rgb "gray70", \
     for [d in doubles] input using (column("n") * shift(pos(d, 1))):(sel(d, "double")) \
         title "version ".d noenhanced with linespoints lw 1.5 lc pos(d, 1) pt (2 * pos(d, 1) + 3), \
     input using (column("n") * shift(pos(strcol("version"), 1))):(zero("double")) \
         title "|error| = 0 (on the 0 line)" with points pt 11 ps 1.8 lc rgb "black"
unset multiplot
