import AllocationCounter
import CFFTW
import Glibc
import PulseBarCore

/// Offline analysis throughput (32 bars, stereo, 60 fps) beside FFTW's own
/// throughput for the same transforms, and the allocations per frame.
func runAnalysisBench() {
  var configuration = Configuration()
  configuration.bars = 32
  configuration.channels = .stereo
  configuration.fps = 60
  let sampleRate = 44100
  let signal = BenchSignals.music(seconds: 10, sampleRate: sampleRate)
  let pipeline = FramePipeline(configuration: configuration, sampleRate: sampleRate)
  let raw = try! pipeline.addConsumer(ConsumerKey(format: .raw, bars: 32))
  let sizes = pipeline.analyzer.sizes
  let hop = pipeline.hopFrames * 2
  let info = FrameInfo(time: 0, source: "bench", connected: true)

  func analysisRun(frames: Int, render: Bool) -> Double {
    signal.withUnsafeBufferPointer { samples in
      var offset = 0
      let start = cpuSeconds()
      for _ in 0..<frames {
        if offset + hop > samples.count { offset = 0 }
        pipeline.advance(
          audio: UnsafeBufferPointer(rebasing: samples[offset..<(offset + hop)]), activity: .running
        )
        if render {
          pipeline.renderConsumers(info: info)
          _ = pipeline.changedLine(raw)
        }
        offset += hop
      }
      return cpuSeconds() - start
    }
  }

  _ = analysisRun(frames: 600, render: true)  // warm up: buffers reach their working size
  let frames = 30_000
  let analysisSeconds = analysisRun(frames: frames, render: false)
  let before = allocation_count()
  let fullSeconds = analysisRun(frames: frames, render: true)
  let allocations = allocation_count() - before
  let fftwSeconds = fftwOnly(sizes: sizes, channels: 2, frames: frames)

  let analysisRate = Double(frames) / analysisSeconds
  let fullRate = Double(frames) / fullSeconds
  let fftwRate = Double(frames) / fftwSeconds
  let outside = (analysisSeconds - fftwSeconds) / fftwSeconds
  print(
    "transforms per frame: 2 channels × (r2c \(sizes.long) + r2c \(sizes.short)), FFTW_ESTIMATE, single precision"
  )
  print(pad("", 36) + pad("frames/s", 12) + pad("µs/frame", 10))
  print(
    pad("FFTW alone (same transforms)", 36) + pad(fmt(fftwRate, 0), 12)
      + pad(fmt(1e6 / fftwRate, 2), 10))
  print(
    pad("pulsebar analysis (bands+smoothing)", 36) + pad(fmt(analysisRate, 0), 12)
      + pad(fmt(1e6 / analysisRate, 2), 10))
  print(
    pad("pulsebar analysis + raw render", 36) + pad(fmt(fullRate, 0), 12)
      + pad(fmt(1e6 / fullRate, 2), 10))
  print("work outside FFTW: \(fmt(outside * 100, 0)) % of FFTW's own time (budget ≤ 100 %)")
  print("allocations in \(frames) analysed and rendered frames: \(allocations) (budget 0)")
  print(
    "budget ≥ 10000 frames/s on one core: \(analysisRate >= 10_000 ? "met" : "MISSED") (\(fmt(analysisRate, 0)))"
  )
  print(offlineCommandLine())
}

/// FFTW alone: the same plans over the same sizes, executed as the analyser does each frame.
private func fftwOnly(sizes: TransformSizes, channels: Int, frames: Int) -> Double {
  let longIn = fftwf_alloc_real(sizes.long)!
  let shortIn = fftwf_alloc_real(sizes.short)!
  let longOut = fftwf_alloc_complex(sizes.long / 2 + 1)!
  let shortOut = fftwf_alloc_complex(sizes.short / 2 + 1)!
  for index in 0..<sizes.long { longIn[index] = sinf(Float(index) * 0.01) }
  for index in 0..<sizes.short { shortIn[index] = sinf(Float(index) * 0.01) }
  let longPlan = fftwf_plan_dft_r2c_1d(Int32(sizes.long), longIn, longOut, FFTW_ESTIMATE)
  let shortPlan = fftwf_plan_dft_r2c_1d(Int32(sizes.short), shortIn, shortOut, FFTW_ESTIMATE)
  defer {
    fftwf_destroy_plan(longPlan)
    fftwf_destroy_plan(shortPlan)
    fftwf_free(longIn)
    fftwf_free(shortIn)
    fftwf_free(longOut)
    fftwf_free(shortOut)
  }
  let start = cpuSeconds()
  for _ in 0..<(frames * channels) {
    fftwf_execute(longPlan)
    fftwf_execute(shortPlan)
  }
  return cpuSeconds() - start
}

/// The end-to-end command line: `pulsebar run --offline` of a 30 s track to /dev/null.
private func offlineCommandLine() -> String {
  guard let binary = BenchTools.pulsebarBinary() else {
    return "(pulsebar binary not built; skipped the command-line run)"
  }
  let track = "/tmp/pulsebar-bench-track.wav"
  guard BenchTools.shell("[ -e \(track) ] || scripts/make-demo-track.sh \(track) 30") else {
    return "(could not make the demo track with sox)"
  }
  let started = BenchTools.wallSeconds()
  guard
    let cpu = BenchTools.childCPUSeconds(
      "\(binary) run --input file:\(track) --offline --bars 32 --channels stereo --format raw > /dev/null"
    )
  else { return "(command-line run failed)" }
  let wall = BenchTools.wallSeconds() - started
  let frames = 30.0 * 60
  return
    "command line: `pulsebar run --offline` of 30 s (1800 frames, decode + analysis + raw + write): "
    + "\(fmt(frames / cpu, 0)) frames/s of CPU, \(fmt(wall * 1000, 0)) ms wall (start-up included)"
}
