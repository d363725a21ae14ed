# The build, test and plot rules every assignment shares. An assignment's Makefile may set
#   NAME            program name (default: the folder's name, which it must be)
#   CU_SRCS         driver, registry and kernels (.cu, C++14; default: main.cu $(NAME)_versions.cu
#                   $(NAME)_kernels.cu)
#   CPP_SRCS        CPU reference (.cpp, host compiler; default: $(NAME)_cpu.cpp)
#   BASELINE_SRCS   library baselines (.cu, toolkit's default C++ standard)
#   LDLIBS          extra libraries (-lcublas, -fopenmp via HOST_LDFLAGS ...)
#   SMALL_ARGS      the options of a tiny run (default: --n=1000), for the shared command-line
#                   tests (common/tests/test_contract.py reads `make -s print-SMALL_ARGS`)
#   PROFILE_METRICS the ncu metric list of its profile-experiments (`make -s print-profile-metrics`)
# and must define
#   report-experiments  a recipe that runs the experiments and writes its CSVs into
#                   $(RESULTS_DIR) (never into results/ directly: `make report-run` runs it in
#                   a staging folder and moves the CSVs into results/ only if it succeeded)
#   tables          a recipe that regenerates the README tables from results/*.csv
# and then includes this file (`include ../common/assignment.mk`), which brings in arch.mk,
# the build settings, first.
# Figures: every plots/<name>.gp draws figures/<name>.png from the CSV its usage line names
# ("#   gnuplot -c plots/<name>.gp <input.csv> figures/<name>.png", the one place that says
# which CSV a figure reads).
# Version lists: a recipe never writes the labels of "every version" or "every default
# version"; it asks the program ($(call versions,...) below, from `$(BIN) --list-versions`).

include $(dir $(lastword $(MAKEFILE_LIST)))arch.mk

.SUFFIXES:
.DELETE_ON_ERROR:
.DEFAULT_GOAL := all
.SECONDEXPANSION:

NAME ?= $(notdir $(CURDIR))
BUILD_DIR := build
# The naming convention (driver main.cu, registry and runners NAME_versions.cu, kernels
# NAME_kernels.cu, CPU reference NAME_cpu.cpp);
# a Makefile with other sources sets CU_SRCS / CPP_SRCS itself (empty: none).
CU_SRCS ?= main.cu $(wildcard $(NAME)_versions.cu) $(NAME)_kernels.cu
CPP_SRCS ?= $(NAME)_cpu.cpp
BIN := bin/$(NAME)
OBJS := $(CU_SRCS:%.cu=$(BUILD_DIR)/%.o) $(CPP_SRCS:%.cpp=$(BUILD_DIR)/%.o) \
        $(BASELINE_SRCS:%.cu=$(BUILD_DIR)/baseline_%.o)
