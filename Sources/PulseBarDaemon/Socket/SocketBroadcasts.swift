/// The distinct subscriptions the socket's clients read, each a broadcast with its last lines
/// (``LineHistory``) and how many clients read it.
///
/// A frame's line is copied into a broadcast once; every client of it writes from there. A
/// broadcast lives while a client reads it; ``version`` changes whenever the set of
/// subscriptions does (the engine then registers the consumers again). Indices stay put while
/// a broadcast lives, so a client keeps its broadcast's index.
struct SocketBroadcasts {
  /// One subscription's lines and how many clients read them.
  struct Broadcast {
    var subscription: Subscription
    var history: LineHistory
    var clients: Int
  }

  /// Lines kept per broadcast.
  let historyCapacity: Int
  private var broadcasts: [Broadcast?] = []
  /// Changes whenever the set of subscriptions does.
  private(set) var version: UInt64 = 0

  init(historyCapacity: Int) {
    self.historyCapacity = historyCapacity
  }

  /// The subscriptions read now.
  var subscriptions: [Subscription] { broadcasts.compactMap { $0?.subscription } }

  /// Every broadcast's index, live or not.
  var indices: Range<Int> { broadcasts.indices }

  /// Broadcast `index`, if it lives.
  subscript(index: Int) -> Broadcast? { broadcasts[index] }

  /// The broadcast of `subscription`, if one lives.
  func index(of subscription: Subscription) -> Int? {
    broadcasts.firstIndex { $0?.subscription == subscription }
  }

  /// One more client reads `subscription`: returns its broadcast, made when none lives.
  private mutating func join(_ subscription: Subscription) -> Int {
    if let existing = index(of: subscription) {
      broadcasts[existing]!.clients += 1
      return existing
    }
    let broadcast = Broadcast(
      subscription: subscription, history: LineHistory(capacity: historyCapacity), clients: 1)
    version &+= 1
    if let free = broadcasts.firstIndex(where: { $0 == nil }) {
      broadcasts[free] = broadcast
      return free
    }
    broadcasts.append(broadcast)
    return broadcasts.count - 1
  }

  /// A client of broadcast `index` reads it no more; the last one ends it.
  private mutating func leave(_ index: Int) {
    broadcasts[index]!.clients -= 1
    if broadcasts[index]!.clients == 0 {
      broadcasts[index] = nil
      version &+= 1
    }
  }

  /// Appends a copy of `line` to broadcast `index`'s history (in place: no copy of the history).
  mutating func append(_ line: UnsafeRawBufferPointer, to index: Int) {
    broadcasts[index]!.history.append(line)
  }

  // MARK: - Clients

  /// `client` reads `subscription` from now on (leaving the broadcast it read): the
  /// subscription's latest line at once when it has one, else its first.
  mutating func attach(_ client: inout SocketClient, to subscription: Subscription) {
    if let current = client.broadcast {
      guard broadcasts[current]?.subscription != subscription else { return }
      detach(&client)
    }
    let index = join(subscription)
    let history = broadcasts[index]!.history
    client.broadcast = index
    client.cursor = history.isEmpty ? 0 : history.newestSequence
  }

  /// `client` reads nothing any more; the last client of a subscription ends it.
  mutating func detach(_ client: inout SocketClient) {
    guard let index = client.broadcast else { return }
    client.broadcast = nil
    leave(index)
  }
}
