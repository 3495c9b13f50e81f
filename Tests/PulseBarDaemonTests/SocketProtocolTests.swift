import Glibc
import PulseBarAudio
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// The client protocol state machine and the line ring, with no I/O at all.
@Suite struct SocketProtocolTests {
  static let base = Subscription(format: .text, bars: 8)

  func session(at time: Double = 0) -> ClientProtocol {
    ClientProtocol(connectedAt: time)
  }

  /// The subscription a `.subscribe` action makes under default `base` at 60 fps.
  func resolved(_ action: ClientProtocol.Action) -> Subscription? {
    guard case .subscribe(let request) = action else { return nil }
    return request.resolved(default: Self.base, maxFPS: 60)
  }

  @Test(arguments: [
    ("format=waybar bars=12\n", Subscription(format: .waybar, bars: 12)),
    ("bars=3 format=json\n", Subscription(format: .json, bars: 3)),
    ("format=raw\r\n", Subscription(format: .raw, bars: 8)),
    ("bars=512\n", Subscription(format: .text, bars: 512)),
    ("\n", base),
    ("  format=text\tbars=1  \n", Subscription(format: .text, bars: 1)),
    ("format=waybar fps=30\n", Subscription(format: .waybar, bars: 8, fps: 30)),
    ("fps=1\n", Subscription(format: .text, bars: 8, fps: 1)),
    ("fps=60\n", base),  // the daemon's own rate is the default subscription
    ("fps=240\n", base),  // above the daemon's rate: served at the daemon's
  ])
  func goodLinesSubscribe(line: String, expected: Subscription) {
    var machine = session()
    #expect(resolved(machine.received(Array(line.utf8))) == expected)
    #expect(machine.state == .subscribed)
  }

  @Test(arguments: [
    ("format=svg\n", "error: unknown format 'svg' (text, waybar, json, raw)\n"),
    ("bars=0\n", "error: bars must be 1...512, got '0'\n"),
    ("bars=513\n", "error: bars must be 1...512, got '513'\n"),
    ("bars=many\n", "error: bars must be 1...512, got 'many'\n"),
    ("colour=red\n", "error: unknown key 'colour' (format, bars, fps)\n"),
    ("fps=0\n", "error: fps must be 1...240, got '0'\n"),
    ("fps=241\n", "error: fps must be 1...240, got '241'\n"),
    ("fps=fast\n", "error: fps must be 1...240, got 'fast'\n"),
    ("format\n", "error: expected key=value, got 'format'\n"),
    ("bars=2 bars=3\n", "error: duplicate key 'bars'\n"),
    ("\u{1}\u{2}junk\n", "error: binary data in subscription line\n"),
    ("format=t\u{e9}xt\n", "error: binary data in subscription line\n"),
  ])
  func badLinesAreRejected(line: String, reply: String) {
    var machine = session()
    #expect(machine.received(Array(line.utf8)) == .reject(reply))
    #expect(machine.state == .closed)
  }

