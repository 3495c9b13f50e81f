internal import CSystemd
import Glibc
import PulseBarCore

/// The `Player` properties pulsebar reads from a message (``BusMessage/readPlayerProperties()``);
/// `nil` for what the message did not carry (or carried with the wrong type).
package struct PlayerProperties: Sendable, Equatable {
  package var status: PlayerStatus?
  package var metadata: Metadata?
  /// `Position`, microseconds, within ``PlayerValueBounds``.
  package var position: Int64?
  /// `Rate`, within ``PlayerValueBounds/rateRange``.
  package var rate: Double?
  /// `Volume`, within ``PlayerValueBounds/volume(_:)``.
  package var volume: Double?

  package init(
    status: PlayerStatus? = nil, metadata: Metadata? = nil, position: Int64? = nil,
    rate: Double? = nil, volume: Double? = nil
  ) {
    self.status = status
    self.metadata = metadata
    self.position = position
    self.rate = rate
    self.volume = volume
  }
}
