/// What a reply to a ``BusCall`` said, as the adapter read it for that call (the values
/// bounded where they are read, ``BusMessage``): whether it counts is ``PlayerCore``'s to say.
/// A call that timed out arrives as ``failed(_:)``, as sd-bus reports it.
package enum BusReply: Sendable, Equatable {
  /// `ListNames`: the names, or `nil` when the reply held none.
  case names([String]?)
  /// `GetAll`: who answered, and the properties read.
  case properties(sender: String?, PlayerProperties)
  /// `Get Position`: who answered, and the position when it was an `x` in a variant.
  case position(sender: String?, Int64?)
  /// `GetConnectionUnixProcessID`: who answered, and the number when it was a `u`.
  case processID(sender: String?, Double?)
  /// `Get DesktopEntry`: who answered, and the entry when it was a string of at most 255 bytes.
  case desktopEntry(sender: String?, String?)
  /// An error reply, or no reply within ``PlayerSession/methodTimeoutMicroseconds``.
  case failed(String)
}
