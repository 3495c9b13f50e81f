/// Turns raw signed 16-bit little-endian PCM, read in chunks of any size, into `Float` frames
/// mixed to the analysis channel count.
///
/// A read may end inside a sample or a frame: the bytes of an unfinished frame wait for the
/// next read. Pure (no I/O): ``RawPCMSource`` reads a descriptor into it, and the fuzz harness
/// feeds it chunks of arbitrary sizes. A value: each owner decodes into its own copy.
package struct RawPCMDecoder {
  /// Interleaved channels of the PCM.
  package let inputChannels: Int
  /// Channels delivered (1 = mono downmix, 2 = left/right; mono PCM is duplicated). It may
  /// change between decodes (a reload switching the analysis to stereo): the bytes already
  /// read, an unfinished frame included, carry on at the new count.
  package var outputChannels: Int {
    willSet { precondition((1...CaptureFormat.maxChannels).contains(newValue)) }
  }
  private var bytes: [UInt8]
  /// Bytes read and not yet decoded (less than one frame between reads).
  private var pending = 0
  private var samples: [Float]
  private var mixed: [Float]

  /// Sizes the buffers for reads of about `readSize` bytes (rounded up to whole frames).
  package init(inputChannels: Int, outputChannels: Int, readSize: Int = 16384) {
    precondition((1...2).contains(inputChannels) && (1...2).contains(outputChannels))
    self.inputChannels = inputChannels
    self.outputChannels = outputChannels
    let bytesPerFrame = 2 * inputChannels
    bytes = [UInt8](
      repeating: 0, count: max(1, readSize / bytesPerFrame) * bytesPerFrame + bytesPerFrame)
    // One read holds at most `bytes.count / bytesPerFrame` frames; mixed to the analysis
    // channel count they may take more floats than they came in (mono PCM, stereo analysis).
    let maximumFrames = bytes.count / bytesPerFrame
    samples = [Float](repeating: 0, count: maximumFrames * inputChannels)
    mixed = [Float](repeating: 0, count: maximumFrames * CaptureFormat.maxChannels)
  }

  /// Bytes one frame of the PCM takes.
  package var bytesPerFrame: Int { 2 * inputChannels }

  /// Lets `read` fill the free space after the pending bytes; returns what `read` returned
  /// (the bytes it stored, or 0 or less for end of input or an error, which store nothing).
  package mutating func fill(_ read: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
    let pending = pending
    let count = bytes.withUnsafeMutableBytes { raw in
      read(UnsafeMutableRawBufferPointer(rebasing: raw[pending...]))
    }
    if count > 0 {
      precondition(count <= bytes.count - pending, "raw PCM: read past the buffer")
      self.pending += count
    }
    return count
  }

  /// Decodes every whole frame filled so far, mixes it and hands the samples to `deliver`
  /// (frames × ``outputChannels`` floats); keeps an unfinished frame for the next fill.
  package mutating func decode(_ deliver: (UnsafeBufferPointer<Float>) -> Void) {
    let frames = pending / bytesPerFrame
    guard frames > 0 else { return }
    let sampleCount = frames * inputChannels
    bytes.withUnsafeBufferPointer { bytes in
      samples.withUnsafeMutableBufferPointer { samples in
        for index in 0..<sampleCount {
          let value = Int16(
            bitPattern: UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8)
          samples[index] = Float(value) / 32768
        }
      }
    }
    let (inputChannels, outputChannels) = (inputChannels, outputChannels)
    samples.withUnsafeBufferPointer { source in
      mixed.withUnsafeMutableBufferPointer { destination in
        ChannelMixer.mix(
          source, frames: frames, from: inputChannels, to: outputChannels, into: destination)
        deliver(UnsafeBufferPointer(rebasing: destination[..<(frames * outputChannels)]))
      }
    }
    let used = frames * bytesPerFrame
    let remaining = pending - used
    bytes.withUnsafeMutableBytes { raw in
      raw.baseAddress!.copyMemory(from: raw.baseAddress! + used, byteCount: remaining)
    }
    pending = remaining
  }
}
