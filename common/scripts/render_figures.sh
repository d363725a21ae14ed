#!/usr/bin/env bash
# Renders an assignment's figures from one set of results (run in the assignment's folder):
#   render_figures.sh RESULTS_DIR FIGURES_DIR
# Each plots/<name>.gp draws FIGURES_DIR/<name>.png from the CSV its usage line names, read from
# RESULTS_DIR instead of results/ (make print-figures lists the pairs). A figure is drawn again
# only when what it is made from changed: FIGURES_DIR/SOURCES.sha256 keeps, per figure, the
# SHA-256 of its script and the plots/ scripts it calls, common/plot_style.gp, every CSV of
# RESULTS_DIR and its sub-folders (a script may read a second CSV beside its input:
# context.csv, h200/...), the report's numbers
# (original/) and its stale line (below), so `make plots` on unchanged data rewrites no PNG,
# whatever fonts this machine has. A figure whose input is not there is named and skipped; a
# failed render leaves the old figure.
# Stale data (common/py/provenance.py): a figure drawn from a CSV whose code changed since it was
# made gets gnuplot's variable stale='stale: made by <commit> (<date>); the code that decides it
# has changed since' (empty otherwise), which common/plot_style.gp puts under the figure's title.
# Ends with one line: "<folder>/FIGURES_DIR: N drawn, M up to date" (and how many had no CSV or
# failed). With CW_PLOTS_TALLY=FILE that line is not printed: the counts are added to FILE, and
#   render_figures.sh --summary FILE
# prints their sum in one line (the top Makefile's `make plots`).
# Without gnuplot, nothing that needs drawing is drawn: one line names the package, exit 1.
# Exit status: 0, or 1 when a figure that needed drawing was not drawn.
set -u
if [ "${1:-}" = --summary ]; then
  awk '{ for (i = 1; i <= 4; i++) n[i] += $i; f++ }
       END { printf "make plots: %d figure(s) drawn, %d up to date", n[1], n[2]
             if (n[3]) printf ", %d without their CSV", n[3]
             if (n[4]) printf ", %d failed", n[4]
             printf " (%d folder(s) of figures)\n", f }' "${2:?usage: render_figures.sh --summary TALLY}"
  exit 0
fi
results=${1:?usage: render_figures.sh RESULTS_DIR FIGURES_DIR}
figures=${2:?usage: render_figures.sh RESULTS_DIR FIGURES_DIR}
common=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
stamps=$figures/SOURCES.sha256
mkdir -p "$figures" || exit 2
touch "$stamps"
drawn=0 current=0 missing=0 failed=0 status=0
have_gnuplot=$(command -v gnuplot >/dev/null && echo 1)
nognuplot=()

# "figure input" pairs, and each figure's CSVs: its input and any CSV its script names that lies
# beside the input (context.csv); their stale lines, from one call of provenance.py.
mapfile -t pairs < <(make --no-print-directory -s print-figures)
declare -A stale=()
args=()
for pair in "${pairs[@]}"; do
  read -r fig input <<<"$pair"
  [ -n "$fig" ] || continue
  input=$results/${input#results/}
  csvs=$input
  for name in $(grep -v '^[[:space:]]*#' "plots/$fig.gp" | grep -o '[A-Za-z0-9_.-]*\.csv' | sort -u); do
    [ -f "$(dirname "$input")/$name" ] && csvs="$csvs,$(dirname "$input")/$name"
  done
  args+=("$fig=$csvs")
done
if ls "$results"/MANIFEST.tsv "$results"/*/MANIFEST.tsv >/dev/null 2>&1; then  # else no row can be stale
  while IFS=$'\t' read -r fig line; do
    [ -n "$fig" ] && stale[$fig]=$line
  done < <(python3 "$common/py/provenance.py" figure-notes "${args[@]}")
fi

for pair in "${pairs[@]}"; do
  read -r fig input <<<"$pair"
  [ -n "$fig" ] || continue
  input=$results/${input#results/}
  if [ ! -f "$input" ]; then
    echo "figure $fig not drawn: $input does not exist (make report-run, or make profile for profile figures)"
    missing=$((missing + 1))
    continue
  fi
  mark=${stale[$fig]:-}
  mark=${mark//\'/}
  # The scripts it calls (plots/bandwidth_h200.gp calls bandwidth.gp) are sources too.
  called=$(grep -o '[A-Za-z0-9_]*\.gp' "plots/$fig.gp" | sort -u | sed 's|^|plots/|' | while read -r g; do [ -f "$g" ] && [ "$g" != "plots/$fig.gp" ] && echo "$g"; done)
  sum=$( { cat "plots/$fig.gp" $called "$common/plot_style.gp" "$results"/*.csv $(ls "$results"/*/*.csv original/* 2>/dev/null)
           [ -z "$mark" ] || printf '%s\n' "$mark"; } | sha256sum | cut -d' ' -f1)
  out=$figures/$fig.png
  if [ -f "$out" ] && grep -qx "$fig $sum" "$stamps"; then
    current=$((current + 1))
    continue
  fi
  if [ -z "$have_gnuplot" ]; then
    nognuplot+=("$fig")
    continue
  fi
  if gnuplot -e "stale='$mark'" -c "plots/$fig.gp" "$input" "$figures/.$fig.tmp.png" && [ -s "$figures/.$fig.tmp.png" ]; then
    mv -f "$figures/.$fig.tmp.png" "$out"
    { grep -v "^$fig " "$stamps"; echo "$fig $sum"; } | sort >"$stamps.tmp" && mv -f "$stamps.tmp" "$stamps"
    echo "figure $fig: drawn from $input into $out${mark:+ ($mark)}"
    drawn=$((drawn + 1))
  else
    rm -f "$figures/.$fig.tmp.png"
    if [ -f "$out" ]; then kept="the old figure is kept"; else kept="no figure written"; fi
    echo "figure $fig: gnuplot failed on $input ($kept)" >&2
    failed=$((failed + 1)) status=1
  fi
done
line="$(basename "$PWD")/${figures%/}: $drawn figure(s) drawn, $current up to date"
[ "$missing" = 0 ] || line="$line, $missing without their CSV"
[ "$failed" = 0 ] || line="$line, $failed failed"
[ -n "${CW_PLOTS_TALLY:-}" ] && echo "$drawn $current $missing $((failed + ${#nognuplot[@]}))" >>"$CW_PLOTS_TALLY"
if [ "${#nognuplot[@]}" -gt 0 ]; then
  echo "$line, ${#nognuplot[@]} not drawn: gnuplot is not installed (sudo apt-get install gnuplot-nox)" >&2
  exit 1
fi
[ -n "${CW_PLOTS_TALLY:-}" ] || echo "$line"
exit $status
