/// What the server says a sink is: its index, the source that monitors it, and the format and
/// rate it renders at (on PipeWire, the graph's rate).
package struct SinkDescription: Sendable, Equatable {
  package var index: UInt32
  package var monitorSource: String
  /// Its samples are s16 (recorded as s16 and converted on arrival); else float.
  package var int16: Bool
  package var rate: UInt32

  package init(index: UInt32, monitorSource: String, int16: Bool, rate: UInt32) {
    self.index = index
    self.monitorSource = monitorSource
    self.int16 = int16
    self.rate = rate
  }
}