HOST_CXXFLAGS ?=
HOST_LDFLAGS ?=
SMALL_ARGS ?= --n=1000
# FIGURES: name=input.csv for every plots/<name>.gp, the input from its usage line; a script
# without one stops make. PLOT_INPUT_<name> for each (read by the figure rule and the tests).
FIGURES := $(shell awk 'FNR == 1 { found = 0 } !found && /^\#.*gnuplot -c plots\/[^ ]*\.gp [^ ]+ / { \
  for (i = 1; i < NF; i++) if ($$i == "-c") { g = $$(i + 1); sub(/^plots\//, "", g); sub(/\.gp$$/, "", g); print g "=" $$(i + 2) }; \
  found = 1 }' $(wildcard plots/*.gp) /dev/null)
FIGURE_NAMES := $(foreach f,$(FIGURES),$(firstword $(subst =, ,$(f))))
$(foreach f,$(FIGURES),$(eval PLOT_INPUT_$(firstword $(subst =, ,$(f))) := $(word 2,$(subst =, ,$(f)))))
$(foreach g,$(filter-out $(FIGURE_NAMES:%=plots/%.gp),$(wildcard plots/*.gp)),\
  $(error $(g) has no usage line "#   gnuplot -c $(g) INPUT.csv OUTPUT" naming its input))

# GoogleTest unit tests of the CPU reference and host code (tests/*_test.cpp), where installed.
GTEST_HEADER := $(firstword $(wildcard /usr/include/gtest/gtest.h /usr/local/include/gtest/gtest.h))
UNIT_TEST_SRCS := $(wildcard tests/*_test.cpp)
UNIT_TEST_BIN := $(if $(and $(GTEST_HEADER),$(UNIT_TEST_SRCS)),$(BUILD_DIR)/unit_tests)

# The build configuration (toolkit path and version, architectures, flags, host compiler) in
# a stamp file every object depends on, rewritten only when it changes: switching modules
# (another nvcc on PATH) or SMS rebuilds every object, so no stale object from another
# toolkit is ever linked.
DEP_OPTIONS := -MMD -MP
BUILD_CONFIG = $(NVCC) $(shell $(NVCC) --version 2>/dev/null | tail -n 1) | $(GENCODE_FLAGS) | $(NVCC_OPT_FLAGS) $(NVCC_WERROR) | $(HOST_CXX) $(CCBIN_FLAG) $(WARN_FLAGS) $(OPT_FLAGS) | $(DEP_OPTIONS)
# The stamp is remade only when it is missing or its content differs, which is decided here,
# as the Makefile is read (an always-remade stamp would make `make -n` list every compile of
# a built tree), and only for goals that may compile: `make plots` never runs nvcc.
CONFIG_STAMP := $(BUILD_DIR)/build-config.stamp
NO_BUILD_GOALS := plots tables clean print-% figures/%
.PHONY: cw-force
ifneq ($(filter-out $(NO_BUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
ifneq ($(shell printf '%s\n' '$(BUILD_CONFIG)' | cmp -s - $(CONFIG_STAMP) 2>/dev/null && echo same),same)
$(CONFIG_STAMP): cw-force
endif
endif
$(CONFIG_STAMP):
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(BUILD_CONFIG)' | cmp -s - $@ 2>/dev/null || \
	  { [ -f $@ ] && echo "build configuration changed: rebuilding every object of $(NAME)"; printf '%s\n' '$(BUILD_CONFIG)' >$@; }

.PHONY: all test test-gpu report report-run report-experiments profile profile-experiments plots tables clean arch-info experiments
export PYTHONDONTWRITEBYTECODE := 1
RESULTS_DIR ?= results
all: $(BIN)

# One line saying what is built and why; a toolkit older than the minimum stops the build here.
arch-info:
	@msg="$(ARCH_MESSAGE)"; echo "$$msg"; case "$$msg" in error:*) exit 1;; esac

$(BIN): $(OBJS) | arch-info
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_COMMON_FLAGS) -o $@ $(OBJS) $(LDLIBS) $(if $(HOST_LDFLAGS),-Xcompiler $(subst $(space),$(comma),$(strip $(HOST_LDFLAGS))))

# Header dependencies, per object: every compile writes the headers it read into TARGET.d
# (-MMD: the system's left out; -MP: a header that is gone later is no error), and make reads
# them back (below), so that touching a header rebuilds exactly the objects (and experiments)
# that include it, and no others. The flags are part of the build configuration: a tree built
# before them, whose objects have no .d file, is rebuilt whole once.
DEP_FLAGS = $(DEP_OPTIONS) -MF $@.d

$(BUILD_DIR)/%.o: %.cu $(CONFIG_STAMP) | arch-info
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(DEP_FLAGS) -c -o $@ $<

$(BUILD_DIR)/baseline_%.o: %.cu $(CONFIG_STAMP) | arch-info
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCC_BASELINE_FLAGS) $(DEP_FLAGS) -c -o $@ $<

# The CPU reference's objects, and the unit tests' (build/tests/*_test.o), by the host compiler.
$(BUILD_DIR)/%.o: %.cpp $(CONFIG_STAMP)
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(CXXFLAGS) $(HOST_CXXFLAGS) -I. $(DEP_FLAGS) -c -o $@ $<

# The unit tests link with the program's own CPU objects.
UNIT_TEST_OBJS := $(UNIT_TEST_SRCS:%.cpp=$(BUILD_DIR)/%.o) $(CPP_SRCS:%.cpp=$(BUILD_DIR)/%.o)
$(BUILD_DIR)/unit_tests: $(UNIT_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(CXXFLAGS) $(HOST_CXXFLAGS) -o $@ $(UNIT_TEST_OBJS) -lgtest -lgtest_main -pthread $(HOST_LDFLAGS)

# This folder's tests, by pytest (the repository's pytest.ini; common/scripts/pytest.sh): the
# GoogleTest cases of tests/*_test.cpp and tests/test_*.py; test-gpu: the GPU cases alone
# (marked gpu), after the experiments are built; without a usable GPU, one line and exit 1. PYTEST_ARGS passes options on.
.PHONY: unit-tests
unit-tests: $(UNIT_TEST_BIN)

# An assignment's folder also runs the shared tests' cases about it (common/tests: the command-line
# contract, the documents, the --vary-input case), selected by CW_ASSIGNMENT; common/ runs them all.
SHARED_TESTS := $(if $(filter common,$(notdir $(CURDIR))),,$(addprefix $(COMMON_DIR)/tests/,test_contract.py test_documents.py test_gpu.py))
test: $(BIN) $(UNIT_TEST_BIN) devinfo
	@CW_ASSIGNMENT=$(if $(SHARED_TESTS),$(NAME)) bash $(COMMON_DIR)/scripts/pytest.sh tests $(SHARED_TESTS) $(PYTEST_ARGS)

test-gpu:
	@bash $(COMMON_DIR)/scripts/gpu_or_stop.sh "make test-gpu"
	@$(MAKE) --no-print-directory $(BIN) experiments
	@CW_ASSIGNMENT=$(if $(SHARED_TESTS),$(NAME)) bash $(COMMON_DIR)/scripts/pytest.sh -m gpu tests $(SHARED_TESTS) $(PYTEST_ARGS)

.PHONY: devinfo
devinfo:
	@$(MAKE) --no-print-directory -C $(COMMON_DIR) bin/devinfo

# Without a usable GPU, one line first (staged_run.sh --require-gpu) and nothing is built or run.
report:
	@bash $(COMMON_DIR)/scripts/staged_run.sh --require-gpu "make report"
	$(MAKE) report-run
	$(MAKE) plots

# The make that staged_run.sh runs. Not written $(MAKE) in the recipes below: GNU Make runs a
# recipe line holding $(MAKE) even under `make -n`, which would stage a real run. -j1: the
# experiments time the GPU one at a time, even under `make -j` (make says it reset -j).
STAGED_MAKE = $(MAKE) -j1 --no-print-directory

# The experiments, staged (common/scripts/staged_run.sh): a whole, successful run goes to
# runs/<gpu>/ (the reference results/ only with CW_REFERENCE=1); a failed or interrupted one is
# kept under build/runs/ and named.
report-run: $(BIN)
	@bash $(COMMON_DIR)/scripts/staged_run.sh $(NAME) $(STAGED_MAKE) report-experiments

# Hardware counters (needs a GPU and Nsight Compute): each assignment's profile-experiments
# recipe calls common/scripts/ncu_profile.sh per version and size, writing $(RESULTS_DIR)/profile.csv;
# staged like report-run (runs/<gpu>/profile.csv), so a failed profile never touches a profile.csv.
profile: $(BIN) devinfo
	@bash $(COMMON_DIR)/scripts/ncu_profile.sh --check
	@bash $(COMMON_DIR)/scripts/staged_run.sh $(NAME)-profile $(STAGED_MAKE) profile-experiments

# Tuning experiments (experiments/*.cu, run by hand on a GPU): compiled here so that CI
# keeps them building.
# EXPERIMENT_SKIP (set by an assignment): experiments this toolkit cannot build (one that needs a
# newer CUDA than the legacy build's), left out of `make experiments`.
EXPERIMENT_SRCS := $(filter-out $(EXPERIMENT_SKIP),$(wildcard experiments/*.cu))
EXPERIMENT_BINS := $(EXPERIMENT_SRCS:experiments/%.cu=$(BUILD_DIR)/experiments/%)
experiments: $(EXPERIMENT_BINS)
# An assignment may set EXPERIMENT_OBJS (objects every experiment links with),
# EXPERIMENT_OBJS_<name> (objects experiments/<name>.cu alone links with) and EXPERIMENT_LDLIBS.
# Their dependency files go to build/experiment-deps/, so that build/experiments/ holds the
# programs alone (the legacy checks and packs read every file there as a binary).
$(BUILD_DIR)/experiments/%: experiments/%.cu $(EXPERIMENT_OBJS) $$(EXPERIMENT_OBJS_$$*) $(CONFIG_STAMP) | arch-info
	@mkdir -p $(dir $@) $(BUILD_DIR)/experiment-deps
	$(NVCC) $(NVCC_BASELINE_FLAGS) -I. $(DEP_OPTIONS) -MF $(BUILD_DIR)/experiment-deps/$*.d -o $@ $< $(EXPERIMENT_OBJS) $(EXPERIMENT_OBJS_$*) $(EXPERIMENT_LDLIBS)

# The header dependencies the compiles above wrote, one file per target.
-include $(wildcard $(BUILD_DIR)/*.d $(BUILD_DIR)/tests/*.d $(BUILD_DIR)/experiment-deps/*.d)

# make plots: the reference's figures (figures/, from results/) and README tables, then every
# user run's figures and tables in its own folder (runs/<gpu>/figures/, runs/<gpu>/tables.md:
# common/scripts/staged_run.sh puts a run there). No GPU; a figure or table is rewritten only
# when what it is made from changed (common/scripts/render_figures.sh), so on unchanged data
# `make plots` changes no tracked file. A figure whose CSV is not there is named and skipped.
plots:
	@bash $(COMMON_DIR)/scripts/render_figures.sh results figures
	@$(MAKE) --no-print-directory tables
	@for run in $(wildcard runs/*/); do run=$${run%/}; \
	  bash $(COMMON_DIR)/scripts/render_figures.sh $$run $$run/figures && \
	  python3 tables.py $$run --out $$run/tables.md || exit 1; \
	  echo "$$run: figures in $$run/figures/, tables in $$run/tables.md"; done

clean:
	rm -rf $(BUILD_DIR) bin

# The program's versions, for recipes: $(call versions,PROPERTIES[,PLUS[,MINUS]]) is a shell
# command substitution printing, one per line and in the registry's order, the label of every
# line of `$(BIN) --list-versions` ("LABEL validated|demonstration baseline|kernel
# default|opt-in gpu|host TAGS KERNELS", common/registry.h) that has each word of PROPERTIES
# (a property or one of its tags; none: every version), or is one of the labels PLUS, and is
# not one of the labels MINUS; $(call version_list,...) is the same list comma-separated, for
# --only. An experiment about some versions only names a tag, which the registry gives them.
list_versions = $(BIN) --list-versions | awk -v props='$(strip $(1))' -v plus=' $(strip $(2)) ' -v minus=' $(strip $(3)) ' \
  'BEGIN { n = split(props, want, " ") } { tags = "," $$6 ","; ok = 1; for (i = 1; i <= n; i++) \
     if (want[i] != $$2 && want[i] != $$3 && want[i] != $$4 && want[i] != $$5 && !index(tags, "," want[i] ",")) ok = 0 } \
   (ok || index(plus, " " $$1 " ")) && !index(minus, " " $$1 " ") { print $$1 }'
versions = $$($(call list_versions,$(1),$(2),$(3)))
version_list = $$($(call list_versions,$(1),$(2),$(3)) | paste -sd, -)
# Nsight Compute's kernel filter for the version in the shell variable v, from its registry
# entry (profile_kernels, the 7th column of --list-versions): "--kernel-name regex:K", or
# nothing where the entry names none (every kernel the version launches: a library call).
kernel_filter = "$$($(BIN) --list-versions | awk -v v="$$v" '$$1 == v && $$7 != "-" { print "--kernel-name regex:" $$7 }')"

# "figure input.csv" pairs, for the tier-1 test that renders every figure.
.PHONY: print-figures print-profile-metrics
print-figures:
	@$(foreach f,$(FIGURE_NAMES),echo "$(f) $(PLOT_INPUT_$(f))";)

# The metric list of profile-experiments, for the GPU test of the profile (common/py/cwprofile.py).
print-profile-metrics:
	@echo '$(PROFILE_METRICS)'

# make -s print-VARIABLE: one variable's value, for the tests and scripts (print-SMALL_ARGS ...).
print-%:
	@echo '$($*)'
