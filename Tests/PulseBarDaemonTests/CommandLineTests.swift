import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

@Suite struct CommandLineParsingTests {
  @Test func runIsTheDefault() throws {
    #expect(try CommandLineParser.parse([]) == .run(RunOptions()))
    let command = try CommandLineParser.parse(["--bars", "32", "--offline", "--socket"])
    guard case .run(let options) = command else {
      Issue.record("not run: \(command)")
      return
    }
    #expect(options.offline)
    #expect(options.socketPath == "")
    #expect(options.overrides.map(\.key) == ["bars"])
  }

  @Test func socketTakesAnOptionalPath() throws {
    guard
      case .run(let options) = try CommandLineParser.parse(["run", "--socket", "/tmp/x.sock", "-v"])
    else {
      Issue.record("not run")
      return
    }
    #expect(options.socketPath == "/tmp/x.sock")
    #expect(options.verbose)
  }

  @Test func listenTakesAFrameRate() throws {
    let command = try CommandLineParser.parse(["listen", "--format", "waybar", "--fps", "30"])
    #expect(command == .listen(ListenOptions(format: .waybar, fps: 30)))
  }

  @Test(arguments: [
    (["--frobnicate"], "unknown option '--frobnicate' for run (see pulsebar --help)"),
    (["--bars"], "--bars needs a value"),
    (["listen", "--bars", "0"], "--bars: expected a whole number from 1 to 512, got '0'"),
    (["listen", "--fps", "0"], "--fps: expected a whole number from 1 to 240, got '0'"),
    (["bands", "--offline"], "unknown option '--offline' for bands (see pulsebar --help)"),
    (["check-config", "a", "b"], "check-config takes at most one FILE"),
    (["run", "extra"], "unexpected argument 'extra' (see pulsebar --help)"),
    (["lisen"], "unexpected argument 'lisen' (see pulsebar --help); did you mean 'listen'?"),
    (
      ["stauts", "--json"],
      "unexpected argument 'stauts' (see pulsebar --help); did you mean 'status'?"
    ),
    (
      ["--bras", "8"],
      "unknown option '--bras' for run (see pulsebar --help); did you mean '--bars'?"
    ),
    (
      ["listen", "--fromat", "json"],
      "unknown option '--fromat' for listen (see pulsebar --help); did you mean '--format'?"
    ),
  ])
  func badArgumentsAreOneLine(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments) }
  }
}

@Suite(.serialized) struct CommandLineProcessTests {
  static let directory = Binary.temporaryDirectory()

  /// A 2 s stereo WAV: a 220 Hz tone, then noise bursts (made with sox).
  static func musicFile() throws -> String {
    let path = directory + "/music.wav"
    if access(path, R_OK) != 0 {
      try Binary.shell(
        "sox -n -r 44100 -c 2 -b 16 \(path) synth 1 sine 220 : synth 1 pinknoise tremolo 4 90")
    }
    return path
  }

  @Test func offlineRunsAreDeterministic() throws {
    let file = try Self.musicFile()
    let arguments = [
      "run", "--input", "file:\(file)", "--offline", "--format", "json", "--bars", "32",
      "--channels", "stereo",
    ]
    let first = try Binary.run(arguments)
    let second = try Binary.run(arguments)
    #expect(first.status == 0 && first.error.isEmpty, "\(first.error)")
    #expect(first.lines.count > 60, "one frame per 1/60 s of changing audio")
    #expect(first.lines == second.lines)
  }

  @Test(arguments: ["text", "waybar", "json", "raw"])
  func everyFormatRunsOffline(format: String) throws {
    let file = try Self.musicFile()
    let result = try Binary.run([
      "--input", "file:\(file)", "--offline", "--format", format, "--bars", "10",
    ])
    #expect(result.status == 0)
    #expect(!result.lines.isEmpty)
    for line in result.lines {
      switch format {
      case "raw": #expect(line.split(separator: ";").count == 10 && line.hasSuffix(";"))
      case "text": #expect(line.unicodeScalars.count >= 12)
      default: #expect(line.hasPrefix("{") && line.hasSuffix("}"))
      }
    }
  }

