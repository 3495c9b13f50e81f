import Glibc

@testable import PulseBarCore

/// Synthesized test signals and a pipeline driver.
enum Signals {
  /// `seconds` of a sine at `frequency` and `amplitude`, interleaved over `channels`.
  static func sine(
    frequency: Float, amplitude: Float = 0.5, seconds: Double, sampleRate: Int = 44100,
    channels: Int = 1, rightFrequency: Float? = nil
  ) -> [Float] {
    let frames = Int(seconds * Double(sampleRate))
    var samples = [Float](repeating: 0, count: frames * channels)
    for frame in 0..<frames {
      let t = Float(frame) / Float(sampleRate)
      samples[frame * channels] = amplitude * sinf(2 * .pi * frequency * t)
      if channels == 2 {
        samples[frame * 2 + 1] = amplitude * sinf(2 * .pi * (rightFrequency ?? frequency) * t)
      }
    }
    return samples
  }

  /// Feeds `samples` through `pipeline` frame by frame; calls `each` after every frame.
  static func feed(
    _ samples: [Float], to pipeline: FramePipeline, activity: StreamActivity = .running,
    each: (FramePipeline) -> Void = { _ in }
  ) {
    let hop = pipeline.hopFrames * pipeline.analyzer.channels
    samples.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset + hop <= buffer.count {
        pipeline.advance(
          audio: UnsafeBufferPointer(rebasing: buffer[offset..<(offset + hop)]), activity: activity)
        each(pipeline)
        offset += hop
      }
    }
  }
}

/// Float comparison with one tolerance for the whole suite.
func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-4) -> Bool {
  abs(a - b) <= tolerance
}
