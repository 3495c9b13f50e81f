import PulseBarSystem

/// What a server's capture records under `input.scope`, decided afresh on every change of the
/// active player or of the server's streams: the target, whether others' sound plays on the
/// output while the player does not, and which of the player's streams get a capture stream
/// each. The servers differ only in how they record one stream; this is what they share.
package struct PlayerCapturePlan: Sendable, Equatable {
  /// What is recorded, and why.
  package var target: CaptureTarget
  /// ``PlayerStreamSelection/othersPlay(player:streams:parentOf:)`` over the recorded
  /// output's streams.
  package var othersPlay: Bool
  /// The player's own playback streams, playing or not, while the player is there but not
  /// recorded (paused, or none of its streams plays): their record streams may stay open,
  /// corked, so that playing again is an uncork instead of a new stream (``apply``).
  package var paused: [UInt32] = []

  /// Decides from `streams`, all the server's playback streams, or `nil` while the server is
  /// not ready (no connection, or its streams are not all known yet); `onOutput`, the streams
  /// that play into the output's sink, or `nil` when there is no sink to follow. `parentOf`
  /// gives a process's parent (``ProcessTable/parent(of:root:)``).
  package init(
    selection: PlayerStreamSelection, player: PlayerAudioIdentity?, streams: [PlaybackStream]?,
    onOutput: [PlaybackStream]?, parentOf: (Int32) -> Int32?
  ) {
    guard let streams else {
      target = selection.scope == .player ? .output(.noPlayer) : .output(.scopeIsOutput)
      othersPlay = false
      return
    }
    target = selection.target(player: player, streams: streams, parentOf: parentOf)
    if let player, selection.scope == .player, target.streams.isEmpty {
      paused = PlayerStreamSelection.streams(of: player, among: streams, parentOf: parentOf)
        .sorted()
    }
    othersPlay =
      onOutput.map { selection.othersPlay(player: player, streams: $0, parentOf: parentOf) }
      ?? false
  }

  /// Streams of one player recorded at most (the mixer's lanes): those beyond are not.
  package static let maximumStreams = 8

  /// The streams that get a capture stream: the target's, at most ``maximumStreams``.
  package var recorded: [UInt32] { Array(target.streams.prefix(Self.maximumStreams)) }

  /// Brings `current`, the capture streams open now, to ``recorded``: `close` those whose
  /// stream is no longer recorded or that are `stale` (their stream moved), except those
  /// `parkable` and ``paused`` (kept, corked by the caller), then `open` the recorded streams
  /// that have none (false when it could not). True when anything was closed or opened: the
  /// mixer's lanes are then laid out again.
  package func apply<Recording>(
    to current: [Recording], stream: (Recording) -> UInt32,
    stale: (Recording) -> Bool = { _ in
      false
    }, parkable: (Recording) -> Bool = { _ in false }, close: (Recording) -> Void,
    open: (UInt32) -> Bool
  ) -> Bool {
    let wanted = recorded
    var changed = false
    var kept: Set<UInt32> = []
    for recording in current {
      let parks = parkable(recording) && paused.contains(stream(recording))
      if wanted.contains(stream(recording)) || parks, !stale(recording) {
        kept.insert(stream(recording))
      } else {
        close(recording)
        changed = true
      }
    }
    for id in wanted where !kept.contains(id) {
      if open(id) { changed = true }
    }
    return changed
  }
}