  @Test func malformedFilesGetOneClearError() throws {
    let good = try Self.musicFile()
    let cases: [(name: String, make: String, expected: String)] = [
      ("truncated.wav", "head -c 5000 \(good) > {}", "malformed or truncated"),
      (
        "chunk.wav",
        "cp \(good) {} && printf '\\377\\377\\377\\177' | dd of={} bs=1 seek=40 conv=notrunc 2>/dev/null",
        "malformed or truncated"
      ),
      ("text.wav", "echo 'not audio at all' > {}", "not a readable audio file"),
      ("empty.wav", ": > {}", "not a readable audio file"),
      ("header-only.wav", "head -c 30 \(good) > {}", "not a readable audio file"),
    ]
    for testCase in cases {
      let path = Self.directory + "/" + testCase.name
      try Binary.shell(testCase.make.replacingPlaceholder(with: path))
      let result = try Binary.run(["run", "--input", "file:\(path)", "--offline"])
      #expect(result.status == 1, "\(testCase.name): \(result.error)")
      #expect(result.lines.isEmpty)
      let lines = result.error.split(separator: "\n")
      #expect(lines.count == 1, "\(testCase.name): \(result.error)")
      #expect(
        result.error.hasPrefix("pulsebar: \(path): \(testCase.expected)"),
        "\(testCase.name): \(result.error)")
    }
  }

  /// A file libsndfile opens but pulsebar refuses (here a WAV with a header and no frames)
  /// is closed exactly once: valgrind sees no read of freed memory on the way to the error.
  /// (A sanitized binary cannot run under valgrind; AddressSanitizer checks it there.)
  @Test func refusedFilesAreClosedOnce() throws {
    let noFrames = Self.directory + "/no-frames.wav"
    try Binary.shell(
      "echo UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA= | base64 -d > \(noFrames)")
    let truncated = Self.directory + "/truncated-for-valgrind.wav"
    try Binary.shell("head -c 5000 \(try Self.musicFile()) > \(truncated)")
    for path in [noFrames, truncated] {
      let arguments = [Binary.path, "--input", "file:\(path)", "--offline"]
      let child =
        Binary.sanitizer == nil
        ? try ChildProcess("valgrind", ["-q", "--error-exitcode=99"] + arguments)
        : try ChildProcess(Binary.path, Array(arguments.dropFirst()))
      let status = try child.waitForExit(timeout: 60)
      #expect(status == 1, "\(path): \(child.standardError)")
      #expect(!child.standardError.contains("Invalid read"), "\(child.standardError)")
      #expect(child.standardError.hasPrefix("pulsebar: \(path): "), "\(child.standardError)")
    }
  }

  /// libsndfile reads WAV in every PCM and float width, FLAC and Ogg: a 1 kHz tone lands
  /// in the same bar (4 of 8) whatever the encoding.
  @Test(arguments: [
    ("u8.wav", "-b 8 -e unsigned"), ("s16.wav", "-b 16"), ("s24.wav", "-b 24"),
    ("s32.wav", "-b 32 -e signed"), ("f32.wav", "-b 32 -e floating-point"),
    ("f64.wav", "-b 64 -e floating-point"), ("tone.flac", "-b 16"), ("tone.ogg", ""),
  ])
  func everyEncodingIsRead(name: String, encoding: String) throws {
    let path = Self.directory + "/" + name
    try Binary.shell("sox -n -r 48000 -c 2 \(encoding) \(path) synth 0.5 sine 1000")
    let result = try Binary.run([
      "--input", "file:\(path)", "--offline", "--format", "raw", "--bars", "8",
    ])
    #expect(result.status == 0, "\(name): \(result.error)")
    let line = try #require(result.lines.last, "\(name): no frames")
    let bars = line.split(separator: ";").compactMap { Int($0) }
    #expect(bars.firstIndex(of: bars.max()!) == 4, "\(name): \(line)")
  }

  @Test func missingFileIsExitOne() throws {
    let result = try Binary.run(["--input", "file:/nonexistent/x.wav", "--offline"])
    #expect(result.status == 1)
    #expect(result.error == "pulsebar: /nonexistent/x.wav: No such file or directory\n")
  }

  @Test func usageAndConfigErrorsAreExitTwo() throws {
    let bad = Self.directory + "/bad.conf"
    try Binary.shell("printf '[general]\\nbars = 9000\\n' > \(bad)")
    for (arguments, message) in [
      (["--nope"], "pulsebar: unknown option '--nope' for run (see pulsebar --help)\n"),
      (["--config", bad], "pulsebar: \(bad):2: general.bars: 9000 is out of range 1…512\n"),
      (["check-config", bad], "pulsebar: \(bad):2: general.bars: 9000 is out of range 1…512\n"),
      (["--offline"], "pulsebar: --offline needs --input file:PATH\n"),
      (
        ["--bars", "7", "--channels", "stereo"],
        "pulsebar: bars must be even in stereo (half per channel), got 7\n"
      ),
    ] {
      let result = try Binary.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.error == message)
    }
  }

  @Test func checkConfigAcceptsTheShippedFile() throws {
    let shipped = Binary.packageRoot + "/config/pulsebar.conf"
    let result = try Binary.run(["check-config", shipped])
    #expect(result.status == 0)
    #expect(
      result.lines == [
        "\(shipped): ok", "\(shipped): the text line is 17 cells wide in every state",
      ])
  }

  /// With no audio server, stdout gets the start-up frame at once (stopped, not connected)
  /// and stderr one line with the next step; the daemon keeps waiting for the server.
  @Test func noAudioServerStillWritesAFrame() throws {
    let child = try ChildProcess(
      Binary.path, ["--format", "json", "--bars", "8"],
      environment: [
        "PULSE_SERVER": "unix:\(Self.directory)/no-server", "PULSE_COOKIE": "/dev/null",
      ])
    let line = try #require(child.readLine(timeout: 5), "no frame: \(child.standardError)")
    #expect(line.contains(#""state":"stopped""#) && line.contains(#""connected":false"#), "\(line)")
    child.send(SIGTERM)
    #expect(try child.waitForExit(timeout: 5) == 0)
    #expect(child.standardError.contains("retrying with back-off"), "\(child.standardError)")
  }

  /// No config file at the default path means all defaults, for check-config as for run.
  @Test func checkConfigWithoutAFileSaysDefaultsApply() throws {
    let home = Self.directory + "/empty-config-home"
    mkdir(home, 0o700)
    let result = try Binary.run(["check-config"], environment: ["XDG_CONFIG_HOME": home])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.lines == ["\(home)/pulsebar/config: no such file; all defaults apply"])
    let named = try Binary.run(["check-config", home + "/missing.conf"])
    #expect(named.status == 2)
    #expect(named.error == "pulsebar: \(home)/missing.conf: No such file or directory\n")
  }

  @Test func bandsPrintsCutoffs() throws {
    let result = try Binary.run(["bands", "--bars", "8"])
    #expect(result.status == 0)
    #expect(result.lines.count == 8)
    var previous: Double = 0
    for line in result.lines {
      let parts = line.split(separator: " ").compactMap { Double($0) }
      #expect(parts.count == 2 && parts[0] < parts[1] && parts[0] >= previous - 0.01)
      previous = parts[1]
    }
    #expect(Double(result.lines.last!.split(separator: " ")[1])! > 9000)
  }

  @Test func helpAndVersion() throws {
    let help = try Binary.run(["--help"])
    #expect(help.status == 0 && help.lines.first?.hasPrefix("usage: pulsebar") == true)
    let version = try Binary.run(["--version"])
    #expect(version.status == 0 && version.lines.first?.hasPrefix("pulsebar ") == true)
  }

  /// Raw PCM written in real time (25 ms chunks, as a player writes it) is read and banded.
  @Test func rawPCMFromStdin() throws {
    let raw = Self.directory + "/tone.raw"
    try Binary.shell("sox -n -t raw -r 44100 -e signed -b 16 -c 2 \(raw) synth 1 sine 1000")
    let writer =
      "i=0; while [ $i -lt 40 ]; do dd if=\(raw) bs=4410 skip=$i count=1 2>/dev/null; sleep 0.025; i=$((i+1)); done"
    let child = try ChildProcess(
      "sh", ["-c", "(\(writer)) | \(Binary.path) --input stdin --format raw --bars 8"])
    let lines = child.readLines(for: 10)
    #expect(try child.waitForExit(timeout: 10) == 0)
    // The middle of the stream (the last line is the resting frame after stdin ends).
    #expect(lines.count > 5)
    let middle = lines[lines.count / 2].split(separator: ";").compactMap { Int($0) }
    #expect(middle.firstIndex(of: middle.max()!) == 4, "1 kHz lands in bar 4 of 8: \(lines)")
  }

  /// Mono raw PCM analysed in stereo, read in one large chunk (stdin from a file, or a backed-up
  /// fifo): each mono sample feeds both channels, so the mixed samples outnumber the input ones.
  @Test func monoRawPCMAnalysedInStereo() throws {
    let raw = Self.directory + "/mono.raw"
    try Binary.shell("sox -n -t raw -r 44100 -e signed -b 16 -c 1 \(raw) synth 0.5 sine 1000")
    let config = Self.directory + "/mono.conf"
    try Binary.shell("printf '[input]\\nraw_channels = 1\\n' > \(config)")
    let child = try ChildProcess(
      "sh",
      [
        "-c",
        "\(Binary.path) --config \(config) --input stdin --channels stereo --format raw --bars 8 < \(raw)",
      ])
    let lines = child.readLines(for: 10)
    #expect(try child.waitForExit(timeout: 10) == 0, "\(child.standardError)")
    #expect(child.standardError.isEmpty, "\(child.standardError)")
    let loudest = try #require(
      lines.map { $0.split(separator: ";").compactMap { Int($0) } }.max { $0.max()! < $1.max()! })
    // raw mirrors the left channel: a mono source shows as a palindrome.
    #expect(loudest == Array(loudest.reversed()), "\(lines)")
    #expect(loudest.max()! > 500, "\(lines)")
  }
}

