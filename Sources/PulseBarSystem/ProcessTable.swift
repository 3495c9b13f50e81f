import Glibc

/// Reads the kernel's process table: a process's parent, from `/proc/PID/stat`.
package enum ProcessTable {
  /// The parent of `process`, or `nil` when it is gone or its entry cannot be read.
  ///
  /// `/proc/PID/stat` is `PID (COMM) STATE PPID …`, and COMM may hold spaces and parentheses,
  /// so the fields are read after the last `)`. One `read` into a stack buffer: the first 128
  /// bytes hold every field up to PPID whatever COMM is (at most 16 bytes).
  package static func parent(of process: Int32, root: String = "/proc") -> Int32? {
    guard process > 0 else { return nil }
    let descriptor = open("\(root)/\(process)/stat", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { bytes -> Int32? in
      let count = read(descriptor, bytes.baseAddress, bytes.count)
      guard count > 0 else { return nil }
      return parentField(UnsafeBufferPointer(rebasing: bytes[..<count]))
    }
  }

  /// The PPID field of a `stat` line: the second field after the last `)`.
  package static func parentField(_ line: UnsafeBufferPointer<UInt8>) -> Int32? {
    guard let close = line.lastIndex(of: UInt8(ascii: ")")) else { return nil }
    var index = close + 1
    var field = 0
    var value: Int32 = 0
    var digits = 0
    while index < line.count {
      let byte = line[index]
      index += 1
      if byte == UInt8(ascii: " ") {
        if field == 2 { break }
        field += 1
        continue
      }
      guard field == 2 else { continue }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 else { return nil }
      value = value * 10 + Int32(byte - UInt8(ascii: "0"))
      digits += 1
    }
    return digits > 0 ? value : nil
  }
}
