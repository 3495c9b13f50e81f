import Glibc
import Testing

@testable import PulseBarCore

/// Who the line names, told once (``PlayerAttribution``): the state, the glyph and the player's
/// fields come from one decision, driven through the real pipeline with exact audio times.
@Suite struct PlayerAttributionTests {
  static let play = MorphGlyph.defaultFrames.last!
  static let pause = MorphGlyph.defaultFrames.first!
  static let template = "{glyph} {state} {title} {position}"
  static let frame = 44100 / 60

  static func song(_ status: PlayerStatus) -> NowPlaying {
    NowPlaying(
      player: "mpv", status: status, title: "Paused Song", length: 200, position: 30_000_000,
      rate: 1, positionTime: 0)
  }

  /// A pipeline with one text consumer of ``template``, and a function that plays `seconds`
  /// of a tone (or silence) and returns the last line written, its padding cut.
  static func pipeline() throws -> (FramePipeline, (Double, Bool) -> String?) {
    var configuration = Configuration()
    configuration.text = template
    configuration.bubbleMax = 0
    configuration.stateDebounce = 0.15
    let pipeline = FramePipeline(configuration: configuration, sampleRate: 44100)
    let consumer = try pipeline.addConsumer(ConsumerKey(format: .text, bars: 8))
    let tone = (0..<frame).map { Float(sin(Double($0) * 0.2) / 2) }
    let silence = [Float](repeating: 0, count: frame)
    let run = { (seconds: Double, sound: Bool) -> String? in
      var last: String?
      for _ in 0..<Int(seconds * 60) {
        (sound ? tone : silence).withUnsafeBufferPointer {
          pipeline.advance(audio: $0, activity: .running)
        }
        pipeline.renderConsumers(info: FrameInfo(time: 0, source: "out.monitor", connected: true))
        if let line = pipeline.changedLine(consumer) {
          // Without the padding to the widest line (figure spaces), which keeps its width.
          let text = String(decoding: line.bytes.dropLast(), as: UTF8.self)
          last = String(text.reversed().drop { $0 == "\u{2007}" }.reversed())
        }
      }
      return last
    }
    return (pipeline, run)
  }

  /// mpv paused, then a notification beeps: the bar shows the output playing, with no title
  /// and no frozen position beside it; once the beep is over, the paused track again.
  @Test func aPausedPlayersTitleNeverSitsBesideAnotherProgramsSound() throws {
    let (pipeline, run) = try Self.pipeline()
    pipeline.nowPlaying = Self.song(.paused)
    let paused = run(1, false)
    #expect(paused == "\(Self.pause) Paused Paused Song 0:30")
    let beep = run(1, true)
    #expect(beep == "\(Self.play) Playing", "the beep is not the paused player's")
    #expect(pipeline.scene.state == .playing)
    #expect(pipeline.nextPositionChange(after: 10) == nil, "no wake-up for a position not shown")
    let after = run(3, false)
    #expect(after == "\(Self.pause) Paused Paused Song 0:30")
  }

  /// `players.ignore = mpv` while mpv plays: the active player is another, paused one, and the
  /// capture knows the sound is not its (`othersPlay`): the line is the output playing.
  @Test func anIgnoredPlayersSoundIsNotCreditedToThePausedOne() throws {
    let (pipeline, run) = try Self.pipeline()
    pipeline.nowPlaying = Self.song(.paused)
    pipeline.othersPlay = true
    #expect(run(0.5, true) == "\(Self.play) Playing")
    pipeline.nowPlaying = Self.song(.playing)
    pipeline.othersPlay = false
    #expect(run(0.5, true)?.hasPrefix("\(Self.play) Playing Paused Song 0:") == true)
  }

  @Test(
    arguments: [
      (PlayerStatus?.none, PlaybackState.playing, false), (.playing, .playing, true),
      (.playing, .paused, true), (.paused, .paused, true), (.stopped, .stopped, true),
      (.paused, .playing, false), (.stopped, .playing, false), (.none, .stopped, false),
    ])
  func theTable(player: PlayerStatus?, state: PlaybackState, shown: Bool) {
    #expect(PlayerAttribution.showsPlayer(player, beside: state) == shown)
  }

  /// With no audio server the scene says stopped while the player plays: `{state}` says why.
  @Test func disconnectedIsSaid() throws {
    let song = Self.song(.playing)
    let line = RenderTests.line(.text, bars: [0.5], connected: false, nowPlaying: song) {
      $0.text = "{state} {title}"
    }
    #expect(line == "Disconnected Paused Song\n")
    let waybar = try #require(
      RenderTests.line(.waybar, bars: [0.5], connected: false, nowPlaying: song) {
        $0.text = "{state}"
      })
    #expect(waybar.contains(#""text":"Disconnected""#) && waybar.contains(#""disconnected""#))
  }
}
