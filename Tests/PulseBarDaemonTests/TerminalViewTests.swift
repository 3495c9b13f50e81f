import Glibc
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// The terminal debug view, in-process (into a pipe, fixed 24 × 80 grid) and through
/// the real binary in tmux.
@Suite struct TerminalViewTests {
  // MARK: - In-process

  @Test func morphIsDrawnFromItsQuadsInBraille() throws {
    let pipe = try TerminalPipe()
    let view = TerminalView(
      configuration: Configuration(), output: FileDescriptor(rawValue: pipe.write),
      input: FileDescriptor(rawValue: -1), size: (24, 80))
    let layout = TerminalLayout(rows: 24, columns: 80)
    #expect(layout.morphColumns == 14 && layout.morphRows == 7)
    let middle = layout.morphTop + 3

    // Pause: dots at x = (i + 0.5) / 28 are inside a bar when x ≤ 0.32 or x ≥ 0.68,
    // so cells 0…3 and 10…13 are full (U+28FF) and cells 5…8 are empty.
    draw(view, scene: Scene(configuration: Configuration()), bars: [0])
    for cell in 0..<14 {
      let scalar = view.canvas.scalar(row: middle, column: layout.morphLeft + cell)
      if cell < 4 || cell >= 10 { #expect(scalar == 0x28FF, "cell \(cell)") }
      if (5...8).contains(cell) { #expect(scalar == 0x20, "cell \(cell)") }
    }

    // Play: the triangle's upper edge is y = x / 2; the top-right cell is outside it,
    // the top-left and middle-right cells are inside.
    var scene = Scene(configuration: Configuration())
    scene.advance(to: 0, activity: .running, signalPresent: true, onset: false)
    scene.advance(to: 1, activity: .running, signalPresent: true, onset: false)
    #expect(scene.morph == 1)
    draw(view, scene: scene, bars: [0])
    #expect(view.canvas.scalar(row: layout.morphTop, column: layout.morphLeft + 13) == 0x20)
    #expect(view.canvas.scalar(row: layout.morphTop, column: layout.morphLeft) != 0x20)
    #expect(view.canvas.scalar(row: middle, column: layout.morphLeft + 13) != 0x20)
    #expect(view.canvas.scalar(row: middle, column: layout.morphLeft + 7) == 0x28FF)
  }

  @Test func barsHaveEighthsOfACell() throws {
    let pipe = try TerminalPipe()
    let view = TerminalView(
      configuration: Configuration(), output: FileDescriptor(rawValue: pipe.write),
      input: FileDescriptor(rawValue: -1), size: (24, 80))
    let layout = TerminalLayout(rows: 24, columns: 80)
    let barRows = layout.barsBottom - layout.barsTop + 1  // 22 rows, 176 eighths
    #expect(barRows == 22)
    // 43 eighths: five full cells and a three-eighths block on top.
    draw(view, scene: Scene(configuration: Configuration()), bars: [43.0 / 176, 1])
    let column = layout.barsLeft
    for step in 0..<5 {
      #expect(view.canvas.scalar(row: layout.barsBottom - step, column: column) == 0x2588)
    }
    #expect(view.canvas.scalar(row: layout.barsBottom - 5, column: column) == 0x2583)
    #expect(view.canvas.scalar(row: layout.barsBottom - 6, column: column) == 0x20)
    // Two bars in 60 columns with a gap of one: 29 columns each, the second from +30.
    #expect(layout.barsRight - layout.barsLeft == 60)
    #expect(view.canvas.scalar(row: layout.barsTop, column: column + 29) == 0x20)
    #expect(view.canvas.scalar(row: layout.barsTop, column: column + 30) == 0x2588)
    #expect(view.canvas.scalar(row: layout.barsTop, column: column + 58) == 0x2588)
  }

  /// `[colors]` colours the view too: the bars' gradient across the bars, the glyph by state.
  @Test func configuredColorsDrawInTheView() throws {
    let pipe = try TerminalPipe()
    var configuration = Configuration()
    configuration.barColors = [
      RGBColor(red: 1, green: 2, blue: 3), RGBColor(red: 9, green: 8, blue: 7),
    ]
    configuration.barColoring = .position
    configuration.stoppedColor = RGBColor(red: 0x12, green: 0x34, blue: 0x56)
    let view = TerminalView(
      configuration: configuration, output: FileDescriptor(rawValue: pipe.write),
      input: FileDescriptor(rawValue: -1), size: (24, 80))
    let layout = TerminalLayout(rows: 24, columns: 80)
    draw(view, scene: Scene(configuration: configuration), bars: [1, 1])
    #expect(view.canvas.color(row: layout.barsBottom, column: layout.barsLeft) == 0x01_02_03)
    #expect(view.canvas.color(row: layout.barsTop, column: layout.barsLeft + 30) == 0x09_08_07)
    let middle = layout.morphTop + layout.morphRows / 2
    #expect(view.canvas.color(row: middle, column: layout.morphLeft + 1) == 0x12_34_56)
  }

  @Test func statusLineShowsEveryFigure() throws {
    let pipe = try TerminalPipe()
    let view = TerminalView(
      configuration: Configuration(), output: FileDescriptor(rawValue: pipe.write),
      input: FileDescriptor(rawValue: -1), size: (24, 80))
    let status = TerminalStatus(
      source: "file:a.wav", state: .paused, fps: 59.96, onsetLatency: 0.0125, cpuPercent: 1.54,
      socketClients: 3, droppedFrames: 7)
    draw(view, scene: Scene(configuration: Configuration()), bars: [0.5], status: status)
    let line = view.text(ofRow: 23)
    for part in [
      "state paused", "fps 60.0", "onset 12.5 ms", "cpu 1.5%", "clients 3", "dropped 7",
    ] {
      #expect(line.contains(part), "\(part) in \(line)")
    }
    #expect(view.text(ofRow: 0).contains("source file:a.wav"))
  }

  @Test func onlyChangedCellsAreWritten() throws {
    let pipe = try TerminalPipe()
    let view = TerminalView(
      configuration: Configuration(), output: FileDescriptor(rawValue: pipe.write),
      input: FileDescriptor(rawValue: -1), size: (24, 80))
    let scene = Scene(configuration: Configuration())
    draw(view, scene: scene, bars: [0.5, 0.7])
    let first = pipe.drain()
    #expect(first.count > 500)
    #expect(first.starts(with: Array("\u{1B}[0m\u{1B}[2J".utf8)))
    draw(view, scene: scene, bars: [0.5, 0.7])
    #expect(pipe.drain().isEmpty)
    draw(view, scene: scene, bars: [0.5, 0.71])
    let changed = pipe.drain()
    #expect(!changed.isEmpty && changed.count < first.count / 4, "\(changed.count) bytes")
  }

  @Test func coloursFollowTheTerminal() {
    var cube = TerminalCanvas(truecolor: false)
    cube.resize(rows: 1, columns: 2)
    cube.set(row: 0, column: 0, scalar: 0x41, color: 0xFF_00_00)
    cube.render()
    #expect(String(decoding: cube.bytes, as: UTF8.self).contains("\u{1B}[38;5;196mA"))
    var truecolor = TerminalCanvas(truecolor: true)
    truecolor.resize(rows: 1, columns: 2)
    truecolor.set(row: 0, column: 1, scalar: 0x2665, color: 0x10_20_30)
    truecolor.render()
    #expect(
      String(decoding: truecolor.bytes, as: UTF8.self).hasSuffix(
        "\u{1B}[1;2H\u{1B}[38;2;16;32;48m♥"))
  }

  @Test(
    arguments: [
      ("♪", 0x266A), ("❤️", 0x2764), ("🎵", 0x2665), ("音", 0x2665), ("", 0x2665), ("*", 0x2A),
    ] as [(String, UInt32)])
  func bubbleGlyphsStayOneColumnWide(glyph: String, scalar: UInt32) {
    #expect(TerminalView.narrowScalar(of: glyph) == scalar)
  }

  @Test(arguments: [(0, 0), (1, 1), (3, 10), (8, 30), (12, 200), (120, 400)] as [(Int, Int)])
  func drawsAtAnySize(rows: Int, columns: Int) throws {
    let pipe = try TerminalPipe()
    let view = TerminalView(
      configuration: Configuration(), output: FileDescriptor(rawValue: pipe.write),
      input: FileDescriptor(rawValue: -1), size: (rows, columns))
    var scene = Scene(configuration: Configuration())
    for frame in 0..<30 {
      scene.advance(
        to: Double(frame) / 60, activity: .running, signalPresent: true, onset: frame % 10 == 0)
      draw(view, scene: scene, bars: [1, 0.5, 0, 0.25])
      _ = pipe.drain()
    }
    #expect(view.canvas.rows == rows && view.canvas.columns == columns)
    if rows >= 8 && columns >= 30 {
      #expect(
        (0..<rows).contains { view.text(ofRow: $0).unicodeScalars.contains { $0.value == 0x2588 } })
    }
  }

