# The report's GPU time split: for every version and size, the GPU total (as the report's
# "GPU" line: cudaMalloc, copies in, kernel, copy out, cudaFree) stacked from its parts,
# one panel per version. This is where the report's closing remark (a better thread
# organisation changes the kernel time, hardly the total) is checked.
#   gnuplot -c plots/gpu_total_split.gp results/colreduce.csv figures/gpu_total_split.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# Six panels need a larger page than the shared default.
if (strstrt(output, ".pdf") > 0) {
    set terminal pdfcairo enhanced color font "Helvetica,8" size 9in,6in
} else {
    set terminal pngcairo enhanced color font "Helvetica,10" size 1500,950
}
set output output

set table $sizes
plot input using (column("config_index")):(strcol("size_label")) with table
unset table
set xtics () rotate by -40 nomirror font ",8"
do for [i = 1:|$sizes|] { set xtics add (word($sizes[i], 2) int(word($sizes[i], 1))) }
set offsets 0.6, 0.6, 0, 0
set yrange [0:*]
set ylabel "GPU total (ms)"
set style fill solid 0.85 border lc rgb "#404040"
set boxwidth 0.7
set grid noxtics ytics
set key at screen 0.995, 0.995 top right noenhanced font ",9"

# Cumulative heights, drawn tallest first so that the boxes stack.
t_alloc(v) = col_if("version", v, "alloc_ms")
t_copy(v) = t_alloc(v) + column("copy_ms")
t_kernel(v) = t_copy(v) + column("kernel_ms")
t_free(v) = t_kernel(v) + column("free_ms")
x_of(v) = col_if("version", v, "config_index")

versions = "original high1 high2 tall tall_det cublas"
set multiplot layout 2, 3 title "GPU total time split (ms): allocation, copies, kernel, free" font ",12"
do for [i = 1:words(versions)] {
    v = word(versions, i)
    set title v noenhanced
    if (i > 1) { set key off }
    plot input using (x_of(v)):(t_free(v)) with boxes lc rgb "#999999" title "cudaFree", \
         '' using (x_of(v)):(t_kernel(v)) with boxes lc rgb "#d95f02" title "kernel (median)", \
         '' using (x_of(v)):(t_copy(v)) with boxes lc rgb "#1b9e77" title "copies (H2D + D2H)", \
         '' using (x_of(v)):(t_alloc(v)) with boxes lc rgb "#7570b3" title "allocation (+ setup)"
}
unset multiplot
