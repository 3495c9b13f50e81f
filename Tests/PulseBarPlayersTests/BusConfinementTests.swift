import Glibc
import PulseBarSystem
import PulseBarTestSupport
import Testing

@testable import PulseBarPlayers

/// A session-bus connection is confined to one thread: a debug build stops when it is used
/// from another, unless it was handed over (each case runs in a child process).
@Suite struct BusConfinementTests {
  #if DEBUG
    /// Starts a private session bus and points `DBUS_SESSION_BUS_ADDRESS` at it.
    static func privateBus() throws -> PrivateSessionBus {
      var template = Array("/tmp/pulsebar-bus-XXXXXX".utf8CString)
      let directory = String(cString: mkdtemp(&template)!)
      let bus = try PrivateSessionBus(directory: directory)
      setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
      return bus
    }

    @Test func aConnectionUsedOffItsThreadStopsADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        let bus = try Self.privateBus()
        let connection = try BusConnection()
        try connection.processAll()
        PosixThread.spawn { try? connection.processAll() }.join()
        bus.stop()
      }
    }

    @Test func aConnectionHandedOverRunsOnItsNewThread() async {
      await #expect(processExitsWith: .success) {
        let bus = try Self.privateBus()
        let connection = try BusConnection()
        try connection.processAll()
        PosixThread.spawn {
          connection.moveToCurrentThread()
          try? connection.processAll()
          _ = connection.pollState
        }.join()
        bus.stop()
      }
    }

    @Test func aConnectionHandedOverIsNoLongerTheOldThreads() async {
      await #expect(processExitsWith: .failure) {
        let bus = try Self.privateBus()
        // Shared with the other thread on purpose: the point is that it may not be.
        nonisolated(unsafe) let connection = try BusConnection()
        try connection.processAll()
        PosixThread.spawn { connection.moveToCurrentThread() }.join()
        try connection.processAll()
        bus.stop()
      }
    }

    @Test func playerSignalsUsedOffTheSessionsThreadStopADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        let bus = try Self.privateBus()
        let signals = PlayerSignals(connection: try BusConnection())
        signals.unfollow(":1.5")
        PosixThread.spawn { signals.unfollow(":1.5") }.join()
        bus.stop()
      }
    }
  #endif
}
