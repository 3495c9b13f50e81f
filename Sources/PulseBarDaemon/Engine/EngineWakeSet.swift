import PulseBarSystem

/// The descriptors the engine's wait watches, and where each sits in its poll set. Built once
/// when the loop starts: the loop allocates nothing per wait.
struct EngineWakeSet {
  var poll = PollSet()
  /// The capture buffer's eventfd.
  var audio = 0
  var signals: Int?
  var playerFeed: Int?
  /// Deliveries with descriptors of their own (the socket's clients, the terminal's redraws).
  var deliveries: [(delivery: FrameDelivery, index: Int)] = []
  /// The terminal's stdin, when the engine reads it.
  var input: Int?

  /// An empty set, before the loop starts.
  init() {}

  init(
    audio: FileDescriptor, signals: FileDescriptor?, feed playerFeed: FileDescriptor?,
    deliveries: [FrameDelivery], input: FileDescriptor?
  ) {
    self.audio = poll.add(audio)
    self.signals = signals.map { poll.add($0) }
    self.playerFeed = playerFeed.map { poll.add($0) }
    for delivery in deliveries {
      if let wake = delivery.wakeDescriptor { self.deliveries.append((delivery, poll.add(wake))) }
    }
    self.input = input.map { poll.add($0) }
  }

  /// Whether the descriptor at `index` (if any) reported anything in the last wait.
  func isReady(_ index: Int?) -> Bool {
    guard let index else { return false }
    return !poll.ready(index).isEmpty
  }
}
