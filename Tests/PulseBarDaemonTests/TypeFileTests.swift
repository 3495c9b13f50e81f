import Testing

/// Each type in `Sources/` has a file of its own name (issue #27): a top-level `struct`,
/// `class`, `enum`, `protocol` or `actor` named `Name` is declared in `Name.swift` or in a
/// `Name+Concern.swift`, never beside another type. A `private` or `fileprivate` type is a small
/// helper of its file and may stay in it.
///
/// Found by the declarations that start at a line's first column once comments and string
/// literals are left out (``SourceSizeScanner/codeLines(_:)``; the sources follow
/// `swift format`, which indents every nested declaration).
@Suite struct TypeFileTests {
  /// Types not moved to a file of their own yet, as the test reports them ("Name in path").
  /// The list can only shrink: an entry leaves it once its type has its own file (the test
  /// fails until it does). Empty: every type has its file.
  static let allowed: Set<String> = []

  /// The top-level types `text` declares that are not `private` or `fileprivate`.
  static func sharedTypes(in text: String) -> [String] {
    var names: [String] = []
    for line in SourceSizeScanner.codeLines(text) where !(line.first?.isWhitespace ?? true) {
      var words = line.split(separator: " ")[...]
      var hidden = false
      while let word = words.first, word.hasPrefix("@") || modifiers.contains(String(word)) {
        hidden = hidden || word == "private" || word == "fileprivate"
        words.removeFirst()
      }
      guard let keyword = words.first, keywords.contains(String(keyword)), !hidden,
        let name = words.dropFirst().first
      else { continue }
      names.append(String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
    }
    return names
  }

  private static let keywords: Set<String> = ["struct", "class", "enum", "protocol", "actor"]
  private static let modifiers: Set<String> = [
    "public", "package", "internal", "private", "fileprivate", "open", "final", "indirect",
    "nonisolated",
  ]

  /// The types in `Sources/` declared in a file not named after them, as "Name in path".
  static func strays() throws -> [String] {
    let root = PackageRoot.path + "/"
    var found: [String] = []
    for path in SizeLimitTests.swiftFiles(under: root + "Sources") {
      let file = String(path.dropFirst(root.count))
      let base = file.split(separator: "/").last!.dropLast(".swift".count)
      let owner = base.prefix { $0 != "+" }
      for name in sharedTypes(in: try readTextFile(path)) where name != owner {
        found.append("\(name) in \(file)")
      }
    }
    return found.sorted()
  }

  @Test("every type in Sources/ is declared in a file named after it")
  func typesHaveTheirOwnFiles() throws {
    let strays = try Self.strays()
    let report = strays.filter { !Self.allowed.contains($0) }
    #expect(report.isEmpty, "move to a file of its own name:\n\(report.joined(separator: "\n"))")
    let fixed = Self.allowed.subtracting(strays)
    #expect(
      fixed.isEmpty, "in a file of its own now, remove from the allow-list: \(fixed.sorted())")
  }

  @Test("a file's private helpers, nested types, comments and strings are not its types")
  func onlySharedTopLevelTypesCount() {
    let text = """
      /// struct InComment {}
      @MainActor
      package final class A {
        struct Nested {}
        let s = \"""
      enum InString {}
      \"""
      }
      private struct Helper {}
      extension B {}
      indirect enum C: Sendable { case c }
      protocol D: AnyObject {}
      """
    #expect(Self.sharedTypes(in: text) == ["A", "C", "D"])
  }
}
