import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

/// `Size` and `Rss` in kB, summed over the mappings of `/proc/PID/smaps` whose header line
/// (`start-end perms offset dev inode path`) satisfies `header`.
func mappedKilobytes(pid: pid_t, where header: (Substring) -> Bool) throws -> (
  size: Int, resident: Int
) {
  var (size, resident) = (0, 0)
  var selected = false
  for line in try readTextFile("/proc/\(pid)/smaps").split(separator: "\n") {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard let first = fields.first else { continue }
    if !first.hasSuffix(":") {
      selected = header(line)
    } else if selected, fields.count >= 2, let kilobytes = Int(fields[1]) {
      if first == "Size:" { size += kilobytes }
      if first == "Rss:" { resident += kilobytes }
    }
  }
  return (size, resident)
}

/// ``ResidentPages``: clean pages of read-only file mappings leave the resident set and come
/// back intact; private copies and writable mappings stay as they are.
@Suite(.serialized) struct ResidentPagesTests {
  static let pages = 32
  static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// A file of `pages` pages, page `n` filled with byte `n + 1`, mapped privately with `protection`.
  final class MappedFile {
    let path: String
    let base: UnsafeMutableRawPointer
    let length = ResidentPagesTests.pages * ResidentPagesTests.pageSize

    init(protection: Int32) throws {
      var template = Array("/tmp/pulsebar-resident-XXXXXX".utf8CString)
      let descriptor = mkstemp(&template)
      try #require(descriptor >= 0)
      path = Self.text(template)
      defer { close(descriptor) }
      for page in 0..<ResidentPagesTests.pages {
        let bytes = [UInt8](repeating: UInt8(page + 1), count: ResidentPagesTests.pageSize)
        #expect(write(descriptor, bytes, bytes.count) == bytes.count)
      }
      let mapped = mmap(nil, length, protection, MAP_PRIVATE, descriptor, 0)
      try #require(mapped != MAP_FAILED)
      base = mapped!
    }

    /// A C string's text (up to its terminating zero).
    static func text(_ characters: [CChar]) -> String {
      String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
      munmap(base, length)
      unlink(path)
    }

    /// Reads one byte of every page (faults them all in); true when each holds its fill byte.
    func touchAll() -> Bool {
      (0..<ResidentPagesTests.pages).allSatisfy {
        base.load(fromByteOffset: $0 * ResidentPagesTests.pageSize + 7, as: UInt8.self)
          == UInt8($0 + 1)
      }
    }

    /// This mapping's resident kB, from `/proc/self/smaps`.
    var residentKilobytes: Int {
      let start = String(UInt(bitPattern: base), radix: 16) + "-"
      return (try? mappedKilobytes(pid: getpid()) { $0.hasPrefix(start) }.resident) ?? -1
    }
  }

  @Test func cleanReadOnlyPagesLeaveTheResidentSetAndComeBackIntact() throws {
    let file = try MappedFile(protection: PROT_READ)
    #expect(file.touchAll())
    #expect(file.residentKilobytes == Self.pages * Self.pageSize / 1024)
    let release = ResidentPages.releaseCleanFileMappings()
    #expect(file.residentKilobytes == 0)
    #expect(release.kilobytes >= Self.pages * Self.pageSize / 1024)
    #expect(file.touchAll())
  }

  @Test func aPrivateCopyInAReadOnlyMappingIsKept() throws {
    let file = try MappedFile(protection: PROT_READ | PROT_WRITE)
    #expect(file.touchAll())
    // Page 3 gets a private copy (as the loader's relocations do), then the mapping turns
    // read-only (as RELRO does).
    file.base.storeBytes(of: 0xAB, toByteOffset: 3 * Self.pageSize + 7, as: UInt8.self)
    #expect(mprotect(file.base, file.length, PROT_READ) == 0)
    ResidentPages.releaseCleanFileMappings()
    #expect(file.residentKilobytes == Self.pageSize / 1024)
    #expect(file.base.load(fromByteOffset: 3 * Self.pageSize + 7, as: UInt8.self) == 0xAB)
    #expect(file.base.load(fromByteOffset: 2 * Self.pageSize + 7, as: UInt8.self) == 3)
  }

  @Test func writableMappingsAreLeftAlone() throws {
    let file = try MappedFile(protection: PROT_READ | PROT_WRITE)
    #expect(file.touchAll())
    ResidentPages.releaseCleanFileMappings()
    #expect(file.residentKilobytes == Self.pages * Self.pageSize / 1024)
  }
}

/// The daemon gives back what start-up touched (bench/README.md "Memory").
@Suite("pulsebar run keeps start-up pages out of its resident set", .serialized)
struct ResidentSetEndToEndTests {
  @Test(
    "while a tone plays, FFTW's planner pages are not resident: libfftw3f is at most half mapped in",
    arguments: AudioServerKind.allCases)
  func plannerPagesLeaveTheResidentSet(_ kind: AudioServerKind) throws {
    let daemon = try PulseEndToEndTests.Daemon(kind)
    let player = try daemon.server.play(tone: 440, seconds: 10)
    defer { player.send(SIGKILL) }
    PulseEndToEndTests.expectStraightToPlaying(daemon)
    _ = daemon.process.readLines(for: 1)
    // Planning reads most of the library's code (~2.2 MB resident of ~2.3 MB mapped); the
    // transforms themselves run a few codelets (~0.6 MB).
    let fftw = try mappedKilobytes(pid: daemon.process.pid) { $0.contains("/libfftw3f.so") }
    #expect(fftw.size > 0, "libfftw3f is not mapped")
    #expect(fftw.resident * 2 < fftw.size, "\(fftw.resident) kB of \(fftw.size) kB resident")
  }
}
