import Glibc
import PulseBarCore
import Testing

@testable import PulseBarAudio

/// ``CaptureBuffer``'s format rule, with no capture thread: after ``CaptureBuffer/reconfigure(_:)``
/// only samples at the new channel count get in, so a reload never pairs mono samples up.
@Suite struct CaptureBufferTests {
  func write(
    _ buffer: CaptureBuffer, _ samples: [Float], channels: Int, origin: CaptureOrigin = .output
  ) {
    samples.withUnsafeBufferPointer { buffer.write($0, channels: channels, origin: origin) }
  }

  func readAll(_ buffer: CaptureBuffer) -> [Float] {
    var destination = [Float](repeating: 0, count: 64)
    let count = destination.withUnsafeMutableBufferPointer { buffer.read(into: $0) }
    return Array(destination[..<count])
  }

  /// Whether the reader's eventfd is signalled now; drains it.
  func readerWoken(_ buffer: CaptureBuffer) -> Bool {
    var descriptor = pollfd(fd: buffer.wakeDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, 0) > 0
    buffer.drainWakeups()
    return ready
  }

  /// The reader is woken once a frame's audio is queued, not for every smaller chunk, and not
  /// again while a frame waits; a status change wakes it whatever is queued.
  @Test func aWriteWakesTheReaderWhenItBringsAWholeFrame() {
    let buffer = CaptureBuffer(sampleRate: 100, channels: 1, fps: 4)
    write(buffer, [1], channels: 1)
    #expect(readerWoken(buffer), "at first every write wakes the reader")
    buffer.wakeReader(atSamples: 5)
    write(buffer, [2, 3], channels: 1)
    #expect(!readerWoken(buffer), "3 of 5 samples: no frame yet")
    write(buffer, [4, 5], channels: 1)
    #expect(readerWoken(buffer), "5 of 5: a frame is queued")
    write(buffer, [6, 7, 8], channels: 1)
    #expect(!readerWoken(buffer), "a frame already waits: the reader draws it when it is due")
    var frame = [Float](repeating: 0, count: 5)
    #expect(frame.withUnsafeMutableBufferPointer { buffer.read(into: $0) } == 5)
    write(buffer, [9], channels: 1)
    #expect(!readerWoken(buffer), "4 of 5 after the read")
    write(buffer, [10, 11], channels: 1)
    #expect(readerWoken(buffer), "6 of 5")
    buffer.discardAll()
    buffer.updateStatus { $0.connected = true }
    #expect(readerWoken(buffer), "a status change wakes the reader with nothing queued")
    buffer.wakeReader(atSamples: 1000)
    write(buffer, Array(repeating: 0, count: 100), channels: 1)
    #expect(readerWoken(buffer), "a threshold above the ring's size is the ring's size")
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

  /// Reads `count` samples; the source switch the read passed, if any.
  func readSwitch(_ buffer: CaptureBuffer, _ count: Int) -> SourceSwitch? {
    var destination = [Float](repeating: 0, count: count)
    _ = destination.withUnsafeMutableBufferPointer { buffer.read(into: $0) }
    return buffer.takeSourceSwitch()
  }

  /// A hand-over is marked at the first sample of the other origin's write, and the reader
  /// learns of it with the read that reaches that sample, once; a new stream amid sound is
  /// marked where its samples begin; a discard or a reconfiguration drops a mark with the audio.
  @Test func aSourceSwitchIsTakenWithTheReadThatReachesIt() {
    let buffer = CaptureBuffer(sampleRate: 64, channels: 1, fps: 4)
    write(buffer, [1, 2, 3, 4], channels: 1)
    write(buffer, [5, 6, 7], channels: 1, origin: .player)
    #expect(readSwitch(buffer, 4) == nil, "the output's samples only")
    #expect(readSwitch(buffer, 1) == .handOver, "the player's first sample")
    #expect(readSwitch(buffer, 2) == nil, "once")
    write(buffer, [8], channels: 1, origin: .player)
    write(buffer, [9], channels: 1)
    #expect(readSwitch(buffer, 2) == .handOver, "back to the output")
    // A write at the wrong channel count is no write.
    write(buffer, [1, 2], channels: 2, origin: .player)
    write(buffer, [10], channels: 1)
    #expect(readSwitch(buffer, 1) == nil)

    write(buffer, [11, 12], channels: 1)
    write(buffer, [13], channels: 1, origin: .player)
    buffer.discardAll()
    write(buffer, [14], channels: 1, origin: .player)
    #expect(readSwitch(buffer, 8) == nil, "a discard drops the mark, and the origin")
    buffer.discardAll()
    buffer.markSourceSwitch()
    #expect(readSwitch(buffer, 8) == nil, "no sample of the new stream read yet")
    write(buffer, [15, 16], channels: 1)
    #expect(readSwitch(buffer, 1) == .newStream)
    // A later hand-over before the reader gets there replaces the new stream's mark, whose
    // kind it keeps.
    buffer.markSourceSwitch()
    write(buffer, [17], channels: 1, origin: .player)
    write(buffer, [18, 19], channels: 1)
    #expect(readSwitch(buffer, 2) == nil, "16 and 17: the later mark is at 18")
    #expect(readSwitch(buffer, 1) == .newStream)
    write(buffer, [20], channels: 1, origin: .player)
    buffer.reconfigure(CaptureFormat(channels: 2, fps: 4))
    #expect(readSwitch(buffer, 8) == nil, "a reconfiguration drops the mark")
  }
}
