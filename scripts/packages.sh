#!/bin/sh
# packages.sh KIND "PKGCONFIG-MODULES" PACKAGE...: makes sure the Debian packages a make
# target needs are there, touching nothing else.
#
#   build  the build libraries: done when pkg-config finds every module; otherwise
#          apt-get installs the packages on Debian, or their names are printed and it stops.
#   apt    extra packages (make demo): installed with apt-get when missing.
#   test   the test stack (make test, CI): like apt, but `pulseaudio` is left out where
#          pipewire-pulse is installed (on Debian 12 it would replace the desktop's audio).
#
# APT=no skips apt-get: missing packages are named and it stops. SUDO is prepended to
# apt-get (empty when root).
set -eu
kind=$1
modules=$2
shift 2

if [ "$kind" = build ] && command -v pkg-config >/dev/null 2>&1 \
    && pkg-config --exists $modules 2>/dev/null; then
    exit 0
fi
installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"
}
missing=
for package in "$@"; do
    if [ "$kind" = test ] && [ "$package" = pulseaudio ] && installed pipewire-pulse; then
        echo "packages: pipewire-pulse is installed; not installing pulseaudio (it would replace it)"
        continue
    fi
    if command -v dpkg-query >/dev/null 2>&1 && installed "$package"; then
        continue
    fi
    missing="$missing $package"
done
[ -z "$missing" ] && exit 0
if [ "${APT:-yes}" = no ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "pulsebar needs:$missing" >&2
    if [ "$kind" = build ]; then
        echo "  (Debian names; elsewhere install the development packages of libpulse," >&2
        echo "   fftw3 single precision (fftw3f) and libsndfile, and pkg-config)" >&2
    fi
    echo "  install them, then run make again" >&2
    exit 1
fi
echo "Installing:$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
