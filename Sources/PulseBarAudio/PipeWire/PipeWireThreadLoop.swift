internal import CPipeWire
import Glibc
import Synchronization

/// libpipewire's `pw_thread_loop` and its lock, which confine the loop-side objects (the
/// ``PipeWireConnection`` and its parts): its callbacks run on the loop's thread with the lock
/// held, and any other thread takes the lock (``withLock(_:)``) before touching them.
///
/// That lock is libpipewire's, which the compiler cannot see; ``assertLocked(_:file:line:)``
/// checks it in debug builds wherever a loop-side object is entered (a callback, or a call from
/// ``PipeWireSource``): the caller runs on the loop's thread, or holds the lock through
/// ``withLock(_:)``. Release builds check nothing.
final class PipeWireThreadLoop {
  let pointer: OpaquePointer
  /// The loop its callbacks and timers run on.
  let loop: UnsafeMutablePointer<pw_loop>
  #if DEBUG
    /// The thread inside ``withLock(_:)``, 0 when none (`pthread_t` is an integer on Linux).
    private let holder = Atomic<UInt>(0)
  #endif

  /// A new, stopped loop named `name` (libpipewire initialized first); `nil` if libpipewire
  /// cannot make one.
  init?(name: String) {
    pw_init(nil, nil)
    guard let pointer = pw_thread_loop_new(name, nil) else { return nil }
    self.pointer = pointer
    loop = pw_thread_loop_get_loop(pointer)
  }

  /// Runs `body` from outside the loop thread with the loop's lock held.
  func withLock<Result>(_ body: () -> Result) -> Result {
    pw_thread_loop_lock(pointer)
    #if DEBUG
      // The lock is recursive: an inner call gives the holder back to the outer one.
      let outer = holder.exchange(UInt(pthread_self()), ordering: .relaxed)
    #endif
    defer {
      #if DEBUG
        holder.store(outer, ordering: .relaxed)
      #endif
      pw_thread_loop_unlock(pointer)
    }
    return body()
  }

  /// Stops a debug build unless the caller runs on the loop's thread or holds its lock through
  /// ``withLock(_:)``; `what` names the object entered.
  @inline(__always)
  func assertLocked(
    _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
  ) {
    #if DEBUG
      precondition(
        pw_thread_loop_in_thread(pointer)
          || holder.load(ordering: .relaxed) == UInt(pthread_self()),
        "\(what()) used without the PipeWire loop's lock", file: file, line: line)
    #endif
  }

  /// Starts the loop's thread; false if it cannot.
  func start() -> Bool { pw_thread_loop_start(pointer) == 0 }

  /// Stops the loop's thread (not with the lock held).
  func stop() { pw_thread_loop_stop(pointer) }

  /// Frees the loop, once stopped and once nothing on it is left (the context first).
  func destroy() { pw_thread_loop_destroy(pointer) }
}
