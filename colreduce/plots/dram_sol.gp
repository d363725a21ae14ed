# Speed of light: achieved DRAM throughput (% of the device's peak) and SM throughput (% of
# peak) of every version's kernel, at each size profiled by `make profile` (two of the report's
# run.slurm sizes), from Nsight Compute's counters (results/profile.csv: one tidy row per
# version, kernel, size and metric). One bar per (version, size). tall_det: its first pass
# (the one that reads the matrix); cuBLAS: the kernel that reads the matrix (dot_kernel or gemv).
#   gnuplot -c plots/dram_sol.gp results/profile.csv figures/dram_sol.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
# The report has no counters (and its table's numbers are missing), so there is nothing of
# its own to draw beside ours.
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
if (strstrt(output, ".pdf") > 0) {
    set terminal pdfcairo enhanced color font "Helvetica,9" size 10in,4.5in
} else {
    eval raster_terminal("Helvetica,10", "1500,650")
}
set output output

# The versions profiled, in the order of the file (awk: gnuplot has no distinct()).
versions = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"version\") k = i; next } !($k in s) { s[$k] = 1; printf \"%s \", $k }' ".shell_quoted(input))
nver = words(versions)
vpos(v) = (sum [i = 1:nver] (word(versions, i) eq v ? i : 0)) - 1
# The sizes profiled, "MxN" in the order of the file (awk: gnuplot has no distinct()).
sizes = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == \"m\") a = i; if ($i == \"n\") b = i }; next } !(($a \"x\" $b) in s) { s[$a \"x\" $b] = 1; printf \"%s \", $a \"x\" $b }' ".shell_quoted(input))
nsizes = words(sizes)
spos(mn) = (sum [i = 1:nsizes] (word(sizes, i) eq mn ? i : 0)) - 1
bw = 0.8 / (nsizes > 0 ? nsizes : 1)
# x of a row of metric `metric` (NaN for other metrics, versions and sizes not listed)
at(metric) = (strcol("metric") eq metric && vpos(strcol("version")) >= 0) ? \
    vpos(strcol("version")) - 0.4 + bw * (spos(strcol("m")."x".strcol("n")) + 0.5) : NaN
of_size(i) = (strcol("m")."x".strcol("n") eq word(sizes, i)) ? 1 : NaN
colors = "#1b9e77 #d95f02 #7570b3 #e7298a"

set style fill solid 0.8 border -1
set boxwidth bw
set xrange [-0.6:nver - 0.4]
# x tic labels from the data (xticlabels): an invisible series puts each version's label at the
# centre of its group of bars (every row of a version gives the same tic). Turned by 30 degrees,
# right-aligned at the tic, so that long labels (block_per_column) do not run into their neighbours.
set xtics font ",9" noenhanced rotate by 30 right
tics = "input using (vpos(strcol('version'))):(NaN):xticlabels(strcol('version')) notitle"
set yrange [0:115]
set ytics 0, 20, 100
set grid noxtics ytics
set key off
# Two panels side by side above a strip that holds the key.
set multiplot title titled("Speed of light (Nsight Compute".on_gpu."): throughput as % of peak, one bar per version and size") noenhanced
set size 0.5, 0.82
set origin 0, 0.11
set title "achieved DRAM throughput (% of peak)"
set ylabel "DRAM throughput (% of peak)"
plot @tics, \
     for [i = 1:nsizes] input using (at("dram__throughput.avg.pct_of_peak_sustained_elapsed") * of_size(i)):(column("value")) \
         with boxes lc rgb word(colors, (i - 1) % 4 + 1) notitle, \
     input using (at("dram__throughput.avg.pct_of_peak_sustained_elapsed")):(column("value")):(sprintf("%.3g", column("value"))) \
         with labels offset 0, 0.6 font ",8" notitle
set origin 0.5, 0.11
set title "SM throughput (% of peak)"
set ylabel "SM throughput (% of peak)"
plot @tics, \
     for [i = 1:nsizes] input using (at("sm__throughput.avg.pct_of_peak_sustained_elapsed") * of_size(i)):(column("value")) \
         with boxes lc rgb word(colors, (i - 1) % 4 + 1) notitle, \
     input using (at("sm__throughput.avg.pct_of_peak_sustained_elapsed")):(column("value")):(sprintf("%.3g", column("value"))) \
         with labels offset 0, 0.6 font ",8" notitle
# The key (the sizes' colours) in a strip of its own below both panels.
set origin 0, 0
set size 1, 0.09
set border 0
unset tics
unset xlabel
unset ylabel
unset title
unset grid
set xrange [0:1]
set yrange [0:1]
set key at screen 0.5, 0.04 center center horizontal noenhanced font ",10" samplen 2 nobox
plot -1 with lines lc rgb "white" notitle, \
     for [i = 1:nsizes] keyentry with boxes lc rgb word(colors, (i - 1) % 4 + 1) title sprintf("m x n = %s", word(sizes, i))
unset multiplot
