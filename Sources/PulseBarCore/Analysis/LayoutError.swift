import Glibc

/// A bar layout that cannot be made for these settings.
package struct LayoutError: Error, Equatable, CustomStringConvertible {
  package var message: String
  package var description: String { message }
}
