import Glibc
import PulseBarTestSupport

/// `pulsebar-bench picture`: how the bars look at the moments users notice, pulsebar
/// beside Debian's `cava` on the same audio in one run.
///
/// Each scenario is synthesized by ``PictureSignals`` (the picture tests' signals),
/// written once as a 16-bit WAV (without sox's dither, so digital silence stays
/// silence) and then:
/// - **cava** (fresh per scenario, so its autosens starts over) records the monitor
///   of a private PulseAudio null sink while `paplay` plays the file into it; every
///   line cava writes from the spawn of `paplay` until it ends counts;
/// - **pulsebar** reads the same file with `run --input file:… --offline --format json`;
///   its lines carry their audio time, and a frame it leaves out (unchanged) repeats
///   the last one, so both tools are judged on a 60 fps grid.
///
/// Both draw the same layout at cava's bench settings (stereo, 60 fps; 32 bars, or
/// cava's core-test 20 for the tones). Figures are ``PictureFigures`` of the drawn
/// bars over the whole scenario, lead-in included: what a user sees.
func runPictureBench() {
  guard access(CavaBench.cavaPath, X_OK) == 0 else {
    print("cava is not installed (apt-get install cava); skipped")
    return
  }
  guard let pulsebar = BenchTools.pulsebarBinary() else {
    print("no pulsebar binary: run `swift build` (or -c release) first")
    return
  }
  let server: PrivatePulseServer
  do {
    server = try PrivatePulseServer()
  } catch {
    print("cannot start a private PulseAudio server: \(error)")
    return
  }
  defer { server.stop() }
  let bench = PictureBench(server: server, pulsebar: pulsebar)
  print("private server \(server.serverAddress), sink \(CavaBench.sink); pulsebar \(pulsebar)")
  print(
    pad("scenario", 24) + pad("tool", 10) + pad("longest pinned", 16) + pad("pinned", 9)
      + pad("floor", 9) + pad("mean", 7) + "motion")
  var results: [(scenario: PictureBench.Scenario, cava: PictureFigures, ours: PictureFigures)] =
    []
  for scenario in PictureBench.scenarios {
    guard let (cavaFrames, ourFrames) = bench.measure(scenario) else { continue }
    let cava = PictureFigures(frames: cavaFrames, fps: 60)
    let ours = PictureFigures(frames: ourFrames, fps: 60)
    results.append((scenario, cava, ours))
    for (tool, figures) in [("cava", cava), ("pulsebar", ours)] {
      print(
        pad(tool == "cava" ? scenario.name : "", 24) + pad(tool, 10)
          + pad(fmt(figures.longestPinnedSeconds, 2) + " s", 16)
          + pad(fmt(100 * figures.pinnedShare, 1) + " %", 9)
          + pad(fmt(100 * figures.floorShare, 1) + " %", 9) + pad(fmt(figures.meanHeight, 2), 7)
          + fmt(figures.motion, 3))
    }
    if scenario.bars == 20, let cavaLast = cavaFrames.last, let ourLast = ourFrames.last {
      PictureBench.printTones(cava: cavaLast, ours: ourLast)
    }
  }
  PictureBench.printVerdicts(results.map { ($0.scenario.name, $0.cava, $0.ours) })
}

/// The scenarios and the two ways of measuring them.
struct PictureBench {
  /// One picture scenario: its audio and the bars drawn.
  struct Scenario: Sendable {
    var name: String
    var bars: Int
    /// True for a level jump: its longest pinned run is held to the 0.3 s budget.
    var isJump: Bool
    var samples: @Sendable () -> [Float]
  }

  static let scenarios: [Scenario] = [
    Scenario(name: "dither 2 s → music", bars: 32, isJump: true) {
      PictureSignals.ditherThenMusic(silence: 2, music: 12)
    },
    Scenario(name: "-89 dBFS noise", bars: 32, isJump: false) {
      PictureSignals.quietNoise(seconds: 6)
    },
    Scenario(name: "-30 → 0 dB step", bars: 32, isJump: true) {
      PictureSignals.levelStep(decibels: -30, before: 4, after: 8)
    },
    Scenario(name: "quiet intro → loud", bars: 32, isJump: true) {
      PictureSignals.quietIntro(intro: 1, music: 12)
    },
    Scenario(name: "cava tones 200/2000 Hz", bars: 20, isJump: false) {
      PictureSignals.tones(left: 200, right: 2000, seconds: 3.5)
    },
    Scenario(name: "whole recording 25.5 s", bars: 32, isJump: true) {
      PictureSignals.recording(seconds: 24)
    },
  ]

  let server: PrivatePulseServer
  let pulsebar: String

  /// Both tools' frames for `scenario`, or nil when either could not run.
  func measure(_ scenario: Scenario) -> (cava: [[Float]], ours: [[Float]])? {
    let path =
      server.directory + "/picture-" + scenario.name.filter { $0.isLetter || $0.isNumber } + ".wav"
    let samples = scenario.samples()
    guard BenchTools.writeWAV(samples, sampleRate: PictureSignals.sampleRate, to: path) else {
      print("\(scenario.name): cannot write the WAV with sox")
      return nil
    }
    let seconds = Double(samples.count / 2) / Double(PictureSignals.sampleRate)
    guard let cava = cavaFrames(file: path, seconds: seconds, bars: scenario.bars),
      let ours = pulsebarFrames(file: path, bars: scenario.bars)
    else {
      print("\(scenario.name): a tool failed")
      return nil
    }
    return (cava, ours)
  }

