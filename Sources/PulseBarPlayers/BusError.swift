internal import CSystemd
import Glibc
import PulseBarSystem

/// A D-Bus problem: what sd-bus said, as one line.
package struct BusError: Error, CustomStringConvertible {
  package var message: String
  package var description: String { message }

  init(_ message: String) { self.message = message }

  /// From a negative errno that an `sd_bus_*` call returned.
  init(_ what: String, code: Int32) {
    message = "\(what): \(String(cString: strerror(-code)))"
  }
}
