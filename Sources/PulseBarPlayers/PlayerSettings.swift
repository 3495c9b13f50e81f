import PulseBarCore
import PulseBarSystem

/// What the players' thread takes from the configuration (`players.ignore` and
/// `players.prefer`, `lyrics.directory`, `colors.from_art` and `colors.background`), as the
/// mailboxes a reload posts to: the thread applies each at once. Made at start from the
/// configuration; `Engine.apply(_:)` posts a reload's when ``ReloadPlan`` says they changed.
package struct PlayerSettings: Sendable {
  /// `players.ignore` and `players.prefer`.
  package let preference: Mailbox<PlayerPreference>
  /// `lyrics.directory`, `~` expanded (`nil`: none).
  package let lyricsDirectory: Mailbox<String?>
  /// `colors.from_art` and `colors.background`.
  package let art: Mailbox<ArtSettings>
  /// The settings the thread starts from.
  package let initial: (preference: PlayerPreference, lyricsDirectory: String?, art: ArtSettings)
  /// `$HOME`, which `~` in `lyrics.directory` stands for.
  private let home: String?

  /// The settings of `configuration`, already taken (the thread starts from them).
  package init(_ configuration: Configuration, home: String?) {
    self.home = home
    initial = (
      configuration.players, LyricPaths.directory(configuration.lyricsDirectory, home: home),
      ArtSettings(configuration)
    )
    preference = Mailbox(initial.preference)
    lyricsDirectory = Mailbox(initial.lyricsDirectory)
    art = Mailbox(initial.art)
  }

  /// Posts `configuration`'s settings; only those that changed wake the thread.
  package func post(_ configuration: Configuration) {
    preference.post(configuration.players)
    lyricsDirectory.post(LyricPaths.directory(configuration.lyricsDirectory, home: home))
    art.post(ArtSettings(configuration))
  }
}
