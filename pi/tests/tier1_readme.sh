# Tier 1 of pi (no GPU): the README as students read it. Sourced by common/run_tests.sh from
# pi/ (tier1_plots.sh checks that tables.py reproduces README.md from the committed results).
#   - results of another GPU: the committed results with their device relabelled as an A100
#     give a README that never says H100 (the device is named from the results only);
#   - prose lines: common/tests/tier1_readme_lint.sh checks every README.
readme_other_gpu_case results/*.csv results/*.txt
