import Glibc
import PulseBarSystem
import Synchronization

/// The socket server's event loop: one epoll over the listener, the clients, an eventfd the
/// engine writes to, and a timerfd for deadlines (subscription lines, stuck clients).
///
/// Created on, and confined to, the loop thread (asserted in debug builds). Per-client protocol
/// decisions come from ``ClientProtocol``; this type only does the I/O they ask for.
final class SocketLoop {
  /// One connected client, by slot.
  private struct Connection {
    var descriptor: FileDescriptor
    var generation: UInt64
    var session: ClientProtocol
    var interest: Epoll.Events
    /// What the client asked for, once it has subscribed: resolved again on every reload.
    var request: SubscriptionRequest?
    /// Bytes of the outbox's first line already written.
    var offset = 0
  }

  private static let listenerToken: UInt64 = 0
  private static let wakeToken: UInt64 = 1
  private static let timerToken: UInt64 = 2
  private static let firstClientToken: UInt64 = 16
  /// Bytes read from a client per `read`; the subscription line is at most 257.
  private static let readSize = 512

  private let server: SocketServer
  private let epoll: Epoll
  private let timer: FileDescriptor
  private let owner = pthread_self()
  private var connections: [Connection?]
  /// Per slot, the lines being written; swapped with the slot's inbox when empty.
  private var outboxes: ContiguousArray<LineRing>
  private var nextGeneration: UInt64 = 1
  private var activeCount = 0
  private var armedDeadline: UInt64?
  /// Set while accepting is paused after EMFILE and the like.
  private var listenerPausedUntil: UInt64?
  private let readBuffer = UnsafeMutableRawBufferPointer.allocate(
    byteCount: SocketLoop.readSize, alignment: 1)
  /// Slots whose outbox was refilled during this wake-up, to flush after the lock is dropped.
  private var refilled: [Int] = []
  /// The server's rules generation the clients' subscriptions were last resolved under.
  private var rulesGeneration: UInt64

  init(server: SocketServer) throws(Errno) {
    self.server = server
    epoll = try Epoll()
    timer = try TimerDescriptor.make()
    connections = Array(repeating: nil, count: server.maxClients)
    outboxes = ContiguousArray(
      repeating: LineRing(capacity: SocketServer.queueCapacity), count: server.maxClients)
    refilled.reserveCapacity(server.maxClients)
    rulesGeneration = server.rulesGeneration
  }

  deinit {
    timer.closeQuietly()
    readBuffer.deallocate()
  }

  /// Runs until the server's stop is requested, then closes everything.
  func run() throws(Errno) {
    defer { shutDown() }
    try epoll.add(server.listener, .readable, token: Self.listenerToken)
    try epoll.add(server.wakeDescriptor, .readable, token: Self.wakeToken)
    try epoll.add(timer, .readable, token: Self.timerToken)
    while !server.stopRequested.load(ordering: .acquiring) {
      try epoll.wait(timeoutMilliseconds: -1) { token, events in handle(token, events) }
      rearmTimer()
    }
  }

  private func assertOnLoop() {
    assert(pthread_equal(owner, pthread_self()) != 0, "SocketLoop used off its thread")
  }

  // MARK: - Events

  private func handle(_ token: UInt64, _ events: Epoll.Events) {
    assertOnLoop()
    switch token {
    case Self.listenerToken:
      acceptClients()
    case Self.wakeToken:
      EventDescriptor.drain(server.wakeDescriptor)
      server.wakePending.store(false, ordering: .releasing)
      if server.rulesGeneration != rulesGeneration { resolveAgain() }
      deliverQueuedLines()
    case Self.timerToken:
      EventDescriptor.drain(timer)  // a timerfd reads like an eventfd: an 8-byte count
      armedDeadline = nil
      applyDeadlines(now: monotonicNanoseconds())
    default:
      let slot = Int((token - Self.firstClientToken) & 0xffff)
      guard slot < connections.count, let connection = connections[slot],
        connection.generation == token >> 16
      else { return }
      if !events.isDisjoint(with: [.error, .hangup]) {
        close(slot, "it hung up")
        return
      }
      if !events.isDisjoint(with: [.readable, .readHangup]) { readClient(slot) }
      if events.contains(.writable), connections[slot] != nil { flush(slot) }
    }
  }

  // MARK: - Accepting

