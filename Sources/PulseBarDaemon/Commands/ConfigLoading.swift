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

  /// Loads `path` (or the default path, where a missing file means all defaults).
  package static func load(path: String?) throws(ConfigError) -> Configuration {
    let file = path ?? defaultPath()
    guard let text = try readFile(file, required: path != nil) else { return Configuration() }
    return try ConfigParser.parse(text, file: file)
  }

  /// The file's text; `nil` when it does not exist and is not required.
  package static func readFile(_ path: String, required: Bool) throws(ConfigError) -> String? {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, O_RDONLY)
    } catch {
      if error == .noSuchFile && !required { return nil }
      throw ConfigError(file: path, line: 0, message: error.description)
    }
    defer { descriptor.closeQuietly() }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16384)
    while true {
      let result = chunk.withUnsafeMutableBytes { buffer in
        Result { () throws(Errno) in try descriptor.read(into: buffer) }
      }
      let count: Int
      switch result {
      case .success(let read): count = read
      case .failure(let error):
        throw ConfigError(file: path, line: 0, message: error.description)
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[..<count])
      if bytes.count > 1 << 20 {
        throw ConfigError(file: path, line: 0, message: "larger than 1 MiB; not a config file")
      }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw ConfigError(file: path, line: 0, message: "not UTF-8 text")
    }
    return text
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
