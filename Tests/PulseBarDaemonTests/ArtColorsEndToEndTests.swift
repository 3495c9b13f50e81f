import Glibc
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// `colors.from_art` with the real `pulsebar run --input pulse`, a private session bus and the
/// fake MPRIS player, whose `mpris:artUrl` names covers ImageMagick made: the colours follow
/// the next track's art in json (`art_colors`) and in waybar's bar markup, and fall back to
/// `colors.bars` when the art is over http.
@Suite("Art colours, end to end", .serialized)
struct ArtColorsEndToEndTests {
  typealias Frame = PulseEndToEndTests.Frame

  static let configured = "#808080"
  static let red = "#e02020"
  static let cyan = RGBColor(red: 0x20, green: 0xd0, blue: 0xe0)

  /// A private server and bus, a json daemon and a waybar daemon on them (`from_art` on), and
  /// the fake player showing `first`'s art.
  final class Desktop {
    let server: PrivatePulseServer
    let bus: PrivateSessionBus
    var daemons: [ChildProcess] = []
    var player: ChildProcess?
    var mpv: ChildProcess?

    var environment: [String: String] { server.environment.merging(bus.environment) { $1 } }

    /// `firstArt`: the fake player starts with it; `nil`: no fake player.
    init(firstArt: String?) throws {
      server = try PrivatePulseServer()
      bus = try PrivateSessionBus(directory: server.directory)
      let config = server.directory + "/pulsebar.conf"
      LyricsEndToEndTests.write(
        config,
        "[colors]\nbars = \(ArtColorsEndToEndTests.configured)\nfrom_art = true\n"
          + "background = #000000\n")
      try #require(access(Binary.path, X_OK) == 0, "build pulsebar first: \(Binary.path)")
      let environment = server.environment.merging(bus.environment) { $1 }
      for format in ["json", "waybar"] {
        daemons.append(
          try ChildProcess(
            Binary.path,
            [
              "run", "--input", "pulse", "--format", format, "--bars", "8", "-v", "--config",
              config, "--socket", server.directory + "/pulsebar-\(format).sock",
            ], environment: environment))
      }
      guard let firstArt else { return }
      let player = try ChildProcess(
        "/usr/bin/python3",
        [
          HostilePlayerTests.script, "--name", "art", "--commands", "--title", "First",
          "--art-url", firstArt,
        ], environment: environment, stdin: true)
      self.player = player
      let ready = player.waitForLine(timeout: 15) { $0 == "ready" }
      try #require(ready != nil, "the fake player did not start: \(player.standardError)")
    }

    deinit {
      player?.send(SIGKILL)
      mpv?.send(SIGKILL)
      for daemon in daemons { daemon.send(SIGTERM) }
      for daemon in daemons { _ = try? daemon.waitForExit(timeout: 5) }
      bus.stop()
      server.stop()
    }

    /// Tells the player `command`; returns when it has obeyed.
    func player(_ command: String) {
      player?.writeToStdin(command + "\n")
      let done = player?.waitForLine(timeout: 10) { $0.hasPrefix("done ") }
      #expect(done != nil, "the fake player did not obey \(command)")
    }

    /// The next json frame and waybar line that satisfy their predicates, within `timeout`.
    func lines(timeout: Double, json: (Frame) -> Bool, waybar: (String) -> Bool)
      -> (Frame?, String?)
    {
      let frame = daemons[0].waitForLine(timeout: timeout) { json(Frame($0)) }.map(Frame.init)
      let line = daemons[1].waitForLine(timeout: timeout, where: waybar)
      return (frame, line)
    }
  }

  /// The gradient `art_colors` holds, or `nil` without it.
  static func gradient(_ frame: Frame) -> [RGBColor]? {
    guard let range = frame.line.firstRange(of: "\"art_colors\":{\"gradient\":[") else {
      return nil
    }
    let rest = frame.line[range.upperBound...]
    return rest[..<(rest.firstIndex(of: "]") ?? rest.endIndex)].split(separator: ",")
      .compactMap { RGBColor(parsing: $0.filter { $0 != "\"" }) }
  }

