#!/usr/bin/env bash
# package-test.sh [REPORT]: the Debian package end to end, as a user gets it (CI runs it after
# the suite; `make package-test`). Builds it (`make deb`), checks it with lintian, installs it
# with apt-get, runs the installed pulsebar with no Swift toolchain on PATH, verifies the
# installed user units, purges it and checks that nothing it installed is left.
#
# Needs root (apt-get), and what `make test-deps` installs (debhelper, dpkg-dev, lintian, sox,
# systemd, man-db). Every failure is one line "package-test: FAIL: ..." on stderr (and in
# REPORT, when given); the exit status is 1 when any check failed. Replaces an installed
# pulsebar package, and purges it at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
report=${1:-}
# shellcheck source=scripts/check-report.sh
. scripts/check-report.sh
check_report package-test "$report"

version=$(cat VERSION)
arch=$(dpkg --print-architecture)
deb=dist/pulsebar_${version}_${arch}.deb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$(id -u)" != 0 ]; then
  fail "needs root to install the package with apt-get"
  finish
fi

# --- Build -------------------------------------------------------------------------------
step "make deb"
rm -f dist/pulsebar_"$version"_* dist/pulsebar-dbgsym_"$version"_*
started=$(date +%s)
if ! make deb >"$work/build.log" 2>&1; then
  tail -n 20 "$work/build.log" >&2
  fail "make deb failed (its last lines are above)"
  finish
fi
step "built $deb in $(($(date +%s) - started)) s"
[ -f "$deb" ] || {
  fail "make deb did not write $deb"
  finish
}

# Every .deb of the build (the -dbgsym one too), through its .changes. Errors and warnings
# fail; an override must carry its reason in debian/pulsebar.lintian-overrides.
if lintian --fail-on error,warning \
  "dist/pulsebar_${version}_${arch}.changes" >"$work/lintian.log" 2>&1; then
  step "lintian: $(grep -c '^[EW]:' "$work/lintian.log") errors or warnings"
else
  while read -r line; do fail "lintian: $line"; done < <(grep -E '^[EW]:' "$work/lintian.log")
  grep -qE '^[EW]:' "$work/lintian.log" || fail "lintian failed: $(tail -n 1 "$work/lintian.log")"
fi

# --- Install -----------------------------------------------------------------------------
if dpkg-query -W -f='${Status}' pulsebar 2>/dev/null | grep -q "ok installed"; then
  step "purging the pulsebar package installed before"
  apt-get purge -y pulsebar >/dev/null 2>&1 || fail "apt-get purge of the old pulsebar failed"
fi
# _apt cannot read every checkout: apt then downloads as root and says so; nothing to fix.
if ! apt-get install -y "./$deb" >"$work/install.log" 2>&1; then
  tail -n 10 "$work/install.log" >&2
  fail "apt-get install ./$deb failed"
  finish
fi
step "installed $deb"
dpkg -L pulsebar >"$work/files"

# --- The installed binary, without the toolchain ------------------------------------------
home=$work/home
mkdir -p "$home/run"
chmod 700 "$home/run"
bare() {
  env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$home" XDG_RUNTIME_DIR="$home/run" \
    LANG=C.UTF-8 "$@"
}
if bare sh -c 'command -v swift' >/dev/null; then
  fail "swift is on the bare PATH ($(bare sh -c 'command -v swift')): the run below proves nothing"
fi
if ldd /usr/bin/pulsebar | grep -E 'swift|not found' >"$work/ldd"; then
  fail "/usr/bin/pulsebar loads $(tr -s ' \t\n' ' ' <"$work/ldd")"
fi
printed=$(bare pulsebar --version 2>&1)
[ "$printed" = "pulsebar $version" ] ||
  fail "pulsebar --version printed '$printed', not 'pulsebar $version'"
man_version=$(zcat /usr/share/man/man1/pulsebar.1.gz | sed -n 's/^\.TH .*"pulsebar \([^"]*\)".*/\1/p')
[ "$man_version" = "$version" ] ||
  fail "the installed man page names version '$man_version', not $version"

example=/usr/share/doc/pulsebar/examples/pulsebar.conf
if ! checked=$(bare pulsebar check-config "$example" 2>&1); then
  fail "pulsebar check-config $example: $checked"
