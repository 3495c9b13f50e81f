internal import CPulse

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
