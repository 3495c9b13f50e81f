import PulseBarAudio
import PulseBarCore

/// The `STATUS=` text systemd shows for the daemon (`state · source`), and when it changed:
/// looked at once a frame, made only when the state, the connection or the stream changed, and
/// said only when the text differs.
struct StatusLine {
  private var lastKey: (PlaybackState, Bool, UInt32)?
  private var lastText = ""

  /// The new text, or `nil` when there is nothing new to say.
  mutating func update(state: PlaybackState, status: CaptureStatus) -> String? {
    let key = (state, status.connected, status.generation)
    if let lastKey, lastKey == key { return nil }
    lastKey = key
    let text =
      "\(state.rawValue) · \(status.connected ? status.sourceName : "audio server unreachable")"
    guard text != lastText else { return nil }
    lastText = text
    return text
  }
}
