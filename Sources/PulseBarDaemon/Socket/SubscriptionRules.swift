import PulseBarCore
import PulseBarSystem

/// How the socket handler turns what a client asked for into a subscription, and which
/// subscriptions it refuses: the config's format and bar count as the default, its frame rate as
/// the most a client gets, and a layout check for its channels (odd bars in stereo). Made from
/// the config at start and again on every reload (`DaemonSocket.rules`).
package struct SubscriptionRules: Sendable {
  /// What a client that asks nothing gets; what a client leaves out comes from here.
  package var defaultSubscription: Subscription
  /// The daemon's frame rate: a client's `fps=` at or above it gets the daemon's rate.
  package var maxFPS: Int
  /// Vets a subscription the line syntax allows but the engine cannot serve: returns the
  /// reason (sent as `error: <reason>`), or `nil`.
  package var validate: (@Sendable (Subscription) -> String?)?

  package init(
    defaultSubscription: Subscription, maxFPS: Int,
    validate: (@Sendable (Subscription) -> String?)? = nil
  ) {
    self.defaultSubscription = defaultSubscription
    self.maxFPS = maxFPS
    self.validate = validate
  }

  /// The subscription `request` makes under these rules, or why it cannot be served.
  package func subscription(for request: SubscriptionRequest) -> Result<
    Subscription, SubscriptionError
  > {
    let subscription = request.resolved(default: defaultSubscription, maxFPS: maxFPS)
    if let problem = validate?(subscription) { return .failure(SubscriptionError(problem)) }
    return .success(subscription)
  }
}
