import Glibc
import PulseBarSystem

/// `dbus-monitor` on a bus, watching PropertiesChanged signals: when each was sent.
package final class SignalMonitor {
  private let process: ChildProcess

  package init(address: String) throws(SpawnError) {
    process = try ChildProcess(
      "dbus-monitor", ["--address", address, "type='signal',member='PropertiesChanged'"])
  }

  deinit {
    process.send(SIGTERM)
    _ = try? process.waitForExit(timeout: 5)
  }

  /// The `time=` (seconds since the epoch) of the next PropertiesChanged signal whose body
  /// holds the string `text`; consumes what it reads.
  package func timeOfSignal(containing text: String, timeout: Double = 2) -> Double? {
    var header: Double?
    let deadline = ChildProcess.now() + timeout
    while let line = process.readLine(timeout: max(0, deadline - ChildProcess.now())) {
      if line.hasPrefix("signal ") {
        header = line.split(separator: " ").first { $0.hasPrefix("time=") }
          .flatMap { Double($0.dropFirst(5)) }
      } else if line.contains("\"\(text)\""), let header {
        return header
      }
    }
    return nil
  }
}
