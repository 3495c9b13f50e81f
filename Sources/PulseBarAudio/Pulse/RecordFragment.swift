internal import CPulse

/// Which fragment a PulseAudio record stream asks for, and whether it is corked.
///
/// On PulseAudio the fragment follows the music: a fresh or uncorked stream takes the onset
/// fragment (``PulseSource/Settings/onsetFragmentFrames``, a fast first picture), and once
/// ``PulseSource/Settings/steadyAfterSeconds`` of audio has arrived on it, the steady one
/// (a light server for the rest of the music); corking takes the onset fragment back, ready for
/// the next onset. On PipeWire (`adapts` false) one quantum throughout. Counted in sample
/// frames that arrive, so the rule has no clock: tests feed it frames.
struct RecordFragment: Equatable {
  /// What to ask of the server after the activity changed.
  enum CorkChange: Equatable {
    /// Cork the stream; with `onset`, ask for the onset fragment too.
    case cork(onset: Bool)
    case uncork
  }

  /// The fragment changes with the music (PulseAudio, not pipewire-pulse).
  let adapts: Bool
  /// Sample frames on the onset fragment before the steady one is asked for.
  let steadyAfterFrames: Int
  /// The stream asked for the steady fragment (always, when it does not adapt).
  private(set) var isSteady: Bool
  /// The cork state last asked of the server.
  private(set) var isCorked: Bool
  /// Sample frames recorded on the onset fragment since the stream started or was uncorked.
  private var framesTowardSteady = 0

  /// A new stream, started corked or not.
  init(adapts: Bool, steadyAfterFrames: Int, corked: Bool) {
    self.adapts = adapts
    self.steadyAfterFrames = steadyAfterFrames
    isSteady = !adapts
    isCorked = corked
  }

  /// `frames` sample frames arrived. True when the steady fragment is to be asked for now;
  /// while the stream is not ready, the count goes on and a later fragment asks.
  mutating func recorded(frames: Int, streamReady: Bool) -> Bool {
    guard !isSteady else { return false }
    framesTowardSteady += frames
    guard framesTowardSteady >= steadyAfterFrames, streamReady else { return false }
    isSteady = true
    framesTowardSteady = 0
    return true
  }

  /// Whether something plays into the recorded sink now: the cork state to ask for, if it
  /// changed (only on a ready stream).
  mutating func activityChanged(running: Bool, streamReady: Bool) -> CorkChange? {
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
  /// A new stream's fragment under `settings`: adapting on PulseAudio, one quantum throughout
  /// on PipeWire.
  init(settings: PulseSource.Settings, onPipeWire: Bool, corked: Bool) {
    self.init(
      adapts: !onPipeWire,
      steadyAfterFrames: Int(PulseSource.Settings.steadyAfterSeconds * Double(settings.sampleRate)),
      corked: corked)
  }
}

extension PulseSource.Settings {
  /// A record stream's buffer attributes with the onset or the steady fragment (on PipeWire,
  /// `graphRate` given, the quantum either way), and eight steady fragments of slack before
  /// the server drops.
  func bufferAttributes(steady: Bool, bytesPerSample: Int, graphRate: Int?) -> pa_buffer_attr {
    let fragment = fragmentBytes(
      frames: steady ? steadyFrames : Self.onsetFragmentFrames,
      bytesPerSample: bytesPerSample, pipeWireGraphRate: graphRate)
    let slack = fragmentBytes(bytesPerSample: bytesPerSample, pipeWireGraphRate: graphRate)
    return pa_buffer_attr(
      maxlength: slack * 8, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
      fragsize: fragment)
  }
}
