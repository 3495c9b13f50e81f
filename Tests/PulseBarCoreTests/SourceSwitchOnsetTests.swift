import Glibc
import Testing

@testable import PulseBarCore

/// A source switch (``SourceSwitch``) amid a steady tone spawns no bubble, with exact times and
/// synthesized audio: the hand-over to the player's streams and back (a splice: the other
/// stream's tone has another phase and level), a new stream (the history starts from zeros:
/// a default-sink switch, the server's return, the daemon's start), a reload. A real onset half
/// a second after a switch still spawns one, and a hand-over after silence is a start.
@Suite struct SourceSwitchOnsetTests {
  static let sampleRate = 48000

  /// What a run showed: the audio times of the frames with an onset, and the bubbles spawned.
  struct Run {
    var onsetTimes: [Double] = []
    var bubbleIDs: Set<UInt64> = []
  }

  /// One stream's steady 200 Hz tone from sample `start` to `end` (mono), at `phase` and
  /// `amplitude`, written into `samples`.
  static func tone(
    _ samples: inout [Float], from start: Int, to end: Int, phase: Float = 0,
    amplitude: Float = 0.5
  ) {
    for index in start..<end {
      let t = Float(index) / Float(sampleRate)
      samples[index] = amplitude * sinf(2 * .pi * 200 * t + phase)
    }
  }

  /// A 50 ms chord burst added from sample `start` (the real onset).
  static func burst(_ samples: inout [Float], at start: Int) {
    for index in start..<(start + sampleRate / 20) {
      let t = Float(index - start) / Float(sampleRate)
      samples[index] += 0.3 * (sinf(2 * .pi * 440 * t) + sinf(2 * .pi * 2500 * t))
    }
  }

