import PulseBarCore
import PulseBarDaemon

/// libFuzzer entry: the input is a socket client's life. The first two bytes seed the chunk
/// sizes and the clock, the third picks how the line phase ends (end of input or the 100 ms
/// deadline) and the daemon's frame rate, the rest is what the client sends.
///
/// Checked: the bytes fed in chunks end as they do fed at once, and as
/// `SubscriptionRequest.parse` reads the first line; a refusal is one `error: …` line and
/// closes; a request is in range, its request line parses back to it, and resolved under the
/// daemon's rules it is in range (a rate only below the daemon's); nothing happens after the
/// first decision;
/// a backlog that makes no progress is dropped after exactly 5 s.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubscription(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = UnsafeBufferPointer(start: data, count: size)
  guard input.count >= 3 else { return 0 }
  var random = UInt32(input[0]) << 8 | UInt32(input[1]) | 1
  let endsByDeadline = input[2] & 1 != 0
  let maxFPS = [240, 60, 24, 1][Int(input[2] >> 1 & 3)]
  let sent = UnsafeBufferPointer(rebasing: input[3...])
  let base = Subscription(format: .text, bars: 8)

  // Chunks of 1…64 bytes, with the clock moving on by less than the deadline in all.
  var chunked = ClientProtocol(connectedAt: connectedAt)
  var chunkedAction = ClientProtocol.Action.none
  var now = connectedAt
  var offset = 0
  while offset < sent.count {
    random = random &* 1_103_515_245 &+ 12345
    let length = min(sent.count - offset, Int(random >> 16) % 64 + 1)
    let action = chunked.received(sent[offset..<(offset + length)])
    check(action, chunked.state, base: base, maxFPS: maxFPS)
    if action != .none {
      precondition(chunkedAction == .none, "a second decision: \(action)")
      chunkedAction = action
    }
    offset += length
    now += UInt64(random % 1_000)
    check(
      chunked.timePassed(now: now), chunked.state, base: base, maxFPS: maxFPS, expectNone: true)
  }
  var whole = ClientProtocol(connectedAt: connectedAt)
  var wholeAction = whole.received(sent)
  check(wholeAction, whole.state, base: base, maxFPS: maxFPS)
  precondition(wholeAction == chunkedAction, "chunks changed the outcome")

  // The line phase ends: the client shuts down its side, or the deadline passes.
  let chunkedEnd = finishLine(&chunked, byDeadline: endsByDeadline, now: now)
  check(
    chunkedEnd, chunked.state, base: base, maxFPS: maxFPS, expectNone: chunkedAction != .none)
  if chunkedAction == .none { chunkedAction = chunkedEnd }
  let wholeEnd = finishLine(&whole, byDeadline: endsByDeadline, now: now)
  check(wholeEnd, whole.state, base: base, maxFPS: maxFPS, expectNone: wholeAction != .none)
  if wholeAction == .none { wholeAction = wholeEnd }
  precondition(wholeAction == chunkedAction, "chunks changed the outcome")
  precondition(chunked.state == whole.state, "chunks changed the final state")
  precondition(chunked.state != .awaitingSubscription, "the line phase did not end")

  // What the first line says, parsed on its own.
  if !endsByDeadline, case .subscribe(let request) = wholeAction {
    var line = Array(sent.prefix { $0 != UInt8(ascii: "\n") })
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    precondition(SubscriptionRequest.parse(line) == .success(request))
  }

  // A subscribed client that stops reading: dropped 5 s after its writes stop going through.
  if case .subscribed = whole.state {
    let blockedAt = now + 1
    whole.writeBlocked(now: blockedAt)
    whole.wrote(now: blockedAt + 1_000)
    precondition(whole.nextDeadline == blockedAt + 1_000 + ClientProtocol.stuckTimeout)
    check(
      whole.timePassed(now: whole.nextDeadline! - 1), whole.state, base: base, maxFPS: maxFPS,
      expectNone: true)
    precondition(whole.timePassed(now: whole.nextDeadline!) == .close)
    precondition(whole.state == .closed && whole.nextDeadline == nil)
    precondition(whole.received(sent) == .none && whole.endOfInput() == .none)
  }
  return 0
}

/// When every fuzzed client connects (monotonic nanoseconds).
private let connectedAt: UInt64 = 1_000_000

/// Ends the line phase as the client or the clock would (nothing happens if it has ended).
private func finishLine(
  _ machine: inout ClientProtocol, byDeadline: Bool, now: UInt64
) -> ClientProtocol.Action {
  guard byDeadline else { return machine.endOfInput() }
  if machine.state == .awaitingSubscription {
    precondition(machine.nextDeadline == connectedAt + ClientProtocol.subscriptionTimeout)
  }
  return machine.timePassed(now: machine.nextDeadline ?? now)
}

/// The invariants every action and the state after it keep.
private func check(
  _ action: ClientProtocol.Action, _ state: ClientProtocol.State, base: Subscription,
  maxFPS: Int, expectNone: Bool = false
) {
  if expectNone { precondition(action == .none, "an action where none was due: \(action)") }
  switch action {
  case .none, .close: break
  case .status:
    precondition(state == .closed, "status asked but not closed")
  case .reject(let line):
    precondition(line.hasPrefix("error: ") && line.hasSuffix("\n"), "bad error line: \(line)")
    precondition(line.utf8.filter { $0 == UInt8(ascii: "\n") }.count == 1, "error spans lines")
    precondition(state == .closed, "refused but not closed")
  case .subscribe(let request):
    precondition(state == .subscribed, "subscribed but not in the subscribed state")
    let line = Subscription.requestLine(
      format: request.format, bars: request.bars, fps: request.fps)
    precondition(
      SubscriptionRequest.parse(line.utf8.dropLast()) == .success(request),
      "request line does not round-trip")
    let subscription = SubscriptionRules(defaultSubscription: base, maxFPS: maxFPS)
      .subscription(for: request)
    guard case .success(let resolved) = subscription else {
      preconditionFailure("no layout check here, yet refused: \(subscription)")
    }
    precondition(Subscription.barRange.contains(resolved.bars), "bars out of range")
    precondition(resolved.fps.map { $0 >= 1 && $0 < maxFPS } ?? true, "fps out of range")
  }
}