  private func acceptClients() {
    while true {
      let client: FileDescriptor
      do {
        guard let accepted = try server.listener.accept() else { return }
        client = accepted
      } catch .interrupted {
        continue
      } catch {
        if error.rawValue == ECONNABORTED || error.rawValue == EPROTO { continue }
        // Out of descriptors or memory: stop accepting for a moment instead of spinning.
        server.logger.warning("socket: accept: \(error); pausing for 100 ms")
        epoll.remove(server.listener)
        listenerPausedUntil = monotonicNanoseconds() + 100_000_000
        return
      }
      guard activeCount < server.maxClients,
        let slot = connections.firstIndex(where: { $0 == nil })
      else {
        sendFinal(client, "error: too many clients\n")
        continue
      }
      let generation = nextGeneration
      nextGeneration += 1
      let interest: Epoll.Events = [.readable, .readHangup]
      do {
        try epoll.add(client, interest, token: token(slot: slot, generation: generation))
      } catch {
        client.closeQuietly()
        continue
      }
      connections[slot] = Connection(
        descriptor: client, generation: generation,
        session: ClientProtocol(connectedAt: monotonicNanoseconds()),
        interest: interest)
      activeCount += 1
      server.connectedClients.add(1, ordering: .relaxed)
      server.logger.debug(
        "socket: client \(generation) connected (\(activeCount) of \(server.maxClients))")
    }
  }

  private func token(slot: Int, generation: UInt64) -> UInt64 {
    (generation << 16) | (UInt64(slot) + Self.firstClientToken)
  }

  // MARK: - Reading

