/// The distinct subscriptions the socket's clients read, each a channel with its last lines
/// (``LineHistory``) and how many clients read it.
///
/// A frame's line is copied into a channel once; every client of it writes from there. A
/// channel lives while a client reads it; ``version`` changes whenever the set of
/// subscriptions does (the engine then registers the consumers again). Indices stay put while
/// a channel lives, so a client keeps its channel's index.
struct SocketChannels {
  /// One subscription's lines and how many clients read them.
  struct Channel {
    var subscription: Subscription
    var history: LineHistory
    var clients: Int
  }

  /// Lines kept per channel.
  let historyCapacity: Int
  private var channels: [Channel?] = []
  /// Changes whenever the set of subscriptions does.
  private(set) var version: UInt64 = 0

  init(historyCapacity: Int) {
    self.historyCapacity = historyCapacity
  }

  /// The subscriptions read now.
  var subscriptions: [Subscription] { channels.compactMap { $0?.subscription } }

  /// Every channel's index, live or not.
  var indices: Range<Int> { channels.indices }

  /// Channel `index`, if it lives.
  subscript(index: Int) -> Channel? { channels[index] }

  /// The channel of `subscription`, if one lives.
  func index(of subscription: Subscription) -> Int? {
    channels.firstIndex { $0?.subscription == subscription }
  }

  /// One more client reads `subscription`: returns its channel, made when none lives.
  private mutating func join(_ subscription: Subscription) -> Int {
    if let existing = index(of: subscription) {
      channels[existing]!.clients += 1
      return existing
    }
    let channel = Channel(
      subscription: subscription, history: LineHistory(capacity: historyCapacity), clients: 1)
    version &+= 1
    if let free = channels.firstIndex(where: { $0 == nil }) {
      channels[free] = channel
      return free
    }
    channels.append(channel)
    return channels.count - 1
  }

  /// A client of channel `index` reads it no more; the last one ends it.
  private mutating func leave(_ index: Int) {
    channels[index]!.clients -= 1
    if channels[index]!.clients == 0 {
      channels[index] = nil
      version &+= 1
    }
  }

  /// Appends a copy of `line` to channel `index`'s history (in place: no copy of the history).
  mutating func append(_ line: UnsafeRawBufferPointer, to index: Int) {
    channels[index]!.history.append(line)
  }

  // MARK: - Clients

  /// `client` reads `subscription` from now on (leaving the channel it read): the
  /// subscription's latest line at once when it has one, else its first.
  mutating func attach(_ client: inout SocketClient, to subscription: Subscription) {
    if let current = client.channel {
      guard channels[current]?.subscription != subscription else { return }
      detach(&client)
    }
    let index = join(subscription)
    let history = channels[index]!.history
    client.channel = index
    client.cursor = history.isEmpty ? 0 : history.newestSequence
  }

  /// `client` reads nothing any more; the last client of a subscription ends it.
  mutating func detach(_ client: inout SocketClient) {
    guard let index = client.channel else { return }
    client.channel = nil
    leave(index)
  }
}
