import AllocationCounter
import Glibc
import PulseBarCore
import PulseBarDaemon
import PulseBarSystem

/// `pulsebar-bench scene`: the per-frame cost of the scene and of each renderer next to
/// the analysis they ride on (budget: scene + renderers ≤ 10 % of analysis), and the
/// terminal view's cost at 80 × 24 and 60 fps (budget: ≤ 2 % of a core).
///
/// At cava's settings (32 bars, stereo, 60 fps, 44.1 kHz) on 10 s of the benches'
/// synthetic music with 3 s of silence in the middle (so the scene pauses, morphs and
/// settles), then music again. Phases run as separate loops over recorded
/// inputs, so no clock reads sit inside the timed work. An MPRIS player is active throughout,
/// with a full text template (its title cut to 16 cells, its position extrapolated per frame,
/// a progress bar) and its track in json and the tooltip, in Pango markup with a three-colour
/// bar gradient and coloured glyph and bubbles: the player's texts are made once and the
/// colour tags precomputed, so they cost no allocation per frame either.
func runSceneBench() {
  var configuration = Configuration()
  configuration.bars = 32
  configuration.channels = .stereo
  configuration.text = "{glyph} {bars} {bubbles} {title:16} {position}/{length} {progress:8}"
  configuration.tooltip = "{state} · {artist} — {title} ({player}) {position}"
  configuration.markup = .pango
  configuration.barColors = ["#89b4fa", "#cba6f7", "#f38ba8"].compactMap(RGBColor.init(parsing:))
  configuration.playingColor = RGBColor(parsing: "#a6e3a1")
  configuration.bubbleColor = RGBColor(parsing: "#f5c2e7")
  let bench = SceneBenchInput(configuration: configuration, seconds: 10)
  let repeats = 20
  let frames = bench.frameCount * repeats

  let analysis = bench.timeAnalysis(repeats: repeats)
  let scene = bench.timeScene(repeats: repeats, render: nil)
  print("frames        \(frames) (\(bench.onsets) onsets in \(bench.frameCount))")
  print(row("analysis", analysis / Double(frames), of: nil))
  let sceneNs = scene.nanoseconds / Double(frames)
  let analysisNs = analysis / Double(frames)
  print(row("scene", sceneNs, of: analysisNs))
  var total = sceneNs
  var allocations = scene.allocations
  for format in OutputFormat.allCases {
    let withRender = bench.timeScene(repeats: repeats, render: format)
    let renderNs = max(0, withRender.nanoseconds / Double(frames) - sceneNs)
    total += renderNs
    allocations += withRender.allocations
    print(row("render \(format.rawValue)", renderNs, of: analysisNs))
  }
  print(row("scene+render", total, of: analysisNs) + "  (budget ≤ 10 %)")
  print("allocations in \(frames * 5) scene and rendered frames: \(allocations) (budget 0)")

  for target in [TerminalTarget.pseudoTerminal, .devNull] {
    guard let terminal = bench.timeTerminalView(frames: 600, into: target) else {
      print("terminal view (\(target.rawValue)): could not open it")
      continue
    }
    let percent = terminal.nanoseconds / 1000 * 60 / 1_000_000 * 100
    print(
      "terminal view \(fmt(terminal.nanoseconds / 1000, 1)) µs/frame at 80×24 into"
        + " \(target.rawValue), \(fmt(percent, 3)) % of a core at 60 fps (budget ≤ 2 %),"
        + " \(terminal.bytesPerFrame) bytes/frame, \(terminal.allocations) allocations")
  }
}

/// Where the terminal view's bench draws: a pseudo-terminal (the kernel's tty layer
/// included, a thread drains the other side) or /dev/null (the view alone).
private enum TerminalTarget: String {
  case pseudoTerminal = "a pty"
  case devNull = "/dev/null"

