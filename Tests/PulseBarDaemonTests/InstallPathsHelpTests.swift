import Testing

@testable import PulseBarDaemon

/// `--help` and the man page's FILES name where each kind of install puts the user units and
/// the examples: they named only `make install`'s ~/.config/systemd/user, and no examples.
@Suite struct InstallPathsHelpTests {
  static let paths = [
    "/usr/lib/systemd/user", "~/.local/share/systemd/user", "~/.config/systemd/user",
    "/usr/share/doc/pulsebar/examples", "~/.local/share/doc/pulsebar/examples",
  ]

  @Test(arguments: paths)
  func helpAndManPageNameThem(path: String) {
    #expect(HelpText.full().contains(path), "--help")
    let escaped = path.split(separator: "-", omittingEmptySubsequences: false).joined(
      separator: "\\-")
    #expect(ManPage.render().contains(escaped), "man page: \(escaped)")
  }
}
