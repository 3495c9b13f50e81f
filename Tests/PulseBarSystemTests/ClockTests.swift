import Glibc
import Testing

@testable import PulseBarSystem

/// The monotonic clock every policy's time comes from.
@Suite struct ClockTests {
  @Test("monotonic time never goes back and follows a sleep")
  func monotonic() {
    var last = monotonicNanoseconds()
    for _ in 0..<10_000 {
      let now = monotonicNanoseconds()
      #expect(now >= last)
      last = now
    }
    let before = monotonicSeconds()
    usleep(20_000)
    let slept = monotonicSeconds() - before
    #expect(slept >= 0.019 && slept < 5, "slept \(slept) s")
  }

  @Test("seconds and nanoseconds read the same clock")
  func sameClock() {
    let seconds = monotonicSeconds()
    let nanoseconds = Double(monotonicNanoseconds()) / 1e9
    #expect(nanoseconds >= seconds && nanoseconds - seconds < 1)
  }
}
