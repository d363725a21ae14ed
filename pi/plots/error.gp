# |estimate - pi| against iterations for every version of the CSV (in the order of their first
# rows; the labels are the program's), float (solid) and double (dashed),
# with the midpoint rule's own error h^2/12. A log axis has no 0: an exact hit (|error| = 0,
# a double estimate that rounds to the double nearest pi) is drawn at the floor 10^-17, the
# line of its series going down to it, and marked there by a black triangle that the key
# explains; the axis is labelled "0" at that floor.
# Usage: gnuplot -c plots/error.gp results/error.csv figures/error.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# Rows of other series evaluate to NaN: skipped without breaking this series' line.
set datafile missing NaN
# The versions, from the CSV itself (one pass that only collects them).
# `doubles`: those with double rows (a series without a point would warn).
versions = ""
doubles = ""
has(list, v) = strstrt(" ".list." ", " ".v." ") > 0
add_version(v) = has(versions, v) ? 0 : (versions = versions.(versions eq "" ? "" : " ").v, 0)
add_double(v, p) = (p ne "double" || has(doubles, v)) ? 0 : (doubles = doubles." ".v, 0)
stats input using (add_version(strcol("version")) + add_double(strcol("version"), strcol("precision"))) nooutput
nv = words(versions)
# A version's place in `versions`: its colour and point type in both precisions.
pos(v, i) = i > nv ? 0 : (word(versions, i) eq v ? i : pos(v, i + 1))
floor = 1e-17
at_least(e) = e > floor ? e : floor
sel(v, p) = (strcol("version") eq v && strcol("precision") eq p) ? at_least(column("abs_error")) : NaN
exact_zero(c) = (column(c) == 0) ? floor : NaN
# h^2/12 below the floor is left out: under the "0" line it would read as below zero. It is
# the same for every version: drawn from the first version's double rows.
above_floor(e) = e >= floor ? e : NaN
trunc(p) = (strcol("version") eq word(versions, 1) && strcol("precision") eq p) ? above_floor(column("truncation_error")) : NaN
set title "pi: |estimate - pi| against iterations (solid: float, dashed: double)"
set xlabel "iterations (niter)"
set ylabel "|estimate - pi|"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set yrange [floor / 4:10]
# The floor's tick reads 0, and a dotted line marks it (values there are exact zeros).
set ytics add ("0" floor)
set arrow 1 from graph 0, first floor to graph 1, first floor nohead dt 3 lc rgb "gray30"
set key outside right top
# One colour and point type per version, float solid and filled, double dashed and open.
plot input using "n":(trunc("double")) title "h^2/12 (midpoint rule)" with lines lw 3 lc rgb "gray70", \
     for [i = 1:nv] input using "n":(sel(word(versions, i), "float")) title "version ".word(versions, i).", float" noenhanced \
         with linespoints lw 2 lc i pt (2 * i + 3), \
     for [d in doubles] input using "n":(sel(d, "double")) title "version ".d.", double" noenhanced \
         with linespoints lw 1 dt 2 lc pos(d, 1) pt (2 * pos(d, 1) + 2), \
     input using "n":(exact_zero("abs_error")) title "|error| = 0 (on the 0 line)" with points pt 11 ps 1.8 lc rgb "black"
