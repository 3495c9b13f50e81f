import PulseBarAudio

/// libFuzzer entry: raw s16le PCM as a fifo or stdin delivers it, in reads of uneven sizes.
///
/// The first byte picks the PCM's channels (mono or stereo) and the analysis channels; the
/// next two seed the read sizes (1 byte up to the decoder's whole free space, so reads end
/// mid-sample and mid-frame); the rest is the PCM. What comes out must be the same samples
/// as decoding the whole stream at once, mixed to the analysis channels, and they go into a
/// capture buffer as the capture thread's do.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawPCM(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = UnsafeBufferPointer(start: data, count: size)
  guard input.count >= 3 else { return 0 }
  let inputChannels = Int(input[0] & 1) + 1
  let outputChannels = Int(input[0] >> 1 & 1) + 1
  // A small read buffer in some runs, so that reads fill it and its end is exercised.
  let readSize = input[0] & 4 != 0 ? 16384 : 5 + Int(input[0] >> 3)
  var random = UInt32(input[1]) << 8 | UInt32(input[2]) | 1
  let pcm = UnsafeBufferPointer(rebasing: input[3...])
  let buffer = outputChannels == 1 ? monoBuffer : stereoBuffer

  var decoder = RawPCMDecoder(
    inputChannels: inputChannels, outputChannels: outputChannels, readSize: readSize)
  var output: [Float] = []
  var offset = 0
  while offset < pcm.count {
    random = random &* 1_103_515_245 &+ 12345
    let wanted = Int(random >> 16) % 97 == 0 ? Int.max : Int(random >> 16) % 37 + 1
    let count = decoder.fill { space in
      let count = min(wanted, space.count, pcm.count - offset)
      precondition(count > 0, "no room for the next read")
      space.copyMemory(
        from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: pcm[offset..<(offset + count)])))
      return count
    }
    offset += count
    decoder.decode { samples in
      precondition(samples.count % outputChannels == 0, "a partial frame came out")
      output.append(contentsOf: samples)
      buffer.write(samples, channels: outputChannels)
    }
  }
  precondition(output == reference(pcm, from: inputChannels, to: outputChannels))
  return 0
}

/// Capture buffers as the engine makes them, a few milliseconds long so writes wrap the ring.
private let monoBuffer = CaptureBuffer(sampleRate: 8000, channels: 1, seconds: 0.01)
private let stereoBuffer = CaptureBuffer(sampleRate: 8000, channels: 2, seconds: 0.01)

/// The whole frames of `pcm`, decoded and mixed the plain way.
private func reference(_ pcm: UnsafeBufferPointer<UInt8>, from inputs: Int, to outputs: Int)
  -> [Float]
{
  let frames = pcm.count / (2 * inputs)
  var result: [Float] = []
  for frame in 0..<frames {
    let channels = (0..<inputs).map { channel in
      let index = 2 * (frame * inputs + channel)
      return Float(Int16(bitPattern: UInt16(pcm[index]) | UInt16(pcm[index + 1]) << 8)) / 32768
    }
    if outputs == 1 {
      result.append(channels.reduce(0, +) / Float(inputs))
    } else {
      result.append(channels[0])
      result.append(channels[inputs > 1 ? 1 : 0])
    }
  }
  return result
}
