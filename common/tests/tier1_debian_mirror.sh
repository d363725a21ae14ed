# Tier 1: debian_mirror.sh finds the Debian archive in an apt configuration (deb822 and
# one-line forms, the release's own suite and not -security), says so in one line when there
# is none, and CW_DEBIAN_MIRROR overrides it. Fixtures only: the machine's apt is not read.
dm_etc=$CW_TEST_TMP/apt-etc dm_os=$CW_TEST_TMP/os-release
mkdir -p "$dm_etc/sources.list.d"
echo 'VERSION_CODENAME=bookworm' >"$dm_os"
cat >"$dm_etc/sources.list.d/a.sources" <<'SRC'
Types: deb
URIs: http://mirror.invalid/debian-security
Suites: bookworm-security
Components: main

Types: deb-src deb
URIs: http://mirror.invalid/debian/ http://second.invalid/debian
Suites: bookworm bookworm-updates
Components: main
SRC
t_run env CW_APT_ETC="$dm_etc" CW_OS_RELEASE="$dm_os" bash scripts/debian_mirror.sh
[ "$T_STATUS" -eq 0 ] && [ "$(cat "$T_OUT")" = "http://mirror.invalid/debian" ]
t_verdict "debian_mirror: the release's deb822 source, first URI, no trailing slash (not -security)" "$T_OUT"
rm "$dm_etc/sources.list.d/a.sources"
printf '%s\n' '# deb http://commented.invalid/debian bookworm main' \
  'deb [arch=amd64 signed-by=/k.gpg] http://sec.invalid/debian-security bookworm-security main' \
  'deb http://line.invalid/debian bookworm main contrib' >"$dm_etc/sources.list"
t_run env CW_APT_ETC="$dm_etc" CW_OS_RELEASE="$dm_os" bash scripts/debian_mirror.sh
[ "$T_STATUS" -eq 0 ] && [ "$(cat "$T_OUT")" = "http://line.invalid/debian" ]
t_verdict "debian_mirror: the release's one-line source (options and comments skipped)" "$T_OUT"
rm "$dm_etc/sources.list"
t_run env CW_APT_ETC="$dm_etc" CW_OS_RELEASE="$dm_os" bash scripts/debian_mirror.sh
[ "$T_STATUS" -eq 1 ] && [ ! -s "$T_OUT" ] && [ "$(wc -l <"$T_ERR")" -eq 1 ] && grep -q "no 'deb' source for bookworm" "$T_ERR"
t_verdict "debian_mirror: no source for the release is one line and exit 1" "$T_ERR"
t_run env CW_APT_ETC="$dm_etc" CW_OS_RELEASE="$dm_os" CW_DEBIAN_MIRROR=http://given.invalid/debian/ bash scripts/debian_mirror.sh
[ "$T_STATUS" -eq 0 ] && [ "$(cat "$T_OUT")" = "http://given.invalid/debian" ]
t_verdict "debian_mirror: CW_DEBIAN_MIRROR overrides the apt configuration" "$T_OUT"
