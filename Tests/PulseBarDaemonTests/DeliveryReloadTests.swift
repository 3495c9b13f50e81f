import Glibc
import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarDaemon

/// The reload receivers that follow the config's format and bar count, stdout
/// (``DescriptorDelivery``) and the terminal (``TerminalDelivery``), carry out the plan's
/// ``ReloadPlan/outputKey`` without deciding again: a new key is taken and announced
/// (``FrameDelivery/keysVersion``), none leaves them as they were.
@Suite struct DeliveryReloadTests {
  /// (what the reloaded file changes, the key taken afterwards or `nil` for the old one).
  static let rows: [(String, ConsumerKey?)] = [
    ("nothing", nil), ("glyphs", nil),
    ("bars", ConsumerKey(format: Configuration().format, bars: 16)),
    ("format", ConsumerKey(format: .json, bars: Configuration().bars)),
  ]

  static func plan(_ name: String) -> ReloadPlan {
    let running = Configuration()
    var reloaded = running
    switch name {
    case "glyphs": reloaded.barGlyphs = ["a", "b"]
    case "bars": reloaded.bars = 16
    case "format": reloaded.format = .json
    default: break
    }
    return ReloadPlan(running: running, reloaded: reloaded, sampleRate: 48000)
  }

  @Test(arguments: rows)
  func stdoutTakesThePlannedKey(name: String, key: ConsumerKey?) {
    let configuration = Configuration()
    let start = ConsumerKey(format: configuration.format, bars: configuration.bars)
    let delivery = DescriptorDelivery(key: start, descriptor: FileDescriptor(rawValue: -1))
    delivery.reload(Self.plan(name))
    #expect(delivery.wantedKeys == [key ?? start], "\(name)")
    #expect(delivery.keysVersion == (key == nil ? 0 : 1), "\(name)")
  }

  @Test(arguments: rows)
  func theTerminalTakesThePlannedKey(name: String, key: ConsumerKey?) throws {
    let configuration = Configuration()
    let pipe = try TerminalPipe()
    let view = TerminalView(
      configuration: configuration, output: FileDescriptor(rawValue: pipe.write),
      input: FileDescriptor(rawValue: -1), size: (24, 80))
    let delivery = TerminalDelivery(view: view, configuration: configuration)
    let start = delivery.wantedKeys
    delivery.reload(Self.plan(name))
    #expect(delivery.wantedKeys == (key.map { [$0] } ?? start), "\(name)")
    #expect(delivery.keysVersion == (key == nil ? 0 : 1), "\(name)")
  }
}
