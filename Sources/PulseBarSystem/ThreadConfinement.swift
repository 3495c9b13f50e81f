import Glibc

/// The thread a value is confined to, checked in debug builds (swift-nio's
/// `preconditionInEventLoop`): the first thread that calls ``check(_:file:line:)`` becomes the
/// owner, and a later call from any other thread stops the program. Release builds store and
/// check nothing.
package struct ThreadConfinement {
  #if DEBUG
    private var owner: pthread_t?
  #endif

  package init() {}

  /// Stops a debug build when called off the owning thread; `what` names the value.
  @inline(__always)
  package mutating func check(
    _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
  ) {
    #if DEBUG
      let current = pthread_self()
      guard let owner else {
        owner = current
        return
      }
      precondition(
        pthread_equal(owner, current) != 0, "\(what()) used off the thread it is confined to",
        file: file, line: line)
    #endif
  }
}
