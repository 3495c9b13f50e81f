import Glibc
import PulseBarCore
import PulseBarSystem

/// The full-screen debug view of `pulsebar run --foreground`: multi-row bars, the
/// play/pause morph drawn from its polygon in braille dots, rising bubbles and a
/// status line, redrawn by emitting only the cells that changed.
///
/// Confined to the engine thread: every call (enter, draw, handleInput, reconfigure, restore) must
/// come from the thread that made the first one; debug builds assert it. The engine
/// polls ``inputDescriptor`` for POLLIN, calls ``handleInput()`` when it is readable,
/// ``draw(scene:bars:status:)`` once per frame and ``restore()`` on quit or SIGTERM.
package final class TerminalView {
  private let output: FileDescriptor
  private let input: FileDescriptor
  /// A fixed grid size (bench, tests); `nil` asks the terminal each frame.
  private let fixedSize: (rows: Int, columns: Int)?
  var canvas: TerminalCanvas
  /// The bubble glyphs' first scalars, indexed like ``Configuration/bubbleGlyphs``; a reload
  /// replaces them (``reconfigure(_:)``).
  private(set) var bubbleScalars: [UInt32]
  private var rawMode: RawTerminalMode?
  private var entered = false
  private var confinement = ThreadConfinement()
  private var inputBytes = [UInt8](repeating: 0, count: 64)

  /// A view on stdout and stdin; throws when stdout is not a terminal.
  package convenience init(configuration: Configuration) throws(TerminalError) {
    guard FileDescriptor.standardOutput.isTerminal else { throw .notATerminal }
    self.init(
      configuration: configuration, output: .standardOutput, input: .standardInput, size: nil)
  }

  /// A view writing to any descriptor: `size` fixes the grid instead of asking the
  /// terminal (for the bench and tests, which draw into a pipe or /dev/null).
  package init(
    configuration: Configuration, output: FileDescriptor, input: FileDescriptor,
    size: (rows: Int, columns: Int)?
  ) {
    self.output = output
    self.input = input
    fixedSize = size
    canvas = TerminalCanvas(truecolor: Self.terminalHasTruecolor())
    canvas.colors = TerminalColors(configuration)
    bubbleScalars = configuration.bubbleGlyphs.map(Self.narrowScalar(of:))
  }

  deinit {
    restore()
  }

  /// Takes a reloaded configuration's bubble glyphs and colours (the keys the view reads
  /// itself).
  package func reconfigure(_ configuration: Configuration) {
    assertConfined()
    bubbleScalars = configuration.bubbleGlyphs.map(Self.narrowScalar(of:))
    canvas.colors = TerminalColors(configuration)
    canvas.invalidate()
  }

  /// The descriptor the engine polls for key presses.
  /// It is -1 (which `poll` skips) when stdin is not a terminal: /dev/null or a spent
  /// pipe would read as "ready" forever and spin the engine.
  package var inputDescriptor: FileDescriptor {
    input.isTerminal ? input : FileDescriptor(rawValue: -1)
  }

  // MARK: - Lifecycle

  /// Switches to the alternate screen, hides the cursor and puts stdin in raw mode
  /// (no line buffering, no echo, Ctrl-C read as a byte).
  package func enter() {
    assertConfined()
    guard !entered else { return }
    entered = true
    rawMode = RawTerminalMode(input)
    emit("\u{1B}[?1049h\u{1B}[?25l")
    canvas.invalidate()
  }

  /// Leaves the alternate screen, shows the cursor and restores stdin's modes.
  /// Idempotent; safe on any exit path.
  package func restore() {
    guard entered else { return }
    entered = false
    emit("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    rawMode?.restore()
    rawMode = nil
  }

  // MARK: - Input

  /// Reads the pending keys; true when the user asked to quit (q, Q or Ctrl-C) or the
  /// terminal is gone (end of input or an error such as EIO after a hang-up).
  package func handleInput() -> Bool {
    assertConfined()
    let result = inputBytes.withUnsafeMutableBytes { buffer in
      Result { () throws(Errno) in try input.read(into: buffer, retryOnInterrupt: false) }
    }
    let count: Int
    switch result {
    case .success(let read): count = read
    case .failure(let error): return error != .wouldBlock && error != .interrupted
    }
    if count == 0 { return inputHungUp() }
    for index in 0..<count {
      switch inputBytes[index] {
      case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03: return true
      default: continue
      }
    }
    return false
  }

  /// True when the input reports a hang-up (a raw terminal also reads 0 bytes when
  /// simply idle, so a zero-length read alone proves nothing).
  private func inputHungUp() -> Bool {
    !input.wait(for: .readable, timeoutMilliseconds: 0)
      .intersection([.hangup, .error, .invalid]).isEmpty
  }

  // MARK: - Frame

  /// Composes and writes one frame: one `write` of only the changed cells.
  package func draw(scene: Scene, bars: UnsafeBufferPointer<Float>, status: TerminalStatus) {
    assertConfined()
    let size = fixedSize ?? terminalSize()
    canvas.resize(rows: size.rows, columns: size.columns)
    canvas.compose(scene: scene, bars: bars, status: status, bubbleGlyphs: bubbleScalars)
    canvas.render()
    guard !canvas.bytes.isEmpty else { return }
    canvas.bytes.withUnsafeBytes { _ = try? output.writeAll($0) }
  }

  /// Bytes the last ``draw(scene:bars:status:)`` wrote (0 when nothing changed).
  package var lastFrameByteCount: Int { canvas.bytes.count }

  /// The output terminal's size, or 24 × 80 when it cannot say.
  private func terminalSize() -> (rows: Int, columns: Int) {
    output.terminalSize() ?? (24, 80)
  }

  private func emit(_ text: StaticString) {
    text.withUTF8Buffer { _ = try? output.writeAll(UnsafeRawBufferPointer($0)) }
  }

  /// The glyph's first scalar (a variation selector after it is dropped, so "❤️" draws
  /// as the text-style ❤), or ♥ when that scalar takes two columns (emoji, CJK): the
  /// canvas keeps one scalar per one-column cell.
  static func narrowScalar(of glyph: String) -> UInt32 {
    guard let scalar = glyph.unicodeScalars.first?.value else { return 0x2665 }
    let wide: [ClosedRange<UInt32>] = [
      0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
      0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F000...0x10FFFF,
    ]
    let isWide = wide.contains { $0.contains(scalar) }
    return isWide || scalar < 0x20 ? 0x2665 : scalar
  }

  private static func terminalHasTruecolor() -> Bool {
    let value = environment("COLORTERM")
    return value == "truecolor" || value == "24bit"
  }

  /// Debug check of the thread confinement documented on the type.
  private func assertConfined() { confinement.check("TerminalView") }
}
