# Report 004's Figure 4: bandwidth of each version at one size, bytes read once (4 n / time),
# with the device-to-device copy bandwidth measured in the same run over each bar, on two data
# sets side by side: random ints over the whole int32 range (data = full) and the report's own
# 1, 2, ..., n (data = iota). A data set with no rows in the CSV is left out and the title says so.
#   gnuplot -c plots/bandwidth_per_version.gp results/versions.csv figures/bandwidth_per_version.png
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
# The copy bandwidth of each run (each data set is its own run of the program, with its own copy
# measurement): drawn over that run's bars only, never one run's ceiling over another's bars.
copy_full = NaN
copy_iota = NaN
if (nfull > 0) { stats input using (strcol("data") eq "full" ? column("copy_bw_GBps") : NaN) nooutput; copy_full = STATS_max }
if (niota > 0) { stats input using (strcol("data") eq "iota" ? column("copy_bw_GBps") : NaN) nooutput; copy_iota = STATS_max }
ceiling = (niota > 0 && (nfull == 0 || copy_iota > copy_full)) ? copy_iota : copy_full
stats input using (column("bandwidth_GBps")) nooutput
top = STATS_max
stats input using (column("n")) nooutput
n = STATS_max
w = (nfull > 0 && niota > 0) ? 0.4 : 0.7
off_full = (niota > 0) ? -0.2 : 0
off_iota = (nfull > 0) ? 0.2 : 0
missing = (niota == 0) ? " (no iota rows in this CSV: make report-run)" : ""
set title titled(sprintf("Sum of %.0f ints (%.0f MiB)%s: bandwidth per version (bytes read / time)%s", n, 4 * n / 1048576, on_gpu, missing))
set ylabel "bandwidth (GB/s)"
set xlabel "version"
set yrange [0:1.3 * (ceiling > top ? ceiling : top)]
set xrange [-0.7:nver - 0.3]
set style fill solid 0.7 border -1
set boxwidth w
set key top left box opaque maxrows 2 font ",10" samplen 2
full_title = "random ints (full int32 range)"
iota_title = "1, 2, ..., n (the data of the report)"
bars(d, off, colour, name) = sprintf("input using (at(strcol('version'), '%s', %g)):(column('bandwidth_GBps')) with boxes lc rgb '%s' title '%s', ", d, off, colour, name)
cmd = (nfull > 0 ? bars("full", off_full, "#3060c0", full_title) : "") . (niota > 0 ? bars("iota", off_iota, "#e69f00", iota_title) : "")
offset_of(d) = (d eq "iota" ? off_iota : off_full)
# Over each bar, its own run's copy bandwidth: a dashed segment as wide as the bar, in a darker
# shade of the bar's colour, one key entry per run.
marks(d, off, colour, copy) = sprintf("input using (at(strcol('version'), '%s', %g) - %g):(column('copy_bw_GBps')):(%g):(0) with vectors nohead dt 2 lw 2 lc rgb '%s' title 'copy, same run: %.0f GB/s', ", d, off, w / 2, w, colour, copy)
copy_marks = (nfull > 0 ? marks("full", off_full, "#102060", copy_full) : "") . (niota > 0 ? marks("iota", off_iota, "#8a4a00", copy_iota) : "")
eval "plot ".tics.", ".cmd.copy_marks. \
  "input using (at(strcol('version'), strcol('data'), offset_of(strcol('data')))):(column('bandwidth_GBps')):(sprintf('%.0f', column('bandwidth_GBps'))) with labels rotate left offset 0,0.4 font ',8' notitle"
