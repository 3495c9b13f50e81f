import PulseBarCore
import PulseBarSystem
import Testing

@testable import PulseBarAudio

/// The PipeWire loop-side objects (the connection, what it records and its parts) are confined
/// by the thread loop's lock: a debug build stops when one is entered off the loop's thread
/// without the lock (each case runs in a child process). No PipeWire server is needed: the
/// check is made before anything reaches the server.
@Suite struct PipeWireConfinementTests {
  #if DEBUG
    /// What ``PipeWireSource`` makes when it starts, but never started: the context is never
    /// reached (only a connection attempt would), so a stand-in pointer does.
    static func recording() -> (PipeWireThreadLoop, PipeWireConnection) {
      let threadLoop = PipeWireThreadLoop(name: "pulsebar-test")!
      let settings = PipeWireSource.Settings(sampleRate: 48000, channels: 2, remote: nil)
      let recording = PipeWireConnection(
        threadLoop: threadLoop, context: OpaquePointer(bitPattern: 1)!, settings: settings,
        buffer: CaptureBuffer(sampleRate: 48000, channels: 2, fps: 60), log: { _ in },
        debug: nil)
      return (threadLoop, recording)
    }

    @Test func aLoopSidePartEnteredWithoutTheLoopLockStopsADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        let (_, recording) = Self.recording()
        recording.follow(player: nil)
      }
    }

    @Test func aLoopSidePartEnteredFromAnotherThreadThanTheLockHolderStopsADebugBuild() async {
      await #expect(processExitsWith: .failure) {
        let (threadLoop, recording) = Self.recording()
        // The lock is the loop's own; taking it on one thread lets no other in unlocked.
        threadLoop.withLock {
          nonisolated(unsafe) let recording = recording
          PosixThread.spawn { recording.reconfigure(CaptureChange(scope: .output)) }.join()
        }
      }
    }

    @Test func theSameCallsWithTheLoopLockHeldRunOn() async {
      await #expect(processExitsWith: .success) {
        let (threadLoop, recording) = Self.recording()
        threadLoop.withLock {
          recording.follow(player: nil)
          recording.reconfigure(CaptureChange(scope: .output))
          recording.reconfigure(CaptureChange(format: CaptureFormat(channels: 1, fps: 60)))
        }
      }
    }
  #endif
}
