# The report's GPU time split: for every version and size, the GPU total (as the report's
# "GPU" line: cudaMalloc, copies in, kernel, copy out, cudaFree) stacked from its parts,
# one panel per version, and a last panel with the CUDA context creation of the run's
# process, which the report's "GPU" time also held (its first cudaMalloc created the context,
# one process per size) and ours keeps out. This is where the report's closing remark (a
# better thread organisation changes the kernel time, hardly the total) is checked.
#   gnuplot -c plots/gpu_total_split.gp results/colreduce.csv figures/gpu_total_split.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
# A CSV without a version's rows or without the context_ms column (one written before they
# existed) draws that panel with a note instead of data.
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# Eight panels need a larger page than the shared default.
if (strstrt(output, ".pdf") > 0) {
    set terminal pdfcairo enhanced color font "Helvetica,8" size 11in,6in
} else {
    set terminal pngcairo enhanced color font "Helvetica,10" size 1800,950
}
set output output

# Rows of a version, and whether a column exists (read with awk and head: gnuplot warns on
# a plot with no valid point, and the figure test counts warnings as failures).
rows_of(col, v) = int(system(sprintf("awk -F, -v c='%s' -v v='%s' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } k && $k == v { r++ } END { print r + 0 }' '%s'", col, v, input)))
has_column(c) = strstrt(",".system(sprintf("head -n 1 '%s' | tr -d '\\r'", input)).",", ",".c.",") > 0

# One x tic per size: config_index (the size's place in --sizes) labelled with its m x n.
set table $sizes
plot input using (column("config_index")):(strcol("size_label")) with table
unset table
size_tics = ""
do for [i = 1:|$sizes|] { size_tics = size_tics.sprintf("%s\"%s\" %d", i > 1 ? ", " : "", word($sizes[i], 2), int(word($sizes[i], 1))) }
set_size_tics = "set xtics (".size_tics.") rotate by -40 nomirror font \",8\""
eval set_size_tics
stats input using (column("config_index")) nooutput
set xrange [-0.6:STATS_max + 0.6]
set yrange [0:*]
set ylabel "GPU total (ms)"
set style fill solid 0.85 border lc rgb "#404040"
set boxwidth 0.7
set grid noxtics ytics
set key off

# Cumulative heights, drawn tallest first so that the boxes stack.
t_alloc(v) = col_if("version", v, "alloc_ms")
t_copy(v) = t_alloc(v) + column("copy_ms")
t_kernel(v) = t_copy(v) + column("kernel_ms")
t_free(v) = t_kernel(v) + column("free_ms")
x_of(v) = col_if("version", v, "config_index")

versions = "original high1 high2 block_per_column tall tall_det cublas"
# Eight panels, 2 rows of 4, between the title and a strip at the bottom that holds the key.
panel_w = 0.25
panel_h = 0.44
key_h = 0.07
set multiplot title "GPU total time split (ms): allocation, copies, kernel, free; context creation of the process (last panel)" font ",12"
set size panel_w, panel_h
place(i) = sprintf("set origin %g, %g", ((i - 1) % 4) * panel_w, key_h + (1 - (i - 1) / 4) * panel_h)
do for [i = 1:words(versions)] {
    v = word(versions, i)
    eval place(i)
    set title v noenhanced
    if (rows_of("version", v) > 0) {
        plot input using (x_of(v)):(t_free(v)) with boxes lc rgb "#999999" title "cudaFree", \
             '' using (x_of(v)):(t_kernel(v)) with boxes lc rgb "#d95f02" title "kernel (median)", \
             '' using (x_of(v)):(t_copy(v)) with boxes lc rgb "#1b9e77" title "copies (H2D + D2H)", \
             '' using (x_of(v)):(t_alloc(v)) with boxes lc rgb "#7570b3" title "allocation (+ setup)"
    } else {
        set label 1 "no rows of this version in the CSV\n(make report-run)" at graph 0.5, 0.5 center front noenhanced
        set yrange [0:1]
        unset xtics
        plot 2 notitle
        unset label 1
        set yrange [0:*]
        eval set_size_tics
    }
}
# The context: one value per process (the same on every row of a run), shown per size so that
# it stands on the same axis as the totals it would have been added to.
eval place(8)
set title "CUDA context creation (once per process)" noenhanced
set ylabel "context creation (ms)"
if (has_column("context_ms") && rows_of("version", "original") > 0) {
    plot input using (x_of("original")):(column("context_ms")) with boxes lc rgb "#e7298a" notitle, \
         '' using (x_of("original")):(column("context_ms")):(sprintf("%.0f", column("context_ms"))) with labels offset 0, 0.7 font ",8" notitle
} else {
    set label 1 "no context_ms column in this CSV\n(make report-run)" at graph 0.5, 0.5 center front noenhanced
    set yrange [0:1]
    unset xtics
    plot 2 notitle
    unset label 1
}

# The key: drawn alone in the strip below the panels (an empty plot whose only content is
# the key), so that it covers no panel and no title.
set origin 0, 0
set size 1, key_h
set border 0
unset tics
unset xlabel
unset ylabel
unset title
unset grid
set xrange [0:1]
set yrange [0:1]
set key at screen 0.5, 0.035 center center horizontal noenhanced font ",10" samplen 2 nobox
plot -1 with lines lc rgb "white" notitle, \
     keyentry with boxes lc rgb "#7570b3" title "allocation (+ setup)", \
     keyentry with boxes lc rgb "#1b9e77" title "copies (H2D + D2H)", \
     keyentry with boxes lc rgb "#d95f02" title "kernel (median)", \
     keyentry with boxes lc rgb "#999999" title "cudaFree", \
     keyentry with boxes lc rgb "#e7298a" title "CUDA context creation (last panel)"
unset multiplot
