/// How a wait of the engine's loop ended.
package enum EngineWaitResult: Equatable, Sendable {
  /// A descriptor of the poll set is ready.
  case ready
  /// The timeout ran out (or a signal interrupted the wait) with nothing ready.
  case timedOut
  /// Nothing is ready before the time a manual clock may reach: the turn does nothing, and
  /// the loop goes on when the clock is moved again. Never from ``SystemEngineClock``.
  case suspended
}
