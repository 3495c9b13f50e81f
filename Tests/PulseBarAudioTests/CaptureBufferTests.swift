import Testing

@testable import PulseBarAudio

/// ``CaptureBuffer``'s format rule, with no capture thread: after ``CaptureBuffer/reconfigure(_:)``
/// only samples at the new channel count get in, so a reload never pairs mono samples up.
@Suite struct CaptureBufferTests {
  func write(_ buffer: CaptureBuffer, _ samples: [Float], channels: Int) {
    samples.withUnsafeBufferPointer { buffer.write($0, channels: channels) }
  }

  func readAll(_ buffer: CaptureBuffer) -> [Float] {
    var destination = [Float](repeating: 0, count: 64)
    let count = destination.withUnsafeMutableBufferPointer { buffer.read(into: $0) }
    return Array(destination[..<count])
  }

  @Test func aReconfigurationDropsTheOldAudioAndLateWritesAtTheOldCount() {
    let buffer = CaptureBuffer(sampleRate: 8, channels: 1, fps: 4)
    write(buffer, [1, 2, 3], channels: 1)
    buffer.reconfigure(CaptureFormat(channels: 2, fps: 8))
    #expect(buffer.format == CaptureFormat(channels: 2, fps: 8))
    #expect(buffer.availableSamples == 0, "mono audio is not kept for a stereo reader")
    write(buffer, [4, 5, 6], channels: 1)
    #expect(buffer.availableSamples == 0, "a late mono write is dropped whole")
    write(buffer, [7, 8, 9, 10], channels: 2)
    #expect(readAll(buffer) == [7, 8, 9, 10])
    // A ring of one second at the new count: 8 frames of 2 samples.
    write(buffer, (0..<20).map(Float.init), channels: 2)
    #expect(readAll(buffer) == (4..<20).map(Float.init))
  }

  /// The ring copies in blocks (up to its end, then from its start): every split of writes and
  /// reads across the end, and overflow, must give the newest samples in order.
  @Test func samplesComeOutInOrderAcrossTheRingsEndAndOnOverflow() {
    // 8 samples of storage: 8 frames of one channel.
    let buffer = CaptureBuffer(sampleRate: 8, channels: 1, fps: 4)
    var next: Float = 0
    var expected: [Float] = []
    for (writeSize, readSize) in [(5, 3), (6, 7), (3, 2), (8, 4), (11, 64), (7, 5), (1, 64)] {
      let samples = (0..<writeSize).map { Float($0) + next }
      next += Float(writeSize)
      write(buffer, samples, channels: 1)
      expected = Array((expected + samples).suffix(8))
      var destination = [Float](repeating: -1, count: readSize)
      let count = destination.withUnsafeMutableBufferPointer { buffer.read(into: $0) }
      #expect(count == min(readSize, expected.count), "write \(writeSize), read \(readSize)")
      #expect(Array(destination[..<count]) == Array(expected.prefix(count)))
      expected.removeFirst(count)
      #expect(buffer.availableSamples == expected.count)
    }
  }
}
