# Top level: recurses into common/ and every assignment folder that has a Makefile.
#   make            build everything           make test       every test, by pytest (GPU cases skipped without a GPU)
#   make report     run every experiment on the local GPU into */runs/<gpu>/, then its figures and tables
#   make plots      figures and tables from existing CSVs (no GPU): the reference (results/) and every run
#   make test-gpu   the GPU cases alone, on a GPU machine  make clean
# Build options (SMS, CUDA_PATH, HOST_COMPILER, dbg=1) are passed down; see common/arch.mk.

# The one list of assignments: the folders whose Makefile includes ../common/assignment.mk.
ASSIGNMENTS := $(shell bash common/scripts/assignments.sh)
export PYTHONDONTWRITEBYTECODE := 1
FOLDERS := common $(ASSIGNMENTS) $(patsubst %/Makefile,%,$(wildcard slurm/Makefile))

.PHONY: all test test-gpu report plots clean summary experiments profile $(FOLDERS)
all: $(FOLDERS)
$(FOLDERS):
	$(MAKE) -C $@ all

# The tests of every folder run by pytest (common/scripts/pytest.sh: Debian's python3-pytest),
# whose own summary is the last line: tier 1 (no GPU needed) and the GPU cases (marked gpu;
# each one skipped with the reason where no GPU is usable). PYTEST_ARGS passes options on
# (PYTEST_ARGS="-k scan -x"); CW_TEST_JOBS=auto runs them in parallel where pytest-xdist is installed.
#
# test-gpu: the GPU cases alone (the experiments' binaries built too: some cases run them).
# Without a usable GPU (a login node) it stops at once with one line and exit 1, before building
# anything: nothing tested is not a pass (make test stays green there: its GPU cases are
# reported as skipped).
test-gpu:
	@bash common/scripts/gpu_or_stop.sh "make test-gpu"
	@$(MAKE) --no-print-directory all experiments
	@bash common/scripts/pytest.sh -m gpu $(PYTEST_ARGS)
test: all
	@set -e; for d in common $(ASSIGNMENTS); do $(MAKE) --no-print-directory -s -C $$d unit-tests; done
	@bash common/scripts/pytest.sh $(PYTEST_ARGS)

# Without a usable GPU: one line (common/scripts/staged_run.sh --require-gpu), and nothing is built or run.
report:
	@bash common/scripts/staged_run.sh --require-gpu "make report"
	@set -e; for d in $(ASSIGNMENTS); do $(MAKE) -C $$d report; done
	@echo "Your run: $(ASSIGNMENTS:%=%/runs/<gpu>/) (CSVs, figures/, tables.md); the reference results/ and READMEs are unchanged"

plots:
	@set -e; for d in $(ASSIGNMENTS); do $(MAKE) -C $$d plots; done
	@$(MAKE) --no-print-directory summary
	@echo "Rendered from existing CSVs: the reference (README tables, figures/) and every run in $(ASSIGNMENTS:%=%/runs/)"

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
