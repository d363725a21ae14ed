# Shared build settings, included by every Makefile of the repository.
#   CUDA_PATH      toolkit root (default: where `nvcc` on PATH lives, else /usr/local/cuda)
#   HOST_COMPILER  host C++ compiler for nvcc (-ccbin) and for the .cpp files (default: nvcc's own choice, g++)
#   SMS            compute capabilities to build, filtered against the toolkit; given on the
#                  command line or in the environment, built exactly as asked (after that filter;
#                  refused when the toolkit builds none of it, or an item is not an architecture:
#                  one line, exit status 2, before anything compiles)
#   SMS_DEFAULT    the list used when SMS is not given (default: 35 52, the reports' K40m and
#                  GTX 970); to it the build adds the architecture of the GPU on this machine
#                  (nvidia-smi), so that a job built on a GPU node runs native code, not PTX
#                  compiled by the driver at load time; see select_arch.sh
#   dbg=1          debug build (-g -G, and every launch synchronised and checked)
#   WERROR=1       turn every warning into an error (CI)

COMMON_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

NVCC_ON_PATH := $(shell command -v nvcc 2>/dev/null)
CUDA_PATH ?= $(if $(NVCC_ON_PATH),$(patsubst %/bin/nvcc,%,$(NVCC_ON_PATH)),/usr/local/cuda)
NVCC := $(CUDA_PATH)/bin/nvcc
HOST_COMPILER ?=
HOST_CXX := $(or $(HOST_COMPILER),g++)
SMS_DEFAULT ?= 35 52
# Whether SMS was given (command line, environment, a parent make's command line) or is the default.
ifeq ($(origin SMS),undefined)
  SMS := $(SMS_DEFAULT)
  SMS_ORIGIN := default
else
  SMS_ORIGIN := explicit
endif

# Evaluated once, and only by the goals that compile (make plots needs no toolkit). SMS is
# passed in single quotes: whatever it holds (a quote, a backtick, a *) reaches select_arch.sh
# as typed, which refuses what is not a list of compute capabilities; its message is escaped
# for $(eval) ($ and # kept as they are).
shell_quote = '$(subst ','\'',$(1))'
cw_hash := \#
make_literal = $(subst $(cw_hash),\$(cw_hash),$(subst $$,$$$$,$(1)))
GENCODE_FLAGS = $(eval GENCODE_FLAGS := $(shell $(COMMON_DIR)/scripts/select_arch.sh "$(NVCC)" $(call shell_quote,$(SMS)) --flags $(SMS_ORIGIN)))$(GENCODE_FLAGS)
ARCH_MESSAGE = $(eval ARCH_MESSAGE := $(call make_literal,$(shell $(COMMON_DIR)/scripts/select_arch.sh "$(NVCC)" $(call shell_quote,$(SMS)) --message $(SMS_ORIGIN))))$(ARCH_MESSAGE)

# A refused SMS or toolkit stops make as it reads this file, before anything compiles, in one
# line (make's own "file:line: *** ... Stop.", exit status 2), naming the value as given: once
# per make, not once per folder of a parallel build (the top Makefile reads this file too and
# stops before it recurses). Goals that compile nothing (plots, clean, print-...) go on.
CW_NO_COMPILE_GOALS := plots tables clean summary print-% figures/%
ifneq ($(filter-out $(CW_NO_COMPILE_GOALS),$(or $(MAKECMDGOALS),all)),)
  ifeq ($(firstword $(ARCH_MESSAGE)),error:)
    $(error $(patsubst error:%,%,$(firstword $(ARCH_MESSAGE)))$(wordlist 2,$(words $(ARCH_MESSAGE)),$(ARCH_MESSAGE)))
  endif
endif

WARN_FLAGS := -Wall -Wextra
ifeq ($(dbg),1)
  OPT_FLAGS := -g -O0 -DCW_DEBUG
  NVCC_OPT_FLAGS := -g -G -O0 -DCW_DEBUG
else
  OPT_FLAGS := -O3
  NVCC_OPT_FLAGS := -O3 -lineinfo
endif
ifeq ($(WERROR),1)
  WARN_FLAGS += -Werror
  NVCC_WERROR := -Werror all-warnings
endif

CCBIN_FLAG := $(if $(HOST_COMPILER),-ccbin $(HOST_COMPILER))
# Debian's CUDA headers in /usr/include can be shadowed by another CUDA's links in
# /usr/local/include; shadowed_cuda_headers.sh puts the toolkit's own first (or prints nothing).
UNSHADOW_FLAGS = $(eval UNSHADOW_FLAGS := $(shell $(COMMON_DIR)/scripts/shadowed_cuda_headers.sh "$(NVCC)" "$(abspath $(COMMON_DIR))/build/cuda-include"))$(UNSHADOW_FLAGS)
# Device code is C++14 (the oldest toolkit supported, 11.8, defaults to it); library-baseline translation units
# (CUB, Thrust, cuBLAS) are built with the toolkit's default standard, which CCCL may require.
NVCC_COMMON_FLAGS = $(CCBIN_FLAG) $(GENCODE_FLAGS) $(NVCC_OPT_FLAGS) $(NVCC_WERROR) \
                    -Wno-deprecated-gpu-targets -Xcompiler $(subst $(space),$(comma),$(strip $(WARN_FLAGS))) \
                    $(UNSHADOW_FLAGS) -I$(COMMON_DIR)
NVCCFLAGS = -std=c++14 $(NVCC_COMMON_FLAGS)
NVCC_BASELINE_FLAGS = $(NVCC_COMMON_FLAGS)
CXXFLAGS := -std=c++14 $(OPT_FLAGS) $(WARN_FLAGS) -I$(COMMON_DIR)
empty :=
space := $(empty) $(empty)
comma := ,
