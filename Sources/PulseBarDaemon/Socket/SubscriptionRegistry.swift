/// Who gets which lines: every client slot's subscription and queued lines, and every distinct
/// subscription's latest line. The one record of subscriptions in the daemon.
///
/// A value with no I/O and no lock of its own: ``SocketServer`` owns the only instance, behind
/// its mutex; the engine thread publishes into it and the loop thread attaches, detaches and
/// takes queued lines out of it (see the flow at the top of `SocketServer.swift`). Slots'
/// rings and the latest lines keep their capacity while their client stays, so publishing
/// allocates nothing once each has held a line as long as the ones being published; a client
/// that leaves gives its rings' memory back.
struct SubscriptionRegistry {
  /// One client slot.
  struct Slot {
    /// What the client subscribed to; `nil` while the slot is free or the client has not
    /// subscribed yet.
    var subscription: Subscription?
    /// Lines published for the client that the loop has not taken yet.
    var inbox: LineRing
  }

  /// One distinct subscription.
  struct Entry {
    let subscription: Subscription
    /// Clients subscribed to it (at least one: an entry goes with its last subscriber).
    var subscribers: Int
    /// The last line published for it, which a client that joins gets at once. Replaced
    /// whole by the next publish, never changed in place.
    var latest: [UInt8] = []
    /// False until the first publish: the engine then publishes the subscription's current
    /// line even when the frame did not change it (a brand-new subscription has nothing yet).
    var hasLatest = false
  }

  private(set) var slots: ContiguousArray<Slot>
  /// Distinct subscriptions, in the order they first appeared (a few; searched linearly).
  private(set) var entries: ContiguousArray<Entry> = []

  /// `slotCount` client slots, each with a queue of `queueCapacity` lines.
  init(slotCount: Int, queueCapacity: Int) {
    slots = ContiguousArray(
      repeating: Slot(subscription: nil, inbox: LineRing(capacity: queueCapacity)),
      count: max(1, slotCount))
  }

  /// The distinct subscriptions of the current clients.
  var subscriptions: [Subscription] { entries.map(\.subscription) }

  // MARK: - Clients (loop thread)

  /// Client `slot` subscribed: its queue starts with the subscription's latest line, if any.
  /// Returns true when the subscription is new (the set of subscriptions changed).
  mutating func attach(slot: Int, to subscription: Subscription) -> Bool {
    slots[slot].subscription = subscription
    slots[slot].inbox.removeAll()
    if let index = entries.firstIndex(where: { $0.subscription == subscription }) {
      entries[index].subscribers += 1
      if entries[index].hasLatest { slots[slot].inbox.push(entries[index].latest) }
      return false
    }
    entries.append(Entry(subscription: subscription, subscribers: 1))
    return true
  }

  /// Client `slot` left (or never subscribed): forgets its subscription and queue. Returns
  /// true when it was its subscription's last client (the set of subscriptions changed).
  mutating func detach(slot: Int) -> Bool {
    let subscription = slots[slot].subscription
    slots[slot].subscription = nil
    // Its lines' memory goes too: kept, a slot would hold the widest lines any client of it
    // ever queued (up to 64 per ring), and the daemon's memory would only grow.
    slots[slot].inbox.removeAll(keepingCapacity: false)
    guard let subscription,
      let index = entries.firstIndex(where: { $0.subscription == subscription })
    else { return false }
    entries[index].subscribers -= 1
    guard entries[index].subscribers == 0 else { return false }
    entries.remove(at: index)
    return true
  }

  /// Swaps client `slot`'s queued lines into `outbox` (which must be empty); false when none
  /// were queued.
  mutating func takeLines(slot: Int, into outbox: inout LineRing) -> Bool {
    guard !slots[slot].inbox.isEmpty else { return false }
    swap(&slots[slot].inbox, &outbox)
    return true
  }

  // MARK: - Lines (engine thread)

  /// Publishes `line` for entry `index`: it becomes the latest and is queued for every
  /// subscriber (a full queue drops its oldest line). Returns the lines dropped.
  mutating func publish(entry index: Int, line: UnsafeRawBufferPointer) -> Int {
    let subscription = entries[index].subscription
    entries[index].latest.removeAll(keepingCapacity: true)
    entries[index].latest.append(contentsOf: line)
    entries[index].hasLatest = true
    var dropped = 0
    for slot in slots.indices where slots[slot].subscription == subscription {
      if slots[slot].inbox.push(line) { dropped += 1 }
    }
    return dropped
  }

  /// Publishes `line` for `subscription`, if any client has it; returns whether it did and the
  /// lines dropped.
  mutating func publish(
    _ subscription: Subscription, line: UnsafeRawBufferPointer
  ) -> (delivered: Bool, dropped: Int) {
    guard let index = entries.firstIndex(where: { $0.subscription == subscription }) else {
      return (false, 0)
    }
    return (true, publish(entry: index, line: line))
  }
}
