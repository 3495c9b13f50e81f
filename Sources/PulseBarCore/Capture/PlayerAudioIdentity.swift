/// The active MPRIS player as the capture needs it: who it is and whether it plays.
package struct PlayerAudioIdentity: Sendable, Equatable {
  /// The bus name after `org.mpris.MediaPlayer2.` (`mpv`, `spotify.instance123`).
  package var name: String
  /// The process that owns the player's bus name (`GetConnectionUnixProcessID`), when the bus
  /// said.
  package var processID: Int32?
  /// The player's `DesktopEntry` (`firefox`), when it says.
  package var desktopEntry: String?
  /// MPRIS says `Playing`.
  package var playing: Bool

  package init(name: String, processID: Int32?, desktopEntry: String? = nil, playing: Bool) {
    self.name = name
    self.processID = processID
    self.desktopEntry = desktopEntry
    self.playing = playing
  }

  /// The application part of the bus name: `spotify.instance123` gives `spotify`.
  package var applicationName: Substring {
    name.prefix { $0 != "." }
  }
}
