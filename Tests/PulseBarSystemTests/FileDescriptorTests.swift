import Glibc
import Testing

@testable import PulseBarSystem

/// ``FileDescriptor``'s operations on a pipe, and the errors they throw.
@Suite struct FileDescriptorTests {
  /// A pipe's read and write ends.
  func makePipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
  }

  @Test("what is written to a pipe is read back; a closed writer reads as end of file")
  func pipeRoundTrip() throws {
    let (reader, writer) = try makePipe()
    defer { reader.closeQuietly() }
    try writer.writeAll("pulsebar ♪\n")
    var bytes = [UInt8](repeating: 0, count: 64)
    let count = try bytes.withUnsafeMutableBytes { try reader.read(into: $0) }
    #expect(String(decoding: bytes[..<count], as: UTF8.self) == "pulsebar ♪\n")
    try writer.close()
    let end = try bytes.withUnsafeMutableBytes { try reader.read(into: $0) }
    #expect(end == 0)
  }

  @Test("a non-blocking empty pipe throws wouldBlock; a full one does too")
  func nonBlocking() throws {
    let (reader, writer) = try makePipe()
    defer {
      reader.closeQuietly()
      writer.closeQuietly()
    }
    try reader.setNonBlocking()
    try writer.setNonBlocking()
    var byte: UInt8 = 0
    #expect(throws: Errno.wouldBlock) {
      _ = try withUnsafeMutableBytes(of: &byte) { try reader.read(into: $0) }
    }
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
    defer { chunk.deallocate() }
    chunk.initializeMemory(as: UInt8.self, repeating: 7)
    var written = 0
    var full = false
    while !full && written < 1 << 24 {
      do throws(Errno) {
        written += try writer.write(UnsafeRawBufferPointer(chunk))
      } catch .wouldBlock {
        full = true
      } catch {
        Issue.record("write: \(error)")
        return
      }
    }
    #expect(full && written > 0, "wrote \(written) bytes")
    #expect(reader.wait(for: .readable, timeoutMilliseconds: 0).contains(.readable))
  }

  @Test("a duplicate reads the same pipe; operations on a closed descriptor throw EBADF")
  func duplicateAndClosed() throws {
    let (reader, writer) = try makePipe()
    let copy = try reader.duplicate()
    reader.closeQuietly()
    try writer.writeAll("x")
    var byte: UInt8 = 0
    let count = try withUnsafeMutableBytes(of: &byte) { try copy.read(into: $0) }
    #expect(count == 1 && byte == UInt8(ascii: "x"))
    copy.closeQuietly()
    writer.closeQuietly()
    #expect(throws: Errno.badFileDescriptor) { try copy.setNonBlocking() }
    #expect(Errno.badFileDescriptor.description.isEmpty == false)
  }
}
