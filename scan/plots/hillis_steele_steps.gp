# Figure 1.1 of report 002: the Hillis & Steele scan on 8 elements, one row per step (top:
# the input; step d adds the element 2^(d-1) places to the left). The values and arrows come
# from results/hillis_steele_steps.csv (plots/hillis_steele_steps.py computes the steps).
#   gnuplot -c plots/hillis_steele_steps.gp results/hillis_steele_steps.csv figures/hillis_steele_steps.png
# (call, not load: gnuplot 5.4 gives a loaded file ARGC = 0, so plot_style.gp would stop)
call system("dirname ".ARG0)."/../../common/plot_style.gp" ARG1 ARG2
stats input using "k" nooutput
N = STATS_max + 1
stats input using "step" nooutput
STEPS = STATS_max
set title titled(sprintf("Hillis–Steele inclusive scan of %d elements, step by step (report Figure 1.1; computed on the CPU, no GPU)", N))
set xrange [-0.7:N - 0.3]
set yrange [STEPS + 0.6:-0.6]
set xlabel "element k"
set ylabel "step d (0: the input)"
set xtics 1 nomirror
set ytics 1 nomirror
unset grid
unset key
set style fill solid 0.15 border lc rgb "gray40"
plot input using "k":"step":(0.38):(0.22) with boxxyerror lc rgb "#1f77b4", \
     input using (column("src") >= 0 ? column("src") : NaN):(column("step") - 1 + 0.25):(column("k") - column("src")):(0.5) \
         with vectors head filled size 0.08,20 lc rgb "#d62728", \
     input using (column("step") > 0 ? column("k") : NaN):(column("step") - 1 + 0.25):(0):(0.5) \
         with vectors head filled size 0.08,20 lc rgb "gray50", \
     input using "k":"step":(strcol("value")) with labels font ",12"
