# Report 004's Figure 4: bandwidth of each version at one size, bytes read once (4 n / time),
# with the device-to-device copy bandwidth measured in the same run as the ceiling.
#   gnuplot -c plots/bandwidth_per_version.gp results/versions.csv figures/bandwidth_per_version.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
stats input using (column("bandwidth_GBps")) nooutput
nrows = STATS_records
top = STATS_max
stats input using (column("copy_bw_GBps")) nooutput
ceiling = STATS_max
stats input using (column("n")) nooutput
n = STATS_max
set title sprintf("Sum of %.0f ints (%.0f MiB): bandwidth per version (bytes read / time)", n, 4 * n / 1048576)
set ylabel "bandwidth (GB/s)"
set xlabel "version (report's labels 1-5, Harris's 6-7, ours 8, CUB)"
set yrange [0:1.15 * (ceiling > top ? ceiling : top)]
set xrange [-0.6:nrows - 0.4]
set style fill solid 0.7 border -1
set boxwidth 0.7
set key top left
set arrow from graph 0, first ceiling to graph 1, first ceiling nohead dt 2 lw 2 lc rgb "#c03030"
set label sprintf("device-to-device copy, same run: %.0f GB/s", ceiling) at graph 0.02, first ceiling offset 0,0.7 tc rgb "#c03030"
plot input using 0:(column("bandwidth_GBps")):xtic(strcol("version")) with boxes lc rgb "#3060c0" title "bandwidth (GB/s)", \
     input using 0:(column("bandwidth_GBps")):(sprintf("%.0f", column("bandwidth_GBps"))) with labels offset 0,0.7 font ",9" notitle
