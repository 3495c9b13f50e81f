#!/usr/bin/env bash
# dist-test.sh [REPORT]: the release tarball end to end, as a user of another distribution gets
# it (CI runs it after the Debian package test; `make dist-test`). Builds it (`make dist`),
# checks the binary's ELF floor (packaging/elf-floor: the sonames it may need and the highest
# symbol version of each library; README states the same), unpacks it, installs it into a
# fresh prefix with its install.sh (a user one, and a staged system one with DESTDIR), and runs
# the installed pulsebar with no Swift toolchain on PATH: --version, check-config, frames from a
# real private PulseAudio, `systemd-analyze --user verify` of the installed units. Then the
# Arch packages: each PKGBUILD's .SRCINFO against `makepkg --printsrcinfo`, and pulsebar-bin
# built with the real makepkg, its file list and .PKGINFO checked; and the RPM built with
# rpmbuild -bb, its file list, Requires and scriptlets checked with rpm -qlp, -qRp and --scripts,
# and rpmlint on the spec and the package. Every package's installed README links resolve
# (scripts/doc-links.sh). Then `make demo` ended four ways leaves nothing running
# (scripts/demo-test.sh).
#
# Needs root (it adds an unprivileged user for makepkg) and what `make test-deps` installs.
# Every failure is one line "dist-test: FAIL: ..." on stderr (and in REPORT, when given); the
# exit status is 1 when any check failed.
set -uo pipefail
cd "$(dirname "$0")/.."
report=${1:-}
# shellcheck source=scripts/check-report.sh
. scripts/check-report.sh
check_report dist-test "$report"
version=$(cat VERSION)
machine=$(uname -m)
name=pulsebar-$version-linux-$machine
tarball=dist/$name.tar.gz
work=$(mktemp -d)
chmod 755 "$work"
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# --- Build -------------------------------------------------------------------------------
step "make dist"
rm -f "$tarball" "$tarball.sha256"
if ! make dist >"$work/build.log" 2>&1; then
  tail -n 20 "$work/build.log" >&2
  fail "make dist failed (its last lines are above)"
  finish
fi
step "$(tail -n 1 "$work/build.log")"
[ -f "$tarball" ] && [ -f "$tarball.sha256" ] || {
  fail "make dist did not write $tarball and $tarball.sha256"
  finish
}
(cd dist && sha256sum --quiet -c "$name.tar.gz.sha256") || fail "$tarball.sha256 does not match"

# --- The ELF floor -----------------------------------------------------------------------
# packaging/elf-floor: "needed SONAME" for each library the binary may need, "version LIBRARY
# PREFIX_X.Y" for the highest symbol version it may ask of each. More needed libraries, or a
# higher version, fail: the tarball would no longer run where the README says it does.
binary=.build/release/pulsebar
readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort >"$work/needed"
sed -n 's/^needed //p' packaging/elf-floor | sort >"$work/needed.floor"
while read -r soname; do
  fail "ELF floor: $binary needs $soname, not in packaging/elf-floor"
done < <(comm -23 "$work/needed" "$work/needed.floor")
# Each version the binary asks of a library (readelf -V's .gnu.version_r), its highest one.
readelf -V "$binary" | awk '{ for (i = 1; i < NF; i++) { if ($i == "File:") file = $(i + 1); if ($i == "Name:" && file != "") print file, $(i + 1) } }' |
  sort -u >"$work/versions"
while read -r library floor; do
  prefix=${floor%_*}
  highest=$(awk -v l="$library" -v p="$prefix" '$1 == l && index($2, p "_") == 1 { print $2 }' "$work/versions" |
    sort -V | tail -n 1)
  [ -n "$highest" ] || continue
  if [ "$(printf '%s\n%s\n' "$highest" "$floor" | sort -V | tail -n 1)" != "$floor" ]; then
    fail "ELF floor: $binary asks $library for $highest, above packaging/elf-floor's $floor"
  fi
done < <(sed -n 's/^version //p' packaging/elf-floor)
while read -r library symbol_version; do
  grep -q "^version $library ${symbol_version%_*}_" packaging/elf-floor ||
    fail "ELF floor: $binary asks $library for $symbol_version; packaging/elf-floor has no floor for it"
done <"$work/versions"
# README states the floor: the glibc version and every soname.
glibc_floor=$(sed -n 's/^version libc.so.6 GLIBC_//p' packaging/elf-floor)
grep -q "glibc $glibc_floor" README.md || fail "README does not state the floor glibc $glibc_floor"
while read -r soname; do
  grep -qF "$soname" README.md || fail "README does not name $soname (packaging/elf-floor)"
