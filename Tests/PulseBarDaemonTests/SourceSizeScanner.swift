/// The declarations of one Swift source file and how many lines each spans, found by counting
/// braces outside comments and string literals (no parser: the sources follow `swift format`).
///
/// A declaration spans every line from the one its keyword is on to its closing brace,
/// comments and blank lines inside included, its doc comment not. Functions are `func`,
/// `init`, `deinit` and `subscript` with a body (closures and accessors inside count toward
/// the function that holds them); types are `class`, `struct`, `enum`, `actor` and
/// `extension`, named with the types that enclose them (`Engine.Slots`), an extension by the
/// type it extends.
struct SourceSizeScanner {
  /// A declaration with a body.
  struct Declaration: Equatable {
    /// What the declaration declares.
    enum Kind: Equatable { case function, type }
    var kind: Kind
    /// A function's name in its type (`Engine.run`); a type's qualified name.
    var name: String
    /// The line its keyword is on (1-based).
    var line: Int
    var lines: Int
  }

  /// Each line of a file with its comments removed and each string literal's text left out
  /// (its quotes kept as `""`, an interpolation's code kept).
  static func codeLines(_ text: String) -> [String] {
    let characters = Array(text)
    var index = 0
    var code = ""
    copyCode(characters, &index, into: &code, interpolation: false)
    return code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// Copies code from `index` into `code` up to the end, or in an interpolation up to the `)`
  /// that closes it (consumed).
  private static func copyCode(
    _ characters: [Character], _ index: inout Int, into code: inout String, interpolation: Bool
  ) {
    var parens = 0
    while index < characters.count {
      let character = characters[index]
      let next = index + 1 < characters.count ? characters[index + 1] : " "
      if character == "/" && (next == "/" || next == "*") {
        skipComment(characters, &index, into: &code)
        continue
      }
      if character == "#" || character == "\"" {
        var quote = index
        while quote < characters.count && characters[quote] == "#" { quote += 1 }
        if quote < characters.count && characters[quote] == "\"" {
          let hashes = quote - index
          let multiline = characters[quote...].starts(with: "\"\"\"")
          index = quote + (multiline ? 3 : 1)
          code += "\"\""
          skipString(characters, &index, into: &code, multiline: multiline, hashes: hashes)
          continue
        }
      }
      if interpolation && character == "(" { parens += 1 }
      if interpolation && character == ")" {
        if parens == 0 {
          index += 1
          return
        }
        parens -= 1
      }
      code.append(character)
      index += 1
    }
  }

  /// Skips the comment at `index`, keeping its line breaks.
  private static func skipComment(
    _ characters: [Character], _ index: inout Int, into code: inout String
  ) {
    if characters[index + 1] == "/" {
      while index < characters.count && characters[index] != "\n" { index += 1 }
      return
    }
    var depth = 0
    repeat {
      let pair = characters[index...].prefix(2)
      if pair.elementsEqual("/*") {
        depth += 1
        index += 2
      } else if pair.elementsEqual("*/") {
        depth -= 1
        index += 2
      } else {
        if characters[index] == "\n" { code.append("\n") }
        index += 1
      }
    } while depth > 0 && index < characters.count
  }

  /// Skips a string literal's text from `index` to past its closing delimiter, keeping its
  /// line breaks and copying its interpolations' code.
  private static func skipString(
    _ characters: [Character], _ index: inout Int, into code: inout String, multiline: Bool,
    hashes: Int
  ) {
    let closing = Array((multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes))
    let escape = Array("\\" + String(repeating: "#", count: hashes))
    while index < characters.count {
      if characters[index...].starts(with: closing) {
        index += closing.count
        return
      }
      if characters[index...].starts(with: escape) {
        index += escape.count
        guard index < characters.count else { return }
        if characters[index] == "(" {
          index += 1
          code.append("(")
          copyCode(characters, &index, into: &code, interpolation: true)
          code.append(")")
          continue
        }
      }
      if characters[index] == "\n" { code.append("\n") }
      index += 1
    }
  }

  /// The declarations with bodies in `text`.
  static func declarations(in text: String) -> [Declaration] {
    var found: [Declaration] = []
    /// The open braces: the declaration each opens, if any.
    var open: [(kind: Declaration.Kind, name: String, line: Int)?] = []
    var pending: (kind: Declaration.Kind, name: String, line: Int, parens: Int)?
    for (index, line) in codeLines(text).enumerated() {
      if let head = header(line) {
        let enclosing = open.compactMap { $0 }.last { $0.kind == .type }?.name
        let name = [enclosing, head.name].compactMap { $0 }.joined(separator: ".")
        pending = (head.kind, head.kind == .type && head.isExtension ? head.name : name, index, 0)
      } else if let waiting = pending, !continuesSignature(line, parens: waiting.parens) {
        pending = nil  // a requirement or a stored property: no body
      }
      for character in line {
        switch character {
        case "(": pending?.parens += 1
        case ")": pending?.parens -= 1
        case "{":
          open.append(pending.map { ($0.kind, $0.name, $0.line) })
          pending = nil
        case "}":
          guard let closed = open.popLast() else { continue }
          if let closed {
            found.append(
              Declaration(
                kind: closed.kind, name: closed.name, line: closed.line + 1,
                lines: index - closed.line + 1))
          }
        default: break
        }
      }
    }
    return found
  }

  /// Whether `line` goes on with a signature whose parentheses are `parens` deep.
  private static func continuesSignature(_ line: String, parens: Int) -> Bool {
    let trimmed = line.drop { $0 == " " }
    return parens > 0 || trimmed.isEmpty
      || ["->", "where", "throws", "rethrows", "async", "{", ")", ":", "&", ","].contains {
        trimmed.hasPrefix($0)
      }
  }

  /// The declaration `line` starts, if it starts one: its kind and name.
  private static func header(_ line: String) -> (
    kind: Declaration.Kind, name: String, isExtension: Bool
  )? {
    var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
    while let word = words.first, word.hasPrefix("@") || modifiers.contains(modifier(word)) {
      // `class` is a modifier only before another keyword (`class func`).
      if word == "class", words.count > 1, !keywords.contains(keyword(words[words.startIndex + 1]))
      {
        break
      }
      words.removeFirst()
    }
    guard let first = words.first else { return nil }
    let key = keyword(first)
    guard keywords.contains(key) else { return nil }
    switch key {
    case "func":
      let name = words.dropFirst().first.map { String($0.prefix { $0 != "(" && $0 != "<" }) }
      return (.function, name ?? "func", false)
    case "init", "deinit", "subscript":
      return (.function, key, false)
    default:
      let rest = words.dropFirst().first.map(String.init) ?? ""
      let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
      return (.type, name, key == "extension")
    }
  }

  private static let keywords: Set<String> = [
    "func", "init", "deinit", "subscript", "class", "struct", "enum", "actor", "extension",
  ]
  private static let modifiers: Set<String> = [
    "public", "package", "internal", "private", "fileprivate", "open", "final", "static",
    "class", "mutating", "nonmutating", "override", "convenience", "required", "nonisolated",
    "indirect", "dynamic", "consuming", "borrowing",
  ]

  /// A word as a keyword: what precedes `(`, `<`, `?` or `!` (`init?(`, `func<T>`).
  private static func keyword(_ word: Substring) -> String {
    String(word.prefix { $0.isLetter })
  }

  /// A word as a modifier: `private(set)` is `private`.
  private static func modifier(_ word: Substring) -> String {
    String(word.prefix { $0 != "(" })
  }
}
