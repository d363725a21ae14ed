# Section 3.0.3 of report 002: "whenever a single thread does less computations (smaller sub
# array size), the performance gets better" and "for larger input sizes, the value of
# NUM_OF_ADDS_PER_THREAD should be increased". Kernel time of the two chunked scans (map:
# totals scanned by the same chunk kernel, recursively; map_brent_kung: totals scanned by
# Brent-Kung, the report's section 3) against --per-thread (NUM_OF_ADDS_PER_THREAD), at 5 MB
# and 80 MB of int, inclusive, 1024 threads per block. The report gives no numbers for it.
#   gnuplot -c plots/per_thread.gp results/per_thread.csv figures/per_thread.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
# One series per version and size found in the CSV (versions in the CSV's order, sizes largest
# first): a colour and a point type per version, filled points and solid lines at the larger size.
versions = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"version\") c = i; next } !s[$c]++ { printf \"%s \", $c }' ".shell_quoted(input))
sizes = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"n\") c = i; next } !s[$c]++ { print $c }' ".shell_quoted(input)." | sort -rn | tr '\\n' ' '")
sel(v, n) = (strcol("version") eq v && column("n") == n && strcol("mode") eq "inclusive" ? column("kernel_ms") : NaN)
COLORS = "#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b"
FILLED = "7 5 9 11 13 15"  # an open point is the filled one's type minus 1
color(i) = word(COLORS, (i - 1) % 6 + 1)
point(i, j) = int(word(FILLED, (i - 1) % 6 + 1)) - (j > 1 ? 1 : 0)
set title titled("Chunked scans".on_gpu.":\ntime against elements per thread (NUM\\_OF\\_ADDS\\_PER\\_THREAD)")
set xlabel "elements per thread (--per-thread)"
set ylabel "kernel time (ms)"
set logscale x 2
set logscale y 10
set format y "10^{%T}"
set xrange [1.5:90]
set key outside right top vertical box opaque
set datafile missing NaN
plot for [j = 1:words(sizes)] for [i = 1:words(versions)] input using "per_thread":(sel(word(versions, i), word(sizes, j) + 0)) \
         title sprintf("%s, %g MB", word(versions, i), 4e-6 * word(sizes, j)) noenhanced lc rgb color(i) \
         pt point(i, j) dt j
