# Speed of light: the achieved DRAM throughput of every version's kernels, as % of the
# device's peak (Nsight Compute's dram__throughput.avg.pct_of_peak_sustained_elapsed, from
# `make profile`), at the smallest and the largest N of the file (make profile: the report's
# N = 40,960,000 and N = 2^28; a file with one N draws one bar per kernel), one bar per (kernel, N),
# the value written on each bar; the dashed line is the peak. (The README's profile table
# has the other counters: time, bytes, SM throughput, occupancy.)
# CUB runs two kernels: its pass over the input and a single-tile pass over the partials.
#   gnuplot -c plots/dram_sol.gp results/profile.csv figures/dram_sol.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
set datafile missing NaN
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
# x position of a (version, kernel); N's offset within the group.
kpos(v, k) = (v eq "report") ? 0 : (v eq "single_pass") ? 1 : (v eq "cub") ? (strstrt(k, "SingleTile") > 0 ? 3 : 2) : NaN
device = ""
ncu_version = ""
stats input using (device = strcol("device"), ncu_version = strcol("ncu_version"), column("n")) nooutput
n1 = STATS_min
n2 = STATS_max
half = (n1 == n2) ? 0 : 0.2
noff(n) = (n == n1) ? -half : (n == n2) ? half : NaN
x_of(n) = kpos(strcol("version"), strcol("kernel")) + noff(n)
val(metric, n) = (strcol("metric") eq metric && column("n") == n) ? column("value") : NaN
size(n) = (n == 40960000) ? "N = 40,960,000 (the report's)" : (n == 268435456) ? "N = 268,435,456 (2^{28})" : sprintf("N = %.0f", n)
set title "vecmax: achieved DRAM throughput, % of peak (Nsight Compute ".ncu_version.", ".device.")"
set ylabel "DRAM throughput (% of peak, elapsed)"
set xtics ("report\n(1024 x 128)" 0, "single\\_pass" 1, "cub: pass over\nthe input" 2, "cub: single-tile\npass" 3) nomirror
set xrange [-0.6:3.6]
set yrange [0:115]
set ytics 0, 20, 100 nomirror
set grid noxtics ytics
set style fill solid 0.85 border -1
set boxwidth (n1 == n2) ? 0.6 : 0.38
set key below horizontal nobox spacing 1.4
set bmargin 6
set arrow from -0.6, 100 to 3.6, 100 nohead dt 2 lc rgb "gray30"
# The second N's bars only where the file has two sizes (a series with no point would warn).
second = (n2 == n1) ? "" : \
    ', input using (x_of(n2)):(val(DRAM, n2)) with boxes lc rgb "#ff8c00" title size(n2), ' . \
    'input using (x_of(n2)):(val(DRAM, n2)):(sprintf("%.1f", val(DRAM, n2))) with labels offset 0,0.7 font ",9" notitle'
plot input using (x_of(n1)):(val(DRAM, n1)) with boxes lc rgb "#3a86ff" title size(n1), \
     input using (x_of(n1)):(val(DRAM, n1)):(sprintf("%.1f", val(DRAM, n1))) with labels offset 0,0.7 font ",9" notitle @second
