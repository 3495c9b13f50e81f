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
view=
tmux_server=pulsebar-demo-$$
socket_dir=
# However the demo ends (q, Ctrl-C, SIGTERM, or SIGHUP when its terminal closes, which ends
# make, this script and the tmux client but nothing else), nothing of it is left running:
# the view, the tmux server, the player loop and the private server are stopped here.
cleanup() {
    [ -n "$view" ] && kill -TERM "$view" 2>/dev/null || true
    env -u TMUX tmux -L "$tmux_server" kill-server 2>/dev/null || true
    # The player loop runs in a session of its own: killing its process group stops the
    # paplay inside it too, not only the loop around it.
    [ -n "$player" ] && kill -TERM -- "-$player" 2>/dev/null || true
    "$here/private-pulse.sh" stop >/dev/null 2>&1 || true
    [ -z "$socket_dir" ] || rm -rf "$socket_dir"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
# The view runs in the background and the script waits for it, so a signal's trap runs at
# once (a foreground child would be waited for first: `run` takes SIGHUP as a reload). It
# keeps the terminal: without job control it shares this process group, and fd 3 is stdin.
exec 3<&0
in_view() {
    "$@" <&3 &
    view=$!
    wait "$view" || true
    view=
}
# Loop the track into the default sink in the background.
setsid sh -c 'while :; do paplay "$1" 2>/dev/null || exit 0; done' sh "$track" &
player=$!

if [ -t 1 ] && command -v tmux >/dev/null 2>&1; then
    # The full-screen view on top and, under it, what a Waybar module shows: a client of the
    # view's own socket. A tmux server of its own, so it inherits this environment (the
    # private server's PULSE_SERVER) and goes away with the demo.
    echo "pulsebar demo: the default sink's monitor, full-screen view with the Waybar line under it (q quits)"
    sleep 1
    socket_dir=$(mktemp -d)
    sock="$socket_dir/pulsebar.sock"
    in_view env -u TMUX tmux -L "$tmux_server" -f /dev/null \
        new-session -s demo "\"$bin\" run --foreground --bars 32 --channels stereo --socket \"$sock\"; tmux -L $tmux_server kill-server" \; \
        set-option -g status off \; \
        split-window -v -l 3 "echo 'pulsebar listen --format waybar:'; sleep 0.5; exec \"$bin\" listen --socket \"$sock\" --format waybar --fps 10 2>/dev/null" \; \
        select-pane -t 0
elif [ -t 1 ]; then
    echo "pulsebar demo: the default sink's monitor, full-screen view (q quits)"
    sleep 1
    in_view "$bin" run --foreground --bars 32 --channels stereo
else
    echo "pulsebar demo: the default sink's monitor as text frames for $seconds s"
    in_view timeout "$seconds" "$bin" run --bars 16 --format text
fi
cat <<EOT

That was pulsebar. To put it in your status bar:
  make install                                    # pulsebar, its systemd user units, a config
  systemctl --user enable --now pulsebar.socket   # the daemon starts at the first connection
  pulsebar listen --format waybar                 # what the bar runs: see config/examples/
EOT
