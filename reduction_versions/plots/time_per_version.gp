# Report 004's Figure 3: time of each version at one size (the report: 32 MB = 8,388,608 ints),
# with cub::DeviceReduce::Sum and the serial CPU sum of the same run.
#   gnuplot -c plots/time_per_version.gp results/versions.csv figures/time_per_version.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
stats input using (column("kernel_ms")) nooutput
nrows = STATS_records
stats input using (column("cpu_ms")) nooutput
cpu_ms = STATS_max
stats input using (column("n")) nooutput
n = STATS_max
set title sprintf("Sum of %.0f ints (%.0f MiB): time per version (median, L2 flushed)", n, 4 * n / 1048576)
set ylabel "time (ms, log scale)"
set xlabel "version (report's labels 1-5, Harris's 6-7, ours 8, CUB, serial CPU)"
set logscale y
set yrange [*:*]
set xrange [-0.6:nrows + 0.6]
set style fill solid 0.7 border -1
set boxwidth 0.7
set key off
plot input using 0:(column("kernel_ms")):xtic(strcol("version")) with boxes lc rgb "#3060c0", \
     input using 0:(column("kernel_ms")):(sprintf("%.4f", column("kernel_ms"))) with labels offset 0,0.8 font ",9", \
     input every ::0::0 using (nrows):(cpu_ms):xtic("CPU serial") with boxes lc rgb "#c05030", \
     input every ::0::0 using (nrows):(cpu_ms):(sprintf("%.3f", cpu_ms)) with labels offset 0,0.8 font ",9"
