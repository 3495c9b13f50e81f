/// What one method call of the players' session asks (``PlayerCore`` decides, the adapter
/// sends): the bus's names, a player's properties or position, who a player is.
package enum BusCall: Sendable, Equatable {
  /// `ListNames` of the bus: the players already there at start-up.
  case listNames
  /// `GetAll` of a player's `org.mpris.MediaPlayer2.Player` properties.
  case properties(busName: String)
  /// `Get` of a player's `Position` alone (after a signal with a new track, status or rate).
  case position(busName: String)
  /// `GetConnectionUnixProcessID` of the bus, for connection `owner`.
  case processID(owner: String)
  /// `Get` of a player's `DesktopEntry` (the root interface's).
  case desktopEntry(busName: String)
}
