import PulseBarCore

/// What `pulsebar listen` does with the bytes a daemon sends: the whole lines of each read go
/// out in one write, a line the read cut short waits for its end, and the newest line that
/// shows something is kept aside for the offline line's width. Per line that is a scan for
/// the newline and a copy: nothing is parsed and nothing allocated (the width is measured
/// once, when the daemon has gone, from ``shownLine``), but for a line over i3blocks' bytes,
/// which is rebuilt (``BoundedLine``).
///
/// Each byte is scanned for a newline once, whatever the reads cut, and a line may be at most
/// ``maximumLine`` bytes: a longer one is ``Received/overlong`` (the listener drops the
/// connection), so nothing a socket sends grows the buffer.
struct ListenRelay {
  /// The longest line kept (with its newline): 64 KiB, some 60 times a frame's size.
  static let maximumLine = 65536

  /// What one read brought.
  enum Received: Equatable {
    /// No whole line yet.
    case partial
    /// Whole lines, `bytes` of them from the start of the buffer (``withLines(_:)``).
    case lines
    /// The daemon's answer to the request was `error: …` (the message, without the newline).
    case error(String)
    /// A line longer than the buffer: not a frame.
    case overlong
  }

  /// Received bytes not yet written: whole lines first, then the start of a cut line.
  private var buffer: [UInt8]
  private var filled = 0
  /// Where the whole lines end (after their last newline); 0 while there are none.
  private var linesEnd = 0
  /// The bytes before this were scanned for a newline and hold none after ``linesEnd``.
  private var scanned = 0
  /// What an empty line is written as (`nil`: as itself); see ``init(keepingShownLinesOf:capacity:emptyLine:maximumLineBytes:)``.
  private let emptyLine: [UInt8]?
  /// A longer line (without its newline) is written as ``BoundedLine/fitted(_:maximumBytes:)``.
  private let maximumLineBytes: Int?
  /// Only the newest whole line of each read is written (the older ones are frames already
  /// stale): i3blocks 1.4 reads one line of a persistent block per signal, and a signal comes
  /// per write, so the other lines of a write would wait in the pipe, and the last (a hidden
  /// line, written once) would never be read.
  private let newestLineOnly: Bool
  /// The newest line that shows something (a waybar `text` or a text line that is not
  /// empty), without its newline; empty until one came or when no width is kept.
  private(set) var shownLine: [UInt8] = []
  /// Whether ``shownLine`` is kept (the text and waybar formats, whose offline line is padded).
  private let format: OutputFormat?
  /// Whether any line other than an error has come.
  private(set) var sawFrames = false

  /// A relay for lines of `format`; `nil` keeps no line for a width. `emptyLine` replaces
  /// every empty line (a hidden text module): i3blocks 1.4 ignores an empty line, and takes
  /// a lone NUL as an empty text, which hides the block. A line longer than
  /// `maximumLineBytes` is written made safe by ``BoundedLine``: i3blocks 1.4 cuts a line at
  /// 1,024 bytes, inside a character or a tag, and swaybar then blanks the bar.
  init(
    keepingShownLinesOf format: OutputFormat?, capacity: Int = maximumLine,
    emptyLine: [UInt8]? = nil, maximumLineBytes: Int? = nil, newestLineOnly: Bool = false
  ) {
    buffer = [UInt8](repeating: 0, count: capacity)
    self.format = format
    self.emptyLine = emptyLine
    self.maximumLineBytes = maximumLineBytes
    self.newestLineOnly = newestLineOnly
    if format != nil { shownLine.reserveCapacity(1024) }
  }

  /// Bytes scanned for a newline in all (each once: a test checks the scan is linear).
  private(set) var bytesScanned = 0

