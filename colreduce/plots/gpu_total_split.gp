# The report's GPU time split: for every version and size, the GPU total (as the report's
# "GPU" line: cudaMalloc, copies in, kernel, copy out, cudaFree) as one bar of 100 %, split
# into the shares of its parts, with the total in ms written above the bar. Shares, not ms:
# the totals span orders of magnitude (results/colreduce.csv), so on a linear ms axis the
# small sizes and the allocation and free segments would vanish. One panel per version (the versions the CSV
# holds, in its order), and a last panel with the CUDA context creation, which the report's
# "GPU" time also held (its first cudaMalloc created the context, one process per size) and
# ours keeps out: each measurement of context.csv (fresh processes, next to the input CSV)
# and the one of the input's own process. This is where the report's closing remark (a
# better thread organisation changes the kernel time, hardly the total) is checked.
#   gnuplot -c plots/gpu_total_split.gp results/colreduce.csv figures/gpu_total_split.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0)
# A CSV without the context_ms column (one written before it existed), or no context.csv
# beside it, draws what is there and says what is missing in the last panel.
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2

# The versions with validated rows, in the order of the CSV (awk: gnuplot has no distinct()).
csv_versions = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == \"version\") k = i; if ($i == \"validated\") d = i }; next } (!d || $d != 0) && !($k in s) { s[$k] = 1; printf \"%s \", $k }' ".shell_quoted(input))
nver = words(csv_versions)
panels = nver + 1
cols = (panels + 1) / 2
has_column(c) = strstrt(",".system("head -n 1 ".shell_quoted(input)." | tr -d '\\r'").",", ",".c.",") > 0
context_csv = system("dirname ".shell_quoted(input))."/context.csv"
context_rows = int(system("[ -f ".shell_quoted(context_csv)." ] && awk 'END { print NR - 1 }' ".shell_quoted(context_csv)." || echo 0"))

# Panels of 2 rows: a page wide enough for `cols` of them.
if (strstrt(output, ".pdf") > 0) {
    set terminal pdfcairo enhanced color font "Helvetica,8" size (2.6 * cols)in,6.2in
} else {
    eval raster_terminal("Helvetica,10", "420 * cols,980")
}
set output output

# One x tic per size: config_index (the size's place in --sizes) labelled with its m x n.
set table $sizes
plot input using (column("config_index")):(strcol("size_label")) with table
unset table
size_tics = ""
do for [i = 1:|$sizes|] { size_tics = size_tics.sprintf("%s\"%s\" %d", i > 1 ? ", " : "", word($sizes[i], 2), int(word($sizes[i], 1))) }
set_size_tics = "set xtics (".size_tics.") rotate by -40 nomirror font \",8\""
eval set_size_tics
stats input using (column("config_index")) nooutput
size_max = STATS_max
set style fill solid 0.85 border lc rgb "#404040"
set boxwidth 0.7
set grid noxtics ytics
set key off

# Cumulative shares (% of the version's GPU total at that size), drawn tallest first so that
# the boxes stack; rows of other versions give NaN (not drawn).
share(v, x) = 100.0 * x / col_if("version", v, "gpu_total_ms")
s_alloc(v) = share(v, column("alloc_ms"))
s_copy(v) = share(v, column("alloc_ms") + column("copy_ms"))
s_kernel(v) = share(v, column("alloc_ms") + column("copy_ms") + column("kernel_ms"))
s_free(v) = share(v, column("gpu_total_ms"))
x_of(v) = col_if("version", v, "config_index")
ms_label(t) = t < 10 ? sprintf("%.2f", t) : sprintf("%.0f", t)

