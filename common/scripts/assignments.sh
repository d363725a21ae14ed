#!/usr/bin/env bash
# The one list of assignments: the folders whose Makefile includes ../common/assignment.mk,
# in the order of the reports. Prints them on one line, space-separated.
#   bash common/scripts/assignments.sh            (from anywhere)
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
grep -l '^include \.\./common/assignment\.mk' */Makefile 2>/dev/null |
  while read -r mk; do
    d=${mk%/Makefile}
    # order: the report number in the assignment's README title ("report 000"), then name
    key=$(grep -m1 -o 'report 00[0-9]' "$d/README.md" 2>/dev/null | tr -dc 0-9)
    printf '%s %s\n' "${key:-999}" "$d"
  done | sort | awk '{print $2}' | xargs
