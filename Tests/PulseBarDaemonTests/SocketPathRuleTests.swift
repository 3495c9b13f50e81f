import Glibc
import PulseBarCore
import PulseBarTestSupport
import Testing

/// `socket.path` and `--socket PATH` are absolute and fit a Unix socket address, in every
/// command that reads them (run, listen, status, check-config): a config error with
/// `FILE:LINE`, or a usage error, never a socket that fails to bind or is looked for in the
/// wrong directory.
@Suite struct SocketPathRuleTests {
  static let long = "/tmp/" + String(repeating: "p", count: 155)

  @Test(arguments: [long, "pulsebar.sock", "run/x.sock", "~/x.sock"])
  func aBadSocketPathIsAConfigErrorWithItsLine(path: String) throws {
    let text = "[general]\nbars = 8\n[socket]\npath = \(path)\n"
    let error = #expect(throws: ConfigError.self) { try ConfigParser.parse(text, file: "cfg") }
    let message = error?.description ?? ""
    #expect(message.hasPrefix("cfg:4: "), "\(message)")
    #expect(message.contains(path.hasPrefix("/") ? "at most 107" : "absolute"), "\(message)")
    for good in ["", "/run/user/1000/pulsebar.sock", "/" + String(repeating: "a", count: 106)] {
      let parsed = try ConfigParser.parse("[socket]\npath = \(good)\n", file: "cfg")
      #expect(parsed.socketPath == good)
    }
  }

  /// The same file through the real commands: check-config names the line, and run, listen
  /// and status refuse a bad `--socket` with one usage line.
  @Test func everyCommandRefusesABadPath() throws {
    try withTemporaryDirectory { directory in
      let config = directory + "/config"
      try writeTextFile(config, "[socket]\npath = \(Self.long)\n")
      let check = try Binary.run(["check-config", config])
      #expect(check.status != 0)
      #expect(check.error.contains("\(config):2: "), "\(check.error)")
      for command in [["run", "--socket"], ["listen", "--socket"], ["status", "--socket"]] {
        for bad in ["relative.sock", Self.long] {
          let result = try Binary.run(command + [bad], timeout: 10)
          #expect(result.status == 2, "\(command) \(bad): \(result.error)")
          #expect(result.error.contains("--socket: "), "\(result.error)")
        }
      }
    }
  }
}
