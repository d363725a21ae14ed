# Top level: recurses into common/ and every assignment folder that has a Makefile.
#   make            build everything           make test       every test, by pytest (GPU cases skipped without a GPU)
#   make report     run every experiment on the local GPU into */runs/<gpu>/, then its figures and tables
#   make plots      figures and tables from existing CSVs (no GPU): the reference (results/) and every run
#   make test-gpu   the GPU cases alone, on a GPU machine  make clean
# Build options (SMS, CUDA_PATH, HOST_COMPILER, dbg=1) are passed down; see common/arch.mk.
# make and make test use every core of the machine (-j$(nproc)) unless -j is given (make -j1:
# one job at a time); make report and make profile run their experiments one at a time anyway.

# The recipes below use bash (pipefail); the folders' own Makefiles keep make's /bin/sh.
SHELL := bash

# The one list of assignments: the folders whose Makefile includes ../common/assignment.mk.
ASSIGNMENTS := $(shell bash common/scripts/assignments.sh)
export PYTHONDONTWRITEBYTECODE := 1
FOLDERS := common $(ASSIGNMENTS) $(patsubst %/Makefile,%,$(wildcard slurm/Makefile))
UNIT_TESTS := $(addprefix unit-tests/,common $(ASSIGNMENTS))
PROGRAMS := common/bin/devinfo $(foreach a,$(ASSIGNMENTS),$(a)/bin/$(a))

# Every core for the goals that build and test, unless the command line says -j (which wins
# over this: make -j1 runs one job). Not for make plots, report or profile: they run one thing
# at a time, and their scripts start make themselves, which would find the jobserver closed.
ifeq ($(filter -j% --jobs%,$(MAKEFLAGS)),)
  ifneq ($(filter all test experiments $(FOLDERS),$(or $(MAKECMDGOALS),all)),)
    MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
  endif
endif

# The architecture check of every build (common/arch.mk): a refused SMS or toolkit stops this
# make in one line before it recurses, not once per folder.
include common/arch.mk

.PHONY: all test test-gpu report plots clean summary experiments profile $(FOLDERS) $(UNIT_TESTS)
all: $(FOLDERS)
	@echo "make: built and up to date: $(PROGRAMS); next: make test (no GPU needed), make report (a GPU)"
$(FOLDERS):
	$(MAKE) -C $@ all

# The tests of every folder run by pytest (common/scripts/pytest.sh: Debian's python3-pytest),
# whose own summary is the last line: tier 1 (no GPU needed) and the GPU cases (marked gpu;
# each one skipped with the reason where no GPU is usable). The GoogleTest binaries of every
# folder are built beside the programs (make's jobs). pytest runs its tests on every core
# (pytest-xdist, python3-pytest-xdist) where no GPU is usable; CW_TEST_JOBS=N says how many
# (1: one at a time). PYTEST_ARGS passes options on (PYTEST_ARGS="-k scan -x").
#
# test-gpu: the GPU cases alone (the experiments' binaries built too: some cases run them).
# Without a usable GPU (a login node) it stops at once with one line and exit 1, before building
# anything: nothing tested is not a pass (make test stays green there: its GPU cases are
# reported as skipped).
test-gpu:
	@bash common/scripts/gpu_or_stop.sh "make test-gpu"
	@$(MAKE) --no-print-directory all experiments
	@bash common/scripts/pytest.sh -m gpu $(PYTEST_ARGS)
$(UNIT_TESTS):
	@set -o pipefail; $(MAKE) --no-print-directory -C $(@F) unit-tests 2>&1 | { grep --line-buffered -v "Nothing to be done for 'unit-tests'" || true; }
# pytest gets make's command-line variables (WERROR=1: the builds its tests start find the same
# build configuration) but not make's -j and jobserver, which the makes a test starts could not use.
test: all $(UNIT_TESTS)
	@MAKEFLAGS=$(call shell_quote,-- $(MAKEOVERRIDES)) bash common/scripts/pytest.sh $(PYTEST_ARGS)

# Without a usable GPU: one line (common/scripts/staged_run.sh --require-gpu), and nothing is built or run.
report:
	@bash common/scripts/staged_run.sh --require-gpu "make report"
	@set -e; for d in $(ASSIGNMENTS); do $(MAKE) -C $$d report; done
	@echo "Your run: $(ASSIGNMENTS:%=%/runs/<gpu>/) (CSVs, figures/, tables.md); the reference results/ and READMEs are unchanged"

# Without gnuplot: one line naming the package (make's "Makefile:<line>: *** ..."), nothing
# rendered, exit 2. The last line adds up what every folder drew (CW_PLOTS_TALLY: each
# render_figures.sh call adds its counts to the file; --summary prints their sum):
#   make plots: N figure(s) drawn, M up to date (F folder(s) of figures)
ifneq ($(filter plots,$(MAKECMDGOALS)),)
  ifeq ($(shell command -v gnuplot),)
    $(error make plots: gnuplot is not installed: apt-get install gnuplot-nox (on a cluster: module load gnuplot); nothing was rendered)
  endif
endif
plots:
	@tally=$$(mktemp); trap 'rm -f "$$tally"' EXIT; set -e; \
	  for d in $(ASSIGNMENTS); do CW_PLOTS_TALLY=$$tally $(MAKE) -s --no-print-directory -C $$d plots; done; \
	  $(MAKE) -s --no-print-directory summary; \
	  bash common/scripts/render_figures.sh --summary "$$tally"

# Nsight Compute counters of every version (needs a GPU and ncu): */runs/<gpu>/profile.csv.
profile:
	@set -e; for d in $(ASSIGNMENTS); do $(MAKE) -C $$d profile; done

# The tuning experiments of every assignment, compiled only (they run by hand on a GPU).
experiments:
	@set -e; for d in $(ASSIGNMENTS); do $(MAKE) -C $$d experiments; done

summary:
	@python3 common/py/results_summary.py $(ASSIGNMENTS)

clean:
	@for d in $(FOLDERS); do $(MAKE) -C $$d clean; done
	rm -rf build
