import Glibc

/// The value of an environment variable, or `nil` when unset or empty.
package func environment(_ name: String) -> String? {
  guard let value = getenv(name), value.pointee != 0 else { return nil }
  return String(cString: value)
}
