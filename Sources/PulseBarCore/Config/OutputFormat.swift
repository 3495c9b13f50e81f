import Glibc

/// The four line formats.
package enum OutputFormat: String, Sendable, CaseIterable {
  case text
  case waybar
  case json
  case raw
}
