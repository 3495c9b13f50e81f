import Glibc
import PulseBarSystem

/// The handler's I/O: accepting, reading subscription lines, writing lines without blocking,
/// deadlines and closing. Protocol decisions come from ``ClientProtocol``.
extension SocketHandler {
  func handle(_ token: UInt64, _ events: Epoll.Events) {
    if token == Self.listenerToken {
      acceptClients()
      return
    }
    let slot = Int((token - Self.firstClientToken) & 0xffff)
    guard slot < clients.count, let client = clients[slot], client.generation == token >> 16
    else { return }
    if !events.isDisjoint(with: [.error, .hangup]) {
      close(slot, "it hung up")
      return
    }
    if !events.isDisjoint(with: [.readable, .readHangup]) { readClient(slot) }
    if events.contains(.writable), clients[slot] != nil { flush(slot) }
  }

  // MARK: - Accepting

  private func acceptClients() {
    while true {
      let client: FileDescriptor
      do {
        guard let accepted = try listener.accept() else { return }
        client = accepted
      } catch .interrupted {
        continue
      } catch {
        if error.rawValue == ECONNABORTED || error.rawValue == EPROTO { continue }
        // Out of descriptors or memory: stop accepting for a moment instead of spinning.
        logger.warning("socket: accept: \(error); pausing for 100 ms")
        epoll.remove(listener)
        listenerPausedUntil = monotonicNanoseconds() + 100_000_000
        return
      }
      guard let slot = clients.firstIndex(where: { $0 == nil }) else {
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
      clients[slot] = Client(
        descriptor: client, generation: generation,
        session: ClientProtocol(connectedAt: monotonicNanoseconds()), interest: interest)
      clientCount += 1
      logger.debug("socket: client \(generation) connected (\(clientCount) of \(maxClients))")
    }
  }

  private func token(slot: Int, generation: UInt64) -> UInt64 {
    (generation << 16) | (UInt64(slot) + Self.firstClientToken)
  }

  // MARK: - Reading

  private func readClient(_ slot: Int) {
    // A few reads per readiness, so a client flooding junk after subscribing cannot starve others.
    for _ in 0..<8 {
      guard let client = clients[slot] else { return }
      let count: Int
      do {
        count = try client.descriptor.read(into: readBuffer)
      } catch .wouldBlock {
        return
      } catch {
        close(slot, "read: \(error)")
        return
      }
      if count == 0 {
        // Half-closed: keep sending frames, stop watching for input.
        let action = clients[slot]!.session.endOfInput()
        setInterest(slot, client.interest.subtracting([.readable, .readHangup]))
        apply(action, slot)
        return
      }
      let action = clients[slot]!.session.received(
        UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
      apply(action, slot)
    }
  }

  func apply(_ action: ClientProtocol.Action, _ slot: Int) {
    guard let client = clients[slot] else { return }
    switch action {
    case .none:
      break
    case .subscribe(let request):
      switch rules.subscription(for: request) {
      case .failure(let problem):
        apply(.reject("error: \(problem)\n"), slot)
      case .success(let subscription):
        clients[slot]!.request = request
        attach(slot, to: subscription)
        logger.debug("socket: client \(client.generation) subscribed: \(subscription)")
        flush(slot)
      }
    case .reject(let line):
      forget(slot, "refused: \(line.dropLast())")
      sendFinal(client.descriptor, line)
    case .close:
      logger.info(
        "socket: a client made no progress for \(ClientProtocol.stuckTimeout / 1_000_000_000) s; disconnected"
      )
      close(slot, "stuck")
    }
  }

  // MARK: - Writing

  /// Writes client `slot`'s lines (the rest of a cut line first) until it has them all or its
  /// socket is full; then it waits for `EPOLLOUT`. A client behind its channel's history goes
  /// on from the newest line.
  func flush(_ slot: Int) {
    guard var client = clients[slot], let channel = client.channel else { return }
    let history = channels[channel]!.history
    let descriptor = client.descriptor
    var wroteSomething = false
    var failure: Errno?
    /// Sends what the socket takes of `bytes`: the count, or `nil` when it is full (or failed).
    func send(_ bytes: UnsafeRawBufferPointer) -> Int? {
      do {
        let count = try descriptor.send(bytes)
        wroteSomething = true
        return count
      } catch .wouldBlock {
        return nil
      } catch {
        failure = error
        return nil
      }
    }
    var blocked = false
    while !blocked {
      if client.leftoverOffset < client.leftover.count {
        let offset = client.leftoverOffset
        let sent = client.leftover.withUnsafeBytes {
          send(UnsafeRawBufferPointer(rebasing: $0[offset...]))
        }
        if let sent { client.leftoverOffset += sent } else { blocked = true }
        continue
      }
      client.leftover.removeAll(keepingCapacity: true)
      client.leftoverOffset = 0
      guard client.cursor < history.nextSequence else { break }
      if client.cursor < history.oldestSequence {
        droppedFrames += Int(history.newestSequence - client.cursor)
        client.cursor = history.newestSequence
      }
      let rest: [UInt8]?? = history.withLine(client.cursor) { line in
        guard let count = send(line) else { return nil }
        // The socket took part of it: keep the rest, so the line is never cut.
        return count < line.count ? Array(UnsafeRawBufferPointer(rebasing: line[count...])) : []
      }
      guard let rest else { break }
      if let rest {
        client.cursor += 1
        client.leftover.append(contentsOf: rest)
      } else {
        blocked = true
      }
    }
    clients[slot] = client
    flushEnded(slot, failure: failure, blocked: blocked, wroteSomething: wroteSomething)
  }

  /// After a flush of client `slot`: closed on a failed write; a full socket waits for
  /// `EPOLLOUT` (and counts toward the stuck timeout); a drained one stops waiting.
  private func flushEnded(_ slot: Int, failure: Errno?, blocked: Bool, wroteSomething: Bool) {
    guard let interest = clients[slot]?.interest else { return }
    if let failure {
      close(slot, "write: \(failure)")
    } else if blocked {
      let now = monotonicNanoseconds()
      clients[slot]!.session.writeBlocked(now: now)
      if wroteSomething { clients[slot]!.session.wrote(now: now) }
      setInterest(slot, interest.union(.writable))
    } else {
      clients[slot]!.session.drained()
      setInterest(slot, interest.subtracting(.writable))
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
    guard let client = clients[slot], client.interest != interest else { return }
    clients[slot]!.interest = interest
    try? epoll.modify(
      client.descriptor, interest, token: token(slot: slot, generation: client.generation))
  }

  // MARK: - Time

  func applyDeadlines(now: UInt64) {
    if let paused = listenerPausedUntil, now >= paused {
      listenerPausedUntil = nil
      try? epoll.add(listener, .readable, token: Self.listenerToken)
    }
    for slot in clients.indices where clients[slot] != nil {
      let action = clients[slot]!.session.timePassed(now: now)
      apply(action, slot)
    }
  }

  // MARK: - Closing

  /// Unregisters client `slot` without closing its descriptor; `reason` is why it goes.
  private func forget(_ slot: Int, _ reason: @autoclosure () -> String) {
    guard let client = clients[slot] else { return }
    logger.debug(
      "socket: client \(client.generation) disconnected (\(reason()); \(clientCount - 1) left)")
    epoll.remove(client.descriptor)
    detach(slot)
    clients[slot] = nil
    clientCount -= 1
  }

  func close(_ slot: Int, _ reason: @autoclosure () -> String) {
    guard let descriptor = clients[slot]?.descriptor else { return }
    forget(slot, reason())
    descriptor.closeQuietly()
  }
}
