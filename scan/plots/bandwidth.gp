# Effective bandwidth of each scan, counting the bytes a scan must move (n int32 read and
# written), against n, with the device-to-device copy bandwidth measured in the same run (from
# the rows of the CSV's first version). One series per version found in the CSV's `version`
# column, in the CSV's order; each has its own point type, size and dash, growing with its place
# in the CSV (the sizes start again after nine), so that two versions with equal bandwidths
# (lookahead runs lookback's kernel below its policy's switch) are both seen: the later one's larger open
# point around the earlier one's. The key stands beside the plot: it hides no data. Where the
# rows carry it (copy_n_ms), the copy of the same n ints, timed in the same run at each size, is
# drawn too: what the memory does at that size, launch and ramp included.
# Logarithmic y: the bandwidths span orders of magnitude from 2^10 to 2^28.
#   gnuplot -c plots/bandwidth.gp results/sweep.csv figures/bandwidth.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
if (strstrt(output, ".pdf") == 0) { eval raster_terminal("Helvetica,11", "1100,640") }
set output output
versions = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"version\") c = i; next } !s[$c]++ { printf \"%s \", $c }' ".shell_quoted(input))
row(v, name) = (strcol("version") eq v && strcol("mode") eq "inclusive" ? column(name) : NaN)
# The same-size copy's series only where some row has a copy_n_ms (older runs leave it empty).
samesize = system("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"copy_n_ms\") c = i; next } c && $c != \"\" { n++ } END { print n + 0 }' ".shell_quoted(input)) + 0
# Its name says what it is: runs with a copy_n_by column timed cudaMemcpy and a copy kernel and kept
# the faster (common/device_copy.cuh); older runs timed cudaMemcpy alone.
by = system("head -n 1 ".shell_quoted(input)." | tr ',' '\\n' | grep -cx copy_n_by") + 0
samename = by > 0 ? "copy of the same n ints (faster)" : "cudaMemcpy of the same n ints"
same = samesize > 0 ? 'input using "n":(8e-6 * column("n") / row(word(versions, 1), "copy_n_ms")) title samename dt 3 lw 2 lc rgb "black" with lines,' : ""
set title titled("Inclusive scan of int32".on_gpu.": effective bandwidth (8 bytes per element)") noenhanced
set xlabel "n (elements)"
set ylabel "bandwidth (GB/s)"
set logscale x 2
set format x "2^{%L}"
set logscale y 10
set format y "10^{%T}"
set key outside right top vertical box Left reverse
set datafile missing NaN  # rows of other versions are skipped without breaking the lines
opens = "4 6 8 10 12 14 1 2 3"
plot input using "n":(row(word(versions, 1), "copy_bw_GBps")) title "device-to-device copy (256 MiB)" dt 2 lw 2 \
         lc rgb "gray40" with lines, @same \
     for [i = 1:words(versions)] input using "n":(row(word(versions, i), "bandwidth_GBps")) \
         title word(versions, i) noenhanced lc i pt int(word(opens, (i - 1) % 9 + 1)) ps (0.7 + 0.3 * ((i - 1) % 9 + 1)) dt i
