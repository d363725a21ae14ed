# Figure 3.0.2 of report 002: serial (CPU reference) against parallel scans, inclusive, against n.
# One series per version found in the CSV's `version` column (in the CSV's order), kernel times
# (median, CUDA events, L2 flushed before each run); the CPU's time from the rows of the first
# version; lookback's time with its host-device copies added where the CSV has lookback (each
# copy timed once per n, not a median: the run's first copies, at its first n, can be slow).
# Each series has its own point type, size and dash, growing with its place in the CSV (the sizes
# start again after nine), so that two versions with equal times (lookahead runs lookback's
# kernel below its switch) are both seen: the later one's larger open point around the earlier
# one's. The key stands beside the plot: it hides no data, however many versions there are.
# The report's only times (Table 1.1, its racy in-place kernel) are black crosses, from
# original/report_002.csv next to this folder's plots/.
#   gnuplot -c plots/timing.gp results/sweep.csv figures/timing.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
if (strstrt(output, ".pdf") == 0) { eval raster_terminal("Helvetica,11", "1100,640") }
set output output
original = system("dirname ".ARG0)."/../original/report_002.csv"
versions = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"version\") c = i; next } !s[$c]++ { printf \"%s \", $c }' ".shell_quoted(input))
report(what, name) = (strcol("what") eq what ? column(name) : NaN)
row(v, name) = (strcol("version") eq v && strcol("mode") eq "inclusive" ? column(name) : NaN)
stats input using (strcol("version") eq "lookback" ? 1 : 0) nooutput
COPIES = STATS_sum > 0 ? 'input using "n":(row("lookback", "total_ms")) title "lookback + copies (copies timed once per n)" dt 2 lw 2 lc rgb "gray50" pt 0,' : ''
set title titled("Serial vs parallel inclusive scan of int32".on_gpu)
set xlabel "n (elements)"
set ylabel "time (ms)"
set logscale x 2
set format x "2^{%L}"
set logscale y 10
set format y "10^{%T}"
set key outside right top vertical box Left reverse
set datafile missing NaN  # rows of other versions are skipped without breaking the lines
opens = "4 6 8 10 12 14 1 2 3"
plot input using "n":(row(word(versions, 1), "cpu_ms")) title "CPU, serial (one run)" lw 3 lc rgb "#9467bd" pt 0, \
     for [i = 1:words(versions)] input using "n":(row(word(versions, i), "kernel_ms")) \
         title word(versions, i) noenhanced lc i pt int(word(opens, (i - 1) % 9 + 1)) ps (0.7 + 0.3 * ((i - 1) % 9 + 1)) dt i, \
     @COPIES \
     original using "n":(report("table1_1", "time_ms")) title "report, Table 1.1 (its GPU)" \
         with points pt 2 ps 2 lw 2 lc rgb "black"