  @Test func resizeClearsAndRedrawsEverything() {
    var canvas = TerminalCanvas(truecolor: true)
    canvas.resize(rows: 24, columns: 80)
    canvas.set(row: 2, column: 3, scalar: 0x41)
    canvas.render()
    canvas.render()
    #expect(canvas.bytes.isEmpty)  // nothing changed
    let same = canvas.resize(rows: 24, columns: 80)
    let bigger = canvas.resize(rows: 30, columns: 100)
    #expect(!same && bigger)
    canvas.set(row: 2, column: 3, scalar: 0x41)
    canvas.render()
    #expect(String(decoding: canvas.bytes, as: UTF8.self) == "\u{1B}[0m\u{1B}[2J\u{1B}[3;4HA")
  }

  @Test func enterAndRestoreSwitchScreens() throws {
    let pipe = try TerminalPipe()
    let view = TerminalView(
      configuration: Configuration(), output: FileDescriptor(rawValue: pipe.write),
      input: FileDescriptor(rawValue: -1), size: (24, 80))
    view.enter()
    #expect(pipe.drain() == Array("\u{1B}[?1049h\u{1B}[?25l".utf8))
    view.restore()
    view.restore()
    #expect(pipe.drain() == Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8))
  }

  @Test(arguments: [("xq", true), ("Q", true), ("\u{03}", true), ("ab", false)])
  func keysThatQuit(keys: String, quits: Bool) throws {
    let pipe = try TerminalPipe()
    let view = TerminalView(
      configuration: Configuration(), output: FileDescriptor(rawValue: -1),
      input: FileDescriptor(rawValue: pipe.read), size: (24, 80))
    var bytes = Array(keys.utf8)
    #expect(Glibc.write(pipe.write, &bytes, bytes.count) == bytes.count)
    #expect(view.handleInput() == quits)
  }

