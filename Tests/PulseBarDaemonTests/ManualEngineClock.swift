import PulseBarAudio
import PulseBarSystem

@testable import PulseBarDaemon

/// The clock of ``EmbeddedEngine``: the time moves only when a test moves it, and the engine's
/// wait returns at once. What happens "during" the wait is a scheduled task (audio arriving, a
/// player change, a status change), run when the time reaches it.
///
/// A wait polls the engine's descriptors without blocking and reports them ready if any is;
/// otherwise it runs the next task due by the wait's end and polls again; otherwise it moves
/// the time to the wait's end and reports a timeout, or, when that end is past ``limit`` (the
/// step's end), moves the time to ``limit`` and reports ``EngineWaitResult/suspended``.
final class ManualEngineClock: EngineClock {
  /// Seconds now.
  private(set) var time: Double
  /// How far the current step may move ``time``.
  var limit: Double
  /// The timeout of the last wait (-1: none).
  private(set) var lastTimeout: Int32 = -1
  private var tasks: [(time: Double, run: () -> Void)] = []

  init(at time: Double) {
    self.time = time
    limit = time
  }

  /// Runs `task` when the time reaches `time` (at once in the next wait if it has).
  func schedule(at time: Double, _ task: @escaping () -> Void) {
    let index = tasks.firstIndex { $0.time > time } ?? tasks.endIndex
    tasks.insert((time, task), at: index)
  }

  func now() -> Double { time }

  func wait(
    _ poll: inout PollSet, timeoutMilliseconds: Int32, driven: (any EngineDrivenCapture)?,
    audioWanted: Bool
  ) -> EngineWaitResult {
    lastTimeout = timeoutMilliseconds
    let end =
      timeoutMilliseconds < 0 ? Double.infinity : time + Double(timeoutMilliseconds) / 1000
    while true {
      let ready =
        driven?.wait(&poll, timeoutMilliseconds: 0, audioWanted: audioWanted)
        ?? poll.wait(timeoutMilliseconds: 0)
      if ready > 0 { return .ready }
      // Times a test computes (0.08 × 3) and a wait's end may differ in the last bits.
      guard let next = tasks.first?.time, next <= min(end, limit) + 1e-9 else { break }
      // Everything due at that time happens before the engine looks.
      time = max(time, next)
      while let task = tasks.first, task.time <= next {
        tasks.removeFirst()
        task.run()
      }
    }
    guard end <= limit + 1e-9 else {
      time = max(time, limit)
      return .suspended
    }
    time = max(time, min(end, limit))
    return .timedOut
  }
}
