import PulseBarCore
import PulseBarSystem
import Synchronization

/// What the player's capture streams and the monitor stream share across threads: whether the
/// player's streams deliver (then the monitor's audio is dropped), and the mixer that sums the
/// player's streams with which stream feeds which of its lanes. Made once by
/// ``PipeWireConnection``, read and written by the process callbacks on the data thread and by
/// the connection on the loop (as the core's actions say).
final class PipeWireHandOver: Sendable {
  /// One of the player's capture streams has delivered: the monitor stream's data is dropped
  /// and it is made inactive. Set on the data thread at a first delivery, recomputed on the
  /// loop after each event the core handles (one that misses a delivery racing it is followed
  /// by the one that delivery armed).
  let delivering = Atomic(false)
  /// The mixer and its lanes, changed together: the data thread mixes, the loop resets.
  let mixing: Lock<PlayerStreamLanes>

  /// A hand-over whose mixer lets a stream lag 50 ms at `sampleRate` behind the others.
  init(sampleRate: Int) {
    mixing = Lock(
      PlayerStreamLanes(
        mixer: StreamMixer(maximumLag: sampleRate / 20 * CaptureFormat.maxChannels)))
  }

  /// ``delivering``, read.
  var playerDelivers: Bool { delivering.load(ordering: .acquiring) }
}