  /// Reads into the free space with `read` (which returns the bytes read, 0 at the end):
  /// returns what `read` returned. Call ``take()`` after each read that returned bytes: a
  /// full buffer is ``Received/overlong``, and a read into it returns 0.
  mutating func receive(_ read: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
    guard filled < buffer.count else { return 0 }
    let start = filled
    let count = buffer.withUnsafeMutableBytes {
      read(UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
    }
    guard count > 0 else { return count }
    filled += count
    return count
  }

  /// What the bytes received so far hold: whole lines (to write with ``withLines(_:)``), the
  /// daemon's refusal, or nothing whole yet.
  mutating func take() -> Received {
    guard let newline = lastNewline() else {
      return filled == buffer.count ? .overlong : .partial
    }
    linesEnd = newline + 1
    if !sawFrames, buffer[..<filled].starts(with: Self.errorPrefix) {
      let end = buffer[..<filled].firstIndex(of: Self.newline) ?? newline
      return .error(String(decoding: buffer[..<end], as: UTF8.self))
    }
    sawFrames = true
    return .lines
  }

  /// Calls `write` with the whole lines ``take()`` found, then keeps the newest of them that
  /// shows something and moves the cut line's start to the front. Returns what `write` did.
  mutating func withLines(_ write: (UnsafeRawBufferPointer) -> Bool) -> Bool {
    let end = linesEnd
    let written = buffer.withUnsafeBytes { bytes in
      // The newest line starts after the newline before its own (``newestLineOnly``).
      let start =
        newestLineOnly ? (bytes[..<(end - 1)].lastIndex(of: Self.newline)).map { $0 + 1 } ?? 0 : 0
      return writeReplacingEmptyLines(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), write)
    }
    keepShownLine(endingAt: end - 1)
    let rest = filled - end
    if rest > 0 {
      buffer.withUnsafeMutableBytes { bytes in
        bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + end, byteCount: rest)
      }
    }
    filled = rest
    scanned = rest
    linesEnd = 0
    return written
  }

  /// Writes `lines` whole, or, with ``emptyLine`` or ``maximumLineBytes``, in pieces around
  /// each empty or over-long line, which is written replaced.
  private func writeReplacingEmptyLines(
    _ lines: UnsafeRawBufferPointer, _ write: (UnsafeRawBufferPointer) -> Bool
  ) -> Bool {
    guard emptyLine != nil || maximumLineBytes != nil else { return write(lines) }
    var start = 0
    var lineStart = 0
    for index in lines.indices where lines[index] == Self.newline {
      defer { lineStart = index + 1 }
      let line = UnsafeRawBufferPointer(rebasing: lines[lineStart..<index])
      let replacement: [UInt8]
      if line.isEmpty, let emptyLine {
        replacement = emptyLine
      } else if let maximumLineBytes, line.count > maximumLineBytes {
        replacement = BoundedLine.fitted(line, maximumBytes: maximumLineBytes) + [Self.newline]
      } else {
        continue
      }
      if lineStart > start, !write(UnsafeRawBufferPointer(rebasing: lines[start..<lineStart])) {
        return false
      }
      guard replacement.withUnsafeBytes(write) else { return false }
      start = index + 1
    }
    return start == lines.count || write(UnsafeRawBufferPointer(rebasing: lines[start...]))
  }

  private static let newline = UInt8(ascii: "\n")
  private static let errorPrefix = Array("error: ".utf8)
  /// How a waybar line with nothing to show starts (a hidden module: `output.hide_when`).
  private static let emptyWaybarText = Array(#"{"text":"","#.utf8)

  /// The last newline among the bytes received, scanning back from the end to the bytes
  /// scanned before (they hold none).
  private mutating func lastNewline() -> Int? {
    var index = filled - 1
    defer {
      bytesScanned += filled - max(index, scanned)
      scanned = filled
    }
    while index >= scanned {
      if buffer[index] == Self.newline { return index }
      index -= 1
    }
    return nil
  }

  /// Copies the newest line ending at or before `newline` that shows something into
  /// ``shownLine`` (a read holds one line, or a few after a stall: the scan stops there).
  private mutating func keepShownLine(endingAt newline: Int) {
    guard let format, format == .text || format == .waybar else { return }
    var end = newline
    while end >= 0 {
      var start = end
      while start > 0 && buffer[start - 1] != Self.newline { start -= 1 }
      let line = buffer[start..<end]
      let shows = format == .text ? !line.isEmpty : !line.starts(with: Self.emptyWaybarText)
      if shows {
        shownLine.removeAll(keepingCapacity: true)
        shownLine.append(contentsOf: line)
        return
      }
      end = start - 1
    }
  }
}
