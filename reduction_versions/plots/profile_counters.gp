# Nsight Compute counters of every version profiled (the versions and the library baseline) at
# the report's size, 256 threads (`make profile`, results/profile.csv: one tidy row per version,
# kernel and metric), as small multiples: one panel per counter, one bar per version. Each version's first pass only, the kernel launch
# that reads the input (the later passes reduce at most 32,768 partials); for CUB its first
# kernel (the single-tile kernel that sums its partials, a name with "SingleTile", is left out).
#   gnuplot -c plots/profile_counters.gp results/profile.csv figures/profile_counters.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
if (strstrt(output, ".pdf") > 0) {
    set terminal pdfcairo enhanced color font "Helvetica,8" size 11in,5.5in
} else {
    eval raster_terminal("Helvetica,10", "1500,800")
}
set output output
# The versions, in the order of their first row in the CSV (the program writes them in its
# registry's order): x positions 0, 1, ... and the tic labels come from the data.
labels = ""
stats input using (strstrt(" ".labels." ", " ".strcol("version")." ") == 0 ? (labels = labels.strcol("version")." ", 0) : 0) nooutput
nver = words(labels)
# Position of a version on the x axis (0, 1, ...), NaN for a label not listed.
vpos(v) = (sum [i = 1:nver] (word(labels, i) eq v ? i : 0)) - 1
# An invisible series that puts each version's label under its position (xticlabels).
tics = "input using (vpos(strcol('version'))):(NaN):xticlabels(strcol('version')) notitle"
first_pass(k) = strstrt(k, "SingleTile") == 0
# x position of a row of metric m (NaN for other metrics and other kernels)
at(m) = (strcol("metric") eq m && first_pass(strcol("kernel")) && vpos(strcol("version")) >= 0) ? vpos(strcol("version")) : NaN
# ncu's time unit (base units are asked for, but any unit it writes is read here) -> microseconds
us(v, u) = u eq "usecond" ? v : (u eq "msecond" ? 1000 * v : (u eq "second" ? 1e6 * v : v / 1000))
stats input using (column("n")) nooutput
n = STATS_max
set style fill solid 0.7 border -1
set boxwidth 0.7
set xrange [-0.7:nver - 0.3]
set xtics font ",9"
set yrange [0:*]
set offsets 0, 0, graph 0.15, 0
set key off
set multiplot layout 2, 4 title titled(sprintf("Nsight Compute counters of the first pass over %.0f ints, 256 threads per block%s (x: version)", n, on_gpu))
set title "kernel time (us)"
plot @tics, input using (at("gpu__time_duration.sum")):(us(column("value"), strcol("unit"))) with boxes lc rgb "#3060c0", \
     input using (at("gpu__time_duration.sum")):(us(column("value"), strcol("unit"))):(sprintf("%.1f", us(column("value"), strcol("unit")))) with labels offset 0,0.6 font ",8"
set title "DRAM throughput (% of peak)"
set yrange [0:100]
set offsets 0, 0, 0, 0
plot @tics, input using (at("dram__throughput.avg.pct_of_peak_sustained_elapsed")):(column("value")) with boxes lc rgb "#3060c0", \
     input using (at("dram__throughput.avg.pct_of_peak_sustained_elapsed")):(column("value")):(sprintf("%.0f", column("value"))) with labels offset 0,0.6 font ",8"
set title "occupancy (% of max warps)"
set key top center horizontal box opaque font ",8" samplen 1
set yrange [0:127]
plot @tics, input using (at("sm__warps_active.avg.pct_of_peak_sustained_active")):(column("value")) with boxes lc rgb "#3060c0" title "achieved", \
     input using (at("sm__maximum_warps_per_active_cycle_pct") - 0.35):(column("value")):(0.7):(0) with vectors nohead lw 3 lc rgb "#c03030" title "theoretical"
set key off
set yrange [0:*]
set offsets 0, 0, graph 0.15, 0
set title "threads per warp instruction (32: no divergence)"
set yrange [0:36]
set offsets 0, 0, 0, 0
plot @tics, input using (at("smsp__thread_inst_executed_per_inst_executed.ratio")):(column("value")) with boxes lc rgb "#3060c0", \
     input using (at("smsp__thread_inst_executed_per_inst_executed.ratio")):(column("value")):(sprintf("%.1f", column("value"))) with labels offset 0,0.6 font ",8"
set yrange [0:*]
set offsets 0, 0, graph 0.15, 0
set title "warp instructions executed (millions)"
plot @tics, input using (at("smsp__inst_executed.sum")):(column("value") / 1e6) with boxes lc rgb "#3060c0", \
     input using (at("smsp__inst_executed.sum")):(column("value") / 1e6):(sprintf("%.2f", column("value") / 1e6)) with labels offset 0,0.6 font ",8"
set offsets 0, 0, graph 0.15, 0
# Barrier stall, in total: Nsight Compute's Warp State counter is per issued instruction (the
# cycles warps waited at __syncthreads per instruction issued), and the versions issue very
# different numbers of instructions, so the panel multiplies it by the warp instructions of the
# same kernel: the warp-cycles spent waiting at barriers (version 5 issues half the
# instructions of version 4, so a higher per-instruction figure can still mean less waiting).
# A profile.csv made before the counter was in the Makefile's list has no such rows: the panel
# then says what to run instead of drawing.
BAR = "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"
INST = "smsp__inst_executed.sum"
insts = ""
stats input using ((strcol("metric") eq INST && first_pass(strcol("kernel"))) ? (insts = insts.strcol("version").":".sprintf("%.0f", column("value"))." ", 0) : 0) nooutput
# The warp instructions of version v's first pass ("v:count" words of insts), 0 if none.
w_of(i) = word(insts, i)
inst_of(v) = sum [i = 1:words(insts)] (w_of(i)[1:strstrt(w_of(i), ":") - 1] eq v ? real(w_of(i)[strstrt(w_of(i), ":") + 1:]) : 0)
stats input using (strcol("metric") eq BAR ? 1 : 0) nooutput
has_bar = STATS_sum > 0
set title "barrier stall, total (M warp-cycles)"
if (has_bar) {
    plot @tics, input using (at(BAR)):(column("value") * inst_of(strcol("version")) / 1e6) with boxes lc rgb "#3060c0", \
         input using (at(BAR)):(column("value") * inst_of(strcol("version")) / 1e6):(sprintf("%.1f", column("value") * inst_of(strcol("version")) / 1e6)) with labels offset 0,0.6 font ",8"
} else {
    set yrange [0:1]
    set label 1 "not in this profile.csv:\nrun make profile" at graph 0.5, graph 0.5 center font ",11"
    plot @tics
    unset label 1
    set yrange [0:*]
}
set offsets 0, 0, graph 0.3, 0
set title "shared-load bank conflicts (M; labels: counts)"
plot @tics, input using (at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")):(column("value") / 1e6) with boxes lc rgb "#3060c0", \
     input using (at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")):(column("value") / 1e6):(sprintf("%.3g", column("value"))) with labels rotate left offset 0,0.5 font ",8"
set title "shared-store bank conflicts (M; labels: counts)"
plot @tics, input using (at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")):(column("value") / 1e6) with boxes lc rgb "#3060c0", \
     input using (at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")):(column("value") / 1e6):(sprintf("%.3g", column("value"))) with labels rotate left offset 0,0.5 font ",8"
unset multiplot