  /// cava's lines (heights 0…1, left then right low→high) while `paplay` plays `file`.
  private func cavaFrames(file: String, seconds: Double, bars: Int) -> [[Float]]? {
    let config = BenchTools.writeCavaConfig(
      source: "\(CavaBench.sink).monitor", directory: server.directory, bars: bars)
    var environment = server.environment
    environment["TERM"] = "dumb"
    guard
      let cava = try? ChildProcess(CavaBench.cavaPath, ["-p", config], environment: environment)
    else { return nil }
    defer {
      cava.send(SIGTERM)
      _ = try? cava.waitForExit(timeout: 5)
    }
    // Warm-up: cava connects and the null sink's first render-ahead block passes.
    _ = cava.readLines(for: 2)
    guard cava.isRunning, let player = try? server.play(file: file, sink: CavaBench.sink) else {
      return nil
    }
    let lines = cava.readLines(for: seconds + 0.3)
    _ = try? player.waitForExit(timeout: 5)
    return lines.compactMap { line in
      let values = line.split(separator: ";").compactMap { Float($0) }.map { $0 / 1000 }
      guard values.count == bars else { return nil }
      // cava's raw stereo mirrors the left channel (high→low); put it low→high.
      return Array(values[..<(bars / 2)].reversed()) + Array(values[(bars / 2)...])
    }
  }

  /// pulsebar's frames of `file`, offline, on the 60 fps grid.
  private func pulsebarFrames(file: String, bars: Int) -> [[Float]]? {
    let arguments = [
      "run", "--input", "file:" + file, "--offline", "--bars", "\(bars)", "--channels", "stereo",
      "--fps", "60", "--format", "json",
    ]
    guard let process = try? ChildProcess(pulsebar, arguments) else { return nil }
    let lines = process.readLines(for: 120)
    guard (try? process.waitForExit(timeout: 5)) == 0 else { return nil }
    var frames: [[Float]] = []
    for line in lines {
      guard let time = Self.number(after: "\"time\":", in: line),
        let barsStart = line.firstRange(of: "\"bars\":[")
      else { continue }
      let rest = line[barsStart.upperBound...]
      let heights = rest[..<(rest.firstIndex(of: "]") ?? rest.endIndex)]
        .split(separator: ",").compactMap { Float($0) }
      // Frame n ends at (n + 1)/60 s; unchanged frames are not written: repeat the last.
      let index = Int((time * 60).rounded()) - 1
      while let last = frames.last, frames.count < index { frames.append(last) }
      frames.append(heights)
    }
    return frames
  }

  /// The number that follows `key` in `line`.
  private static func number(after key: String, in line: String) -> Double? {
    guard let range = line.firstRange(of: key) else { return nil }
    let rest = line[range.upperBound...]
    return Double(rest[..<(rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex)])
  }

  /// The last frame of cava's core test (10 bars a channel): the 200 Hz bar (left 2), the
  /// 2000 Hz bar (right 6) and the strongest other bar of each channel.
  static func printTones(cava: [Float], ours: [Float]) {
    for (tool, bars) in [("cava", cava), ("pulsebar", ours)] {
      let left = Array(bars[0..<10])
      let right = Array(bars[10..<20])
      let otherLeft = left.indices.filter { $0 != 2 }.map { left[$0] }.max() ?? 0
      let otherRight = right.indices.filter { $0 != 6 }.map { right[$0] }.max() ?? 0
      print(
        pad("", 24) + pad(tool, 10) + "200 Hz bar \(fmt(Double(left[2]), 3)) (others ≤ "
          + "\(fmt(Double(otherLeft), 3))), 2000 Hz bar \(fmt(Double(right[6]), 3)) (others ≤ "
          + "\(fmt(Double(otherRight), 3)))")
    }
  }

  /// The budgets (docs/DESIGN.md, "Budgets"; issue 8) and how far pulsebar is from cava.
  static func printVerdicts(_ results: [(name: String, cava: PictureFigures, ours: PictureFigures)])
  {
    print()
    let jumps = results.filter { result in
      scenarios.contains { $0.name == result.name && $0.isJump }
    }
    let longest = jumps.map(\.ours.longestPinnedSeconds).max() ?? 0
    print(
      pad("≤ 0.3 s pinned after any level jump", 44)
        + "\(longest <= 0.3 ? "met" : "MISSED") (longest \(fmt(longest, 2)) s)")
    if let whole = results.first(where: { $0.name.hasPrefix("whole") }) {
      let share = whole.ours.pinnedShare
      print(
        pad("≤ 3 % of bar samples pinned, whole recording", 44)
          + "\(share <= 0.03 ? "met" : "MISSED") (\(fmt(100 * share, 1)) %)")
      let mean = whole.ours.meanHeight
      print(
        pad("whole recording: mean 0.2–0.5, floor ≤ 10 %", 44)
          + "\((0.2...0.5).contains(mean) && whole.ours.floorShare <= 0.1 ? "met" : "MISSED")")
    }
    if let lead = results.first(where: { $0.name.hasPrefix("dither") }) {
      print(
        "after a silent lead-in: cava pins \(fmt(100 * lead.cava.pinnedShare, 1)) % of bar samples"
          + " (longest \(fmt(lead.cava.longestPinnedSeconds, 2)) s), pulsebar "
          + "\(fmt(100 * lead.ours.pinnedShare, 1)) % (longest \(fmt(lead.ours.longestPinnedSeconds, 2)) s)"
      )
    }
    print(
      "(pinned: a bar ≥ 0.99 of its height; floor: < 0.01; motion: mean |change| of a bar per frame;"
        + " cava live through a null sink from paplay's spawn, pulsebar --offline on the same WAV)")
  }
}
