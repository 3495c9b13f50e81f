import PulseBarCore

/// The terminal view's colours: `[colors]` where the config sets them (the bars' gradient by
/// position or height, the glyph per state, the bubbles), ``TerminalPalette`` elsewhere.
struct TerminalColors {
  private var bars: [RGBColor] = []
  private var barsBy = BarColoring.height
  private var states: [RGBColor?] = [nil, nil, nil]
  private var bubbleColor: RGBColor?

  init() {}

  init(_ configuration: Configuration) {
    bars = configuration.barColors
    barsBy = configuration.barColoring
    states = [configuration.playingColor, configuration.pausedColor, configuration.stoppedColor]
    bubbleColor = configuration.bubbleColor
  }

  /// Bar `index` of `count` at `height` (0 bottom … 1 top of the bar area).
  func bar(index: Int, count: Int, height: Float) -> UInt32 {
    guard !bars.isEmpty else { return TerminalPalette.bar(height) }
    let t = barsBy == .height ? height : count > 1 ? Float(index) / Float(count - 1) : 0
    return Self.value(RGBColor.gradient(bars, at: t))
  }

  func state(_ state: PlaybackState) -> UInt32 {
    let index =
      switch state {
      case .playing: 0
      case .paused: 1
      case .stopped: 2
      }
    return states[index].map(Self.value) ?? TerminalPalette.state(state)
  }

  var bubble: (red: Float, green: Float, blue: Float) {
    bubbleColor.map { (Float($0.red), Float($0.green), Float($0.blue)) } ?? TerminalPalette.bubble
  }

  private static func value(_ color: RGBColor) -> UInt32 {
    UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
  }
}
