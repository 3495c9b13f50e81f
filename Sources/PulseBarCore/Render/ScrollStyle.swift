/// How scrolling fields move (`output.scroll_speed`, `scroll_pause`, `scroll_separator`),
/// bounded as the config keys are.
struct ScrollStyle: Sendable {
  let speed: Double
  let pause: Double
  let separator: String

  init(_ configuration: Configuration) {
    speed = min(max(configuration.scrollSpeed, 0.5), 30)
    pause = min(max(configuration.scrollPause, 0), 60)
    separator = UntrustedText.sanitized(configuration.scrollSeparator)
  }
}
