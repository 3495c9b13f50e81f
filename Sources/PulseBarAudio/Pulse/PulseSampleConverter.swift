internal import CPulse
import PulseBarCore

/// The sample formats pulsebar asks of the server, and the conversion of s16 fragments to the
/// float samples the buffer takes.
///
/// A source whose own format is s16 is recorded as s16 and converted here: the server then
/// passes its blocks through instead of converting every fragment. The output's stream and the
/// player's streams record the same format, and every read callback runs on the mainloop's
/// thread, one at a time, so ``PulseRecordStreams`` keeps one converter, whose scratch space is
/// allocated once: the read callbacks allocate nothing.
final class PulseSampleConverter {
  /// Conversion space, a whole number of sample frames at every channel count.
  private let scratch: UnsafeMutableBufferPointer<Float>

  init() {
    // Sized for the most channels a reload can ask for, and a whole number of sample frames
    // at every channel count.
    scratch = .allocate(capacity: 4096 * CaptureFormat.maxChannels)
  }

  deinit { scratch.deallocate() }

  /// `PA_SAMPLE_FLOAT32NE`, a C macro Swift does not import.
  static var float32NativeEndian: pa_sample_format_t {
    #if _endian(little)
      PA_SAMPLE_FLOAT32LE
    #else
      PA_SAMPLE_FLOAT32BE
    #endif
  }

  /// `PA_SAMPLE_S16NE`.
  static var int16NativeEndian: pa_sample_format_t {
    #if _endian(little)
      PA_SAMPLE_S16LE
    #else
      PA_SAMPLE_S16BE
    #endif
  }

  /// The format a stream records: s16 or float, native endian.
  static func format(int16: Bool) -> pa_sample_format_t {
    int16 ? int16NativeEndian : float32NativeEndian
  }

  /// Reads every fragment `stream` has ready, in order, as every record stream does: `keep`
  /// hears how many sample frames the fragment holds (a hole too) and says whether its
  /// samples, as float (s16 converted here), go to `deliver`; the fragment is then dropped (a
  /// hole, no data, like data). Allocates nothing.
  func readFragments(
    of stream: OpaquePointer, isInt16: Bool, channels: Int, keep: (_ frames: Int) -> Bool,
    deliver: (UnsafeBufferPointer<Float>) -> Void
  ) {
    while true {
      var data: UnsafeRawPointer?
      var length = 0
      guard pa_stream_peek(stream, &data, &length) == 0, length > 0 else { return }
      let kept = keep(length / ((isInt16 ? 2 : 4) * channels))
      if let data, kept {
        if isInt16 {
          convert(
            UnsafeBufferPointer(start: data.assumingMemoryBound(to: Int16.self), count: length / 2),
            deliver)
        } else {
          deliver(
            UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: length / 4))
        }
      }
      pa_stream_drop(stream)
    }
  }

  /// Converts s16 samples to float through the preallocated scratch, a scratchful at a time
  /// (whole sample frames), and hands each on to `body`.
  func convert(
    _ samples: UnsafeBufferPointer<Int16>, _ body: (UnsafeBufferPointer<Float>) -> Void
  ) {
    var offset = 0
    while offset < samples.count {
      let count = min(scratch.count, samples.count - offset)
      for index in 0..<count { scratch[index] = Float(samples[offset + index]) * (1 / 32768) }
      body(UnsafeBufferPointer(rebasing: scratch[..<count]))
      offset += count
    }
  }
}
