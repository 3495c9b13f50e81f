import PulseBarCore

/// What happened on the bus, as the players' adapter (``PlayerSession``) hands it to
/// ``PlayerCore/handle(_:at:)``: messages read into values, nothing decided about them yet.
package enum BusEvent: Sendable, Equatable {
  /// The session subscribed to `NameOwnerChanged`: time to list the players already there.
  case started
  /// `NameOwnerChanged(name, old, new)` from `sender` (the bus itself, if it is to count).
  case ownerChanged(sender: String?, name: String, newOwner: String)
  /// `PropertiesChanged(interface, changed, invalidated)` from `sender`.
  case propertiesChanged(
    sender: String?, interface: String?, properties: PlayerProperties, invalidated: [String])
  /// `Seeked(position)` from `sender`, `nil` when it held no `x`.
  case seeked(sender: String?, position: Int64?)
  /// The reply to call `call` (a ``BusAction/call(_:_:)``'s number), or its timeout.
  case replied(call: UInt64, BusReply)
  /// `players.ignore` or `players.prefer` was reloaded.
  case preferenceChanged(PlayerPreference)
  /// The lyric or art settings were reloaded: the active track is published again.
  case findersReloaded
  /// The end of the driver's turn: what is due by now is done (muted players followed again,
  /// silent ones and settling positions asked again) and what changed in the turn is published.
  case tick
}
