import Glibc
import PulseBarCore
import PulseBarSystem

/// Finds, reads and parses the config file, then applies command-line overrides.
package enum ConfigLoading {
  /// `$XDG_CONFIG_HOME/pulsebar/config`, else `~/.config/pulsebar/config`.
  package static func defaultPath() -> String {
    if let base = environment("XDG_CONFIG_HOME") {
      return base + "/pulsebar/config"
    }
    return (environment("HOME") ?? "") + "/.config/pulsebar/config"
  }

  /// Loads `path` (or the default path, where a missing file means all defaults). Each
  /// warning (`FILE:LINE: …`) goes to `warn`.
  package static func load(path: String?, warn: (ConfigError) -> Void = { _ in })
    throws(ConfigError) -> Configuration
  {
    let file = path ?? defaultPath()
    guard let text = try readFile(file, required: path != nil) else { return Configuration() }
    let parsed = try ConfigParser.read(text, file: file)
    parsed.warnings.forEach(warn)
    return parsed.configuration
  }

  /// The most bytes a config file may hold.
  package static let maximumBytes = 1 << 20

  /// The file's text; `nil` when it does not exist and is not required.
  ///
  /// Only a regular file is read: it is opened without blocking (a FIFO with no writer would
  /// hang the open, and the read after it, forever; on a reload that is the engine's thread)
  /// and checked with `fstat`, so a FIFO, a device or a directory is one error line. A file
  /// over ``maximumBytes`` or one that is not UTF-8 is refused too, the latter with the line
  /// and column of its first bad byte.
  package static func readFile(_ path: String, required: Bool) throws(ConfigError) -> String? {
    let bytes: [UInt8]
    do {
      bytes = try RegularFile.read(path, maximumBytes: maximumBytes)
    } catch {
      switch error {
      case .missing where !required: return nil
      case .missing: throw fileError(path, Errno.noSuchFile.description)
      case .tooLarge: throw fileError(path, "larger than 1 MiB; not a config file")
      default: throw fileError(path, error.description)
      }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw notUTF8(bytes, path: path)
    }
    return text
  }

  private static func fileError(_ path: String, _ message: String) -> ConfigError {
    ConfigError(file: path, line: 0, message: message)
  }

  /// The error for `bytes` that are not UTF-8: the line and column of the first bad byte, and
  /// the byte escaped.
  private static func notUTF8(_ bytes: [UInt8], path: String) -> ConfigError {
    var lineStart = 0
    var line = 1
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      let slice = bytes[lineStart..<index]
      if String(validating: slice, as: UTF8.self) == nil { break }
      lineStart = index + 1
      line += 1
    }
    // The longest valid prefix of the line: its characters are the columns before the bad byte.
    let rest = bytes[lineStart...]
    var valid = rest.startIndex
    var decoder = UTF8()
    var iterator = rest.makeIterator()
    decoding: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): valid += UTF8.width(scalar)
      case .emptyInput, .error: break decoding
      }
    }
    let column = String(decoding: bytes[lineStart..<valid], as: UTF8.self).count + 1
    let bad = MessageEscaping.escaped(bytes: bytes[valid..<min(valid + 1, bytes.endIndex)])
    return ConfigError(
      file: path, line: line, column: column, message: "not UTF-8 text (the byte \(bad))")
  }

  /// Applies command-line overrides with the same checks as the file.
  package static func apply(_ overrides: [Override], to configuration: Configuration)
    throws(UsageError) -> Configuration
  {
    var configuration = configuration
    for override in overrides {
      guard let setting = ConfigKeys.setting(section: override.section, key: override.key) else {
        continue
      }
      do {
        try setting.apply(override.value, &configuration)
      } catch {
        throw UsageError("\(override.option): \(error.message)")
      }
    }
    if let problem = configuration.crossFieldProblem() {
      throw UsageError(problem.message)
    }
    return configuration
  }
}
