/// How the last reload (SIGHUP, `systemctl --user reload`) ended, for `pulsebar status`: when
/// (monotonic seconds) and the error that kept the old config (`FILE:LINE: …`), or none. The
/// log said it, but `status` said nothing and `config_exists: true` looked like all was well.
package struct ReloadOutcome: Sendable, Equatable {
  package var at: Double
  /// Why the config was not reloaded; `nil`: it was.
  package var error: String?

  package init(at: Double, error: String?) {
    self.at = at
    self.error = error
  }
}
