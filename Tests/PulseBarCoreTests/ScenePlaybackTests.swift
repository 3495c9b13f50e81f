import Testing

@testable import PulseBarCore

/// The playback state machine and the resting bars, at exact audio times.
@Suite struct ScenePlaybackTests {
  @Test func playsOnTheFirstFrameOfSound() {
    var machine = PlaybackStateMachine(silenceTimeout: 2, debounce: 0)
    #expect(machine.state == .stopped)
    let changed = machine.advance(to: 0.5, activity: .running, signalPresent: true)
    #expect(changed)
    #expect(machine.state == .playing)
  }

  @Test func pausesExactlyAfterTheSilenceTimeout() {
    var machine = PlaybackStateMachine(silenceTimeout: 2, debounce: 0)
    machine.advance(to: 0, activity: .running, signalPresent: true)
    machine.advance(to: 1, activity: .running, signalPresent: true)
    machine.advance(to: 2.999, activity: .running, signalPresent: false)
    #expect(machine.state == .playing)
    machine.advance(to: 3, activity: .running, signalPresent: false)
    #expect(machine.state == .paused)
    machine.advance(to: 3.5, activity: .running, signalPresent: true)
    #expect(machine.state == .playing)
  }

  @Test func corkedIsPausedAndNoneIsStopped() {
    var machine = PlaybackStateMachine(silenceTimeout: 2, debounce: 0)
    machine.advance(to: 0, activity: .running, signalPresent: true)
    machine.advance(to: 0.1, activity: .corked, signalPresent: false)
    #expect(machine.state == .paused)
    // Uncorked but silent: the sound before the cork does not count.
    machine.advance(to: 0.2, activity: .running, signalPresent: false)
    #expect(machine.state == .paused)
    machine.advance(to: 0.3, activity: .none, signalPresent: false)
    #expect(machine.state == .stopped)
  }

  /// From `stopped`, a stream that has not played yet counts as paused once it stayed silent
  /// for the silence timeout (as a playing stream must), not before.
  @Test func silentStreamsFromTheStartArePausedAfterTheSilenceTimeout() {
    var machine = PlaybackStateMachine(silenceTimeout: 2, debounce: 0)
    machine.advance(to: 0, activity: .running, signalPresent: false)
    #expect(machine.state == .stopped)
    machine.advance(to: 1.999, activity: .running, signalPresent: false)
    #expect(machine.state == .stopped)
    machine.advance(to: 2, activity: .running, signalPresent: false)
    #expect(machine.state == .paused)
  }

  @Test func sceneReportsTheMachinesState() {
    var configuration = Configuration()
    configuration.stateDebounce = 0
    var scene = Scene(configuration: configuration)
    #expect(scene.state == .stopped)
    scene.advance(to: 0, activity: .running, signalPresent: true, onset: false)
    #expect(scene.state == .playing)
    scene.advance(to: 1.999, activity: .running, signalPresent: false, onset: false)
    #expect(scene.state == .playing)
    scene.advance(to: 2, activity: .running, signalPresent: false, onset: false)
    #expect(scene.state == .paused)
    scene.advance(to: 2.5, activity: .none, signalPresent: false, onset: false)
    #expect(scene.state == .stopped)
  }

  /// Rest and live crossfade over the morph duration both ways; toward live, a live bar
  /// above the fading rest picture shows at once (`max`), so sound is never delayed.
  @Test func barsCrossfadeBothWaysOverTheMorphDuration() {
    var configuration = Configuration()
    configuration.restHeights = [0.4, 0.75, 0.55, 0.95]
    configuration.morphDuration = 0.25
    configuration.stateDebounce = 0
    var scene = Scene(configuration: configuration)
    #expect(scene.restBlend == 1)
    #expect(!scene.isAnimating)
    let live: [Float] = [0.1, 0.9, 0.3, 0.4, 0.5, 0.6]
    let rest: [Double] = [0.4, 0.75, 0.55, 0.95, 0.4, 0.75]
    var output = [Float](repeating: -1, count: 6)
    compose(scene, live, &output)
    #expect(output == [0.4, 0.75, 0.55, 0.95, 0.4, 0.75], "the still frame is the rest heights")

    // Playing: on the first frame live bars above the rest show in full.
    scene.advance(to: 1, activity: .running, signalPresent: true, onset: false)
    #expect(scene.restBlend == 1)
    compose(scene, live, &output)
    #expect(output[1] == 0.9 && output[4] == 0.5)
    #expect(output[0] == 0.4 && output[3] == 0.95)
    scene.advance(to: 1.125, activity: .running, signalPresent: true, onset: false)
    var blend = 1 - referenceEaseOut(0.5)
    #expect(isClose(scene.restBlend, blend), "blend \(scene.restBlend) vs \(blend)")
    compose(scene, live, &output)
    for index in 0..<6 {
      let crossfade = Double(live[index]) * (1 - blend) + rest[index] * blend
      #expect(isClose(output[index], max(Double(live[index]), crossfade)), "bar \(index)")
    }
    scene.advance(to: 1.25, activity: .running, signalPresent: true, onset: false)
    #expect(scene.restBlend == 0)
    compose(scene, live, &output)
    #expect(output == live)

    // Stopped: a plain crossfade back to the rest heights over the same duration.
    scene.advance(to: 2, activity: .none, signalPresent: false, onset: false)
    #expect(scene.restBlend == 0)
    #expect(scene.isAnimating)
    scene.advance(to: 2.125, activity: .none, signalPresent: false, onset: false)
    blend = referenceEaseOut(0.5)
    #expect(isClose(scene.restBlend, blend), "blend \(scene.restBlend) vs \(blend)")
    compose(scene, live, &output)
    for index in 0..<6 {
      let expected = Double(live[index]) * (1 - blend) + rest[index] * blend
      #expect(isClose(output[index], expected), "bar \(index)")
    }
    scene.advance(to: 2.25, activity: .none, signalPresent: false, onset: false)
    #expect(scene.restBlend == 1)
    #expect(!scene.isAnimating)
    compose(scene, live, &output)
    #expect(output == [0.4, 0.75, 0.55, 0.95, 0.4, 0.75])
  }

  private func compose(_ scene: Scene, _ live: [Float], _ output: inout [Float]) {
    live.withUnsafeBufferPointer { live in
      output.withUnsafeMutableBufferPointer { scene.composeBars(live: live, into: $0) }
    }
  }
}
