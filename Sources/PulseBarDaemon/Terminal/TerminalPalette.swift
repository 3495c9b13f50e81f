import PulseBarCore

/// The view's colours, `0xRRGGBB`.
enum TerminalPalette {
  static let title: UInt32 = 0x8C_8C_A0
  static let bubble: (red: Float, green: Float, blue: Float) = (255, 105, 180)

  static func state(_ state: PlaybackState) -> UInt32 {
    switch state {
    case .playing: return 0x64_DC_8C
    case .paused: return 0xF0_C8_50
    case .stopped: return 0x96_96_96
    }
  }

  /// Green at the bottom of the bars, through yellow, to red at the top (0...1).
  static func bar(_ height: Float) -> UInt32 {
    let low: (Float, Float, Float) = (80, 220, 120)
    let middle: (Float, Float, Float) = (240, 220, 80)
    let high: (Float, Float, Float) = (240, 90, 80)
    let blend = min(1, max(0, height)) * 2
    let (from, to, amount) = blend < 1 ? (low, middle, blend) : (middle, high, blend - 1)
    return rgb(
      from.0 + (to.0 - from.0) * amount, from.1 + (to.1 - from.1) * amount,
      from.2 + (to.2 - from.2) * amount)
  }

  static func rgb(_ red: Float, _ green: Float, _ blue: Float) -> UInt32 {
    func channel(_ value: Float) -> UInt32 { UInt32(min(255, max(0, value.rounded()))) }
    return channel(red) << 16 | channel(green) << 8 | channel(blue)
  }
}
