import Synchronization

/// A one-shot stop request a reader thread can sleep on: an eventfd plus a flag.
package final class StopSignal: Sendable {
  private let wake = WakeSignal()
  private let requested = Atomic<Bool>(false)

  package init() {}

  package var isRequested: Bool { requested.load(ordering: .acquiring) }

  /// Readable once a stop is requested: for a thread that polls other descriptors with it.
  package var descriptor: FileDescriptor { wake.descriptor }

  package func request() {
    requested.store(true, ordering: .releasing)
    wake.signal()
  }

  /// Sleeps up to `seconds` (or until a stop); returns false when stopped.
  package func sleep(_ seconds: Double) -> Bool {
    wake.descriptor.wait(
      for: .readable, timeoutMilliseconds: Int32(max(0, (seconds * 1000).rounded(.up))))
    return !isRequested
  }

  /// Waits until `other` is readable or a stop; returns false when stopped.
  package func waitReadable(_ other: FileDescriptor, timeoutMilliseconds: Int32 = -1) -> Bool {
    other.waitReadable(orReadable: wake.descriptor, timeoutMilliseconds: timeoutMilliseconds)
    return !isRequested
  }
}
