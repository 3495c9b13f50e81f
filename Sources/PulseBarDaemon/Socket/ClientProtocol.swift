/// One socket client's protocol, as a pure state machine: no I/O, no clock of its own.
///
/// The event loop feeds it what happened (bytes read, end of input, time passing, writes that
/// went through or would block) and does what the returned ``Action`` says. Times are
/// monotonic seconds supplied by the caller, so tests drive it with exact values.
///
/// The contract (docs/DESIGN.md, "Socket"): a client may send one line within 100 ms,
/// `format=<f> bars=<n> fps=<n>`, all optional; without one it gets the default subscription. A bad
/// line (binary data, longer than 256 bytes, unknown key or format, bars out of range) gets
/// one `error: …` line and the connection is closed. A client with a write backlog that makes
/// no progress for 5 s is stuck and is dropped. The line `status` (or `status json`) asks for
/// the daemon's status instead of frames (`pulsebar status`): it is answered, then closed; no
/// subscription line has that word, so an older client never sends it.
package struct ClientProtocol: Sendable {
  /// Where the client is in its life.
  package enum State: Equatable, Sendable {
    /// Connected; the subscription line may still come.
    case awaitingSubscription
    /// Receiving frames (the subscription itself is in the server's registry, not here).
    case subscribed
    /// Refused, dropped, or asked for the status (answered, then closed); the loop closes it.
    case closed
  }

  /// What the event loop must do.
  package enum Action: Equatable, Sendable {
    /// Nothing yet.
    case none
    /// Start sending frames for this request (resolved by the server against the current
    /// config's default; the latest line at once).
    case subscribe(SubscriptionRequest)
    /// Send this line (`error: …\n`), then close.
    case reject(String)
    /// Send the daemon's status, for people or as one json line, then close.
    case status(json: Bool)
    /// Close without a word (a stuck client).
    case close
  }

  /// How long a client has to send its subscription line.
  package static let subscriptionTimeout = 0.1
  /// How long a client may have a backlog without any write going through.
  package static let stuckTimeout = 5.0
  /// What the log says when a stuck client is dropped.
  static let stuckNote =
    "socket: a client made no progress for \(Int(stuckTimeout)) s; disconnected"
  /// The longest subscription line, newline excluded.
  package static let maxLineLength = 256

  /// How long a client that sent nothing may hold a slot before it counts as idle.
  package static let idleAge = 2.0
  /// The fewest unread bytes (``FileDescriptor/unreadBytes``, as the kernel counts them: about
  /// 768 a short line) that make such a client idle: a few lines.
  package static let idleUnreadBytes = 2048

  package private(set) var state = State.awaitingSubscription
  private let connectedAt: Double
  /// The client sent at least a byte (its subscription line, or part of one).
  private var spoke = false
  private var line: [UInt8] = []
  /// When the current write backlog last made progress (or began); `nil` without a backlog.
  private var backlogProgressAt: Double?

  /// The protocol knows nothing of the default subscription: it hands on what the client asked
  /// for (``SubscriptionRequest``), and the server resolves it under the config of the moment,
  /// which a reload may change while the client waits or later.
  package init(connectedAt: Double) {
    self.connectedAt = connectedAt
  }

  // MARK: - Input

  /// Bytes the client sent. After the subscription line, further input is read and ignored.
  package mutating func received(_ bytes: some Sequence<UInt8>) -> Action {
    guard state == .awaitingSubscription else { return .none }
    for byte in bytes {
      spoke = true
      if byte == UInt8(ascii: "\n") { return finishLine() }
      let printable = (0x20..<0x7f).contains(byte)
      guard printable || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") else {
        return reject("binary data in subscription line")
      }
      guard line.count < Self.maxLineLength else {
        return reject("subscription line longer than \(Self.maxLineLength) bytes")
      }
      line.append(byte)
    }
    return .none
  }

  /// The client shut down its sending side: a pending partial line counts as the line.
  package mutating func endOfInput() -> Action {
    guard state == .awaitingSubscription else { return .none }
    return finishLine()
  }

  // MARK: - Time

  /// The next time ``timePassed(now:)`` has something to do, if any.
  package var nextDeadline: Double? {
    switch state {
    case .awaitingSubscription: return connectedAt + Self.subscriptionTimeout
    case .subscribed: return backlogProgressAt.map { $0 + Self.stuckTimeout }
    case .closed: return nil
    }
  }

  /// Applies deadlines: no line within 100 ms means the default subscription (a partial line
  /// means a client too slow to speak: refused); a backlog without progress for 5 s means stuck.
  package mutating func timePassed(now: Double) -> Action {
    switch state {
    case .awaitingSubscription:
      guard now >= connectedAt + Self.subscriptionTimeout else { return .none }
      if !line.isEmpty { return reject("subscription line not finished within 100 ms") }
      state = .subscribed
      return .subscribe(SubscriptionRequest())
    case .subscribed:
      guard let since = backlogProgressAt, now >= since + Self.stuckTimeout else { return .none }
      state = .closed
      return .close
    case .closed:
      return .none
    }
  }

  /// Whether the client holds its slot for nothing at `now`: subscribed by default (it sent
  /// nothing) at least ``idleAge`` ago, and it read none of the `sentBytes` it was sent (the
  /// kernel's count of what waits unread, `unreadBytes`, is at least all of them, and at
  /// least ``idleUnreadBytes``). Such a client gives its slot up to one that subscribes when
  /// all are taken: 70 idle connections held 64 slots for good, and every bar said the daemon
  /// was not running.
  package func isIdle(now: Double, unreadBytes: Int, sentBytes: Int) -> Bool {
    state == .subscribed && !spoke && now >= connectedAt + Self.idleAge
      && unreadBytes >= max(Self.idleUnreadBytes, sentBytes)
  }

  // MARK: - Output

  /// A write would block with lines still queued: a backlog begins (if none was running).
  package mutating func writeBlocked(now: Double) {
    if backlogProgressAt == nil { backlogProgressAt = now }
  }

  /// Some bytes went out while a backlog is running.
  package mutating func wrote(now: Double) {
    if backlogProgressAt != nil { backlogProgressAt = now }
  }

  /// Everything queued went out: no backlog.
  package mutating func drained() {
    backlogProgressAt = nil
  }

  /// True while the client has a write backlog.
  package var hasBacklog: Bool { backlogProgressAt != nil }

  // MARK: - Parsing

  private mutating func finishLine() -> Action {
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    if let status = Self.statusRequest(line) {
      guard case .success(let json) = status else {
        return reject("status takes nothing or 'json'")
      }
      state = .closed
      line = []
      return .status(json: json)
    }
    switch SubscriptionRequest.parse(line) {
    case .success(let request):
      state = .subscribed
      line = []
      return .subscribe(request)
    case .failure(let error):
      return reject(error.description)
    }
  }

  /// A `status` line: `.success(false)` for `status`, `.success(true)` for `status json`, a
  /// failure for `status` with anything else; `nil` when the first word is not `status`.
  private static func statusRequest(_ line: [UInt8]) -> Result<Bool, SubscriptionError>? {
    let words = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
    guard let first = words.first, first.elementsEqual("status".utf8) else { return nil }
    switch words.count {
    case 1: return .success(false)
    case 2 where words[1].elementsEqual("json".utf8): return .success(true)
    default: return .failure(SubscriptionError("status"))
    }
  }

  private mutating func reject(_ reason: String) -> Action {
    state = .closed
    line = []
    return .reject("error: \(reason)\n")
  }
}
