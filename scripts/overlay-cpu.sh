#!/usr/bin/env bash
# The overlay's CPU beside the daemon's, in one run (bench/README.md "overlay"): a daemon on a
# file of pink noise under a sweep (real time), `pulsebar overlay`, and one page's event
# stream (curl, at fps=30 with 64 bars) for SECONDS; then the same daemon with
# `pulsebar listen --format json --fps 30 --bars 64` as its client instead, so the daemon's
# cost with the overlay is compared with the same subscription from listen.
#   scripts/overlay-cpu.sh [BINARY] [SECONDS]     (default .build/release/pulsebar, 30)
set -euo pipefail
binary=$(realpath "${1:-.build/release/pulsebar}")
seconds=${2:-30}
work=$(mktemp -d)
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT
sox -n -r 44100 -c 2 -b 16 "$work/noise.wav" synth $((seconds * 2 + 20)) pinknoise sine 100-5000 vol 0.5
ticks=$(getconf CLK_TCK)
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
percent() { awk -v a="$1" -v b="$2" -v t="$ticks" -v s="$seconds" 'BEGIN { printf "%.2f %%", (b - a) / t / s * 100 }'; }

"$binary" run --input "file:$work/noise.wav" --socket "$work/s.sock" --no-stdout 2>/dev/null &
daemon=$!
pids+=("$daemon")
sleep 1
port=$((20000 + RANDOM % 20000))
"$binary" overlay --port "$port" --socket "$work/s.sock" 2>/dev/null &
overlay=$!
pids+=("$overlay")
sleep 1
curl -sN "http://127.0.0.1:$port/events?fps=30&bars=64" >"$work/events" &
pids+=("$!")
sleep 3
d0=$(cpu "$daemon") o0=$(cpu "$overlay") e0=$(grep -c '^data: ' "$work/events")
sleep "$seconds"
d1=$(cpu "$daemon") o1=$(cpu "$overlay") e1=$(grep -c '^data: ' "$work/events")
echo "overlay: $(percent "$o0" "$o1") of a core at $(( (e1 - e0) / seconds )) events/s; daemon beside it: $(percent "$d0" "$d1")"

"$binary" listen --socket "$work/s.sock" --format json --fps 30 --bars 64 >/dev/null &
pids+=("$!")
kill "${pids[2]}"
sleep 3
d0=$(cpu "$daemon")
sleep "$seconds"
d1=$(cpu "$daemon")
echo "daemon with listen (json, 30 fps, 64 bars) instead: $(percent "$d0" "$d1")"
