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
