import Testing

@testable import PulseBarAudio

/// ``StreamMixer``: a player's streams summed sample by sample, a silent stream holding no one
/// up for longer than its lag, one stream passed straight through.
@Suite struct StreamMixerTests {
  /// Writes `samples` to `lane` and returns what the mixer handed on.
  func write(_ mixer: StreamMixer, _ samples: [Float], lane: Int) -> [Float] {
    var out: [Float] = []
    samples.withUnsafeBufferPointer { buffer in
      mixer.write(buffer, lane: lane) { out.append(contentsOf: $0) }
    }
    return out
  }

  @Test func oneLanePassesStraightThrough() {
    let mixer = StreamMixer(maximumLag: 8)
    mixer.reset(lanes: 1)
    #expect(write(mixer, [1, 2, 3], lane: 0) == [1, 2, 3])
    #expect(write(mixer, [4], lane: 1) == [], "a lane not in use is dropped")
  }

  @Test func twoLanesAreSummedAsFarAsBothHaveArrived() {
    let mixer = StreamMixer(maximumLag: 8)
    mixer.reset(lanes: 2)
    #expect(write(mixer, [1, 2, 3, 4], lane: 0) == [])
    #expect(write(mixer, [10, 20], lane: 1) == [11, 22])
    #expect(write(mixer, [30, 40, 50], lane: 1) == [33, 44])
    #expect(write(mixer, [5], lane: 0) == [55])
  }

  @Test func aSilentLaneHoldsTheOthersUpForItsLagAtMost() {
    let mixer = StreamMixer(maximumLag: 4)
    mixer.reset(lanes: 2)
    #expect(write(mixer, [1, 2, 3, 4], lane: 0) == [])
    #expect(write(mixer, [5], lane: 0) == [1, 2, 3, 4, 5], "past the lag, lane 1 counts as zeros")
    let late = write(mixer, [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17], lane: 0)
    #expect(late == [7, 8, 9, 10, 11, 12, 13, 14], "the rest waits, within the lag")
  }

  @Test func aResetStartsOverWithNothingQueued() {
    let mixer = StreamMixer(maximumLag: 8)
    mixer.reset(lanes: 2)
    _ = write(mixer, [1, 2, 3], lane: 0)
    mixer.reset(lanes: 2)
    #expect(write(mixer, [10], lane: 1) == [])
    #expect(write(mixer, [1], lane: 0) == [11])
  }
}
