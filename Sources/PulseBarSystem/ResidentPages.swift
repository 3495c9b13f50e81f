internal import CLinux
import Glibc

/// Gives back the pages of this process's read-only file mappings (program text, read-only data)
/// that start-up touched, so the resident set holds what the steady state uses.
///
/// Start-up runs code that never runs again: option and config parsing, the Swift runtime's
/// first pass over its metadata sections, FFTW's planner. On a file in the page cache the
/// kernel maps a whole block around every page fault, so most of the executable ends up
/// resident, and since no other process maps pulsebar's binary (or, on most desktops,
/// libfftw3f) those pages all count in its unique set size. `madvise(MADV_DONTNEED)` on a
/// page of a private file mapping that was never written only drops the page-table entry:
/// nothing is lost, the page cache keeps the file, and a page used again faults back in.
package enum ResidentPages {
  /// What ``releaseCleanFileMappings()`` did: the mappings it went through and the kB of
  /// clean file pages they had resident before.
  package struct Release: Sendable, Equatable {
    package var mappings = 0
    package var kilobytes = 0
  }

  /// Drops the page-table entries of the clean file pages of every private, non-writable,
  /// file-backed mapping (`/proc/self/maps`).
  ///
  /// Pages with a private copy (a position-independent object's relocated `.data.rel.ro`, a
  /// debugger's breakpoint), told apart by `/proc/self/pagemap`, are kept: `MADV_DONTNEED`
  /// would throw the copy away and the file's bytes would come back in its place. Writable
  /// mappings are never touched (a thread could write a page between the look and the
  /// release), nor are shared ones. Returns an empty release when `/proc` cannot be read.
  @discardableResult
  package static func releaseCleanFileMappings() -> Release {
    guard let maps = readProcFile("/proc/self/maps"),
      let pagemap = try? FileDescriptor.open("/proc/self/pagemap", O_RDONLY)
    else { return Release() }
    defer { pagemap.closeQuietly() }
    var release = Release()
    for line in maps.split(separator: "\n") {
      guard let range = readOnlyFileMapping(line) else { continue }
      release.mappings += 1
      release.kilobytes += releaseCleanPages(range, pagemap: pagemap) * pageSize / 1024
    }
    return release
  }

  /// Makes every thread allocate from glibc's main malloc arena (`M_ARENA_MAX` 1), for a
  /// process whose threads allocate little and never per frame: by default each thread that
  /// calls malloc gets an arena of its own, and the pages it touched stay resident and
  /// unique; one arena shares those pages (native PipeWire's two threads had an arena each).
  /// Call before threads start.
  package static func useOneMallocArena() {
    _ = mallopt(M_ARENA_MAX, 1)
  }

  private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// The address range of a `/proc/self/maps` line (`start-end perms offset dev inode path`)
  /// that is private, not writable and backed by a file; else `nil`.
  static func readOnlyFileMapping(_ line: Substring) -> Range<Int>? {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard fields.count >= 6, fields[5].hasPrefix("/"), fields[4] != "0" else { return nil }
    let permissions = Array(fields[1].utf8)
    guard permissions.count == 4, permissions[1] == UInt8(ascii: "-"),
      permissions[3] == UInt8(ascii: "p")
    else { return nil }
    let bounds = fields[0].split(separator: "-")
    guard bounds.count == 2, let start = Int(bounds[0], radix: 16),
      let end = Int(bounds[1], radix: 16), start < end
    else { return nil }
    return start..<end
  }

  /// Releases the runs of pages in `range` that hold no private copy; returns how many of
  /// them were resident.
  private static func releaseCleanPages(_ range: Range<Int>, pagemap: FileDescriptor) -> Int {
    // One 64-bit entry per page: bit 63 present, 62 swapped, 61 a file (or shared) page.
    let present: UInt64 = 1 << 63
    let swapped: UInt64 = 1 << 62
    let filePage: UInt64 = 1 << 61
    let pages = (range.upperBound - range.lowerBound) / pageSize
    var entries = [UInt64](repeating: 0, count: pages)
    let bytes = entries.withUnsafeMutableBytes { buffer in
      Int(
        pread(pagemap.rawValue, buffer.baseAddress, buffer.count, (range.lowerBound / pageSize) * 8)
      )
    }
    guard bytes == pages * 8 else { return 0 }
    var released = 0
    var runStart: Int?
    for index in 0...pages {
      let keep =
        index == pages
        || entries[index] & swapped != 0
        || (entries[index] & present != 0 && entries[index] & filePage == 0)
      if !keep {
        if entries[index] & present != 0 { released += 1 }
        if runStart == nil { runStart = index }
      } else if let first = runStart {
        let start = UnsafeMutableRawPointer(bitPattern: range.lowerBound + first * pageSize)
        if madvise(start, (index - first) * pageSize, MADV_DONTNEED) != 0 { return 0 }
        runStart = nil
      }
    }
    return released
  }

  /// A `/proc` file's whole text (its size is not known in advance), or `nil`.
  private static func readProcFile(_ path: String) -> String? {
    guard let descriptor = try? FileDescriptor.open(path, O_RDONLY) else { return nil }
    defer { descriptor.closeQuietly() }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16384)
    while true {
      let count = chunk.withUnsafeMutableBytes { try? descriptor.read(into: $0) }
      guard let count else { return nil }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