extension String {
  /// Replaces every `{}` with `value`.
  fileprivate func replacingPlaceholder(with value: String) -> String {
    split(separator: "{}", omittingEmptySubsequences: false).joined(separator: value)
  }
}

/// The parser follows the option table: help everywhere, `--opt=value` for every option.
@Suite struct CommandLineTableTests {
  @Test(
    arguments: [
      (["help"], nil), (["-h"], nil), (["--help"], nil), (["help", "listen"], "listen"),
      (["run", "--help"], "run"), (["--bars", "8", "-h"], "run"), (["listen", "--help"], "listen"),
      (["check-config", "-h"], "check-config"), (["bands", "--help"], "bands"),
      (["help", "check-config"], "check-config"),
    ] as [([String], String?)])
  func helpEverywhere(arguments: [String], command: String?) throws {
    #expect(try CommandLineParser.parse(arguments) == .help(command: command))
  }

  /// A value for `option` its parser accepts.
  static func sampleValue(_ option: OptionSpec) -> String {
    if case .words(let words) = option.completion { return words[0] }
    switch option.argument.placeholder {
    case "N": return "8"
    case "HZ": return "48000"
    default: return "/tmp/x"
    }
  }

  /// Every option that takes a value takes it as `--opt=value` as well as `--opt value`.
  @Test(arguments: CommandTable.commands)
  func equalsFormForEveryOption(command: CommandSpec) throws {
    // `ctl` needs its action operand beside any option.
    let operands = command.name == "ctl" ? ["next"] : []
    for option in command.options where option.argument != .none {
      let value = Self.sampleValue(option)
      let spaced = try CommandLineParser.parse([command.name] + operands + [option.name, value])
      let joined = try CommandLineParser.parse(
        [command.name] + operands + [option.name + "=" + value])
      #expect(spaced == joined, "\(command.name) \(option.name)")
      #expect(
        spaced != (try CommandLineParser.parse([command.name] + operands)),
        "\(option.name) ignored")
    }
    // An option after `run`'s `--socket` is not taken for its PATH.
    guard case .run(let options) = try CommandLineParser.parse(["--socket", "-v"]) else {
      Issue.record("not run")
      return
    }
    #expect(options.socketPath == "" && options.verbose)
  }

  @Test func equalsFormOfTheDefaultCommand() throws {
    #expect(
      try CommandLineParser.parse(["--bars=16", "--socket=/tmp/s"])
        == (try CommandLineParser.parse(["run", "--bars", "16", "--socket", "/tmp/s"])))
  }

  @Test(arguments: [
    (["--offline=yes"], "--offline takes no value"),
    (["--bars="], ""),
    (
      ["help", "nope"],
      "help: no command 'nope' (commands: run, listen, overlay, check-config, bands, ctl, status)"
    ),
    (["help", "run", "x"], "help takes at most one COMMAND"),
    (["--low", "20"], "unknown option '--low' for run (it belongs to 'pulsebar bands')"),
    (["listen", "--format=yaml"], "--format: expected text, waybar, json or raw, got 'yaml'"),
    (["--frobnicate=1"], "unknown option '--frobnicate' for run (see pulsebar --help)"),
  ])
  func badArguments(arguments: [String], message: String) {
    if message.isEmpty {
      // An empty value is a value: the config key's check refuses it later.
      #expect(throws: Never.self) { try CommandLineParser.parse(arguments) }
    } else {
      #expect(throws: UsageError(message)) { try CommandLineParser.parse(arguments) }
    }
  }

  /// `--help` shows one line per option with its default, then files, exit codes and examples;
  /// `COMMAND --help` shows that command's options; both exit 0 on stdout.
  @Test func helpShowsEveryOptionWithItsDefault() throws {
    let help = try Binary.run(["--help"])
    #expect(help.status == 0 && help.error.isEmpty)
    for command in CommandTable.commands where !command.options.isEmpty {
      // The command's section: from its heading to the next blank line.
      let start = try #require(help.lines.firstIndex(of: "Options of \(command.name):"))
      let section = help.lines[start...].prefix { !$0.isEmpty }
      for option in command.options {
        let line = section.first { $0.hasPrefix("  " + option.signature + " ") }
        #expect(line != nil, "no line for \(command.name) \(option.signature)")
        if let value = option.defaultValue {
          #expect(line?.hasSuffix(" (default: \(value))") == true, "\(line ?? "")")
        }
      }
    }
    for heading in ["Files:", "Exit status:", "Examples:"] {
      #expect(help.lines.contains(heading), "no \(heading)")
    }
    for status in CommandTable.exitStatuses {
      #expect(help.lines.contains { $0.hasPrefix("  \(status.status)  ") }, "exit \(status.status)")
    }
    for name in ["run", "listen", "check-config", "bands"] {
      let result = try Binary.run([name, "--help"])
      #expect(result.status == 0, "\(name) --help: \(result.error)")
      #expect(result.lines.first == "usage: " + CommandTable.command(named: name)!.usage)
      for option in CommandTable.command(named: name)!.options {
        #expect(result.lines.contains { $0.hasPrefix("  " + option.signature) }, "\(option.name)")
      }
    }
    #expect(try Binary.run(["help"]).lines == help.lines)
    #expect(try Binary.run(["-h"]).lines == help.lines)
    #expect(try Binary.run(["help", "bands"]).lines == (try Binary.run(["bands", "-h"])).lines)
  }
}

