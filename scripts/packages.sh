#!/bin/sh
# packages.sh KIND "PKGCONFIG-MODULES" PACKAGE...: makes sure the Debian packages a make
# target needs are there, touching nothing else.
#
#   build  the build libraries: done when pkg-config finds every module; otherwise
#          apt-get installs the packages on Debian, or their names are printed and it stops.
#   apt    extra packages (make demo): installed with apt-get when missing.
#   test   the test stack (make test, CI): like apt, but never the other audio server on a
#          desktop that runs one: `pulseaudio` is left out where pipewire-pulse is installed
#          and pulseaudio is not (a PipeWire desktop), and the PipeWire packages where
#          pulseaudio is installed and pipewire-pulse is not (a PulseAudio desktop); their
#          user units conflict. With neither (CI, a fresh machine) or both, both are installed:
#          Debian 12 installs them side by side.
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
pipewire_desktop=no
pulseaudio_desktop=no
left_out=
if command -v dpkg-query >/dev/null 2>&1; then
    if installed pipewire-pulse && ! installed pulseaudio; then pipewire_desktop=yes; fi
    if installed pulseaudio && ! installed pipewire-pulse; then pulseaudio_desktop=yes; fi
fi
for package in "$@"; do
    if [ "$kind" = test ] && [ "$package" = pulseaudio ] && [ $pipewire_desktop = yes ]; then
        echo "packages: sound runs through pipewire-pulse here; not installing pulseaudio" \
            "(the tests skip the PulseAudio half)"
        continue
    fi
    if [ "$kind" = test ] && [ $pulseaudio_desktop = yes ]; then
        case $package in
        pipewire | pipewire-bin | wireplumber | pipewire-pulse)
            left_out="$left_out $package"
            continue
            ;;
        esac
    fi
    if command -v dpkg-query >/dev/null 2>&1 && installed "$package"; then
        continue
    fi
    missing="$missing $package"
done
if [ -n "$left_out" ]; then
    echo "packages: sound runs through pulseaudio here; not installing$left_out" \
        "(the tests skip the PipeWire half; install them yourself to run it)"
fi
[ -z "$missing" ] && exit 0
if [ "${APT:-yes}" = no ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "pulsebar needs:$missing" >&2
    if [ "$kind" = build ]; then
        echo "  (Debian names; elsewhere install the development packages of libpulse," >&2
        echo "   libpipewire 0.3, fftw3 single precision (fftw3f), libsndfile, libsystemd," >&2
        echo "   libjpeg-turbo (turbojpeg) and libpng 1.6, and pkg-config)" >&2
    fi
    echo "  install them, then run make again" >&2
    exit 1
fi
echo "Installing:$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
