import Glibc

/// Where audio comes from: `auto`, `pulse[:SOURCE]`, `pipewire`, `file:PATH`, `fifo:PATH` or
/// `stdin`.
package enum InputSpec: Sendable, Equatable, CustomStringConvertible {
  /// The desktop's audio server, whichever it is: native PipeWire when a PipeWire core with
  /// audio sinks answers, else libpulse (the daemon decides at start).
  case auto
  /// A PulseAudio source through libpulse; `nil` follows the monitor of the default sink.
  case pulse(source: String?)
  /// The default sink's monitor through libpipewire, following the default.
  case pipewire
  /// An audio file read with libsndfile.
  case file(path: String)
  /// Raw s16le PCM from a named pipe (MPD's fifo output).
  case fifo(path: String)
  /// Raw s16le PCM on standard input.
  case stdin

  /// Parses the command-line and config spelling; `nil` when it is none of them.
  package init?(parsing text: String) {
    if text == "auto" {
      self = .auto
    } else if text == "pulse" {
      self = .pulse(source: nil)
    } else if text == "pipewire" {
      self = .pipewire
    } else if text == "stdin" {
      self = .stdin
    } else if let rest = text.dropPrefix("pulse:"), !rest.isEmpty {
      self = .pulse(source: rest == "auto" ? nil : rest)
    } else if let rest = text.dropPrefix("file:"), !rest.isEmpty {
      self = .file(path: rest)
    } else if let rest = text.dropPrefix("fifo:"), !rest.isEmpty {
      self = .fifo(path: rest)
    } else {
      return nil
    }
  }

  /// The audio server is the input (not a file, fifo or stdin): MPRIS players are followed.
  package var isAudioServer: Bool {
    switch self {
    case .auto, .pulse, .pipewire: true
    case .file, .fifo, .stdin: false
    }
  }

  package var description: String {
    switch self {
    case .auto: return "auto"
    case .pulse(let source): return source.map { "pulse:\($0)" } ?? "pulse"
    case .pipewire: return "pipewire"
    case .file(let path): return "file:\(path)"
    case .fifo(let path): return "fifo:\(path)"
    case .stdin: return "stdin"
    }
  }
}