  /// Feeds `samples` hop by hop; before the hop that holds sample `seam`, `atSeam` runs (the
  /// engine's call when it reads the switch).
  static func run(
    _ samples: [Float],
    pipeline: FramePipeline = FramePipeline(
      configuration: Configuration(), sampleRate: sampleRate),
    seam: Int? = nil, atSeam: (FramePipeline) -> Void = { _ in }
  ) -> Run {
    var result = Run()
    let hop = pipeline.hopFrames
    samples.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset + hop <= buffer.count {
        if let seam, seam >= offset, seam < offset + hop { atSeam(pipeline) }
        pipeline.advance(
          audio: UnsafeBufferPointer(rebasing: buffer[offset..<(offset + hop)]),
          activity: .running)
        if pipeline.analyzer.onset { result.onsetTimes.append(pipeline.time) }
        result.bubbleIDs.formUnion(pipeline.scene.bubbles.map(\.id))
        offset += hop
      }
    }
    return result
  }

  /// Two seconds of the tone: the first stream's up to `seam` (1 s plus a third of a hop),
  /// the second's after it, at another phase and 90 % of the level.
  static func splicedTone(phaseJump: Float) -> (samples: [Float], seam: Int) {
    let seam = sampleRate + 267
    var samples = [Float](repeating: 0, count: 2 * sampleRate)
    tone(&samples, from: 0, to: seam)
    tone(&samples, from: seam, to: samples.count, phase: phaseJump, amplitude: 0.45)
    return (samples, seam)
  }

  @Test(
    "a steady tone across a hand-over: no onset, no bubble",
    arguments: [Float(0.7), 1.6, 3.1])
  func handOverSpawnsNoBubble(phaseJump: Float) {
    let (samples, seam) = Self.splicedTone(phaseJump: phaseJump)
    // From the first frame, as the daemon starts amid sound (the capture marks a new stream).
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: Self.sampleRate)
    pipeline.sourceSwitched(.newStream)
    let run = Self.run(samples, pipeline: pipeline, seam: seam) { $0.sourceSwitched(.handOver) }
    #expect(run.onsetTimes.isEmpty, "onsets at \(run.onsetTimes)")
    #expect(run.bubbleIDs.isEmpty, "bubbles \(run.bubbleIDs)")
  }

  /// The test's signals have the steps to remove: unprimed, the start and the splice are
  /// onsets. A daemon that starts with nothing playing keeps the first sound's onset.
  @Test func unprimedTheStartAndTheSpliceAreOnsets() {
    let (samples, seam) = Self.splicedTone(phaseJump: 3.1)
    let run = Self.run(samples)
    #expect(run.onsetTimes.contains { $0 < 0.1 }, "the start: \(run.onsetTimes)")
    let splice = Double(seam) / Double(Self.sampleRate)
    #expect(run.onsetTimes.contains { $0 > splice && $0 < splice + 0.1 }, "\(run.onsetTimes)")
    #expect(run.bubbleIDs.count >= 1)
  }

  /// A new stream amid the tone: the engine forgets the history (zeros) and the capture marks
  /// the switch; the restart spawns nothing.
  @Test func aNewStreamAmidSoundSpawnsNoBubble() {
    let (samples, seam) = Self.splicedTone(phaseJump: 1.6)
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: Self.sampleRate)
    pipeline.sourceSwitched(.newStream)
    let run = Self.run(samples, pipeline: pipeline, seam: seam) {
      $0.resetAudio()
      $0.sourceSwitched(.newStream)
    }
    #expect(run.onsetTimes.isEmpty, "onsets at \(run.onsetTimes)")
    #expect(run.bubbleIDs.isEmpty)
  }

  /// A chord half a second after the switch is an onset at its own frame, as without a switch.
  @Test(arguments: [SourceSwitch.handOver, .newStream])
  func aRealOnsetAfterASwitchStillSpawnsOne(_ change: SourceSwitch) {
    var (samples, seam) = Self.splicedTone(phaseJump: 3.1)
    let chord = seam + Self.sampleRate / 2
    Self.burst(&samples, at: chord)
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: Self.sampleRate)
    pipeline.sourceSwitched(.newStream)
    let run = Self.run(samples, pipeline: pipeline, seam: seam) {
      if change == .newStream { $0.resetAudio() }
      $0.sourceSwitched(change)
    }
    let chordTime = Double(chord) / Double(Self.sampleRate)
    let hop = Double(pipeline.hopFrames) / Double(Self.sampleRate)
    #expect(run.onsetTimes.count == 1, "onsets at \(run.onsetTimes)")
    // The frame that holds the chord's start, or the next (the chord starts mid-hop).
    #expect(run.onsetTimes.allSatisfy { $0 > chordTime && $0 <= chordTime + 2 * hop })
    #expect(run.bubbleIDs.count == 1)
  }

  /// A hand-over after a gap of 0.1 s with no audio (the monitor stream starts again after the
  /// player's streams stopped), the scene playing on: no onset.
  @Test func aHandOverAfterAShortGapSpawnsNoBubble() {
    let (samples, seam) = Self.splicedTone(phaseJump: 1.6)
    let pipeline = FramePipeline(configuration: Configuration(), sampleRate: Self.sampleRate)
    pipeline.sourceSwitched(.newStream)
    let hop = pipeline.hopFrames
    let cut = seam - seam % hop
    let before = Self.run(Array(samples[..<cut]), pipeline: pipeline)
    for _ in 0..<6 { pipeline.advanceWithoutAudio(by: 1.0 / 60, activity: .running) }
    #expect(pipeline.scene.state == .playing)
    let after = Self.run(Array(samples[cut...]), pipeline: pipeline, seam: 0) {
      $0.sourceSwitched(.handOver)
    }
    #expect(before.onsetTimes.isEmpty && after.onsetTimes.isEmpty, "\(after.onsetTimes)")
    #expect(after.bubbleIDs.isEmpty)
  }

  /// A hand-over after silence (the player's first audio, with nothing recorded before it) is
  /// the music's start: its onset counts.
  @Test func aHandOverAfterSilenceIsAStart() {
    var samples = [Float](repeating: 0, count: 2 * Self.sampleRate)
    let seam = Self.sampleRate + 267
    Self.tone(&samples, from: seam, to: samples.count)
    let run = Self.run(samples, seam: seam) { $0.sourceSwitched(.handOver) }
    let start = Double(seam) / Double(Self.sampleRate)
    #expect(run.onsetTimes.count == 1, "onsets at \(run.onsetTimes)")
    #expect(run.onsetTimes.allSatisfy { $0 > start && $0 < start + 0.05 })
  }

  /// A reload amid the tone: the new pipeline's analysis starts from zeros, and that is no onset.
  @Test func aReloadAmidSoundSpawnsNoBubble() {
    let (samples, _) = Self.splicedTone(phaseJump: 0)
    let first = FramePipeline(configuration: Configuration(), sampleRate: Self.sampleRate)
    first.sourceSwitched(.newStream)
    let half = samples.count / 2
    let before = Self.run(Array(samples[..<half]), pipeline: first)
    let second = FramePipeline(
      configuration: Configuration(), sampleRate: Self.sampleRate, continuing: first)
    let after = Self.run(Array(samples[half...]), pipeline: second)
    #expect(before.onsetTimes.isEmpty && after.onsetTimes.isEmpty, "\(after.onsetTimes)")
  }
}
