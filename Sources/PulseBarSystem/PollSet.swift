import Glibc

/// A fixed set of descriptors waited on with `poll(2)`: built once, waited on many times, so
/// a loop that waits per frame allocates nothing per wait.
package struct PollSet {
  /// What a descriptor is waited for, and what it reported.
  package struct Events: OptionSet, Sendable {
    package let rawValue: Int16
    package init(rawValue: Int16) { self.rawValue = rawValue }

    package static let readable = Events(rawValue: Int16(POLLIN))
    package static let writable = Events(rawValue: Int16(POLLOUT))
    /// The peer hung up (always reported).
    package static let hangup = Events(rawValue: Int16(POLLHUP))
    /// An error is pending (always reported).
    package static let error = Events(rawValue: Int16(POLLERR))
    /// The descriptor is not open (always reported).
    package static let invalid = Events(rawValue: Int16(POLLNVAL))
  }

  private var entries: [pollfd] = []
  /// How many of ``entries`` are this set's own (the rest are a library's, during a wait).
  private var ownCount = 0

  package init() {
    // Room for a library's descriptors next to ours (``wait(timeoutMilliseconds:alongside:)``)
    // without growing the array during a wait.
    entries.reserveCapacity(64)
  }

  /// Adds `descriptor`, waited for `events`; returns its index for ``ready(_:)``.
  @discardableResult
  package mutating func add(_ descriptor: FileDescriptor, _ events: Events = .readable) -> Int {
    entries.append(pollfd(fd: descriptor.rawValue, events: events.rawValue, revents: 0))
    ownCount = entries.count
    return entries.count - 1
  }

  /// Changes what descriptor `index` is waited for (a connection that has writes queued).
  package mutating func update(_ index: Int, _ events: Events) {
    entries[index].events = events.rawValue
  }

  /// The number of descriptors in the set.
  package var count: Int { entries.count }

  /// Waits up to `timeoutMilliseconds` (-1: forever) for any descriptor; returns how many
  /// are ready. EINTR counts as a wait that saw nothing (0), so a caller can look at its
  /// flags before waiting again.
  @discardableResult
  package mutating func wait(timeoutMilliseconds: Int32) -> Int {
    for index in entries.indices { entries[index].revents = 0 }
    let ready = entries.withUnsafeMutableBufferPointer { buffer in
      Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
    }
    return max(0, Int(ready))
  }

  /// Waits like ``wait(timeoutMilliseconds:)`` on this set's descriptors and on `foreign`, a
  /// library's own `pollfd`s (libpulse's mainloop hands its set to a poll function), in one
  /// `poll(2)`: one thread sleeps for both. `foreign`'s `revents` are filled in. Returns how
  /// many of this set's descriptors and how many of `foreign` are ready. Allocates nothing
  /// while the two fit in the reserved 64 entries.
  package mutating func wait(
    timeoutMilliseconds: Int32, alongside foreign: UnsafeMutableBufferPointer<pollfd>
  ) -> (own: Int, foreign: Int) {
    entries.removeSubrange(ownCount...)
    for index in entries.indices { entries[index].revents = 0 }
    for entry in foreign { entries.append(pollfd(fd: entry.fd, events: entry.events, revents: 0)) }
    let result = entries.withUnsafeMutableBufferPointer { buffer in
      Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), timeoutMilliseconds)
    }
    var ready = (own: 0, foreign: 0)
    for index in entries.indices {
      let revents = result < 0 ? 0 : entries[index].revents
      if index >= ownCount { foreign[index - ownCount].revents = revents }
      if revents != 0 {
        if index < ownCount { ready.own += 1 } else { ready.foreign += 1 }
      }
    }
    entries.removeSubrange(ownCount...)
    return ready
  }

  /// What descriptor `index` reported in the last ``wait(timeoutMilliseconds:)``.
  package func ready(_ index: Int) -> Events { Events(rawValue: entries[index].revents) }
}

extension FileDescriptor {
  /// Waits up to `timeoutMilliseconds` for this one descriptor to report `events`. The
  /// `pollfd` lives on the stack: callers that wait per frame (a paced file reader) allocate
  /// nothing.
  @discardableResult
  package func wait(for events: PollSet.Events, timeoutMilliseconds: Int32) -> PollSet.Events {
    var entry = pollfd(fd: rawValue, events: events.rawValue, revents: 0)
    guard Glibc.poll(&entry, 1, timeoutMilliseconds) > 0 else { return [] }
    return PollSet.Events(rawValue: entry.revents)
  }

  /// Waits up to `timeoutMilliseconds` until this descriptor or `other` is readable, with
  /// both `pollfd`s on the stack (a reader thread waits like this per read).
  package func waitReadable(orReadable other: FileDescriptor, timeoutMilliseconds: Int32) {
    var entries = (
      pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0),
      pollfd(fd: other.rawValue, events: Int16(POLLIN), revents: 0)
    )
    withUnsafeMutableBytes(of: &entries) { raw in
      _ = Glibc.poll(
        raw.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, timeoutMilliseconds)
    }
  }
}
