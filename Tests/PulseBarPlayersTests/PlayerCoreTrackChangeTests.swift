import PulseBarCore
import Testing

@testable import PulseBarPlayers

/// 1,000 track changes through ``PlayerCore`` at exact times, drawn from a fixed seed: a
/// `Metadata` change with and without `Seeked`, mpv's two signals, a `Position` read racing
/// the change or answered with the old track's position, a read that fails, rates other than 1
/// and a pause across the change. After each change has settled the position shown is within
/// 0.1 s of the player's (the jump seen in a real bar was 31 s).
@Suite struct PlayerCoreTrackChangeTests {
  typealias Script = PlayerCoreScript
  static let mpv = Script.mpv
  static let owner = Script.owner

  /// The player's own position: where it was at `anchor`, moving at `rate` while it plays.
  struct Truth {
    var seconds = 0.0
    var anchor = 0.0
    var rate = 1.0
    var playing = true

    func at(_ time: Double) -> Double { playing ? seconds + (time - anchor) * rate : seconds }

    func microseconds(at time: Double) -> Int64 { Int64((at(time) * 1_000_000).rounded()) }

    mutating func set(_ seconds: Double, at time: Double) {
      self.seconds = seconds
      anchor = time
    }

    mutating func play(_ playing: Bool, at time: Double) {
      set(at(time), at: time)
      self.playing = playing
    }
  }

  /// SplitMix64: the same 1,000 changes on every run.
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @Test func aThousandTrackChanges() {
    var random = Seeded(state: 34)
    var script = PlayerCoreTests.playing()
    var truth = Truth()
    var time = 0.0
    var worst = 0.0
    var kinds: [String: Int] = [:]
    for change in 1...1000 {
      time += Double.random(in: 1...60, using: &random)
      let pauseAcross = Int.random(in: 0..<5, using: &random) == 0
      if pauseAcross {
        truth.play(false, at: time)
        script.changed(PlayerProperties(status: .paused), at: time)
        answerReads(&script, truth: truth, at: time + 0.005)
        time += 0.5
      }
      // A read asked just before the change and answered after it, with the old position.
      var racing: UInt64?
      if Bool.random(using: &random) {
        script.changed(
          PlayerProperties(status: truth.playing ? .playing : .paused), at: time - 0.01)
        racing = script.newest(.position(busName: Self.mpv))
        kinds["racing read", default: 0] += 1
      }
      let old = truth.microseconds(at: time)
      let rate = [1, 1, 0.5, 1.5, 2].randomElement(using: &random)!
      let rateChanged = rate != truth.rate
      truth.set(0, at: time)
      truth.rate = rate
      let track = Metadata(title: "Track \(change)", length: 300, url: "file:///\(change).flac")
      var staleFirst: UInt64?
      if Bool.random(using: &random) {
        // mpv-mpris: the file's name first, the tags 0.1 s later.
        script.changed(
          PlayerProperties(metadata: Metadata(title: "\(change).flac", url: track.url)), at: time)
        staleFirst = script.newest(.position(busName: Self.mpv))
        kinds["two signals", default: 0] += 1
      }
      script.changed(
        PlayerProperties(metadata: track, rate: rateChanged ? rate : nil),
        at: time + (staleFirst == nil ? 0 : 0.1))
      if rate != 1 { kinds["rate \(rate)", default: 0] += 1 }
      if Bool.random(using: &random) {
        script.send(
          .seeked(sender: Self.owner, position: truth.microseconds(at: time + 0.12)),
          at: time + 0.12)
        kinds["Seeked", default: 0] += 1
      }
      // The reads answered in the order asked: the racing one and mpv's first with the old
      // position, one in ten of the others failing, one in five answered old (not switched).
      for id in script.pending.filter({ $0.value == .position(busName: Self.mpv) }).keys.sorted() {
        let at = time + 0.15
        let reply: BusReply
        let roll = Int.random(in: 0..<10, using: &random)
        if id == racing || id == staleFirst || roll < 2 {
          reply = .position(sender: Self.owner, old)
        } else if roll == 2 {
          reply = .failed("Timeout was reached")
          kinds["failed read", default: 0] += 1
        } else {
          reply = .position(sender: Self.owner, truth.microseconds(at: at))
        }
        script.answer(id, with: reply, at: at)
      }
      // The settling read, then the check.
      script.send(.tick, at: time + 0.7)
      answerReads(&script, truth: truth, at: time + 0.71)
      if pauseAcross {
        #expect(abs(script.position(at: time + 0.75)! - truth.at(time + 0.75)) <= 0.1)
        time += 1
        truth.play(true, at: time)
        script.changed(PlayerProperties(status: .playing), at: time)
        answerReads(&script, truth: truth, at: time + 0.005)
        kinds["pause across", default: 0] += 1
      }
      for check in [time + 1, time + 0.75] {
        let error = abs(script.position(at: check)! - truth.at(check))
        worst = max(worst, error)
        #expect(
          error <= 0.1,
          "change \(change): shown \(script.position(at: check)!), player \(truth.at(check))")
      }
    }
    #expect(worst <= 0.1, "the worst: \(worst) s over \(kinds)")
    print("Track change figure: 1,000 changes, worst \(Int(worst * 1000)) ms off the player's")
    #expect(kinds.count >= 8, "every kind of change was drawn: \(kinds)")
  }

  /// Answers every unanswered `Position` read with the player's position at `time`.
  private func answerReads(_ script: inout Script, truth: Truth, at time: Double) {
    for id in script.pending.filter({ $0.value == .position(busName: Self.mpv) }).keys.sorted() {
      script.answer(id, with: .position(sender: Self.owner, truth.microseconds(at: time)), at: time)
    }
  }
}
