/// Which fragment a PulseAudio record stream asks for, and whether it is corked.
///
/// On PulseAudio the fragment follows the music: a fresh or uncorked stream takes the onset
/// fragment (512 frames on PulseAudio, a fast first picture), and once
/// ``steadyAfterSeconds`` of audio has arrived on it, the steady one
/// (a light server for the rest of the music); corking takes the onset fragment back, ready for
/// the next onset. On PipeWire (`adapts` false) one quantum throughout. Counted in sample
/// frames that arrive, so the rule has no clock: tests feed it frames.
package struct RecordFragment: Sendable, Equatable {
  /// What to ask of the server after the activity changed.
  package enum CorkChange: Sendable, Equatable {
    /// Cork the stream; with `onset`, ask for the onset fragment too.
    case cork(onset: Bool)
    case uncork
  }

  /// Seconds of audio recorded since the stream started or was uncorked before the fragment
  /// grows to the steady one (one `pa_stream_set_buffer_attr`); corking shrinks it back, ready
  /// for the next onset. Half a second: the onset is the first frames, and the server works
  /// about four times harder on onset fragments.
  package static let steadyAfterSeconds = 0.5

  /// The fragment changes with the music (PulseAudio, not pipewire-pulse).
  package let adapts: Bool
  /// Sample frames on the onset fragment before the steady one is asked for.
  package let steadyAfterFrames: Int
  /// The stream asked for the steady fragment (always, when it does not adapt).
  package private(set) var isSteady: Bool
  /// The cork state last asked of the server.
  package private(set) var isCorked: Bool
  /// Sample frames recorded on the onset fragment since the stream started or was uncorked.
  private var framesTowardSteady = 0

  /// A new stream, started corked or not.
  package init(adapts: Bool, steadyAfterFrames: Int, corked: Bool) {
    self.adapts = adapts
    self.steadyAfterFrames = steadyAfterFrames
    isSteady = !adapts
    isCorked = corked
  }

  /// `frames` sample frames arrived. True when the steady fragment is to be asked for now;
  /// while the stream is not ready, the count goes on and a later fragment asks.
  package mutating func recorded(frames: Int, streamReady: Bool) -> Bool {
    guard !isSteady else { return false }
    framesTowardSteady += frames
    guard framesTowardSteady >= steadyAfterFrames, streamReady else { return false }
    isSteady = true
    framesTowardSteady = 0
    return true
  }

  /// Whether something plays into the recorded sink now: the cork state to ask for, if it
  /// changed (only on a ready stream).
  package mutating func activityChanged(running: Bool, streamReady: Bool) -> CorkChange? {
    let corked = !running
    guard streamReady, corked != isCorked else { return nil }
    isCorked = corked
    framesTowardSteady = 0
    guard corked else { return .uncork }
    let onset = adapts && isSteady
    if onset { isSteady = false }
    return .cork(onset: onset)
  }
}

extension RecordFragment {
  /// A new stream's fragment at `sampleRate`: adapting on PulseAudio, one quantum throughout
  /// on PipeWire.
  package init(sampleRate: Int, onPipeWire: Bool, corked: Bool) {
    self.init(
      adapts: !onPipeWire, steadyAfterFrames: Int(Self.steadyAfterSeconds * Double(sampleRate)),
      corked: corked)
  }
}