/// `-v` writes debug lines (client connects and drops here); without it the daemon is quiet.
@Suite(.serialized) struct VerboseTests {
  /// Runs a daemon (with or without `-v`), connects one client that reads a frame and leaves,
  /// and returns the daemon's stderr.
  static func daemonLog(verbose: Bool) throws -> String {
    try withTemporaryDirectory { directory in
      let audio = try makeTestAudio(in: directory, seconds: 5)
      let daemon = try TestDaemon(
        audio: audio, socketPath: directory + "/s.sock", extra: verbose ? ["-v"] : [])
      do {
        let client = try SocketTestClient(path: daemon.socketPath, send: "bars=4\n")
        #expect(client.readLine(timeout: 5) != nil, "no frame")
      }
      // The client is gone (deinit closed it): the daemon notices at once.
      pause(0.3)
      daemon.process.send(SIGHUP)
      pause(0.3)
      #expect(try daemon.terminate() == 0)
      return daemon.process.standardError
    }
  }

  @Test func verboseLogsClientsAndReloads() throws {
    let log = try Self.daemonLog(verbose: true)
    let lines = log.split(separator: "\n").map(String.init)
    #expect(lines.contains("pulsebar: socket: client 1 connected (1 of 64)"), "\(log)")
    #expect(lines.contains("pulsebar: socket: client 1 subscribed: format=text bars=4"), "\(log)")
    #expect(
      lines.contains { $0.hasPrefix("pulsebar: socket: client 1 disconnected (") }, "\(log)")
    #expect(lines.contains { $0.hasPrefix("pulsebar: reload: reading ") }, "\(log)")
  }

  @Test func quietWithoutVerbose() throws {
    let log = try Self.daemonLog(verbose: false)
    #expect(!log.contains("client 1"), "\(log)")
    #expect(!log.contains("reload: "), "\(log)")
    #expect(log.contains("socket: listening on"), "info lines stay: \(log)")
  }
}
