import Testing

@testable import PulseBarCore

/// The playback state's debounce at exact audio times (60 fps frames, as the engine steps it):
/// what the audio server really reports around a new stream, a sink switch and a restart.
@Suite struct PlaybackDebounceTests {
  /// A machine with the defaults: 2 s silence timeout, 150 ms debounce.
  static func machine() -> PlaybackStateMachine {
    let defaults = Configuration()
    return PlaybackStateMachine(
      silenceTimeout: defaults.silenceTimeout, debounce: defaults.stateDebounce)
  }

  /// Steps `machine` through `phases` (activity, sound, seconds) at 60 fps from `start`;
  /// returns every published state change with its time.
  static func run(
    _ machine: inout PlaybackStateMachine, from start: Double = 0,
    _ phases: [(StreamActivity, Bool, Double)]
  ) -> [(Double, PlaybackState)] {
    var changes: [(Double, PlaybackState)] = []
    var frame = Int((start * 60).rounded())
    for (activity, sound, seconds) in phases {
      let end = frame + Int((seconds * 60).rounded())
      while frame < end {
        frame += 1
        let time = Double(frame) / 60
        if machine.advance(to: time, activity: activity, signalPresent: sound) {
          changes.append((time, machine.state))
        }
      }
    }
    return changes
  }

  @Test func defaultDebounceIs150Milliseconds() {
    #expect(Configuration().stateDebounce == 0.15)
  }

  /// A new stream: corked for 30 ms (two frames), then running with sound: playing on the
  /// first frame of sound, and never paused.
  @Test func newStreamGoesStraightFromStoppedToPlaying() {
    var machine = Self.machine()
    let changes = Self.run(
      &machine, [(.none, false, 1), (.corked, false, 0.03), (.running, true, 1)])
    #expect(changes.map(\.1) == [.playing])
    // Frames at 60 fps: the corked phase is two frames (1/60 … 1 + 2/60), sound on the next.
    #expect(changes.first.map { abs($0.0 - 1.05) < 1e-9 } == true, "\(changes)")
  }

  /// After a server restart players come back corked for about a second: still no paused.
  @Test func serverRestartGoesStraightFromStoppedToPlaying() {
    var machine = Self.machine()
    let changes = Self.run(
      &machine,
      [(.running, true, 1), (.none, false, 1.5), (.corked, false, 1.2), (.running, true, 1)])
    #expect(changes.map(\.1) == [.playing, .stopped, .playing], "\(changes)")
  }

  /// A sink switch: the stream leaves the old sink (no stream for 50 ms), shows up corked on
  /// the new one for 30 ms, then plays: playing throughout, nothing published.
  @Test func sinkSwitchKeepsPlaying() {
    var machine = Self.machine()
    _ = Self.run(&machine, [(.running, true, 1)])
    #expect(machine.state == .playing)
    let changes = Self.run(
      &machine, from: 1, [(.none, false, 0.05), (.corked, false, 0.03), (.running, true, 1)])
    #expect(changes.isEmpty, "\(changes)")
    #expect(machine.state == .playing)
  }

  /// Pausing publishes paused 150 ms after the cork, exactly; resuming with sound plays at once.
  @Test func pauseShowsAfterTheDebounceAndPlayAtOnce() {
    var machine = Self.machine()
    machine.advance(to: 0, activity: .running, signalPresent: true)
    #expect(machine.state == .playing)
    machine.advance(to: 1, activity: .corked, signalPresent: false)
    machine.advance(to: 1.149, activity: .corked, signalPresent: false)
    #expect(machine.state == .playing)
    #expect(machine.isSettling)
    machine.advance(to: 1.15, activity: .corked, signalPresent: false)
    #expect(machine.state == .paused)
    #expect(!machine.isSettling)
    machine.advance(to: 2, activity: .running, signalPresent: true)
    #expect(machine.state == .playing)
  }

  /// A player that ends publishes stopped after 150 ms; one that opens paused (corked) from
  /// stopped shows paused once it stayed corked for the silence timeout.
  @Test func stoppedAfterTheDebounceAndACorkedNewStreamAfterTheTimeout() {
    var machine = Self.machine()
    machine.advance(to: 0, activity: .running, signalPresent: true)
    machine.advance(to: 1, activity: .none, signalPresent: false)
    machine.advance(to: 1.1, activity: .none, signalPresent: false)
    #expect(machine.state == .playing)
    machine.advance(to: 1.15, activity: .none, signalPresent: false)
    #expect(machine.state == .stopped)
    machine.advance(to: 2, activity: .corked, signalPresent: false)
    machine.advance(to: 3.999, activity: .corked, signalPresent: false)
    #expect(machine.state == .stopped)
    machine.advance(to: 4, activity: .corked, signalPresent: false)
    #expect(machine.state == .paused)
  }

  /// A candidate that flips back within the debounce is never seen, and its hold restarts.
  @Test func flickersShorterThanTheDebounceAreNotPublished() {
    var machine = Self.machine()
    machine.advance(to: 0, activity: .running, signalPresent: true)
    let changes = Self.run(
      &machine,
      [
        (.corked, false, 0.1), (.running, true, 0.05), (.corked, false, 0.1),
        (.running, true, 0.05), (.none, false, 0.1), (.running, true, 0.5),
      ])
    #expect(changes.isEmpty, "\(changes)")
  }

  /// The scene's morph only starts once the state is published (no half-started pause morph).
  @Test func sceneMorphWaitsForThePublishedState() {
    var scene = Scene(configuration: Configuration())
    scene.advance(to: 0.5, activity: .running, signalPresent: true, onset: false)
    scene.advance(to: 1, activity: .running, signalPresent: true, onset: false)
    #expect(scene.morph == 1)
    scene.advance(to: 1.1, activity: .corked, signalPresent: false, onset: false)
    #expect(scene.state == .playing)
    #expect(scene.morph == 1)
    #expect(scene.isAnimating, "a pending state keeps the engine ticking")
    scene.advance(to: 1.25, activity: .corked, signalPresent: false, onset: false)
    #expect(scene.state == .paused)
  }
}
