/// How the capture's log and `-v` lines name the server and its playback streams:
/// `PulseAudio` and `sink input`, or `PipeWire` and `node`.
package struct CaptureWording: Sendable, Equatable {
  /// The line's prefix: `PulseAudio`.
  package var server: String
  /// What the server calls a playback stream: `sink input`.
  package var stream: String
  /// What the outage line suggests: `is pulseaudio or pipewire-pulse running? …`.
  package var outageHint: String
  /// What the output's stream is said to be when corked and uncorked: `corked`, `uncorked`.
  package var corked: String
  package var uncorked: String

  package init(
    server: String, stream: String, outageHint: String, corked: String = "corked",
    uncorked: String = "uncorked"
  ) {
    self.server = server
    self.stream = stream
    self.outageHint = outageHint
    self.corked = corked
    self.uncorked = uncorked
  }

  /// libpulse's words (PulseAudio and pipewire-pulse).
  package static let pulseAudio = CaptureWording(
    server: "PulseAudio", stream: "sink input",
    outageHint: "is pulseaudio or pipewire-pulse running? `pactl info` tells")

  /// libpipewire's words (native PipeWire): a corked stream is an inactive one.
  package static let pipeWire = CaptureWording(
    server: "PipeWire", stream: "node",
    outageHint: "is pipewire running? `pw-cli info 0` tells", corked: "capture stream inactive",
    uncorked: "capture stream active")

  /// A log line with the server's prefix.
  package func log(_ line: String) -> CaptureAction { .log("\(server): \(line)") }

  /// A `-v` line with the server's prefix.
  package func debug(_ line: String) -> CaptureAction { .debug("\(server): \(line)") }
}
