/// Where a capture source sends its few log lines (the server lost and back, a missing source)
/// and, when `-v` asks, its debug lines: the same for the PulseAudio and the PipeWire source.
package typealias CaptureLog = @Sendable (String) -> Void
