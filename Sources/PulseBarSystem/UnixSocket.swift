internal import CLinux
import Glibc

/// Unix stream sockets: a listener at a path (mode 0600) and client connections.
package enum UnixSocket {
  /// Why a listening socket could not be set up, with the path it was for.
  package struct ListenError: Error, CustomStringConvertible {
    package var path: String
    package var operation: String
    package var errno: Errno
    package var description: String { "\(path): \(operation): \(errno)" }
  }

  /// Binds a non-blocking, close-on-exec stream socket at `path` with mode 0600 and listens.
  ///
  /// A socket file already at `path` is replaced only when it is ours and refuses a connection
  /// (ECONNREFUSED: a stale file left by a crash). A live daemon there makes this fail with
  /// EADDRINUSE, a file that is not a socket with EEXIST, a socket of another user with EPERM
  /// (never replaced, whatever it answers), and any other answer (EACCES: a socket we may not
  /// connect to is not known to be stale) with that error: nothing is unlinked. The socket is
  /// bound and listening under a temporary name first and then renamed into place, so `path`
  /// never names a socket that refuses connections (a client that waits for the file to
  /// appear connects at once).
  package static func listen(path: String, backlog: CInt = 128) throws(ListenError)
    -> FileDescriptor
  {
    func failure(_ operation: String, _ errno: Errno) -> ListenError {
      ListenError(path: path, operation: operation, errno: errno)
    }
    let address: UnixSocketAddress
    do { address = try UnixSocketAddress(path: path) } catch { throw failure("address", error) }
    var status = stat()
    if lstat(path, &status) == 0 {
      guard (status.st_mode & S_IFMT) == S_IFSOCK else {
        throw failure("not a socket", Errno(rawValue: EEXIST))
      }
      guard status.st_uid == geteuid() else {
        throw failure(
          "a socket of uid \(status.st_uid), not replaced", Errno(rawValue: EPERM))
      }
      switch probe(address) {
      case .success, .failure(.wouldBlock):  // a daemon answers, or its backlog is full
        throw failure("in use by a running daemon", .addressInUse)
      case .failure(let error) where error.rawValue == ECONNREFUSED:
        break  // stale: replaced below
      case .failure(let error):
        throw failure("not known to be stale, not replaced (connect)", error)
      }
    }
    let socket: FileDescriptor
    do { socket = try makeStreamSocket() } catch { throw failure("socket", error) }
    let temporary = path + ".\(getpid()).new"
    do throws(Errno) {
      if let staging = try? UnixSocketAddress(path: temporary) {
        unlink(temporary)
        try bindAndListen(socket, at: staging, path: temporary, backlog: backlog)
        if rename(temporary, path) != 0 {
          let error = Errno.current
          unlink(temporary)
          throw error
        }
      } else {
        // No room in sun_path for a temporary name: replace the stale file and bind in place.
        unlink(path)
        try bindAndListen(socket, at: address, path: path, backlog: backlog)
      }
      return socket
    } catch {
      socket.closeQuietly()
      throw failure("bind", error)
    }
  }

  /// Connects a blocking, close-on-exec stream socket to `path`.
  package static func connect(path: String) throws(Errno) -> FileDescriptor {
    let address = try UnixSocketAddress(path: path)
    let socket = try makeStreamSocket(nonBlocking: false)
    let result = address.withSocketAddress { pointer, length in
      nothingOrErrno(retryOnInterrupt: true) { Glibc.connect(socket.rawValue, pointer, length) }
    }
    if case .failure(let error) = result {
      socket.closeQuietly()
      throw error
    }
    return socket
  }

  /// The default socket path: `$XDG_RUNTIME_DIR/pulsebar.sock`, else `/run/user/UID/pulsebar.sock`.
  package static func defaultPath(configured: String) -> String {
    if !configured.isEmpty { return configured }
    if let runtime = environment("XDG_RUNTIME_DIR") { return runtime + "/pulsebar.sock" }
    return "/run/user/\(getuid())/pulsebar.sock"
  }

  /// What to tell the user when ``defaultPath(configured:)`` had to guess: `nil` when a path
  /// was configured or `XDG_RUNTIME_DIR` is set.
  package static func guessedPathNote(configured: String) -> String? {
    guard configured.isEmpty, environment("XDG_RUNTIME_DIR") == nil else { return nil }
    let path = defaultPath(configured: configured)
    return
      "XDG_RUNTIME_DIR is not set; using \(path) (where systemd puts the runtime directory of uid \(getuid())); set XDG_RUNTIME_DIR or [socket] path if the socket lives elsewhere"
  }

  /// Why the directory holding the socket `path` is not private: not owned by this user, or
  /// writable by its group or by others (who could then take the name before the daemon, or
  /// put their own socket there for clients to find); `nil` when it is private or cannot be
  /// read. One line for the log.
  package static func directoryWarning(socketPath path: String) -> String? {
    let directory: String
    if let slash = path.lastIndex(of: "/") {
      directory = slash == path.startIndex ? "/" : String(path[..<slash])
    } else {
      directory = "."
    }
    var status = stat()
    guard stat(directory, &status) == 0 else { return nil }
    var problems: [String] = []
    if status.st_uid != geteuid() { problems.append("owned by uid \(status.st_uid)") }
    if status.st_mode & 0o022 != 0 {
      let who = status.st_mode & 0o002 != 0 ? "others" : "its group"
      problems.append(
        "writable by \(who) (mode \(String(status.st_mode & 0o7777, radix: 8)))")
    }
    guard !problems.isEmpty else { return nil }
    return
      "socket: \(directory) is \(problems.joined(separator: " and ")): another user could take or replace \(path); keep the socket in a private directory (such as $XDG_RUNTIME_DIR)"
  }

  // MARK: - Plumbing

  /// Whether something listens at `address`: a non-blocking connect, closed at once (a
  /// blocking one would wait while a live daemon's backlog is full).
  private static func probe(_ address: UnixSocketAddress) -> Result<Void, Errno> {
    let socket: FileDescriptor
    do { socket = try makeStreamSocket() } catch { return .failure(error) }
    defer { socket.closeQuietly() }
    return address.withSocketAddress { pointer, length in
      nothingOrErrno(retryOnInterrupt: true) { Glibc.connect(socket.rawValue, pointer, length) }
    }
  }

  private static func makeStreamSocket(nonBlocking: Bool = true) throws(Errno) -> FileDescriptor {
    let type =
      Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
    let raw = try valueOrErrno(retryOnInterrupt: true) { socket(AF_UNIX, type, 0) }.get()
    return FileDescriptor(rawValue: raw)
  }

  private static func bindAndListen(
    _ socket: FileDescriptor, at address: UnixSocketAddress, path: String, backlog: CInt
  ) throws(Errno) {
    try bind(socket, to: address)
    // The umask already made it 0600; chmod again in case the umask was changed under us.
    _ = chmod(path, 0o600)
    try nothingOrErrno(retryOnInterrupt: true) { Glibc.listen(socket.rawValue, backlog) }.get()
  }

  private static func bind(_ socket: FileDescriptor, to address: UnixSocketAddress) throws(Errno) {
    // Only the owner may connect: create the file 0600 (umask is process-wide, but this runs at
    // start-up and on restarts of the listener, never beside other file creation).
    let saved = umask(0o177)
    defer { umask(saved) }
    try address.withSocketAddress { pointer, length in
      nothingOrErrno(retryOnInterrupt: true) { Glibc.bind(socket.rawValue, pointer, length) }
    }.get()
  }
}