done <"$work/needed.floor"
glibc=$(awk '$2 ~ /^GLIBC_/ { print $2 }' "$work/versions" | sort -V | tail -n 1)
step "ELF floor: needs $(tr '\n' ' ' <"$work/needed")(glibc up to $glibc)"

# --- Install from the tarball ------------------------------------------------------------
home=$work/home
mkdir -p "$home/run"
chmod 700 "$home/run"
tar -xzf "$tarball" -C "$work" || fail "tar -xzf $tarball failed"
prefix=$home/.local
bare() {
  env -i PATH="$prefix/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME="$home" XDG_RUNTIME_DIR="$home/run" \
    LANG=C.UTF-8 "$@"
}
if bare sh -c 'command -v swift' >/dev/null; then
  fail "swift is on the bare PATH ($(bare sh -c 'command -v swift')): the run below proves nothing"
fi
if ! bare "$work/$name/install.sh" >"$work/install.log" 2>&1; then
  fail "install.sh (PREFIX=~/.local) failed: $(tail -n 1 "$work/install.log")"
  finish
fi
units=("$prefix/share/systemd/user/pulsebar.service" "$prefix/share/systemd/user/pulsebar.socket")
for file in "$prefix/bin/pulsebar" "$prefix/share/man/man1/pulsebar.1" \
  "$prefix/share/bash-completion/completions/pulsebar" "$prefix/share/zsh/site-functions/_pulsebar" \
  "$prefix/share/fish/vendor_completions.d/pulsebar.fish" "${units[@]}" \
  "$prefix/share/doc/pulsebar/examples/pulsebar.conf" "$prefix/share/doc/pulsebar/examples/waybar-config.jsonc" \
  "$prefix/share/doc/pulsebar/LICENSE" "$prefix/share/doc/pulsebar/README.md" \
  "$prefix/share/doc/pulsebar/docs/INSTALL.md" "$prefix/share/doc/pulsebar/docs/RECIPES.md"; do
  [ -f "$file" ] || fail "install.sh did not install ${file#"$home"/}"
done
# Every link of the installed README (and of the documents it links) resolves there.
while read -r line; do fail "install.sh: $line"; done < <(scripts/doc-links.sh "$prefix/share/doc/pulsebar")
# A staged system install: DESTDIR prefixes every path, ExecStart names the final one.
bare "$work/$name/install.sh" DESTDIR="$work/stage" PREFIX=/usr >/dev/null 2>&1 ||
  fail "install.sh DESTDIR=... PREFIX=/usr failed"
grep -q '^ExecStart=/usr/bin/pulsebar ' "$work/stage/usr/lib/systemd/user/pulsebar.service" 2>/dev/null ||
  fail "install.sh DESTDIR=... PREFIX=/usr: no /usr/lib/systemd/user/pulsebar.service running /usr/bin/pulsebar"
[ -x "$work/stage/usr/bin/pulsebar" ] || fail "install.sh DESTDIR=... PREFIX=/usr: no usr/bin/pulsebar"
step "install.sh: $(find "$prefix" -type f | wc -l) files in ~/.local, $(find "$work/stage" -type f | wc -l) staged in /usr"

# --- The installed binary, without the toolchain ------------------------------------------
if ldd "$prefix/bin/pulsebar" | grep -E 'swift|not found' >"$work/ldd"; then
  fail "the installed pulsebar loads $(tr -s ' \t\n' ' ' <"$work/ldd")"
fi
printed=$(bare pulsebar --version 2>&1)
[ "$printed" = "pulsebar $version" ] || fail "pulsebar --version printed '$printed', not 'pulsebar $version'"
example=$prefix/share/doc/pulsebar/examples/pulsebar.conf
checked=$(bare pulsebar check-config "$example" 2>&1) || fail "pulsebar check-config $example: $checked"

# Frames from a real private PulseAudio server (a null sink, a tone played into it).
server=$work/pulse
mkdir -p "$server"
cat >"$server/server.pa" <<PA
load-module module-native-protocol-unix auth-anonymous=1 socket=$server/native
load-module module-null-sink sink_name=dist_sink
set-default-sink dist_sink
PA
env HOME="$server" XDG_RUNTIME_DIR="$server" PULSE_RUNTIME_PATH="$server/runtime" \
  PULSE_STATE_PATH="$server/state" pulseaudio -n -F "$server/server.pa" --daemonize=no \
  --exit-idle-time=-1 --system=false --use-pid-file=no --log-target=file:"$server/log" \
  >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 50); do
  PULSE_SERVER=unix:$server/native pactl info >/dev/null 2>&1 && break
  sleep 0.1
