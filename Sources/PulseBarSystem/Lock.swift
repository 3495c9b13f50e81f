#if PULSEBAR_PTHREAD_LOCK
  import Glibc

  /// A mutual-exclusion lock around a value, with the API of `Synchronization.Mutex`.
  ///
  /// This build (`-DPULSEBAR_PTHREAD_LOCK`, used by `make sanitize`) backs it with a
  /// `pthread_mutex_t`: ThreadSanitizer intercepts pthread locks, but it cannot see
  /// `Synchronization.Mutex`, which locks with raw futex calls on Linux, and would report
  /// every access it protects as a race. Normal builds use `Synchronization.Mutex` itself.
  package struct Lock<Value: ~Copyable>: ~Copyable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    package init(_ initialValue: consuming sending Value) {
      mutex = .allocate(capacity: 1)
      pthread_mutex_init(mutex, nil)
      value = .allocate(capacity: 1)
      value.initialize(to: initialValue)
    }

    deinit {
      value.deinitialize(count: 1)
      value.deallocate()
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package borrowing func withLock<Result: ~Copyable, E: Error>(
      _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&value.pointee)
    }
  }

  // The pthread mutex is what makes this safe to share; the compiler cannot see that.
  extension Lock: @unchecked Sendable where Value: ~Copyable {}
#else
  import Synchronization

  /// A mutual-exclusion lock around a value: `Synchronization.Mutex`.
  ///
  /// Every module locks through this name so that sanitizer builds can swap in a
  /// pthread-backed lock ThreadSanitizer understands (see `make sanitize`).
  package typealias Lock<Value: ~Copyable> = Synchronization.Mutex<Value>
#endif
