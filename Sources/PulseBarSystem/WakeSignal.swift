/// An eventfd owned for its whole life: one thread ``signal()``s, the thread that polls
/// ``descriptor`` ``drain()``s. Closed when the last reference goes.
package final class WakeSignal: Sendable {
  /// The eventfd to poll for readability.
  package let descriptor: FileDescriptor

  /// Traps if no eventfd can be made: the process is out of descriptors at start-up.
  package init() {
    do {
      descriptor = try EventDescriptor.make()
    } catch {
      fatalError("eventfd: \(error)")
    }
  }

  deinit { descriptor.closeQuietly() }

  /// Makes ``descriptor`` readable (never blocks).
  package func signal() { EventDescriptor.signal(descriptor) }

  /// Makes ``descriptor`` unreadable again.
  package func drain() { EventDescriptor.drain(descriptor) }
}
