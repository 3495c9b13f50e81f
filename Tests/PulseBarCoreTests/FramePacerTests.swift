import Testing

@testable import PulseBarCore

/// The live loop's pacing of chunked audio (``FramePacer``), driven the way the engine drives it:
/// it wakes when a chunk arrives and when poll's timeout (whole milliseconds, rounded up) for
/// the next due hop runs out.
@Suite struct FramePacerTests {
  /// What a simulated run produced: each frame's time and the hops it took, and the
  /// delay from each hop's arrival to the frame that drew it.
  struct Run {
    var frames: [(time: Double, hops: Int)] = []
    var delays: [Double] = []
    var queuedAtEnd = 0
  }

  /// Feeds `chunks` (arrival time, samples) to a pacer at 44.1 kHz and `fps`, waking as the engine does.
  static func simulate(fps: Int = 60, chunks: [(time: Double, samples: Int)]) -> Run {
    var pacer = FramePacer(fps: fps)
    let hop = 44100 / fps
    var run = Run()
    var samples = 0
    var arrivals: [Double] = []  // per whole hop queued: when its last sample arrived
    var next = 0
    var now = chunks.first?.time ?? 0
    let end = (chunks.last?.time ?? 0) + 0.5
    while now <= end {
      while next < chunks.count && chunks[next].time <= now + 1e-9 {
        pacer.audioArrived(at: chunks[next].time)
        samples += chunks[next].samples
        while samples >= hop {
          samples -= hop
          arrivals.append(chunks[next].time)
        }
        next += 1
      }
      let hops = pacer.hopsDue(queued: arrivals.count, at: now)
      if hops > 0 {
        run.frames.append((now, hops))
        for arrival in arrivals.prefix(hops) { run.delays.append(now - arrival) }
        arrivals.removeFirst(hops)
        pacer.frameMade(at: now, withAudio: true)
      }
      // The next wake: the next chunk, or poll's timeout for the next due hop.
      var wake = next < chunks.count ? chunks[next].time : end + 1
      if !arrivals.isEmpty {
        let timeout = max(1, ((pacer.nextHopTime - now) * 1000).rounded(.up)) / 1000
        wake = min(wake, now + timeout)
      }
      now = wake
    }
    run.queuedAtEnd = arrivals.count
    return run
  }

  /// Chunks of `samples` every `samples / 44100` s for `seconds`.
  static func steady(samples: Int, seconds: Double, from start: Double = 0) -> [(Double, Int)] {
    let interval = Double(samples) / 44100
    return (0..<Int(seconds / interval)).map { (start + Double($0) * interval, samples) }
  }

  @Test(
    "a chunk of several frames is drawn one hop per frame, spaced until the next chunk",
    arguments: [2048, 1024, 941, 735])
  func chunksAreSpreadOut(samples: Int) {
    let run = Self.simulate(chunks: Self.steady(samples: samples, seconds: 10))
    let period = 1.0 / 60
    #expect(run.frames.allSatisfy { $0.hops == 1 }, "no frame takes two hops while audio flows")
    #expect(run.frames.count >= 590, "\(run.frames.count) frames in 10 s")
    #expect(run.queuedAtEnd <= 1)
    let gaps = zip(run.frames.dropFirst(), run.frames).map { $0.time - $1.time }
    let chunk = Double(samples) / 44100
    #expect(gaps.allSatisfy { $0 >= FramePacer.catchUp * period - 0.000_6 }, "\(gaps.min() ?? 0)")
    #expect(gaps.allSatisfy { $0 <= max(chunk, period) + 0.002 }, "\(gaps.max() ?? 0)")
    // Latency added: a hop waits at most a chunk (while the chunk's earlier hops are drawn).
    #expect(run.delays.allSatisfy { $0 <= chunk + 0.002 }, "\(run.delays.max() ?? 0)")
  }

  @Test("a stalled server's backlog joins one frame; pacing resumes after")
  func backlogJoinsOneFrame() {
    var chunks = Self.steady(samples: 2048, seconds: 1)
    // 300 ms with nothing, then everything at once, then steady chunks again.
    let stallEnd = 1.3
    chunks.append((stallEnd, 2048 * 6))
    chunks += Self.steady(samples: 2048, seconds: 2, from: stallEnd + 2048.0 / 44100)
    let run = Self.simulate(chunks: chunks)
    let burst = run.frames.first { $0.time >= stallEnd }
    #expect((burst?.hops ?? 0) >= 13, "the backlog is drawn at once: \(String(describing: burst))")
    let after = run.frames.filter { $0.time > stallEnd + 0.2 }
    #expect(after.allSatisfy { $0.hops == 1 })
    #expect(run.delays.suffix(60).allSatisfy { $0 <= 2048.0 / 44100 + 0.002 })
  }

  @Test("audio between two chunks is not late; a chunk interval and two frames after it is")
  func lateness() {
    var pacer = FramePacer(fps: 60)
    let chunk = 2048.0 / 44100
    for index in 0..<10 { pacer.audioArrived(at: Double(index) * chunk) }
    let last = 9 * chunk
    #expect(abs(pacer.chunkInterval - chunk) < 1e-9)
    #expect(pacer.lateAfter > last + chunk + 0.001, "not late while the next chunk is due")
    #expect(abs(pacer.lateAfter - (last + chunk + 2.0 / 60)) < 1e-9)
    // A pause in the music is no chunk interval: it does not teach the pacer to wait longer.
    pacer.audioArrived(at: last + 2)
    #expect(abs(pacer.chunkInterval - chunk) < 1e-9)
    pacer.reset()
    #expect(pacer.chunkInterval == 0)
  }

  @Test("the first audio after frames without audio is drawn at once")
  func firstAudioAfterTicksIsImmediate() {
    var pacer = FramePacer(fps: 60)
    pacer.frameMade(at: 5, withAudio: false)
    pacer.audioArrived(at: 5.001)
    #expect(pacer.hopsDue(queued: 1, at: 5.001) == 1)
    pacer.frameMade(at: 5.001, withAudio: true)
    #expect(pacer.hopsDue(queued: 1, at: 5.002) == 0, "the next one waits its turn")
    #expect(pacer.hopsDue(queued: 1, at: 5.001 + 0.9 / 60) == 1)
  }
}
