import Testing

@testable import PulseBarCore

/// Which streams are the active player's (``PlayerStreamSelection``): the process rule, the
/// parent chain, the name fallback, and when the whole output is recorded instead. The process
/// tree is a table here, as `/proc` would give it.
@Suite struct PlayerStreamSelectionTests {
  /// 1 ← 100 (a session) ← 200 (a player's wrapper) ← 201 (the player) ← 202 (its audio
  /// service); 300 is another program, 400 another mpv.
  static let parents: [Int32: Int32] = [100: 1, 200: 100, 201: 200, 202: 201, 300: 100, 400: 100]
  let selection = PlayerStreamSelection(scope: .player)

  func target(_ player: PlayerAudioIdentity?, _ streams: [PlaybackStream]) -> CaptureTarget {
    selection.target(player: player, streams: streams) { Self.parents[$0] }
  }

  static let beeps = PlaybackStream(
    id: 7, processID: 300, binary: "pacat", applicationName: "paplay", running: true)

  @Test func aPlayingPlayersOwnStreamIsRecordedAlone() {
    let mpv = PlayerAudioIdentity(name: "mpv", processID: 201, playing: true)
    let own = PlaybackStream(id: 3, processID: 201, binary: "mpv", running: true)
    #expect(target(mpv, [own, Self.beeps]) == .player(name: "mpv", streams: [3]))
  }

  @Test func aDescendantsStreamIsThePlayersAndSoAreAllItsPlayingStreams() {
    // The bus name belongs to the wrapper (200); the audio comes from its child and grandchild.
    let wrapper = PlayerAudioIdentity(name: "chromium.instance200", processID: 200, playing: true)
    let tab = PlaybackStream(id: 9, processID: 202, binary: "chromium", running: true)
    let other = PlaybackStream(id: 4, processID: 201, running: true)
    let paused = PlaybackStream(id: 5, processID: 201, running: false)
    #expect(
      target(wrapper, [tab, Self.beeps, other, paused])
        == .player(name: "chromium.instance200", streams: [4, 9]))
  }

  @Test func theProcessRuleKeepsTwoInstancesOfOneProgramApart() {
    let first = PlayerAudioIdentity(name: "mpv", processID: 201, playing: true)
    let second = PlayerAudioIdentity(name: "mpv.instance400", processID: 400, playing: true)
    let streams = [
      PlaybackStream(id: 1, processID: 201, binary: "mpv", running: true),
      PlaybackStream(id: 2, processID: 400, binary: "mpv", running: true),
    ]
    #expect(target(first, streams) == .player(name: "mpv", streams: [1]))
    #expect(target(second, streams) == .player(name: "mpv.instance400", streams: [2]))
  }

  @Test func namesMatchOnlyWhenNoProcessDoes() {
    // A sandboxed app: its streams name a PID of its own namespace.
    let spotify = PlayerAudioIdentity(
      name: "spotify.instance123", processID: 201, playing: true)
    let stream = PlaybackStream(id: 8, processID: 2, binary: "Spotify", running: true)
    #expect(
      target(spotify, [stream, Self.beeps]) == .player(name: "spotify.instance123", streams: [8]))
    // No process known at all (the bus did not say): names still match.
    let unknown = PlayerAudioIdentity(name: "firefox.instance_1_9", processID: nil, playing: true)
    let tab = PlaybackStream(id: 6, applicationName: "Firefox", running: true)
    #expect(target(unknown, [tab]) == .player(name: "firefox.instance_1_9", streams: [6]))
    // The desktop entry counts too.
    let entry = PlayerAudioIdentity(
      name: "chromium.instance9", processID: nil, desktopEntry: "google-chrome", playing: true)
    let chrome = PlaybackStream(id: 12, applicationName: "Google-Chrome", running: true)
    #expect(target(entry, [chrome]) == .player(name: "chromium.instance9", streams: [12]))
  }

  @Test func theWholeOutputIsRecordedOtherwiseAndSaysWhy() {
    let own = PlaybackStream(id: 3, processID: 201, running: true)
    #expect(target(nil, [own]) == .output(.noPlayer))
    let paused = PlayerAudioIdentity(name: "mpv", processID: 201, playing: false)
    #expect(target(paused, [own]) == .output(.notPlaying("mpv")))
    let playing = PlayerAudioIdentity(name: "mpv", processID: 201, playing: true)
    #expect(target(playing, [Self.beeps]) == .output(.noStream("mpv")))
    var corked = own
    corked.running = false
    #expect(target(playing, [corked]) == .output(.noStream("mpv")), "a corked stream adds nothing")
    let output = PlayerStreamSelection(scope: .output)
    #expect(
      output.target(player: playing, streams: [own]) { Self.parents[$0] } == .output(.scopeIsOutput)
    )
  }

  @Test func theParentChainEndsAtInitAtALoopAndAtAGap() {
    #expect(PlayerStreamSelection.descends(202, from: 200) { Self.parents[$0] })
    #expect(!PlayerStreamSelection.descends(300, from: 200) { Self.parents[$0] })
    #expect(!PlayerStreamSelection.descends(5, from: 200) { _ in nil }, "a process that is gone")
    var loops = 0
    #expect(
      !PlayerStreamSelection.descends(10, from: 200) { process in
        loops += 1
        return process == 10 ? 11 : 10
      })
    #expect(loops == PlayerStreamSelection.maximumAncestry)
  }

  @Test func whatIsRecordedIsDescribed() {
    #expect(
      CaptureTarget.player(name: "mpv", streams: [42]).describe(
        streamKind: "sink input", output: "null.monitor") == "mpv (sink input 42)")
    #expect(
      CaptureTarget.player(name: "firefox", streams: [4, 9]).describe(
        streamKind: "node", output: "x") == "firefox (nodes 4, 9)")
    #expect(
      CaptureTarget.output(.noPlayer).describe(streamKind: "node", output: "null.monitor")
        == "null.monitor", "nothing to explain")
    #expect(
      CaptureTarget.output(.notPlaying("mpv")).describe(streamKind: "node", output: "a.monitor")
        == "a.monitor (output: mpv does not play)")
    #expect(CaptureTarget.output(.noPlayer).reason == "output: no playing player")
    #expect(
      CaptureTarget.output(.scopeIsOutput).describe(streamKind: "node", output: "null.monitor")
        == "null.monitor")
  }
}

extension PlayerStreamSelectionTests {
  @Test func othersPlayOnlyWhileThePlayerDoesNotAndAnotherStreamRuns() {
    let paused = PlayerAudioIdentity(name: "mpv", processID: 201, playing: false)
    let corkedOwn = PlaybackStream(id: 3, processID: 201, binary: "mpv", running: false)
    let runningOwn = PlaybackStream(id: 3, processID: 201, binary: "mpv", running: true)
    func others(_ player: PlayerAudioIdentity?, _ streams: [PlaybackStream]) -> Bool {
      selection.othersPlay(player: player, streams: streams) { Self.parents[$0] }
    }
    #expect(others(paused, [corkedOwn, Self.beeps]))
    #expect(!others(paused, [corkedOwn]), "only the player's own corked stream")
    #expect(!others(paused, [runningOwn]), "its own stream's last fragments")
    var playing = paused
    playing.playing = true
    #expect(!others(playing, [runningOwn, Self.beeps]), "a playing player's pause rule is moot")
    #expect(!others(nil, [Self.beeps]))
    let output = PlayerStreamSelection(scope: .output)
    #expect(!output.othersPlay(player: paused, streams: [Self.beeps]) { Self.parents[$0] })
  }
}
