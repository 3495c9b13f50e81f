import PulseBarCore

/// libFuzzer entry: the input is a config file. A file the parser accepts is rendered back
/// (every key, as the shipped file spells values) and parsed again: that must succeed and
/// give the same configuration. A file without carriage returns must read the same (the
/// same configuration, or the same error on the same line) with Windows line endings.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let parsed = Result { () throws(ConfigError) in try ConfigParser.parse(text, file: "fuzz") }
  if !text.unicodeScalars.contains("\r") {
    let crlf = text.split(separator: "\n", omittingEmptySubsequences: false)
      .joined(separator: "\r\n")
    let parsedCRLF = Result { () throws(ConfigError) in
      try ConfigParser.parse(crlf, file: "fuzz")
    }
    if parsedCRLF != parsed { fatalError("CRLF line endings read differently: \(parsedCRLF)") }
  }
  guard case .success(let configuration) = parsed else { return 0 }
  let rendered = renderedFile(configuration)
  do {
    let again = try ConfigParser.parse(rendered, file: "rendered")
    if again != configuration { fatalError("render → parse changed it:\n\(rendered)") }
  } catch {
    fatalError("a rendered configuration does not parse: \(error)\n\(rendered)")
  }
  return 0
}

/// Every key of `configuration` as a config file, section by section (a value that would lose
/// its edges to trimming or unquoting goes in quotes).
private func renderedFile(_ configuration: Configuration) -> String {
  var text = ""
  var section = ""
  for setting in ConfigKeys.all {
    if setting.section != section {
      section = setting.section
      text += "[\(section)]\n"
    }
    text += "\(setting.key) = \(ConfigParser.quotedIfNeeded(setting.render(configuration)))\n"
  }
  return text
}
