import Testing

@testable import PulseBarDaemon

/// `VERSION` is the one version: `pulsebar --version` and the man page print
/// ``CommandTable/version`` (the man page is checked against it in ``GeneratedFilesTests``), and
/// the Debian package takes debian/changelog's. Both copies say what the file says.
@Suite struct VersionTests {
  /// The first line of `VERSION`.
  static func shipped() throws -> String {
    let text = try readTextFile(PackageRoot.path + "/VERSION")
    return String(text.split(separator: "\n", omittingEmptySubsequences: false)[0])
  }

  @Test func swiftConstantIsTheVersionFile() throws {
    let shipped = try Self.shipped()
    #expect(
      CommandTable.version == shipped,
      "CommandTable.version is \(CommandTable.version), VERSION says \(shipped)")
  }

  /// "pulsebar (0.1.0) unstable; urgency=medium": the newest entry comes first.
  @Test func debianChangelogIsTheVersionFile() throws {
    let shipped = try Self.shipped()
    let changelog = try readTextFile(PackageRoot.path + "/debian/changelog")
    let first = changelog.split(separator: "\n").first ?? ""
    let version = first.split(separator: "(").dropFirst().first?.split(separator: ")").first
    #expect(
      version.map(String.init) == shipped,
      "debian/changelog's newest entry, \(first), is not VERSION's: dch -v \(shipped)")
  }
}
