import Glibc
import PulseBarDaemon

/// `pulsebar-bench scene`: the per-frame cost of the scene and of each renderer next to
/// the analysis they ride on (budget: scene + renderers ≤ 10 % of analysis), and the
/// terminal view's cost at 80 × 24 and 60 fps (budget: ≤ 2 % of a core).
///
/// At cava's settings (32 bars, stereo, 60 fps, 44.1 kHz) on 10 s of synthetic music:
/// tones with a beat every 0.5 s, 3 s of silence in the middle (so the scene pauses,
/// morphs and settles), then music again. Phases run as separate loops over recorded
/// inputs, so no clock reads sit inside the timed work.
func runSceneBench() {
  var configuration = Configuration()
  configuration.bars = 32
  configuration.channels = .stereo
  let bench = SceneBenchInput(configuration: configuration, seconds: 10)
  let repeats = 20
  let frames = bench.frameCount * repeats

  let analysis = bench.timeAnalysis(repeats: repeats)
  let scene = bench.timeScene(repeats: repeats, render: nil)
  print("frames        \(frames) (\(bench.onsets) onsets in \(bench.frameCount))")
  print(row("analysis", analysis / Double(frames), of: nil))
  let sceneNs = scene / Double(frames)
  let analysisNs = analysis / Double(frames)
  print(row("scene", sceneNs, of: analysisNs))
  var total = sceneNs
  for format in OutputFormat.allCases {
    let withRender = bench.timeScene(repeats: repeats, render: format) / Double(frames)
    let renderNs = max(0, withRender - sceneNs)
    total += renderNs
    print(row("render \(format.rawValue)", renderNs, of: analysisNs))
  }
  print(row("scene+render", total, of: analysisNs) + "  (budget ≤ 10 %)")

  let terminal = bench.timeTerminalView(frames: 600)
  let percent = terminal.nanoseconds / 1000 * 60 / 1_000_000 * 100
  print(
    "terminal view \(format(terminal.nanoseconds / 1000, 1)) µs/frame at 80×24,"
      + " \(format(percent, 3)) % of a core at 60 fps (budget ≤ 2 %),"
      + " \(terminal.bytesPerFrame) bytes/frame")
}

/// One table row: name, ns/frame and the share of the analysis cost.
private func row(_ name: String, _ nanoseconds: Double, of analysis: Double?) -> String {
  let padded = name + String(repeating: " ", count: max(1, 14 - name.count))
  var text = padded + format(nanoseconds, 0) + " ns/frame"
  if let analysis { text += "  \(format(nanoseconds / analysis * 100, 2)) % of analysis" }
  return text
}

/// `value` with `decimals` digits after the point.
private func format(_ value: Double, _ decimals: Int) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let scaled = Int((value * scale).rounded())
  if decimals == 0 { return String(scaled) }
  let fraction = String(scaled % Int(scale))
  return "\(scaled / Int(scale))." + String(repeating: "0", count: decimals - fraction.count)
    + fraction
}

/// Monotonic nanoseconds.
private func now() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return Double(spec.tv_sec) * 1e9 + Double(spec.tv_nsec)
}

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
    var samples = [Float](repeating: 0, count: frameCount * hop * 2)
    var noise: UInt32 = 12345
    for index in 0..<(frameCount * hop) {
      let time = Double(index) / Double(sampleRate)
      if time >= 4 && time < 7 { continue }  // silence: pause, morph, settle
      let beat = time.truncatingRemainder(dividingBy: 0.5)
      noise = noise &* 1_664_525 &+ 1_013_904_223
      let hiss = Float(Int32(bitPattern: noise)) / Float(Int32.max)
      let kick = beat < 0.05 ? Float(sin(2 * Double.pi * 60 * time) * (1 - beat / 0.05)) : 0
      let tones = Float(
        0.2 * sin(2 * Double.pi * 220 * time) + 0.1 * sin(2 * Double.pi * 1375 * time))
      let value = 0.6 * kick + tones + 0.02 * hiss
      samples[index * 2] = value
      samples[index * 2 + 1] = value * 0.8
    }
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
    let start = now()
    audio.withUnsafeBufferPointer { audio in
      for _ in 0..<repeats {
        for frame in 0..<frameCount {
          let slice = UnsafeBufferPointer(
            rebasing: audio[(frame * hop * 2)..<((frame + 1) * hop * 2)])
          analyzer.startFrame()
          analyzer.push(interleaved: slice)
          analyzer.analyze()
          let signal = analyzer.framePeak >= FramePipeline.silenceLevel
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
  /// `render`'s format when given; total ns.
  func timeScene(repeats: Int, render format: OutputFormat?) -> Double {
    let renderer = format.map { FrameRenderer(format: $0, configuration: configuration) }
    renderer?.mirrored = true
    var display = [Float](repeating: 0, count: configuration.bars)
    var written = 0
    let start = now()
    heights.withUnsafeBufferPointer { heights in
      display.withUnsafeMutableBufferPointer { display in
        for _ in 0..<repeats {
          var scene = Scene(configuration: configuration)
          for frame in 0..<frameCount {
            let time = Double(frame + 1) / Double(configuration.fps)
            step(&scene, frame: frame, time: time, heights: heights, display: display)
            if let renderer {
              let info = FrameInfo(time: time, source: "bench", connected: true)
              if renderer.render(scene: scene, bars: UnsafeBufferPointer(display), info: info) {
                written &+= renderer.line.bytes.count
              }
            }
          }
        }
      }
    }
    let elapsed = now() - start
    if written < 0 { print(written) }  // keeps the renders observable
    return elapsed
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

  /// `frames` terminal-view frames at 80 × 24 into /dev/null; ns per frame and bytes.
  func timeTerminalView(frames: Int) -> (nanoseconds: Double, bytesPerFrame: Int) {
    let output = open("/dev/null", O_WRONLY | O_CLOEXEC)
    defer { close(output) }
    let view = TerminalView(configuration: configuration, output: output, input: -1, size: (24, 80))
    var scene = Scene(configuration: configuration)
    var display = [Float](repeating: 0, count: configuration.bars)
    var bytes = 0
    let status = TerminalStatus(
      source: "bench", state: .playing, fps: 60, onsetLatency: 0.012, cpuPercent: 1.2,
      socketClients: 2, droppedFrames: 0)
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
    return ((now() - start) / Double(frames), bytes / frames)
  }
}
