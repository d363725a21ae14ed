# Kernel time of every version at every size of the run (report 003's run.slurm sizes in
# report-run), log scale: the report's versions against ours and cuBLAS.
#   gnuplot -c plots/kernel_time.gp results/colreduce.csv figures/kernel_time.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
set title titled("Column sums of an m x n double matrix".on_gpu.":\nkernel time (median; L2 flushed before each run)")
set xlabel "matrix m x n"
set ylabel "kernel time (ms, log scale)"
set logscale y
set format y "10^{%L}"
set xtics rotate by -30 nomirror
set offsets 0.3, 0.3, 0, 0
set key outside right top noenhanced
# One x tic per size: config_index (the size's place in --sizes) labelled with its m x n.
set table $sizes
plot input using (column("config_index")):(strcol("size_label")) with table
unset table
set xtics ()
do for [i = 1:|$sizes|] { set xtics add (word($sizes[i], 2) int(word($sizes[i], 1))) }
# The versions, from the CSV itself (its rows, in their order; awk: gnuplot has no
# distinct()): each keeps its place, point type and colour from that order.
versions = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"version\") k = i; next } !($k in s) { s[$k] = 1; printf \"%s \", $k }' ".shell_quoted(input))
place(v) = sum [k = 1:words(versions)] (word(versions, k) eq v ? k : 0)
# Points (sizes are categories), each version shifted a little so that none hides another.
plot for [i = 1:words(versions)] input \
     using (col_if("version", word(versions, i), "config_index") + 0.07 * (place(word(versions, i)) - (words(versions) + 1) / 2.0)):(column("kernel_ms")) \
     with points pt (place(word(versions, i)) + 3) lc place(word(versions, i)) ps 1.6 lw 2 title word(versions, i)