  /// Opens the descriptor the view writes to, and a cleanup that closes everything.
  func open() -> (descriptor: Int32, close: () -> Void)? {
    switch self {
    case .devNull:
      let descriptor = Glibc.open("/dev/null", O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      return (descriptor, { Glibc.close(descriptor) })
    case .pseudoTerminal:
      // unlockpt/ptsname are not in Swift's Glibc: their ioctls, TIOCSPTLCK and TIOCGPTN
      // (_IOW/_IOR('T', 0x31/0x30, int), function-like macros Swift cannot import).
      let master = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
      var unlock: Int32 = 0
      var number: Int32 = 0
      guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0,
        ioctl(master, 0x8004_5430, &number) == 0
      else { return nil }
      let slave = Glibc.open("/dev/pts/\(number)", O_WRONLY | O_NOCTTY | O_CLOEXEC)
      guard slave >= 0 else { return nil }
      var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
      _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
      // The terminal emulator's side: read and discard everything the view writes.
      // Its buffer is made here and the thread is given time to start, so none of its
      // allocations land inside the measurement.
      let stop = StopSignal()
      let sink = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
      let drain = PosixThread.spawn {
        while stop.waitReadable(FileDescriptor(rawValue: master)) {
          _ = read(master, sink.baseAddress, sink.count)
        }
        sink.deallocate()
      }
      usleep(20_000)
      return (
        slave,
        {
          stop.request()
          drain.join()
          Glibc.close(slave)
          Glibc.close(master)
        }
      )
    }
  }
}

/// One table row: name, ns/frame and the share of the analysis cost.
private func row(_ name: String, _ nanoseconds: Double, of analysis: Double?) -> String {
  var text = pad(name, 14) + fmt(nanoseconds, 0) + " ns/frame"
  if let analysis { text += "  \(fmt(nanoseconds / analysis * 100, 2)) % of analysis" }
  return text
}

/// Monotonic nanoseconds.
private func now() -> Double { BenchTools.wallSeconds() * 1e9 }

/// The synthetic audio and what analysis made of it, frame by frame.
private final class SceneBenchInput {
  let configuration: Configuration
  let sampleRate = 44100
  let hop: Int
  let frameCount: Int
  /// Interleaved stereo, `hop × 2` samples per frame.
  let audio: [Float]
  /// Per frame, from one analysis pass: bar heights (32 each), onset, signal.
  private(set) var heights: [Float] = []
  private(set) var onsetFlags: [Bool] = []
  private(set) var signalFlags: [Bool] = []

  var onsets: Int { onsetFlags.filter { $0 }.count }

  init(configuration: Configuration, seconds: Int) {
    self.configuration = configuration
    hop = sampleRate / configuration.fps
    frameCount = seconds * configuration.fps
    var samples = BenchSignals.music(seconds: Double(seconds), sampleRate: sampleRate)
    // Silence from 4 s to 7 s: the scene pauses, morphs and settles.
    for index in (4 * sampleRate * 2)..<(7 * sampleRate * 2) { samples[index] = 0 }
    audio = samples
    _ = timeAnalysis(repeats: 1, record: true)
  }

  /// Analysis of every frame `repeats` times (FFT, bands, onsets); total ns.
  func timeAnalysis(repeats: Int, record: Bool = false) -> Double {
    let analyzer = SpectrumAnalyzer(
      sampleRate: sampleRate, channels: 2, fps: configuration.fps,
      onsetThreshold: configuration.onsetThreshold)
    let bars = try! BarProcessor(
      totalBars: configuration.bars, channels: 2, configuration: configuration,
      sizes: analyzer.sizes)
    let silenceLevel = configuration.noiseFloorAmplitude
    let start = now()
    audio.withUnsafeBufferPointer { audio in
      for _ in 0..<repeats {
        for frame in 0..<frameCount {
          let slice = UnsafeBufferPointer(
            rebasing: audio[(frame * hop * 2)..<((frame + 1) * hop * 2)])
          analyzer.startFrame()
          analyzer.push(interleaved: slice)
          analyzer.analyze()
          let signal = analyzer.framePeak >= silenceLevel
          bars.process(analyzer, silent: !signal)
          if record {
            heights.append(contentsOf: bars.heights)
            onsetFlags.append(analyzer.onset)
            signalFlags.append(signal)
          }
        }
      }
    }
    return now() - start
  }

