import Foundation
import Testing

/// A float WAV whose samples no sound card makes (NaN, infinities, ±3.4e38) among a 1 kHz tone,
/// read by the real binary in every format: it must run to the end (exit 0; it used to die of
/// SIGILL in text, waybar and raw at the first frame after the value) and the tone must still
/// show in its bar at the end (NaN used to leave every bar at 0 for the rest of the file).
@Suite("Hostile audio files")
struct HostileAudioFileTests {
  static let directory: String = {
    let path = NSTemporaryDirectory() + "pulsebar-hostile-audio-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

  /// A mono IEEE-float WAV at 44.1 kHz holding `samples`.
  static func floatWAV(_ samples: [Float]) -> Data {
    func le<T: FixedWidthInteger>(_ value: T) -> Data {
      withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }
    let data = samples.reduce(into: Data()) { $0 += le($1.bitPattern) }
    var format = le(UInt16(3)) + le(UInt16(1)) + le(UInt32(44100)) + le(UInt32(44100 * 4))
    format += le(UInt16(4)) + le(UInt16(32))
    var body = Data("WAVE".utf8) + Data("fmt ".utf8) + le(UInt32(format.count)) + format
    body += Data("data".utf8) + le(UInt32(data.count)) + data
    return Data("RIFF".utf8) + le(UInt32(body.count)) + body
  }

  static func tone(seconds: Double) -> [Float] {
    (0..<Int(seconds * 44100)).map { 0.5 * sinf(2 * .pi * 1000 * Float($0) / 44100) }
  }

  @Test(
    arguments: [
      ("nan", Float.nan), ("inf", Float.infinity), ("huge", -Float.greatestFiniteMagnitude),
    ],
    ["raw", "text", "waybar", "json"])
  func theFileIsReadToTheEnd(hostile: (String, Float), format: String) throws {
    let (name, value) = hostile
    let path = Self.directory + "/\(name)-\(format).wav"
    let samples =
      Self.tone(seconds: 0.1) + [Float](repeating: value, count: 10)
      + Self.tone(seconds: 1)
    try Self.floatWAV(samples).write(to: URL(fileURLWithPath: path))
    let result = try Binary.run([
      "--input", "file:\(path)", "--offline", "--format", format, "--bars", "8",
    ])
    #expect(result.status == 0, "\(name) \(format): \(result.error.suffix(400))")
    #expect(!result.lines.isEmpty, "\(name) \(format): no frames")
    guard format == "raw", let last = result.lines.last else { return }
    // Same bar as the clean tone in every encoding (CommandLineTests.everyEncodingIsRead).
    let bars = last.split(separator: ";").compactMap { Int($0) }
    #expect(bars.max()! > 0 && bars.firstIndex(of: bars.max()!) == 4, "\(name): \(last)")
  }
}
