import Glibc

/// Monotonic seconds (CLOCK_MONOTONIC).
package func monotonicSeconds() -> Double {
  Double(monotonicNanoseconds()) / 1e9
}

/// Monotonic nanoseconds (`CLOCK_MONOTONIC`, the clock timerfds use too).
package func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
