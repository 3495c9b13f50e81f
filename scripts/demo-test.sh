#!/usr/bin/env bash
# demo-test.sh [BINARY]: `make demo` leaves nothing running however it ends. The demo runs in a
# terminal of its own (script(1) gives it a pty, so its tmux view runs) and is ended four
# ways: `q` typed into the view, SIGINT and SIGTERM to its process group (Ctrl-C, a kill), and
# its terminal going away (script killed: the kernel hangs the pty up and SIGHUP goes to the
# session, as when a window is closed). After each, no process of the demo may be left: its
# view and listen, its tmux server, the paplay loop, the private PulseAudio server. They are
# told apart from other sessions' by a TMPDIR and a binary of this run's own.
#
# Needs what `make demo` needs (tmux, paplay, sox, a pulseaudio to start when none runs) and
# script(1). Every failure is one line "demo-test: FAIL: ..."; the exit status is 1 if any.
set -uo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/pulsebar}
work=$(mktemp -d /tmp/pulsebar-demo-test.XXXXXX)
chmod 755 "$work"
trap 'pkill -KILL -f -- "$work" 2>/dev/null; rm -rf "$work"' EXIT
cp "$binary" "$work/pulsebar"
failures=0
fail() {
  echo "demo-test: FAIL: $*" >&2
  failures=$((failures + 1))
}
# The demo's processes: every one whose command line names this run's directory (the binary,
# the track, the private server's files, the tmux socket's name carries the script's pid).
left() { pgrep -af -- "$work" | grep -v -e "pgrep" -e "demo-test" || true; }
tmux_left() { pgrep -af -- "tmux -L pulsebar-demo-$1" || true; }

for ending in q INT TERM HUP; do
  export TMPDIR=$work PULSEBAR_PULSE_DIR=$work/pulse
  # The typed `q` reaches the view through script's stdin; the others come from outside. A
  # background job of this script would start with SIGINT ignored, as no terminal's is.
  (
    if [ "$ending" = q ]; then sleep 6 && printf q && sleep 6; else sleep 30; fi
  ) | env --default-signal=INT,QUIT script -qfec "scripts/demo.sh '$work/pulsebar'" "$work/typescript-$ending" >/dev/null 2>&1 &
  script_pid=$!
  # Wait for the view to run (its pulsebar), at most 20 s.
  demo=
  for _ in $(seq 1 200); do
    demo=$(pgrep -f -- "scripts/demo.sh $work/pulsebar" | head -n 1)
    [ -n "$demo" ] && pgrep -f -- "$work/pulsebar run" >/dev/null && break
    sleep 0.1
  done
  if [ -z "$demo" ]; then
    fail "$ending: the demo did not start: $(tail -c 300 "$work/typescript-$ending" 2>/dev/null | tr -d '\r' | tail -n 3)"
    kill -KILL "$script_pid" 2>/dev/null
    continue
  fi
  sleep 2
  case $ending in
  q) ;;
  INT | TERM) kill -"$ending" -- "-$(ps -o pgid= -p "$demo" | tr -d ' ')" 2>/dev/null ;;
  HUP) kill -KILL "$script_pid" ;;
  esac
  # Everything gone within 10 s.
  for _ in $(seq 1 100); do
    [ -z "$(left)" ] && [ -z "$(tmux_left "$demo")" ] && break
    sleep 0.1
  done
  still=$(left; tmux_left "$demo")
  if [ -n "$still" ]; then
    fail "$ending: left running: $(echo "$still" | cut -c1-120 | tr '\n' ';')"
    pkill -KILL -f -- "$work" 2>/dev/null
    pkill -KILL -f -- "tmux -L pulsebar-demo-$demo" 2>/dev/null
  else
    echo "demo-test: $ending: nothing of the demo left"
  fi
  kill -KILL "$script_pid" 2>/dev/null
  wait "$script_pid" 2>/dev/null
done
[ "$failures" = 0 ]
