import Glibc
import Testing

/// docs/ARCHITECTURE.md's paths are true (issue 34): every path it cites in backquotes
/// (`Sources/PulseBarCore/Capture`, `Engine/Engine.swift`) names a file or folder of the tree,
/// from the repository's root, from `Sources/` or from one of its modules.
@Suite struct ArchitecturePathTests {
  /// The backquoted words of `text` that look like a path: a letter first, a slash inside,
  /// only path characters.
  static func citedPaths(in text: String) -> Set<String> {
    let pathCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+-")
    var paths: Set<String> = []
    for (index, piece) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
    where index % 2 == 1 {
      guard piece.contains("/"), piece.first?.isLetter == true,
        piece.allSatisfy(pathCharacters.contains)
      else { continue }
      paths.insert(String(piece))
    }
    return paths
  }

  @Test func everyCitedPathExists() throws {
    let root = PackageRoot.path
    let text = try readTextFile(root + "/docs/ARCHITECTURE.md")
    let modules = SizeLimitTests.swiftFiles(under: root + "/Sources").compactMap {
      $0.dropFirst(root.count + "/Sources/".count).split(separator: "/").first.map(String.init)
    }
    let bases = [root, root + "/Sources"] + Set(modules).map { root + "/Sources/" + $0 }
    let cited = Self.citedPaths(in: text)
    #expect(cited.count >= 10, "\(cited.sorted())")
    let missing = cited.filter { path in !bases.contains { access($0 + "/" + path, F_OK) == 0 } }
    #expect(
      missing.isEmpty, "ARCHITECTURE.md cites paths that are not in the tree: \(missing.sorted())")
  }
}