  @Test func endOfInputQuitsAndIsNotPolled() throws {
    let pipe = try TerminalPipe()
    let view = TerminalView(
      configuration: Configuration(), output: FileDescriptor(rawValue: -1),
      input: FileDescriptor(rawValue: pipe.read), size: (24, 80))
    #expect(view.inputDescriptor.rawValue == -1)  // not a terminal: the engine does not poll it
    #expect(!view.handleInput())  // nothing yet (EAGAIN)
    pipe.closeWriteEnd()
    #expect(view.handleInput())  // end of input: the terminal is gone
  }

  /// stdout is a pipe (into `cat`): one error line and exit 2, nothing on stdout.
  @Test func refusesWhenStdoutIsNotATerminal() throws {
    let binary = try pulsebarBinary()
    let directory = try TemporaryDirectory()
    let wav = try directory.makeSine()
    let path = directory.path
    let piped = shell(
      "{ timeout 20 env XDG_RUNTIME_DIR=\(path) XDG_CONFIG_HOME=\(path) \(binary) run"
        + " --foreground --input file:\(wav) 2> \(path)/err < /dev/null; echo $? > \(path)/rc; }"
        + " | cat > \(path)/out")
    #expect(piped == 0)
    #expect(readText("\(path)/rc") == "2\n")
    let error = readText("\(path)/err")
    #expect(error.contains("--foreground needs a terminal on stdout"), "stderr: \(error)")
    #expect(error.split(separator: "\n").count == 1, "stderr: \(error)")
    #expect(readText("\(path)/out").isEmpty)
  }

  // MARK: - The real binary in tmux

