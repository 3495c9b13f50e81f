import PulseBarCore

// MARK: - The calls each request makes

extension PlayerControl {
  /// Sends `request` to the player `busName`, every call within `deadline` (monotonic
  /// nanoseconds): a step of the volume reads `Volume` first, a position reads the track's
  /// `mpris:trackid` (which `SetPosition` must name), each bounded as it arrives.
  static func send(
    _ request: Request, to busName: String, on connection: BusConnection, deadline: UInt64
  ) throws(BusError) {
    switch request {
    case .call(let action):
      let call = try playerCall(action.member, to: busName, on: connection)
      _ = try connection.call(call, timeoutSeconds: secondsLeft(until: deadline))
    case .volume(let change):
      var current = 0.0
      if change.isStep {
        let reply = try property("Volume", of: busName, on: connection, deadline: deadline)
        guard let volume = reply.readVariantDouble().flatMap(PlayerValueBounds.volume) else {
          throw BusError("it does not say its volume")
        }
        current = volume
      }
      let set = try connection.methodCall(
        destination: busName, path: PlayerSession.playerPath,
        interface: propertiesInterface, member: "Set",
        arguments: [PlayerCore.playerInterface, "Volume"])
      try set.appendVariant(double: change.level(from: current))
      _ = try connection.call(set, timeoutSeconds: secondsLeft(until: deadline))
    case .seek(let microseconds):
      let call = try playerCall("Seek", to: busName, on: connection)
      try call.append(int64: microseconds)
      _ = try connection.call(call, timeoutSeconds: secondsLeft(until: deadline))
    case .position(let microseconds):
      let reply = try property("Metadata", of: busName, on: connection, deadline: deadline)
      guard let trackID = reply.readTrackID() else {
        throw BusError("it names no track (no mpris:trackid) to set the position in")
      }
      let call = try playerCall("SetPosition", to: busName, on: connection)
      try call.append(trackID, type: UInt8(ascii: "o"))
      try call.append(int64: microseconds)
      _ = try connection.call(call, timeoutSeconds: secondsLeft(until: deadline))
    }
  }

  private static let propertiesInterface = "org.freedesktop.DBus.Properties"

  /// A call of `member` on the player's `org.mpris.MediaPlayer2.Player`, arguments to append.
  private static func playerCall(
    _ member: String, to busName: String, on connection: BusConnection
  ) throws(BusError) -> BusMessage {
    try connection.methodCall(
      destination: busName, path: PlayerSession.playerPath,
      interface: PlayerCore.playerInterface, member: member)
  }

  /// The reply to `Properties.Get` of the player's property `name`, positioned at its `v`.
  private static func property(
    _ name: String, of busName: String, on connection: BusConnection, deadline: UInt64
  ) throws(BusError) -> BusMessage {
    let get = try connection.methodCall(
      destination: busName, path: PlayerSession.playerPath, interface: propertiesInterface,
      member: "Get", arguments: [PlayerCore.playerInterface, name])
    return try connection.call(get, timeoutSeconds: secondsLeft(until: deadline))
  }
}
