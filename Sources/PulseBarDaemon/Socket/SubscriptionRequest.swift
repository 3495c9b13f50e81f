import PulseBarCore

/// What a client's line asked for: only the parts it gave. The daemon keeps it for the
/// client's whole life and resolves it against the current config's default (format, bar
/// count) and frame rate, again after every reload: a client that asked `format=raw` keeps raw
/// and follows a new bar count; one that asked nothing follows the new default entirely.
package struct SubscriptionRequest: Hashable, Sendable, CustomStringConvertible {
  package var format: OutputFormat?
  package var bars: Int?
  package var fps: Int?

  package init(format: OutputFormat? = nil, bars: Int? = nil, fps: Int? = nil) {
    self.format = format
    self.bars = bars
    self.fps = fps
  }

  /// As the client sent it (`request 'format=raw bars=7'`), or `default request` for an empty
  /// line: for log lines.
  package var description: String {
    let line = Subscription.requestLine(format: format, bars: bars, fps: fps).dropLast()
    return line.isEmpty ? "default request" : "request '\(line)'"
  }

  /// The subscription under default `base` and the daemon's rate `maxFPS`.
  ///
  /// `fps` is 1…240 (the `fps` config key's range); a rate at or above `maxFPS`, the daemon's
  /// own, is served at the daemon's rate (`nil`) rather than refused: a client cannot know the
  /// daemon's rate, and the shipped snippets' `--fps 30` must not kill a bar module whose
  /// daemon runs at 24.
  package func resolved(default base: Subscription, maxFPS: Int) -> Subscription {
    var result = base
    if let format { result.format = format }
    if let bars { result.bars = bars }
    if let fps { result.fps = fps < maxFPS ? fps : nil }
    return result
  }

  /// Parses one subscription line (no newline): space-separated `format=`, `bars=` and `fps=`,
  /// all optional, in any order. Returns the error text (without `error: `) for anything else.
  package static func parse(
    _ line: some Collection<UInt8>
  ) -> Result<SubscriptionRequest, SubscriptionError> {
    var result = SubscriptionRequest()
    var seen: Set<String> = []
    let tokens = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
    for token in tokens {
      let text = String(decoding: token, as: UTF8.self)
      guard let equals = text.firstIndex(of: "=") else {
        return .failure(SubscriptionError("expected key=value, got '\(clip(text))'"))
      }
      let key = String(text[..<equals])
      let value = String(text[text.index(after: equals)...])
      guard seen.insert(key).inserted else {
        return .failure(SubscriptionError("duplicate key '\(clip(key))'"))
      }
      switch key {
      case "format":
        guard let format = OutputFormat(rawValue: value) else {
          let known = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
          return .failure(SubscriptionError("unknown format '\(clip(value))' (\(known))"))
        }
        result.format = format
      case "bars":
        let range = Subscription.barRange
        guard let bars = Int(value), range.contains(bars) else {
          return .failure(
            SubscriptionError(
              "bars must be \(range.lowerBound)...\(range.upperBound), got '\(clip(value))'"))
        }
        result.bars = bars
      case "fps":
        let range = Subscription.fpsRange
        guard let fps = Int(value), range.contains(fps) else {
          return .failure(
            SubscriptionError(
              "fps must be \(range.lowerBound)...\(range.upperBound), got '\(clip(value))'"))
        }
        result.fps = fps
      default:
        return .failure(SubscriptionError("unknown key '\(clip(key))' (format, bars, fps)"))
      }
    }
    return .success(result)
  }

  /// Client text quoted in an error, cut short.
  private static func clip(_ text: String) -> String {
    text.count > 32 ? String(text.prefix(32)) + "…" : text
  }
}
