import PulseBarCore
import PulseBarSystem

/// The hand-off from the players' thread to the engine: the latest ``NowPlaying`` under a
/// lock, and an eventfd the engine polls, signalled only when the snapshot changed.
package final class PlayerFeed: Sendable {
  /// The snapshot and whether the engine has yet to take it.
  private struct Slot {
    var nowPlaying: NowPlaying?
    var changed = false
  }

  private let slot = Lock(Slot())
  private let wake = WakeSignal()

  package init() {}

  /// The descriptor the engine polls; readable after a change.
  package var wakeDescriptor: FileDescriptor { wake.descriptor }

  /// Publishes a snapshot (players' thread); the engine wakes only if it differs.
  package func publish(_ nowPlaying: NowPlaying?) {
    let changed = slot.withLock { slot in
      guard slot.nowPlaying != nowPlaying else { return false }
      slot.nowPlaying = nowPlaying
      slot.changed = true
      return true
    }
    if changed { wake.signal() }
  }

  /// The new snapshot if it changed since the last call (engine thread); drains the wake-up.
  /// The outer optional is "changed", the inner one "a player is active".
  package func takeChange() -> NowPlaying?? {
    wake.drain()
    return slot.withLock { slot in
      guard slot.changed else { return nil }
      slot.changed = false
      return .some(slot.nowPlaying)
    }
  }
}
