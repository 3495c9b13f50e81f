import Glibc
import PulseBarSystem

/// The handler's I/O: accepting, reading subscription lines, writing lines without blocking,
/// deadlines and closing. Protocol decisions come from ``ClientProtocol``.
extension SocketHandler {
  func handle(_ token: UInt64, _ events: Epoll.Events) {
    if token == SocketListener.token {
      acceptClients()
      return
    }
    let (slot, serial) = SocketClient.slotAndSerial(of: token)
    guard slot < clients.count, let client = clients[slot], client.serial == serial
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
    while let client = listener.accept(epoll, logger: logger, now: now) {
      guard let slot = clients.firstIndex(where: { $0 == nil }) else {
        client.sendFinal("error: too many clients\n", scratch: readBuffer)
        continue
      }
      let serial = nextSerial
      nextSerial += 1
      let interest: Epoll.Events = [.readable, .readHangup]
      do {
        let token = SocketClient.token(slot: slot, serial: serial)
        try epoll.add(client, interest, token: token)
      } catch {
        client.closeQuietly()
        continue
      }
      clients[slot] = SocketClient(
        descriptor: client, serial: serial,
        protocolState: ClientProtocol(connectedAt: now), interest: interest)
      clientCount += 1
      logger.debug("socket: client \(serial) connected (\(clientCount) of \(maxClients))")
    }
  }

  // MARK: - Reading

  private func readClient(_ slot: Int) {
    // A few reads per readiness, so a client flooding junk after subscribing cannot starve others.
    for _ in 0..<8 where clients[slot] != nil {
      switch clients[slot]!.read(into: readBuffer) {
      case .nothing:
        return
      case .failed(let error):
        close(slot, "read: \(error)")
        return
      case .ended(let action):
        // Half-closed: keep sending frames, stop watching for input.
        setInterest(slot, clients[slot]!.interest.subtracting([.readable, .readHangup]))
        apply(action, slot)
        return
      case .received(let action):
        apply(action, slot)
      }
    }
  }

  func apply(_ action: ClientProtocol.Action, _ slot: Int) {
    guard let client = clients[slot] else { return }
    switch action {
    case .none:
      break
    case .subscribe where slot >= maxClients:
      guard let idle = clients.idleSlot(below: maxClients, now: now) else {
        return apply(.reject("error: too many clients\n"), slot)
      }
      close(idle, "idle: it sent nothing and read nothing, and its slot was wanted")
      apply(action, clients.move(slot, to: idle, in: epoll))
    case .subscribe(let request):
      switch rules.subscription(for: request) {
      case .failure(let problem):
        apply(.reject("error: \(problem)\n"), slot)
      case .success(let subscription):
        clients[slot]!.request = request
        broadcasts.attach(&clients[slot]!, to: subscription)
        logger.debug("socket: client \(client.serial) subscribed: \(subscription)")
        flush(slot)
      }
    case .status(let json):
      forget(slot, "asked for the status")
      statusDesk.asked(client.descriptor, json: json)
    case .reject(let line):
      forget(slot, "refused: \(line.dropLast())")
      client.descriptor.sendFinal(line, scratch: readBuffer)
    case .close:
      logger.info(ClientProtocol.stuckNote)
      close(slot, "stuck")
    }
  }

  // MARK: - Writing

  /// Writes client `slot`'s lines (the rest of a cut line first) until it has them all or its
  /// socket is full; then it waits for `EPOLLOUT`. A client behind its broadcast's history goes
  /// on from the newest line.
  func flush(_ slot: Int) {
    guard let broadcast = clients[slot]?.broadcast, let history = broadcasts[broadcast]?.history
    else {
      return
    }
    let written = clients[slot]!.write(from: history)
    droppedFrames += written.dropped
    if let failure = written.failure {
      close(slot, "write: \(failure)")
    } else {
      // A full socket waits for `EPOLLOUT` (and counts toward the stuck timeout).
      setInterest(slot, clients[slot]!.events(after: written, now: now))
    }
  }

  private func setInterest(_ slot: Int, _ interest: Epoll.Events) {
    guard let client = clients[slot], client.interest != interest else { return }
    clients[slot]!.interest = interest
    let token = SocketClient.token(slot: slot, serial: client.serial)
    try? epoll.modify(client.descriptor, interest, token: token)
  }

  // MARK: - Time

  func applyDeadlines(now: Double) {
    listener.resume(at: now, epoll)
    for slot in clients.indices where clients[slot] != nil {
      let action = clients[slot]!.protocolState.timePassed(now: now)
      apply(action, slot)
    }
  }

  // MARK: - Closing

  /// Unregisters client `slot` without closing its descriptor; `reason` is why it goes.
  func forget(_ slot: Int, _ reason: @autoclosure () -> String) {
    guard let client = clients[slot] else { return }
    logger.debug(
      "socket: client \(client.serial) disconnected (\(reason()); \(clientCount - 1) left)")
    epoll.remove(client.descriptor)
    broadcasts.detach(&clients[slot]!)
    clients[slot] = nil
    clientCount -= 1
  }

  func close(_ slot: Int, _ reason: @autoclosure () -> String) {
    guard let descriptor = clients[slot]?.descriptor else { return }
    forget(slot, reason())
    descriptor.closeQuietly()
  }
}
