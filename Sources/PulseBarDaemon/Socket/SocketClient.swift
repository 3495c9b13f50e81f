import PulseBarSystem

/// One connected socket client: its descriptor, its protocol state (``ClientProtocol``), what
/// it asked for, which broadcast it reads and where (a cursor into that broadcast's
/// ``LineHistory``), and the rest of a line a full socket cut short. Its writes never block.
struct SocketClient {
  var descriptor: FileDescriptor
  /// The client's number, counted from 1 in the order clients connect (logged; in its epoll
  /// token).
  var serial: UInt64
  var protocolState: ClientProtocol
  var interest: Epoll.Events
  /// What the client asked for, once it has subscribed: resolved again on every reload.
  var request: SubscriptionRequest?
  /// The broadcast it reads (see ``SocketBroadcasts``), once subscribed.
  var broadcast: Int?
  /// The sequence number of the next line it gets from its broadcast.
  var cursor: UInt64 = 0
  /// The unsent rest of a line a full socket cut short (written before anything else).
  var leftover: [UInt8] = []
  var leftoverOffset = 0
  /// Bytes the socket took for it so far (``ClientProtocol/isIdle(now:unreadBytes:sentBytes:)``).
  var sentBytes = 0

  /// Bytes read from a client per `read`; the subscription line is at most 257.
  static let readSize = 512

  /// The first client token in the epoll set (the listener's is below).
  static let firstToken: UInt64 = 16

  /// The epoll token of the client at `slot`: the slot in the low 16 bits, its serial
  /// above, so an event for a slot's former client is told apart.
  static func token(slot: Int, serial: UInt64) -> UInt64 {
    (serial << 16) | (UInt64(slot) + firstToken)
  }

  /// The slot and serial `token` names.
  static func slotAndSerial(of token: UInt64) -> (slot: Int, serial: UInt64) {
    (Int((token - firstToken) & 0xffff), token >> 16)
  }

  /// Skips the lines it lost by falling behind `history`: it goes on from the newest. Returns
  /// how many it lost.
  mutating func skipLost(in history: LineHistory) -> Int {
    guard cursor < history.oldestSequence else { return 0 }
    let lost = Int(history.newestSequence - cursor)
    cursor = history.newestSequence
    return lost
  }

  /// How a write pass ended.
  struct Written {
    /// The socket is full: the client waits for `EPOLLOUT`.
    var blocked = false
    /// Some bytes went out.
    var wroteSomething = false
    /// The send failed (the client goes).
    var failure: Errno?
    /// Lines it lost by falling behind the history.
    var dropped = 0
    /// Bytes the socket took.
    var bytes = 0
  }

  /// Writes its lines from `history` (the rest of a cut line first) until it has them all or
  /// its socket is full. A client behind the history goes on from the newest line.
  mutating func write(from history: LineHistory) -> Written {
    var written = Written()
    let descriptor = descriptor
    /// Sends what the socket takes of `bytes`: the count, or `nil` when it is full (or failed).
    func send(_ bytes: UnsafeRawBufferPointer) -> Int? {
      do {
        let count = try descriptor.send(bytes)
        written.wroteSomething = true
        written.bytes += count
        return count
      } catch .wouldBlock {
        return nil
      } catch {
        written.failure = error
        return nil
      }
    }
    while !written.blocked {
      if leftoverOffset < leftover.count {
        let offset = leftoverOffset
        let sent = leftover.withUnsafeBytes {
          send(UnsafeRawBufferPointer(rebasing: $0[offset...]))
        }
        if let sent { leftoverOffset += sent } else { written.blocked = true }
        continue
      }
      leftover.removeAll(keepingCapacity: true)
      leftoverOffset = 0
      guard cursor < history.nextSequence else { break }
      written.dropped += skipLost(in: history)
      let rest: [UInt8]?? = history.withLine(cursor) { line in
        guard let count = send(line) else { return nil }
        // The socket took part of it: keep the rest, so the line is never cut.
        return count < line.count ? Array(UnsafeRawBufferPointer(rebasing: line[count...])) : []
      }
      guard let rest else { break }
      if let rest {
        cursor += 1
        leftover.append(contentsOf: rest)
      } else {
        written.blocked = true
      }
    }
    sentBytes += written.bytes
    return written
  }

  /// What a read brought.
  enum Received {
    /// Nothing waits.
    case nothing
    case failed(Errno)
    /// The client shut its side: what the protocol then does.
    case ended(ClientProtocol.Action)
    /// Bytes: what the protocol does with them.
    case received(ClientProtocol.Action)
  }

  /// Reads what waits (into `buffer`) and hands it to the protocol.
  mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Received {
    let count: Int
    do {
      count = try descriptor.read(into: buffer)
    } catch .wouldBlock {
      return .nothing
    } catch {
      return .failed(error)
    }
    guard count > 0 else { return .ended(protocolState.endOfInput()) }
    return .received(protocolState.received(UnsafeRawBufferPointer(rebasing: buffer[..<count])))
  }

  /// Tells the protocol how a write pass went at `now` (a full socket counts toward the stuck
  /// timeout, a drained one ends it); returns the events to wait for: `EPOLLOUT` while full.
  mutating func events(after written: Written, now: Double) -> Epoll.Events {
    guard written.blocked else {
      protocolState.drained()
      return interest.subtracting(.writable)
    }
    protocolState.writeBlocked(now: now)
    if written.wroteSomething { protocolState.wrote(now: now) }
    return interest.union(.writable)
  }
}

extension [SocketClient?] {
  /// The earliest deadline of the connected clients' protocols (monotonic seconds).
  var earliestDeadline: Double? {
    var earliest: Double?
    for case let client? in self {
      guard let deadline = client.protocolState.nextDeadline else { continue }
      earliest = Swift.min(earliest ?? deadline, deadline)
    }
    return earliest
  }

  /// The client below `maxClients` that most plainly holds a slot for nothing at `now`
  /// (``ClientProtocol/isIdle(now:unreadBytes:sentBytes:)``: it sent nothing and left the most
  /// bytes unread), or `nil` when none does.
  func idleSlot(below maxClients: Int, now: Double) -> Int? {
    var chosen: (slot: Int, unread: Int)?
    for slot in 0..<Swift.min(maxClients, count) {
      guard let client = self[slot], let unread = client.descriptor.unreadBytes,
        client.protocolState.isIdle(now: now, unreadBytes: unread, sentBytes: client.sentBytes),
        unread > chosen?.unread ?? 0
      else { continue }
      chosen = (slot, unread)
    }
    return chosen?.slot
  }

  /// Moves the client at `from` (not subscribed yet) to the free `slot`, its epoll token with
  /// it; returns `slot`.
  mutating func move(_ from: Int, to slot: Int, in epoll: Epoll) -> Int {
    guard let client = self[from], self[slot] == nil else { return from }
    (self[slot], self[from]) = (client, nil)
    let token = SocketClient.token(slot: slot, serial: client.serial)
    try? epoll.modify(client.descriptor, client.interest, token: token)
    return slot
  }
}
