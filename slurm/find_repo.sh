# >>> find the repository (a copy of slurm/find_repo.sh, the one source of this block: edit it
# there, then `make -C slurm sync-find-repo`; `make -C slurm test` checks every copy is identical).
# Slurm runs a copy of this script, so its own path means nothing in a job and it cannot
# source anything before it knows where the repository is: look up from the submit
# directory, then from the path it was submitted with.
cw_find_repo() {
  local d
  for d in "$@"; do
    while [ -n "$d" ] && [ "$d" != / ] && [ "$d" != . ]; do
      [ -f "$d/slurm/lib.sh" ] && cd "$d" && return 0
      d=$(dirname "$d")
    done
  done
  return 1
}
cw_find_repo "${CW_REPO:-}" "${SLURM_SUBMIT_DIR:-}" \
  "$([ -n "${SLURM_JOB_ID:-}" ] && scontrol show job "$SLURM_JOB_ID" 2>/dev/null | sed -n 's/^ *Command=\([^ ]*\).*/\1/p')" \
  "$(cd "$(dirname "$0")" && pwd)" || { echo "cannot find the repository: set CW_REPO=/path/to/it" >&2; exit 2; }
# shellcheck source=lib.sh
. slurm/lib.sh
# <<< find the repository
