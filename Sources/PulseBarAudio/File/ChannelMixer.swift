/// Mixes interleaved frames between channel counts: to mono by averaging, to
/// stereo by taking the first two channels (a mono source is duplicated).
package enum ChannelMixer {
  package static func mix(
    _ source: UnsafeBufferPointer<Float>, frames: Int, from inputChannels: Int,
    to outputChannels: Int,
    into destination: UnsafeMutableBufferPointer<Float>
  ) {
    // Checked in release builds too: an undersized destination must stop here, not
    // corrupt the heap (it did once, for mono PCM analysed in stereo).
    precondition(source.count >= frames * inputChannels, "channel mixer: source too short")
    precondition(
      destination.count >= frames * outputChannels, "channel mixer: destination too short")
    for frame in 0..<frames {
      let input = frame * inputChannels
      if outputChannels == 1 {
        var sum: Float = 0
        for channel in 0..<inputChannels { sum += source[input + channel] }
        destination[frame] = sum / Float(inputChannels)
      } else {
        destination[frame * 2] = source[input]
        destination[frame * 2 + 1] = source[input + (inputChannels > 1 ? 1 : 0)]
      }
    }
  }
}
