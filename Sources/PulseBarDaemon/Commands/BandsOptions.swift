import PulseBarCore

/// Options of `pulsebar bands`.
package struct BandsOptions: Equatable {
  package var configPath: String?
  package var overrides: [Override] = []
  /// Sample rate to lay the bands out for (the PulseAudio capture's, 44100, by default).
  package var sampleRate = 44100
}
