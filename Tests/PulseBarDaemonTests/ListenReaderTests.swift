import Glibc
import PulseBarCore
import PulseBarSystem
import PulseBarTestSupport
import Testing

@testable import PulseBarDaemon

/// What `pulsebar listen` changes in a text line for its reader: polybar gets right-to-left
/// values in display order and shaped, without isolates, at their cells; i3blocks and a
/// terminal get `%{` without polybar's empty tag; anything else the line as it came.
@Suite struct ListenReaderTests {
  static func adapted(_ line: String, for reader: ListenReader) -> String? {
    var line = line
    return line.withUTF8 { bytes in
      reader.adapted(UnsafeRawBufferPointer(bytes)).map { String(decoding: $0, as: UTF8.self) }
    }
  }

  @Test func polybarGetsDisplayOrderWithoutIsolates() throws {
    try #require(BidiText.isAvailable, "libfribidi.so.0 is part of the test stack")
    let line = "► ▂▅ \u{2068}بيت 5\u{2069} 0:05\n► ▂▅ \u{2068}שלום\u{2069} 0:06\n"
    let shown = try #require(Self.adapted(line, for: .polybar))
    #expect(shown == "► ▂▅ 5 \u{FE96}\u{FEF4}\u{FE91} 0:05\n► ▂▅ םולש 0:06\n")
    // A ligature keeps its cells: لا is one presentation form and a figure space.
    let lamAlef = try #require(Self.adapted("[\u{2068}لا\u{2069}]\n", for: .polybar))
    #expect(lamAlef == "[\u{FEFB}\u{2007}]\n")
    #expect(Self.adapted("► plain 100%{O0}{x}\n", for: .polybar) == nil)
    // polybar draws a flag's indicators apart, an emoji wide each: its two letters instead.
    #expect(Self.adapted("► 🇫🇷🇯🇵 Tour\n", for: .polybar) == "► FRJP Tour\n")
  }

  @Test func otherReadersLoseTheEmptyTag() {
    #expect(Self.adapted("a 100%%{O0}{F-} b\n", for: .notPolybar) == "a 100%{F-} b\n")
    #expect(Self.adapted("a \u{2068}שלום\u{2069}\n", for: .notPolybar) == nil)
    #expect(Self.adapted("a %%{O0}{x}\n", for: .unknown) == nil)
  }

  /// The real `pulsebar listen` against a socket that serves one line: run by polybar (a
  /// process of that name runs it through `sh -c`, as polybar does) it writes the Hebrew value
  /// in display order without isolates; run with `BLOCK_NAME` (i3blocks) it takes polybar's
  /// empty tag out; run by anything else it relays the line as it came.
  @Test func theRealListenAdaptsToItsReader() throws {
    try withTemporaryDirectory { directory in
      let path = directory + "/fake.sock"
      let served = "► \u{2068}שלום\u{2069} 100%%{O0}{x}\n"
      let server = try UnixSocket.listen(path: path)
      defer { server.closeQuietly() }
      let fake = directory + "/polybar"
      try Binary.shell("cp /bin/sh '\(fake)'")
      let command = "'\(TestDaemon.binary)' listen --format text --socket '\(path)'; true"
      let cases: [(String, [String], [String: String], String)] = [
        (fake, ["-c", command], [:], "► םולש 100%%{O0}{x}"),
        ("/bin/sh", ["-c", command], ["BLOCK_NAME": "pulsebar"], "► \u{2068}שלום\u{2069} 100%{x}"),
        ("/bin/sh", ["-c", command], [:], "► \u{2068}שלום\u{2069} 100%%{O0}{x}"),
      ]
      for (program, arguments, environment, expected) in cases {
        let listen = try ChildProcess(program, arguments, environment: environment)
        var client: FileDescriptor?
        for _ in 0..<100 where client == nil {
          client = try server.accept()
          if client == nil { usleep(20_000) }
        }
        let connection = try #require(client, "listen never connected")
        try connection.writeAll(served)
        let line = listen.waitForLine(timeout: 5) { $0.hasPrefix("►") }
        #expect(line == expected, "\(program) \(environment): \(line.debugDescription)")
        connection.closeQuietly()
        listen.send(SIGTERM)
        try Binary.shell("pkill -TERM -f '[l]isten --format text --socket \(path)' || true")
        _ = try? listen.waitForExit(timeout: 5)
      }
    }
  }
}
