/// Why `pulsebar overlay` cannot serve: one line (the port taken, libmicrohttpd missing).
package struct OverlayError: Error, CustomStringConvertible {
  package let description: String

  init(_ description: String) { self.description = description }
}