  /// Quits with q, Ctrl-C (read as a byte in raw mode) or SIGTERM (the daemon's signal
  /// thread); each must leave the alternate screen and exit 0.
  @Test(arguments: ["q", "C-c", "SIGTERM"])
  func foregroundViewInTmuxDrawsAndRestores(quit: String) throws {
    let binary = try pulsebarBinary()
    let directory = try TemporaryDirectory()
    let wav = try directory.makeSine()
    let path = directory.path
    let tmux = "tmux -u -L pulsebar-test-\(getpid())-\(quit) -f \(path)/tmux.conf"
    writeText("set -g remain-on-exit on\n", to: "\(path)/tmux.conf")
    defer { _ = shell("\(tmux) kill-server 2>/dev/null") }
    // The inner shell writes its pid and execs pulsebar; the outer one records the exit.
    let command =
      "sh -c \"echo \\$\\$ > \(path)/pid; exec env XDG_RUNTIME_DIR=\(path)"
      + " XDG_CONFIG_HOME=\(path) COLORTERM=truecolor \(binary) run --foreground"
      + " --input file:\(wav)\"; echo $? > \(path)/exit"
    try #require(shell("\(tmux) new-session -d -x 80 -y 24 -s view '\(command)'") == 0)

    // The view appears: braille morph, bars and the status line.
    var pane = ""
    for _ in 0..<50 {
      usleep(100_000)
      pane = capture(tmux, directory)
      if pane.contains("state") && pane.unicodeScalars.contains(where: Self.isBraille) { break }
    }
    #expect(pane.unicodeScalars.contains(where: Self.isBraille), "pane:\n\(pane)")
    #expect(pane.unicodeScalars.contains { (0x2581...0x2588).contains($0.value) }, "pane:\n\(pane)")
    #expect(pane.contains("state") && pane.contains("fps"), "pane:\n\(pane)")
    #expect(paneInfo(tmux, directory) == "0 1", "alternate screen while running")

    // Quitting: the process exits 0 and the pane is back on the normal screen.
    if quit == "SIGTERM" {
      let pid = readText("\(path)/pid").split(separator: "\n").first.flatMap { Int32($0) }
      let target = try #require(pid, "no pid file")
      #expect(kill(target, SIGTERM) == 0)
    } else {
      #expect(shell("\(tmux) send-keys -t view \(quit)") == 0)
    }
    var info = ""
    for _ in 0..<50 {
      usleep(100_000)
      info = paneInfo(tmux, directory)
      if info == "1 0" { break }
    }
    #expect(info == "1 0", "pane_dead alternate_on: \(info)")
    let exit = readText("\(path)/exit")
    #expect(exit == "0\n", "exit status: \(exit)")
    let after = capture(tmux, directory)
    #expect(!after.unicodeScalars.contains(where: Self.isBraille), "pane after \(quit):\n\(after)")
  }

  /// Log lines (here: no audio server, so capture retries) do not scribble over the view;
  /// they go to a file that is named once the view is gone.
  @Test func logLinesStayOffTheView() throws {
    let binary = try pulsebarBinary()
    let directory = try TemporaryDirectory()
    let path = directory.path
    let tmux = "tmux -u -L pulsebar-test-\(getpid())-log -f \(path)/tmux.conf"
    writeText("set -g remain-on-exit on\n", to: "\(path)/tmux.conf")
    defer { _ = shell("\(tmux) kill-server 2>/dev/null") }
    let command =
      "env XDG_RUNTIME_DIR=\(path) XDG_CONFIG_HOME=\(path) PULSE_SERVER=unix:\(path)/no-server"
      + " \(binary) run --foreground --input pulse"
    try #require(shell("\(tmux) new-session -d -x 80 -y 24 -s view '\(command)'") == 0)
    var pane = ""
    for _ in 0..<50 {
      usleep(100_000)
      pane = capture(tmux, directory)
      if pane.contains("unreachable") { break }
    }
    #expect(pane.contains("unreachable"), "pane:\n\(pane)")
    #expect(!pane.contains("pulsebar:"), "a log line on the view:\n\(pane)")
    #expect(readText("\(path)/pulsebar-foreground.log").contains("retrying"))
    #expect(shell("\(tmux) send-keys -t view q") == 0)
    var after = ""
    for _ in 0..<50 {
      usleep(100_000)
      // With the scrollback and wrapped lines joined: the message may have scrolled.
      _ = shell("\(tmux) capture-pane -p -J -S -100 -t view > \(path)/after")
      after = readText("\(path)/after")
      if after.contains("messages from the session") { break }
    }
    // (The pane wraps the path at 80 columns.)
    #expect(after.contains("pulsebar: messages from the session are in"), "pane:\n\(after)")
  }

  // MARK: - Helpers

  private static func isBraille(_ scalar: Unicode.Scalar) -> Bool {
    (0x2801...0x28FF).contains(scalar.value)
  }

  private func capture(_ tmux: String, _ directory: TemporaryDirectory) -> String {
    _ = shell("\(tmux) capture-pane -p -t view > \(directory.path)/pane")
    return readText("\(directory.path)/pane")
  }

  /// `"<pane_dead> <alternate_on>"`.
  private func paneInfo(_ tmux: String, _ directory: TemporaryDirectory) -> String {
    _ = shell(
      "\(tmux) display -p -t view '#{pane_dead} #{alternate_on}'"
        + " > \(directory.path)/info")
    let line = readText("\(directory.path)/info").split(separator: "\n").first ?? ""
    return String(line).trimmingSpaces()
  }

  private func draw(
    _ view: TerminalView, scene: Scene, bars: [Float],
    status: TerminalStatus = TerminalStatus(
      source: "test", state: .stopped, fps: 60, onsetLatency: nil, cpuPercent: 0,
      socketClients: 0, droppedFrames: 0)
  ) {
    bars.withUnsafeBufferPointer { view.draw(scene: scene, bars: $0, status: status) }
  }
}
