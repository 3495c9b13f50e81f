#!/bin/sh
# private-pulse.sh start|stop|env: a private PulseAudio server with one null sink,
# for `make demo` on machines where no server runs (CI, containers, ssh).
#
#   start  start one unless a server already answers; print the environment to use
#          (eval "$(scripts/private-pulse.sh start)")
#   env    print the environment for the private server if it runs (nothing otherwise)
#   stop   stop the private server and remove its directory
#
# The server listens on $DIR/native with anonymous access; its sink is
# pulsebar_demo (the default), so `paplay` and `pulsebar` find it through
# PULSE_SERVER. DIR defaults to ${TMPDIR:-/tmp}/pulsebar-demo-pulse-$(id -u).
set -eu

DIR=${PULSEBAR_PULSE_DIR:-${TMPDIR:-/tmp}/pulsebar-demo-pulse-$(id -u)}

running() {
    [ -f "$DIR/pid" ] && kill -0 "$(cat "$DIR/pid")" 2>/dev/null
}

print_env() {
    echo "PULSE_SERVER=unix:$DIR/native; export PULSE_SERVER"
}

case "${1:-}" in
start)
    if running; then
        print_env
        exit 0
    fi
    # A desktop's (or any reachable) server: use it as it is.
    if pactl info >/dev/null 2>&1; then
        exit 0
    fi
    # Only a server that is already installed: the demo never installs one.
    if ! command -v pulseaudio >/dev/null 2>&1; then
        echo "private-pulse.sh: no audio server answers and pulseaudio is not installed;" >&2
        echo "  start your desktop's audio server (pipewire-pulse or pulseaudio) and try again" >&2
        exit 1
    fi
    mkdir -p "$DIR"
    chmod 700 "$DIR"
    cat >"$DIR/server.pa" <<PA
load-module module-native-protocol-unix auth-anonymous=1 socket=$DIR/native
load-module module-null-sink sink_name=pulsebar_demo
set-default-sink pulsebar_demo
PA
    env HOME="$DIR" XDG_RUNTIME_DIR="$DIR" PULSE_RUNTIME_PATH="$DIR/runtime" \
        PULSE_STATE_PATH="$DIR/state" \
        pulseaudio -n -F "$DIR/server.pa" --daemonize=no --exit-idle-time=-1 \
        --disallow-exit --system=false --use-pid-file=no \
        --log-target="file:$DIR/server.log" </dev/null >/dev/null 2>&1 &
    echo $! >"$DIR/pid"
    tries=0
    until PULSE_SERVER="unix:$DIR/native" pactl info >/dev/null 2>&1; do
        tries=$((tries + 1))
        if [ "$tries" -gt 100 ] || ! running; then
            echo "private-pulse.sh: pulseaudio did not start; see $DIR/server.log" >&2
            exit 1
        fi
        sleep 0.05
    done
    print_env
    ;;
env)
    if running; then print_env; fi
    ;;
stop)
    if running; then
        kill "$(cat "$DIR/pid")" 2>/dev/null || true
    fi
    rm -rf "$DIR"
    ;;
*)
    echo "usage: $0 start|stop|env" >&2
    exit 2
    ;;
esac
