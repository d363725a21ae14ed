# Speed of light: the achieved DRAM throughput of every version, as % of the device's peak
# (Nsight Compute's dram__throughput.avg.pct_of_peak_sustained_elapsed, from `make profile`),
# at the smallest and the largest N of the file (make profile: the report's N = 40,960,000 and
# N = 2^28; a file with one N draws one bar per version), the value written on each bar; the
# dashed line is the peak. A version of several kernels (CUB: its pass over the input and a
# single-tile pass over the partials) gets one bar: its kernels' values weighted by their
# times (gpu__time_duration.sum), as in the README's profile table, so the two agree.
# The versions and the GPU come from the CSV (in the order of their first rows).
#   gnuplot -c plots/dram_sol.gp results/profile.csv figures/dram_sol.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
set datafile missing NaN
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
TIME = "gpu__time_duration.sum"
MAXV = 16
# First pass: the versions, the GPU, Nsight Compute's version and the two sizes.
versions = ""
device = ""
ncu_version = ""
add_version(v) = strstrt(" ".versions." ", " ".v." ") > 0 ? 0 : (versions = versions.(versions eq "" ? "" : " ").v, 0)
stats input using (add_version(strcol("version")) + (device = strcol("device"), ncu_version = strcol("ncu_version"), \
                   column("n"))) nooutput
n1 = STATS_min
n2 = STATS_max
nv = words(versions)
if (nv > MAXV) { print "dram_sol.gp: more than ".MAXV." versions"; exit status 1 }
vpos(v, i) = i > nv ? 0 : (word(versions, i) eq v ? i : vpos(v, i + 1))
# Second pass: per (version, size) the sums of value x time and of time over its kernels.
# A kernel's rows are consecutive (ncu_tidy.py); its DRAM value and its time are added once
# both of its rows were read.
array SUMW[2 * MAXV]
array SUMT[2 * MAXV]
do for [i = 1:2 * MAXV] { SUMW[i] = 0; SUMT[i] = 0 }
cur = ""
cur_p = NaN
cur_t = NaN
slot(v, n) = 2 * (vpos(v, 1) - 1) + (n == n1 ? 1 : 2)
start(k) = (k ne cur) ? (cur = k, cur_p = NaN, cur_t = NaN, 0) : 0
add(s) = (cur_p == cur_p && cur_t == cur_t) ? (SUMW[s] = SUMW[s] + cur_p * cur_t, SUMT[s] = SUMT[s] + cur_t, \
                                                cur_p = NaN, cur_t = NaN, 0) : 0
row(v, k, n, m, x) = (start(v."|".k."|".sprintf("%.0f", n)), \
                      m eq DRAM ? (cur_p = x, 0) : (m eq TIME ? (cur_t = x, 0) : 0), \
                      (n == n1 || n == n2) ? add(slot(v, n)) : 0)
stats input using (row(strcol("version"), strcol("kernel"), column("n"), strcol("metric"), column("value"))) nooutput
pct(i, which) = SUMT[2 * (i - 1) + which] > 0 ? SUMW[2 * (i - 1) + which] / SUMT[2 * (i - 1) + which] : NaN
size(n) = (n == 40960000) ? "N = 40,960,000 (the report's)" : (n == 268435456) ? "N = 268,435,456 (2^{28})" : sprintf("N = %.0f", n)
set title titled("vecmax: achieved DRAM throughput, % of peak (Nsight Compute ".ncu_version.", ".device.")")
set ylabel "DRAM throughput (% of peak, elapsed)"
set xtics () nomirror noenhanced
do for [i = 1:nv] {
    v = word(versions, i)
    set xtics add (v i)
}
set xrange [0.4:nv + 0.6]
set yrange [0:115]
set ytics 0, 20, 100 nomirror
set grid noxtics ytics
set style fill solid 0.85 border -1
half = (n1 == n2) ? 0 : 0.2
set boxwidth (n1 == n2) ? 0.6 : 0.38
set key below horizontal nobox spacing 1.4
set bmargin 5
set arrow from 0.4, 100 to nv + 0.6, 100 nohead dt 2 lc rgb "gray30"
set label 1 "a version of several kernels: their values weighted by their times" at graph 0.01, graph 0.96 font ",9"
# The bars are drawn from the sums above through the pseudo-file "+", which has no header row.
set datafile nocolumnheaders
# The second N's bars only where the file has two sizes (a series with no point would warn).
second = (n2 == n1) ? "" : \
    ', [i=1:nv:1] "+" using (i + half):(pct(i, 2)) with boxes lc rgb "#ff8c00" title size(n2), ' . \
    '[i=1:nv:1] "+" using (i + half):(pct(i, 2)):(sprintf("%.1f", pct(i, 2))) with labels offset 0,0.7 font ",9" notitle'
plot sample [i=1:nv:1] "+" using (i - half):(pct(i, 1)) with boxes lc rgb "#3a86ff" title size(n1), \
     [i=1:nv:1] "+" using (i - half):(pct(i, 1)):(sprintf("%.1f", pct(i, 1))) with labels offset 0,0.7 font ",9" notitle @second
