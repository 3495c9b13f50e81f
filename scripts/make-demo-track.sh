#!/bin/sh
# Synthesizes a music-like demo track with sox: a plucked bass line and chords
# over kick-and-hat bursts, 120 bpm, stereo 44.1 kHz, SECONDS long (default 16).
# Usage: scripts/make-demo-track.sh OUT.wav [SECONDS]
set -eu
out=$1
seconds=${2:-16}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Two bars of bass and chords (8 beats of 0.5 s).
sox -n -r 44100 -c 2 "$tmp/notes.wav" \
  synth 0.5 pluck A2 pluck A3 pluck C4 pluck E4 : synth 0.5 pluck E3 : \
  synth 0.5 pluck F2 pluck F3 pluck A3 pluck C4 : synth 0.5 pluck C3 : \
  synth 0.5 pluck C3 pluck G3 pluck C4 pluck E4 : synth 0.5 pluck G3 : \
  synth 0.5 pluck G2 pluck G3 pluck B3 pluck D4 : synth 0.5 pluck D3 \
  gain -8
# Drums: a kick (low sine sweep) on each beat, a hat (noise) between.
sox -n -r 44100 -c 2 "$tmp/beat.wav" \
  synth 0.12 sine 120-40 fade 0 0.12 0.1 : synth 0.13 sine 0 : \
  synth 0.04 whitenoise fade 0 0.04 0.03 gain -10 : synth 0.21 sine 0
sox "$tmp/beat.wav" "$tmp/drums.wav" repeat 7
sox -m "$tmp/notes.wav" "$tmp/drums.wav" "$tmp/loop.wav"
loops=$(( (seconds + 3) / 4 ))
sox "$tmp/loop.wav" "$out" repeat $((loops - 1)) trim 0 "$seconds"
