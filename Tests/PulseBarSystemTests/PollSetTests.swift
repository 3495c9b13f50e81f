import Glibc
import Testing

@testable import PulseBarSystem

/// ``PollSet`` and the eventfd and timerfd it waits on, on real descriptors.
@Suite struct PollSetTests {
  @Test("an eventfd wakes the wait once signalled, and not again once drained")
  func eventfdWakes() {
    let wake = WakeSignal()
    var poll = PollSet()
    let index = poll.add(wake.descriptor)
    #expect(poll.wait(timeoutMilliseconds: 0) == 0)
    #expect(poll.ready(index).isEmpty)
    wake.signal()
    wake.signal()
    #expect(poll.wait(timeoutMilliseconds: 1000) == 1)
    #expect(poll.ready(index).contains(.readable))
    wake.drain()
    #expect(poll.wait(timeoutMilliseconds: 0) == 0, "one drain resets the counter")
  }

  @Test("another thread's signal ends a wait with no timeout")
  func wokenFromAnotherThread() {
    let wake = WakeSignal()
    var poll = PollSet()
    poll.add(wake.descriptor)
    let start = monotonicSeconds()
    let thread = PosixThread.spawn {
      usleep(50_000)
      wake.signal()
    }
    let ready = poll.wait(timeoutMilliseconds: -1)
    let waited = monotonicSeconds() - start
    thread.join()
    #expect(ready == 1)
    #expect(waited >= 0.04 && waited < 5, "woke after \(waited) s")
  }

  @Test("a timerfd armed 30 ms ahead is ready after, once; disarmed, it stays quiet")
  func timerfdFires() throws {
    let timer = try TimerDescriptor.make()
    defer { timer.closeQuietly() }
    var poll = PollSet()
    let index = poll.add(timer)
    TimerDescriptor.arm(timer, at: monotonicNanoseconds() + 30_000_000)
    #expect(poll.wait(timeoutMilliseconds: 0) == 0)
    #expect(poll.wait(timeoutMilliseconds: 5000) == 1)
    #expect(poll.ready(index).contains(.readable))
    var expirations: UInt64 = 0
    let read = try withUnsafeMutableBytes(of: &expirations) { try timer.read(into: $0) }
    #expect(read == 8 && expirations == 1)
    #expect(poll.wait(timeoutMilliseconds: 0) == 0, "read: quiet until armed again")
    TimerDescriptor.arm(timer, at: monotonicNanoseconds() + 10_000_000)
    TimerDescriptor.arm(timer, at: nil)
    #expect(poll.wait(timeoutMilliseconds: 50) == 0, "disarmed before it fired")
  }

  @Test("waiting alongside a library's descriptors reports each side's readiness apart")
  func alongsideForeign() throws {
    let own = WakeSignal()
    let foreignWake = WakeSignal()
    var poll = PollSet()
    poll.add(own.descriptor)
    var foreign = [pollfd(fd: foreignWake.descriptor.rawValue, events: Int16(POLLIN), revents: 0)]
    foreignWake.signal()
    let first = foreign.withUnsafeMutableBufferPointer {
      poll.wait(timeoutMilliseconds: 1000, alongside: $0)
    }
    #expect(first.own == 0 && first.foreign == 1)
    #expect(foreign[0].revents & Int16(POLLIN) != 0)
    own.signal()
    foreignWake.drain()
    let second = foreign.withUnsafeMutableBufferPointer {
      poll.wait(timeoutMilliseconds: 1000, alongside: $0)
    }
    #expect(second.own == 1 && second.foreign == 0)
    #expect(foreign[0].revents == 0)
    #expect(poll.count == 1, "the library's entries are gone after the wait")
  }
}