fi
for snippet in polybar.ini i3blocks.conf waybar-config.jsonc eww.yuck fontconfig-cjk.conf now-playing.conf; do
  [ -f /usr/share/doc/pulsebar/examples/$snippet ] ||
    fail "/usr/share/doc/pulsebar/examples/$snippet is missing"
done
# README and the documents it links, every link resolving in the installed tree.
[ -f /usr/share/doc/pulsebar/README.md ] || fail "/usr/share/doc/pulsebar/README.md is missing"
while read -r line; do fail "$line"; done < <(scripts/doc-links.sh /usr/share/doc/pulsebar)

# Two seconds of a tone, played at its own pace: ~120 json frames at 60 fps, the last one
# two seconds of audio in.
if sox -n -r 44100 -c 2 "$work/tone.wav" synth 2 sine 440 2>"$work/sox.log"; then
  if bare timeout 20 pulsebar --input "file:$work/tone.wav" --format json \
    >"$work/frames" 2>"$work/frames.err"; then
    frames=$(wc -l <"$work/frames")
    last=$(tail -n 1 "$work/frames" | sed -n 's/.*"time":\([0-9.]*\).*/\1/p')
    [ "$frames" -ge 100 ] || fail "pulsebar --input file: wrote $frames frames for 2 s, not ~120"
    grep -q '"state":"playing"' "$work/frames" || fail "pulsebar --input file: never 'playing'"
    case $last in 1.9* | 2.*) ;; *) fail "pulsebar --input file: last frame at time '$last', not ~2 s" ;; esac
    step "pulsebar --input file: $frames frames, the last at ${last} s"
  else
    fail "pulsebar --input file:$work/tone.wav failed: $(tail -n 1 "$work/frames.err")"
  fi
else
  fail "sox could not make the test tone: $(tail -n 1 "$work/sox.log")"
fi

# The user units as installed: ExecStart is the package's binary, and systemd-analyze verify
# (which also runs `man pulsebar(1)` for Documentation=) loads them without a word. --user
# needs a runtime directory, not a running user manager: a private XDG_RUNTIME_DIR will do.
units=(/usr/lib/systemd/user/pulsebar.service /usr/lib/systemd/user/pulsebar.socket)
grep -q '^ExecStart=/usr/bin/pulsebar ' "${units[0]}" ||
  fail "${units[0]}: ExecStart is not /usr/bin/pulsebar: $(grep '^ExecStart=' "${units[0]}")"
if ! command -v systemd-analyze >/dev/null; then
  step "skipped: systemd-analyze verify (systemd-analyze is not installed: make test-deps)"
else
  if bare systemd-analyze --user verify "${units[@]}" >"$work/verify.log" 2>&1 &&
    [ ! -s "$work/verify.log" ]; then
    step "systemd-analyze --user verify: the installed units are clean"
  else
    while read -r line; do fail "systemd-analyze --user verify: $line"; done <"$work/verify.log"
    [ -s "$work/verify.log" ] || fail "systemd-analyze --user verify failed without a word"
  fi
fi

# Completions where each shell's vendor directory is.
for completion in /usr/share/bash-completion/completions/pulsebar \
  /usr/share/zsh/vendor-completions/_pulsebar /usr/share/fish/vendor_completions.d/pulsebar.fish; do
  [ -f "$completion" ] || fail "$completion is missing"
done
bare bash --norc -c 'source /usr/share/bash-completion/completions/pulsebar && complete -p pulsebar' \
  >/dev/null 2>&1 || fail "bash does not load /usr/share/bash-completion/completions/pulsebar"

# --- Purge -------------------------------------------------------------------------------
if ! apt-get purge -y pulsebar >"$work/purge.log" 2>&1; then
  tail -n 10 "$work/purge.log" >&2
  fail "apt-get purge -y pulsebar failed"
fi
# What dpkg listed is gone, but for directories another package still owns.
left=0
while read -r path; do
  [ "$path" = /. ] && continue
  [ -e "$path" ] || [ -L "$path" ] || continue
  if [ -d "$path" ] && [ ! -L "$path" ] && dpkg-query -S "$path" >/dev/null 2>&1; then continue; fi
  fail "left after purge: $path"
  left=$((left + 1))
done <"$work/files"
step "purged: $left of $(wc -l <"$work/files") listed paths left (directories other packages own aside)"
finish
