#!/usr/bin/env bash
# Renders an assignment's figures from one set of results (run in the assignment's folder):
#   render_figures.sh RESULTS_DIR FIGURES_DIR
# Each plots/<name>.gp draws FIGURES_DIR/<name>.png from the CSV its usage line names, read from
# RESULTS_DIR instead of results/ (make print-figures lists the pairs). A figure is drawn again
# only when what it is made from changed: FIGURES_DIR/SOURCES.sha256 keeps, per figure, the
# SHA-256 of its script, common/plot_style.gp, every CSV of RESULTS_DIR and its sub-folders (a
# script may read a second CSV beside its input: context.csv, h200/...) and the report's
# numbers (original/),
# so `make plots` on unchanged data rewrites no PNG, whatever fonts this machine has. A figure
# whose input is not there is named and skipped; a failed render leaves the old figure.
set -u
results=${1:?usage: render_figures.sh RESULTS_DIR FIGURES_DIR}
figures=${2:?usage: render_figures.sh RESULTS_DIR FIGURES_DIR}
common=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
stamps=$figures/SOURCES.sha256
mkdir -p "$figures" || exit 2
touch "$stamps"
status=0
while read -r fig input; do
  [ -n "$fig" ] || continue
  input=$results/${input#results/}
  if [ ! -f "$input" ]; then
    echo "figure $fig not drawn: $input does not exist (make report-run, or make profile for profile figures)"
    continue
  fi
  sum=$(cat "plots/$fig.gp" "$common/plot_style.gp" "$results"/*.csv $(ls "$results"/*/*.csv original/* 2>/dev/null) |
        sha256sum | cut -d' ' -f1)
  out=$figures/$fig.png
  if [ -f "$out" ] && grep -qx "$fig $sum" "$stamps"; then
    continue
  fi
  if gnuplot -c "plots/$fig.gp" "$input" "$figures/.$fig.tmp.png" && [ -s "$figures/.$fig.tmp.png" ]; then
    mv -f "$figures/.$fig.tmp.png" "$out"
    { grep -v "^$fig " "$stamps"; echo "$fig $sum"; } | sort >"$stamps.tmp" && mv -f "$stamps.tmp" "$stamps"
    echo "figure $fig: drawn from $input into $out"
  else
    rm -f "$figures/.$fig.tmp.png"
    echo "figure $fig: gnuplot failed on $input (the old figure is kept)" >&2
    status=1
  fi
done < <(make --no-print-directory -s print-figures)
exit $status
