import Testing

@testable import PulseBarAudio

/// Raw s16le PCM read in pieces that split samples and frames (a fifo or a pipe delivers what
/// it has), mixed to the analysis channels.
@Suite("Raw PCM decoding")
struct RawPCMDecoderTests {
  /// Little-endian bytes of `samples`.
  private static func bytes(_ samples: [Int16]) -> [UInt8] {
    samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
  }

  /// Feeds `bytes` in reads of `sizes` (cycled) and collects what comes out.
  private static func decode(
    _ bytes: [UInt8], inputChannels: Int, outputChannels: Int, sizes: [Int], readSize: Int = 64
  ) -> [Float] {
    var decoder = RawPCMDecoder(
      inputChannels: inputChannels, outputChannels: outputChannels, readSize: readSize)
    var output: [Float] = []
    var offset = 0
    var turn = 0
    while offset < bytes.count {
      let count = decoder.fill { space in
        let count = min(sizes[turn % sizes.count], space.count, bytes.count - offset)
        for index in 0..<count { space[index] = bytes[offset + index] }
        return count
      }
      offset += count
      turn += 1
      decoder.decode { output.append(contentsOf: $0) }
    }
    return output
  }

  @Test("stereo split mid-sample and mid-frame gives the same frames as one read")
  func stereoInPieces() {
    let pcm = Self.bytes([100, -100, 16384, -16384, 32767, -32768, 0, 1])
    let whole = Self.decode(pcm, inputChannels: 2, outputChannels: 2, sizes: [64])
    #expect(whole == [100, -100, 16384, -16384, 32767, -32768, 0, 1].map { Float($0) / 32768 })
    for size in 1...5 {
      #expect(Self.decode(pcm, inputChannels: 2, outputChannels: 2, sizes: [size, 3]) == whole)
    }
  }

  @Test("mono PCM analysed in stereo feeds both channels, even when a read fills the buffer")
  func monoToStereo() {
    let pcm = Self.bytes((0..<100).map { Int16($0 * 300) })
    let output = Self.decode(pcm, inputChannels: 1, outputChannels: 2, sizes: [1000], readSize: 8)
    #expect(output.count == 200)
    #expect(output[198] == Float(99 * 300) / 32768 && output[199] == output[198])
  }

  @Test("stereo PCM analysed in mono is the mean of left and right; a partial frame waits")
  func stereoToMono() {
    let pcm = Self.bytes([1000, 3000, -2000, 0]) + [7]
    let output = Self.decode(pcm, inputChannels: 2, outputChannels: 1, sizes: [3])
    #expect(output == [2000 / 32768, -1000 / 32768])
  }
}