  @Test func lineMayArriveInPieces() {
    var machine = session()
    #expect(machine.received(Array("form".utf8)) == .none)
    #expect(machine.received(Array("at=json bars".utf8)) == .none)
    #expect(
      machine.received(Array("=4\ntrailing junk".utf8)) == .subscribe(.init(format: .json, bars: 4))
    )
    #expect(machine.received(Array("\u{0}\u{0}".utf8)) == .none, "input after the line is ignored")
  }

  @Test func overlongLineIsRejectedBeforeItsNewline() {
    var machine = session()
    #expect(machine.received(Array(repeating: UInt8(ascii: "a"), count: 256)) == .none)
    #expect(
      machine.received([UInt8(ascii: "a")])
        == .reject("error: subscription line longer than 256 bytes\n"))
  }

  @Test func silenceMeansTheDefaultAfter100Milliseconds() {
    var machine = session(at: 1)
    #expect(machine.nextDeadline == 1 + 0.1)
    #expect(machine.timePassed(now: 1.099_999) == .none)
    #expect(machine.timePassed(now: 1 + 0.1) == .subscribe(SubscriptionRequest()))
    #expect(machine.received(Array("format=json\n".utf8)) == .none, "too late: already subscribed")
  }

  @Test func partialLineAtTheDeadlineIsRefused() {
    var machine = session()
    _ = machine.received(Array("format=js".utf8))
    #expect(
      machine.timePassed(now: 0.1)
        == .reject("error: subscription line not finished within 100 ms\n"))
  }

  @Test func endOfInputFinishesAPartialLine() {
    var machine = session()
    _ = machine.received(Array("format=json".utf8))
    #expect(machine.endOfInput() == .subscribe(.init(format: .json)))
    var silent = session()
    #expect(silent.endOfInput() == .subscribe(SubscriptionRequest()))
  }

  @Test func stuckClientIsClosedAfterFiveSecondsWithoutProgress() {
    var machine = session()
    _ = machine.received(Array("\n".utf8))
    #expect(machine.nextDeadline == nil)
    machine.writeBlocked(now: 1)
    #expect(machine.nextDeadline == 6)
    machine.wrote(now: 3)
    machine.writeBlocked(now: 3.5)  // still the same backlog
    #expect(machine.timePassed(now: 7.999_999) == .none)
    #expect(machine.timePassed(now: 8) == .close)
    var recovered = session()
    _ = recovered.received(Array("\n".utf8))
    recovered.writeBlocked(now: 0)
    recovered.drained()
    #expect(recovered.timePassed(now: 60) == .none)
  }

  @Test func historyNumbersItsLinesAndKeepsTheLast() {
    var history = LineHistory(capacity: 3)  // rounds up to 4
    #expect(history.capacity == 4 && history.isEmpty)
    func append(_ text: String) {
      var text = text
      text.withUTF8 { history.append(UnsafeRawBufferPointer($0)) }
    }
    func line(_ sequence: UInt64) -> String? {
      history.withLine(sequence) { String(decoding: $0, as: UTF8.self) }
    }
    for number in 0..<4 { append("\(number)\n") }
    #expect(history.oldestSequence == 0 && history.newestSequence == 3)
    append("4\n")
    #expect(history.oldestSequence == 1 && history.newestSequence == 4)
    #expect(line(0) == nil, "dropped")
    #expect((1...4).map(line) == ["1\n", "2\n", "3\n", "4\n"])
    #expect(line(5) == nil, "not yet")
    // A slot keeps its bytes' capacity: a shorter line after a longer one is exact.
    append(String(repeating: "x", count: 3000) + "\n")
    append("6\n")
    #expect(line(6) == "6\n" && line(5)?.count == 3001)
  }

  @Test func requestLineRoundTrips() {
    let line = Subscription.requestLine(format: .waybar, bars: 16)
    #expect(line == "format=waybar bars=16\n")
    var machine = session()
    #expect(machine.received(Array(line.utf8)) == .subscribe(.init(format: .waybar, bars: 16)))
    #expect(Subscription.requestLine(format: nil, bars: nil) == "\n")
    #expect(Subscription.requestLine(format: nil, bars: nil, fps: 30) == "fps=30\n")
  }
}

/// `pulsebar listen`'s pure parts: offline frames (its back-off is ``OutagePolicy``'s).
@Suite struct ListenCommandTests {
  @Test func offlineFramesPerFormat() {
    var configuration = Configuration()
    configuration.offlineText = "♪ off"
    #expect(
      ListenCommand.offlineFrame(format: .waybar, bars: 8, configuration: configuration)
        == #"{"text":"♪ off","alt":"offline","class":["offline"],"tooltip":"pulsebar is not running","percentage":0}"#
        + "\n")
    #expect(
      ListenCommand.offlineFrame(format: .json, bars: 8, configuration: configuration)
        == "{\"state\":\"offline\",\"text\":\"♪ off\"}\n")
    #expect(
      ListenCommand.offlineFrame(format: .text, bars: 8, configuration: configuration)
        == "♪ off\n")
    #expect(
      ListenCommand.offlineFrame(format: .raw, bars: 4, configuration: configuration)
        == "0;0;0;0;\n")
  }

  /// By default the offline frame shows a glyph in every format with text (an empty waybar
  /// text hides the module; an empty line leaves i3blocks on the last frame).
  @Test func offlineFramesAreVisibleByDefault() {
    let configuration = Configuration()
    #expect(!configuration.offlineText.isEmpty)
    let waybar = ListenCommand.offlineFrame(format: .waybar, bars: 8, configuration: configuration)
    #expect(waybar.hasPrefix(#"{"text":"\#(configuration.offlineText)","alt":"offline""#))
    #expect(waybar.contains(#""class":["offline"]"#))
    let text = ListenCommand.offlineFrame(format: .text, bars: 8, configuration: configuration)
    #expect(text == configuration.offlineText + "\n")
  }
}

/// Log lines: one line each, priorities for the journal only when stderr is the journal.
@Suite struct LoggerTests {
  @Test func journalLinesCarryPriorities() {
    #expect(
      Logger(journal: true).line(.error, "a.conf:3: bad\nvalue") == "<3>a.conf:3: bad value\n")
    #expect(Logger(journal: true).line(.info, "ready") == "<6>ready\n")
    #expect(Logger(journal: false).line(.warning, "slow") == "pulsebar: slow\n")
  }

  @Test func journalStreamMustNameOurStderr() {
    var status = stat()
    #expect(fstat(2, &status) == 0)
    setenv("JOURNAL_STREAM", "\(status.st_dev):\(status.st_ino)", 1)
    defer { unsetenv("JOURNAL_STREAM") }
    #expect(Logger.stderrIsJournal())
    setenv("JOURNAL_STREAM", "\(status.st_dev):\(status.st_ino &+ 1)", 1)
    #expect(!Logger.stderrIsJournal(), "another stream (stderr redirected elsewhere)")
  }
}
