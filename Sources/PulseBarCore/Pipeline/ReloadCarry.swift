/// What a reload carries over to each consumer its new pipeline registers again: the rate's
/// schedule by key (else a reload, or a storm of them, rendered a frame at once, and a client
/// at 10 lines a second got 30), and the highest `seq` so far (json's `seq` increases for the
/// daemon's life; it restarted at 1 on every reload).
struct ReloadCarry {
  private var gates: [ConsumerKey: FrameRateGate] = [:]
  /// The last line number of the pipeline replaced: new renderers number on from it.
  private(set) var sequence: UInt64 = 0

  init() {}

  /// What `previous` (a pipeline's own carry) and its `consumers` leave to the next pipeline.
  init(
    _ previous: ReloadCarry,
    _ consumers: [(key: ConsumerKey, gate: FrameRateGate, sequence: UInt64)]
  ) {
    gates = Dictionary(consumers.map { ($0.key, $0.gate) }, uniquingKeysWith: { first, _ in first })
    sequence = consumers.reduce(previous.sequence) { max($0, $1.sequence) }
  }

  /// The gate for `key` in a pipeline at `pipelineFPS`: the one carried over when it has the
  /// same rate (with the new slack), else a fresh one. A consumer at the daemon's rate
  /// (`daemonFPS`) is gated too: a player's or a lyric's change renders again at the same
  /// frame time, which it would otherwise get at once.
  mutating func gate(for key: ConsumerKey, daemonFPS: Int, pipelineFPS: Int) -> FrameRateGate {
    let fresh = FrameRateGate(fps: key.fps ?? daemonFPS, pipelineFPS: pipelineFPS)
    guard var carried = gates.removeValue(forKey: key), carried.period == fresh.period else {
      return fresh
    }
    carried.slack = fresh.slack
    return carried
  }
}
