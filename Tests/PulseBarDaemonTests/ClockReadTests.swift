import Testing

/// Time only from the drivers (issue 34): a loop reads its clock once a turn and hands `now`
/// down, so nothing below a driver reads a clock, and every deadline under it is tested on
/// exact times. The files of `Sources/` (the test support apart) that read the monotonic
/// clock, in code (comments and strings left out), are the drivers below and the ones not
/// moved yet; both lists can only shrink (a file that no longer reads a clock leaves them).
@Suite struct ClockReadTests {
  /// The loops that own a thread or a process and read the time for what runs under them.
  static let drivers: [String: String] = [
    "Sources/PulseBarSystem/Clock.swift": "the clock itself",
    "Sources/PulseBarDaemon/Engine/SystemEngineClock.swift": "the engine loop's clock",
    "Sources/PulseBarDaemon/Engine/Engine.swift":
      "the engine loop: once a turn after its wait, once to size the wait, once for a reload from outside a turn",
    "Sources/PulseBarPlayers/PlayerSession.swift": "the MPRIS thread: once a turn",
    "Sources/PulseBarAudio/Capture/CaptureCoreDriver.swift": "the capture core's driver",
    "Sources/PulseBarAudio/File/PacedFileSource.swift": "the file source's pacing thread",
    "Sources/PulseBarDaemon/Commands/StatusCommand.swift": "`pulsebar status`'s own wait",
    "Sources/PulseBarPlayers/PlayerControl.swift": "`pulsebar ctl`'s own deadlines",
    "Sources/PulseBarDaemon/Engine/EngineHealth.swift": "the watchdog measures real time",
    "Sources/PulseBarDaemon/System/SystemdNotifier.swift": "the watchdog's own time",
  ]

  /// Below a driver, reading a clock still: to be handed the driver's `now`.
  static let notMovedYet: Set<String> = []

  static let reads = [
    "monotonicSeconds()", "monotonicNanoseconds()", "clock.now()", "clock_gettime(CLOCK_MONOTONIC",
  ]

  @Test func onlyTheDriversReadAClock() throws {
    let root = PackageRoot.path + "/"
    var readers: Set<String> = []
    for path in SizeLimitTests.swiftFiles(under: root + "Sources")
    where !path.contains("/PulseBarTestSupport/") {
      let code = SourceSizeScanner.codeLines(try readTextFile(path)).joined(separator: "\n")
      if Self.reads.contains(where: code.contains) {
        readers.insert(String(path.dropFirst(root.count)))
      }
    }
    let allowed = Set(Self.drivers.keys).union(Self.notMovedYet)
    #expect(
      readers.subtracting(allowed).isEmpty,
      "read a clock below a driver: \(readers.subtracting(allowed).sorted())")
    #expect(
      allowed.subtracting(readers).isEmpty,
      "read no clock now, remove from the lists: \(allowed.subtracting(readers).sorted())")
  }
}