done
if ! PULSE_SERVER=unix:$server/native pactl info >/dev/null 2>&1; then
  fail "the private PulseAudio server did not start: $(tail -n 1 "$server/log" 2>/dev/null)"
else
  sox -n -r 44100 -c 2 "$work/tone.wav" synth 8 sine 440 2>/dev/null
  PULSE_SERVER=unix:$server/native paplay "$work/tone.wav" &
  player=$!
  bare env PULSE_SERVER="unix:$server/native" timeout 4 pulsebar --input pulse --format json \
    >"$work/frames" 2>"$work/frames.err"
  kill "$player" 2>/dev/null
  wait "$player" 2>/dev/null
  playing=$(grep -c '"state":"playing"' "$work/frames")
  [ "$playing" -ge 30 ] ||
    fail "pulsebar --input pulse: $playing playing frames in 4 s, not ~200: $(tail -n 1 "$work/frames.err")"
  step "pulsebar --input pulse: $(wc -l <"$work/frames") frames, $playing of them playing"
fi

# The installed units: ExecStart is the prefix's binary; systemd-analyze verify is silent
# (Documentation=man:pulsebar(1) finds the man page through PATH's prefix).
grep -q "^ExecStart=$prefix/bin/pulsebar " "${units[0]}" ||
  fail "${units[0]}: ExecStart is not $prefix/bin/pulsebar: $(grep '^ExecStart=' "${units[0]}")"
if bare systemd-analyze --user verify "${units[@]}" >"$work/verify.log" 2>&1 && [ ! -s "$work/verify.log" ]; then
  step "systemd-analyze --user verify: the installed units are clean"
else
  while read -r line; do fail "systemd-analyze --user verify: $line"; done <"$work/verify.log"
  [ -s "$work/verify.log" ] || fail "systemd-analyze --user verify failed without a word"
fi
bare "$work/$name/install.sh" uninstall >/dev/null 2>&1 || fail "install.sh uninstall failed"
left=$(find "$prefix" -type f | wc -l)
[ "$left" -eq 0 ] || fail "install.sh uninstall left $left files: $(find "$prefix" -type f | head -n 3 | tr '\n' ' ')"

# --- Arch: the PKGBUILDs, pulsebar-bin built with the real makepkg --------------------------
# makepkg refuses root: an unprivileged user builds, in a copy it owns. --nodeps: Arch's
# packages are not installed here. The checked-in sha256sums say SKIP until a release fills
# them in (docs/INSTALL.md); the copy gets this tarball's, which makepkg then verifies.
builder=pulsebar-build
if ! id -u "$builder" >/dev/null 2>&1; then
  useradd --system --create-home --shell /usr/sbin/nologin "$builder" ||
    fail "useradd $builder failed"
