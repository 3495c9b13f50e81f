/// The hand-over between two threads: the latest value under a lock, and an eventfd the
/// receiver polls, signalled only when the value changed.
///
/// The sender posts whenever it likes; a value equal to the one waiting wakes nobody, and
/// values posted before the receiver takes one merge into the latest. So the receiver sleeps
/// in `poll` with no timer while nothing changes, and a burst of changes costs it one wake-up.
/// Used from the MPRIS thread to the engine (the active player) and from the engine to the
/// MPRIS thread (a reloaded player preference).
package final class Mailbox<Value: Sendable & Equatable>: Sendable {
  /// The value and whether the receiver has yet to take it.
  private struct Slot {
    var value: Value
    var changed = false
  }

  private let slot: Lock<Slot>
  private let wake = WakeSignal()

  /// A mailbox holding `initial`, already taken.
  package init(_ initial: Value) { slot = Lock(Slot(value: initial)) }

  /// The descriptor the receiver polls; readable after a change.
  package var descriptor: FileDescriptor { wake.descriptor }

  /// Posts `value` (sender's thread); wakes the receiver only if it differs from the last.
  package func post(_ value: Value) {
    let changed = slot.withLock { slot in
      guard slot.value != value else { return false }
      slot.value = value
      slot.changed = true
      return true
    }
    if changed { wake.signal() }
  }

  /// The latest value if it changed since the last take (receiver's thread); drains the
  /// wake-up.
  package func take() -> Value? {
    wake.drain()
    return slot.withLock { slot in
      guard slot.changed else { return nil }
      slot.changed = false
      return slot.value
    }
  }
}
