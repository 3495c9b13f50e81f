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

  @Test func barsGoLiveAtOnceAndSettleToRestHeights() {
    var configuration = Configuration()
    configuration.restHeights = [0.4, 0.75, 0.55, 0.95]
    configuration.stateDebounce = 0
    var scene = Scene(configuration: configuration)
    #expect(scene.restBlend == 1)
    #expect(!scene.isAnimating)
    let live: [Float] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    var output = [Float](repeating: -1, count: 6)
    scene.advance(to: 1, activity: .running, signalPresent: true, onset: false)
    #expect(scene.restBlend == 0)
    compose(scene, live, &output)
    #expect(output == live)

    scene.advance(to: 2, activity: .none, signalPresent: false, onset: false)
    #expect(scene.restBlend == 0)
    #expect(scene.isAnimating)
    scene.advance(to: 2.15, activity: .none, signalPresent: false, onset: false)
    let blend = referenceEaseOut(0.15 / 0.3)
    #expect(isClose(scene.restBlend, blend), "blend \(scene.restBlend) vs \(blend)")
    compose(scene, live, &output)
    let rest: [Double] = [0.4, 0.75, 0.55, 0.95, 0.4, 0.75]
    for index in 0..<6 {
      let expected = Double(live[index]) * (1 - blend) + rest[index] * blend
      #expect(isClose(output[index], expected), "bar \(index)")
    }
    scene.advance(to: 2.3, activity: .none, signalPresent: false, onset: false)
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
