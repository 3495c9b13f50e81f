import Testing

@testable import PulseBarCore

/// Everything a reload does, decided in one value: which keys apply at once and which wait for
/// a restart (the input and the socket, made once at start-up), whether the file is refused,
/// and who is told what (the capture's format and scope, the players' thread).
@Suite struct ReloadPlanTests {
  /// A reloaded file's changes, by name.
  static func change(_ name: String, _ configuration: inout Configuration) {
    switch name {
    case "nothing": break
    case "bars": configuration.bars = 16
    case "stereo and fps":
      configuration.channels = .stereo
      configuration.fps = 30
    case "fps": configuration.fps = 30
    case "format": configuration.format = .json
    case "glyphs and markup":
      configuration.barGlyphs = ["a", "b"]
      configuration.markup = .pango
    case "scope": configuration.scope = .output
    case "player preference": configuration.players = PlayerPreference(ignore: ["chromium"])
    case "lyrics directory": configuration.lyricsDirectory = "~/lyrics"
    case "art colours": configuration.colorsFromArt = true
    case "input": configuration.input = .pipewire
    case "raw input":
      configuration.rawSampleRate = 48000
      configuration.rawChannels = 1
    case "socket and bars":
      configuration.socketPath = "/tmp/other.sock"
      configuration.maxClients = 8
      configuration.bars = 12
    case "more bars than bins": configuration.bars = 4000
    default: Issue.record("no change named \(name)")
    }
  }

  @Test(
    arguments: [
      ("nothing", []), ("bars", []), ("stereo and fps", []), ("glyphs and markup", []),
      ("input", ["input.source"]), ("raw input", ["input.raw_sample_rate", "input.raw_channels"]),
      ("socket and bars", ["socket.path", "socket.max_clients"]),
    ] as [(String, [String])])
  func liveKeysApplyAndTheOthersWait(name: String, restartOnly: [String]) {
    let running = Configuration()
    var reloaded = running
    Self.change(name, &reloaded)
    let plan = ReloadPlan(running: running, reloaded: reloaded, sampleRate: 48000)
    #expect(plan.restartOnly == restartOnly, "\(name)")
    // What applies is the reloaded config with the restart-only keys at their running values.
    var expected = reloaded
    expected.input = running.input
    expected.rawSampleRate = running.rawSampleRate
    expected.rawChannels = running.rawChannels
    expected.socketPath = running.socketPath
    expected.maxClients = running.maxClients
    #expect(plan.applied == expected, "\(name)")
    let notice =
      "config reloaded; \(restartOnly.joined(separator: ", ")) take effect at the next restart"
    #expect(plan.notice == (restartOnly.isEmpty ? nil : notice))
  }

  /// Who a reload tells what, by kind of change: (the capture's format, its new scope, the
  /// players' thread). Nothing that did not change is told; a restart-only key tells no one.
  @Test(
    arguments: [
      ("nothing", false, nil, false), ("bars", false, nil, false),
      ("glyphs and markup", false, nil, false), ("fps", true, nil, false),
      ("stereo and fps", true, nil, false), ("scope", false, CaptureScope.output, false),
      ("player preference", false, nil, true), ("lyrics directory", false, nil, true),
      ("art colours", false, nil, true), ("input", false, nil, false),
      ("raw input", false, nil, false), ("socket and bars", false, nil, false),
    ] as [(String, Bool, CaptureScope?, Bool)])
  func eachChangeTellsItsOwner(
    name: String, captureFormat: Bool, scope: CaptureScope?, playerSettings: Bool
  ) {
    let running = Configuration()
    var reloaded = running
    Self.change(name, &reloaded)
    let plan = ReloadPlan(running: running, reloaded: reloaded, sampleRate: 48000)
    #expect(plan.refusal == nil, "\(name)")
    #expect(plan.captureFormatChanged == captureFormat, "\(name)")
    #expect(plan.scopeChange == scope, "\(name)")
    #expect(plan.playerSettingsChanged == playerSettings, "\(name)")
  }

  /// The consumer stdout and the terminal take (``ReloadPlan/outputKey``): the new format and
  /// bar count when either changed, else none; decided here, so they do not check again.
  @Test(
    arguments: [
      ("nothing", false), ("bars", true), ("format", true), ("glyphs and markup", false),
      ("stereo and fps", false), ("socket and bars", true), ("scope", false),
    ] as [(String, Bool)])
  func theOutputKeyChangesWithTheFormatOrBars(name: String, changes: Bool) {
    let running = Configuration()
    var reloaded = running
    Self.change(name, &reloaded)
    let plan = ReloadPlan(running: running, reloaded: reloaded, sampleRate: 48000)
    let key = ConsumerKey(format: reloaded.format, bars: reloaded.bars)
    #expect(plan.outputKey == (changes ? key : nil), "\(name)")
  }

  @Test("a bar count the transform cannot lay out refuses the whole file, checked once here")
  func unlayableBarsAreRefused() {
    let running = Configuration()
    var reloaded = running
    Self.change("more bars than bins", &reloaded)
    let plan = ReloadPlan(running: running, reloaded: reloaded, sampleRate: 48000)
    #expect(
      plan.refusal
        == LayoutCheck.problem(bars: 4000, configuration: reloaded, sampleRate: 48000))
    #expect(plan.refusal != nil)
  }

  @Test("a reload is planned against the configuration running now, not the start-up one")
  func plannedAgainstTheRunningConfiguration() {
    var running = Configuration()
    running.fps = 30
    running.scope = .output
    var reloaded = running
    reloaded.bars = 16
    let plan = ReloadPlan(running: running, reloaded: reloaded, sampleRate: 48000)
    #expect(!plan.captureFormatChanged)
    #expect(plan.scopeChange == nil)
  }
}
