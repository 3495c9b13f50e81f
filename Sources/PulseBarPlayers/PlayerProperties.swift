internal import CSystemd
import Glibc
import PulseBarCore

/// The `Player` properties pulsebar reads from a message (``BusMessage/readPlayerProperties()``);
/// `nil` for what the message did not carry (or carried with the wrong type).
struct PlayerProperties: Equatable {
  var status: PlayerStatus?
  var metadata: Metadata?
  /// `Position`, microseconds, within ``PlayerValueBounds``.
  var position: Int64?
  /// `Rate`, within ``PlayerValueBounds/rateRange``.
  var rate: Double?
  /// `Volume`, within ``PlayerValueBounds/volume(_:)``.
  var volume: Double?
}
