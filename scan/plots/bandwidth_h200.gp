# Figure 3.0.2's bandwidth panel drawn from the H200's reference sweep, whose rows carry the
# same-size copy (copy_n_ms): plots/bandwidth.gp on that input.
#   gnuplot -c plots/bandwidth_h200.gp results/h200/sweep.csv figures/bandwidth_h200.png
call system("dirname ".ARG0)."/bandwidth.gp" ARG1 ARG2
