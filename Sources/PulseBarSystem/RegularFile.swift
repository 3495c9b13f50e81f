import Glibc

/// Reads a whole file named by someone else (a player's track path), refusing anything but a
/// small regular file.
///
/// The file is opened with `O_NONBLOCK | O_NOCTTY` (a FIFO with no writer would hang the open
/// and the read; a terminal would become the process's), then checked with `fstat`: a FIFO, a
/// device, a directory or a socket is refused without reading a byte, and so is a file over
/// the limit (checked again while reading, for one that grows).
package enum RegularFile {
  /// Why a file was not read.
  package enum Failure: Error, Equatable, CustomStringConvertible {
    /// It does not exist.
    case missing
    /// It is a FIFO, a directory, a device or a socket (named).
    case notRegular(String)
    /// It holds more than the limit.
    case tooLarge(Int)
    /// The system refused (permissions, I/O).
    case system(Errno)

    package var description: String {
      switch self {
      case .missing: "no such file"
      case .notRegular(let kind): "not a regular file (\(kind))"
      case .tooLarge(let limit): "larger than \(limit) bytes"
      case .system(let error): error.description
      }
    }

    /// The system refused for a moment (out of descriptors or memory, interrupted, busy): the
    /// same read may work later, so this is not the file's answer.
    package var isTransient: Bool {
      guard case .system(let error) = self else { return false }
      return [EMFILE, ENFILE, EAGAIN, EINTR, ENOMEM, ENOBUFS].contains(error.rawValue)
    }
  }

  /// The bytes of `path`, at most `maximumBytes`.
  package static func read(_ path: String, maximumBytes: Int) throws(Failure) -> [UInt8] {
    let descriptor: FileDescriptor
    do {
      descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
    } catch {
      if error == .noSuchFile { throw .missing }
      // A Unix socket cannot be opened.
      if error.rawValue == ENXIO { throw .notRegular("a socket") }
      throw .system(error)
    }
    defer { descriptor.closeQuietly() }
    var status = stat()
    guard fstat(descriptor.rawValue, &status) == 0 else { throw .system(Errno.current) }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notRegular(kind(status.st_mode)) }
    guard status.st_size <= maximumBytes else { throw .tooLarge(maximumBytes) }
    var bytes: [UInt8] = []
    // Its size once, not doubled while growing (art may be 16 MB: the memory is counted).
    bytes.reserveCapacity(Int(status.st_size) + 1)
    var chunk = [UInt8](repeating: 0, count: 16384)
    while true {
      let result = chunk.withUnsafeMutableBytes { buffer in
        Result { () throws(Errno) in try descriptor.read(into: buffer) }
      }
      switch result {
      case .success(0): return bytes
      case .success(let count): bytes.append(contentsOf: chunk[..<count])
      case .failure(let error): throw .system(error)
      }
      if bytes.count > maximumBytes { throw .tooLarge(maximumBytes) }
    }
  }

  /// What a file type is, for the failure that refuses it.
  package static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a file"
    }
  }
}
