import PulseBarCore

/// A (format, bars) pair that some client asked for.
///
/// The engine renders each distinct subscription once per frame, however many clients share it.
package struct Subscription: Hashable, Sendable, CustomStringConvertible {
  package var format: OutputFormat
  package var bars: Int

  package init(format: OutputFormat, bars: Int) {
    self.format = format
    self.bars = bars
  }

  /// Bar counts a client may ask for.
  package static let barRange = 1...512  // as the `bars` config key

  /// The subscription line a client sends: `format=<f> bars=<n>`, only the parts given, and a
  /// bare newline (the daemon's default at once, without waiting out the 100 ms) when neither is.
  package static func requestLine(format: OutputFormat?, bars: Int?) -> String {
    var parts: [String] = []
    if let format { parts.append("format=\(format.rawValue)") }
    if let bars { parts.append("bars=\(bars)") }
    return parts.joined(separator: " ") + "\n"
  }

  /// Parses one subscription line (no newline): space-separated `format=` and `bars=`, both
  /// optional, in any order; what is not given comes from `base`. Returns the error text
  /// (without `error: `) for anything else.
  package static func parse(
    _ line: some Collection<UInt8>, base: Subscription
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
      default:
        return .failure(SubscriptionError("unknown key '\(clip(key))' (format, bars)"))
      }
    }
    return .success(result)
  }

  package var description: String { "format=\(format.rawValue) bars=\(bars)" }

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
