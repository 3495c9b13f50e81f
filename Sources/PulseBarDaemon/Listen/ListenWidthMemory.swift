import Glibc
import PulseBarCore
import PulseBarSystem

/// The width of the last live line `pulsebar listen` relayed, kept in the runtime directory
/// per socket and format (`$XDG_RUNTIME_DIR/pulsebar-listen-FORMAT-HASH.width`).
///
/// A template whose width is known beforehand (no unbounded text:
/// ``FrameRenderer/knownWidth``) needs none of it. One with a `{title}` without a width is only
/// as wide as its last title, so a listen started while the daemon is away (a bar restarted, a
/// new login before the daemon) pads its offline and error lines to what the last listen of
/// that socket and format saw, not to the default template's few cells. The file is a number
/// and nothing else; a missing, foreign or odd one is no width.
package struct ListenWidthMemory: Sendable {
  /// The file, or `nil` without a runtime directory (nothing is kept then).
  let path: String?

  /// The widest a remembered width may be (a padded line stays within i3blocks' bytes).
  static let maximumCells = 1000

  package init(socketPath: String, format: OutputFormat, runtimeDirectory: String? = nil) {
    guard let directory = runtimeDirectory ?? environment("XDG_RUNTIME_DIR"), !directory.isEmpty
    else {
      path = nil
      return
    }
    // FNV-1a over the socket path: one file per socket, of a fixed short name.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in socketPath.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    path = "\(directory)/pulsebar-listen-\(format.rawValue)-\(String(hash, radix: 16)).width"
  }

  /// The width last remembered, if there is a sane one.
  package func recall() -> Int? {
    guard let path, let bytes = try? RegularFile.read(path, maximumBytes: 16) else { return nil }
    let digits = bytes.prefix { $0 != UInt8(ascii: "\n") }
    guard let cells = Int(String(decoding: digits, as: UTF8.self)),
      (1...Self.maximumCells).contains(cells)
    else { return nil }
    return cells
  }

  /// Keeps `width` for a listen started while the daemon is away, when its template's width
  /// is not known beforehand.
  package func keep(_ width: LiveLineWidth) {
    if !width.isKnown, let cells = width.cells { remember(cells) }
  }

  /// Keeps `cells` for the next listen (written whole: a new file renamed over the old).
  package func remember(_ cells: Int) {
    guard let path, (1...Self.maximumCells).contains(cells), recall() != cells else { return }
    let temporary = "\(path).\(getpid())"
    guard
      let file = try? FileDescriptor.open(
        temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, permissions: 0o600)
    else { return }
    let written = (try? file.writeAll("\(cells)\n")) != nil
    file.closeQuietly()
    if !written || rename(temporary, path) != 0 { unlink(temporary) }
  }
}
