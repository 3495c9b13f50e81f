import PulseBarCore

/// A (format, bars, fps) that some client asked for.
///
/// The engine renders each distinct subscription once per frame it is due, however many
/// clients share it.
package struct Subscription: Hashable, Sendable, CustomStringConvertible {
  package var format: OutputFormat
  package var bars: Int
  /// Lines per second at most; `nil` is the daemon's own rate. A client asking for the
  /// daemon's rate gets `nil` too, so both share one rendered line.
  package var fps: Int?

  package init(format: OutputFormat, bars: Int, fps: Int? = nil) {
    self.format = format
    self.bars = bars
    self.fps = fps
  }

  /// The pipeline consumer that renders this subscription's lines.
  package var consumerKey: ConsumerKey { ConsumerKey(format: format, bars: bars, fps: fps) }

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
  /// (without `error: `) for anything else.
  ///
  /// `fps` is 1…240 (the `fps` config key's range); a rate above `maxFPS`, the daemon's own, is
  /// served at the daemon's rate rather than refused: a client cannot know the daemon's rate,
  /// and the shipped snippets' `--fps 30` must not kill a bar module whose daemon runs at 24.
  package static func parse(
    _ line: some Collection<UInt8>, base: Subscription, maxFPS: Int = 240
  ) -> Result<Subscription, SubscriptionError> {
    var result = base
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
        guard let bars = Int(value), barRange.contains(bars) else {
          return .failure(
            SubscriptionError(
              "bars must be \(barRange.lowerBound)...\(barRange.upperBound), got '\(clip(value))'"))
        }
        result.bars = bars
      case "fps":
        guard let fps = Int(value), fpsRange.contains(fps) else {
          return .failure(
            SubscriptionError(
              "fps must be \(fpsRange.lowerBound)...\(fpsRange.upperBound), got '\(clip(value))'"))
        }
        result.fps = fps < maxFPS ? fps : nil
      default:
        return .failure(SubscriptionError("unknown key '\(clip(key))' (format, bars, fps)"))
      }
    }
    return .success(result)
  }

  package var description: String {
    "format=\(format.rawValue) bars=\(bars)" + (fps.map { " fps=\($0)" } ?? "")
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
