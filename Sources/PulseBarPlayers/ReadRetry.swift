import PulseBarCore
import PulseBarSystem

/// When to read a track's file again after the system refused it for a moment (EMFILE, ENFILE,
/// EAGAIN, EINTR, ENOMEM: ``RegularFile/Failure/isTransient``): 1 s after, doubling, at most
/// 30 s apart, for as long as the same track is active. Such a failure is never kept as the
/// track's answer (a brief shortage of descriptors lost the lyric and the art for good).
/// Injected time, as ``SilentPlayerRetries``.
struct ReadRetry: Sendable {
  /// What a read is for: an art URL, a track's place (``LyricFinder/Track/retryKey``). Not a
  /// generic parameter: valgrind reports Swift's generic metadata set-up as a conditional jump
  /// on uninitialised memory, which would hide a real one in the hostile session.
  typealias Key = String

  /// The first wait, in seconds.
  static var first: Double { 1 }
  /// The longest wait, in seconds.
  static var limit: Double { 30 }

  private var pending: (key: Key, backoff: Backoff, due: Double)?

  /// A read for `key` failed for a moment at `now`: it is due again after the next delay (the
  /// delays go on doubling for the same key).
  mutating func failed(_ key: Key, at now: Double) {
    var backoff =
      pending.flatMap { $0.key == key ? $0.backoff : nil }
      ?? Backoff(first: Self.first, limit: Self.limit)
    let delay = backoff.next()
    pending = (key, backoff, now + delay)
  }

  /// The read for `key` gave an answer (or the track changed): nothing is due.
  mutating func settled() { pending = nil }

  /// Whether `key`'s read waits for its turn at `now` (not to be tried before).
  func waits(_ key: Key, at now: Double) -> Bool {
    guard let pending, pending.key == key else { return false }
    return now < pending.due
  }

  /// When the next read is due, or `nil`.
  var nextDue: Double? { pending?.due }
}
