import PulseBarCore

/// When to ask again a player that did not answer its `GetAll` (a timeout, or an error): 2 s
/// after, then twice as long each time, at most a minute apart, until it answers, goes or
/// another connection takes its name. Injected time (seconds on the monotonic clock), so the
/// schedule is tested with exact times.
///
/// A player slow to start (mpv busy opening its file, a desktop busy at login) would otherwise
/// stay shown as stopped with no title until its next signal, and a paused player sends none.
/// A player that never answers costs one call a minute.
struct SilentPlayerRetries: Sendable {
  /// The first wait after a player is silent, in seconds.
  static let first = 2.0
  /// The longest wait, in seconds.
  static let limit = 60.0

  private var retries: [String: (backoff: Backoff, due: Double)] = [:]
  /// Players already said not to answer (one `-v` line each while their name lasts).
  private var said: Set<String> = []

  /// `name` did not answer at `now`: it is asked again after the next delay. True the first
  /// time since its name appeared (say so once).
  mutating func noAnswer(from name: String, at now: Double) -> Bool {
    var backoff = retries[name]?.backoff ?? Backoff(first: Self.first, limit: Self.limit)
    let delay = backoff.next()
    retries[name] = (backoff, now + delay)
    return said.insert(name).inserted
  }

  /// `name` answered or has a new owner: it is not asked again on this account.
  mutating func forget(_ name: String) { retries[name] = nil }

  /// `name` went: forgotten, and said again should it come back and fall silent.
  mutating func vanished(_ name: String) {
    retries[name] = nil
    said.remove(name)
  }

  /// When the next player is due, or `nil` when none waits.
  var nextDue: Double? { retries.values.lazy.map(\.due).min() }

  /// The players due at `now`, in name order; each waits for its answer (``noAnswer(from:at:)``
  /// or ``forget(_:)``) before it is due again.
  mutating func due(at now: Double) -> [String] {
    guard let next = nextDue, next <= now else { return [] }
    let names = retries.filter { $0.value.due <= now }.keys.sorted()
    for name in names { retries[name]?.due = .infinity }
    return names
  }
}
