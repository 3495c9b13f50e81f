/// What the server says a source is: its name, the sink it monitors (`nil`: no monitor), its
/// format and rate.
package struct SourceDescription: Sendable, Equatable {
  package var name: String
  package var monitorOfSink: UInt32?
  package var int16: Bool
  package var rate: UInt32

  package init(name: String, monitorOfSink: UInt32?, int16: Bool = false, rate: UInt32 = 0) {
    self.name = name
    self.monitorOfSink = monitorOfSink
    self.int16 = int16
    self.rate = rate
  }
}