  /// What `command` prints (one line, its newline dropped).
  static func output(of command: String) -> String? {
    guard let pipe = popen(command, "r") else { return nil }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while case let count = fread(&buffer, 1, buffer.count, pipe), count > 0 {
      bytes += buffer[..<count]
    }
    guard pclose(pipe) == 0 else { return nil }
    if bytes.last == 10 { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func near(_ a: RGBColor, _ b: RGBColor) -> Bool {
    [(a.red, b.red), (a.green, b.green), (a.blue, b.blue)].allSatisfy {
      abs(Int($0) - Int($1)) <= 8
    }
  }

  @Test("the next track's art recolours the bars; http art falls back to colors.bars")
  func coloursFollowTheArt() throws {
    var template = Array("/tmp/pulsebar-art-e2e XXXXXX".utf8CString)
    let directory = template.withUnsafeMutableBufferPointer {
      String(cString: mkdtemp($0.baseAddress!)!)
    }
    defer { _ = system("rm -rf '\(directory)'") }
    #expect(system("convert -size 64x64 xc:'\(Self.red)' '\(directory)/cover.png'") == 0)
    #expect(system("convert -size 64x64 xc:'\(Self.cyan)' '\(directory)/cover.jpg'") == 0)
    let desktop = try Desktop(firstArt: "file://\(directory)/cover.png")
    desktop.player("status Playing")

    let (first, firstWaybar) = desktop.lines(
      timeout: 15, json: { Self.gradient($0) == [RGBColor(parsing: Self.red)!] },
      waybar: { $0.contains(Self.red) })
    #expect(first != nil, "no red art colours: \(desktop.daemons[0].standardError)")
    #expect(firstWaybar != nil, "no red bars in waybar: \(desktop.daemons[1].standardError)")

    desktop.player("art file://\(directory)/cover.jpg")
    let (second, secondWaybar) = desktop.lines(
      timeout: 10,
      json: { Self.gradient($0)?.count == 1 && Self.near(Self.gradient($0)![0], Self.cyan) },
      waybar: { !$0.contains(Self.red) && $0.contains("foreground=\\\"#") })
    #expect(second != nil, "the colours did not follow the next track's art")
    #expect(secondWaybar != nil)

    desktop.player("art https://example.com/cover.jpg")
    let (fallback, fallbackWaybar) = desktop.lines(
      timeout: 10, json: { $0.line.contains("\"title\"") && Self.gradient($0) == nil },
      waybar: { $0.contains(Self.configured) })
    #expect(fallback != nil, "http art did not fall back")
    #expect(fallbackWaybar != nil, "waybar did not fall back to colors.bars")
    #expect(desktop.daemons[0].standardError.contains("art over https is not fetched"))

    // The cover inline as a data: URI, padded with zeros after its end to just under the 1 MB
    // a data: URI may hold on the bus (its colours show), then to just over it (left out
    // whole, so the configured colours come back). Sizes are multiples of 3: no `=` padding.
    func inline(_ size: Int) throws -> String {
      let padded = "\(directory)/padded.png"
      #expect(
        system("cp '\(directory)/cover.png' '\(padded)' && truncate -s \(size) '\(padded)'") == 0)
      return "art data:image/png;base64,"
        + (try #require(Self.output(of: "base64 -w0 '\(padded)'")))
    }
    desktop.player(try inline(786_000))
    let (under, _) = desktop.lines(
      timeout: 10, json: { Self.gradient($0) == [RGBColor(parsing: Self.red)!] },
      waybar: { $0.contains(Self.red) })
    #expect(under != nil, "a data: URI under 1 MB did not show its colours")
    desktop.player(try inline(786_435))
    let (leftOut, _) = desktop.lines(
      timeout: 10, json: { $0.line.contains("\"title\"") && Self.gradient($0) == nil },
      waybar: { $0.contains(Self.configured) })
    #expect(leftOut != nil, "a data: URI over 1 MB was not left out")
  }

  @Test("mpv with mpv-mpris: cover.png, then cover.jpg beside the next track, recolour the bars")
  func mpvCoversBesideTheTracks() throws {
    let desktop = try Desktop(firstArt: nil)
    let folders = ["a", "b"].map { desktop.server.directory + "/" + $0 }
    for folder in folders { mkdir(folder, 0o700) }
    #expect(system("convert -size 64x64 xc:'\(Self.red)' '\(folders[0])/cover.png'") == 0)
    #expect(system("convert -size 64x64 xc:'\(Self.cyan)' '\(folders[1])/cover.jpg'") == 0)
    let tracks = [
      try MPRISFixtures.taggedTrack(in: folders[0], "one", title: "One", hertz: 440),
      try MPRISFixtures.taggedTrack(in: folders[1], "two", title: "Two", hertz: 660),
    ]
    desktop.mpv = try MPRISFixtures.mpv(tracks, paused: false, environment: desktop.environment)
    let (first, firstWaybar) = desktop.lines(
      timeout: 20, json: { Self.gradient($0) == [RGBColor(parsing: Self.red)!] },
      waybar: { $0.contains(Self.red) })
    #expect(first != nil, "no colours from cover.png: \(desktop.daemons[0].standardError)")
    #expect(firstWaybar != nil)
    let next = try Binary.run(["ctl", "next"], environment: desktop.environment, timeout: 10)
    #expect(next.status == 0)
    let (second, secondWaybar) = desktop.lines(
      timeout: 10,
      json: {
        $0.string("title") == "Two" && Self.gradient($0)?.count == 1
          && Self.near(Self.gradient($0)![0], Self.cyan)
      },
      waybar: { !$0.contains(Self.red) && $0.contains("foreground=\\\"#") })
    #expect(
      second != nil, "the colours did not follow cover.jpg: \(desktop.daemons[0].standardError)")
    #expect(secondWaybar != nil)
  }
}
