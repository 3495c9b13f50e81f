/// What the capture publishes in the buffer's status: connected or not, what plays, what is
/// recorded (json's `source`), and whether others' sound plays while the player does not.
package struct CapturePublication: Sendable, Equatable {
  package var connected = false
  package var activity = StreamActivity.none
  package var sourceName = ""
  package var othersPlay = false

  package init() {}
}
