import PulseBarAudio
import PulseBarCore
import PulseBarPlayers
import PulseBarSystem
import Synchronization
import Testing

@testable import PulseBarDaemon

/// A reload through the real engine on manual time (``EmbeddedEngine``): ``Engine/apply(_:)``
/// tells the capture each change once, and the new pipeline goes on with the player and
/// whose audio plays.
@Suite struct EngineReloadTests {
  /// A capture that only writes down what it is told.
  final class ToldCapture: CaptureSource {
    let told = Mutex<[String]>([])
    func start(into buffer: CaptureBuffer) {}
    func stop() {}
    func follow(player: PlayerAudioIdentity?) {}
    /// One line per call: what it says changed.
    func reconfigure(_ change: CaptureChange) {
      let parts = [
        change.format.map { "format \($0.channels)ch \($0.fps)fps" },
        change.analysisRate.map { "rate \($0)" }, change.scope.map { "scope \($0)" },
      ]
      told.withLock { $0.append(parts.compactMap { $0 }.joined(separator: ", ")) }
    }
  }

  /// Writes down the player and whose audio plays at every frame.
  final class PlayerLog: FrameDelivery {
    let wantedKeys = [ConsumerKey(format: .json, bars: 8)]
    let keysVersion: UInt64 = 0
    var seen: [(title: String?, othersPlay: Bool)] = []
    func deliver(pipeline: FramePipeline, info: FrameInfo) -> Bool {
      seen.append((pipeline.nowPlaying?.title, pipeline.othersPlay))
      return true
    }
  }

  /// The plan for `change` made to the default configuration.
  static func plan(_ change: (inout Configuration) -> Void) -> ReloadPlan {
    var reloaded = Configuration()
    change(&reloaded)
    return ReloadPlan(running: Configuration(), reloaded: reloaded, sampleRate: 48000)
  }

  @Test(
    "a reload tells the capture once, all that changed for it, and nothing that did not change",
    arguments: [
      ("bars", []), ("fps", ["format 1ch 30fps, rate 30"]), ("stereo", ["format 2ch 60fps"]),
      ("scope", ["scope output"]),
      ("fps, stereo and scope", ["format 2ch 30fps, rate 30, scope output"]),
    ] as [(String, [String])])
  func captureIsToldOnce(name: String, expected: [String]) {
    let change: (inout Configuration) -> Void =
      switch name {
      case "bars": { $0.bars = 16 }
      case "fps": { $0.fps = 30 }
      case "stereo": { $0.channels = .stereo }
      case "scope": { $0.scope = .output }
      default:
        {
          $0.fps = 30
          $0.channels = .stereo
          $0.scope = .output
        }
      }
    let capture = ToldCapture()
    let engine = EmbeddedEngine(capture: capture)
    // The start tells the capture the rate it analyses at.
    #expect(capture.told.withLock { $0 } == ["rate 60"])
    capture.told.withLock { $0 = [] }
    engine.engine.apply(Self.plan(change))
    engine.advance(by: 0.1)
    #expect(capture.told.withLock { $0 } == expected, "\(name)")
  }

  @Test("the new pipeline goes on with the player, whose audio plays, and the players' settings")
  func reloadKeepsThePlayerAndOthersPlay() {
    let settings = PlayerSettings(Configuration(), home: "/home/a")
    let log = PlayerLog()
    let engine = EmbeddedEngine(deliveries: [log], playerSettings: settings)
    engine.schedule(at: 0.1) { [players = engine.playerFeed, buffer = engine.buffer] in
      players.post(NowPlaying(player: "mpv", status: .paused, title: "Song"))
      buffer.updateStatus { $0.othersPlay = true }
    }
    engine.advance(to: 0.5)
    #expect(log.seen.last?.title == "Song")
    #expect(log.seen.last?.othersPlay == true)
    let before = log.seen.count
    engine.engine.apply(
      Self.plan {
        $0.bars = 16
        $0.players = PlayerPreference(ignore: ["chromium"])
      })
    engine.advance(to: 0.6)
    #expect(log.seen.count > before, "the reload made a frame")
    #expect(log.seen.dropFirst(before).allSatisfy { $0.title == "Song" && $0.othersPlay })
    #expect(settings.preference.take() == PlayerPreference(ignore: ["chromium"]))
    // The settings that did not change wake nobody.
    #expect(settings.lyricsDirectory.take() == nil)
    #expect(settings.art.take() == nil)
  }

  @Test("a refused plan changes nothing")
  func refusedPlanAppliesNothing() {
    let capture = ToldCapture()
    let engine = EmbeddedEngine(capture: capture)
    capture.told.withLock { $0 = [] }
    let plan = Self.plan {
      $0.bars = 4000
      $0.fps = 30
    }
    #expect(plan.refusal != nil)
    engine.engine.apply(plan)
    engine.advance(by: 0.1)
    #expect(capture.told.withLock { $0 }.isEmpty)
    #expect(engine.buffer.format.fps == 60)
  }
}