  private func readClient(_ slot: Int) {
    // A few reads per readiness, so a client flooding junk after subscribing cannot starve others.
    for _ in 0..<8 {
      guard let connection = connections[slot] else { return }
      let count: Int
      do {
        count = try connection.descriptor.read(into: readBuffer)
      } catch .wouldBlock {
        return
      } catch {
        close(slot, "read: \(error)")
        return
      }
      if count == 0 {
        // Half-closed: keep sending frames, stop watching for input.
        let action = connections[slot]!.session.endOfInput()
        setInterest(slot, connection.interest.subtracting([.readable, .readHangup]))
        apply(action, slot)
        return
      }
      let action = connections[slot]!.session.received(
        UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
      apply(action, slot)
    }
  }

  private func apply(_ action: ClientProtocol.Action, _ slot: Int) {
    guard connections[slot] != nil else { return }
    switch action {
    case .none:
      break
    case .subscribe(let request):
      switch server.rules.subscription(for: request) {
      case .failure(let problem):
        apply(.reject("error: \(problem)\n"), slot)
      case .success(let subscription):
        connections[slot]!.request = request
        server.attach(slot: slot, to: subscription)
        server.logger.debug(
          "socket: client \(connections[slot]!.generation) subscribed: \(subscription)")
        flush(slot)
      }
    case .reject(let line):
      let descriptor = connections[slot]!.descriptor
      forget(slot, "refused: \(line.dropLast())")
      sendFinal(descriptor, line)
    case .close:
      server.logger.info(
        "socket: a client made no progress for \(ClientProtocol.stuckTimeout / 1_000_000_000) s; disconnected"
      )
      close(slot, "stuck")
    }
  }

  /// After a reload: every subscribed client's request resolved under the new rules. A client
  /// keeps what it asked for while that is still valid, and what it left out follows the new
  /// default; a request the new config cannot serve (`bars=7` after a switch to stereo) gets
  /// its `error: …` line and is closed, as it would have been had it connected now. Never
  /// silence: a client either gets frames or is told why not.
  private func resolveAgain() {
    rulesGeneration = server.rulesGeneration
    let rules = server.rules
    for slot in connections.indices {
      guard let request = connections[slot]?.request else { continue }
      switch rules.subscription(for: request) {
      case .failure(let problem):
        server.logger.info("socket: a client's \(request) no longer fits the config: \(problem)")
        apply(.reject("error: \(problem)\n"), slot)
      case .success(let subscription):
        server.reattach(slot: slot, to: subscription)
      }
    }
  }

  // MARK: - Writing

  /// Moves every idle subscribed client's inbox into its outbox and writes.
  private func deliverQueuedLines() {
    refilled.removeAll(keepingCapacity: true)
    server.registry.withLock { registry in
      for slot in connections.indices {
        guard let connection = connections[slot], !connection.interest.contains(.writable),
          outboxes[slot].isEmpty, registry.takeLines(slot: slot, into: &outboxes[slot])
        else { continue }
        refilled.append(slot)
      }
    }
    // Lines published after the swap set `wakePending` again, so no refill check is needed here.
    for slot in refilled { flush(slot, refill: false) }
  }

  /// Writes client `slot`'s queued lines until done or the socket is full; with `refill`, also
  /// what waits in its inbox (lines that arrived while it had a backlog).
  private func flush(_ slot: Int, refill: Bool = true) {
    guard var connection = connections[slot] else { return }
    var wroteSomething = false
    while true {
      while let (written, length) = outboxes[slot].withFirst({ line in
        (writeSome(connection.descriptor, line, from: connection.offset), line.count)
      }) {
        switch written {
        case .success(let count):
          wroteSomething = true
          connection.offset += count
          if connection.offset == length {
            outboxes[slot].removeFirst()
            connection.offset = 0
          }
        case .failure(.wouldBlock):
          let now = monotonicNanoseconds()
          connection.session.writeBlocked(now: now)
          if wroteSomething { connection.session.wrote(now: now) }
          connections[slot] = connection
          setInterest(slot, connection.interest.union(.writable))
          return
        case .failure(let error):
          connections[slot] = connection
          close(slot, "write: \(error)")
          return
        }
      }
      guard refill else { break }
      let more = server.registry.withLock { $0.takeLines(slot: slot, into: &outboxes[slot]) }
      if !more { break }
    }
    connection.session.drained()
    connections[slot] = connection
    setInterest(slot, connection.interest.subtracting(.writable))
  }

  private func writeSome(
    _ descriptor: FileDescriptor, _ line: UnsafeRawBufferPointer, from offset: Int
  ) -> Result<Int, Errno> {
    Result { () throws(Errno) in
      try descriptor.send(UnsafeRawBufferPointer(rebasing: line[offset...]))
    }
  }

  /// Writes a last line (an error) without blocking, then closes so the peer reads it and EOF.
  private func sendFinal(_ descriptor: FileDescriptor, _ line: String) {
    var line = line
    _ = line.withUTF8 { bytes in try? descriptor.send(UnsafeRawBufferPointer(bytes)) }
    descriptor.shutdownWrite()
    // Unread input at close can turn into a reset on some stacks; read a little of it away.
    for _ in 0..<4 {
      guard let count = try? descriptor.read(into: readBuffer), count > 0 else { break }
    }
    descriptor.closeQuietly()
  }

  private func setInterest(_ slot: Int, _ interest: Epoll.Events) {
    guard let connection = connections[slot], connection.interest != interest else { return }
    connections[slot]!.interest = interest
    try? epoll.modify(
      connection.descriptor, interest,
      token: token(slot: slot, generation: connection.generation))
  }

  // MARK: - Time

  private func applyDeadlines(now: UInt64) {
    if let paused = listenerPausedUntil, now >= paused {
      listenerPausedUntil = nil
      try? epoll.add(server.listener, .readable, token: Self.listenerToken)
    }
    for slot in connections.indices where connections[slot] != nil {
      let action = connections[slot]!.session.timePassed(now: now)
      apply(action, slot)
    }
  }

  private func rearmTimer() {
    var earliest = listenerPausedUntil
    for connection in connections {
      guard let deadline = connection?.session.nextDeadline else { continue }
      earliest = min(earliest ?? deadline, deadline)
    }
    guard earliest != armedDeadline else { return }
    armedDeadline = earliest
    TimerDescriptor.arm(timer, at: earliest)
  }

  // MARK: - Closing

  /// Unregisters client `slot` without closing its descriptor; `reason` is why it goes.
  private func forget(_ slot: Int, _ reason: @autoclosure () -> String) {
    guard let connection = connections[slot] else { return }
    server.logger.debug(
      "socket: client \(connection.generation) disconnected (\(reason()); \(activeCount - 1) left)")
    epoll.remove(connection.descriptor)
    server.detach(slot: slot)
    outboxes[slot].removeAll(keepingCapacity: false)  // as the inbox (SubscriptionRegistry.detach)
    connections[slot] = nil
    activeCount -= 1
    server.connectedClients.subtract(1, ordering: .relaxed)
  }

  private func close(_ slot: Int, _ reason: @autoclosure () -> String) {
    guard let descriptor = connections[slot]?.descriptor else { return }
    forget(slot, reason())
    descriptor.closeQuietly()
  }

  private func shutDown() {
    for slot in connections.indices { close(slot, "the daemon stops") }
    epoll.remove(server.listener)
    server.closeListener()
  }
}
