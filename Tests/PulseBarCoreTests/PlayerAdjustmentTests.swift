import Testing

@testable import PulseBarCore

/// `pulsebar ctl volume|seek|position`'s operands: what each spelling means, and that every
/// number is bounded before any arithmetic (no trap, however long or strange the word).
@Suite struct PlayerAdjustmentTests {
  @Test(arguments: [
    ("0.4", PlayerAdjustment.VolumeChange.level(0.4)), ("40%", .level(0.4)), ("0", .level(0)),
    ("1", .level(1)), ("100%", .level(1)), ("+5%", .step(0.05)), ("-5%", .step(-0.05)),
    ("+0.05", .step(0.05)), ("-0.1", .step(-0.1)), ("-100%", .step(-1)), ("12.5%", .level(0.125)),
  ])
  func volumeOperands(text: String, expected: PlayerAdjustment.VolumeChange) throws {
    #expect(try PlayerAdjustment.volume(text) == expected)
  }

  @Test(arguments: [
    "", "%", "+", "-", "1.5", "101%", "+101%", "-2", "nan", "inf", "-inf", "1e-1", "0x1p-2",
    "０.４", "٠.٤", "1.", ".5", "+-5%", "5%%", "40 %", " 0.4", "1234567890%", "0.1234567",
    String(repeating: "9", count: 400), "+" + String(repeating: "9", count: 40) + "%",
  ])
  func badVolumesAreRefused(text: String) {
    #expect(throws: PlayerAdjustment.Failure.self) { try PlayerAdjustment.volume(text) }
  }

  /// A step stops at 0 and at 100 %; a player already louder than 100 % (mpv's amplification)
  /// is not raised by a step up and goes down from where it is.
  @Test(arguments: [
    (PlayerAdjustment.VolumeChange.step(0.05), 0.35, 0.4), (.step(0.05), 0.98, 1),
    (.step(-0.05), 0.02, 0), (.step(0.05), 1.2, 1.2), (.step(-0.05), 1.2, 1.15),
    (.step(-1), 10, 9), (.level(0.4), 0.9, 0.4), (.step(0.05), 0, 0.05),
  ])
  func volumeSteps(change: PlayerAdjustment.VolumeChange, current: Double, expected: Double) {
    #expect(change.level(from: current) == expected)
  }

  @Test(arguments: [
    ("+10", Int64(10_000_000)), ("-10", -10_000_000), ("10", 10_000_000), ("+0.5", 500_000),
    ("-1:30", -90_000_000), ("+1:00:00", 3_600_000_000),
  ])
  func seekOffsets(text: String, expected: Int64) throws {
    #expect(try PlayerAdjustment.seekOffset(text) == expected)
  }

  @Test(arguments: [
    ("1:23", Int64(83_000_000)), ("83", 83_000_000), ("83.5", 83_500_000), ("0", 0),
    ("1:02:03.25", 3_723_250_000), ("0:05", 5_000_000), ("8784:00:00", 31_622_400_000_000),
  ])
  func positions(text: String, expected: Int64) throws {
    #expect(try PlayerAdjustment.position(text) == expected)
  }

  @Test(arguments: [
    "", "-1", "+1", "1:2", "1:60", "1:23:4", "1:2.5:00", "1::00", ":30", "1:23:45:00", "nan",
    "1e3", "8784:00:01", "999999999:00:00", String(repeating: "9", count: 30), "1:23.",
  ])
  func badPositionsAreRefused(text: String) {
    #expect(throws: PlayerAdjustment.Failure.self) { try PlayerAdjustment.position(text) }
  }

  @Test(arguments: ["", "+", "--10", "+-10", "10s", "+inf", "-nan", "+1:60", "+999999999"])
  func badOffsetsAreRefused(text: String) {
    #expect(throws: PlayerAdjustment.Failure.self) { try PlayerAdjustment.seekOffset(text) }
  }

  /// Every short word over the operand alphabet: parsing never traps, and what it accepts
  /// stays in range.
  @Test func everyShortWordStaysInRange() {
    let alphabet: [Character] = ["0", "1", "9", ".", ":", "+", "-", "%", "e", "5"]
    var words = [""]
    for _ in 0..<4 {
      words = words.flatMap { word in alphabet.map { word + String($0) } }
      for word in words {
        if let change = try? PlayerAdjustment.volume(word) {
          switch change {
          case .level(let level): #expect((0...1).contains(level), "\(word)")
          case .step(let step): #expect((-1...1).contains(step), "\(word)")
          }
        }
        if let offset = try? PlayerAdjustment.seekOffset(word) {
          #expect(abs(offset) <= PlayerValueBounds.maximumPositionMicroseconds, "\(word)")
        }
        if let position = try? PlayerAdjustment.position(word) {
          #expect((0...PlayerValueBounds.maximumPositionMicroseconds).contains(position))
        }
      }
    }
  }

  @Test(arguments: PlayerValueBoundsTests.edgeDoubles)
  func volumesFromTheBusAreBounded(volume: Double) {
    let bounded = PlayerValueBounds.volume(volume)
    if !volume.isFinite {
      #expect(bounded == nil)
    } else {
      #expect((0...PlayerValueBounds.maximumVolume).contains(bounded!), "\(volume)")
      #expect(PlayerAdjustment.VolumeChange.step(0.05).level(from: bounded!).isFinite)
    }
  }
}
