import Glibc
import PulseBarTestSupport
import Testing

/// The processes a private server runs, as the desktop bench adds up their CPU.
struct PrivateServerProcessesTests {
  @Test(
    "a private server lists every process it runs, and none once stopped",
    arguments: AudioServerKind.allCases)
  func listsItsProcesses(_ kind: AudioServerKind) throws {
    try kind.skipUnlessRunnable()
    let server = try kind.start()
    defer { server.stop() }
    let processes = server.serverProcesses
    let expected =
      switch kind {
      case .pulseaudio: ["pulseaudio"]
      case .pipewire: ["pipewire", "wireplumber", "pipewire-pulse"]
      }
    #expect(processes.map(\.name) == expected)
    #expect(processes.contains { $0.pid == server.serverPid })
    #expect(processes.allSatisfy { kill($0.pid, 0) == 0 })
    server.kill()
    #expect(server.serverProcesses.isEmpty)
  }
}
