# The lab of an assignment: the rules every <assignment>/experiments/Makefile shares. The lab
# keeps each experiment's files under experiments/results/<gpu>/ (<gpu>: the folder of the GPU
# that made them, h100 or h200 for the committed ones), apart from results/, which holds only
# what `make report` and `make profile` write. Each file has one command that makes it again
# from a clean checkout, on a GPU:
#   make -C <assignment>/experiments results/<gpu>/<file>
# It builds what the experiment needs, runs it and replaces the file only when the run
# succeeded. Several files of one run share one command (any of their names runs it).
# `make -C <assignment>/experiments` lists the commands; `... figures` draws the lab's figures
# (plots/*.gp, each from the CSV its usage line names, into figures/).
#
# An experiments/Makefile sets
#   LAB_OUTPUTS  the name of every file its commands write (common/tests/test_lab.py checks that
#                the committed files under results/*/ are exactly these, each with its rule)
#   LAB_BUILD    what its commands need from the assignment's Makefile (bin/<name>,
#                build/experiments/<program>), built first by `make -C ..`
# then includes this file and gives one rule per run:
#   results/%/FILE ...: lab-force | lab-build      ($* is the GPU's folder, $(@D) the folder)
# A recipe that writes one file can use $(call lab_write,COMMAND): COMMAND writes $@.partial,
# which replaces $@ only when COMMAND succeeded.
# Provenance: once a run succeeded and replaced its CSVs, $(call lab_record,NAME...) gives each
# its row in results/<gpu>/MANIFEST.tsv (common/py/provenance.py record: the commit, the
# fingerprint of the code that decides it, this command, GPU, driver, date); lab_write records
# its CSV itself. A recipe whose run writes several files names each CSV of them (every name of
# the rule's targets that ends in .csv; common/tests/test_lab.py checks).

LAB_COMMON := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
LAB_NAME := $(notdir $(abspath ..))
.DEFAULT_GOAL := help
.SUFFIXES:
.PHONY: help lab-force lab-build print-lab-outputs print-figures figures

help:
	@echo "The lab of $(LAB_NAME): one command per file (on a GPU; GPU names the folder, h100 or h200):"
	@for f in $(LAB_OUTPUTS); do echo "  make -C $(LAB_NAME)/experiments results/GPU/$$f"; done

lab-force:

lab-build:
	$(if $(strip $(LAB_BUILD)),$(MAKE) --no-print-directory -C .. $(LAB_BUILD),@:)

print-lab-outputs:
	@echo '$(strip $(LAB_OUTPUTS))'

lab_write = mkdir -p $(@D) && rm -f $@.partial && { $(1); } && mv -f $@.partial $@ || { rm -f $@.partial; exit 1; }\
  $(if $(filter %.csv,$@),; $(call lab_record,$(notdir $@)))

# The command recorded: the one that makes the file again, from the repository's root, after the
# CW_* variables of the environment that the run saw (CW_MID_RANGE=... changes what it measures).
# A manifest not written (no python3) leaves the run's files in place and says so.
lab_command = $$(env | grep '^CW_[A-Za-z0-9_]*=' | sort | sed "s/'//g; s/=\(.*\)/='\1'/" | tr '\n' ' ')make -C $(LAB_NAME)/experiments $@
lab_record = python3 $(LAB_COMMON)/py/provenance.py record $(@D) $(1) --command "$(lab_command)" || \
  echo "$(LAB_NAME)/experiments/$(@D)/MANIFEST.tsv not updated (python3 common/py/provenance.py record $(LAB_NAME)/experiments/$(@D) $(strip $(1)))" >&2

# The lab's figures: plots/<name>.gp draws figures/<name>.png from the CSV its usage line names
# ("#   gnuplot -c plots/<name>.gp results/<gpu>/<file>.csv figures/<name>.png", paths relative
# to experiments/). A figure drawn from a stale CSV (common/py/provenance.py: its code changed
# since it was made) gets gnuplot's variable stale='stale: made by ...', which
# common/plot_style.gp puts under its title, as render_figures.sh does for results/.
LAB_FIGURES := $(shell awk 'FNR == 1 { found = 0 } !found && /^\#.*gnuplot -c plots\/[^ ]*\.gp [^ ]+ / { \
  for (i = 1; i < NF; i++) if ($$i == "-c") { g = $$(i + 1); sub(/^plots\//, "", g); sub(/\.gp$$/, "", g); print g "=" $$(i + 2) }; \
  found = 1 }' $(wildcard plots/*.gp) /dev/null)

print-figures:
	@$(foreach f,$(LAB_FIGURES),echo "$(subst =, ,$(f))";)

figures:
	@mkdir -p figures
	@set -e; notes=$$(python3 $(LAB_COMMON)/py/provenance.py figure-notes $(LAB_FIGURES)); \
	for f in $(LAB_FIGURES); do fig=$${f%%=*}; csv=$${f#*=}; \
	  mark=$$(printf '%s\n' "$$notes" | awk -F'\t' -v f="$$fig" '$$1 == f { print $$2 }' | tr -d "'"); \
	  gnuplot -e "stale='$$mark'" -c plots/$$fig.gp $$csv figures/$$fig.png; \
	  echo "figures/$$fig.png from $$csv$${mark:+ ($$mark)}"; done
