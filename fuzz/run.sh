#!/usr/bin/env bash
# Builds the libFuzzer harnesses (with AddressSanitizer and LeakSanitizer) and runs each for
# FUZZ_SECONDS seconds, one after the other; `make fuzz` calls this. See fuzz/README.md.
#   fuzz/run.sh [TARGET...]      targets: config subscription command-line audio-file raw-pcm template bus-message lrc image uri overlay-request
# Exits non-zero at the first crash, leak, sanitizer report or timeout, with the input saved
# under .build/fuzz/artifacts/. Each run grows its own corpus in .build/fuzz/corpus/TARGET,
# starting from the checked-in seeds in fuzz/corpus/TARGET (which it never writes to).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
swift=${SWIFT:-swift}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(config subscription command-line audio-file raw-pcm template bus-message lrc image uri overlay-request)

for target in "${targets[@]}"; do
  PULSEBAR_FUZZ=1 $swift build -c release --scratch-path .build/fuzz \
    --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address --product "fuzz-$target"
done

export LSAN_OPTIONS="suppressions=$PWD/sanitizers/lsan.supp:print_suppressions=0"
# libFuzzer prints the stack of a failed check itself; Swift's own backtracer, reading the
# crashed process's memory, only adds a spurious ASan report.
export SWIFT_BACKTRACE=enable=no
# The audio harness writes each input to a scratch file; libFuzzer may exit without running
# atexit handlers, so keep any it leaves inside the build directory.
mkdir -p .build/fuzz/tmp
export TMPDIR=$PWD/.build/fuzz/tmp
mkdir -p .build/fuzz/artifacts
summary=()
for target in "${targets[@]}"; do
  binary=.build/fuzz/release/fuzz-$target
  work=.build/fuzz/corpus/$target
  log=.build/fuzz/$target.log
  mkdir -p "$work"
  options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
    -artifact_prefix=".build/fuzz/artifacts/$target-")
  if [ "$target" = audio-file ]; then
    # Audio seeds are larger than libFuzzer's 4 KiB default. Leak checks after every input
    # cost 10× the throughput here (every corrupted Ogg leaks inside libvorbis, which makes
    # libFuzzer scan the heap): the corpus is replayed with leak checking at the end instead.
    options+=(-max_len=16384 -detect_leaks=0)
  fi
  echo "== fuzz-$target: $seconds s (log: $log)"
  if ! nice -n 10 "$binary" "${options[@]}" "$work" "fuzz/corpus/$target" > "$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz-$target FAILED; the input is in .build/fuzz/artifacts/" >&2
    exit 1
  fi
  if [ "$target" = audio-file ]; then
    echo "   replaying its corpus with leak checking"
    if ! find "$work" "fuzz/corpus/$target" -type f -print0 |
      xargs -0 nice -n 10 "$binary" -runs=1 > "$log.leaks" 2>&1; then
      tail -n 40 "$log.leaks"
      echo "fuzz-$target: leak or crash on replay" >&2
      exit 1
    fi
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  units=$(find "$work" -type f | wc -l)
  summary+=("$(printf '%-18s %10s runs %8s exec/s %6s s  corpus %5s  0 crashes' \
    "fuzz-$target" "$runs" "$rate" "$seconds" "$units")")
done
printf '%s\n' "${summary[@]}"
