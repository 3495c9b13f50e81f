/// What a turn of the engine's loop (``Engine/turn()``) came to.
package enum EngineTurn: Equatable, Sendable {
  /// The loop goes on.
  case continues
  /// The clock's wait was suspended (a manual clock at the end of its step): nothing done.
  case suspended
  /// A stop signal, the input's end, a delivery that refused, or the end of the stream.
  case ended
}