  /// Scene advance and bar composition for every recorded frame, plus one renderer of
  /// `render`'s format when given; total ns and allocations (scenes made beforehand).
  func timeScene(repeats: Int, render format: OutputFormat?) -> (
    nanoseconds: Double, allocations: UInt
  ) {
    let renderer = format.map { FrameRenderer(format: $0, configuration: configuration) }
    renderer?.mirrored = true
    var display = [Float](repeating: 0, count: configuration.bars)
    var scenes = (0..<repeats).map { _ in Scene(configuration: configuration) }
    var written = 0
    // A first render outside the count: the renderer keeps the source name's bytes.
    // With art colours (`colors.from_art`): the palette's tags are made once, here.
    var player = NowPlaying(
      player: "mpv", status: .playing, title: "A Song With A Long Title", artist: "The Band",
      album: "Debut", length: 215, position: 12_000_000, positionTime: 0)
    player.artPalette = ArtPalette(
      bars: [
        RGBColor(red: 0x20, green: 0x40, blue: 0xe0), RGBColor(red: 0xe0, green: 0x20, blue: 0x20),
      ],
      glyph: RGBColor(red: 0xe0, green: 0x20, blue: 0x20),
      glyphDimmed: RGBColor(red: 0x20, green: 0x40, blue: 0xe0))
    renderer?.nowPlaying = player
    let warmUp = FrameInfo(time: 0, source: "bench", connected: true)
    display.withUnsafeBufferPointer {
      _ = renderer?.render(scene: scenes[0], bars: $0, info: warmUp)
      renderer?.forgetPrevious()
    }
    let allocations = allocation_count()
    let start = now()
    heights.withUnsafeBufferPointer { heights in
      display.withUnsafeMutableBufferPointer { display in
        for run in 0..<repeats {
          for frame in 0..<frameCount {
            let time = Double(frame + 1) / Double(configuration.fps)
            step(&scenes[run], frame: frame, time: time, heights: heights, display: display)
            if let renderer {
              let info = FrameInfo(time: time, source: "bench", connected: true, clock: time)
              let bars = UnsafeBufferPointer(display)
              if renderer.render(scene: scenes[run], bars: bars, info: info) {
                written &+= renderer.line.bytes.count
              }
            }
          }
        }
      }
    }
    let elapsed = now() - start
    let allocated = allocation_count() - allocations
    if written < 0 { print(written) }  // keeps the renders observable
    return (elapsed, allocated)
  }

  /// Steps `scene` to `time` with recorded frame `frame` and composes its bars.
  private func step(
    _ scene: inout Scene, frame: Int, time: Double, heights: UnsafeBufferPointer<Float>,
    display: UnsafeMutableBufferPointer<Float>
  ) {
    scene.advance(
      to: time, activity: .running, signalPresent: signalFlags[frame], onset: onsetFlags[frame])
    let bars = configuration.bars
    let live = UnsafeBufferPointer(rebasing: heights[(frame * bars)..<((frame + 1) * bars)])
    scene.composeBars(live: live, into: display)
  }

  /// `frames` terminal-view frames at 80 × 24 into `target` after one first full frame;
  /// ns per frame, bytes per frame and allocations in all.
  func timeTerminalView(frames: Int, into target: TerminalTarget) -> (
    nanoseconds: Double, bytesPerFrame: Int, allocations: UInt
  )? {
    guard let (output, closeOutput) = target.open() else { return nil }
    defer { closeOutput() }
    let view = TerminalView(
      configuration: configuration, output: FileDescriptor(rawValue: output),
      input: FileDescriptor(rawValue: -1), size: (24, 80))
    var scene = Scene(configuration: configuration)
    var display = [Float](repeating: 0, count: configuration.bars)
    var bytes = 0
    let status = TerminalStatus(
      source: "bench", state: .playing, fps: 60, onsetLatency: 0.012, cpuPercent: 1.2,
      socketClients: 2, droppedFrames: 0)
    display.withUnsafeBufferPointer { view.draw(scene: scene, bars: $0, status: status) }
    let allocations = allocation_count()
    let start = now()
    heights.withUnsafeBufferPointer { heights in
      display.withUnsafeMutableBufferPointer { display in
        for index in 0..<frames {
          let frame = index % frameCount
          let time = Double(index + 1) / Double(configuration.fps)
          step(&scene, frame: frame, time: time, heights: heights, display: display)
          view.draw(scene: scene, bars: UnsafeBufferPointer(display), status: status)
          bytes += view.lastFrameByteCount
        }
      }
    }
    let elapsed = now() - start
    return (elapsed / Double(frames), bytes / frames, allocation_count() - allocations)
  }
}
