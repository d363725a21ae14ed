#!/usr/bin/env bash
# The Debian archive this machine's own apt configuration uses, printed as one URI (no
# trailing slash), so that nothing in the repository names a package mirror's host:
#   bash common/scripts/debian_mirror.sh            (CI's non-free source, cuda12_prefix.sh's trixie)
# It reads the deb822 files (/etc/apt/sources.list.d/*.sources) and the one-line files
# (/etc/apt/sources.list, /etc/apt/sources.list.d/*.list) and takes the first binary ("deb")
# source whose suite is the machine's release itself (not -security or -updates).
# CW_DEBIAN_MIRROR overrides it. Exit 1 with one line when no such source exists.
set -uo pipefail
if [ -n "${CW_DEBIAN_MIRROR:-}" ]; then echo "${CW_DEBIAN_MIRROR%/}"; exit 0; fi
etc=${CW_APT_ETC:-/etc/apt}
codename=$(. "${CW_OS_RELEASE:-/etc/os-release}" 2>/dev/null && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || { echo "debian_mirror: cannot read VERSION_CODENAME from /etc/os-release" >&2; exit 1; }
uri=$(
  {
    for f in "$etc"/sources.list.d/*.sources; do [ -f "$f" ] && { cat "$f"; echo; }; done |
      awk -v want="$codename" '
        function flush() { if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " want " ") && uris != "") { split(uris, u, " "); print u[1] } types = suites = uris = "" }
        /^[ \t]*$/ { flush(); next }
        /^#/ { next }
        tolower($1) == "types:"  { $1 = ""; types = $0 }
        tolower($1) == "suites:" { $1 = ""; suites = $0 }
        tolower($1) == "uris:"   { $1 = ""; uris = $0; sub(/^ +/, "", uris) }
        END { flush() }'
    cat "$etc"/sources.list "$etc"/sources.list.d/*.list 2>/dev/null |
      sed -e 's/#.*//' -e 's/\[[^]]*\]//' |
      awk -v want="$codename" '$1 == "deb" && $3 == want { print $2 }'
  } | sed -n '1{s#/*$##;p}'
)
[ -n "$uri" ] || { echo "debian_mirror: no 'deb' source for $codename in $etc (set CW_DEBIAN_MIRROR)" >&2; exit 1; }
echo "$uri"
