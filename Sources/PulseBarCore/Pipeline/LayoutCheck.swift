/// Whether the analysis can lay out a bar count under a configuration: the one check behind
/// socket subscriptions and a reloaded config's own bar count (``ReloadPlan``).
package enum LayoutCheck {
  /// Why `bars` cannot be drawn under `configuration` at `sampleRate` (odd in stereo, more bars
  /// than the transform has bins), or `nil`.
  package static func problem(bars: Int, configuration: Configuration, sampleRate: Int) -> String? {
    let channels = configuration.channels.count
    guard bars % channels == 0 else {
      return "bars must be even in stereo (got \(bars))"
    }
    do throws(LayoutError) {
      _ = try BandLayout(
        barsPerChannel: bars / channels, lowCutoff: configuration.lowCutoff,
        highCutoff: configuration.highCutoff, sizes: TransformSizes(sampleRate: sampleRate))
      return nil
    } catch {
      return error.message
    }
  }
}
