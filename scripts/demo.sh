#!/bin/sh
# `make demo`: synthesizes a music-like track and plays it through pulsebar's
# file input, paced in real time, as text frames in this terminal.
set -eu
bin=${1:-.build/release/pulsebar}
track=${TMPDIR:-/tmp}/pulsebar-demo.wav
here=$(dirname "$0")
[ -e "$track" ] || "$here/make-demo-track.sh" "$track" 16
echo "pulsebar demo: a synthesized track through the file input, 16 bars, text format (Ctrl-C stops)"
exec "$bin" run --input "file:$track" --bars 16 --format text
