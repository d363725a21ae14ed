# Top level: recurses into common/ and every assignment folder that has a Makefile.
#   make            build everything           make test       tier 1 + tier 2 (GPU cases skipped without a GPU)
#   make report     run every experiment on the local GPU into */runs/<gpu>/, then its figures and tables
#   make plots      figures and tables from existing CSVs (no GPU): the reference (results/) and every run
#   make test-gpu   tier 2 alone, on a GPU machine          make clean
# Build options (SMS, CUDA_PATH, HOST_COMPILER, dbg=1) are passed down; see common/arch.mk.

# The one list of assignments: the folders whose Makefile includes ../common/assignment.mk.
ASSIGNMENTS := $(shell bash common/scripts/assignments.sh)
export PYTHONDONTWRITEBYTECODE := 1
FOLDERS := common $(ASSIGNMENTS) $(patsubst %/Makefile,%,$(wildcard slurm/Makefile))
RESULTS_FILE := $(CURDIR)/build/test-results.txt

.PHONY: all test test-gpu report plots clean summary experiments profile $(FOLDERS)
all: $(FOLDERS)
$(FOLDERS):
	$(MAKE) -C $@ all

# Every folder's tests run even when one fails; the closing line counts them all. A folder
# whose `make test` fails without recording a failing case (its tests could not build, say)
# is counted as a failure, so that a whole suite cannot vanish from the count unnoticed.
#
# test-gpu without a usable GPU (a login node) stops at once with one line and exit 1: nothing
# tested is not a pass. (make test stays green there: its GPU cases are reported as skipped.)
# And a GPU run in which no case passed fails the same way.
test-gpu: all
	@mkdir -p build
	@if ! common/bin/devinfo --check >/dev/null 2>build/devinfo-check.err; then \
	  echo "make test-gpu: nothing was tested: no usable CUDA GPU here ($$(grep -v '^$$' build/devinfo-check.err | head -n 1)); make test runs the tests that need none" >&2; \
	  exit 1; \
	fi
	@$(MAKE) --no-print-directory run-tests TEST_TARGET=test-gpu CW_NOTHING_TESTED_FAILS=1
test: all
	@$(MAKE) --no-print-directory run-tests TEST_TARGET=test

.PHONY: run-tests
run-tests:
	@mkdir -p build; rm -f $(RESULTS_FILE); touch $(RESULTS_FILE)
	@for d in $(FOLDERS); do \
	  $(MAKE) --no-print-directory -C $$d $(TEST_TARGET) CW_TEST_RESULTS=$(RESULTS_FILE); status=$$?; \
	  if [ $$status -ne 0 ] && ! grep -q "^FAIL $$d:" $(RESULTS_FILE); then \
	    echo "FAIL $$d: make $(TEST_TARGET) in $$d exited $$status without a failing case (a build error stopped its tests?)" | \
	      tee -a $(RESULTS_FILE); \
	  fi; \
	done
	@CW_TEST_RESULTS=$(RESULTS_FILE) bash -c '. common/tests/testlib.sh; t_summary $(RESULTS_FILE)'
	@if [ "$(CW_NOTHING_TESTED_FAILS)" = 1 ] && ! grep -q '^PASS ' $(RESULTS_FILE); then \
	  echo "make $(TEST_TARGET): nothing was tested: no case passed (every one skipped, see the reasons above)" >&2; exit 1; \
	fi

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
