/// Why `pulsebar overlay` cannot serve: one line (the port taken, libmicrohttpd missing).
struct OverlayError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
}
