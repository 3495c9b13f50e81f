import PulseBarCore

@testable import PulseBarPlayers

/// Drives a ``PlayerCore`` at exact times, as its adapter would with no bus: events in, the
/// actions kept, and the calls they send answered as the test says.
struct PlayerCoreScript {
  static let mpv = "org.mpris.MediaPlayer2.mpv"
  static let owner = ":1.5"
  static let bus = "org.freedesktop.DBus"

  var core = PlayerCore()
  /// The actions of the last event.
  var actions: [BusAction] = []
  /// The calls sent and not yet answered, by number.
  var pending: [UInt64: BusCall] = [:]

  /// Hands `event` to the core at `time`; its actions.
  @discardableResult
  mutating func send(_ event: BusEvent, at time: Double) -> [BusAction] {
    actions = core.handle(event, at: time)
    for case .call(let id, let call) in actions { pending[id] = call }
    return actions
  }

  /// The newest unanswered call that asks `call`.
  func newest(_ call: BusCall) -> UInt64? {
    pending.filter { $0.value == call }.keys.max()
  }

  /// Answers call number `id` with `reply` at `time`.
  @discardableResult
  mutating func answer(_ id: UInt64, with reply: BusReply, at time: Double) -> [BusAction] {
    pending[id] = nil
    return send(.replied(call: id, reply), at: time)
  }

  /// Answers the newest unanswered `call` with `reply` at `time`.
  @discardableResult
  mutating func answer(_ call: BusCall, with reply: BusReply, at time: Double) -> [BusAction] {
    guard let id = newest(call) else { return [] }
    return answer(id, with: reply, at: time)
  }

  /// mpv takes its name at `time` and answers its `GetAll` with `properties` at once.
  mutating func appear(_ properties: PlayerProperties, at time: Double) {
    send(.ownerChanged(sender: Self.bus, name: Self.mpv, newOwner: Self.owner), at: time)
    answer(
      .properties(busName: Self.mpv), with: .properties(sender: Self.owner, properties), at: time)
  }

  /// mpv's `PropertiesChanged` at `time`.
  @discardableResult
  mutating func changed(
    _ properties: PlayerProperties, invalidated: [String] = [], at time: Double,
    from sender: String = owner
  ) -> [BusAction] {
    send(
      .propertiesChanged(
        sender: sender, interface: PlayerCore.playerInterface, properties: properties,
        invalidated: invalidated), at: time)
  }

  /// The position the engine would show at `time`, seconds.
  func position(at time: Double) -> Double? {
    core.registry.nowPlaying?.playbackPosition?.seconds(at: time)
  }

  /// The calls among the last event's actions.
  var calls: [BusCall] {
    actions.compactMap {
      if case .call(_, let call) = $0 { return call }
      return nil
    }
  }
}
