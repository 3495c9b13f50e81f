/// How the capture's log and `-v` lines name the server and its playback streams:
/// `PulseAudio` and `sink input`, or `PipeWire` and `node`.
package struct CaptureWording: Sendable, Equatable {
  /// The line's prefix: `PulseAudio`.
  package var server: String
  /// What the server calls a playback stream: `sink input`.
  package var stream: String
  /// What the outage line suggests: `is pulseaudio or pipewire-pulse running? …`.
  package var outageHint: String

  package init(server: String, stream: String, outageHint: String) {
    self.server = server
    self.stream = stream
    self.outageHint = outageHint
  }

  /// libpulse's words (PulseAudio and pipewire-pulse).
  package static let pulseAudio = CaptureWording(
    server: "PulseAudio", stream: "sink input",
    outageHint: "is pulseaudio or pipewire-pulse running? `pactl info` tells")

  /// A log line with the server's prefix.
  package func log(_ line: String) -> CaptureAction { .log("\(server): \(line)") }

  /// A `-v` line with the server's prefix.
  package func debug(_ line: String) -> CaptureAction { .debug("\(server): \(line)") }
}
