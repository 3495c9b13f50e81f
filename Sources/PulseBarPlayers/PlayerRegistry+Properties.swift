import PulseBarCore

extension PlayerRegistry {
  /// Applies one message's `Player` properties (a `GetAll` reply, a `PropertiesChanged`
  /// signal) to `busName` at `time` (monotonic seconds): the track first (its length bounds the
  /// position), then the position, the rate, and the status last, so a status change
  /// re-anchors the position the message just gave. The values are already bounded
  /// (``BusMessage/readPlayerProperties()``, ``PlayerValueBounds``).
  mutating func apply(_ properties: PlayerProperties, to busName: String, at time: Double) {
    if let metadata = properties.metadata { update(busName, metadata: metadata) }
    if let position = properties.position { update(busName, position: position, at: time) }
    if let rate = properties.rate { update(busName, rate: rate, at: time) }
    if let volume = properties.volume { update(busName, volume: volume) }
    if let status = properties.status { update(busName, status: status, at: time) }
  }
}
