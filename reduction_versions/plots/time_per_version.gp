# Report 004's Figure 3: time of each version at one size (the report: 32 MB = 8,388,608 ints),
# with cub::DeviceReduce::Sum and the serial CPU sum of the same run, on two data sets side by
# side: random ints over the whole int32 range (data = full) and the report's own 1, 2, ..., n
# (data = iota). A data set with no rows in the CSV is left out and the title says so.
#   gnuplot -c plots/time_per_version.gp results/versions.csv figures/time_per_version.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# The versions, in the order of their first row in the CSV (the program writes them in its
# registry's order): x positions 0, 1, ... and the tic labels come from the data.
labels = ""
stats input using (strstrt(" ".labels." ", " ".strcol("version")." ") == 0 ? (labels = labels.strcol("version")." ", 0) : 0) nooutput
nver = words(labels)
# Position of a version on the x axis (0, 1, ...), NaN for a label not listed.
vpos(v) = (sum [i = 1:nver] (word(labels, i) eq v ? i : 0)) - 1
# An invisible series that puts each version's label under its position (xticlabels).
tics = "input using (vpos(strcol('version'))):(NaN):xticlabels(strcol('version')) notitle"
at(v, d, off) = (strcol("data") eq d && vpos(v) >= 0) ? vpos(v) + off : NaN
stats input using (strcol("data") eq "full" ? 1 : 0) nooutput
nfull = STATS_sum
stats input using (strcol("data") eq "iota" ? 1 : 0) nooutput
niota = STATS_sum
stats input using (column("n")) nooutput
n = STATS_max
w = (nfull > 0 && niota > 0) ? 0.4 : 0.7
off_full = (niota > 0) ? -0.2 : 0
off_iota = (nfull > 0) ? 0.2 : 0
missing = (niota == 0) ? " (no iota rows in this CSV: make report-run)" : ""
set title titled(sprintf("Sum of %.0f ints (%.0f MiB)%s: time per version (median, L2 flushed)%s", n, 4 * n / 1048576, on_gpu, missing))
set ylabel "time (ms, log scale)"
set xlabel "version (and the serial CPU sum of the same process: one median per data set, each its own process)"
set logscale y
set yrange [0.005:*]
set xrange [-0.7:nver + 0.7]
set xtics add ("CPU" nver)
set style fill solid 0.7 border -1
set boxwidth w
set key top center box opaque
full_title = "random ints (full int32 range)"
iota_title = "1, 2, ..., n (the data of the report)"
cpu_at(d, off) = (strcol("data") eq d && strcol("version") eq word(labels, 1)) ? nver + off : NaN
# Bars of one data set: its versions, then its serial CPU time (the same on every row of a data
# set: read from the first version's row).
bars(d, off, colour, name) = sprintf("input using (at(strcol('version'), '%s', %g)):(column('kernel_ms')) with boxes lc rgb '%s' title '%s', input using (cpu_at('%s', %g)):(column('cpu_ms')) with boxes lc rgb '%s' notitle, ", d, off, colour, name, d, off, colour)
cmd = (nfull > 0 ? bars("full", off_full, "#3060c0", full_title) : "") . (niota > 0 ? bars("iota", off_iota, "#e69f00", iota_title) : "")
offset_of(d) = (d eq "iota" ? off_iota : off_full)
eval "plot ".tics.", ".cmd. \
  "input using (at(strcol('version'), strcol('data'), offset_of(strcol('data')))):(column('kernel_ms')):(sprintf('%.4f', column('kernel_ms'))) with labels rotate left offset 0,0.4 font ',8' notitle, ". \
  "input using (cpu_at(strcol('data'), offset_of(strcol('data')))):(column('cpu_ms')):(sprintf('%.3f', column('cpu_ms'))) with labels rotate left offset 0,0.4 font ',8' notitle"
