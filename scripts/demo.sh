#!/bin/sh
# `make demo`: pulsebar on the real audio path.
#
# Where a PulseAudio (or PipeWire's pipewire-pulse) server runs, pulsebar shows
# what the desktop plays, and the demo track plays into the default sink so
# there is something to see. Where none runs (a fresh machine, ssh, CI), a
# private server with a null sink is started for the demo and stopped after.
# In a terminal the full-screen view runs (q quits); otherwise text frames.
set -eu
bin=${1:-.build/release/pulsebar}
here=$(cd "$(dirname "$0")" && pwd)
track=${TMPDIR:-/tmp}/pulsebar-demo.wav
seconds=${PULSEBAR_DEMO_SECONDS:-30}
[ -e "$track" ] || "$here/make-demo-track.sh" "$track" 30

eval "$("$here/private-pulse.sh" start)"
player=
cleanup() {
    # The player loop runs in a session of its own: killing its process group stops the
    # paplay inside it too, not only the loop around it.
    [ -n "$player" ] && kill -TERM -- "-$player" 2>/dev/null || true
    "$here/private-pulse.sh" stop >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# Loop the track into the default sink in the background.
setsid sh -c 'while :; do paplay "$1" 2>/dev/null || exit 0; done' sh "$track" &
player=$!

if [ -t 1 ]; then
    echo "pulsebar demo: the default sink's monitor, full-screen view (q quits)"
    sleep 1
    "$bin" run --foreground --bars 32 --channels stereo || true
else
    echo "pulsebar demo: the default sink's monitor as text frames for $seconds s"
    timeout "$seconds" "$bin" run --bars 16 --format text || true
fi
cat <<EOT

That was pulsebar. To put it in your status bar:
  make install                                    # pulsebar, its systemd user units, a config
  systemctl --user enable --now pulsebar.socket   # the daemon starts at the first connection
  pulsebar listen --format waybar                 # what the bar runs: see config/examples/
EOT