panel_w = 1.0 / cols
panel_h = 0.43
key_h = 0.08
set multiplot title titled("GPU total time split".on_gpu.", % of each bar's total (the total in ms above the bar): allocation, copies, kernel, free; context creation of a process (last panel)") font ",12"
set size panel_w, panel_h
place(i) = sprintf("set origin %g, %g", ((i - 1) % cols) * panel_w, key_h + (1 - (i - 1) / cols) * panel_h)
do for [i = 1:nver] {
    v = word(csv_versions, i)
    eval place(i)
    set title v noenhanced
    set xrange [-0.6:size_max + 0.6]
    set yrange [0:118]
    set ytics 0, 20, 100
    set ylabel "share of the GPU total (%)"
    plot input using (x_of(v)):(s_free(v)) with boxes lc rgb "#999999" title "cudaFree", \
         '' using (x_of(v)):(s_kernel(v)) with boxes lc rgb "#d95f02" title "kernel (median)", \
         '' using (x_of(v)):(s_copy(v)) with boxes lc rgb "#1b9e77" title "copies (H2D + D2H)", \
         '' using (x_of(v)):(s_alloc(v)) with boxes lc rgb "#7570b3" title "allocation (+ setup)", \
         '' using (x_of(v)):(s_free(v)):(ms_label(column("gpu_total_ms"))) with labels offset 0, 0.6 font ",8" notitle
}

# The context: each measurement context.csv holds (one fresh process each, x = 1 ... k) and the
# one of the input's own process (x = 0, the same on every row of a run: its first row).
eval place(panels)
set title "CUDA context creation (once per process)" noenhanced
set ylabel "context creation (ms)"
set ytics autofreq
set yrange [0:*]
ctx_main = has_column("context_ms")
if (ctx_main || context_rows > 0) {
    tics = ctx_main ? "\"this run\" 0" : ""
    do for [k = 1:context_rows] { tics = tics.sprintf("%s\"process %d\" %d", strlen(tics) > 0 ? ", " : "", k, k) }
    eval "set xtics (".tics.") nomirror font \",8\""
    set xrange [(ctx_main ? -0.6 : 0.4):context_rows + 0.6]
    set offsets 0, 0, graph 0.12, 0
    if (ctx_main && context_rows > 0) {
        plot input every ::0::0 using (0):(column("context_ms")) with boxes lc rgb "#e7298a" notitle, \
             '' every ::0::0 using (0):(column("context_ms")):(sprintf("%.0f", column("context_ms"))) with labels offset 0, 0.7 font ",8" notitle, \
             context_csv using ($0 + 1):(column("context_ms")) with boxes lc rgb "#f4a6c8" notitle, \
             '' using ($0 + 1):(column("context_ms")):(sprintf("%.0f", column("context_ms"))) with labels offset 0, 0.7 font ",8" notitle
    } else {
        if (ctx_main) {
            set label 1 "no context.csv beside the input\n(make report-run)" at graph 0.5, 0.9 center front noenhanced
            plot input every ::0::0 using (0):(column("context_ms")) with boxes lc rgb "#e7298a" notitle, \
                 '' every ::0::0 using (0):(column("context_ms")):(sprintf("%.0f", column("context_ms"))) with labels offset 0, 0.7 font ",8" notitle
        } else {
            plot context_csv using ($0 + 1):(column("context_ms")) with boxes lc rgb "#f4a6c8" notitle, \
                 '' using ($0 + 1):(column("context_ms")):(sprintf("%.0f", column("context_ms"))) with labels offset 0, 0.7 font ",8" notitle
        }
        unset label 1
    }
    set offsets 0, 0, 0, 0
} else {
    set label 1 "no context_ms column in this CSV\nand no context.csv beside it\n(make report-run)" at graph 0.5, 0.5 center front noenhanced
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
set key at screen 0.5, 0.04 center center horizontal noenhanced font ",10" samplen 2 nobox
plot -1 with lines lc rgb "white" notitle, \
     keyentry with boxes lc rgb "#7570b3" title "allocation (+ setup)", \
     keyentry with boxes lc rgb "#1b9e77" title "copies (H2D + D2H)", \
     keyentry with boxes lc rgb "#d95f02" title "kernel (median)", \
     keyentry with boxes lc rgb "#999999" title "cudaFree", \
     keyentry with boxes lc rgb "#e7298a" title "context creation, this run's process", \
     keyentry with boxes lc rgb "#f4a6c8" title "context creation, fresh processes (context.csv)"
unset multiplot