extension FileDescriptor {
  /// Sends some of `bytes` on a connected socket with `MSG_NOSIGNAL`: a vanished peer is
  /// EPIPE even where SIGPIPE is not ignored. EINTR is retried.
  package func send(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
    try valueOrErrno(retryOnInterrupt: true) {
      Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    }.get()
  }

  /// Accepts one connection as a non-blocking, close-on-exec descriptor; `nil` when none waits.
  ///
  /// `accept` then `fcntl` rather than `accept4`, which Glibc declares only under _GNU_SOURCE;
  /// pulsebar never forks, so the window before close-on-exec is harmless.
  package func accept() throws(Errno) -> FileDescriptor? {
    switch valueOrErrno(retryOnInterrupt: true, { Glibc.accept(rawValue, nil, nil) }) {
    case .success(let raw):
      let client = FileDescriptor(rawValue: raw)
      do {
        try client.setCloseOnExec()
        try client.setNonBlocking()
      } catch {
        client.closeQuietly()
        throw error
      }
      return client
    case .failure(.wouldBlock): return nil
    case .failure(let error): throw error
    }
  }

  /// `shutdown(2)` of the write side: the peer reads what was sent, then end of file.
  package func shutdownWrite() {
    _ = Glibc.shutdown(rawValue, Int32(SHUT_WR))
  }
}

extension UnixSocket {
  /// A close-on-exec datagram socket bound at `path` (`@name` for an abstract socket), mode
  /// 0600: what systemd's notify socket is, for a test that stands in for systemd.
  package static func bindDatagram(path: String) throws(Errno) -> FileDescriptor {
    let address = try UnixSocketAddress(path: path)
    let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    let socket = FileDescriptor(
      rawValue: try valueOrErrno(retryOnInterrupt: true) { Glibc.socket(AF_UNIX, type, 0) }.get())
    do {
      try bind(socket, to: address)
    } catch {
      socket.closeQuietly()
      throw error
    }
    return socket
  }
}
