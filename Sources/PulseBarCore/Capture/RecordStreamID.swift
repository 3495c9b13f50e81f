/// Names one record stream the capture core asked for (``CaptureAction/open(_:)``): the
/// output's or one of the player's. Never reused, so an event about a stream already closed is
/// told apart from one about its successor.
package struct RecordStreamID: Hashable, Sendable, CustomStringConvertible {
  package var rawValue: UInt64

  package init(_ rawValue: UInt64) { self.rawValue = rawValue }

  package var description: String { "#\(rawValue)" }
}
