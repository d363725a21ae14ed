# The one repository finder of the job scripts. Every slurm/*.sbatch starts with the same three
# lines (between "# >>> find the repository" and "# <<< find the repository": a job script
# cannot source anything before it knows where the repository is), which source this file from
# the first place it is found:
#   $CW_REPO                       set by hand: a repository elsewhere
#   the script's folder, then ..   a plain `bash slurm/x.sbatch` (no Slurm)
#   $SLURM_SUBMIT_DIR and up to three folders above it
#                                  `sbatch slurm/x.sbatch` from the repository root or from a
#                                  folder inside it: Slurm runs a copy of the script from its
#                                  spool folder, so the script's own path means nothing in a job
#   the path it was submitted with (scontrol show job: Command=), for an absolute path
#                                  submitted from outside the repository
# Here, sourced: make the repository (this file's folder's parent) the current directory and
# read the job helpers (lib.sh); CW_REPO_FOUND says it worked, and a failure returns 1 (the
# caller tries the next place).
# shellcheck shell=bash
if cd "$(dirname "${BASH_SOURCE[0]}")/.." 2>/dev/null && [ -f slurm/lib.sh ]; then
  # shellcheck disable=SC2034  # read by the job script that sourced this file
  CW_REPO_FOUND=$PWD
  # shellcheck source=lib.sh
  . slurm/lib.sh
  return 0
else
  return 1
fi