fi
as_builder() { runuser -u "$builder" -- env HOME="$(getent passwd "$builder" | cut -d: -f6)" "$@"; }
for pkgbuild in packaging/arch/*/PKGBUILD; do
  directory=$work/arch/$(basename "$(dirname "$pkgbuild")")
  mkdir -p "$directory"
  cp "$pkgbuild" "$directory/"
  chown -R "$builder" "$work/arch"
  if ! (cd "$directory" && as_builder makepkg --printsrcinfo) >"$directory/srcinfo" 2>"$directory/srcinfo.err"; then
    fail "makepkg --printsrcinfo $pkgbuild: $(tail -n 1 "$directory/srcinfo.err")"
  elif ! diff -u "$(dirname "$pkgbuild")/.SRCINFO" "$directory/srcinfo" >"$directory/srcinfo.diff"; then
    fail "$(dirname "$pkgbuild")/.SRCINFO differs from makepkg --printsrcinfo: $(grep '^[-+][^-+]' "$directory/srcinfo.diff" | tr '\n' ' ')"
  fi
done
bin=$work/arch/pulsebar-bin
sum=$(cut -d' ' -f1 "$tarball.sha256")
cp "$tarball" "$bin/"
sed -i "s/^sha256sums=('SKIP')$/sha256sums=('$sum')/" "$bin/PKGBUILD"
grep -q "$sum" "$bin/PKGBUILD" || fail "packaging/arch/pulsebar-bin/PKGBUILD: no sha256sums=('SKIP') line to fill in"
chown -R "$builder" "$bin"
if (cd "$bin" && as_builder makepkg --nodeps --noconfirm --noprogressbar) >"$work/makepkg.log" 2>&1; then
  package=$(ls "$bin"/pulsebar-bin-"$version"-1-x86_64.pkg.tar.* 2>/dev/null | head -n 1)
  if [ -z "$package" ]; then
    fail "makepkg wrote no pulsebar-bin-$version-1-x86_64.pkg.tar.*: $(ls "$bin" | tr '\n' ' ')"
  else
    bsdtar -tf "$package" | sort >"$work/arch.files"
    bsdtar -xOf "$package" .PKGINFO >"$work/PKGINFO"
    for file in usr/bin/pulsebar usr/lib/systemd/user/pulsebar.service usr/lib/systemd/user/pulsebar.socket \
      usr/share/man/man1/pulsebar.1.gz usr/share/bash-completion/completions/pulsebar \
      usr/share/zsh/site-functions/_pulsebar usr/share/fish/vendor_completions.d/pulsebar.fish \
      usr/share/doc/pulsebar/examples/pulsebar.conf usr/share/licenses/pulsebar-bin/LICENSE \
      usr/share/doc/pulsebar/README.md usr/share/doc/pulsebar/docs/PIPEWIRE.md; do
      grep -qx "$file" "$work/arch.files" || fail "the Arch package has no $file"
    done
    # The license once, where Arch keeps licenses (namcap is not in Debian: this is its check).
    grep -qx usr/share/doc/pulsebar/LICENSE "$work/arch.files" &&
      fail "the Arch package has the LICENSE under /usr/share/doc too"
    mkdir -p "$work/arch-root"
    bsdtar -xf "$package" -C "$work/arch-root" usr/share/doc
    while read -r line; do fail "the Arch package: $line"; done < <(scripts/doc-links.sh "$work/arch-root/usr/share/doc/pulsebar")
    grep -vE '^(\.|usr/)' "$work/arch.files" | grep -q . &&
      fail "the Arch package installs outside /usr: $(grep -vE '^(\.|usr/)' "$work/arch.files" | head -n 3 | tr '\n' ' ')"
    for line in "depend = libpipewire" "depend = fftw" "depend = systemd-libs" "license = MIT" \
      "optdepend = libpulse: the libpulse input (PulseAudio, pipewire-pulse)" \
      "optdepend = libsndfile: the file: input" \
      "optdepend = libjpeg-turbo: album art colours from JPEG covers (colors.from_art)" \
      "optdepend = libpng: album art colours from PNG covers (colors.from_art)" \
      "provides = pulsebar=$version" "arch = x86_64"; do
      grep -qxF "$line" "$work/PKGINFO" || fail "the Arch package's .PKGINFO lacks '$line'"
    done
    # The client library, not the PipeWire daemon.
    grep -qxF "depend = pipewire" "$work/PKGINFO" && fail "the Arch package depends on the pipewire daemon"
    bsdtar -xOf "$package" usr/lib/systemd/user/pulsebar.service | grep -q '^ExecStart=/usr/bin/pulsebar ' ||
      fail "the Arch package's pulsebar.service does not run /usr/bin/pulsebar"
    step "makepkg: $(basename "$package"), $(grep -c . "$work/arch.files") entries; .PKGINFO depends on $(sed -n 's/^depend = //p' "$work/PKGINFO" | tr '\n' ' ')"
  fi
else
  while read -r line; do fail "makepkg: $line"; done < <(grep -E 'ERROR|error' "$work/makepkg.log" | head -n 5)
  grep -qE 'ERROR|error' "$work/makepkg.log" || fail "makepkg failed: $(tail -n 1 "$work/makepkg.log")"
fi

# --- RPM: packaging/rpm/pulsebar.spec built with rpmbuild -bb --------------------------------
rpmtop=$work/rpm
mkdir -p "$rpmtop/SOURCES"
cp "$tarball" "$rpmtop/SOURCES/"
# --nodeps: BuildRequires (systemd-rpm-macros) name Fedora's packages, not in Debian's rpm
# database; the spec carries the user-unit scriptlets' fallback for an rpm without them.
if rpmbuild -bb --nodeps --define "_topdir $rpmtop" packaging/rpm/pulsebar.spec >"$work/rpmbuild.log" 2>&1; then
  rpm=$(ls "$rpmtop"/RPMS/x86_64/pulsebar-"$version"-1*.x86_64.rpm 2>/dev/null | head -n 1)
  if [ -z "$rpm" ]; then
    fail "rpmbuild wrote no pulsebar-$version-1*.x86_64.rpm"
  else
    rpm -qlp "$rpm" 2>/dev/null | sort >"$work/rpm.files"
    rpm -qRp "$rpm" 2>/dev/null | sort >"$work/rpm.requires"
    rpm -qp --recommends "$rpm" 2>/dev/null | sort >"$work/rpm.recommends"
    for file in /usr/bin/pulsebar /usr/lib/systemd/user/pulsebar.service /usr/lib/systemd/user/pulsebar.socket \
      /usr/share/man/man1/pulsebar.1 /usr/share/bash-completion/completions/pulsebar \
      /usr/share/zsh/site-functions/_pulsebar /usr/share/fish/vendor_completions.d/pulsebar.fish \
      /usr/share/doc/pulsebar/examples/pulsebar.conf /usr/share/licenses/pulsebar/LICENSE \
      /usr/share/doc/pulsebar/README.md /usr/share/doc/pulsebar/docs/WIDTHS.md; do
      # The man page as installed, or compressed (Fedora's and openSUSE's brp-compress).
      grep -qxE "$file(\.gz|\.xz|\.zst)?" "$work/rpm.files" || fail "the RPM has no $file"
    done
    # Every library the binary links, required by soname (as Fedora and openSUSE resolve them).
    while read -r soname; do
      case $soname in ld-linux-x86-64.so.2) soname="ld-linux-x86-64.so.2()(64bit)" ;; *) soname="$soname()(64bit)" ;; esac
      grep -qxF "$soname" "$work/rpm.requires" || fail "the RPM does not require $soname: $(tr '\n' ' ' <"$work/rpm.requires")"
    done <"$work/needed"
    for soname in "libpulse.so.0()(64bit)" "libsndfile.so.1()(64bit)" "libturbojpeg.so.0()(64bit)" \
      "libpng16.so.16()(64bit)"; do
      grep -qxF "$soname" "$work/rpm.recommends" || fail "the RPM does not recommend $soname"
    done
    grep -qx /usr/share/doc/pulsebar/LICENSE "$work/rpm.files" && fail "the RPM has the LICENSE under /usr/share/doc too"
    # The user units' scriptlets: preset at the first install, disabled at the last removal.
    rpm -qp --scripts "$rpm" 2>/dev/null >"$work/rpm.scripts"
    grep -qE '(preset|install-user-units).*pulsebar\.socket' "$work/rpm.scripts" || fail "the RPM has no %systemd_user_post"
    grep -qE '(disable|remove-user-units).*pulsebar\.socket' "$work/rpm.scripts" || fail "the RPM has no %systemd_user_preun"
    if ! rpmlint -r packaging/rpm/pulsebar.rpmlintrc packaging/rpm/pulsebar.spec "$rpm" >"$work/rpmlint.log" 2>&1; then
      while read -r line; do fail "rpmlint: $line"; done < <(grep -E ': [EW]: ' "$work/rpmlint.log")
      grep -qE ': [EW]: ' "$work/rpmlint.log" || fail "rpmlint failed: $(tail -n 1 "$work/rpmlint.log")"
    fi
    grep -E 'swift|libpulse|libsndfile' "$work/rpm.requires" | grep -q . &&
      fail "the RPM requires $(grep -E 'swift|libpulse|libsndfile' "$work/rpm.requires" | tr '\n' ' ')"
    step "rpmbuild: $(basename "$rpm"), $(wc -l <"$work/rpm.files") files, $(wc -l <"$work/rpm.requires") requires"
  fi
else
  while read -r line; do fail "rpmbuild: $line"; done < <(grep -iE 'error' "$work/rpmbuild.log" | head -n 5)
  grep -qiE 'error' "$work/rpmbuild.log" || fail "rpmbuild failed: $(tail -n 1 "$work/rpmbuild.log")"
fi

# --- make demo: nothing left running however it ends ----------------------------------------
# The release build make dist made; q, Ctrl-C, SIGTERM and a closed terminal (SIGHUP).
while read -r line; do fail "${line#demo-test: FAIL: }"; done < <(scripts/demo-test.sh .build/release/pulsebar 2>&1 >/dev/null)
step "make demo: ended by q, SIGINT, SIGTERM and SIGHUP, nothing left running"

finish
