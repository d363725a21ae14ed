# Nsight Compute counters (results/profile.csv, `make profile`, niter = 2^30): for kernels 1
# and 2, single and Thrust, in float and in double, how busy each pipe that can bound pi is,
# in % of its peak over the SM-active cycles: FMA (FP32 and IMAD), FP64, XU (MUFU.RCP and the
# I2F conversions), and the issue slots (one warp instruction per scheduler and cycle).
# Thrust's second, one-block pass (DeviceReduceSingleTileKernel) is left out: its first pass
# does all the work. Rows: assignment,version,kernel,m,n,metric,unit,value,... with version
# "<label>:<precision>" (common/py/ncu_tidy.py).
# Usage: gnuplot -c plots/pipe_utilisation.gp results/profile.csv figures/pipe_utilisation.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
set datafile missing NaN
# The versions ("<label>:<precision>", in the order of their first row) and the GPU, from
# the CSV itself: one pass over it that only collects them.
versions = ""
device = ""
add_version(v) = strstrt(" ".versions." ", " ".v." ") > 0 ? 0 : (versions = versions.(versions eq "" ? "" : " ").v, 0)
stats input using (add_version(strcol("version")) + (device eq "" ? (device = strcol("device"), 0) : 0)) nooutput
# The x position of a version label: its place in `versions` (NaN for any other label).
pos(v, i) = i > words(versions) ? NaN : (word(versions, i) eq v ? i : pos(v, i + 1))
val(m) = (strcol("metric") eq m && strstrt(strcol("kernel"), "SingleTile") == 0) ? column("value") : NaN
x(k) = pos(strcol("version"), 1) + (k - 2.5) * 0.2
set title titled("pi at 2^{30} iterations on the ".device.": pipe and issue-slot use\nby the hardware counters (Nsight Compute)")
set ylabel "use (% of peak, SM-active cycles)"
set yrange [0:115]
set ytics 0, 20, 100
set xrange [0.4:words(versions) + 0.6]
set xtics () nomirror
# Tick labels: "kernel 1" (or single, thrust) over the precision.
do for [i = 1:words(versions)] {
    v = word(versions, i)
    c = strstrt(v, ":")
    name = v[1:c - 1]
    # The report's own versions are numbered (kernel 1, kernel 2); ours and the baseline named.
    name = (strstrt("0123456789", name[1:1]) > 0 ? "kernel " : "").name
    set xtics add (name."\n".v[c + 1:] i)
}
set style fill solid 0.85 border -1
set boxwidth 0.2
set grid ytics
set key outside below center horizontal
set bmargin 6
lab(v) = sprintf("%.0f", v)
plot input using (x(1)):(val("sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active")) title "FMA pipe (FP32, IMAD)" with boxes lc rgb "#1f77b4", \
     input using (x(2)):(val("sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active")) title "FP64 pipe" with boxes lc rgb "#ff7f0e", \
     input using (x(3)):(val("sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active")) title "XU pipe (MUFU, conversions)" with boxes lc rgb "#2ca02c", \
     input using (x(4)):(val("smsp__issue_active.avg.pct_of_peak_sustained_active")) title "issue slots" with boxes lc rgb "gray50", \
     input using (x(1)):(val("sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active")):(lab(column("value"))) with labels offset 0,0.6 font ",8" notitle, \
     input using (x(2)):(val("sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active")):(lab(column("value"))) with labels offset 0,0.6 font ",8" notitle, \
     input using (x(3)):(val("sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active")):(lab(column("value"))) with labels offset 0,0.6 font ",8" notitle, \
     input using (x(4)):(val("smsp__issue_active.avg.pct_of_peak_sustained_active")):(lab(column("value"))) with labels offset 0,0.6 font ",8" notitle
