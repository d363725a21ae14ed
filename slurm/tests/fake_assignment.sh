#!/usr/bin/env bash
# Makes a stand-in assignment for the staging tests (no GPU, no compiler needed):
#   fake_assignment.sh DIR NAME
# DIR/NAME/Makefile includes common/assignment.mk (and through it common/arch.mk), so
# `make report-run` is the assignments' own staged rule (common/scripts/staged_run.sh); the program is already "built"
# (bin/NAME, no sources: CU_SRCS and CPP_SRCS empty) and report-experiments runs
# tests/fake_experiment.sh, which writes a partial CSV into the staging folder and then
# succeeds, fails or sleeps (FAKE_EXPERIMENT); a whole run goes, as every assignment's, into
# runs/<gpu>/ (runs/fake-gpu-80gb/: the CSV's device column, FAKE_DEVICE), never into results/;
# `make profile` is the assignments' own staged rule too (after common/scripts/ncu_profile.sh --check),
# its profile-experiments the same script writing profile.csv (into runs/<gpu>/ too).
# results/ holds three "committed" CSVs (the reference, which no job may change); a README gives
# it a report number (common/scripts/assignments.sh).
set -eu
dir=$1 name=$2
mkdir -p "$dir/$name/bin" "$dir/$name/results"
cat >"$dir/$name/Makefile" <<MK
# Stand-in made by slurm/tests/fake_assignment.sh.
NAME := $name
# No sources (bin/$name is a script): not the default main.cu, ${name}_kernels.cu, ${name}_cpu.cpp.
CU_SRCS :=
CPP_SRCS :=
include ../common/assignment.mk
report-experiments:
	bash ../slurm/tests/fake_experiment.sh $name
profile-experiments:
	bash ../slurm/tests/fake_experiment.sh $name profile.csv
MK
printf '#!/bin/sh\necho "stand-in for %s"\n' "$name" >"$dir/$name/bin/$name"
chmod +x "$dir/$name/bin/$name"
touch -d '2000-01-01' "$dir/$name/bin/$name"
printf 'assignment,n,ms\n%s,1,0.25\n%s,2,0.5\n' "$name" "$name" >"$dir/$name/results/table.csv"
printf 'assignment,version,kernel,n,metric,unit,value,device,ncu_version\n%s,1,k,1,dram__bytes.sum,byte,1,committed GPU,2025.1\n' "$name" >"$dir/$name/results/profile.csv"
printf 'assignment,device\n%s,committed GPU\n' "$name" >"$dir/$name/results/device.csv"
echo "# $name (stand-in), report 001" >"$dir/$name/README.md"
