import PulseBarCore

/// Why a subscription line was refused; `description` is what follows `error: `.
package struct SubscriptionError: Error, Equatable, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
