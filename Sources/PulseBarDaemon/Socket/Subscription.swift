import PulseBarCore

/// A (format, bars, fps) that some client asked for: the pipeline's consumer key itself, so
/// what a client subscribed to and the line rendered for it are one value, never converted.
///
/// The engine renders each distinct subscription once per frame it is due, however many
/// clients share it. `fps` `nil` is the daemon's own rate: a client asking for the daemon's
/// rate gets `nil` too, so both share one rendered line.
package typealias Subscription = ConsumerKey

extension ConsumerKey: CustomStringConvertible {
  package var description: String {
    "format=\(format.rawValue) bars=\(bars)" + (fps.map { " fps=\($0)" } ?? "")
  }
}

extension ConsumerKey {
  /// Bar counts a client may ask for.
  package static let barRange = 1...512  // as the `bars` config key
  /// Frame rates a client may ask for (above the daemon's own, it gets the daemon's).
  package static let fpsRange = 1...240  // as the `fps` config key

  /// The subscription line a client sends: `format=<f> bars=<n> fps=<n>`, only the parts given,
  /// and a bare newline (the daemon's default at once, without waiting out the 100 ms) when
  /// none is.
  package static func requestLine(format: OutputFormat?, bars: Int?, fps: Int? = nil) -> String {
    var parts: [String] = []
    if let format { parts.append("format=\(format.rawValue)") }
    if let bars { parts.append("bars=\(bars)") }
    if let fps { parts.append("fps=\(fps)") }
    return parts.joined(separator: " ") + "\n"
  }

  /// Parses one subscription line (no newline): space-separated `format=`, `bars=` and `fps=`,
  /// all optional, in any order; what is not given comes from `base`. Returns the error text
  /// (without `error: `) for anything else. The same as ``SubscriptionRequest/parse(_:)``
  /// resolved at once (see ``SubscriptionRequest/resolved(default:maxFPS:)``).
  package static func parse(
    _ line: some Collection<UInt8>, base: Subscription, maxFPS: Int = 240
  ) -> Result<Subscription, SubscriptionError> {
    SubscriptionRequest.parse(line).map { $0.resolved(default: base, maxFPS: maxFPS) }
  }

}

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

/// Why a subscription line was refused; `description` is what follows `error: `.
package struct SubscriptionError: Error, Equatable, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
