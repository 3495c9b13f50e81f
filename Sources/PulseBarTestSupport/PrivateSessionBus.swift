import Glibc

/// A private D-Bus session bus for integration tests: `dbus-daemon --nofork` with a temporary
/// config that listens on `<directory>/bus` and lets any user connect (the real-bar tests run
/// their daemon as an unprivileged user).
///
/// Give it a ``PrivatePulseServer``'s directory and the server's
/// ``PrivatePulseServer/environment`` already points `DBUS_SESSION_BUS_ADDRESS` at it. Runs
/// under an `sh` guard that kills the bus when this process closes the guard's stdin (or
/// dies), so a crashed test run leaves no stray `dbus-daemon`. Confined to its creator.
package final class PrivateSessionBus {
  /// The `unix:path=…` address clients connect to.
  package let address: String
  private let guardProcess: ChildProcess

  /// Starts the bus in `directory` and waits until it prints its address.
  package init(directory: String) throws(SpawnError) {
    let config = directory + "/session-bus.conf"
    let socket = directory + "/bus"
    try PrivatePulseServer.writeFile(
      config,
      """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>session</type>
        <listen>unix:path=\(socket)</listen>
        <auth>EXTERNAL</auth>
        <policy context="default">
          <allow send_destination="*" eavesdrop="true"/>
          <allow eavesdrop="true"/>
          <allow own="*"/>
          <allow user="*"/>
        </policy>
      </busconfig>
      """)
    let guardScript =
      "dbus-daemon --config-file=\"$1\" --nofork --print-address=1 & p=$!; read _; "
      + "kill $p 2>/dev/null; wait $p"
    guardProcess = try ChildProcess("sh", ["-c", guardScript, "sh", config], stdin: true)
    guard let line = guardProcess.readLine(timeout: 10), line.hasPrefix("unix:") else {
      throw SpawnError(message: "dbus-daemon did not start: \(guardProcess.standardError)")
    }
    address = line
  }

  deinit { stop() }

  /// Stops the bus. Idempotent.
  package func stop() {
    guardProcess.closeStdin()
    _ = try? guardProcess.waitForExit(timeout: 5)
  }

  /// `DBUS_SESSION_BUS_ADDRESS` for a client of this bus.
  package var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }
}
