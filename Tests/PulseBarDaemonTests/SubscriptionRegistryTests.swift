import Testing

@testable import PulseBarDaemon

/// The subscription registry on its own: the one record of who gets which lines.
@Suite struct SubscriptionRegistryTests {
  static let text = Subscription(format: .text, bars: 8)
  static let waybar30 = Subscription(format: .waybar, bars: 8, fps: 30)

  func publish(_ registry: inout SubscriptionRegistry, _ subscription: Subscription, _ line: String)
    -> Bool
  {
    Array(line.utf8).withUnsafeBytes { registry.publish(subscription, line: $0).delivered }
  }

  func queued(_ registry: inout SubscriptionRegistry, slot: Int) -> [String] {
    var outbox = LineRing(capacity: 8)
    guard registry.takeLines(slot: slot, into: &outbox) else { return [] }
    var lines: [String] = []
    while let line = outbox.first {
      lines.append(String(decoding: line, as: UTF8.self))
      outbox.removeFirst()
    }
    return lines
  }

  /// A brand-new subscription needs a first line from the engine; a client joining an existing
  /// one gets the latest line at once, from the registry alone.
  @Test func firstLinesComeFromTheRegistry() {
    var registry = SubscriptionRegistry(slotCount: 4, queueCapacity: 8)
    var isNew = registry.attach(slot: 0, to: Self.text)
    #expect(isNew, "a new subscription")
    #expect(registry.entries.map(\.hasLatest) == [false], "it needs its first line")
    #expect(queued(&registry, slot: 0).isEmpty)
    #expect(publish(&registry, Self.text, "a\n"))
    #expect(queued(&registry, slot: 0) == ["a\n"])
    isNew = registry.attach(slot: 2, to: Self.text)
    #expect(!isNew, "an existing subscription")
    #expect(queued(&registry, slot: 2) == ["a\n"], "its latest line at once")
    #expect(!publish(&registry, Self.waybar30, "{}\n"), "nobody has it")
  }

  /// Each subscription's lines reach its clients only; the last client leaving removes it.
  @Test func linesGoToTheirSubscribersAndEntriesGoWithTheLastOne() {
    var registry = SubscriptionRegistry(slotCount: 4, queueCapacity: 8)
    _ = registry.attach(slot: 0, to: Self.text)
    _ = registry.attach(slot: 1, to: Self.waybar30)
    _ = registry.attach(slot: 3, to: Self.waybar30)
    #expect(Set(registry.subscriptions) == [Self.text, Self.waybar30])
    _ = publish(&registry, Self.waybar30, "w\n")
    #expect(queued(&registry, slot: 0).isEmpty)
    #expect(queued(&registry, slot: 1) == ["w\n"])
    #expect(queued(&registry, slot: 3) == ["w\n"])
    var wasLast = registry.detach(slot: 1)
    #expect(!wasLast, "slot 3 still has it")
    wasLast = registry.detach(slot: 3)
    #expect(wasLast, "the last client of waybar30")
    #expect(registry.subscriptions == [Self.text])
    wasLast = registry.detach(slot: 2)
    #expect(!wasLast, "a slot that never subscribed")
  }

  /// A client that leaves gives its queue's memory back; one that stays keeps it, so its next
  /// lines are pushed without allocating (found by the soak: slots kept the widest lines any
  /// of their clients had queued, and the daemon's RSS only grew).
  @Test func aLeavingClientsQueueGivesItsMemoryBack() {
    var registry = SubscriptionRegistry(slotCount: 2, queueCapacity: 8)
    let wide = Subscription(format: .json, bars: 400)
    _ = registry.attach(slot: 0, to: wide)
    _ = registry.attach(slot: 1, to: wide)
    let line = String(repeating: "x", count: 3000) + "\n"
    for _ in 0..<8 { _ = publish(&registry, wide, line) }
    #expect(registry.slots[0].inbox.reservedBytes >= 8 * 3000)
    _ = registry.detach(slot: 0)
    #expect(registry.slots[0].inbox.reservedBytes == 0)
    #expect(registry.slots[1].inbox.reservedBytes >= 8 * 3000, "the staying client keeps it")
    #expect(queued(&registry, slot: 1).count == 8)
  }
}
